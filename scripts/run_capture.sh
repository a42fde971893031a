#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Age the flows of your own capture (pcap or pcapng) and write their flow
# records; on 2-MB hugepages where enough are free (scripts/setup.sh
# reserves 512 MB), else on 4-KB pages (--no-huge).
#
#     bash scripts/run_capture.sh CAPTURE [-o DIR] [--replay-pace]
#                                 [-- PIPELINE OPTIONS...]
#
# It builds first (scripts/setup.sh, as root on a fresh Debian 12), then
# reads CAPTURE through the pipeline with short timeouts (TCP established
# 5 s, UDP 5 s, SYN-only and ICMP 2 s, closing 1 s, other 5 s, active 60 s)
# and --stop-when-done. By default with --clock capture: the capture is
# read as fast as the pipeline takes it and its flows age on its own
# timestamps, so an hour of traffic takes seconds and gives the records a
# paced replay would, the same on every run. With --replay-pace the
# capture is replayed at its recorded pace instead (a demo that unfolds in
# real time, for the stats screen or telemetry; it takes as long as the
# capture). Options after "--" go to the pipeline and override these (e.g.
# -- --tmo-udp 30s, or -- --flush-at-eof to end the flows still live at
# the capture's end, as softflowd -r does).
#
# Output in DIR (default build/capture/NAME, NAME = the capture's file name
# without its extension):
# flows.json (one JSON record per flow), out.pcap (the forwarded frames),
# stats.json (--stats-json, one line per second), summary.json
# (--summary-json: the exactly-once check, every counter and the layout),
# pipeline.log.
# Environment: BUILD_DIR (default build), TP_RUN_TIMEOUT (seconds, default
# 600: the run is stopped with one SIGINT after that, flushing every flow).
set -euo pipefail

usage() {
	sed -n '5,30p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
CAP=$(realpath -e -- "$1" 2>/dev/null) || {
	echo "run_capture: no such capture: $1" >&2
	exit 2
}
shift
OUT=""
CLOCK=(--clock capture)
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	case "$1" in
	-o)
		[ $# -ge 2 ] || usage
		OUT=$2
		shift 2
		;;
	--replay-pace)
		CLOCK=(--replay-pace)
		shift
		;;
	*)
		usage
		;;
	esac
done
# The pipeline's own --clock, --replay-pace or --replay-speed after "--"
# wins.
for a in "$@"; do
	case "$a" in
	--clock|--clock=*|--replay-pace|--replay-speed) CLOCK=() ;;
	esac
done
if [ "${1:-}" = "--" ]; then
	shift
elif [ $# -gt 0 ]; then
	usage
fi
cd "$ROOT"
BUILD=${BUILD_DIR:-build}
export BUILD_DIR=$BUILD
BIN=$BUILD/examples/timer_pipeline/dpdk-timer_pipeline
name=$(basename "$CAP")
OUT=${OUT:-$BUILD/capture/${name%.*}}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT/flows.json" "$OUT/out.pcap" "$OUT/stats.json" "$OUT/summary.json"

bash "$ROOT/scripts/setup.sh" >&2
. "$ROOT/scripts/run_common.sh"
prefix=tp_capture_$$
run_memory "$@"
cmd=("$BIN" -l 0-1 -S 1 --no-pci "${RUN_MEM[@]}" --file-prefix "$prefix"
     --log-level=lib.eal:warning --vdev=event_sw0
     "--vdev=net_pcap0,rx_pcap=$CAP,tx_pcap=$OUT/out.pcap" --
     "${CLOCK[@]}" --stop-when-done --idle-sleep-us 100
     --tmo-tcp-syn 2s --tmo-tcp-est 5s --tmo-tcp-closing 1s --tmo-udp 5s
     --tmo-icmp 2s --tmo-other 5s --tmo-active 60s
     --flow-log "$OUT/flows.json" -T 1 --stats-json "$OUT/stats.json"
     --summary-json "$OUT/summary.json" "$@")
echo "\$ ${cmd[*]}" | tee "$OUT/pipeline.log"
set +e
# One SIGINT on Ctrl-C or after TP_RUN_TIMEOUT (run_once, run_common.sh).
run_once "$OUT/pipeline.log" "${TP_RUN_TIMEOUT:-600}" "${cmd[@]}"
set -e
rm -rf "/var/run/dpdk/$prefix"
# The end of the summary and the exactly-once check.
run_report run_capture "$OUT" "$status"
echo "Exit status $status; output in $OUT"
exit "$status"
