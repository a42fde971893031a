#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Draw the guides' figures from real runs and the committed benchmark
results; scripts/docs.sh runs it before Sphinx.

    docs_figures.py --build BUILD --walk DIR --paced DIR --bench docs/bench
                    --out FIGDIR

--walk is the walkthrough's own run (scripts/run_capture.sh with
--trace-flow and --summary-json, as docs/walkthrough.rst runs it), --paced
a run of the demo capture at its own pace (--replay-pace, -T 1, so that
lateness is wall-clock lateness and --stats-json has a line a second).
Writes into FIGDIR:

  layout.png          the pipeline's layout, from the walk run's summary
                      ("layout": ports, lcores, queues, adapter, services)
  layout.dot          its graphviz source
  flow_life.png       the traced flow's packets, timer operations, idle
                      deadline and record on a time axis (the walk's trace)
  run_lateness.png    the paced run's expiry lateness CDF (log2 buckets)
  run_flows.png       the paced run's flows live over time
  bench_*.png         from each docs/bench result (timer_bench's
                      results.json, bench_pipeline.sh's pipeline.json):
                      arm and cancel cost against N, closed loop,
                      overload (backpressure), pipeline against l2fwd-event
  figures.json        {name: "the run: date, commit, DPDK version"} for
                      every figure: docs/_ext/tp_figures.py appends it to
                      the caption

Exits 1 with a message when an input is missing or malformed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_plot  # noqa: E402
import bench_versions  # noqa: E402
import tplib  # noqa: E402

# The benchmark results drawn, by the label the captions give them: the
# folder under docs/bench ("" for the earlier 22.11 full run at the top).
# A pipeline.json without l2fwd-event's figures (25.11.2's full run lost
# them) is taken from the forwarding rerun beside it.
BENCH_DIRS = [("22.11", ""), ("22.11-quick", "dpdk-22.11-quick"),
              ("25.11.2", "dpdk-25.11.2"), ("26.07", "dpdk-26.07.0")]
PIPE_FALLBACK = {"dpdk-25.11.2": "dpdk-25.11.2-fwd"}
PIPE_CASES = [("l2fwd", "l2fwd-event (fair)"),
              ("tp_direct_lazy", "direct, lazy"),
              ("tp_direct_every", "direct, every-packet"),
              ("tp_rte_lazy", "rte, lazy"),
              ("tp_rte_every", "rte, every-packet")]

TRACE = re.compile(r"trace +([0-9.]+)s lcore \d+ flow (\d+) +(\S+) +(.*)")


def fail(msg):
    sys.exit("docs_figures: " + msg)


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))


def git_commit(src):
    """HEAD's short hash, "+" when the tree has uncommitted changes."""
    try:
        h = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True,
                           check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", src, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return h + (" (uncommitted changes)" if dirty else "")


def dpdk_version(build):
    """The DPDK the build directory was configured against (meson)."""
    path = os.path.join(build, "meson-info", "intro-dependencies.json")
    for d in load_json(path):
        if d.get("name") == "libdpdk":
            return d.get("version", "?")
    fail("%s names no libdpdk" % path)


def run_stamp(summary, commit, dpdk, what):
    ms = summary["times"]["launch_unix_ms"]
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ms / 1000.0))
    return "%s, %s, commit %s, DPDK %s" % (what, date, commit, dpdk)


# --- The layout -----------------------------------------------------------

