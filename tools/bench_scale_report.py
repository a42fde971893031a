#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""scripts/bench_scale.sh's measurement and analysis (stdlib only).

  bench_scale_report.py sample TIMEOUT_PID OUT.json
      Poll the pipeline (the child of timeout TIMEOUT_PID) every 20 ms
      until it exits: OUT gets the peak of VmHWM + HugetlbPages (kB, from
      one /proc/PID/status read; VmHWM is the kernel's peak of VmRSS, which
      samples could miss, and DPDK never gives 2-MB pages back during a
      run, so their peak is their last value), the peak of each, and the
      last VmHWM seen.
  bench_scale_report.py report LOGS OUT.json
      Read LOGS/mem_<size>.<rep>.{log,json,mem.json} and
      LOGS/churn_<capture>_<sink>.<rep>.{log,json,steal}; write OUT.json
      (with the figures, medians, min and max over the repetitions, and
      the targets met or missed) and print a table.

Memory per flow at N flows = (peak(VmRSS + HugetlbPages) of the run -
the same for the run with 1,000 flows) / N, per repetition, then the
median. New flows/s: the median per-second rate of flows created over
the -T 1 screens, warm-up dropped (bench_pipeline_report.steady), and the
whole run's flows / (stop request - first screen) as a second figure.
Host steal: the time the host took from the VM's CPUs during the run
(/proc/stat's steal, all CPUs, ms), which bench_scale.sh writes beside
each run: every expiry due while both vCPUs are descheduled comes late
by as much, whatever the pipeline does.

Fresh pages: a flow log on tmpfs takes a page every 4 KB it writes, and
on a VM that gives freed memory back to its host a page it has not used
lately costs the host's fault too (tools/bench_pages.py, whose probe
bench_scale.sh runs into LOGS/pages.json). OUT.json's "fresh_pages" is
the probe, and each flow-log case has its bytes per record (the log's
size over the records written, LOGS/churn_*.<rep>.logbytes): the report
puts what fresh pages add in ns per record.

Stage cycles (bench_scale.sh --stages): the churn runs of the
-Dstage_cycles=true build (churn_<capture>_<sink>_stages) carry the
summary's "stage_cycles"; per stage the median over the repetitions of
its ns per new flow and the lcores that pay it; per lcore the sum of its
stages' ns per new flow and its cap, 1e9 / that sum new flows/s; the
lowest cap is the bound, set against the 1.5 M/s target and the rates
measured (the instrumented run's and the plain build's).
"""

import json
import os
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_pages  # noqa: E402
import bench_pipeline_report as bpr  # noqa: E402
import soak_sample  # noqa: E402
import tplib  # noqa: E402

SIZES = {"1k": 1000, "100k": 100000, "1m": 1000000, "4m": 4000000,
         "10m": 10000000}
TARGET_B_PER_FLOW = 256          # at 10M flows
TARGET_CHURN_PER_S = 1.5e6
TARGET_P99_US = 4096             # lateness p99 bucket at a 1-ms tick


def status_kb(pid):
    """{field: kB} of /proc/PID/status's Vm* and HugetlbPages lines."""
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(("Vm", "HugetlbPages")):
                k, v = line.split(":", 1)
                out[k] = int(v.split()[0])
    return out


