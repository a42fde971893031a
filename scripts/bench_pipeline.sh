#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# The pipeline figures a user of a flow-aging pipeline asks for, each side
# by side in one run, repetitions interleaved (A B C ... A B C ...):
#
#   forwarding  timer_pipeline (per-flow timeouts; lazy and every-packet
#               refresh; --timer-adapter direct and rte) against DPDK's
#               l2fwd-event made fair (below), net_pcap replaying a capture
#               of 100,000 UDP flows (infinite_rx), event_sw, atomic queue;
#   churn       the same capture with a 10 ms idle timeout and a 1 ms tick:
#               every flow ends between two passes of the capture and
#               starts again, so arms, expiries and records run at the
#               packet rate; flows/s and expiry lateness p50/p99;
#   aging       1M and 4M flows read once from a capture (2 s timeout):
#               time from the last packet to the last record, peak RSS,
#               both adapters;
#   ipfix       scripts/bench_ipfix.sh, when present (IPFIX export against
#               softflowd); its JSON is merged.
#
# Each figure: median, min and max per program over the repetitions; each
# ratio: ratio of the medians and the spread of the per-repetition ratios.
# During each forwarding run, tools/cpu_hop samples how far apart the two
# CPUs are; the report also gives each program's rate, and the ratios,
# with the CPUs near and with them far (a VM's host moves its vCPUs).
# Writes $OUT/pipeline.json (default bench/) and prints a table.
#
#   bash scripts/bench_pipeline.sh [--dpdk VERSION] [--quick] [--reps N]
#        [--secs S] [--no-aging] [--no-ipfix] [--prepare]
#        [--programs "NAME..."] [--rep R]
#
#   --dpdk VERSION: run on that DPDK (scripts/dpdk.sh builds it once into
#   its cache; without it, the DPDK of PKG_CONFIG_PATH, else Debian's
#   22.11): timer_pipeline, its "rte" adapter and l2fwd-event all come
#   from it; the output goes to bench/dpdk-VERSION/. Every JSON written
#   names its run (date, commit, DPDK version, machine).
#
#   --prepare: only build the fair l2fwd-event and write the captures
#   (1M/4M: ~3 min, once), so that a later run measures at once.
#
#   --programs: only these of the forwarding and churn programs (PROGS,
#   after the options), in that order. --rep R: only repetition R of the N, keeping
#   the logs of the others, and the report over every repetition there
#   is so far: scripts/bench_fwd_versions.sh interleaves the repetitions
#   of two DPDK versions this way.
#
#   full:   5 repetitions of 10 s, aging 1M and 4M x 3 reps (~15-20 min,
#           plus ~3 min once to write the captures)
#   quick:  2 repetitions of 5 s, aging 100K x 1 rep (~2-3 min)
#
# Fair anchor. l2fwd-event is built out of tree from the sources of the
# DPDK the run uses (Debian's dpdk-doc for 22.11, PREFIX/share/dpdk/
# examples for a DPDK of scripts/dpdk.sh) with exactly two changes,
# applied below by sed and checked:
#  1. its mbuf pool (sized for descriptors only) gets 131072 more mbufs:
#     net_pcap's infinite_rx loads the whole capture into the pool, and
#     without them the port cannot start;
#  2. its statistics loop on the main lcore sleeps 1 ms per pass instead
#     of spinning on the TSC: in the only 2-CPU layout it can run
#     (main, worker, service lcore: --lcores=0@0,1@1,2@0) the spinning
#     main lcore shares CPU 0 with the only worker and takes about half
#     of its time. The loop still prints every -T seconds.
# Same for both: capture, event_sw, atomic scheduling of packets, 4096
# events in flight, 32-deep ports and bursts, 1024 RX/TX descriptors,
# one service lcore on CPU 1, forwarding back out of the same port.
# Different, by design of each program: l2fwd-event receives and sends
# through the event device's RX/TX adapters (services on CPU 1, next to
# the scheduler) and its worker lcore shares CPU 0 with its sleeping main
# lcore; timer_pipeline polls RX on its main lcore (CPU 0, also the worker
# and the 10 ms control loop) and sends from the worker, while the
# scheduler and the timer adapter's service run on CPU 1.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/bench_common.sh
bench_dpdk_select "$@"
set -- ${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"}
CAPS=${BENCH_CAPTURES:-$BUILD_DIR/bench-captures}
QUICK=0
REPS=5
SECS=10
AGING=1
IPFIX=1
PREPARE=0
ONLY_PROGS=""
ONLY_REP=""
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1; REPS=2; SECS=5 ;;
	--reps) REPS=$2; shift ;;
	--secs) SECS=$2; shift ;;
	--no-aging) AGING=0 ;;
	--no-ipfix) IPFIX=0 ;;
	--prepare) PREPARE=1 ;;
	--programs) [ $# -ge 2 ] || { echo "bench_pipeline: --programs needs a list" >&2; exit 2; }
		ONLY_PROGS=$2; shift ;;
	--rep) [ $# -ge 2 ] || { echo "bench_pipeline: --rep needs a number" >&2; exit 2; }
		ONLY_REP=$2; shift ;;
	[0-9]*) SECS=$1 ;;	# the old positional form: seconds per run
	*) echo "bench_pipeline: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
