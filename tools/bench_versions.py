#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Our adapter against DPDK's, one DPDK version per column group.

    bench_versions.py LABEL=DIR[,PIPEDIR] ... > docs/bench/versions.rst

Each DIR is a benchmark output folder (scripts/bench.sh and, when present,
scripts/bench_pipeline.sh, run with --dpdk VERSION): results.json,
closedloop_reps.json, pipeline.json. Within a folder every figure is
measured side by side (direct and rte interleaved, rte being that DPDK's
own adapter); folders are not compared with each other (machines and
modes differ, and the table says which run each is); PIPEDIR, when
given, is where that version's pipeline.json comes from instead (a
separate run of bench_pipeline.sh). For each figure:
the medians, their ratio, and the range of the per-repetition (per-pair)
ratios where the run kept every repetition.
"""

import json
import os
import statistics
import sys

# (label, test, key, unit, lower is better)
ADAPTER_FIGURES = [
    ("arm one timer, 1M outstanding, random", "arm",
     "arm1_ns/random/1000000", "ns", True),
    ("arm one timer, 100K outstanding, random", "arm",
     "arm1_ns/random/100000", "ns", True),
    ("cancel one timer, 1M outstanding, random", "arm",
     "cancel1_ns/random/1000000", "ns", True),
    ("cancel one timer, 100K outstanding, random", "arm",
     "cancel1_ns/random/100000", "ns", True),
    ("expiry throughput", "expiry", "rate_Mev_s", "Mev/s", False),
    ("memory per timer, 1M", "memory", "mem_per_timer_B/1000000", "B",
     True),
]
CL_CASES = [
    ("closed loop 10 us / 1 us, plain", "exp10us_tick1us/plain"),
    ("closed loop 10 us / 1 us, burst", "exp10us_tick1us/burst"),
    ("closed loop 10 ms / 10 us, plain", "exp10ms_tick10us/plain"),
    ("closed loop 10 ms / 10 us, burst", "exp10ms_tick10us/burst"),
]
PIPE_RATIOS = [
    ("pipeline lazy refresh / l2fwd-event", "direct_lazy_vs_l2fwd"),
    ("pipeline every-packet refresh / l2fwd-event", "direct_every_vs_l2fwd"),
    ("pipeline direct / rte, lazy refresh", "direct_vs_rte_lazy"),
]


def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None


def fig(x):
    if x is None:
        return "--"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    if x >= 1:
        return "%.2f" % x
    return "%.3g" % x


def adapter_rows(doc):
    med = {}
    vals = {}
    for m in doc.get("medians", []):
        med[(m["test"], m["adapter"], m["key"])] = m["median"]
        if "values" in m:
            vals[(m["test"], m["adapter"], m["key"])] = m["values"]
    quick = doc.get("conditions", {}).get("quick")
    rows = []
    for label, test, key, unit, lower in ADAPTER_FIGURES:
        d = med.get((test, "direct", key))
        r = med.get((test, "rte", key))
        if d is None and r is None:
            continue
        if test == "expiry":
            label += " (%s timers)" % ("quick-mode" if quick else "1M")
        # "ratio" is always direct's advantage: > 1 means direct is better.
        ratio = None
        if d and r:
            ratio = r / d if lower else d / r
        spread = "not recorded"
        dv, rv = vals.get((test, "direct", key)), vals.get((test, "rte", key))
        if dv and rv and len(dv) == len(rv):
            pairs = [(b / a if lower else a / b) for a, b in zip(dv, rv)
                     if a and b]
            if pairs:
                spread = "%s to %s" % (fig(min(pairs)), fig(max(pairs)))
        rows.append(("%s (%s)" % (label, unit), fig(d), fig(r),
                     "%sx" % fig(ratio) if ratio else "--", spread))
    return rows


def cl_rows(doc, reps):
    rows = []
    if reps:
        for label, case in CL_CASES:
            c = reps["cases"].get(case)
            if not c or "direct" not in c or "rte" not in c:
                continue
            d, r = c["direct"], c["rte"]
            dmed = statistics.median(d["Mev_s"])
            ratio = c.get("direct_ratio", {}).get("rte", {})
            parts = []
            if ratio.get("when_kept_up"):
                parts.append("%sx kept up" % fig(ratio["when_kept_up"]))
            if ratio.get("when_collapsed"):
                parts.append("%sx collapsed" % fig(ratio["when_collapsed"]))
            rmode = []
            if r["median_kept_up"] is not None:
                rmode.append("%s kept up" % fig(r["median_kept_up"]))
            if r["median_collapsed"] is not None:
                rmode.append("%s collapsed" % fig(r["median_collapsed"]))
            rows.append(("%s (Mev/s)" % label, fig(dmed),
                         ", ".join(rmode),
                         "; ".join(parts) or "--",
                         "rte collapsed %d of %d, direct %d of %d" % (
                             r["collapsed"], r["reps"], d["collapsed"],
                             d["reps"])))
        return rows
    return rows


def pipe_rows(doc):
    rows = []
    for label, key in PIPE_RATIOS:
        r = doc.get("ratios", {}).get(key)
        if not r:
            continue
        rows.append((label, "", "", "%.2fx" % r["ratio_of_medians"],
                     "%.2f to %.2f" % (r["pair_min"], r["pair_max"])))
    return rows


def committed_in(path):
    """The commit that last changed path, and its date."""
    try:
        import subprocess
        return subprocess.run(
            ["git", "log", "-1", "--format=%h %cs", "--", path],
            capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return []


def run_line(label, doc, mode, path, dpdk_default="?"):
    run = (doc or {}).get("run") or {}
    cond = (doc or {}).get("conditions") or {}
    date, commit = run.get("date", "")[:10], run.get("commit")
    if not commit:
        # A run from before the run stamps: the commit that added it.
        c = committed_in(path)
        commit = "unstamped, committed in %s" % c[0] if c else "unknown"
        date = c[1] if len(c) > 1 else "unknown date"
    dpdk = run.get("dpdk") or cond.get("dpdk") or dpdk_default
    cpu = (run.get("machine") or {}).get("cpu") or cond.get("cpu", "?")
    hz = cond.get("tsc_hz")
    return ("%s: DPDK %s, %s mode, %s, commit %s%s, %s%s" % (
        label, str(dpdk).replace("DPDK ", ""), mode, date, commit,
        " (uncommitted changes)" if run.get("commit_dirty") else "",
        cpu, ", TSC %.2f GHz" % (hz / 1e9) if hz else ""))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = [
        ".. Generated by tools/bench_versions.py from the benchmark outputs",
        "   named below; do not edit.",
        "",
    ]
    for spec in argv[1:]:
        label, _, path = spec.partition("=")
        path, _, pipedir = path.partition(",")
        pipedir = pipedir or path
        res = load(os.path.join(path, "results.json"))
        if res is None:
            print("bench_versions: no %s/results.json" % path,
                  file=sys.stderr)
            return 1
        reps = load(os.path.join(path, "closedloop_reps.json"))
        pipe = load(os.path.join(pipedir, "pipeline.json"))
        mode = "quick" if res.get("conditions", {}).get("quick") else "full"
        rows = adapter_rows(res) + cl_rows(res, reps)
        if pipe:
            rows += pipe_rows(pipe)
        title = run_line(label, res, mode,
                         os.path.join(path, "results.json"))
        out.append(title)
        out.append("~" * len(title))
        out.append("")
        if pipe:
            pm = "quick" if pipe.get("conditions", {}).get("quick") else \
                "full"
            out.append("Pipeline rows: " + run_line(
                "bench_pipeline.sh", pipe, pm,
                os.path.join(pipedir, "pipeline.json"),
                str((res.get("run") or {}).get("dpdk") or
                    res.get("conditions", {}).get("dpdk", "?"))) + ".")
            out.append("")
        if reps:
            out.append("Closed-loop rows: %d runs of one repetition each "
                       "(%s)." % (reps["repetitions"], reps["definition"]))
            out.append("")
        hdr = ("Figure", "direct", "rte", "direct's advantage",
               "per-pair / per-mode")
        w = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(5)]
        line = "  ".join("=" * x for x in w)
        out.append(line)
        out.append("  ".join(h.ljust(x) for h, x in zip(hdr, w)).rstrip())
        out.append(line)
        for r in rows:
            out.append("  ".join(str(c).ljust(x) for c, x in
                                 zip(r, w)).rstrip())
        out.append(line)
        out.append("")
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