def cmd_sample(argv):
    tpid, out = int(argv[0]), argv[1]
    pid = None
    deadline = time.time() + 60
    while pid is None and time.time() < deadline and \
            soak_sample.alive(tpid):
        pid = soak_sample.app_pid(tpid)
        time.sleep(0.005)
    res = {"pid": pid, "peak_rss_huge_kb": 0, "peak_rss_kb": 0,
           "peak_huge_kb": 0, "hwm_kb": 0, "samples": 0}
    while pid is not None:
        try:
            s = status_kb(pid)
        except OSError:
            break
        rss, huge = s.get("VmRSS", 0), s.get("HugetlbPages", 0)
        # VmHWM: the true peak of RSS, which 20-ms samples can miss.
        rss = max(rss, s.get("VmHWM", 0))
        res["peak_rss_huge_kb"] = max(res["peak_rss_huge_kb"], rss + huge)
        res["peak_rss_kb"] = max(res["peak_rss_kb"], rss)
        res["peak_huge_kb"] = max(res["peak_huge_kb"], huge)
        res["hwm_kb"] = max(res["hwm_kb"], s.get("VmHWM", 0))
        res["samples"] += 1
        time.sleep(0.02)
    with open(out, "w") as f:
        json.dump(res, f)
    return 0


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def reps_of(logs, prefix):
    """{rep: base path} of LOGS/prefix.<rep>.log."""
    out = {}
    for name in os.listdir(logs):
        m = re.fullmatch(re.escape(prefix) + r"\.(\d+)\.log", name)
        if m:
            out[int(m.group(1))] = os.path.join(logs, name[:-4])
    return dict(sorted(out.items()))


def counters(base):
    doc = load(base + ".json")
    if doc is None:
        return None, None
    return doc, doc.get("counters", {})


def passed(doc):
    """The run's exactly-once check passed (its --summary-json)."""
    return bool(doc) and bool(doc.get("check", {}).get("passed"))


def setup_lines(text):
    """What the pipeline sized at start-up, from its INFO lines."""
    out = {}
    pats = {
        "flow_slots": r"flow table: \d+ flows, (\d+) slots",
        "flow_slot_bytes": r"flow table: \d+ flows, \d+ slots of (\d+) bytes",
        "adapter_timers": r"adapter: tick \d+ ns, (\d+) timers",
        "mbufs": r"mbuf pool: (\d+) mbufs",
        "events": r"(\d+) events, RX ports stop",
    }
    for k, p in pats.items():
        m = re.search(p, text)
        out[k] = int(m.group(1)) if m else None
    return out


def memory(logs):
    runs = {}
    for size in SIZES:
        for rep, base in reps_of(logs, "mem_" + size).items():
            mem = load(base + ".mem.json") or {}
            doc, c = counters(base)
            text = open(base + ".log", errors="replace").read()
            runs.setdefault(size, {})[rep] = {
                "peak_rss_huge_kb": mem.get("peak_rss_huge_kb"),
                "peak_rss_kb": mem.get("peak_rss_kb"),
                "peak_huge_kb": mem.get("peak_huge_kb"),
                "samples": mem.get("samples"),
                "exactly_once": passed(doc),
                "flows": c.get("flows_created") if c else None,
                "records": c.get("records_written") if c else None,
                "lack_of_resources": c.get("ended_lack_of_resources")
                if c else None,
                "setup": setup_lines(text),
                "finished": bpr.parse_aging(text)["finished"],
                "last_pkt_to_last_record_s":
                    bpr.parse_aging(text)["last_pkt_to_last_record_s"],
            }
    base = runs.get("1k", {})
    out = {}
    for size, reps in runs.items():
        if size == "1k":
            continue
        n = SIZES[size]
        per = []
        for rep, r in reps.items():
            b = base.get(rep) or (next(iter(base.values())) if base
                                  else None)
            if b and r["peak_rss_huge_kb"] and b["peak_rss_huge_kb"]:
                per.append((r["peak_rss_huge_kb"] - b["peak_rss_huge_kb"])
                           * 1024 / n)
            else:
                per.append(None)
        out[size] = {
            "flows": n,
            "bytes_per_flow": bpr.summary(per),
            "peak_rss_huge_MB": bpr.summary(
                [r["peak_rss_huge_kb"] / 1024 if r["peak_rss_huge_kb"]
                 else None for r in reps.values()]),
            "exactly_once_all": all(r["exactly_once"] for r in
                                    reps.values()),
            "records_equal_flows_all": all(
                r["records"] == n and r["flows"] == n
                for r in reps.values()),
            "last_pkt_to_last_record_s": bpr.summary(
                [r["last_pkt_to_last_record_s"] for r in reps.values()]),
            "setup": next(iter(reps.values()))["setup"],
            "runs": reps,
        }
    if base:
        out["1k_baseline"] = {"peak_rss_huge_MB": bpr.summary(
            [r["peak_rss_huge_kb"] / 1024 if r["peak_rss_huge_kb"] else None
             for r in base.values()]), "runs": base}
    return out


