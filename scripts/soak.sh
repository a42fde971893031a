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
python3 - "$TPID" "$PREFIX" "$SECS" "$INTERVAL" "$SAMPLES" <<'PYEOF'
import json, os, signal, socket, sys, time

tpid, prefix, secs, interval, out = (int(sys.argv[1]), sys.argv[2],
                                     int(sys.argv[3]), float(sys.argv[4]),
                                     sys.argv[5])
path = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
res = {"samples": [], "error": None}

def app_pid():
    """The pipeline: the child of timeout."""
    try:
        with open("/proc/%d/task/%d/children" % (tpid, tpid)) as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except OSError:
        return None

def alive(pid):
    return os.path.exists("/proc/%d" % pid)

def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None

def query(sock, cmd, buflen):
    """One telemetry command; its reply is null until it is registered."""
    sock.send(cmd.encode())
    reply = json.loads(sock.recv(buflen).decode())[cmd.split(",")[0]]
    if not isinstance(reply, dict):
        raise ValueError("no answer to " + cmd)
    return reply

# Wait for the pipeline to answer (loading a big capture takes a while).
sock = None
deadline = time.time() + 240
while time.time() < deadline and alive(tpid):
    pid = app_pid()
    if pid is not None and os.path.exists(path):
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            sock.connect(path)
            buflen = json.loads(sock.recv(1024).decode())["max_output_len"]
            query(sock, "/timer_pipeline/stats", buflen)
            break
        except (OSError, ValueError, KeyError, TypeError):
            sock.close()
            sock = None
    time.sleep(0.2)
if sock is None:
    res["error"] = "the pipeline did not start (no telemetry)"
    json.dump(res, open(out, "w"))
    sys.exit(0)

t0 = time.monotonic()
n = 0
while True:
    t = time.monotonic() - t0
    try:
        st = query(sock, "/timer_pipeline/stats", buflen)
        fl = query(sock, "/timer_pipeline/flows", buflen)
        heap = query(sock, "/eal/heap_info,0", buflen)
        rss = rss_kb(pid)
    except (OSError, ValueError, KeyError, TypeError) as e:
        res["error"] = "sampling failed at %.1f s: %s" % (t, e)
        break
    res["samples"].append({
        "t_s": round(t, 2), "rss_kb": rss,
        "heap_alloc_bytes": heap["Alloc_size"],
        "rx_pkts": st["rx_pkts"], "flows_created": fl["created"],
        "flows_active": fl["active"],
        "timers_expired": st["timers_expired"],
        "lateness_p99_us": st["lateness_p99_us"],
        "lateness_hist_log2_us": st["lateness_hist_log2_us"],
        "enqueue_retries": st["enqueue_retries"],
        "mbufs_in_use": st["mbufs_in_use"],
    })
    if t >= secs:
        break
    n += 1
    time.sleep(max(0.0, t0 + n * interval - time.monotonic()))
sock.close()
# SIGINT, then poll for the process to be gone.
ts = time.monotonic()
os.kill(pid, signal.SIGINT)
while alive(pid) and time.monotonic() - ts < 60:
    time.sleep(0.005)
res["exit_ms"] = round((time.monotonic() - ts) * 1000)
res["pid"] = pid
json.dump(res, open(out, "w"))
PYEOF
set +e
wait $TPID
RC=$?
set -e
trap 'rm -rf "/var/run/dpdk/$PREFIX"' EXIT

python3 - "$SAMPLES" "$LOG" "$OUT" "$RC" "$FLOWS" "$SECS" "$TMO_US" \
	"$ACT_US" "$LAT_BUCKETS" "$ADAPTER" <<'PYEOF'
import json, os, re, sys

samples_f, log_f, out_f = sys.argv[1:4]
rc, flows, secs, tmo_us, act_us, lat_buckets = (int(x)
                                                for x in sys.argv[4:10])
adapter = sys.argv[10]
res = json.load(open(samples_f))
os.unlink(samples_f)
log = open(log_f, errors="replace").read()
S = res["samples"]

def p99(hist):
    """Upper bound (us) of the log2 bucket holding the 99th percentile."""
    n = sum(hist)
    if n == 0:
        return None
    want, acc = (n * 99 + 99) // 100, 0
    for b, c in enumerate(hist):
        acc += c
        if acc >= want:
            return 1 << b
    return 1 << (len(hist) - 1)

def window(a, b):
    """Lateness histogram of the expiries between samples a and b."""
    return [y - x for x, y in zip(a["lateness_hist_log2_us"],
                                  b["lateness_hist_log2_us"])]

def at(t):
    """First sample at or after t seconds."""
    for s in S:
        if s["t_s"] >= t:
            return s
    return S[-1]

fig, checks = {}, {}
warm = min(60.0, secs / 4)
win = min(60.0, (secs - warm) / 2)
if res.get("error") or len(S) < 4:
    checks["sampled"] = False
