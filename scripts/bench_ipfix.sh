#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# IPFIX export, side by side in one run, repetitions interleaved
# (A B C, B C A, C A B, ...), all on 127.0.0.1:
#
#   tp_ipfix    timer_pipeline reads the capture once (net_pcap), ages every
#               flow (--tmo-udp 1s) and exports each record over UDP to a
#               local nfcapd (started fresh for each run);
#   softflowd   softflowd -r on the same capture (-t udp=1, a table large
#               enough for every flow) to a fresh nfcapd;
#   tp_none     timer_pipeline on the same capture without export (no
#               record is built): the cost of export is tp_ipfix / tp_none.
#
# Per run: wall time from start to exit (both exporters exit after their
# last record was sent; nfcapd on loopback has it then), flows/s = flows /
# wall, records the collector counted (nfcapd's own total at exit; must
# equal the flows), records the pipeline counted as not sent, peak RSS
# (/usr/bin/time). Per program: median, min, max; ratios of the medians
# with the spread of the per-repetition ratios. Writes $BENCH_OUT/ipfix.json
# (default bench/) and prints a table.
#
# The pipeline's wall time includes what softflowd's does not: EAL start,
# the real 1-s idle timeout (softflowd -r ages by the capture's clock and
# flushes at the end of the file) and --stop-when-done's 0.5-s quiet
# period. So the JSON also gives the pipeline's export window (first to
# last IPFIX message carrying records, as the exporter measures it) and
# flows per second within it: the rate at which records leave once flows
# age, against softflowd's rate over its whole run.
#
#   bash scripts/bench_ipfix.sh [--quick] [--reps N] [--flows 1m|100k]
#
#   full:   1M flows, 3 repetitions (~2 min, plus ~1 min once for the
#           capture); quick: 100K flows, 3 repetitions (~30 s)
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${BENCH_OUT:-bench}
CAPS=${BENCH_CAPTURES:-$BUILD_DIR/bench-captures}
REPS=3
SIZE=1m
while [ $# -gt 0 ]; do
	case $1 in
	--quick) SIZE=100k ;;
	--reps) REPS=$2; shift ;;
	--flows) SIZE=$2; shift ;;
	*) echo "usage: $0 [--quick] [--reps N] [--flows 1m|100k]" >&2
	   exit 2 ;;
	esac
	shift
done
case $SIZE in
100k) NFLOWS=100000; TABLE=131072 ;;
1m) NFLOWS=1000000; TABLE=1200000 ;;
*) echo "bench_ipfix: --flows 1m or 100k" >&2; exit 2 ;;
esac
[ "$REPS" -ge 1 ] || { echo "bench_ipfix: --reps >= 1" >&2; exit 2; }

TP=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
[ -x "$TP" ] || { echo "bench_ipfix: build $TP first" >&2; exit 1; }
for t in nfcapd softflowd /usr/bin/time; do
	command -v "$t" >/dev/null ||
		{ echo "bench_ipfix: $t missing (scripts/setup.sh)" >&2; exit 1; }
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

