#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Large tables and churn (issue 20, parts 3 and 4), repetitions
# interleaved (A B C ... A B C ...):
#
#   memory   captures of 1,000, 1M, 4M and 10M one-packet UDP flows
#            (bench_pipeline.sh's aging captures), each read once with
#            --flows equal to its flow count, a 1-h idle timeout (every
#            flow live at the input's end: the table holds them all, as
#            the table reuses the slots of ended flows first), and
#            --flush-at-eof (they all end there), direct adapter: every
#            flow ended exactly once (records == flows, the exactly-once
#            check), and memory
#            per flow = (peak VmRSS + HugetlbPages of the run - the same
#            for the 1,000-flow run) / flows, sampled every 20 ms from
#            /proc/PID/status (tools/bench_scale_report.py sample);
#   churn    every packet a new flow: a SYN scan (--syn-scan none) and a
#            UDP flood (--udp-flood) of 5M flows each (tools/gen_pcap.py),
#            10-ms timeouts, 1-ms tick, read once: records to a --flow-log
#            on tmpfs (/dev/shm), and separately IPFIX to a local UDP
#            socket that nobody reads (export cost without a collector on
#            the 2 CPUs); new flows/s (median per-second rate of the -T 1
#            screens) and the lateness p99 bucket, exactly once. Each
#            after CHURN_GAP_S of idle: run back to back, the host took
#            10 to 230 ms of the VM's CPUs from a run (steal), and every
#            expiry due meanwhile comes late by as much. First,
#            after 15 s idle, the cost of fresh tmpfs pages: 2 GB
#            written twice (tools/bench_pages.py probe); with each
#            flow log's bytes per record, the report gives what fresh
#            pages add to a record (on a VM that gives freed memory back
#            to its host, a page the VM has not used lately costs the
#            host's fault too).
#
# Captures are written first (once, cached in $BENCH_CAPTURES, default
# BUILD_DIR/bench-captures; 10M flows take ~5 min and ~150 MB), before any
# memory is reserved. Memory runs: --no-huge (DPDK's memory then shows in
# VmRSS and HugetlbPages stays 0; the figure adds both, so it also holds
# with BENCH_HUGE=1, which runs --in-memory on 2-MB pages). Churn runs:
# run_capture.sh's memory (run_memory in run_common.sh: 2-MB hugepages
# where enough are free, else --no-huge), the way the pipeline is run; on
# --no-huge every page of DPDK's memory and of the table is first touched
# in the run's first few hundred ms, and the expiries of that stretch run
# late (docs/bench.rst, "Large tables and churn").
#
# Writes $OUT/scale.json (default bench/) with the run's identity
# (scripts/bench_common.sh) and prints a table.
#
#   bash scripts/bench_scale.sh [--dpdk VERSION] [--quick] [--reps N]
#        [--sizes "1k 1m ..."] [--no-memory] [--no-churn] [--prepare]
#
#   full:   3 repetitions; memory 1k 1M 4M 10M, churn 5M (~12 min, plus
#           ~10 min once for the captures)
#   quick:  1 repetition; memory 1k 100K, churn 500K (~1.5 min)
#   --sizes: the memory runs' flow counts (1k, 100k, 1m, 4m, 10m; 1k is
#   the baseline, always run).
#   --prepare: only write the captures.
#   --stages: also build $BUILD_DIR-stages (-Dstage_cycles=true) and run
#   the churn cases once more with it (churn_<capture>_<sink>_stages):
#   the summary's stage_cycles give the cycles per stage, and the report
#   prints each stage's ns per new flow, the lcore that pays it and each
#   lcore's cap (docs/bench.rst, "Where the cycles go").
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/bench_common.sh
bench_dpdk_select "$@"
set -- ${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"}
CAPS=${BENCH_CAPTURES:-$BUILD_DIR/bench-captures}
REPS=3
MEMORY=1
CHURN=1
PREPARE=0
STAGES=0
SIZES="1k 1m 4m 10m"
CHURN_SIZE=5m
while [ $# -gt 0 ]; do
	case $1 in
	--quick) REPS=1; SIZES="1k 100k"; CHURN_SIZE=500k ;;
	--reps) REPS=$2; shift ;;
	--sizes) SIZES=$2; shift ;;
	--no-memory) MEMORY=0 ;;
	--no-churn) CHURN=0 ;;
	--prepare) PREPARE=1 ;;
	--stages) STAGES=1 ;;
	*) echo "bench_scale: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
