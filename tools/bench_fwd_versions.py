#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Forwarding against the fair l2fwd-event on several DPDK versions, in
one run (scripts/bench_fwd_versions.sh).

    bench_fwd_versions.py --out FILE.json [--start T --commit C --dirty D]
                          PIPELINE.json ...

Each PIPELINE.json is one version's report from scripts/bench_pipeline.sh
over repetitions that the wrapper interleaved with the other versions'.
Writes, per version, the forwarding rates, the two ratios to l2fwd-event
(ratio of the medians, the per-repetition spread, at each CPU distance),
and whether the target holds on every version: the pipeline with a timer
per flow (lazy refresh) at 1.0x l2fwd-event or more. Prints a table.
"""

import argparse
import json
import os
import sys

PROGRAMS = ("l2fwd", "tp_direct_lazy", "tp_direct_every")
RATIOS = (("direct_lazy_vs_l2fwd", "lazy refresh / l2fwd-event"),
          ("direct_every_vs_l2fwd", "every-packet refresh / l2fwd-event"))
TARGET = "direct_lazy_vs_l2fwd"
TARGET_MIN = 1.0


def version(path):
    """One version's figures from its bench_pipeline.sh report."""
    doc = json.load(open(path))
    run = doc.get("run", {})
    bands = doc.get("bands", {}).get("ratios", {})
    v = {"dpdk": run.get("dpdk"), "dpdk_prefix": run.get("dpdk_prefix"),
         "report": path,
         "reps": doc.get("conditions", {}).get("reps"),
         "secs_per_run": doc.get("conditions", {}).get("secs_per_run"),
         "forwarding_Mpps": {p: doc.get("forwarding_Mpps", {}).get(p)
                             for p in PROGRAMS},
         "ratios": {}}
    for key, _ in RATIOS:
        r = doc.get("ratios", {}).get(key)
        v["ratios"][key] = None if r is None else {
            "ratio_of_medians": r.get("ratio_of_medians"),
            "pair_min": r.get("pair_min"), "pair_max": r.get("pair_max"),
            "near": bands.get(key, {}).get("near"),
            "far": bands.get(key, {}).get("far")}
    t = v["ratios"][TARGET]
    v["met"] = bool(t and t["ratio_of_medians"] is not None and
                    t["ratio_of_medians"] >= TARGET_MIN)
    return v


def build(paths, start=None, commit=None, dirty=None):
    versions = [version(p) for p in paths]
    return {
        "versions": versions,
        "target": {"ratio": TARGET, "at_least": TARGET_MIN,
                   # Every version, in this one run: one missing or
                   # below the target misses it.
                   "met_on_every_version": bool(versions) and
                   all(v["met"] for v in versions)},
        "run": {"date": start, "commit": commit, "commit_dirty": dirty,
                "dpdk": [v["dpdk"] for v in versions],
                "order": "repetitions interleaved across the versions, "
                         "alternating which goes first"},
    }


def fmt(x):
    return "-" if x is None else "%.2f" % x


def table(doc):
    out = ["%-34s %s" % ("", "  ".join("%-22s" % ("DPDK %s" % v["dpdk"])
                                       for v in doc["versions"]))]
    for p in PROGRAMS:
        cells = []
        for v in doc["versions"]:
            f = v["forwarding_Mpps"].get(p) or {}
            cells.append("%-22s" % ("%s Mpps [%s, %s]" % (
                fmt(f.get("median")), fmt(f.get("min")), fmt(f.get("max")))))
        out.append("%-34s %s" % (p, "  ".join(cells)))
    for key, label in RATIOS:
        cells, near = [], []
        for v in doc["versions"]:
            r = v["ratios"][key] or {}
            cells.append("%-22s" % ("%s [%s, %s]" % (
                fmt(r.get("ratio_of_medians")), fmt(r.get("pair_min")),
                fmt(r.get("pair_max")))))
            near.append("%-22s" % ("near %s / far %s" % (
                fmt(r.get("near")), fmt(r.get("far")))))
        out.append("%-34s %s" % (label, "  ".join(cells)))
        out.append("%-34s %s" % ("  at each CPU distance", "  ".join(near)))
    t = doc["target"]
    out.append("target: %s >= %.1f on every version: %s" % (
        t["ratio"], t["at_least"],
        "met" if t["met_on_every_version"] else "MISSED"))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--start")
    ap.add_argument("--commit")
    ap.add_argument("--dirty", choices=("true", "false"))
    ap.add_argument("reports", nargs="+")
    args = ap.parse_args()
    missing = [p for p in args.reports if not os.path.exists(p)]
    if missing:
        print("bench_fwd_versions: no report %s" % ", ".join(missing),
              file=sys.stderr)
        return 1
    doc = build(args.reports, args.start, args.commit,
                None if args.dirty is None else args.dirty == "true")
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    print(table(doc))
    print("\nwrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
