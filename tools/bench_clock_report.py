#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""scripts/bench_clock.sh's report (Python 3 stdlib).

  bench_clock_report.py score MODEL.json FLOWLOG.json SF_RAW.txt NP_RAW.txt
                        OUT.json
  bench_clock_report.py summary TIMES.tsv OUT.json CASE=SCORE.json...
                        [CASE.KEY=VALUE...] [KEY=VALUE...]

score: the records of one capture against the generator's model.
MODEL.json is gen_pcap.py's --expect file (its "paced" records: idle gaps
longer than the timeout split a conversation), FLOWLOG.json the pipeline's
--flow-log (JSON lines), SF_RAW.txt `nfdump -o raw` of softflowd -r's
export (biflows), NP_RAW.txt `nfdump -o raw` of nfpcapd -r's files
(one-way flows). A record matches the model when its biflow key (5-tuple
and VLAN) and packets per direction equal one of the model's records
(each model record is matched once), so a conversation the model splits
at an idle gap matches only if its records are split there too. For
nfpcapd a model record matches when each of its directions with packets
is one of nfpcapd's one-way records, with that key and packet count.
"with times" also needs the first and last packet times (ms; for nfpcapd
the earliest first and latest last of the two directions): not for
softflowd, since softflowd 1.1.0 exports times relative to its uptime,
which nfdump turns into dates from the export time (docs/ipfix.rst,
"Differences from softflowd"). Bytes and end reasons are left out: the
tools count bytes differently (softflowd IP bytes, the pipeline Ethernet
frames) and their end reasons differ. Prints a table and the kinds of
differences per tool (per conversation; for nfpcapd over its one-way
records); writes OUT.json.

summary: TIMES.tsv has a line per run (case, repetition, tool, wall ms,
exit status, records). Per case and tool: the median wall time and its
spread (min-max); the ratio pipeline / fastest other (the tool of the
others with the lowest median; per repetition the pipeline's time over
that tool's in the same repetition: median and min-max), and the case's
target: "long" is met when the median ratio is at most 0.5, "synscan"
when it is below 1, each only when the pipeline's records are exactly the
model's (times included) and every run exited 0. CASE=SCORE.json gives a
case's score (the score step's OUT.json); CASE.KEY=VALUE and KEY=VALUE add
fields to a case and to the document (numbers when they parse as such).
fresh_pages=PAGES.json adds tools/bench_pages.py's probe, and
output_bytes=BYTES.tsv (case, repetition, tool, bytes of the files the
run wrote) each tool's median output and what fresh pages add to
writing it (ms).
hops=DIR adds, per case, the runs by how far apart the two CPUs were
(DIR/CASE.TOOL.REP.hop: tools/cpu_hop's samples during the run, .span:
its timed part, unix ms; TOOL tp, sf or np; tools/bench_bands.py): each
tool's median time over the runs whose samples were all near, and over
those all far, and the pipeline's median over the fastest other's at
each distance ("by_distance"; the split of every sample: "cpu_distance").
OUT.json keeps the earlier layout for the "long" case at the top level
(flows, model_records, tools with time_ms = the median,
time_ratio_sf_over_tp) and has every case under "cases".
"""

import collections
import glob
import ipaddress
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_bands  # noqa: E402
import bench_pages  # noqa: E402

TP = "pipeline --clock capture"
SF = "softflowd -r"
NP = "nfpcapd -r"
TOOLS = (TP, SF, NP)
# The targets of issue 31 (target 1): the pipeline's time over the fastest
# other tool's, at most (<=) or below (<) this.
TARGETS = {
    "long": ("<=", 0.5, "at most half the time of the faster of "
             "softflowd -r and nfpcapd -r"),
    "synscan": ("<", 1.0, "faster than the faster of softflowd -r and "
                "nfpcapd -r"),
}


def canon(ver, proto, src, sport, dst, dport, vlan, pf, pr, first, last):
    """Order a biflow's ends by (address, port), directions with them."""
    a = (ipaddress.ip_address(src), sport)
    b = (ipaddress.ip_address(dst), dport)
    if b < a:
        a, b, pf, pr = b, a, pr, pf
    key = (ver, proto, str(a[0]), a[1], str(b[0]), b[1], vlan)
    return key, (pf, pr, first, last)