def churn(logs):
    out = {}
    names = sorted({re.sub(r"\.\d+\.log$", "", n) for n in os.listdir(logs)
                    if n.startswith("churn_") and n.endswith(".log")})
    for name in names:
        reps = []
        for rep, base in reps_of(logs, name).items():
            text = open(base + ".log", errors="replace").read()
            tp = bpr.parse_tp(text)
            doc, c = counters(base)
            scr = bpr.tp_screens(text)
            whole = None
            t_stop = (doc or {}).get("times", {}).get("stop_request_ms")
            if c and t_stop:
                # the first screen comes 1 s after RX started; a run
                # over before it (a fast quick run) counts from the
                # launch, start-up included
                t0 = scr[0][0] - 1.0 if scr else 0.0
                whole = c["flows_created"] / max(t_stop / 1e3 - t0, 1e-3)
            ipfix = {k: v for k, v in (c or {}).items()
                     if k.startswith("ipfix")}
            try:
                steal = int(open(base + ".steal").read())
            except (OSError, ValueError):
                steal = None
            try:
                logbytes = int(open(base + ".logbytes").read())
            except (OSError, ValueError):
                logbytes = None
            written = c.get("records_written") if c else None
            reps.append({
                "rep": rep,
                "flows_created_per_s": tp["flows_created_per_s"],
                "flows_ended_per_s": tp["flows_ended_per_s"],
                "samples": tp["samples"],
                "whole_run_flows_per_s": whole,
                "lateness_p99_le_us": c.get("lateness_p99_us") if c else None,
                "lateness_p50_le_us": c.get("lateness_p50_us") if c else None,
                "tick_us": c.get("tick_us") if c else None,
                "exactly_once": passed(doc),
                "flows": c.get("flows_created") if c else None,
                "records_written": c.get("records_written") if c else None,
                "records_not_written": c.get("records_not_written")
                if c else None,
                "ipfix": ipfix,
                "host_steal_ms": steal,
                "log_bytes_per_record": logbytes / written
                if logbytes and written else None,
            })
        out[name[len("churn_"):]] = {
            "flows_created_per_s": bpr.summary(
                [r["flows_created_per_s"] for r in reps]),
            "whole_run_flows_per_s": bpr.summary(
                [r["whole_run_flows_per_s"] for r in reps]),
            "lateness_p99_le_us": bpr.summary(
                [r["lateness_p99_le_us"] for r in reps]),
            "host_steal_ms": bpr.summary(
                [r["host_steal_ms"] for r in reps]),
            "log_bytes_per_record": bpr.summary(
                [r["log_bytes_per_record"] for r in reps]),
            "exactly_once_all": all(r["exactly_once"] for r in reps),
            "runs": reps,
        }
    return out


def who(entry):
    """'lcore 0 (control+rx+worker)' or 'ipfix thread'."""
    if entry.get("lcore") is None:
        return "ipfix thread"
    return "lcore %d (%s)" % (entry["lcore"], "+".join(entry["roles"]))


