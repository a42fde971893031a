#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""dpdk-test-eventdev's closed loop next to timer_bench's (scripts/bench.sh).

    bench_eventdev_report.py OUT LOGS EAL OVERSUBSCRIBED SECONDS

Reads every LOGS/*.log (one dpdk-test-eventdev --test=perf_queue run of
SECONDS each, named exp<ns>_tick<ns>_timerdev[_burst].log), writes
OUT/test_eventdev.json (per case: the median of its own per-second rate
after the first second, and the workers' total over the whole run) and
prints it beside timer_bench's closedloop medians from OUT/results.json.
EAL and OVERSUBSCRIBED ("true": lcores shared CPUs) describe the runs.
"""

import glob
import json
import os
import re
import statistics
import sys

ADAPTERS = ("rte", "direct", "ring")


def case(path, secs):
    """One log's figures."""
    with open(path, errors="replace") as f:
        text = re.sub(r"\x1b\[[0-9;]*m", "", f.read())
    mpps = [float(x) for x in re.findall(r"([\d.]+) mpps avg", text)]
    steady = mpps[1:] or mpps
    # Its own per-second rate has 3 decimals; the workers' total over the
    # whole run (start-up included, so a lower bound) is finer.
    done = sum(int(x) for x in re.findall(
        r"Worker \d+ packets:\s*(\d+)", text))
    return {"Mev_s_median": statistics.median(steady) if steady else None,
            "samples": len(steady), "events": done,
            "Mev_s_whole_run": done / float(secs) / 1e6}


def ours(out):
    """timer_bench's closedloop medians: (adapter, key) -> Mev/s."""
    res = {}
    try:
        with open(os.path.join(out, "results.json")) as f:
            doc = json.load(f)
        for m in doc["medians"]:
            if m["test"] == "closedloop" and m["key"].endswith("_Mev_s"):
                res[(m["adapter"], m["key"])] = m["median"]
    except (OSError, ValueError, KeyError):
        pass
    return res


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    out, logs, eal, oversub, secs = argv[1:6]
    res = {"harness": "dpdk-test-eventdev perf_queue, DPDK's adapter",
           "eal": eal, "oversubscribed": oversub == "true", "cases": {}}
    for f in sorted(glob.glob(os.path.join(logs, "*.log"))):
        res["cases"][os.path.basename(f)[:-4]] = case(f, secs)
    with open(os.path.join(out, "test_eventdev.json"), "w") as f:
        json.dump(res, f, indent=1)
    tb = ours(out)
    print("\n== closed loop, Mev/s: dpdk-test-eventdev (DPDK's adapter) next "
          "to timer_bench closedloop%s" % (
              " [test-eventdev oversubscribed: %s]" % eal
              if oversub == "true" else ""))
    print("%-26s %9s %10s %9s %9s %9s" % ("case", "te median", "te whole",
                                         "rte", "direct", "ring"))
    for name, c in res["cases"].items():
        m = re.match(r"exp(\d+)_tick(\d+)_timerdev(_burst)?", name)
        exp, tick, burst = int(m.group(1)), int(m.group(2)), bool(m.group(3))
        key = "exp%s_tick%s/%s_Mev_s" % (
            "10us" if exp == 10000 else "10ms",
            "1us" if tick == 1000 else "10us",
            "burst" if burst else "plain")
        v = [tb.get((a, key)) for a in ADAPTERS]
        print("%-26s %9s %10.4g %9s %9s %9s" % (
            key.replace("_Mev_s", ""),
            "%.3f" % c["Mev_s_median"] if c["Mev_s_median"] is not None
            else "-",
            c["Mev_s_whole_run"],
            *["%.4g" % x if x is not None else "-" for x in v]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
