#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Soak: the pipeline under constant flow churn for a long time, checking
# that nothing grows or drifts.
#
#   bash scripts/soak.sh [--seconds N] [--flows N] [--interval S]
#                        [--adapter direct|rte] [--out FILE] [--build DIR]
#                        [--lateness-buckets N]
#
# net_pcap replays (infinite_rx) a capture of N UDP flows, one 64-byte
# packet each (default 1,000,000; generated once with tools/gen_pcap.py and
# cached in $BUILD_DIR/soak/). The idle timeout (N x 0.5 us: 500 ms for 1M
# flows) is shorter than one pass over the capture, so every flow ends and
# is created again on every pass; the active timeout (4 x the idle one)
# ends any flow that would not. Every --interval seconds the script reads
# the pipeline's resident memory (VmRSS, /proc/PID/status) and its counters
# and lateness histogram (telemetry /timer_pipeline/stats). After --seconds
# (default 600) it sends SIGINT and measures the time to exit. Checks:
#
#   rss_flat          after the warm-up (a quarter of the run, at most
#                     60 s), every sample is within 3 % of the first one
#   heap_flat         the same for DPDK's heap (telemetry /eal/heap_info),
#                     within 1 %
#   mbufs_bounded     mbufs out of the pool stay below the capture + 8192
#   lateness_stable   expiry lateness p99 of the last window (a minute, or
#                     less for short runs) is at most --lateness-buckets
#                     log2 buckets (default 1: 2x) above that of the first
#                     window after the warm-up
#   churn             flows created >= 3 x N, ended by idle/active timeout
#   exactly_once      exit status 0, the exit check PASSED, every flow
#                     created was ended
#   flush_in_time     SIGINT to every flow flushed in at most 2 s (the
#                     time to the end of the process is reported too)
#
# Results (every sample, the figures and the checks) go to a JSON file,
# $BUILD_DIR/soak/soak_<N>_<seconds>s.json by default; the exit status is
# 0 iff every check passed. It needs about N x 5 KB + 1 GB of memory
# (--no-huge: DPDK's memory shows in VmRSS) and both CPUs: run it alone.
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
SECS=600
FLOWS=1000000
INTERVAL=
ADAPTER=direct
OUT=
LAT_BUCKETS=1

usage() {
	sed -n '8,10p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit "$1"
}
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) SECS=$2; shift 2 ;;
	--flows) FLOWS=$2; shift 2 ;;
	--interval) INTERVAL=$2; shift 2 ;;
	--adapter) ADAPTER=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--build) BUILD_DIR=$2; shift 2 ;;
	--lateness-buckets) LAT_BUCKETS=$2; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "soak: unknown argument '$1'" >&2; usage 2 ;;
	esac
done
case $SECS$FLOWS$LAT_BUCKETS in *[!0-9]*)
	echo "soak: --seconds, --flows and --lateness-buckets take integers" >&2
	exit 2 ;;
esac
[ "$SECS" -ge 20 ] || { echo "soak: --seconds must be at least 20" >&2; exit 2; }
[ "$FLOWS" -ge 1000 ] || { echo "soak: --flows must be at least 1000" >&2; exit 2; }
# One sample every 5 s, or 30 samples in a shorter run.
[ -n "$INTERVAL" ] || INTERVAL=$((SECS >= 150 ? 5 : 2))

BIN=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
if [ ! -x "$BIN" ]; then
	echo "soak: $BIN is not built (ninja -C $BUILD_DIR)" >&2
	exit 1
fi
CACHE=$BUILD_DIR/soak
mkdir -p "$CACHE"
CAP=$CACHE/udp_$FLOWS.pcap
OUT=${OUT:-$CACHE/soak_${FLOWS}_${SECS}s.json}
LOG=${OUT%.json}.log

# The capture, generated once (about 5 s per 100,000 flows).
if [ ! -s "$CAP" ]; then
	echo "soak: generating $CAP ($FLOWS flows)"
	python3 tools/gen_pcap.py -o "$CAP.tmp" --seed 1000 --flows "$FLOWS" \
		--mix udp=1 --pkts 1 --size 64 --vlan-pct 0 --ipv6-pct 0 \
		--idle-gap-pct 0 --flow-interval-ms 0.001 >/dev/null 2>&1
	mv "$CAP.tmp" "$CAP"
fi

# Timeouts in microseconds: idle N x 0.5 us (at least 10 ms), active 4x.
TMO_US=$((FLOWS / 2 > 10000 ? FLOWS / 2 : 10000))
ACT_US=$((TMO_US * 4))
MEM_MB=$((1024 + FLOWS * 5 / 1024))
PREFIX=tp_soak_$$

echo "soak: $FLOWS flows, $SECS s, idle timeout $((TMO_US / 1000)) ms," \
	"active $((ACT_US / 1000)) ms, tick 1 ms, $ADAPTER adapter, log $LOG"
timeout -k 10 $((SECS + 300)) "$BIN" -l 0-1 -S 1 --no-huge -m "$MEM_MB" \
	--no-pci --file-prefix "$PREFIX" --log-level=pmd.net.pcap:warning \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$CAP,infinite_rx=1" -- \
	--fwd-mode drop --flows "$FLOWS" --tmo-udp "${TMO_US}us" \
	--tmo-active "${ACT_US}us" --timer-tick 1ms --timer-adapter "$ADAPTER" \
	-T 30 >"$LOG" 2>&1 &
TPID=$!
# Interrupted: timeout passes SIGTERM on to the pipeline, which flushes.
trap 'kill -TERM $TPID 2>/dev/null; wait $TPID; rm -rf "/var/run/dpdk/$PREFIX"' EXIT

# Sample while it runs, then SIGINT it and time its exit.
SAMPLES=$CACHE/.samples_$$.json
python3 tools/soak_sample.py "$TPID" "$PREFIX" "$SECS" "$INTERVAL" \
	"$SAMPLES"
set +e
wait $TPID
RC=$?
set -e
trap 'rm -rf "/var/run/dpdk/$PREFIX"' EXIT

# The figures and checks; the exit status says whether all passed.
python3 tools/soak_report.py report "$SAMPLES" "$LOG" "$OUT" "$RC" "$FLOWS" \
	"$SECS" "$TMO_US" "$ACT_US" "$LAT_BUCKETS" "$ADAPTER"
