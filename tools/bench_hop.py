#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""The event_direct hop: DPDK's API through the driver against the library.

    bench_hop.py DIR OUT.json [LIMIT_NS]

DIR holds rep*.json, one timer_bench --tests arm --arm-n N --adapters
direct,rte (or rte,direct) --reps 1 run each, made with the event_direct
driver loaded (scripts/bench.sh): there "rte" is DPDK's inline
rte_event_timer_*() call into the driver's op, then the library, and
"direct" the library's own call, on the same adapter code. For each arm
and cancel figure at N outstanding timers (random and constant timeouts):
every repetition of both paths, their medians, and the extra cost per
timer (rte - direct) of each repetition (both ran in the same process,
one after the other): its median and its spread (min and max). The check:
the median extra cost of every figure at most LIMIT_NS (default 2).
Prints a table, writes OUT; exits 1 when the check fails.
"""

import glob
import json
import os
import re
import statistics
import sys

OPS = ("arm1", "arm32", "armtmo32", "cancel1", "cancel32", "cancel32tmo")


def load(path):
    doc = json.load(open(path))
    vals = {}
    for m in doc.get("medians", []):
        if m.get("test") != "arm":
            continue
        k = re.match(r"(\w+)_ns/(random|const)/(\d+)$", m["key"])
        if k and k.group(1) in OPS:
            vals[(k.group(1), k.group(2), int(k.group(3)),
                  m["adapter"])] = m["median"]
    return vals


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    limit = float(argv[3]) if len(argv) == 4 else 2.0
    files = sorted(glob.glob(os.path.join(argv[1], "rep*.json")),
                   key=lambda f: int(re.sub(r"\D", "", os.path.basename(f))
                                     or 0))
    if not files:
        print("bench_hop: no rep*.json in %s" % argv[1], file=sys.stderr)
        return 1
    reps = [load(f) for f in files]
    figs = sorted({k[:3] for r in reps for k in r},
                  key=lambda k: (k[2], OPS.index(k[0]), k[1]))
    out = {"definition": "extra = rte - direct per timer, both paths in "
                         "the same repetition (one process, one after the "
                         "other, the order alternating between "
                         "repetitions); rte is DPDK's API through the "
                         "event_direct driver",
           "limit_ns": limit, "repetitions": len(files), "figures": []}
    worst = None
    print("%-28s %10s %10s %10s %18s" % ("ns per timer", "direct", "rte",
                                         "extra", "extra min..max"))
    for op, shape, n in figs:
        d = [r[(op, shape, n, "direct")] for r in reps
             if (op, shape, n, "direct") in r and (op, shape, n, "rte") in r]
        e = [r[(op, shape, n, "rte")] for r in reps
             if (op, shape, n, "direct") in r and (op, shape, n, "rte") in r]
        if not d:
            continue
        x = [b - a for a, b in zip(d, e)]
        f = {"op": op, "shape": shape, "outstanding": n,
             "direct": d, "rte": e, "extra": x,
             "direct_median": statistics.median(d),
             "rte_median": statistics.median(e),
             "extra_median": statistics.median(x),
             "extra_min": min(x), "extra_max": max(x)}
        out["figures"].append(f)
        if worst is None or f["extra_median"] > worst["extra_median"]:
            worst = f
        print("%-28s %10.2f %10.2f %+10.2f %8.2f..%-8.2f" % (
            "%s/%s/%d" % (op, shape, n), f["direct_median"],
            f["rte_median"], f["extra_median"], f["extra_min"],
            f["extra_max"]))
    if worst is None:
        print("bench_hop: no arm figures with both direct and rte",
              file=sys.stderr)
        return 1
    out["worst"] = {k: worst[k] for k in ("op", "shape", "outstanding",
                                          "extra_median")}
    out["ok"] = worst["extra_median"] <= limit
    json.dump(out, open(argv[2], "w"), indent=1)
    print("hop: %d repetitions; largest median extra cost %+.2f ns per "
          "timer (%s, %s): %s the %.1f-ns limit" % (
              len(files), worst["extra_median"], worst["op"],
              worst["shape"], "within" if out["ok"] else "OVER", limit))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