def layout_dot(lay):
    """Graphviz source: ports -> RX lcores -> queues -> workers -> ports,
    the adapter on its service lcore, the control role."""
    out = ["digraph layout {", "  rankdir=LR;",
           '  node [fontname="Helvetica", fontsize=11];',
           '  edge [fontname="Helvetica", fontsize=9];']
    lcores = lay["lcores"]
    ev = lay["eventdev"]
    out.append('  subgraph cluster_ports { label="ethdev ports"; '
               'style=dashed;')
    for p in lay["ports"]:
        out.append('    port%d [shape=box, label="port %d\\n%s\\n%d RX, %d '
                   'TX queue(s)"];' % (p["port"], p["port"], p["name"],
                                       p["rx_queues"], p["tx_queues"]))
    out.append("  }")
    out.append('  subgraph cluster_evdev { label="event device %d (%s), %d '
               'events"; style=rounded;' % (ev["dev_id"], ev["driver"],
                                             ev["nb_events"]))
    for q in ev["queues"]:
        out.append('    q%d [shape=cds, label="queue %d: %s\\n%s, priority '
                   '%d"];' % (q["queue"], q["queue"], q["carries"],
                              q["sched"], q["priority"]))
    out.append("  }")
    svc_name = {s["service"]: s for s in lay["services"]}
    pkt_q = [q["queue"] for q in ev["queues"] if q["carries"] == "packets"]
    tim_q = [q["queue"] for q in ev["queues"] if q["carries"] == "expiries"]
    for lc in lcores:
        roles = lc["roles"]
        label = "lcore %d (CPU %d)\\n%s" % (lc["lcore"], lc["cpu"],
                                            " + ".join(roles) or "idle")
        if "event_port" in lc:
            label += "\\nevent port %d" % lc["event_port"]
        for s in lc["services"]:
            label += "\\nservice %d: %s" % (s, svc_name[s]["name"]
                                            if s in svc_name else "?")
        shape = "box3d" if "service" in roles else "box"
        out.append('  lc%d [shape=%s, style=filled, fillcolor="%s", '
                   'label="%s"];' % (lc["lcore"], shape,
                                     "#e8e8ff" if "service" in roles
                                     else "#e8ffe8", label))
        for rq in lc["rx_queues"]:
            out.append('  port%d -> lc%d [label="rx q%d"];' % (
                rq["port"], lc["lcore"], rq["queue"]))
        if "rx" in roles:
            for q in pkt_q:
                out.append('  lc%d -> q%d [label="enqueue\\n(new)"];' % (
                    lc["lcore"], q))
        if "worker" in roles:
            for q in pkt_q + tim_q:
                out.append('  q%d -> lc%d [label="dequeue"];' % (
                    q, lc["lcore"]))
            for p in lay["ports"]:
                out.append('  lc%d -> port%d [label="tx", style=dashed];'
                           % (lc["lcore"], p["forwards_to"]))
    ad = lay["adapter"]
    out.append('  adapter [shape=octagon, style=filled, fillcolor="#fff0d0",'
               ' label="timer adapter: %s\\ntick %g ms\\nevent port %d"];'
               % (ad["name"], ad["tick_ns"] / 1e6, ad["event_port"]))
    for q in tim_q:
        out.append('  adapter -> q%d [label="expiry events"];' % q)
    for lc in lcores:
        if "service" in ad and ad["service"] in lc["services"]:
            out.append('  lc%d -> adapter [label="runs its service", '
                       'style=dotted, arrowhead=none];' % lc["lcore"])
        if "control" in lc["roles"]:
            writer = any(x["is"] == "record_writer" for x in lay["services"])
            out.append('  control [shape=note, label="%sstats, telemetry,'
                       '\\nshutdown (control)"];'
                       % ("" if writer else "flow records, "))
            out.append('  lc%d -> control [style=dotted];' % lc["lcore"])
        for s in lc["services"]:
            if s in svc_name and svc_name[s]["is"] == "record_writer":
                out.append('  records [shape=note, label="flow records:'
                           '\\nflow log, IPFIX queue\\n(record writer)"];')
                out.append('  lc%d -> records [style=dotted];'
                           % lc["lcore"])
    out.append("}")
    return "\n".join(out) + "\n"