mkdir -p "$OUT" "$CAPS"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench_ipfix.XXXXXX")
LOGS=$OUT/ipfix_logs
rm -rf "$LOGS"
mkdir -p "$LOGS"
NFPID=""
cleanup() {
	[ -n "$NFPID" ] && kill "$NFPID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

# The same capture as bench_pipeline.sh's aging figure (one UDP packet
# per flow, 64 bytes), written once.
CAP=$CAPS/udp$SIZE.pcap
if [ ! -f "$CAP" ]; then
	echo "== writing $CAP ($NFLOWS flows, once)"
	"$PY" tools/gen_pcap.py -o "$CAP.tmp" --seed $((NFLOWS / 1000)) \
		--flows "$NFLOWS" --mix udp=1 --pkts 1 --vlan-pct 0 \
		--ipv6-pct 0 --idle-gap-pct 0 --size 64 >/dev/null
	mv "$CAP.tmp" "$CAP"
fi

free_mb=$(awk '/HugePages_Free/ {f=$2} /Hugepagesize/ {s=$2}
	END {print int(f * s / 1024)}' /proc/meminfo)
if [ "${BENCH_HUGE:-auto}" = 1 ] ||
   { [ "${BENCH_HUGE:-auto}" = auto ] && [ "$free_mb" -ge 4096 ]; }; then
	MEM="--in-memory"
else
	# smaller for 100K: zeroing 4 GB of 4K pages costs seconds
	MEM="--no-huge -m $([ "$SIZE" = 100k ] && echo 1024 || echo 4096)"
fi

free_port() {
	"$PY" -c "import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"
}

# collector_start NAME: a fresh nfcapd; PORT and NFPID set.
collector_start() {
	PORT=$(free_port)
	mkdir -p "$WORK/$1.nf"
	nfcapd -w "$WORK/$1.nf" -p "$PORT" -b 127.0.0.1 -t 3600 \
		-B 16000000 >"$LOGS/$1.nfcapd.log" 2>&1 &
	NFPID=$!
	for _ in $(seq 50); do	# listening within 5 s
		ss -Hlun "sport = :$PORT" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	echo "bench_ipfix: nfcapd does not listen on $PORT" >&2
}

# collector_stop NAME: GOT = the flows nfcapd counted (its summary at
# exit). Not in a subshell: only this shell can wait for nfcapd.
collector_stop() {
	sleep 0.5
	kill -TERM "$NFPID" 2>/dev/null
	wait "$NFPID" 2>/dev/null || true
	NFPID=""
	rm -rf "$WORK/$1.nf"
	GOT=$(sed -n "s/.*Flows: \([0-9]*\),.*/\1/p" "$LOGS/$1.nfcapd.log" |
		tail -1)
}

run_tp() { # run_tp LOG [APP-OPTIONS...]
	local log=$1
	shift
	# shellcheck disable=SC2086
	/usr/bin/time -v timeout -s INT 600 "$TP" -l 0-1 -s 0x2 --no-pci \
		$MEM --file-prefix "bench_ipfix_$$" --vdev=event_sw0 \
		--log-level=lib.eal:warning --vdev="net_pcap0,rx_pcap=$CAP" -- \
		--fwd-mode drop --flows "$TABLE" --tmo-udp 1s -T 0 \
		--stop-when-done "$@" >"$log" 2>&1 || true
}

run_one() { # run_one PROG REP -> one JSON line on stdout
	local p=$1 r=$2 log=$LOGS/$1.$2.log t0 t1
	t0=$(date +%s%N)
	GOT=0
	case $p in
	tp_ipfix)
		collector_start "$p.$r"
		t0=$(date +%s%N)
		run_tp "$log" --ipfix "127.0.0.1:$PORT"
		t1=$(date +%s%N)
		collector_stop "$p.$r" ;;
	softflowd)
		collector_start "$p.$r"
		t0=$(date +%s%N)
		/usr/bin/time -v timeout 600 softflowd -r "$CAP" \
			-n "127.0.0.1:$PORT" -v 10 -b -d -m $((TABLE * 2)) \
			-t udp=1 -t general=1 >"$log" 2>&1 || true
		t1=$(date +%s%N)
		collector_stop "$p.$r" ;;
	tp_none)
		run_tp "$log"
		t1=$(date +%s%N) ;;
	esac
	"$PY" - "$p" "$r" "$log" "$(((t1 - t0) / 1000))" "${GOT:-0}" <<'EOF'
import json, re, sys
p, r, log, us, got = sys.argv[1:]
text = open(log, errors="replace").read()
def grab(rx, default=None):
    m = re.search(rx, text)
    return int(m.group(1)) if m else default
rss = grab(r"Maximum resident set size \(kbytes\): (\d+)", 0)
d = {"prog": p, "rep": int(r), "wall_s": int(us) / 1e6,
     "rss_mb": round(rss / 1024, 1)}
if p != "tp_none":
    d["received"] = int(got) if got not in ("", "null") else 0
if p.startswith("tp_"):
    d["flows"] = grab(r"flows\s+active \d+ created (\d+)", 0)
    d["check_passed"] = "\n  PASSED" in text
    d["aged_ms_after_last_packet"] = grab(
        r"every flow ended (\d+) ms after the last packet")
if p == "tp_ipfix":
    d["exported"] = grab(r"ipfix\s+messages \d+ records (\d+)", 0)
    d["not_sent"] = grab(r"not_sent (\d+)", 0)
    w = grab(r"window_ms (\d+)", 0)
    d["export_window_s"] = w / 1e3
print(json.dumps(d))
EOF
}

PROGS="tp_ipfix softflowd tp_none"
: >"$WORK/runs.jsonl"
for r in $(seq 1 "$REPS"); do
	# rotate the order each repetition: no program always runs first
	set -- $PROGS
	for _ in $(seq 2 "$r"); do set -- "${@:2}" "$1"; done
	for p in "$@"; do
		echo "== rep $r/$REPS: $p ($SIZE flows)" >&2
		run_one "$p" "$r" >>"$WORK/runs.jsonl"
	done
done

