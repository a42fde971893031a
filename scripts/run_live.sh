#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Age the flows seen on a live network interface, as root, on a machine
# whose NIC is not bound to DPDK (a cloud VM, a laptop, a mirror port).
#
#     bash scripts/run_live.sh IFACE [-o DIR] [--input DRIVER]
#                              [-- PIPELINE OPTIONS...]
#
# It builds first (scripts/setup.sh), then picks the fastest input driver
# that works on IFACE, trying in order af_xdp (net_af_xdp: an XDP socket),
# af_packet (net_af_packet: PACKET_MMAP rings) and pcap (net_pcap iface=:
# libpcap). Each is tried with --probe-ports, which starts the port and
# reads no packet; the script prints which one it picked, and why each
# faster one was not used. --input af_xdp|af_packet|pcap takes that one
# without trying the others.
#
# The pipeline runs in monitor mode (--fwd-mode monitor): nothing is sent,
# every packet is metered and counted (rx == monitored + dropped), and the
# packets the kernel dropped before RX show as input drops (for
# net_af_packet before DPDK 25.11: "drops unknown"). Layout: on a machine
# with 2 CPUs or fewer, lcore 0 alone (RX, worker, and the scheduler and the
# timer adapter, with no service lcore), sleeping when idle, so that the
# kernel's network work keeps the other CPU; on more, and for net_pcap,
# lcore 0 RX and worker, lcore 1 the service lcore. It runs until Ctrl-C (or
# SIGTERM), which ends the flows still live as forced end and prints the
# summary and the exactly-once check. Options after "--" go to the
# pipeline and override the script's (e.g. -- --tmo-udp 60s, --duration 30,
# or --fwd-mode loop to send every packet back out of IFACE).
#
# Output in DIR (default build/live/IFACE): flows.json (one JSON record per
# flow), summary.json (--summary-json), stats.json (one line per stats
# period), pipeline.log. Environment: BUILD_DIR (default build),
# TP_RUN_TIMEOUT (seconds, default 86400: the pipeline's --duration, which
# ends the run flushing every flow; timeout kills it 120 s after that),
# TP_STATS_PERIOD (default 5). Memory:
# hugepages (-m 256) where 128 of 2 MB are free, else --no-huge.
#
# With net_af_xdp the script tunes IFACE as DPDK's AF_XDP guide
# recommends for the driver's preferred busy polling (its busy_budget, on
# by default): napi_defer_hard_irqs 2 and gro_flush_timeout 200000 ns in
# /sys/class/net/IFACE. The kernel's receive work for the socket then
# runs in the pipeline's polls rather than in softirq on the CPU the
# frames arrive on (on a veth, the sender's). It prints each change and
# puts the old values back at exit; TP_LIVE_TUNE=0 leaves IFACE as it is.
# "run_live.sh --print-vdev NAME IFACE" prints the --vdev, --rxd,
# --idle-sleep-us and lcore options of input NAME, and
# "run_live.sh --print-tuning NAME" its settings of IFACE (for
# scripts/bench_live.sh, which measures the same).
set -euo pipefail

usage() {
	sed -n '5,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# The input drivers, fastest first: name and --vdev (IF: the interface).
INPUTS=(af_xdp af_packet pcap)
# Rings of 4096 frames (the drivers' defaults: af_packet 512, af_xdp
# the pipeline's --rxd) ride out the lcore's idle sleeps at higher rates.
vdev_of() {
	case $1 in
	af_xdp) echo "net_af_xdp0,iface=$2" ;;
	af_packet) echo "net_af_packet0,iface=$2,framecnt=4096" ;;
	pcap) echo "net_pcap0,iface=$2" ;;
	esac
}
RXD=4096
# The lcore's sleep when a poll finds nothing (--idle-sleep-us).
IDLE_US=20
# The lcore options of input NAME: on 2 CPUs or fewer, everything on
# lcore 0 (the main lcore runs the services, and sleeps when idle), so
# that the kernel's network work keeps the other CPU; elsewhere, and for
# net_pcap, a service lcore of its own (net_pcap lost frames at 40,000
# packets/s on lcore 0 alone, docs/bench.rst).
lcores_of() {
	if [ "$(nproc)" -le 2 ] && [ "$1" != pcap ]; then
		echo "-l 0"
	else
		echo "-l 0-1 -S 1"
	fi
}
# The settings input NAME wants of the interface, FILE=VALUE under
# /sys/class/net/IFACE: for net_af_xdp, those DPDK's AF_XDP guide gives
# for its preferred busy polling (on a veth here, 1.25x the lossless rate
# of the same input untuned: docs/bench.rst, "Live interfaces").
tuning_of() {
	case $1 in
	af_xdp) echo "napi_defer_hard_irqs=2 gro_flush_timeout=200000" ;;
	esac
}
# --print-vdev NAME IFACE: the --vdev, --rxd, --idle-sleep-us and lcore
# options of input NAME; --print-tuning NAME: its settings of the
# interface. For scripts/bench_live.sh (one definition).
if [ "${1:-}" = --print-vdev ] && [ $# -eq 3 ]; then
	echo "$(vdev_of "$2" "$3") $RXD $IDLE_US $(lcores_of "$2")"
	exit 0
fi
if [ "${1:-}" = --print-tuning ] && [ $# -eq 2 ]; then
	tuning_of "$2"
	exit 0
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; -*) usage ;; esac
IFACE=$1
shift
OUT=""
ONLY=""
# Options before "--": each takes one value.
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	[ $# -ge 2 ] || usage
	case "$1" in
	-o) OUT=$2 ;;
	--input)
		case " ${INPUTS[*]} " in
		*" $2 "*) ONLY=$2 ;;
		*) echo "run_live: --input $2: one of ${INPUTS[*]}" >&2; exit 2 ;;
		esac ;;
	*) usage ;;
	esac
	shift 2