def draw_layout(summary, out):
    if "layout" not in summary:
        fail("the summary has no \"layout\" (a binary from before it?)")
    dot = layout_dot(summary["layout"])
    src = os.path.join(out, "layout.dot")
    with open(src, "w") as f:
        f.write(dot)
    try:
        subprocess.run(["dot", "-Tpng", "-Gdpi=90", "-o",
                        os.path.join(out, "layout.png"), src], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        fail("dot (graphviz) failed on %s: %s" % (src, e))


# --- One flow's life ------------------------------------------------------

def trace_events(log):
    ev = []
    with open(log) as f:
        for line in f:
            m = TRACE.match(line)
            if m:
                ev.append((float(m.group(1)), m.group(3), m.group(4)))
    if not ev:
        fail("%s has no trace lines (--trace-flow)" % log)
    return ev


def due(detail):
    m = re.search(r"due ([0-9.]+)s", detail)
    return float(m.group(1)) if m else None


def draw_flow(log, plt, out):
    ev = trace_events(log)
    fig, ax = plt.subplots(figsize=(10, 5.2))
    y_fwd, y_rev, y_tim = 2.0, 1.0, 0.0
    armed = None            # (armed at, due) of the timer now armed
    idle = []               # (time, idle deadline) after each packet
    first, end_t, due_mark = True, ev[-1][0], None
    for t, kind, d in ev:
        if kind == "packet":
            fwd = d.startswith("fwd")
            y = y_fwd if fwd else y_rev
            m = re.match(r"(fwd|rev) (\d+) B (\S+)(?: (\S+))?", d)
            ax.plot([t, t], [y - 0.3, y + 0.3], color="tab:blue"
                    if fwd else "tab:purple", lw=2)
            label = "%s %s" % (m.group(4) or m.group(3), m.group(2)) if m \
                else d.split(",")[0]
            ax.annotate(label, (t, y + 0.32), fontsize=7, rotation=60,
                        ha="left", va="bottom")
            md = re.search(r"idle deadline ([0-9.]+)s", d)
            if md:
                idle.append((t, float(md.group(1))))
        elif kind in ("arm", "refresh", "re-arm"):
            if kind == "arm" and first:
                # The first packet: its line is the arm's (RX creates the
                # flow and arms its timer).
                ax.plot([t, t], [y_fwd - 0.3, y_fwd + 0.3],
                        color="tab:blue", lw=2)
                ax.annotate("S (first)", (t, y_fwd + 0.32), fontsize=7,
                            rotation=60, ha="left", va="bottom")
            if armed is not None and kind == "refresh":
                # A refresh cancels the timer armed before it.
                ax.plot([armed[0], t], [y_tim, y_tim], color="tab:green",
                        lw=6, alpha=0.5, solid_capstyle="butt")
                ax.plot(t, y_tim, "x", color="tab:red", ms=10, mew=2)
                due_mark.set_color("tab:gray")
                due_mark.set_markerfacecolor("none")
            armed = (t, due(d))
            first = False
            due_mark, = ax.plot(armed[1], y_tim, "v", color="tab:green",
                                ms=8)
            ax.annotate("%s\n%s" % (kind, d.split(",")[0]), (t, y_tim - 0.2),
                        fontsize=7, va="top")
        elif kind == "expire":
            if armed is not None:
                ax.plot([armed[0], t], [y_tim, y_tim], color="tab:green",
                        lw=6, alpha=0.5, solid_capstyle="butt")
                armed = None
            ax.plot(t, y_tim, "*", color="tab:orange", ms=14)
            ax.annotate("expire", (t, y_tim + 0.2), fontsize=7, ha="center")
        elif kind == "record":
            ax.axvline(t, color="black", ls=":", lw=1)
            ax.annotate("record (%s)" % d, (t, y_tim - 0.75), fontsize=8,
                        ha="left")
            end_t = t
    if idle:
        # Each packet's idle deadline, where it falls on the time axis
        # (faint), and the last one, after which the flow may end.
        for _, dl in idle[:-1]:
            if dl > ev[-1][0] + 0.5:
                continue    # moved before the flow got there
            ax.plot([dl, dl], [y_rev - 0.5, y_fwd + 0.5], color="tab:red",
                    lw=0.6, alpha=0.35)
        ax.plot([idle[-1][1]] * 2, [y_tim - 0.5, y_fwd + 0.5],
                color="tab:red", lw=1.5, ls="--",
                label="idle deadline (last packet + timeout)")
    ax.plot([], [], color="tab:green", lw=6, alpha=0.5, label="timer armed")
    ax.plot([], [], "v", color="tab:green", label="its due time")
    ax.plot([], [], "v", color="tab:gray", markerfacecolor="none",
            label="due time of a cancelled timer")
    ax.plot([], [], "x", color="tab:red", mew=2, label="cancel (refresh)")
    ax.plot([], [], "*", color="tab:orange", ms=10, label="expiry")
    ax.set_xlim(0, end_t + 0.3)
    ax.set_yticks([y_tim, y_rev, y_fwd])
    ax.set_yticklabels(["timer", "packets rev", "packets fwd"])
    ax.set_ylim(-1.2, 3.6)
    ax.set_xlabel("seconds (the trace's clock)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14),
              ncol=4)
    return bench_plot.save(plt, fig, out, "flow_life.png")


# --- The paced run: lateness and flows live -------------------------------

def draw_run(stats, plt, out):
    rows = tplib.read_jsonl(stats)
    if len(rows) < 2:
        fail("%s: %d line(s), need two stats periods" % (stats, len(rows)))
    hist = rows[-1]["lateness_hist_log2_us"]
    n = sum(hist)
    if n == 0:
        fail("%s: no expiry in the run" % stats)
    fig, ax = plt.subplots(figsize=(7, 4))
    xs, ys, acc = [], [], 0
    for b, c in enumerate(hist):
        acc += c
        xs.append(1 << b)       # the bucket's upper bound (us)
        ys.append(acc / n)
    last = max(b for b, c in enumerate(hist) if c) + 1
    ax.step(xs[:last + 1], ys[:last + 1], where="post", color="tab:green",
            marker="o", ms=4)
    tick_us = rows[-1].get("tick_us")
    if tick_us:
        ax.axvline(tick_us, color="gray", ls="--", lw=1,
                   label="one tick (%d us)" % tick_us)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("expiry lateness, us (upper bound of each log2 bucket)")
    ax.set_ylabel("fraction of expiries")
    ax.set_title("%d expiries" % n)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    bench_plot.save(plt, fig, out, "run_lateness.png")

    fig, ax = plt.subplots(figsize=(7, 3.6))
    t = [r["t_s"] for r in rows]
    ax.plot(t, [r["flows_active"] for r in rows], "-o", label="flows live")
    ax.plot(t, [r["flows_ended"] for r in rows], "--", label="ended (total)")
    ax.set_xlabel("seconds since the lcores launched")
    ax.set_ylabel("flows")
    ax.grid(True, alpha=0.3)
    ax.legend()
    bench_plot.save(plt, fig, out, "run_flows.png")


# --- docs/bench -----------------------------------------------------------

def draw_pipeline(doc, plt, out, name):
    fwd = doc.get("forwarding_Mpps") or {}
    cases = [(k, lab) for k, lab in PIPE_CASES
             if (fwd.get(k) or {}).get("median") is not None]
    if not cases:
        return None
    fig, ax = plt.subplots(figsize=(7, 3.6))
    med = [fwd[k]["median"] for k, _ in cases]
    lo = [m - fwd[k]["min"] for (k, _), m in zip(cases, med)]
    hi = [fwd[k]["max"] - m for (k, _), m in zip(cases, med)]
    ax.barh(range(len(cases)), med, xerr=[lo, hi], capsize=3,
            color=["tab:gray"] + ["tab:green"] * 2 + ["tab:red"] * 2)
    ax.set_yticks(range(len(cases)))
    ax.set_yticklabels([lab for _, lab in cases])
    ax.invert_yaxis()
    ax.set_xlabel("forwarded Mpps (median; bars: min to max of %d reps)"
                  % doc["conditions"]["reps"])
    ax.grid(True, axis="x", alpha=0.3)
    return bench_plot.save(plt, fig, out, name)


def bench_figures(bench, plt, out, stamps):
    for label, sub in BENCH_DIRS:
        d = os.path.join(bench, sub)
        res_path = os.path.join(d, "results.json")
        res = load_json(res_path)
        probs = bench_plot.check(res)
        if probs:
            fail("%s: %s" % (res_path, "; ".join(probs)))
        mode = "quick" if res["conditions"].get("quick") else "full"
        stamp = bench_versions.run_line("timer_bench", res, mode, res_path)
        tmp = os.path.join(out, "tmp_" + (sub or "top"))
        os.makedirs(tmp, exist_ok=True)
        made = bench_plot.plot_arm(res, tmp, plt) + \
            bench_plot.plot_backpressure(res, tmp, plt) + \
            bench_plot.plot_closed_loop(res, tmp, plt)
        for path in made:
            name = "bench_%s_%s" % (label, os.path.basename(path))
            os.replace(path, os.path.join(out, name))
            stamps[name] = stamp
        os.rmdir(tmp)
        sub_p = PIPE_FALLBACK.get(sub, sub)
        pipe_path = os.path.join(bench, sub_p, "pipeline.json")
        if os.path.exists(pipe_path):
            pipe = load_json(pipe_path)
            name = "bench_%s_pipeline.png" % label
            pmode = "quick" if pipe["conditions"].get("quick") else "full"
            if draw_pipeline(pipe, plt, out, name):
                stamps[name] = bench_versions.run_line(
                    "bench_pipeline.sh", pipe, pmode, pipe_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--walk", required=True)
    ap.add_argument("--paced", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib missing (bash scripts/setup.sh installs "
             "python3-matplotlib)")
    os.makedirs(args.out, exist_ok=True)
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    commit, dpdk = git_commit(src), dpdk_version(args.build)
    walk = load_json(os.path.join(args.walk, "summary.json"))
    paced = load_json(os.path.join(args.paced, "summary.json"))
    for what, s in (("walk", walk), ("paced", paced)):
        if not s["check"]["passed"]:
            fail("the %s run's exactly-once check failed" % what)
    stamps = {}
    walk_stamp = run_stamp(walk, commit, dpdk, "the walkthrough's run "
                           "(scripts/run_capture.sh, one flow traced)")
    paced_stamp = run_stamp(paced, commit, dpdk, "the demo capture "
                            "replayed at its recorded pace")
    draw_layout(walk, args.out)
    stamps["layout.png"] = walk_stamp
    draw_flow(os.path.join(args.walk, "pipeline.log"), plt, args.out)
    stamps["flow_life.png"] = walk_stamp
    draw_run(os.path.join(args.paced, "stats.json"), plt, args.out)
    stamps["run_lateness.png"] = stamps["run_flows.png"] = paced_stamp
    bench_figures(args.bench, plt, args.out, stamps)
    with open(os.path.join(args.out, "figures.json"), "w") as f:
        json.dump(stamps, f, indent=1, sort_keys=True)
    print("docs_figures: %d figures in %s" % (len(stamps), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
