#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Closed-loop repetitions: which runs kept up and which collapsed.

    bench_collapse.py DIR OUT.json

DIR holds rep*.json, one timer_bench --tests closedloop --reps 1 run each
(scripts/bench.sh). Some cases either keep up or fall into a retry storm
(the producer's arms refused again and again), and which one happens
varies from run to run: their median is no figure. Here every repetition
is kept, and a repetition *collapsed* when its rate is below a tenth of
the case's reference: the loop's own ceiling (16K timers once per expiry
period: 1.64 M/s at 10 ms) where some adapter reaches half of it, else
the best repetition of the same adapter (at 10 us the ceiling is out of
reach, and the runs split into two modes an order of magnitude or more
apart). The arm retries of each repetition are kept beside it.
For each case and adapter: every value, how many collapsed, the median of
each mode; for direct against rte and ring: the ratio of direct's median
to the other's median in each of its modes. Prints a table, writes OUT.
"""

import glob
import json
import os
import re
import statistics
import sys

POOL = 16384        # the closed loop's timers (test-eventdev's --pool_sz)


def load(path):
    doc = json.load(open(path))
    secs = 0.5 if doc.get("conditions", {}).get("quick") else 2.0
    vals = {}
    for m in doc.get("medians", []):
        if m.get("test") != "closedloop":
            continue
        k = re.match(r"(.+/(?:plain|burst))_(Mev_s|arm_retries)$", m["key"])
        if k:
            vals.setdefault((k.group(1), m["adapter"]), {})[k.group(2)] = \
                m["median"]
    return secs, vals


def med(xs):
    return statistics.median(xs) if xs else None


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    files = sorted(glob.glob(os.path.join(argv[1], "rep*.json")),
                   key=lambda f: int(re.sub(r"\D", "", os.path.basename(f))
                                     or 0))
    if not files:
        print("bench_collapse: no rep*.json in %s" % argv[1],
              file=sys.stderr)
        return 1
    cases = {}
    secs = None
    for f in files:
        secs, vals = load(f)
        for (case, adapter), v in vals.items():
            if "Mev_s" not in v or "arm_retries" not in v:
                continue
            events = v["Mev_s"] * 1e6 * secs
            c = cases.setdefault(case, {}).setdefault(adapter, {
                "Mev_s": [], "arm_retries": [], "events": []})
            c["Mev_s"].append(v["Mev_s"])
            c["arm_retries"].append(v["arm_retries"])
            c["events"].append(events)
    for case, ads in cases.items():
        # The loop's own ceiling: 16K timers each once per expiry period.
        m = re.match(r"exp(\d+)(us|ms)_", case)
        ceiling = None
        if m:
            period_s = int(m.group(1)) * (1e-6 if m.group(2) == "us" else
                                          1e-3)
            ceiling = POOL / period_s / 1e6
        top = max(max(c["Mev_s"]) for c in ads.values())
        reachable = ceiling is not None and top >= ceiling / 2
        for c in ads.values():
            ref = ceiling if reachable else max(c["Mev_s"])
            c["collapsed_flags"] = [x < ref / 10 for x in c["Mev_s"]]
            c["reference"] = "ceiling" if reachable else "own best"
    out = {"definition": "a repetition collapsed when its rate is below a "
                         "tenth of the loop's ceiling (16K timers per "
                         "expiry period) where some adapter reaches half "
                         "of it, else of the adapter's own best repetition "
                         "of the case (%.1f-s windows)" % secs,
           "window_s": secs, "repetitions": len(files), "cases": {}}
    for case, ads in sorted(cases.items()):
        oc = out["cases"][case] = {}
        for ad, c in sorted(ads.items()):
            kept = [x for x, col in zip(c["Mev_s"], c["collapsed_flags"])
                    if not col]
            coll = [x for x, col in zip(c["Mev_s"], c["collapsed_flags"])
                    if col]
            oc[ad] = {"Mev_s": c["Mev_s"], "arm_retries": c["arm_retries"],
                      "collapsed_reps": [i + 1 for i, col in
                                         enumerate(c["collapsed_flags"])
                                         if col],
                      "collapsed": sum(c["collapsed_flags"]),
                      "reps": len(c["Mev_s"]),
                      "collapse_reference": c["reference"],
                      "median_kept_up": med(kept),
                      "median_collapsed": med(coll)}
        d = oc.get("direct")
        if d is None:
            continue
        ratios = {}
        # direct's own median over all its repetitions (it has no storm).
        dmed = med(d["Mev_s"])
        for other in ("rte", "ring"):
            o = oc.get(other)
            if o is None:
                continue
            ratios[other] = {
                "when_kept_up": dmed / o["median_kept_up"]
                if o["median_kept_up"] else None,
                "when_collapsed": dmed / o["median_collapsed"]
                if o["median_collapsed"] else None,
                "collapsed": "%d of %d" % (o["collapsed"], o["reps"])}
        oc["direct_ratio"] = ratios
    json.dump(out, open(argv[2], "w"), indent=1)

    print("== closed loop, %d repetitions (one per run, adapters "
          "interleaved); collapsed = rate below a tenth of the loop's "
          "ceiling where reached, else of the adapter's best" % len(files))
    for case, oc in out["cases"].items():
        for ad in ("direct", "rte", "ring"):
            if ad not in oc:
                continue
            c = oc[ad]
            print("%-24s %-6s collapsed %2d/%-2d  Mev/s: %s" % (
                case, ad, c["collapsed"], c["reps"],
                " ".join("%.3g%s" % (x, "*" if i + 1 in c["collapsed_reps"]
                                     else "")
                         for i, x in enumerate(c["Mev_s"]))))
            print("%-24s %-6s arm retries: %s" % (
                "", "", " ".join("%.2g" % r for r in c["arm_retries"])))
        for other, r in oc.get("direct_ratio", {}).items():
            print("%-24s direct/%-4s %s kept up, %s collapsed (%s collapsed)"
                  % (case, other,
                     "%.3gx" % r["when_kept_up"] if r["when_kept_up"]
                     else "-",
                     "%.3gx" % r["when_collapsed"] if r["when_collapsed"]
                     else "-", r["collapsed"]))
    print("(* = a collapsed repetition)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