def from_log(r):
    icmp = r["proto"] in (1, 58)
    return canon(r["ip_version"], r["proto"], r["src"],
                 0 if icmp else r["sport"], r["dst"],
                 0 if icmp else r["dport"], r["vlan"],
                 r["packets_fwd"], r["packets_rev"],
                 r["first_ns"] // 1000000, r["last_ns"] // 1000000)


def num(v, base=10):
    """The number that starts an nfdump raw value ("17 (udp)" -> 17)."""
    return int(v.split()[0], base)


def iter_raw(path):
    """`nfdump -o raw` output, one dict per 'Flow Record' at a time (its
    'key = value' lines stripped): a million records stay out of memory."""
    cur = None
    with open(path) as f:
        for line in f:
            if line.startswith("Flow Record"):
                if cur is not None:
                    yield cur
                cur = {}
            elif cur is not None and "=" in line:
                k, v = line.split("=", 1)
                cur[k.strip()] = v.strip()
    if cur is not None:
        yield cur


def from_raw(r):
    src = ipaddress.ip_address(r["src addr"])
    proto = num(r["proto"])
    icmp = proto in (1, 58)
    return canon(src.version, proto, str(src),
                 0 if icmp else num(r.get("src port", "0")),
                 str(ipaddress.ip_address(r["dst addr"])),
                 0 if icmp else num(r.get("dst port", "0")),
                 max(num(r.get("src vlan", "0")), num(r.get("dst vlan", "0"))),
                 num(r["in packets"]), num(r.get("out packets", "0")),
                 num(r["first"]), num(r["last"]))


def from_raw_oneway(r):
    """A one-way record as (key, (direction, packets, first, last)):
    direction 0 from the key's first end to its second, 1 back."""
    key, (pf, pr, first, last) = from_raw(r)
    return key, (0, pf, first, last) if pf else (1, pr, first, last)


def read_model(path):
    """The "paced" records of a gen_pcap.py --expect file, as from_log()
    tuples, and its top-level numbers. The file is json.dump(indent=1,
    sort_keys=True)'s layout (gen_pcap.py writes it so, streaming): read
    a record at a time, not the whole document (1M flows: ~1 GB of JSON);
    any other layout is read whole."""
    top, paced = {}, []
    with open(path) as f:
        if f.readline().rstrip("\n") != "{":
            f.seek(0)
            doc = json.load(f)
            return [from_log(r) for r in doc["paced"]], doc
        state, buf = None, []
        for line in f:
            if state == "paced":
                if line.startswith(" ]"):
                    state = None
                    continue
                buf.append(line)
                if line.startswith("  }"):
                    paced.append(from_log(json.loads(
                        "".join(buf).rstrip().rstrip(","))))
                    buf = []
            elif state is not None:     # a list or object: skip, or keep
                if state == "summary":
                    buf.append(line)
                if line.startswith(" ]") or line.startswith(" }"):
                    if state == "summary":
                        top["summary"] = json.loads(
                            "{" + "".join(buf).rstrip().rstrip(","))
                    state, buf = None, []
            elif line.startswith(' "'):
                k, _, v = line.strip().partition(": ")
                k, v = json.loads(k), v.rstrip(",")
                if v == "[":
                    state = "paced" if k == "paced" else "skip"
                elif v == "{":
                    state = "summary" if k == "summary" else "skip"
                else:
                    top[k] = json.loads(v)
    want = top.get("summary", {}).get("paced", {}).get("records")
    if want is not None and want != len(paced):
        sys.exit("%s: %d paced records read, its summary says %d" %
                 (path, len(paced), want))
    return paced, top


def kind(na, nb, same):
    if same:
        return None
    if nb == 0:
        return "conversation missing"
    if na == 0:
        return "conversation not in the model"
    if nb < na:
        return "fewer records (idle splits missed)"
    if nb > na:
        return "more records"
    return "same records, other packets or times"


def score(model, got, times):
    """Matched records and the kinds of differences, per conversation."""
    m, g = collections.defaultdict(list), collections.defaultdict(list)
    for k, v in model:
        m[k].append(v if times else v[:2])
    for k, v in got:
        g[k].append(v if times else v[:2])
    matched = 0
    kinds = collections.Counter()
    for k in set(m) | set(g):
        a, b = collections.Counter(m.get(k, [])), collections.Counter(
            g.get(k, []))
        matched += sum((a & b).values())
        d = kind(sum(a.values()), sum(b.values()), a == b)
        if d:
            kinds[d] += 1
    return matched, kinds


def score_oneway(model, got):
    """Model biflow records against one-way records: (matched, matched
    with times, kinds). A model record matches when each direction with
    packets is an unused one-way record of that key, direction and
    packet count (one inside the record's first-last window first); with
    times when both lie in that window and span it exactly. Kinds compare
    the model's directions (direction, packets) with the records."""
    m, g = collections.defaultdict(list), collections.defaultdict(list)
    for k, v in model:
        m[k].append(v)
    for k, v in got:
        g[k].append(v)
    matched = timed = 0
    kinds = collections.Counter()
    for k in set(m) | set(g):
        recs, pool = sorted(m.get(k, []), key=lambda v: v[2]), g.get(k, [])
        used = [False] * len(pool)
        halves = []
        for pf, pr, first, last in recs:
            need = [(d, p) for d, p in ((0, pf), (1, pr)) if p]
            halves += need
            pick, inside = [], True
            for d, p in need:
                cands = [i for i, h in enumerate(pool) if not used[i] and
                         h[0] == d and h[1] == p and i not in pick]
                win = [i for i in cands
                       if pool[i][2] >= first and pool[i][3] <= last]
                if not cands:
                    break
                pick.append((win or cands)[0])
                inside = inside and bool(win)
            if len(pick) < len(need):
                continue
            for i in pick:
                used[i] = True
            matched += 1
            if inside and min(pool[i][2] for i in pick) == first and \
                    max(pool[i][3] for i in pick) == last:
                timed += 1
        a = collections.Counter(halves)
        b = collections.Counter(h[:2] for h in pool)
        d = kind(sum(a.values()), sum(b.values()), a == b)
        if d:
            kinds[d] += 1
    return matched, timed, kinds


def cmd_score(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    model, top = read_model(argv[0])
    with open(argv[1]) as f:
        tp = [from_log(json.loads(line)) for line in f if line.strip()]
    sf = [from_raw(r) for r in iter_raw(argv[2])]
    np_ = [from_raw_oneway(r) for r in iter_raw(argv[3])]
    out = {"flows": top.get("flows"), "packets": top.get("packets"),
           "model_records": len(model), "tools": {}}
    print("%-24s %9s %9s %8s %11s" % ("", "records", "match", "match %",
                                      "with times"))
    print("%-24s %9d" % ("model (paced)", len(model)))
    for name, recs in ((TP, tp), (SF, sf), (NP, np_)):
        if name == NP:
            matched, timed, kinds = score_oneway(model, recs)
        else:
            matched, kinds = score(model, recs, False)
            timed = score(model, recs, True)[0] if name == TP else None
        out["tools"][name] = {"records": len(recs), "matched": matched,
                              "matched_with_times": timed,
                              "differences": dict(kinds)}
        if name == NP:
            out["tools"][name]["records_are"] = "one-way"
        print("%-24s %9d %9d %7.1f%% %11s%s" % (
            name, len(recs), matched, 100.0 * matched / max(len(model), 1),
            "-" if timed is None else str(timed),
            "  (one-way records)" if name == NP else ""))
        for k, n in sorted(kinds.items()):
            print("    %-40s %8d conversations" % (k, n))
    with open(argv[4], "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return 0


def value(v):
    for t in (int, float):
        try:
            return t(v)
        except ValueError:
            pass
    return v


def spread(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs)}


def case_summary(name, score_doc, runs):
    """One case: the score's fields with each tool's times, the ratio to
    the fastest other tool and the target."""
    c = dict(score_doc)
    tools = c["tools"] = {t: dict(score_doc["tools"].get(t, {}))
                          for t in TOOLS}
    reps = sorted({r for r, _, _, _, _ in runs})
    for t in TOOLS:
        mine = {r: (ms, st, n) for r, tool, ms, st, n in runs if tool == t}
        ms = [mine[r][0] for r in reps if r in mine]
        d = tools[t]
        d["time_ms"] = statistics.median(ms) if ms else None
        d["time_ms_min"] = min(ms) if ms else None
        d["time_ms_max"] = max(ms) if ms else None
        d["time_ms_reps"] = ms
        d["exit_status_reps"] = [mine[r][1] for r in reps if r in mine]
        d["records_reps"] = [mine[r][2] for r in reps if r in mine]
    others = [t for t in (SF, NP) if tools[t]["time_ms"] is not None]
    fast = min(others, key=lambda t: tools[t]["time_ms"]) if others else None
    ratios = []
    for i in range(len(tools[TP]["time_ms_reps"])):
        if fast and i < len(tools[fast]["time_ms_reps"]):
            ratios.append(tools[TP]["time_ms_reps"][i] /
                          max(tools[fast]["time_ms_reps"][i], 1))
    c["fastest_other"] = fast
    c["ratio_tp_over_fastest_other"] = spread(ratios) if ratios else None
    tp = tools[TP]
    exact = (tp.get("records") == tp.get("matched_with_times") ==
             c.get("model_records"))
    ok = all(st == 0 for t in TOOLS for st in tools[t]["exit_status_reps"])
    if name in TARGETS and ratios:
        op, limit, text = TARGETS[name]
        r = c["ratio_tp_over_fastest_other"]["median"]
        c["target"] = {"text": "pipeline " + text, "ratio_" + {
            "<=": "at_most", "<": "below"}[op]: limit,
            "pipeline_records_exact": exact, "every_run_exit_0": ok,
            "met": bool(exact and ok and (r <= limit if op == "<=" else
                                          r < limit))}
    return c


ABBR = {"tp": TP, "sf": SF, "np": NP}


def run_distances(hop_dir):
    """The split of every sample under hop_dir and {(case, tool, rep):
    "near", "far" or None} for each run with samples and a span."""
    hops, spans = {}, {}
    for path in glob.glob(os.path.join(hop_dir, "*.hop")):
        c, a, r = os.path.basename(path)[:-4].rsplit(".", 2)
        if a not in ABBR or not r.isdigit():
            continue
        try:
            with open(path[:-4] + ".span") as f:
                t0, t1 = (int(x) for x in f.read().split()[:2])
        except (OSError, ValueError):
            continue
        key = (c, ABBR[a], int(r))
        hops[key], spans[key] = bench_bands.load(path), (t0, t1)
    sp = bench_bands.split([ns for h in hops.values() for _, ns in h])
    if sp is None:
        return None, {}
    return sp, {k: bench_bands.label_window(h, spans[k][0], spans[k][1],
                                            sp["threshold_ns"])
                for k, h in hops.items()}


def by_distance(doc, runs, labels):
    """A case's times by distance: per tool, the median of its runs made
    near and of those made far (and how many), and the pipeline's over
    the fastest other tool's (the case's, by all its runs) at each."""
    fast = doc.get("fastest_other")
    out = {}
    for band in ("near", "far"):
        per = {}
        for t in TOOLS:
            ms = [m for r, tool, m, _, _ in runs
                  if tool == t and labels.get((t, r)) == band]
            per[t] = {"time_ms": statistics.median(ms) if ms else None,
                      "runs": len(ms)}
        tp, ot = per[TP]["time_ms"], per[fast]["time_ms"] if fast else None
        out[band] = {"tools": per,
                     "ratio_tp_over_fastest_other":
                     tp / max(ot, 1) if tp and ot else None}
    out["runs_mixed"] = sum(1 for r, t, _, _, _ in runs
                            if (t, r) in labels and labels[(t, r)] is None)
    return out


def cmd_summary(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    runs = collections.defaultdict(list)
    with open(argv[0]) as f:
        for line in f:
            if line.strip():
                c, r, tool, ms, st, n = line.rstrip("\n").split("\t")
                runs[c].append((int(r), tool, int(ms), int(st), int(n)))
    out_path = argv[1]
    scores, extra, top = {}, collections.defaultdict(dict), {}
    pages, nbytes = None, collections.defaultdict(list)
    split, labels = None, {}
    for a in argv[2:]:
        k, _, v = a.partition("=")
        if k == "hops":
            split, labels = run_distances(v)
        elif k == "fresh_pages":
            try:
                with open(v) as f:
                    pages = json.load(f)
            except (OSError, ValueError):
                pages = None
        elif k == "output_bytes":
            with open(v) as f:
                for line in f:
                    if line.strip():
                        c, _, tool, n = line.rstrip("\n").split("\t")
                        nbytes[(c, tool)].append(int(n))
        elif "." in k:
            c, _, f = k.partition(".")
            extra[c][f] = value(v)
        elif k in runs:
            with open(v) as f:
                scores[k] = json.load(f)
        else:
            top[k] = value(v)
    cases = {}
    for c in runs:
        doc = case_summary(c, scores.get(c, {"tools": {}}), runs[c])
        doc.update(extra.get(c, {}))
        if split is not None:
            doc["by_distance"] = by_distance(
                doc, runs[c], {(t, r): lab for (cc, t, r), lab in
                               labels.items() if cc == c})
        for t, d in doc["tools"].items():
            if nbytes.get((c, t)):
                d["output_bytes"] = statistics.median(nbytes[(c, t)])
                d["fresh_pages_extra_ms"] = bench_pages.extra_ms(
                    pages, d["output_bytes"])
        cases[c] = doc
    out = {}
    if "long" in cases:     # the earlier layout, for readers of clock.json
        lc = cases["long"]
        out = {"flows": lc.get("flows"), "model_records": lc.get(
            "model_records"), "tools": lc["tools"]}
        sf, tp = lc["tools"][SF]["time_ms"], lc["tools"][TP]["time_ms"]
        if sf is not None and tp is not None:
            out["time_ratio_sf_over_tp"] = sf / max(tp, 1)
    out.update(top)
    if split is not None:
        out["cpu_distance"] = split
    if pages is not None:
        out["fresh_pages"] = pages
    out["cases"] = cases
    print()
    print("%-8s %-24s %9s %15s %9s %8s %10s" % (
        "case", "tool", "median s", "min-max s", "records", "match %",
        "with times"))
    for c, doc in cases.items():
        for t in TOOLS:
            d = doc["tools"][t]
            if d["time_ms"] is None:
                continue
            recs = d.get("records")
            mr = doc.get("model_records")
            pct = ("%7.1f%%" % (100.0 * d["matched"] / max(mr, 1))
                   if d.get("matched") is not None and mr else "-")
            timed = d.get("matched_with_times")
            bad = [st for st in d["exit_status_reps"] if st]
            print("%-8s %-24s %9.2f %15s %9s %8s %10s%s" % (
                c, t, d["time_ms"] / 1000.0, "%.2f-%.2f" % (
                    d["time_ms_min"] / 1000.0, d["time_ms_max"] / 1000.0),
                "-" if recs is None else recs, pct,
                "-" if timed is None else timed,
                "  exit %s" % bad if bad else ""))
        if doc.get("model_records") is not None:
            print("%-8s %-24s %9s %15s %9d" % (c, "model (paced)", "", "",
                                               doc["model_records"]))
        r = doc.get("ratio_tp_over_fastest_other")
        if r:
            tg = doc.get("target", {})
            op = "<=" if "ratio_at_most" in tg else "<"
            limit = tg.get("ratio_at_most", tg.get("ratio_below"))
            print("%-8s pipeline / %s (fastest other): %.2f (%.2f-%.2f)%s"
                  % (c, doc["fastest_other"], r["median"], r["min"],
                     r["max"], "; target %s %.2f%s: %s" % (
                         op, limit, "" if tg["pipeline_records_exact"]
                         else " (pipeline records not exactly the model's)",
                         "met" if tg["met"] else "missed")
                     if tg else ""))
        bd = doc.get("by_distance")
        for band in ("near", "far") if bd else ():
            b = bd[band]
            print("%-8s  CPUs %-4s: %s; ratio %s" % (
                c, band, ", ".join(
                    "%s %s (%d)" % (t.split()[0], "-" if
                                    b["tools"][t]["time_ms"] is None else
                                    "%.2f s" % (b["tools"][t]["time_ms"] /
                                                1000.0),
                                    b["tools"][t]["runs"]) for t in TOOLS),
                "-" if b["ratio_tp_over_fastest_other"] is None else
                "%.2f" % b["ratio_tp_over_fastest_other"]))
    print("(%s's records are one-way: a conversation's two directions are "
          "two records)" % NP)
    if split is not None:
        print("CPU distance (tools/cpu_hop): near %s ns, far %s ns, %d "
              "samples, %.0f %% far; runs at one distance above, the number "
              "of runs in brackets" % (split["near_ns"], split["far_ns"],
                                      split["readings"],
                                      100 * split["far_share"]))
    elif labels == {} and any(a.startswith("hops=") for a in argv[2:]):
        print("CPU distance (tools/cpu_hop): no two groups of samples "
              "(one group, or none)")
    if pages is not None:
        print(bench_pages.line(pages))
        for c, doc in cases.items():
            for t in TOOLS:
                d = doc["tools"][t]
                if d.get("output_bytes") is None:
                    continue
                x = d.get("fresh_pages_extra_ms")
                print("  %-8s %-24s writes %6.0f MB%s" % (
                    c, t, d["output_bytes"] / 2**20,
                    "" if x is None else
                    ": up to %.0f ms more on fresh pages" % max(x, 0)))
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "score":
        return cmd_score(argv[2:])
    if len(argv) >= 2 and argv[1] == "summary":
        return cmd_summary(argv[2:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