else:
    base = at(warm)
    after = [s for s in S if s["t_s"] >= base["t_s"]]
    rss0 = base["rss_kb"]
    dev = max(abs(s["rss_kb"] - rss0) for s in after) * 100.0 / rss0
    fig["warmup_s"] = warm
    fig["rss_after_warmup_MB"] = round(rss0 / 1024, 1)
    fig["rss_last_MB"] = round(S[-1]["rss_kb"] / 1024, 1)
    fig["rss_max_MB"] = round(max(s["rss_kb"] for s in S) / 1024, 1)
    fig["rss_max_deviation_pct"] = round(dev, 2)
    # Least-squares slope after the warm-up, MB per minute.
    ts = [s["t_s"] for s in after]
    rs = [s["rss_kb"] / 1024 for s in after]
    mt, mr = sum(ts) / len(ts), sum(rs) / len(rs)
    var = sum((t - mt) ** 2 for t in ts)
    fig["rss_slope_MB_per_min"] = round(
        60 * sum((t - mt) * (r - mr) for t, r in zip(ts, rs)) / var, 3) \
        if var else 0.0
    checks["rss_flat"] = dev <= 3.0
    # DPDK's heap (rte_malloc, memzones, pools): what is allocated, whether
    # or not its pages were touched.
    h0 = base["heap_alloc_bytes"]
    fig["heap_alloc_after_warmup_MB"] = round(h0 / 2 ** 20, 1)
    fig["heap_alloc_last_MB"] = round(S[-1]["heap_alloc_bytes"] / 2 ** 20, 1)
    hdev = max(abs(s["heap_alloc_bytes"] - h0) for s in after) * 100.0 / h0
    fig["heap_alloc_max_deviation_pct"] = round(hdev, 3)
    checks["heap_flat"] = hdev <= 1.0
    # Mbufs out of the pool: the capture infinite_rx holds, plus at most
    # the events in flight and the per-lcore caches and buffers.
    mb = [s["mbufs_in_use"] for s in after]
    fig["mbufs_in_use_min"], fig["mbufs_in_use_max"] = min(mb), max(mb)
    checks["mbufs_bounded"] = max(mb) <= flows + 8192
    first = window(base, at(base["t_s"] + win))
    last = window(at(S[-1]["t_s"] - win), S[-1])
    fig["lateness_window_s"] = win
    fig["lateness_p99_first_us"] = p99(first)
    fig["lateness_p99_last_us"] = p99(last)
    fig["lateness_p99_whole_run_us"] = p99(S[-1]["lateness_hist_log2_us"])
    checks["lateness_stable"] = (fig["lateness_p99_first_us"] is not None and
                                 fig["lateness_p99_last_us"] is not None and
                                 fig["lateness_p99_last_us"] <=
                                 fig["lateness_p99_first_us"] << lat_buckets)
    dt = S[-1]["t_s"] - S[0]["t_s"]
    fig["sampled_s"] = round(dt, 1)
    fig["rx_Mpps"] = round((S[-1]["rx_pkts"] - S[0]["rx_pkts"]) / dt / 1e6, 3)
    fig["flows_created_per_s"] = round(
        (S[-1]["flows_created"] - S[0]["flows_created"]) / dt)
    fig["flows_active_mean"] = round(
        sum(s["flows_active"] for s in after) / len(after))
m = re.findall(r"flows\s+active (\d+) created (\d+) ended (\d+): idle_timeout "
               r"(\d+) active_timeout (\d+) end_of_flow \d+ forced_end (\d+) "
               r"lack_of_resources (\d+)", log)
if m:
    a, c, e, idle, act, forced, lack = (int(x) for x in m[-1])
    fig.update(flows_created=c, flows_ended=e, ended_idle=idle,
               ended_active=act, ended_forced=forced, ended_lack=lack)
    checks["churn"] = c >= 3 * flows and idle + act >= 2 * flows
else:
    checks["churn"] = False
chk = re.search(r"Exactly-once check:\n(.*?)\n  (PASSED|FAILED)", log, re.S)
fig["exit_status"] = rc
fig["exactly_once"] = (re.sub(r"\s+", " ", chk.group(1)).strip() + "; " +
                      chk.group(2)) if chk else None
checks["exactly_once"] = (rc == 0 and chk is not None and
                          chk.group(2) == "PASSED" and
                          fig.get("flows_created") == fig.get("flows_ended"))
# The flush (every live flow ended, every event drained) must end within
# 2 s of the signal; the process exit that follows also frees and unmaps
# all of DPDK's memory (4-KB pages without hugepages), reported as is.
fig["sigint_to_exit_ms"] = res.get("exit_ms")
fl = re.search(r"flushed and drained (\d+) ms", log)
fig["flush_ms"] = int(fl.group(1)) if fl else None
checks["flush_in_time"] = fl is not None and int(fl.group(1)) <= 2000
doc = {
    "config": {"flows": flows, "seconds": secs, "tmo_udp_us": tmo_us,
               "tmo_active_us": act_us, "tick_us": 1000,
               "lateness_buckets": lat_buckets,
               "adapter": adapter, "log": log_f},
    "error": res.get("error"),
    "figures": fig,
    "checks": checks,
    "passed": all(checks.values()) and not res.get("error"),
    "samples": S,
}
json.dump(doc, open(out_f, "w"), indent=1)
if res.get("error"):
    print("soak: " + res["error"])
for k, v in fig.items():
    print("  %-28s %s" % (k, v))
for k, v in checks.items():
    print("  check %-22s %s" % (k, "ok" if v else "FAILED"))
print("soak: %s, results in %s" % ("PASSED" if doc["passed"] else "FAILED",
                                   out_f))
sys.exit(0 if doc["passed"] else 1)
PYEOF