case "$REPS$SECS$ONLY_REP" in *[!0-9]*)
	echo "bench_pipeline: --reps, --secs and --rep take integers" >&2; exit 2 ;;
esac
[ -z "$ONLY_REP" ] || { [ "$ONLY_REP" -ge 1 ] && [ "$ONLY_REP" -le "$REPS" ]; } ||
	{ echo "bench_pipeline: --rep R needs 1 <= R <= --reps" >&2; exit 2; }
# Programs of the forwarding and churn figures, run in this order in
# every repetition.
PROGS="l2fwd tp_direct_lazy tp_direct_every tp_rte_lazy tp_rte_every"
PROGS="$PROGS churn_direct churn_rte"
if [ -n "$ONLY_PROGS" ]; then
	for p in $ONLY_PROGS; do
		case " $PROGS " in *" $p "*) ;; *)
			echo "bench_pipeline: unknown program '$p' (one of: $PROGS)" >&2
			exit 2 ;;
		esac
	done
	PROGS=$ONLY_PROGS
fi
[ "$SECS" -ge 4 ] || { echo "bench_pipeline: --secs >= 4" >&2; exit 2; }
export BUILD_DIR
# BENCH_SKIP_SETUP=1: use the binaries already in BUILD_DIR as they are.
[ "${BENCH_SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh
if [ "$(id -u)" = 0 ]; then
	for p in dpdk-doc make time patch; do
		dpkg-query -W -f='${Status}' $p 2>/dev/null |
			grep -q "install ok installed" ||
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				--no-install-recommends $p >/dev/null
	done
fi
mkdir -p "$OUT" "$CAPS"
LOGS=$OUT/pipeline_logs
# One repetition of several (--rep): the others' logs stay.
[ -n "$ONLY_REP" ] || rm -rf "$LOGS"
mkdir -p "$LOGS"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# Memory: hugepages when enough are free for every run (the aging runs
# need up to ~4 GB with 4M flows), else 4K pages; the same for both.
free_mb=$(awk '/HugePages_Free/ {f=$2} /Hugepagesize/ {s=$2}
	END {print int(f * s / 1024)}' /proc/meminfo)
if [ "${BENCH_HUGE:-auto}" = 1 ] ||
   { [ "${BENCH_HUGE:-auto}" = auto ] && [ "$free_mb" -ge 8192 ]; }; then
	MEM="--in-memory"
else
	# (--no-huge implies legacy memory, which --in-memory refuses)
	MEM="--no-huge -m 8192 --file-prefix bench_pipeline_$$"
fi

# l2fwd-event, fair (the two changes listed at the top).
L2=$BUILD_DIR/l2fwd-event-fair
build_l2fwd() {
	local src=$BENCH_DPDK_PREFIX/share/dpdk/examples/l2fwd-event

	# Built, and every library it needs found.
	[ -x "$L2/build/l2fwd-event" ] &&
		! ldd "$L2/build/l2fwd-event" | grep -q 'not found' && return 0
	rm -rf "$L2"
	mkdir -p "$L2"
	cp -r "$src/." "$L2/"
	sed -i 's/MEMPOOL_CACHE_SIZE), 8192U);/MEMPOOL_CACHE_SIZE), 8192U) + 131072;/' \
		"$L2/main.c"
	sed -i '/^l2fwd_event_print_stats(/,/^}/ s/^\twhile (!rsrc->force_quit) {$/&\n\t\trte_delay_us_sleep(1000); \/* bench: do not spin *\//' \
		"$L2/main.c"
	grep -q '8192U) + 131072;' "$L2/main.c" &&
		[ "$(grep -c 'rte_delay_us_sleep(1000); /\* bench' "$L2/main.c")" = 1 ] ||
		{ echo "bench_pipeline: cannot patch l2fwd-event" >&2; exit 1; }
	diff -u --label "$src/main.c" --label l2fwd-event-fair/main.c \
		"$src/main.c" "$L2/main.c" > "$L2/fair.diff" || true
	# The rpath: a DPDK outside the system's library path (an rpath, not
	# a runpath, which would not reach the libraries' own dependencies).
	make -s -C "$L2" LDFLAGS="-Wl,-rpath,$BENCH_DPDK_LIBDIR -Wl,--disable-new-dtags" \
		>/dev/null
}
build_l2fwd
cp "$L2/fair.diff" "$OUT/l2fwd-event-fair.diff"

capture() { # capture FILE FLOWS SEED
	[ -f "$1" ] && return 0
	echo "== writing $1 ($2 flows, once)"
	"$PY" tools/gen_pcap.py -o "$1.tmp" --seed "$3" --flows "$2" \
		--mix udp=1 --pkts 1 --vlan-pct 0 --ipv6-pct 0 \
		--idle-gap-pct 0 --size 64 >/dev/null
	mv "$1.tmp" "$1"
}
CAP100K=$CAPS/udp100k.pcap
capture "$CAP100K" 100000 100

if [ "$PREPARE" = 1 ]; then
	capture "$CAPS/udp1m.pcap" 1000000 1000
	capture "$CAPS/udp4m.pcap" 4000000 4000
	echo "bench_pipeline: prepared (l2fwd-event and captures in $CAPS)"
	exit 0
fi

TP=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
[ -x "$TP" ] || { echo "bench_pipeline: build $TP first" >&2; exit 1; }
VDEV="net_pcap0,rx_pcap=$CAP100K,infinite_rx=1"
# shellcheck disable=SC2086
EAL_COMMON="--no-pci $MEM --vdev=event_sw0 --log-level=lib.eal:warning"

run_l2fwd() { # run_l2fwd LOG
	# shellcheck disable=SC2086
	timeout -s INT "$SECS" "$L2/build/l2fwd-event" --lcores=0@0,1@1,2@0 \
		-S 1 $EAL_COMMON --vdev="$VDEV" -- -p 0x1 --mode=eventdev \
		--eventq-sched=atomic -T 1 > "$1" 2>&1 || true
}

run_tp() { # run_tp LOG ADAPTER REFRESH [OPTIONS...]
	local log=$1 adapter=$2 refresh=$3

	shift 3
	# shellcheck disable=SC2086
	timeout --foreground -s INT $((SECS + 60)) "$TP" -l 0-1 -S 1 $EAL_COMMON \
		--vdev="$VDEV" -- --fwd-mode loop --flows 262144 \
		--timer-adapter "$adapter" --refresh "$refresh" -T 1 \
		--duration "$SECS" "$@" > "$log" 2>&1 || true
}

run_prog() { # run_prog NAME LOG
	case $1 in
	l2fwd) run_l2fwd "$2" ;;
	tp_direct_lazy) run_tp "$2" direct lazy --tmo-udp 5s ;;
	tp_direct_every) run_tp "$2" direct every-packet --tmo-udp 5s ;;
	tp_rte_lazy) run_tp "$2" rte lazy --tmo-udp 5s ;;
	tp_rte_every) run_tp "$2" rte every-packet --tmo-udp 5s ;;
	churn_direct) run_tp "$2" direct lazy --tmo-udp 10ms \
		--timer-tick 1ms --flow-log /dev/null ;;
	churn_rte) run_tp "$2" rte lazy --tmo-udp 10ms --timer-tick 1ms \
		--flow-log /dev/null ;;
	esac
}

