#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# The README's main command: build, generate a capture with known flows,
# replay it through the flow-aging pipeline at its recorded pace, and show
# the stats and the flow records it produced.
#
#     scripts/demo.sh            (about 10 s after the build)
#     scripts/demo.sh --capture-only   (write build/demo/demo.pcap, no run:
#                                       scripts/docs.sh uses it)
#
# Environment: BUILD_DIR (build directory, default build; also used by
# scripts/setup.sh), DEMO_SEED (capture
# seed, default 1), DEMO_ADAPTER (direct or rte, default direct).

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=${BUILD_DIR:-build}
export BUILD_DIR=$BUILD
OUT=$BUILD/demo
BIN=$BUILD/examples/timer_pipeline/dpdk-timer_pipeline
SEED=${DEMO_SEED:-1}
ADAPTER=${DEMO_ADAPTER:-direct}

# 1. Packages, hugepages and the build (idempotent).
"$ROOT/scripts/setup.sh"
[ -x "$BIN" ] || { echo "demo: $BIN was not built" >&2; exit 1; }

# 2. A capture: 40 flows (TCP with handshakes and FIN/RST, UDP, ICMP,
# IPv6 with extension headers, VLAN/QinQ), a third of them with a 4 s idle
# gap, plus malformed and non-IP frames.
mkdir -p "$OUT"
python3 tools/gen_pcap.py -o "$OUT/demo.pcap" --seed "$SEED" --flows 40 \
	--gap-ms 20-300 --flow-interval-ms 50 --idle-gap-pct 30 \
	--idle-gap-ms 4000 --malformed 10 --non-ip 4 \
	--expect "$OUT/expected.json" --tmo-tcp-syn 2 --tmo-tcp-est 3 \
	--tmo-tcp-closing 1 --tmo-udp 2 --tmo-icmp 2 --tmo-other 2 \
	--tmo-active 8
[ "${1:-}" = --capture-only ] && exit 0
rm -f "$OUT/out.pcap" "$OUT/flows.json"

# 3. The pipeline: lcore 0 = main + RX + worker, lcore 1 = service lcore
# (event_sw scheduler + timer adapter). Hugepages if there are some free.
MEM=(--no-huge -m 512)
if [ "$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)" -ge 128 ] 2>/dev/null
then
	MEM=()
fi
CMD=("$BIN" -l 0-1 -S 1 --no-pci "${MEM[@]}" --file-prefix "tp_demo_$$"
     --vdev=event_sw0
     "--vdev=net_pcap0,rx_pcap=$OUT/demo.pcap,tx_pcap=$OUT/out.pcap"
     -- --config configs/pcap-demo.ini --timer-adapter "$ADAPTER"
     --flow-log "$OUT/flows.json" -T 2 --trace-timers 2)
echo
echo "\$ ${CMD[*]}"
echo
set +e
timeout -k 5 50 "${CMD[@]}" 2>&1 | tee "$OUT/pipeline.log" |
	grep -v -E '^EAL: |^TELEMETRY: '
status=${PIPESTATUS[0]}
set -e
rm -rf "/var/run/dpdk/tp_demo_$$"

# 4. What came out.
echo
echo "=== Exit status $status; the flow records ($OUT/flows.json), first 5:"
head -n 5 "$OUT/flows.json" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print("  %-17s %s %s:%s -> %s:%s  fwd %d pkts %d B, rev %d pkts %d B" % (
        r["end_reason"], {6: "tcp", 17: "udp", 1: "icmp", 58: "icmp6"}.get(
            r["proto"], "ip%d" % r["proto"]), r["src"], r["sport"],
        r["dst"], r["dport"], r["packets_fwd"], r["bytes_fwd"],
        r["packets_rev"], r["bytes_rev"]))'
echo
echo "=== Records by end reason:"
python3 tests/pipeline/check_records.py reasons "$OUT/flows.json"
echo
echo "=== Compared with the generator's model (tools/gen_pcap.py --expect):"
python3 tests/pipeline/check_records.py records "$OUT/flows.json" \
	"$OUT/expected.json" --mode paced || true
python3 tests/pipeline/check_records.py pcap-equal "$OUT/demo.pcap" \
	"$OUT/out.pcap" --minus 10 || true
exit "$status"