def stages(logs, ch):
    """The stage breakdown of every *_stages churn case."""
    out = {}
    for name in ch:
        if not name.endswith("_stages"):
            continue
        docs = [d for d in (counters(b)[0] for b in
                            reps_of(logs, "churn_" + name).values())
                if d and d.get("stage_cycles")]
        if not docs:
            continue
        rows = {}
        for st in docs[0]["stage_cycles"]["stages"]:
            rs = [d["stage_cycles"]["stages"].get(st) for d in docs]
            rs = [r for r in rs if r]
            rows[st] = {
                "per_new_flow_ns": bpr.summary(
                    [r["per_new_flow_ns"] for r in rs]),
                "cycles_per_call": bpr.summary(
                    [r["cycles_per_call"] for r in rs]),
                "calls": rs[-1]["calls"],
                "paid_by": sorted({who(e) for r in rs for e in r["lcores"]}),
            }
        lcores = {}
        for d in docs:
            for e in d["stage_cycles"]["lcores"]:
                lcores.setdefault(who(e), []).append(e)
        per = {}
        for k, es in lcores.items():
            ns = bpr.summary([e["per_new_flow_ns"] for e in es])
            med = ns["median"]
            per[k] = {"per_new_flow_ns": ns,
                      "busy_share": bpr.summary(
                          [e["busy_share"] for e in es]),
                      "cap_new_flows_per_s": 1e9 / med if med else None}
        caps = [(v["cap_new_flows_per_s"], k) for k, v in per.items()
                if v["cap_new_flows_per_s"]]
        bound = min(caps) if caps else (None, None)
        plain = ch.get(name[:-len("_stages")], {})
        out[name[:-len("_stages")]] = {
            "stages": rows, "lcores": per,
            "bound_new_flows_per_s": bound[0], "bound_by": bound[1],
            "target_new_flows_per_s": TARGET_CHURN_PER_S,
            "bound_meets_target": bound[0] is not None and
            bound[0] >= TARGET_CHURN_PER_S,
            "measured_instrumented_per_s":
                ch[name]["flows_created_per_s"]["median"],
            "measured_plain_per_s":
                plain.get("flows_created_per_s", {}).get("median"),
            "service_cycles_busy_only":
                docs[0]["stage_cycles"].get("service_cycles_busy_only"),
        }
    return out


def stage_table(st):
    lines = []
    for name, s in st.items():
        lines.append("stage cycles, churn %s (-Dstage_cycles=true, median "
                     "of the repetitions):" % name)
        lines.append("  %-24s %12s %12s  %s" % ("stage", "ns/new flow",
                                               "cycles/call", "paid by"))
        for stg, r in s["stages"].items():
            if r["calls"] == 0:
                continue
            lines.append("  %-24s %12.1f %12.1f  %s" % (
                stg, r["per_new_flow_ns"]["median"],
                r["cycles_per_call"]["median"], ", ".join(r["paid_by"])))
        for k, v in s["lcores"].items():
            cap = v["cap_new_flows_per_s"]
            lines.append("  %s: sum %.1f ns/new flow -> cap 1e9 / %.1f = "
                         "%s new flows/s (busy %.0f %% of its wall time)" % (
                             k, v["per_new_flow_ns"]["median"],
                             v["per_new_flow_ns"]["median"],
                             "%.2f M" % (cap / 1e6) if cap else "-",
                             100 * v["busy_share"]["median"]))
        b = s["bound_new_flows_per_s"]
        mi, mp = s["measured_instrumented_per_s"], s["measured_plain_per_s"]
        lines.append("  bound: %s at %s new flows/s; target %.1f M/s %s; "
                     "measured %s (instrumented), %s (plain build)" % (
                         s["bound_by"], "%.2f M" % (b / 1e6) if b else "-",
                         s["target_new_flows_per_s"] / 1e6,
                         "met" if s["bound_meets_target"] else "MISSED",
                         "%.2f M/s" % (mi / 1e6) if mi else "-",
                         "%.2f M/s" % (mp / 1e6) if mp else "-"))
        if not s["service_cycles_busy_only"]:
            lines.append("  (DPDK before 23.03: the service rows are "
                         "DPDK's service cycles as it counts them)")
    return lines


