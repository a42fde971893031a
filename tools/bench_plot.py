#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Check and plot a timer_bench JSON file.

    bench_plot.py RESULT.json [--outdir DIR] [--check-only]

--check-only validates the file (well-formed JSON, conditions present, every
median a finite number) and exits 1 on any problem; CI uses it on the quick
mode's output. Otherwise it also writes PNG plots into DIR (default: the
JSON's folder):

  arm_cost_random.png, arm_cost_const.png  arm/cancel ns per timer vs N
  lateness_cdf.png                         expiry lateness CDF per adapter
  backpressure.png                         events delivered per 10 ms
  closed_loop.png                          closed-loop expiry rate per case
"""

import argparse
import json
import math
import os
import sys

ADAPTERS = ("direct", "rte", "ring")
COLORS = {"direct": "tab:green", "rte": "tab:red", "ring": "tab:blue"}


def check(doc):
    problems = []
    cond = doc.get("conditions")
    if not isinstance(cond, dict):
        problems.append("no conditions object")
    else:
        for key in ("cpu", "tsc_hz", "dpdk", "hugepages", "lcores", "reps"):
            if key not in cond:
                problems.append("conditions lack %r" % key)
    medians = doc.get("medians")
    if not isinstance(medians, list) or not medians:
        problems.append("no medians")
        medians = []
    for m in medians:
        for key in ("test", "adapter", "key", "median", "reps"):
            if key not in m:
                problems.append("median record lacks %r: %r" % (key, m))
                break
        else:
            v = m["median"]
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                problems.append("non-finite median: %r" % m)
            if m["adapter"] not in ADAPTERS:
                problems.append("unknown adapter: %r" % m)
    for s in doc.get("series", []):
        if not all(isinstance(v, (int, float)) for v in s.get("values", [])):
            problems.append("bad series %r/%r" % (s.get("test"), s.get("key")))
    return problems


def medians_by(doc, test):
    out = {}
    for m in doc["medians"]:
        if m["test"] == test:
            out.setdefault(m["adapter"], {})[m["key"]] = m["median"]
    return out


def save(plt, fig, outdir, name):
    """Write fig to outdir/name, close it and return the path."""
    fig.tight_layout()
    path = os.path.join(outdir, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_arm(doc, outdir, plt):
    arm = medians_by(doc, "arm")
    files = []
    for shape in ("random", "const"):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
        for ax, ops in zip(axes, (("arm1", "arm32", "armtmo32"),
                                  ("cancel1", "cancel32"))):
            for adapter, vals in sorted(arm.items()):
                for op in ops:
                    pts = sorted((int(k.split("/")[2]), v)
                                 for k, v in vals.items()
                                 if k.startswith(op + "_ns/" + shape + "/"))
                    if not pts:
                        continue
                    style = {"arm1": "-o", "arm32": "--s", "armtmo32": ":^",
                             "cancel1": "-o", "cancel32": "--s"}[op]
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                            color=COLORS.get(adapter), label="%s %s" % (adapter, op))
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("timers outstanding (N)")
            ax.set_ylabel("ns per timer")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        axes[0].set_title("arm, %s timeouts" % shape)
        axes[1].set_title("cancel, %s timeouts" % shape)
        files.append(save(plt, fig, outdir, "arm_cost_%s.png" % shape))
    return files


def series(doc, test, key):
    return {s["adapter"]: s["values"] for s in doc.get("series", [])
            if s["test"] == test and s["key"] == key}


def plot_lateness(doc, outdir, plt):
    q = series(doc, "lateness", "quantiles_us_0_to_1000")
    if not q:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for adapter, vals in sorted(q.items()):
        ys = [i / 1000.0 for i in range(len(vals))]
        ax.plot([max(v, 0.01) for v in vals], ys, color=COLORS.get(adapter),
                label=adapter)
    ax.set_xscale("log")
    ax.set_xlabel("lateness (us): dequeue time - deadline")
    ax.set_ylabel("fraction of timers")
    ax.set_title("expiry lateness CDF, 20K timers/s, tick 10 us")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    return [save(plt, fig, outdir, "lateness_cdf.png")]


def plot_backpressure(doc, outdir, plt):
    b = series(doc, "backpressure", "events_per_10ms")
    if not b:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for adapter, vals in sorted(b.items()):
        cum, total = [], 0
        for v in vals:
            total += v
            cum.append(total)
        # Trim the flat tail after the last event.
        last = max((i for i, v in enumerate(vals) if v), default=0)
        xs = [i * 10 for i in range(last + 2)]
        ax.plot(xs, cum[:last + 2], color=COLORS.get(adapter), label=adapter)
    ax.set_xlabel("ms since the first deadline")
    ax.set_ylabel("events delivered (cumulative)")
    ax.set_title("expiry under backpressure (slow consumer)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    return [save(plt, fig, outdir, "backpressure.png")]


def plot_closed_loop(doc, outdir, plt):
    """Bars: sustained expiry rate per case and producer, per adapter."""
    cl = medians_by(doc, "closedloop")
    keys = sorted({k for v in cl.values() for k in v if k.endswith("_Mev_s")})
    if not keys:
        return []
    adapters = [a for a in ADAPTERS if a in cl]
    fig, ax = plt.subplots(figsize=(8, 4.2))
    width = 0.8 / max(len(adapters), 1)
    for i, adapter in enumerate(adapters):
        ax.bar([k + i * width for k in range(len(keys))],
               [cl[adapter].get(key, 0) for key in keys], width,
               color=COLORS.get(adapter), label=adapter)
    ax.set_xticks([k + width * (len(adapters) - 1) / 2
                   for k in range(len(keys))])
    ax.set_xticklabels([k.replace("_Mev_s", "").replace("/", "\n")
                        for k in keys], fontsize=8)
    ax.set_ylabel("expiries consumed (M/s, median)")
    ax.set_yscale("log")
    ax.set_title("closed loop: 16K timers re-armed as consumed")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend()
    return [save(plt, fig, outdir, "closed_loop.png")]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--outdir")
    ap.add_argument("--check-only", action="store_true")
    args = ap.parse_args()
    try:
        with open(args.json) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("bench_plot: %s: %s" % (args.json, e), file=sys.stderr)
        return 1
    problems = check(doc)
    for p in problems:
        print("bench_plot: %s" % p, file=sys.stderr)
    if problems:
        return 1
    print("bench_plot: %s is well formed (%d medians, %d series)"
          % (args.json, len(doc["medians"]), len(doc.get("series", []))))
    if args.check_only:
        return 0
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench_plot: matplotlib missing (apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 1
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.json))
    os.makedirs(outdir, exist_ok=True)
    files = plot_arm(doc, outdir, plt) + plot_lateness(doc, outdir, plt) + \
        plot_backpressure(doc, outdir, plt) + \
        plot_closed_loop(doc, outdir, plt)
    for p in files:
        print("bench_plot: wrote %s" % p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
