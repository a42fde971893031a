#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Aging a long capture fast and right: timer_pipeline --clock capture
# against softflowd -r, on one generator capture spanning an hour of
# capture time (flows start evenly over it; 20 % of them pause 12 s, past
# their 5-s idle timeout, so the model splits them in two records).
#
#   bash scripts/bench_clock.sh [--flows N] [--span-s S]   (default 1000000
#                                                           flows, 3600 s)
#
# Both read the same capture with the same timeouts (idle 5 s, FIN/RST
# 2 s, active 600 s); softflowd exports NetFlow v10 to nfcapd, read back
# with nfdump. Per tool: wall time from start to exit (every record is out
# by then), records, and how many equal one of the generator model's paced
# records (tools/bench_clock_report.py: biflow key, packets per direction,
# first and last packet times in ms). Writes $BENCH_OUT/clock.json
# (default bench/) with the run's date, commit and DPDK, and prints a
# table. The capture is written once to $BENCH_CAPTURES (default
# build/bench-captures); 1M flows take about 6 minutes to generate and
# 1.3 GB.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/bench_common.sh
BUILD_DIR=${BUILD_DIR:-build}
OUT=${BENCH_OUT:-bench}
CAPS=${BENCH_CAPTURES:-$BUILD_DIR/bench-captures}
NFLOWS=1000000
SPAN=3600
while [ $# -gt 0 ]; do
	case $1 in
	--flows) NFLOWS=$2; shift ;;
	--span-s) SPAN=$2; shift ;;
	*) echo "usage: $0 [--flows N] [--span-s S]" >&2; exit 2 ;;
	esac
	shift
done
TP=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
[ -x "$TP" ] || { echo "bench_clock: build $TP first" >&2; exit 1; }
for t in nfcapd nfdump softflowd; do
	command -v "$t" >/dev/null ||
		{ echo "bench_clock: $t missing (scripts/setup.sh)" >&2; exit 1; }
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
BENCH_DPDK=$(pkg-config --modversion libdpdk 2>/dev/null || echo unknown)

mkdir -p "$OUT" "$CAPS"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench_clock.XXXXXX")
NFPID=""
RMEM0=""
cleanup() {
	[ -n "$NFPID" ] && kill "$NFPID" 2>/dev/null
	[ -n "$RMEM0" ] && echo "$RMEM0" >/proc/sys/net/core/rmem_max
	[ -n "${BENCH_KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# softflowd sends its records in bursts as fast as it can: nfcapd gets a
# socket buffer that holds them (as in bench_ipfix.sh; as root, put back
# at exit), or it drops some and the count varies from run to run.
NFBUF=134217728
rmem=$(cat /proc/sys/net/core/rmem_max 2>/dev/null || echo 0)
if [ "$rmem" -lt "$NFBUF" ]; then
	if echo "$NFBUF" 2>/dev/null >/proc/sys/net/core/rmem_max; then
		RMEM0=$rmem
	else
		echo "bench_clock: cannot raise net.core.rmem_max (not root?):" \
			"nfcapd may drop softflowd's records" >&2
	fi
fi

TMO=(--tmo-tcp-syn 5 --tmo-tcp-est 5 --tmo-tcp-closing 2 --tmo-udp 5
     --tmo-icmp 5 --tmo-other 5 --tmo-active 600)
CAP=$CAPS/clock_${NFLOWS}_${SPAN}s.pcap
EXP=${CAP%.pcap}.json
if [ ! -f "$CAP" ] || [ ! -f "$EXP" ]; then
	echo "== writing $CAP ($NFLOWS flows over $SPAN s)"
	interval=$("$PY" -c "print($SPAN * 1000 / $NFLOWS)")
	"$PY" tools/gen_pcap.py -o "$CAP" --seed 5 --flows "$NFLOWS" \
		--pkts 2-4 --gap-ms 10-500 --flow-interval-ms "$interval" \
		--idle-gap-pct 20 --idle-gap-ms 12000 --vlan-pct 0 \
		"${TMO[@]}" --expect "$EXP" 2>"$WORK/gen.log"
fi

echo "== timer_pipeline --clock capture"
t0=$(date +%s%N)
timeout 1800 "$TP" -l 0-1 -S 1 --no-pci --no-huge -m 2048 \
	--file-prefix "bench_clock_$$" --log-level=lib.eal:warning \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$CAP,tx_pcap=/dev/null" -- \
	"${TMO[@]}" -T 0 --flows 262144 --stop-when-done --clock capture \
	--fwd-mode drop --flow-log "$WORK/tp.json" >"$WORK/tp.log" 2>&1
t1=$(date +%s%N)
rm -rf "/var/run/dpdk/bench_clock_$$"
T_TP=$(((t1 - t0) / 1000000))

echo "== softflowd -r"
port=$("$PY" -c "import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', 0))
print(s.getsockname()[1])")
mkdir -p "$WORK/nf"
nfcapd -w "$WORK/nf" -p "$port" -b 127.0.0.1 -t 3600 -B "$NFBUF" \
	>"$WORK/nf.log" 2>&1 &
NFPID=$!
sleep 0.5
t0=$(date +%s%N)
# A table for every live flow, exported as it goes (-v 10 NetFlow v10).
timeout 1800 softflowd -r "$CAP" -n "127.0.0.1:$port" -v 10 -b -d \
	-m $((NFLOWS + 1024)) -T vlan -t tcp=5 -t tcp.rst=2 -t tcp.fin=2 \
	-t udp=5 -t icmp=5 -t general=5 -t maxlife=600 >"$WORK/sf.log" 2>&1
t1=$(date +%s%N)
T_SF=$(((t1 - t0) / 1000000))
sleep 1	# the last datagrams
kill -TERM "$NFPID"
wait "$NFPID" 2>/dev/null || true
NFPID=""
nfdump -r "$(ls "$WORK"/nf/nfcapd.2* | head -1)" -o raw >"$WORK/sf.raw"

"$PY" tools/bench_clock_report.py "$EXP" "$WORK/tp.json" "$WORK/sf.raw" \
	"$T_TP" "$T_SF" "$OUT/clock.json"
bench_stamp "$OUT/clock.json"