# How far apart the two CPUs are, sampled during each forwarding run
# (tools/cpu_hop.c: 10 samples a second, each at most 2 ms of both CPUs):
# on a VM the host moves the vCPUs, and both l2fwd-event and the pipeline
# forward at two rates according to it (docs/bench.rst); the report
# compares them at each distance too. Not during the churn runs, whose
# lateness the samples' wake-ups would add to.
# The runs' EAL runtime folder (--no-huge's --file-prefix) goes at exit.
trap 'bench_hop_stop; rm -rf "/var/run/dpdk/bench_pipeline_$$"' EXIT

t_start=$(date +%s)
for r in $(seq "${ONLY_REP:-1}" "${ONLY_REP:-$REPS}"); do
	for p in $PROGS; do
		echo "== rep $r/$REPS: $p ($SECS s)"
		case $p in
		churn_*) ;;
		*) bench_hop_start "$LOGS/$p.$r.hop"
		   date +%s%3N > "$LOGS/$p.$r.start" ;;
		esac
		run_prog "$p" "$LOGS/$p.$r.log"
		bench_hop_stop
	done
done

# Aging: a capture read once, 2 s idle timeout, stop when every flow
# ended; the pipeline logs how long after the last packet that was. A run
# still going after AGING_CAP seconds is stopped and reported as not
# finished (DPDK's adapter took over 10 minutes for 4M flows on a loaded
# 2-CPU VM), so the whole benchmark stays bounded.
AGING_CAP=${BENCH_AGING_CAP:-60}
AGING_SIZES=""
if [ "$AGING" = 1 ]; then
	if [ "$QUICK" = 1 ]; then
		AGING_SIZES="100k"
		AGING_REPS=1
	else
		AGING_SIZES="1m 4m"
		AGING_REPS=3
		capture "$CAPS/udp1m.pcap" 1000000 1000
		capture "$CAPS/udp4m.pcap" 4000000 4000
	fi