done
if [ "${1:-}" = "--" ]; then
	shift
fi
if ! ip link show dev "$IFACE" >/dev/null 2>&1; then
	echo "run_live: no such network interface: $IFACE (see ip link)" >&2
	exit 2
fi
cd "$ROOT"
BUILD=${BUILD_DIR:-build}
export BUILD_DIR=$BUILD
BIN=$BUILD/examples/timer_pipeline/dpdk-timer_pipeline
OUT=${OUT:-$BUILD/live/$IFACE}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT/flows.json" "$OUT/summary.json" "$OUT/stats.json" \
	"$OUT/probe.log"

bash "$ROOT/scripts/setup.sh" >&2
prefix=tp_live_$$
# The interface's settings changed by tune(), FILE=OLD, put back at exit.
RESTORE=()
untune() {
	local kv
	for kv in "${RESTORE[@]}"; do
		echo "${kv#*=}" 2>/dev/null >"${kv%%=*}" ||
			echo "run_live: could not put ${kv%%=*} back to ${kv#*=}" >&2
	done
	RESTORE=()
}
trap 'untune; rm -rf "/var/run/dpdk/$prefix"' EXIT
# tune SETTINGS...: each FILE=VALUE of tuning_of() on IFACE; a setting
# the kernel lacks or refuses is named and left as it is.
tune() {
	local kv f v old
	for kv in "$@"; do
		f=/sys/class/net/$IFACE/${kv%%=*}
		v=${kv#*=}
		if ! old=$(cat "$f" 2>/dev/null); then
			echo "run_live: $IFACE: no ${kv%%=*} here: left as it is" >&2
			continue
		fi
		[ "$old" = "$v" ] && continue
		if echo "$v" 2>/dev/null >"$f"; then
			RESTORE+=("$f=$old")
			echo "run_live: $IFACE: ${kv%%=*} $v (was $old; put back" \
				"at exit)" >&2
		else
			echo "run_live: $IFACE: cannot set ${kv%%=*} to $v: left" \
				"at $old" >&2
		fi
	done
}
# Hugepages where 128 of 2 MB are free: net_af_xdp then takes its UMEM
# from the mbuf pool; without, it received about a tenth of a 40,000
# packets/s stream here (docs/bench.rst, "Live interfaces").
free=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)
if [ "$free" -ge 128 ] && grep -qs ' hugetlbfs ' /proc/mounts; then
	MEM=(-m 256)
else
	MEM=(--no-huge -m 512)
	echo "run_live: no 128 free hugepages: --no-huge (net_af_xdp is slower)" >&2
fi
EAL=(--no-pci "${MEM[@]}" --file-prefix "$prefix"
     --log-level=lib.eal:warning --vdev=event_sw0)

# probe NAME: does the driver start on IFACE? Sets WHY when not: the
# pipeline's or the driver's own error line.
probe() {
	local log=$OUT/probe.$1.log
	local lcores
	read -r -a lcores <<<"$(lcores_of "$1")"
	if timeout -k 5 60 "$BIN" "${lcores[@]}" "${EAL[@]}" \
		"--vdev=$(vdev_of "$1" "$IFACE")" \
		-- --probe-ports -T 0 --fwd-mode monitor --rxd "$RXD" \
		>"$log" 2>&1 &&
	   grep -q '^probe: port 0 ' "$log"; then
		return 0
	fi
	WHY=$(grep -iE 'error|fail|cannot|not supported|denied|refused' \
		"$log" | grep -v '^EAL: Detected' | head -n 2 | tr '\n' ' ')
	WHY=${WHY:-"exit status $?, see $log"}
	return 1
}

PICK=""
for name in "${INPUTS[@]}"; do
	[ -z "$ONLY" ] || [ "$name" = "$ONLY" ] || continue
	WHY=""
	if probe "$name"; then
		PICK=$name
		break
	fi
	echo "run_live: $name not used: $WHY" | tee -a "$OUT/probe.log" >&2
done
if [ -z "$PICK" ]; then
	echo "run_live: no input driver works on $IFACE (logs: $OUT/probe.*.log)" >&2
	exit 1
fi
echo "run_live: input $PICK (--vdev=$(vdev_of "$PICK" "$IFACE"))" |
	tee -a "$OUT/probe.log" >&2

read -r -a LCORES <<<"$(lcores_of "$PICK")"
if [ "${TP_LIVE_TUNE:-1}" != 0 ]; then
	read -r -a TUNING <<<"$(tuning_of "$PICK")"
	tune "${TUNING[@]}"
fi
cmd=("$BIN" "${LCORES[@]}" "${EAL[@]}" "--vdev=$(vdev_of "$PICK" "$IFACE")" --
     --fwd-mode monitor --rxd "$RXD" --idle-sleep-us "$IDLE_US"
     -T "${TP_STATS_PERIOD:-5}" --duration "${TP_RUN_TIMEOUT:-86400}"
     --flow-log "$OUT/flows.json" --stats-json "$OUT/stats.json"
     --summary-json "$OUT/summary.json" "$@")
echo "\$ ${cmd[*]}" | tee "$OUT/pipeline.log" >&2
# The time limit is the pipeline's own --duration; run_once
# (run_common.sh) signals it once on Ctrl-C.
. "$ROOT/scripts/run_common.sh"
set +e
echo "run_live: running on $IFACE; Ctrl-C ends it" >&2
run_once "$OUT/pipeline.log" "$((${TP_RUN_TIMEOUT:-86400} + 120))" \
	"${cmd[@]}"
set -e
run_report run_live "$OUT" "$status"
echo "Input $PICK; exit status $status; output in $OUT"
exit "$status"