def targets(mem, ch):
    t = {}
    m10 = mem.get("10m", {}).get("bytes_per_flow", {}).get("median")
    if m10 is not None:
        t["bytes_per_flow_10m_le_256"] = {
            "target": TARGET_B_PER_FLOW, "measured": round(m10, 1),
            "met": m10 <= TARGET_B_PER_FLOW}
    if "10m" in mem:
        t["aged_10m_exactly_once"] = {
            "met": mem["10m"]["exactly_once_all"] and
            mem["10m"]["records_equal_flows_all"]}
    for name, c in ch.items():
        if name.endswith("_stages"):
            continue    # instrumented: not the figure a target is met by
        r = c["flows_created_per_s"]["median"]
        p = c["lateness_p99_le_us"]["median"]
        if r is not None:
            t["churn_%s_ge_1.5M_per_s" % name] = {
                "target": TARGET_CHURN_PER_S, "measured": round(r),
                "met": r >= TARGET_CHURN_PER_S}
        if p is not None:
            t["churn_%s_p99_le_4096us" % name] = {
                "target": TARGET_P99_US, "measured": p,
                "met": p <= TARGET_P99_US}
    return t


def fmt(s, scale=1.0, digits=0):
    if not s or s.get("median") is None:
        return "-"
    f = "%%.%df" % digits
    return (f + " [" + f + ", " + f + "]") % (
        s["median"] * scale, s["min"] * scale, s["max"] * scale)


def pages_lines(doc):
    """The fresh-page probe, and what it adds to each flow log's record."""
    t = doc.get("fresh_pages")
    if not t:
        return []
    lines = [bench_pages.line(t)]
    for name, c in doc["churn"].items():
        b = c.get("log_bytes_per_record", {}).get("median")
        x = bench_pages.extra_ms(t, b)
        if x is not None:
            lines.append("  %-22s %.0f B/record: up to %.0f ns/record "
                         "more on fresh pages" % (name, b, max(x, 0) * 1e6))
    return lines


def table(doc):
    lines = ["memory per flow: (peak VmRSS+HugetlbPages - the 1,000-flow "
             "run's) / flows; median [min, max]"]
    for size, m in doc["memory"].items():
        if size == "1k_baseline":
            lines.append("  1k baseline  peak %s MB" %
                         fmt(m["peak_rss_huge_MB"]))
            continue
        lines.append("  %-4s %s B/flow  peak %s MB  exactly once %s  "
                     "records == flows %s" %
                     (size, fmt(m["bytes_per_flow"], digits=1),
                      fmt(m["peak_rss_huge_MB"]),
                      "yes" if m["exactly_once_all"] else "NO",
                      "yes" if m["records_equal_flows_all"] else "NO"))
    lines.append("churn (every packet a new flow), 1-ms tick: median "
                 "[min, max]")
    for name, c in doc["churn"].items():
        lines.append("  %-22s %s new flows/s (whole run %s)  lateness p99 "
                     "<= %s us  host steal %s ms  exactly once %s" %
                     (name, fmt(c["flows_created_per_s"]),
                      fmt(c["whole_run_flows_per_s"]),
                      fmt(c["lateness_p99_le_us"]),
                      fmt(c.get("host_steal_ms")),
                      "yes" if c["exactly_once_all"] else "NO"))
    lines += pages_lines(doc)
    lines += stage_table(doc.get("stages", {}))
    lines.append("targets: " + ", ".join(
        "%s %s" % (k, "met" if v["met"] else "MISSED")
        for k, v in doc["targets"].items()))
    return "\n".join(lines)


def cmd_report(argv):
    logs, out = argv[0], argv[1]
    mem, ch = memory(logs), churn(logs)
    doc = {"memory": mem, "churn": ch, "targets": targets(mem, ch),
           "notes": os.environ.get("BENCH_NOTES", "")}
    try:
        with open(os.path.join(logs, "pages.json")) as f:
            doc["fresh_pages"] = json.load(f)
    except (OSError, ValueError):
        pass
    st = stages(logs, ch)
    if st:
        doc["stages"] = st
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
    print(table(doc))
    return 0


def main(argv):
    cmds = {"sample": (cmd_sample, 2), "report": (cmd_report, 2)}
    if len(argv) < 1 or argv[0] not in cmds or \
            len(argv) - 1 != cmds[argv[0]][1]:
        sys.exit(__doc__)
    return cmds[argv[0]][0](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
