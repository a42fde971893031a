#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Sample a running pipeline for scripts/soak.sh, then stop it (stdlib only).

    soak_sample.py TIMEOUT_PID PREFIX SECONDS INTERVAL OUT.json

TIMEOUT_PID is the timeout(1) that runs the pipeline (its child), PREFIX
the pipeline's --file-prefix. Once the pipeline answers on telemetry
(within 240 s: loading a big capture takes a while), every INTERVAL
seconds for SECONDS it reads its resident memory (VmRSS), DPDK's heap
(/eal/heap_info), its counters and lateness histogram
(/timer_pipeline/stats, /timer_pipeline/flows); then it sends the pipeline
SIGINT and times its exit. OUT gets {"samples": [...], "error": null or
why sampling stopped, "exit_ms", "pid"}; soak_report.py reads it.
"""

import json
import os
import signal
import sys
import time

import tplib

STATS = "/timer_pipeline/stats"


def app_pid(tpid):
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


def connect(tpid, path, wait_s):
    """(pid, telemetry) once the pipeline answers, or (None, None)."""
    deadline = time.time() + wait_s
    while time.time() < deadline and alive(tpid):
        pid = app_pid(tpid)
        if pid is not None and os.path.exists(path):
            try:
                tel = tplib.Telemetry(path)
            except (OSError, ValueError):
                tel = None
            if tel is not None:
                try:
                    tel.query(STATS)
                    return pid, tel
                except (OSError, ValueError, KeyError, TypeError):
                    tel.close()
        time.sleep(0.2)
    return None, None


def sample(tel, pid, t):
    st = tel.query(STATS)
    fl = tel.query("/timer_pipeline/flows")
    heap = tel.query("/eal/heap_info,0")
    return {
        "t_s": round(t, 2), "rss_kb": rss_kb(pid),
        "heap_alloc_bytes": heap["Alloc_size"],
        "rx_pkts": st["rx_pkts"], "flows_created": fl["flows_created"],
        "flows_active": fl["flows_active"],
        "timers_expired": st["timers_expired"],
        "lateness_p99_us": st["lateness_p99_us"],
        "lateness_hist_log2_us": st["lateness_hist_log2_us"],
        "enqueue_retries": st["enqueue_retries"],
        "mbufs_in_use": st["mbufs_in_use"],
    }


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    tpid, prefix, secs, interval, out = (int(argv[1]), argv[2],
                                         int(argv[3]), float(argv[4]),
                                         argv[5])
    res = {"samples": [], "error": None}
    pid, tel = connect(tpid, tplib.telemetry_path(prefix), 240)
    if tel is None:
        res["error"] = "the pipeline did not start (no telemetry)"
        with open(out, "w") as f:
            json.dump(res, f)
        return 0

    t0 = time.monotonic()
    n = 0
    while True:
        t = time.monotonic() - t0
        try:
            res["samples"].append(sample(tel, pid, t))
        except (OSError, ValueError, KeyError, TypeError) as e:
            res["error"] = "sampling failed at %.1f s: %s" % (t, e)
            break
        if t >= secs:
            break
        n += 1
        time.sleep(max(0.0, t0 + n * interval - time.monotonic()))
    tel.close()
    # SIGINT, then poll for the process to be gone.
    ts = time.monotonic()
    os.kill(pid, signal.SIGINT)
    while alive(pid) and time.monotonic() - ts < 60:
        time.sleep(0.005)
    res["exit_ms"] = round((time.monotonic() - ts) * 1000)
    res["pid"] = pid
    with open(out, "w") as f:
        json.dump(res, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