fi
for n in $AGING_SIZES; do
	case $n in
	100k) flows=131072 ;;
	1m) flows=1200000 ;;
	4m) flows=4400000 ;;
	esac
	for r in $(seq 1 "$AGING_REPS"); do
		for a in direct rte; do
			echo "== aging $n flows, $a adapter, rep $r/$AGING_REPS"
			# shellcheck disable=SC2086
			/usr/bin/time -v timeout --foreground -k 30 -s INT "$AGING_CAP" \
				"$TP" -l 0-1 -S 1 \
				$EAL_COMMON \
				--vdev="net_pcap0,rx_pcap=$CAPS/udp$n.pcap" -- \
				--fwd-mode drop --flows "$flows" --timer-adapter "$a" \
				--tmo-udp 2s -T 0 --stop-when-done \
				--flow-log /dev/null \
				> "$LOGS/aging_${n}_$a.$r.log" 2>&1 || true
		done
	done
done

if [ "$IPFIX" = 1 ] && [ -f scripts/bench_ipfix.sh ]; then
	echo "== IPFIX export (scripts/bench_ipfix.sh)"
	ipfix_args=()
	[ "$QUICK" = 1 ] && ipfix_args+=(--quick)
	BENCH_OUT=$OUT bash scripts/bench_ipfix.sh "${ipfix_args[@]}" \
		> "$LOGS/ipfix.log" 2>&1 ||
		echo "bench_pipeline: bench_ipfix.sh failed (see $LOGS/ipfix.log)"
fi

"$PY" tools/bench_pipeline_report.py --logs "$LOGS" --out "$OUT" \
	--reps "$REPS" --secs "$SECS" --quick "$QUICK" \
	--progs "$PROGS" --aging "$AGING_SIZES" \
	--wall $(($(date +%s) - t_start)) --mem "$MEM"
bench_stamp "$OUT/pipeline.json"