case " $SIZES " in *" 1k "*) ;; *) SIZES="1k $SIZES" ;; esac
for s in $SIZES; do
	case $s in 1k|100k|1m|4m|10m) ;;
	*) echo "bench_scale: --sizes: 1k 100k 1m 4m 10m, not '$s'" >&2
	   exit 2 ;;
	esac
done
case $REPS in ''|*[!0-9]*|0) echo "bench_scale: --reps N >= 1" >&2; exit 2 ;; esac
TP=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
[ "$PREPARE" = 1 ] || [ -x "$TP" ] ||
	{ echo "bench_scale: build $TP first" >&2; exit 1; }
TP_PLAIN=$TP
if [ "$STAGES" = 1 ] && [ "$PREPARE" = 0 ]; then
	BUILD_DIR=$BUILD_DIR-stages MESON_ARGS=-Dstage_cycles=true \
		bash scripts/setup.sh >/dev/null
	TP_STAGES=$BUILD_DIR-stages/examples/timer_pipeline/dpdk-timer_pipeline
fi
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
REPORT=tools/bench_scale_report.py
mkdir -p "$OUT" "$CAPS"
LOGS=$OUT/scale_logs
rm -rf "$LOGS"
mkdir -p "$LOGS"

flows_of() { # flows_of 1k|100k|500k|1m|4m|5m|10m
	case $1 in
	*k) echo $((${1%k} * 1000)) ;;
	*m) echo $((${1%m} * 1000000)) ;;
	esac
}

# capture FILE GEN-OPTIONS...: written once (FILE.tmp, then renamed).
capture() {
	local f=$1
	shift
	[ -f "$f" ] && return 0
	echo "== writing $f (once)"
	"$PY" tools/gen_pcap.py -o "$f.tmp" "$@" >/dev/null
	mv "$f.tmp" "$f"
}
# The aging captures of bench_pipeline.sh / bench_ipfix.sh (same seeds).
udp_capture() { # udp_capture SIZE
	local n
	n=$(flows_of "$1")
	capture "$CAPS/udp$1.pcap" --seed $((n / 1000)) --flows "$n" \
		--mix udp=1 --pkts 1 --vlan-pct 0 --ipv6-pct 0 \
		--idle-gap-pct 0 --size 64
}
CHURN_CAPS=""
if [ "$MEMORY" = 1 ]; then
	for s in $SIZES; do udp_capture "$s"; done
fi
if [ "$CHURN" = 1 ]; then
	n=$(flows_of $CHURN_SIZE)
	capture "$CAPS/synscan$CHURN_SIZE.pcap" --syn-scan none --flows "$n" \
		--flow-interval-ms 0.001
	capture "$CAPS/udpflood$CHURN_SIZE.pcap" --udp-flood --flows "$n" \
		--size 64 --flow-interval-ms 0.001
	CHURN_CAPS="synscan udpflood"
fi
[ "$PREPARE" = 1 ] && { echo "bench_scale: captures ready in $CAPS"; exit 0; }

# Memory for DPDK: enough for the largest run (~1 KB per flow today).
max_flows=1000
for s in $SIZES; do
	n=$(flows_of "$s")
	[ "$n" -gt "$max_flows" ] && max_flows=$n
done
MEM_MB=$((1024 + max_flows / 1000))
if [ "${BENCH_HUGE:-0}" = 1 ]; then
	MEM="--in-memory"
else
	MEM="--no-huge -m $MEM_MB"
fi
EAL_COMMON="-l 0-1 -S 1 --no-pci --vdev=event_sw0 --log-level=lib.eal:warning"
# The churn runs' memory, as run_capture.sh takes it (RUN_MEM).
. scripts/run_common.sh
CHURN_FLOWS=262144
CHURN_GAP_S=8
run_memory --flows "$CHURN_FLOWS"
CHURN_MEM="${RUN_MEM[*]}"

# The time the host took from this VM's CPUs (steal, all CPUs), in ms.
steal_ms() {
	awk -v hz="$(getconf CLK_TCK)" '/^cpu /{print int($9 * 1000 / hz)}' \
		/proc/stat
}