"$PY" - "$WORK/runs.jsonl" "$OUT/ipfix.json" "$NFLOWS" "$REPS" <<'EOF'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
nflows, reps = int(sys.argv[3]), int(sys.argv[4])
by = {}
for x in runs:
    by.setdefault(x["prog"], []).append(x)
def agg(vals):
    return {"median": statistics.median(vals), "min": min(vals),
            "max": max(vals)}
progs = {}
for p, xs in by.items():
    progs[p] = {"wall_s": agg([x["wall_s"] for x in xs]),
                "flows_per_s": agg([nflows / x["wall_s"] for x in xs]),
                "rss_mb": agg([x["rss_mb"] for x in xs])}
    if p == "tp_ipfix":
        progs[p]["export_window_s"] = agg([x["export_window_s"] for x in xs])
        progs[p]["flows_per_s_in_window"] = agg(
            [nflows / max(x["export_window_s"], 1e-3) for x in xs])
    if "received" in xs[0]:
        progs[p]["received"] = agg([x["received"] for x in xs])
        progs[p]["lost"] = max(nflows - x["received"] for x in xs)
def ratio(a, b, key):
    pa = [x[key] for x in sorted(by[a], key=lambda x: x["rep"])]
    pb = [x[key] for x in sorted(by[b], key=lambda x: x["rep"])]
    per = [u / v for u, v in zip(pa, pb) if v]
    return {"of_medians": statistics.median(pa) / statistics.median(pb),
            "per_rep_min": min(per), "per_rep_max": max(per)}
try:
    rmem = int(open("/proc/sys/net/core/rmem_max").read())
except OSError:
    rmem = None
doc = {"flows": nflows, "reps": reps, "runs": runs, "programs": progs,
       # nfcapd asks for 16 MB of socket buffer; the kernel caps it here
       "net_core_rmem_max": rmem,
       "ratios": {
           # > 1: the pipeline ages and exports faster than softflowd -r
           "flows_per_s_tp_ipfix_over_softflowd":
               {k: 1 / v for k, v in ratio("tp_ipfix", "softflowd",
                                           "wall_s").items()},
           # the pipeline's rate while records leave (first to last
           # message) over softflowd's rate on its whole run
           "window_flows_per_s_tp_ipfix_over_softflowd": {
               "of_medians": progs["tp_ipfix"]["flows_per_s_in_window"]
               ["median"] / progs["softflowd"]["flows_per_s"]["median"]},
           # export cost: wall time with --ipfix over without
           "wall_tp_ipfix_over_tp_none": ratio("tp_ipfix", "tp_none",
                                               "wall_s")},
       "targets": {"flows_per_s_x_softflowd": 10, "lost": 0,
                   "export_cost_max": 1.10}}
f = doc["ratios"]["flows_per_s_tp_ipfix_over_softflowd"]
f["per_rep_min"], f["per_rep_max"] = sorted((f["per_rep_min"],
                                              f["per_rep_max"]))
json.dump(doc, open(sys.argv[2], "w"), indent=1)
print("%-10s %9s %9s %9s %12s %9s %8s" % ("program", "wall_s", "min", "max",
                                          "flows/s", "received", "rss_MB"))
for p in ("tp_ipfix", "softflowd", "tp_none"):
    g = progs[p]
    print("%-10s %9.2f %9.2f %9.2f %12.0f %9s %8.0f" % (
        p, g["wall_s"]["median"], g["wall_s"]["min"], g["wall_s"]["max"],
        g["flows_per_s"]["median"],
        "%d" % g["received"]["min"] if "received" in g else "-",
        g["rss_mb"]["median"]))
r1 = doc["ratios"]["flows_per_s_tp_ipfix_over_softflowd"]
r2 = doc["ratios"]["wall_tp_ipfix_over_tp_none"]
print("flows/s tp_ipfix / softflowd: %.2fx (per rep %.2f..%.2f; target 10x)"
      % (r1["of_medians"], r1["per_rep_min"], r1["per_rep_max"]))
print("flows/s while exporting (first to last message) / softflowd: "
      "%.2fx" % doc["ratios"]["window_flows_per_s_tp_ipfix_over_softflowd"]
      ["of_medians"])
print("wall with / without export:   %.3f (per rep %.3f..%.3f; target <= "
      "1.10)" % (r2["of_medians"], r2["per_rep_min"], r2["per_rep_max"]))
print("lost: tp_ipfix %d, softflowd %d (of %d)" % (
    progs["tp_ipfix"]["lost"], progs["softflowd"]["lost"], nflows))
EOF
echo "bench_ipfix: wrote $OUT/ipfix.json" >&2
