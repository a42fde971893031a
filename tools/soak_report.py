#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""The soak's figures and checks (scripts/soak.sh; stdlib only).

  soak_report.py report SAMPLES LOG OUT RC FLOWS SECONDS TMO_US ACT_US
                        LATENESS_BUCKETS ADAPTER
      From soak_sample.py's SAMPLES (removed once read), the pipeline's
      LOG and exit status RC and the run's settings: write OUT (the
      settings, every sample, the figures and the checks) and print the
      figures and checks; exit 0 iff every check passed. scripts/soak.sh
      describes the checks.
  soak_report.py cases OUT RC
      One line per case of the CI soak (tests/pipeline/soak.sh): "NAME ok
      WHY" or "NAME bad WHY", read back from OUT (soak.sh's exit status
      RC), so that a check the report forgot is "check missing".
"""

import json
import os
import re
import sys

import tplib

# The exit summary's flow line and exactly-once check
# (examples/timer_pipeline/reports/tp_summary.c).
FLOWS_RE = (r"flows\s+active (\d+) created (\d+) ended (\d+): idle_timeout "
            r"(\d+) active_timeout (\d+) end_of_flow \d+ forced_end (\d+) "
            r"lack_of_resources (\d+)")
CHECK_RE = r"Exactly-once check:\n(.*?)\n  (PASSED|FAILED)"
FLUSH_RE = r"flushed and drained (\d+) ms"


def window(a, b):
    """Lateness histogram of the expiries between samples a and b."""
    return tplib.hist_window(a["lateness_hist_log2_us"],
                             b["lateness_hist_log2_us"])


def at(S, t):
    """First sample at or after t seconds."""
    for s in S:
        if s["t_s"] >= t:
            return s
    return S[-1]


def sampled_figures(S, fig, checks, flows, secs, lat_buckets):
    """Memory, heap, mbufs, lateness and rates from the samples."""
    warm = min(60.0, secs / 4)
    win = min(60.0, (secs - warm) / 2)
    base = at(S, warm)
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
    first = window(base, at(S, base["t_s"] + win))
    last = window(at(S, S[-1]["t_s"] - win), S[-1])
    fig["lateness_window_s"] = win
    fig["lateness_p99_first_us"] = tplib.hist_pct(first, 99)
    fig["lateness_p99_last_us"] = tplib.hist_pct(last, 99)
    fig["lateness_p99_whole_run_us"] = tplib.hist_pct(
        S[-1]["lateness_hist_log2_us"], 99)
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


def log_figures(log, rc, fig, checks, flows):
    """Churn, the exactly-once check and the flush, from the log."""
    m = re.findall(FLOWS_RE, log)
    if m:
        a, c, e, idle, act, forced, lack = (int(x) for x in m[-1])
        fig.update(flows_created=c, flows_ended=e, ended_idle=idle,
                   ended_active=act, ended_forced=forced, ended_lack=lack)
        checks["churn"] = c >= 3 * flows and idle + act >= 2 * flows
    else:
        checks["churn"] = False
    chk = re.search(CHECK_RE, log, re.S)
    fig["exit_status"] = rc
    fig["exactly_once"] = (re.sub(r"\s+", " ", chk.group(1)).strip() + "; " +
                           chk.group(2)) if chk else None
    checks["exactly_once"] = (rc == 0 and chk is not None and
                              chk.group(2) == "PASSED" and
                              fig.get("flows_created") ==
                              fig.get("flows_ended"))


def cmd_report(argv):
    samples_f, log_f, out_f = argv[0:3]
    rc, flows, secs, tmo_us, act_us, lat_buckets = (int(x)
                                                    for x in argv[3:9])
    adapter = argv[9]
    with open(samples_f) as f:
        res = json.load(f)
    os.unlink(samples_f)
    with open(log_f, errors="replace") as f:
        log = f.read()
    S = res["samples"]

    fig, checks = {}, {}
    if res.get("error") or len(S) < 4:
        checks["sampled"] = False
    else:
        sampled_figures(S, fig, checks, flows, secs, lat_buckets)
    log_figures(log, rc, fig, checks, flows)
    # The flush (every live flow ended, every event drained) must end
    # within 2 s of the signal; the process exit that follows also frees
    # and unmaps all of DPDK's memory (4-KB pages without hugepages),
    # reported as is.
    fig["sigint_to_exit_ms"] = res.get("exit_ms")
    fl = re.search(FLUSH_RE, log)
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
    with open(out_f, "w") as f:
        json.dump(doc, f, indent=1)
    if res.get("error"):
        print("soak: " + res["error"])
    for k, v in fig.items():
        print("  %-28s %s" % (k, v))
    for k, v in checks.items():
        print("  check %-22s %s" % (k, "ok" if v else "FAILED"))
    print("soak: %s, results in %s" % ("PASSED" if doc["passed"]
                                       else "FAILED", out_f))
    return 0 if doc["passed"] else 1


def cmd_cases(argv):
    with open(argv[0]) as f:
        doc = json.load(f)
    rc = int(argv[1])
    f, c = doc["figures"], doc["checks"]
    n = len(doc["samples"])
    print("ran", "ok" if rc == 0 and doc["passed"] and n >= 25 and
          not doc["error"] else "bad",
          "exit %d, %d samples, error %s" % (rc, n, doc["error"]))
    why = {
        "rss_flat": "RSS %s MB after warm-up, last %s MB, max deviation %s %%"
            % (f.get("rss_after_warmup_MB"), f.get("rss_last_MB"),
               f.get("rss_max_deviation_pct")),
        "lateness_stable": "lateness p99 first %s us, last %s us"
            % (f.get("lateness_p99_first_us"), f.get("lateness_p99_last_us")),
        "churn": "%s flows created, %s ended by timeouts"
            % (f.get("flows_created"),
               (f.get("ended_idle") or 0) + (f.get("ended_active") or 0)),
        "exactly_once": "exit status %s: %s"
            % (f.get("exit_status"), f.get("exactly_once")),
        "heap_flat": "DPDK heap %s MB after warm-up, last %s MB"
            % (f.get("heap_alloc_after_warmup_MB"),
               f.get("heap_alloc_last_MB")),
        "mbufs_bounded": "mbufs in use %s..%s"
            % (f.get("mbufs_in_use_min"), f.get("mbufs_in_use_max")),
        "flush_in_time": "flushed %s ms after SIGINT" % f.get("flush_ms"),
    }
    for k, w in why.items():
        print(k, "ok" if c.get(k) is True else "bad",
              w if k in c else "check missing")
    # With 100,000 flows the teardown is small: the whole exit fits in 2 s.
    e = f.get("sigint_to_exit_ms")
    print("exit_in_time", "ok" if e is not None and e <= 2000 else "bad",
          "SIGINT to exit %s ms" % e)
    return 0


def main(argv):
    if len(argv) == 12 and argv[1] == "report":
        return cmd_report(argv[2:])
    if len(argv) == 4 and argv[1] == "cases":
        return cmd_cases(argv[2:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
