#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Live interfaces at speed: the highest packet rate each input receives
# with no loss, on the same veth traffic, side by side in one run:
# net_af_xdp, net_af_packet, net_pcap iface= (the pipeline in monitor
# mode, each with the --vdev and --rxd scripts/run_live.sh uses) and
# softflowd -i (libpcap).
#
#     bash scripts/bench_live.sh [--quick] [--dpdk VERSION]
#
# Two network namespaces of its own joined by a veth pair (IPv6 off: the
# only traffic is ours); tcpreplay --pps sends a generated capture (1,000
# untagged flows, 64-400-byte frames, looped) on one end, the input reads
# the other. Layout: scripts/run_live.sh's for each input (--print-vdev;
# on 2 CPUs, lcore 0 alone runs RX, the worker, the event_sw scheduler and
# the timer adapter, and sleeps --idle-sleep-us when idle; net_pcap keeps
# service lcore 1); the sender and the kernel's veth work run beside it
# (tcpreplay's CPU is measured per trial). The sender runs on the last
# CPU and softflowd on CPU 0, where the pipeline's lcore 0 runs (taskset;
# live.json records both). The pipeline's end of the veth
# gets run_live.sh's settings for net_af_xdp (--print-tuning: what DPDK's
# AF_XDP guide recommends for the driver's preferred busy polling) for
# the whole run, so every input reads the same interface; live.json
# records them. Search (tools/bench_live.py):
# rates doubling from 20,000 packets/s, then 3 bisections; 3 repetitions
# per step, interleaved across inputs; a step passes when every
# repetition loses nothing. --quick: 1 repetition, 1 bisection.
#
# Output: OUT/live.json (default bench/), with date, commit and DPDK
# version, and OUT/live_table.rst (tools/bench_live_report.py); docs/bench/
# holds the published run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench_common.sh
bench_dpdk_select "$@"
set -- ${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"}
REPS=3 BISECT=3
[ "${1:-}" = --quick ] && { REPS=1 BISECT=1; }
[ "$(id -u)" = 0 ] || { echo "bench_live: needs root (netns)" >&2; exit 1; }
for c in tcpreplay softflowd softflowctl ip; do
	command -v $c >/dev/null || { echo "bench_live: no $c (scripts/setup.sh)" >&2; exit 1; }
done
ninja -C "$BUILD_DIR" >/dev/null
BIN=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
mkdir -p "$OUT"
NSS=tpbl$$s NSP=tpbl$$p
WORK=$(mktemp -d /tmp/tp_bench_live_XXXXXX)
cleanup() {
	ip netns del "$NSS" 2>/dev/null || true
	ip netns del "$NSP" 2>/dev/null || true
	rm -rf "$WORK" /var/run/dpdk/tp_bench_live_*
}
trap cleanup EXIT
ip netns add "$NSS"
ip netns add "$NSP"
for ns in "$NSS" "$NSP"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	ip -n "$ns" link set lo up
done
ip link add tbla netns "$NSS" type veth peer name tblb netns "$NSP"
ip -n "$NSS" link set tbla up
ip -n "$NSP" link set tblb up
read -r -a TUNING <<<"$(bash scripts/run_live.sh --print-tuning af_xdp)"
for kv in "${TUNING[@]}"; do
	ip netns exec "$NSP" sh -c "echo ${kv#*=} >/sys/class/net/tblb/${kv%%=*}"
done
echo "bench_live: the pipeline's end of the veth: ${TUNING[*]}"
CAP=$WORK/live.pcap
python3 tools/gen_pcap.py -o "$CAP" --seed 7 --flows 1000 --vlan-pct 0 \
	--qinq-pct 0 --size 64-400 --gap-ms 0.01-0.1 \
	--flow-interval-ms 0.01 >/dev/null
VDEVS=()
for name in af_xdp af_packet pcap; do
	read -r vdev rxd sleep lcores <<<"$(bash scripts/run_live.sh --print-vdev "$name" tblb)"
	VDEVS+=(--vdev "$name=$vdev:$rxd:$sleep:$lcores")
	echo "bench_live: $name: pipeline lcores $lcores"
done
echo "bench_live: $(nproc) CPUs; sender tcpreplay on CPU $(($(nproc) - 1)), softflowd on CPU 0"
python3 tools/bench_live.py --bin "$BIN" --cap "$CAP" --ns-send "$NSS" \
	--ns-recv "$NSP" --if-send tbla --if-recv tblb --out "$OUT/live.json" \
	--reps "$REPS" --bisect "$BISECT" --iface-tuning "${TUNING[*]}" \
	--sender-cpu $(($(nproc) - 1)) --softflowd-cpu 0 \
	"${VDEVS[@]}"
bench_stamp "$OUT/live.json"
python3 tools/bench_live_report.py "$OUT/live.json" "$OUT/live_table.rst"