# run_tp LOG CAPTURE SECONDS MEMORY [APP-OPTIONS...]: one run with these
# EAL memory options, sampled; the host's steal during it in LOG.steal
# (ms).
run_tp() {
	local log=$1 cap=$2 secs=$3 mem=$4 tpid spid s0
	shift 4
	s0=$(steal_ms)
	# shellcheck disable=SC2086
	timeout --foreground -k 30 -s INT "$secs" "$TP" $EAL_COMMON $mem \
		--file-prefix "bench_scale_$$" \
		--vdev="net_pcap0,rx_pcap=$cap" -- --fwd-mode drop \
		--summary-json "$log.json" "$@" >"$log.log" 2>&1 &
	tpid=$!
	"$PY" "$REPORT" sample "$tpid" "$log.mem.json" &
	spid=$!
	wait "$tpid" || true
	wait "$spid" || true
	echo $(($(steal_ms) - s0)) >"$log.steal"
}

SINKPID=""
cleanup() {
	[ -n "$SINKPID" ] && kill "$SINKPID" 2>/dev/null
	rm -f /dev/shm/bench_scale_$$.flows
	rm -rf "/var/run/dpdk/bench_scale_$$"
}
trap cleanup EXIT

t_start=$(date +%s)
LOAD0=$(cat /proc/loadavg)
if [ "$CHURN" = 1 ]; then
	# What a fresh tmpfs page costs here (the flow log's, below;
	# tools/bench_pages.py waits for the VM's host first).
	echo "== fresh tmpfs pages"
	"$PY" tools/bench_pages.py probe /dev/shm "$LOGS/pages.json"
fi
for r in $(seq 1 "$REPS"); do
	if [ "$MEMORY" = 1 ]; then
		for s in $SIZES; do
			n=$(flows_of "$s")
			echo "== rep $r/$REPS: memory, $s flows"
			run_tp "$LOGS/mem_$s.$r" "$CAPS/udp$s.pcap" 600 \
				"$MEM" --flows "$n" --timer-adapter direct \
				--tmo-udp 1h -T 0 --flush-at-eof \
				--flow-log /dev/null
		done
	fi
	variants=""
	[ "$STAGES" = 1 ] && variants="_stages"
	for c in $CHURN_CAPS; do
		for sink in flowlog ipfix; do
		for v in "" $variants; do
			TP=$TP_PLAIN
			[ -n "$v" ] && TP=$TP_STAGES
			echo "== rep $r/$REPS: churn, $c, $sink${v:+ (stage cycles)}"
			sleep "$CHURN_GAP_S"
			out=(--flow-log /dev/shm/bench_scale_$$.flows)
			if [ $sink = ipfix ]; then
				"$PY" tools/bench_ipfix_report.py sink \
					>"$LOGS/sink.port" &
				SINKPID=$!
				for _ in $(seq 50); do
					[ -s "$LOGS/sink.port" ] && break
					sleep 0.1
				done
				out=(--ipfix "127.0.0.1:$(cat "$LOGS/sink.port")")
			fi
			run_tp "$LOGS/churn_${c}_$sink$v.$r" \
				"$CAPS/$c$CHURN_SIZE.pcap" 300 "$CHURN_MEM" \
				--flows "$CHURN_FLOWS" --timer-adapter direct \
				--tmo-udp 10ms --tmo-tcp-syn 10ms \
				--timer-tick 1ms -T 1 --stop-when-done "${out[@]}"
			if [ $sink = flowlog ]; then
				stat -c %s /dev/shm/bench_scale_$$.flows \
					>"$LOGS/churn_${c}_$sink$v.$r.logbytes" \
					2>/dev/null || true
			fi
			if [ -n "$SINKPID" ]; then
				kill "$SINKPID" 2>/dev/null || true
				wait "$SINKPID" 2>/dev/null || true
				SINKPID=""
			fi
			rm -f /dev/shm/bench_scale_$$.flows "$LOGS/sink.port"
		done
		done
	done
done

BENCH_NOTES="$(nproc) CPUs shared with other work (load average at the \
start: $LOAD0; at the end: $(cat /proc/loadavg)): figures are noisy. \
EAL memory: $MEM (memory runs), $CHURN_MEM (churn runs, each after \
${CHURN_GAP_S} s idle). Wall time $(($(date +%s) - t_start)) s, \
$REPS repetition(s)." \
	"$PY" "$REPORT" report "$LOGS" "$OUT/scale.json"
bench_stamp "$OUT/scale.json"
echo "bench_scale: wrote $OUT/scale.json"
