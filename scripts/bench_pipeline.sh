#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# timer_pipeline against DPDK's l2fwd-event on the same machine, event
# device and input: net_pcap replaying (infinite_rx) a capture of 100,000
# UDP flows, event_sw, one service lcore. Then timer_pipeline aging
# 1,000,000 flows read once from a capture. Writes bench/pipeline.json and
# prints a table.
#
#   bash scripts/bench_pipeline.sh [SECONDS]      (default 20 s per run)
#
# l2fwd-event is built from the dpdk-doc package's sources; it needs a main
# lcore, a worker lcore and a service lcore, so on a 2-CPU machine its
# worker shares CPU 0 with its main lcore (--lcores=0@0,1@1,2@0), while
# timer_pipeline runs RX+worker on lcore 0 and the services on lcore 1.
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${BENCH_OUT:-bench}
SECS=${1:-20}
export BUILD_DIR
bash scripts/setup.sh
if [ "$(id -u)" = 0 ]; then
	for p in dpdk-doc make time; do
		dpkg-query -W -f='${Status}' $p 2>/dev/null |
			grep -q "install ok installed" ||
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				--no-install-recommends $p >/dev/null
	done
	hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	if [ -w "$hp" ] && [ "$(cat $hp)" -lt 1536 ]; then
		echo 1536 > "$hp" 2>/dev/null || true
	fi
fi
mkdir -p "$OUT" "$BUILD_DIR/l2fwd-event"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# l2fwd-event, built out of tree with its pkg-config Makefile. One change:
# its mbuf pool (sized for descriptors only, at least 8192) gets 131072
# more mbufs, since net_pcap's infinite_rx loads the whole capture into it.
L2=$BUILD_DIR/l2fwd-event
if [ ! -x "$L2/build/l2fwd-event" ]; then
	cp -r /usr/share/dpdk/examples/l2fwd-event/. "$L2/"
	sed -i 's/MEMPOOL_CACHE_SIZE), 8192U);/MEMPOOL_CACHE_SIZE), 8192U) + 131072;/' \
		"$L2/main.c"
	grep -q '8192U) + 131072;' "$L2/main.c" ||
		{ echo "bench_pipeline: cannot enlarge l2fwd-event's pool" >&2; exit 1; }
	make -s -C "$L2" >/dev/null
fi

CAP100K=$OUT/udp100k.pcap
CAP1M=$OUT/udp1m.pcap
[ -f "$CAP100K" ] || "$PY" tools/gen_pcap.py -o "$CAP100K" --seed 100 \
	--flows 100000 --mix udp=1 --pkts 1 --vlan-pct 0 --ipv6-pct 0 \
	--idle-gap-pct 0 --size 64 >/dev/null
[ -f "$CAP1M" ] || "$PY" tools/gen_pcap.py -o "$CAP1M" --seed 1000 \
	--flows 1000000 --mix udp=1 --pkts 1 --vlan-pct 0 --ipv6-pct 0 \
	--idle-gap-pct 0 --size 64 >/dev/null

TP=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
VDEV="net_pcap0,rx_pcap=$CAP100K,infinite_rx=1"

echo "== timer_pipeline, $SECS s, 100K flows replayed (infinite_rx)"
timeout -s INT $((SECS + 30)) "$TP" -l 0-1 -s 0x2 --no-pci --in-memory \
	--vdev=event_sw0 --vdev="$VDEV" --log-level=lib.eal:warning -- \
	--fwd-mode loop --flows 262144 --tmo-udp 5s -T 1 --duration "$SECS" \
	> "$OUT/tp_100k.log" 2>&1 || true
echo "== l2fwd-event, $SECS s, same capture"
timeout -s INT "$SECS" "$L2/build/l2fwd-event" --lcores=0@0,1@1,2@0 -s 0x2 \
	--no-pci --in-memory --vdev=event_sw0 --vdev="$VDEV" \
	--log-level=lib.eal:warning -- -p 0x1 --mode=eventdev \
	--eventq-sched=atomic -T 1 > "$OUT/l2fwd_100k.log" 2>&1 || true
echo "== timer_pipeline aging 1,000,000 flows (capture read once)"
/usr/bin/time -v timeout -s INT 600 "$TP" -l 0-1 -s 0x2 --no-pci --in-memory \
	--vdev=event_sw0 --vdev="net_pcap0,rx_pcap=$CAP1M" \
	--log-level=lib.eal:warning -- --fwd-mode drop --flows 1200000 \
	--tmo-udp 2s -T 5 --stop-when-done > "$OUT/tp_1m.log" 2>&1 || true

"$PY" - "$OUT" "$SECS" <<'PYEOF'
import json, os, re, statistics, sys
out, secs = sys.argv[1], int(sys.argv[2])

def rates(values):
    """Per-second deltas of a cumulative counter, steady part only."""
    d = [b - a for a, b in zip(values, values[1:])]
    d = d[2:-1] if len(d) > 4 else d
    return statistics.median(d) if d else 0

tp = open(os.path.join(out, "tp_100k.log"), errors="replace").read()
tp_rx = [int(x) for x in re.findall(r"^\s+rx\s+(\d+) pkts", tp, re.M)]
l2 = open(os.path.join(out, "l2fwd_100k.log"), errors="replace").read()
l2_rx = [int(x) for x in re.findall(r"Total packets received:\s+(\d+)", l2)]
one = open(os.path.join(out, "tp_1m.log"), errors="replace").read()
# TSC rate: from timer_bench's conditions if it ran, else the CPU clock.
hz = None
try:
    hz = json.load(open(os.path.join(out, "results.json")))["conditions"]["tsc_hz"]
except (OSError, ValueError, KeyError):
    for line in open("/proc/cpuinfo"):
        if line.startswith("cpu MHz"):
            hz = float(line.split(":")[1]) * 1e6
            break
res = {
    "timer_pipeline_100k_Mpps": rates(tp_rx) / 1e6,
    "l2fwd_event_100k_Mpps": rates(l2_rx) / 1e6,
}
for k in ("timer_pipeline_100k_Mpps", "l2fwd_event_100k_Mpps"):
    # Two CPUs busy for the whole run: cycles of the machine per packet.
    res[k.replace("Mpps", "cycles_per_pkt")] = (2 * hz / (res[k] * 1e6)
                                                if res[k] and hz else None)
created = re.findall(r"flows\s+active \d+ created (\d+) ended (\d+)", one)
res["aging_1m_flows_created"] = int(created[-1][0]) if created else None
res["aging_1m_flows_ended"] = int(created[-1][1]) if created else None
res["aging_1m_exactly_once"] = "PASSED" in one
el = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", one)
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", one)
res["aging_1m_wall"] = el.group(1) if el else None
res["aging_1m_max_rss_MB"] = int(rss.group(1)) / 1024 if rss else None
json.dump(res, open(os.path.join(out, "pipeline.json"), "w"), indent=2)
for k, v in res.items():
    print("%-34s %s" % (k, v))
PYEOF
