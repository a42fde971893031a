#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Figures of scripts/bench_pipeline.sh from its logs.

Reads LOGS/<program>.<rep>.log (forwarding and churn runs) and
LOGS/aging_<size>_<adapter>.<rep>.log, writes OUT/pipeline.json and
OUT/pipeline_table.rst, and prints the table. Per program and figure:
median, min and max over the repetitions; per ratio: the ratio of the
medians and the min/max of the per-repetition ratios (rep r of A over
rep r of B, which ran next to each other).

Where a forwarding run has LOGS/<program>.<rep>.hop (tools/cpu_hop's
samples during the run) and .start (its launch, unix ms), "bands" gives
each program's per-second rates by how far apart the two CPUs were
(tools/bench_bands.py) and the ratios of their medians at each distance.
"""

import argparse
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_bands  # noqa: E402

WARMUP_S = 2  # Per-second samples dropped at the start of every run.
RESOLUTION_S = 0.011  # Aging: one 10-ms tick plus one 1-ms stop check.

LABELS = {
    "l2fwd": "l2fwd-event (fair)",
    "tp_direct_lazy": "timer_pipeline direct, lazy",
    "tp_direct_every": "timer_pipeline direct, every-packet",
    "tp_rte_lazy": "timer_pipeline rte, lazy",
    "tp_rte_every": "timer_pipeline rte, every-packet",
    "churn_direct": "churn, direct",
    "churn_rte": "churn, rte",
}


def steady_samples(times, values):
    """(end time, rate) of each per-second rate of a cumulative counter,
    warm-up and the last (cut short) dropped; all of them when nothing is
    left (too short a run)."""
    rates = []
    for i in range(1, len(values)):
        dt = times[i] - times[i - 1]
        if dt > 0:
            rates.append(((times[i], (values[i] - values[i - 1]) / dt)))
    t0 = times[0] if times else 0
    keep = [(t, r) for t, r in rates[:-1] if t - t0 > WARMUP_S]
    return keep or rates


def steady(times, values):
    """Median per-second rate of a cumulative counter, warm-up dropped."""
    keep = [r for _, r in steady_samples(times, values)]
    return (statistics.median(keep) if keep else None), len(keep)


def parse_l2fwd(text):
    sent = [int(x) for x in re.findall(r"Total packets sent:\s+(\d+)", text)]
    rx = [int(x) for x in re.findall(r"Total packets received:\s+(\d+)",
                                     text)]
    # One screen per second (-T 1; the loop sleeps 1 ms per pass).
    times = list(range(len(sent)))
    per_s = steady_samples(times, sent)
    fwd = statistics.median([r for _, r in per_s]) if per_s else None
    return {"fwd_Mpps": fwd / 1e6 if fwd is not None else None,
            "rx_Mpps": (steady(times, rx)[0] or 0) / 1e6,
            "samples": len(per_s), "fwd_per_s": per_s}


def tp_screens(text):
    """(seconds, block) of every periodic stats screen (not the summary)."""
    parts = re.split(r"^=== timer_pipeline (stats|summary), ([\d.]+) s.*$",
                     text, flags=re.M)
    out = []
    for i in range(1, len(parts) - 2, 3):
        if parts[i] == "stats":
            out.append((float(parts[i + 1]), parts[i + 2]))
    return out


def grab(block, pattern, default=0):
    m = re.search(pattern, block, re.M)
    return int(m.group(1)) if m else default


def parse_tp(text):
    scr = tp_screens(text)
    times = [t for t, _ in scr]
    tx = [grab(b, r"^\s+tx\s+forwarded (\d+)") for _, b in scr]
    rx = [grab(b, r"^\s+rx\s+pkts (\d+)") for _, b in scr]
    created = [grab(b, r"flows\s+active \d+ created (\d+)") for _, b in scr]
    ended = [grab(b, r"flows\s+active \d+ created \d+ ended (\d+)")
             for _, b in scr]
    per_s = steady_samples(times, tx)
    fwd = statistics.median([r for _, r in per_s]) if per_s else None
    res = {"fwd_Mpps": fwd / 1e6 if fwd is not None else None,
           "rx_Mpps": (steady(times, rx)[0] or 0) / 1e6,
           "samples": len(per_s), "fwd_per_s": per_s,
           "flows_created_per_s": steady(times, created)[0],
           "flows_ended_per_s": steady(times, ended)[0],
           "exactly_once": "PASSED" in text}
    lat = re.findall(r"lateness p50_us (\d+) p99_us (\d+) max_us (\d+) "
                     r"tick_us (\d+)", text)
    if lat:
        p50, p99, mx, tick = (int(x) for x in lat[-1])
        res.update({"lateness_p50_le_us": p50, "lateness_p99_le_us": p99,
                    "lateness_max_us": mx, "tick_us": tick})
    drops = re.findall(r"tx\s+forwarded \d+ dropped (\d+)", text)
    res["dropped"] = int(drops[-1]) if drops else None
    return res


def parse_aging(text):
    res = {"exactly_once": "PASSED" in text}
    m = re.search(r"every flow ended (\d+) ms after the last packet", text)
    res["finished"] = m is not None
    res["last_pkt_to_last_record_s"] = int(m.group(1)) / 1e3 if m else None
    m = re.findall(r"flows\s+active \d+ created (\d+) ended (\d+)", text)
    res["flows"] = int(m[-1][0]) if m else None
    res["ended"] = int(m[-1][1]) if m else None
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    res["peak_rss_MB"] = int(m.group(1)) / 1024 if m else None
    m = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)",
                  text)
    if m:
        res["wall_s"] = (int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60
                         + float(m.group(3)))
    return res


def summary(values):
    v = [x for x in values if x is not None]
    if not v:
        return {"median": None, "min": None, "max": None, "reps": values}
    return {"median": statistics.median(v), "min": min(v), "max": max(v),
            "reps": values}


def ratio(fig, a, b, target=None, higher_is_better=True):
    """Ratio of medians a/b and the spread of the per-rep ratios."""
    ra, rb = fig.get(a), fig.get(b)
    if not ra or not rb or not ra["median"] or not rb["median"]:
        return None
    pairs = [x / y for x, y in zip(ra["reps"], rb["reps"])
             if x is not None and y]
    r = {"num": a, "den": b, "ratio_of_medians": ra["median"] / rb["median"],
         "pair_min": min(pairs) if pairs else None,
         "pair_max": max(pairs) if pairs else None, "target": target}
    if target is not None:
        v = r["ratio_of_medians"]
        r["met"] = v >= target if higher_is_better else v <= target
    return r


def fmt(v, nd=3):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    return ("%%.%dg" % nd) % v if isinstance(v, float) else str(v)


def build(args):
    progs = args.progs.split()
    runs = {}
    for p in progs:
        runs[p] = []
        for r in range(1, args.reps + 1):
            path = os.path.join(args.logs, "%s.%d.log" % (p, r))
            text = open(path, errors="replace").read() \
                if os.path.exists(path) else ""
            runs[p].append(parse_l2fwd(text) if p == "l2fwd"
                           else parse_tp(text))
    fwd = {p: summary([x["fwd_Mpps"] for x in runs[p]]) for p in progs}
    doc = {"conditions": {}, "forwarding_Mpps": fwd, "churn": {},
           "aging": {}, "ratios": {}, "targets": {}}
    rat = doc["ratios"]
    rat["direct_lazy_vs_l2fwd"] = ratio(fwd, "tp_direct_lazy", "l2fwd", 1.0)
    rat["direct_every_vs_l2fwd"] = ratio(fwd, "tp_direct_every", "l2fwd",
                                         0.8)
    rat["rte_lazy_vs_l2fwd"] = ratio(fwd, "tp_rte_lazy", "l2fwd")
    rat["rte_every_vs_l2fwd"] = ratio(fwd, "tp_rte_every", "l2fwd")
    rat["direct_vs_rte_lazy"] = ratio(fwd, "tp_direct_lazy", "tp_rte_lazy")
    rat["direct_vs_rte_every"] = ratio(fwd, "tp_direct_every",
                                       "tp_rte_every")
    rat["churn_direct_vs_no_churn"] = ratio(fwd, "churn_direct",
                                            "tp_direct_lazy", 0.8)
    rat["churn_rte_vs_no_churn"] = ratio(fwd, "churn_rte", "tp_rte_lazy")
    for p in progs:
        if not p.startswith("churn"):
            continue
        c = {k: summary([x.get(k) for x in runs[p]])
             for k in ("flows_created_per_s", "flows_ended_per_s",
                       "lateness_p50_le_us", "lateness_p99_le_us",
                       "lateness_max_us")}
        c["tick_us"] = runs[p][0].get("tick_us")
        c["exactly_once_all_reps"] = all(x["exactly_once"] for x in runs[p])
        doc["churn"][p] = c
    cd = doc["churn"].get("churn_direct")
    if cd and cd["lateness_p99_le_us"]["median"] is not None:
        bound = (cd["tick_us"] or 0) + 1000
        doc["targets"]["churn_lateness_p99_le_tick_plus_1ms"] = {
            "p99_le_us": cd["lateness_p99_le_us"]["median"],
            "bound_us": bound,
            "met": cd["lateness_p99_le_us"]["median"] <= bound,
            "note": "p99 is the upper edge of a log2 histogram bucket"}
    for size in args.aging.split():
        per = {}
        for a in ("direct", "rte"):
            files = sorted(glob.glob(os.path.join(
                args.logs, "aging_%s_%s.*.log" % (size, a))))
            rr = [parse_aging(open(f, errors="replace").read())
                  for f in files]
            per[a] = {k: summary([x.get(k) for x in rr])
                      for k in ("last_pkt_to_last_record_s", "peak_rss_MB",
                                "wall_s")}
            per[a]["flows"] = rr[0]["flows"] if rr else None
            # Stopped at the cap (BENCH_AGING_CAP) before every flow ended.
            per[a]["not_finished_reps"] = sum(not x["finished"] for x in rr)
            per[a]["exactly_once_all_reps"] = bool(rr) and all(
                x["exactly_once"] and x["flows"] == x["ended"] for x in rr)
            # After the last timeout is due (2 s idle timeout).
            per[a]["after_due_s"] = summary(
                [x["last_pkt_to_last_record_s"] - 2.0
                 if x["last_pkt_to_last_record_s"] is not None else None
                 for x in rr])
        doc["aging"][size] = per
        d, r = per["direct"]["after_due_s"], per["rte"]["after_due_s"]
        if (d["median"] is not None and per["rte"]["not_finished_reps"] and
                not per["direct"]["not_finished_reps"]):
            # DPDK's adapter did not finish within the cap: ours is ahead
            # by more than any ratio measured here; stated, not computed.
            doc["ratios"]["aging_%s_rte_over_direct_after_due" % size] = {
                "num": "rte", "den": "direct", "ratio_of_medians": None,
                "pair_min": None, "pair_max": None,
                "target": 2.0 if size == "4m" else None,
                "met": True, "note": "rte did not finish within the cap"}
        if d["median"] is not None:
            doc["targets"]["aging_%s_within_2s_after_due" % size] = {
                "direct_after_due_s": d["median"],
                "met": d["median"] <= 2.0}
        if d["median"] is not None and r["median"] is not None:
            # The time after due is known to one 10-ms tick plus one
            # 1-ms stop check: below 11 ms it counts as 11 ms here.
            fl = {k: dict(v, median=max(v["median"], RESOLUTION_S),
                          reps=[max(x, RESOLUTION_S) if x is not None
                                else None for x in v["reps"]])
                  for k, v in (("rte", r), ("direct", d))}
            doc["ratios"]["aging_%s_rte_over_direct_after_due" % size] = \
                ratio(fl, "rte", "direct", 2.0 if size == "4m" else None)
    doc["bands"] = bands(args, progs, runs)
    for name, r in rat.items():
        if r and r.get("target") is not None:
            doc["targets"][name] = {"ratio_of_medians": r["ratio_of_medians"],
                                    "target": r["target"], "met": r["met"]}
    ipfix = os.path.join(args.out, "ipfix.json")
    if os.path.exists(ipfix):
        try:
            doc["ipfix"] = json.load(open(ipfix))
        except ValueError as e:
            doc["ipfix"] = {"error": "ipfix.json: %s" % e}
    doc["conditions"] = {
        "reps": args.reps, "secs_per_run": args.secs,
        "quick": bool(args.quick), "warmup_s_dropped": WARMUP_S,
        "cpus": os.cpu_count(), "eal_memory": args.mem,
        "wall_s": args.wall, "order": "interleaved: " + " ".join(progs),
        "loadavg": open("/proc/loadavg").read().split()[:3],
        "cpu": next((line.split(":", 1)[1].strip()
                     for line in open("/proc/cpuinfo")
                     if line.startswith("model name")), "?"),
    }
    return doc


# The forwarding ratios told apart by distance: (name, numerator, denominator).
BAND_RATIOS = (("direct_lazy_vs_l2fwd", "tp_direct_lazy", "l2fwd"),
               ("direct_every_vs_l2fwd", "tp_direct_every", "l2fwd"))


def bands(args, progs, runs):
    """The forwarding rates by distance between the CPUs: None where no
    run was sampled, "split" None where the samples do not form two
    groups."""
    hops, starts = {}, {}
    for p in progs:
        for r in range(1, args.reps + 1):
            base = os.path.join(args.logs, "%s.%d" % (p, r))
            if not (os.path.exists(base + ".hop") and
                    os.path.exists(base + ".start")):
                continue
            try:
                starts[(p, r)] = int(open(base + ".start").read().split()[0])
            except (ValueError, IndexError):
                continue
            hops[(p, r)] = bench_bands.load(base + ".hop")
    if not hops:
        return None
    sp = bench_bands.split([ns for h in hops.values() for _, ns in h])
    out = {"split": sp, "programs": {}, "ratios": {}}
    if sp is None:
        return out
    for p in progs:
        got = {"near": [], "far": [], "mixed": 0}
        for r in range(1, args.reps + 1):
            if (p, r) not in hops:
                continue
            b = bench_bands.band_rates(runs[p][r - 1].get("fwd_per_s", []),
                                       hops[(p, r)], starts[(p, r)],
                                       sp["threshold_ns"])
            for k in ("near", "far"):
                got[k] += [x / 1e6 for x in b[k]]
            got["mixed"] += b["mixed"]
        if got["near"] or got["far"] or got["mixed"]:
            out["programs"][p] = {}
            for k in ("near", "far"):
                sm = summary(got[k])
                out["programs"][p][k] = {
                    "median": sm["median"], "min": sm["min"],
                    "max": sm["max"], "seconds": len(got[k]),
                    "rates": [round(x, 4) for x in got[k]]}
            out["programs"][p]["mixed_seconds"] = got["mixed"]
    for name, a, b in BAND_RATIOS:
        pa, pb = out["programs"].get(a), out["programs"].get(b)
        if not pa or not pb:
            continue
        out["ratios"][name] = {
            k: (pa[k]["median"] / pb[k]["median"]
                if pa[k]["median"] and pb[k]["median"] and
                pa[k]["seconds"] >= 3 and pb[k]["seconds"] >= 3 else None)
            for k in ("near", "far")}
    return out


def table(doc):
    lines = []
    c = doc["conditions"]
    lines.append("Pipeline benchmark: %d interleaved repetitions of %d s "
                 "(first %d s of each dropped), %s" %
                 (c["reps"], c["secs_per_run"], c["warmup_s_dropped"],
                  "quick" if c["quick"] else "full"))
    lines.append("")
    lines.append("%-38s %8s %8s %8s" % ("forwarded Mpps", "median", "min",
                                        "max"))
    for p, s in doc["forwarding_Mpps"].items():
        lines.append("%-38s %8s %8s %8s" % (LABELS.get(p, p), fmt(s["median"]),
                                           fmt(s["min"]), fmt(s["max"])))
    lines.append("")
    lines.append("%-38s %8s %8s %8s %7s %5s" % (
        "ratio", "medians", "pairmin", "pairmax", "target", "met"))
    for name, r in doc["ratios"].items():
        if not r:
            lines.append("%-38s %8s" % (name, "-"))
            continue
        lines.append("%-38s %8s %8s %8s %7s %5s" % (
            name, fmt(r["ratio_of_medians"]), fmt(r["pair_min"]),
            fmt(r["pair_max"]), fmt(r.get("target")), fmt(r.get("met"))))
    bd = doc.get("bands")
    if bd and bd.get("split"):
        sp = bd["split"]
        lines.append("")
        lines.append("by distance between the CPUs (tools/cpu_hop: near "
                     "%s ns, far %s ns, %s samples, %s far)" % (
                         fmt(sp["near_ns"], 4), fmt(sp["far_ns"], 4),
                         sp["readings"], fmt(sp["far_share"])))
        lines.append("%-38s %14s %14s %6s" % (
            "forwarded Mpps, median (seconds)", "near", "far", "mixed"))
        for p, v in bd["programs"].items():
            lines.append("%-38s %14s %14s %6s" % (
                LABELS.get(p, p),
                "%s (%d)" % (fmt(v["near"]["median"]), v["near"]["seconds"]),
                "%s (%d)" % (fmt(v["far"]["median"]), v["far"]["seconds"]),
                v["mixed_seconds"]))
        for name, r in bd["ratios"].items():
            lines.append("%-38s %14s %14s" % (name, fmt(r["near"]),
                                                fmt(r["far"])))
    elif bd:
        lines.append("")
        lines.append("by distance between the CPUs: the samples form one "
                     "group (nothing told apart)")
    for p, ch in doc["churn"].items():
        lines.append("")
        lines.append("%s (10 ms idle timeout, tick %s us), median [min, max]"
                     % (LABELS.get(p, p), ch["tick_us"]))
        for k in ("flows_created_per_s", "flows_ended_per_s",
                  "lateness_p50_le_us", "lateness_p99_le_us",
                  "lateness_max_us"):
            s = ch[k]
            lines.append("  %-36s %10s [%s, %s]" % (
                k, fmt(s["median"], 4), fmt(s["min"], 4), fmt(s["max"], 4)))
        lines.append("  %-36s %10s" % ("exactly once (every rep)",
                                        fmt(ch["exactly_once_all_reps"])))
    for size, per in doc["aging"].items():
        lines.append("")
        lines.append("aging %s flows read once, 2 s timeout: median [min, max]"
                     % size)
        for a, s in per.items():
            t, m = s["last_pkt_to_last_record_s"], s["peak_rss_MB"]
            lines.append("  %-7s last packet -> last record %6s s [%s, %s]"
                         "  peak RSS %6s MB  exactly once %s%s" % (
                             a, fmt(t["median"], 4), fmt(t["min"], 4),
                             fmt(t["max"], 4), fmt(m["median"], 4),
                             fmt(s["exactly_once_all_reps"]),
                             "  NOT FINISHED within the cap in %d rep(s)"
                             % s["not_finished_reps"]
                             if s["not_finished_reps"] else ""))
    if "ipfix" in doc:
        lines.append("")
        lines.append("IPFIX export (scripts/bench_ipfix.sh, %s flows): ratio "
                     "of medians [per-rep min, max]" %
                     doc["ipfix"].get("flows", "?"))
        c = doc["ipfix"].get("conditions")
        if c:
            lines.append("  (its own run: %s, commit %s)" % (c.get("date"),
                                                           c.get("commit")))
        for name, r in sorted(doc["ipfix"].get("ratios", {}).items()):
            lines.append("  %-56s %8s [%s, %s]" % (
                name, fmt(r.get("of_medians")), fmt(r.get("per_rep_min")),
                fmt(r.get("per_rep_max"))))
        t = doc["ipfix"].get("targets", {})
        if t and all(isinstance(v, dict) for v in t.values()):
            lines.append("  IPFIX targets: " + ", ".join(
                "%s %s (%s)" % (k, "met" if v.get("met") else "MISSED",
                                fmt(v.get("measured")))
                for k, v in t.items()))
    lines.append("")
    lines.append("targets: " + ", ".join(
        "%s %s" % (k, "met" if v.get("met") else "MISSED")
        for k, v in doc["targets"].items()))
    return "\n".join(lines)


def rst_table(doc):
    """A list-table of the forwarding figures and ratios for docs/."""
    out = [".. list-table:: Forwarding (Mpps), median [min, max] over %d "
           "interleaved repetitions" % doc["conditions"]["reps"],
           "   :header-rows: 1", "",
           "   * - program", "     - median", "     - min", "     - max"]
    for p, s in doc["forwarding_Mpps"].items():
        out += ["   * - %s" % LABELS.get(p, p), "     - %s" % fmt(s["median"]),
                "     - %s" % fmt(s["min"]), "     - %s" % fmt(s["max"])]
    out += ["", ".. list-table:: Ratios (of medians; per-pair min, max)",
            "   :header-rows: 1", "", "   * - ratio", "     - medians",
            "     - pair min", "     - pair max", "     - target"]
    for name, r in doc["ratios"].items():
        if r:
            out += ["   * - %s" % name,
                    "     - %s" % fmt(r["ratio_of_medians"]),
                    "     - %s" % fmt(r["pair_min"]),
                    "     - %s" % fmt(r["pair_max"]),
                    "     - %s" % fmt(r.get("target"))]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--logs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, required=True)
    ap.add_argument("--secs", type=int, required=True)
    ap.add_argument("--quick", type=int, default=0)
    ap.add_argument("--progs", required=True)
    ap.add_argument("--aging", default="")
    ap.add_argument("--wall", type=int, default=0)
    ap.add_argument("--mem", default="")
    args = ap.parse_args()
    doc = build(args)
    with open(os.path.join(args.out, "pipeline.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(args.out, "pipeline_table.rst"), "w") as f:
        f.write(rst_table(doc))
    text = table(doc)
    with open(os.path.join(args.out, "pipeline.txt"), "w") as f:
        f.write(text + "\n")
    print(text)
    print("\nwrote %s" % os.path.join(args.out, "pipeline.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
