#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# The adapter comparison (ours "direct" vs DPDK's "rte" vs the 19.05
# design "ring"): timer_bench's table (stdout), bench/results.json and PNG
# plots in bench/; then DPDK's own harness, dpdk-test-eventdev's timer
# producers (DPDK's adapter only), on the closed-loop cases of timer_bench,
# written to bench/test_eventdev.json and shown next to timer_bench's
# "closedloop" figures.
#
#   bash scripts/bench.sh            full mode (1K/100K/1M outstanding, 3 reps)
#   bash scripts/bench.sh --quick    quick mode (3-4 minutes)
#   bash scripts/bench.sh --dpdk 25.11.2 [--quick]
#                                    on DPDK 25.11.2 (scripts/dpdk.sh builds
#                                    it once into its cache): "rte" and
#                                    dpdk-test-eventdev are that DPDK's; the
#                                    output goes to bench/dpdk-25.11.2/
#   (other arguments go to timer_bench: --reps N, --tests LIST, ...)
#
# Without --dpdk, the DPDK of PKG_CONFIG_PATH, else Debian's 22.11. Every
# JSON written names its run: date, commit, DPDK version, machine.
#
# Closed-loop repetitions: some closed-loop cases either keep up or
# collapse into a retry storm, and which one happens varies from run to
# run, so a median of 3 is no figure for them. After the main run,
# timer_bench's closed loop runs BENCH_CL_REPS more times (default 10),
# one repetition per run, all adapters in each (interleaved);
# tools/bench_collapse.py writes bench/closedloop_reps.json and a table:
# every repetition's rate and arm retries, how many collapsed (a rate
# below a tenth of the adapter's best repetition of the case), and the
# ratio in each mode.
#
# The event_direct hop: timer_bench's arm and cancel at 1M outstanding
# timers with the event_direct driver loaded, DPDK's API through the
# driver ("rte") against the library's own call ("direct"), interleaved
# repetitions (BENCH_HOP_REPS, default 8, --quick 4; 0 skips it):
# bench/hop.json and a table (tools/bench_hop.py), checked against 2 ns
# per timer.
#
# Layout: lcore 0 produces and consumes, lcore 1 is the service lcore
# (event_sw scheduler and the adapter's service). On a machine with more
# CPUs, set BENCH_EAL, e.g. "-l 0-3 -S 2,3": two service lcores put the
# scheduler and the adapter's service on separate CPUs (test-eventdev's
# layout), and a third non-service lcore makes the closed-loop test use
# separate producer and consumer lcores. BENCH_NO_TEST_EVENTDEV=1 skips
# the dpdk-test-eventdev step.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/bench_common.sh
bench_dpdk_select "$@"
set -- ${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"}
[ "${BENCH_SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh

if [ "$(id -u)" = 0 ]; then
	dpkg-query -W -f='${Status}' python3-matplotlib 2>/dev/null |
		grep -q "install ok installed" || {
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends python3-matplotlib >/dev/null
	}
	# DPDK's adapter preallocates ~350 B per configured timer: 1M timers
	# need about 1 GB of hugepages next to ours and the timers themselves.
	hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	if [ -w "$hp" ] && [ "$(cat $hp)" -lt 1536 ]; then
		echo 1536 > "$hp" 2>/dev/null || true
	fi
fi

QUICK=0
for a in "$@"; do
	[ "$a" = --quick ] && QUICK=1
done
mkdir -p "$OUT"
EAL=${BENCH_EAL:-"-l 0-1 -S 1"}
# shellcheck disable=SC2086
timeout 3000 "$BUILD_DIR/app/timer_bench/dpdk-timer_bench" $EAL \
	--vdev=event_sw0 --no-pci --in-memory --log-level=lib.eal:warning \
	-- --json "$OUT/results.json" "$@" | tee "$OUT/results.txt"
bench_stamp "$OUT/results.json"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" tools/bench_plot.py "$OUT/results.json" --outdir "$OUT"

# The closed loop again, one repetition per run (see the top).
CL_REPS=${BENCH_CL_REPS:-10}
if [ "$CL_REPS" -gt 0 ]; then
	rm -rf "$OUT/closedloop_reps"
	mkdir -p "$OUT/closedloop_reps"
	qflag=()
	[ "$QUICK" = 1 ] && qflag=(--quick)
	for i in $(seq 1 "$CL_REPS"); do
		echo "== closed loop, repetition $i of $CL_REPS"
		# shellcheck disable=SC2086
		timeout 600 "$BUILD_DIR/app/timer_bench/dpdk-timer_bench" $EAL \
			--vdev=event_sw0 --no-pci --in-memory \
			--log-level=lib.eal:warning -- "${qflag[@]}" --reps 1 \
			--tests closedloop --adapters direct,rte,ring \
			--json "$OUT/closedloop_reps/rep$i.json" > \
			"$OUT/closedloop_reps/rep$i.txt"
	done
	"$PY" tools/bench_collapse.py "$OUT/closedloop_reps" \
		"$OUT/closedloop_reps.json" | tee "$OUT/closedloop_reps.txt"
	bench_stamp "$OUT/closedloop_reps.json"
fi

# The event_direct hop (docs/event-direct.rst): DPDK's API through the
# driver ("rte": DPDK's inline call into the driver's op, then the
# library) against the library's own call ("direct"), arm and cancel at
# 1M outstanding timers; BENCH_HOP_REPS processes of one repetition each
# (default 8, --quick 4), the two paths one after the other in each, the
# order alternating. tools/bench_hop.py: medians, the extra cost per timer
# and its spread, in bench/hop.json, and whether it is within 2 ns.
HOP_REPS=${BENCH_HOP_REPS:-$([ "$QUICK" = 1 ] && echo 4 || echo 8)}
so=$BUILD_DIR/drivers/event_direct/librte_event_direct.so
if [ "$HOP_REPS" -gt 0 ] && [ -f "$so" ]; then
	# EAL refuses a plugin under a world-writable folder (/tmp).
	hop_dir=$(mktemp -d /var/cache/timer_pipeline/bench-hop.XXXXXX 2>/dev/null ||
		mktemp -d)
	chmod 755 "$hop_dir"
	cp "$so" "$hop_dir/"
	rm -rf "$OUT/hop_reps"
	mkdir -p "$OUT/hop_reps"
	for i in $(seq 1 "$HOP_REPS"); do
		order=$([ $((i % 2)) = 1 ] && echo direct,rte || echo rte,direct)
		echo "== event_direct hop, repetition $i of $HOP_REPS ($order)"
		# shellcheck disable=SC2086
		timeout 600 "$BUILD_DIR/app/timer_bench/dpdk-timer_bench" $EAL \
			-d "$hop_dir/$(basename "$so")" --vdev=event_sw0 \
			--vdev=event_direct0 --no-pci --in-memory \
			--log-level=lib.eal:warning -- --reps 1 --tests arm \
			--arm-n 1000000 --adapters "$order" \
			--json "$OUT/hop_reps/rep$i.json" > "$OUT/hop_reps/rep$i.txt"
	done
	rm -rf "$hop_dir"
	hop_rc=0
	"$PY" tools/bench_hop.py "$OUT/hop_reps" "$OUT/hop.json" |
		tee "$OUT/hop.txt" || hop_rc=1
	bench_stamp "$OUT/hop.json"
	[ "$hop_rc" = 0 ] || echo "bench: the event_direct hop costs more than 2 ns per timer"
elif [ "$HOP_REPS" -gt 0 ]; then
	echo "bench: no $so (the event_direct driver was not built): hop step skipped"
fi

[ "${BENCH_NO_TEST_EVENTDEV:-0}" = 1 ] && exit 0
TE=$(bench_dpdk_program dpdk-test-eventdev)
[ -n "$TE" ] || { echo "bench: no dpdk-test-eventdev, step skipped"; exit 0; }

# dpdk-test-eventdev needs a main lcore (it spins printing the rate), a
# producer, a worker and a service lcore: on fewer than 4 CPUs they share
# CPUs and its figures measure time slicing, not the adapter (flagged).
ncpu=$(nproc)
if [ "$ncpu" -ge 5 ]; then
	TE_EAL="-l 0-4 -S 3,4"
	OVERSUB=false
elif [ "$ncpu" -ge 4 ]; then
	TE_EAL="-l 0-3 -S 3"
	OVERSUB=false
else
	TE_EAL="--lcores=0@0,1@1,2@0,3@1 -S 1"
	OVERSUB=true
fi
[ "$ncpu" -ge 4 ] && PL=1 WL=2 || PL=2 WL=3
TE_SECS=$([ "$QUICK" = 1 ] && echo 4 || echo 8)
TE_LOGS=$OUT/test_eventdev_logs
rm -rf "$TE_LOGS"
mkdir -p "$TE_LOGS"
for c in "10000 1000" "10000000 10000"; do
	set -- $c
	for prod in timerdev timerdev_burst; do
		log=$TE_LOGS/exp$1_tick$2_$prod.log
		echo "== dpdk-test-eventdev --prod_type_$prod, expiry $1 ns," \
			"tick $2 ns ($TE_SECS s)"
		# shellcheck disable=SC2086
		timeout -s INT "$TE_SECS" "$TE" $TE_EAL --in-memory --no-pci \
			--vdev=event_sw0 --log-level=lib.eal:warning -- \
			--test=perf_queue --prod_type_$prod --plcores=$PL \
			--wlcores=$WL --stlist=a --nb_timers=100000000 \
			--expiry_nsec=$1 --timer_tick_nsec=$2 \
			--max_tmo_nsec=$(($1 * 10)) > "$log" 2>&1 || true
	done
done
"$PY" tools/bench_eventdev_report.py "$OUT" "$TE_LOGS" "$TE_EAL" "$OVERSUB" \
	"$TE_SECS"
bench_stamp "$OUT/test_eventdev.json"
