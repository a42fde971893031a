#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Draw one pipeline run from its --stats-json time series.

    dpdk-timer_pipeline ... -- -T 1 --stats-json stats.json ...
    python3 tools/plot_run.py stats.json -o plots/

writes three PNGs into the output directory:

  flows.png     flows live, created and ended (cumulative) over time
  expiries.png  timer expiries and re-arms per second, per stats period
  lateness.png  expiry lateness p50 and p99 per stats period (taken from the
                difference of the cumulative log2 histograms of two lines),
                with the adapter tick for scale

and prints one line per period (time, live flows, expiries/s, p99). Each
line of the input is one stats period's totals (cumulative since the start);
the last one has "final": true.
"""

import argparse
import os
import sys

import tplib


def load(path):
    rows = tplib.read_jsonl(path)
    if len(rows) < 2:
        sys.exit("%s: %d line(s); need two stats periods or more "
                 "(run longer, or with -T 1)" % (path, len(rows)))
    return rows


def periods(rows):
    """Per-period rates and lateness percentiles, from consecutive lines."""
    out = []
    for a, b in zip(rows, rows[1:]):
        dt = b["t_s"] - a["t_s"]
        if dt <= 0:
            continue
        d_hist = tplib.hist_window(a["lateness_hist_log2_us"],
                                   b["lateness_hist_log2_us"])
        out.append({
            "t": b["t_s"],
            "expiries_s": (b["timers_expired"] - a["timers_expired"]) / dt,
            "rearms_s": (b["timers_rearmed"] - a["timers_rearmed"]) / dt,
            "p50_us": tplib.hist_pct(d_hist, 50),
            "p99_us": tplib.hist_pct(d_hist, 99),
            "live": b["flows_active"],
        })
    return out


def finish(fig, ax, ylabel, title, path):
    """Label a figure over time since the start and write it to path."""
    ax.set_xlabel("seconds since start")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stats_json", help="file written by --stats-json")
    ap.add_argument("-o", "--out", default=".",
                    help="directory for the PNGs (default: .)")
    args = ap.parse_args()
    rows = load(args.stats_json)
    per = periods(rows)

    try:
        import matplotlib
    except ImportError:
        sys.exit("plot_run.py: matplotlib is missing (apt-get install "
                 "python3-matplotlib; scripts/setup.sh installs it)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(args.out, exist_ok=True)
    t = [r["t_s"] for r in rows]

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(t, [r["flows_active"] for r in rows], label="live")
    ax.plot(t, [r["flows_created"] for r in rows], label="created")
    ax.plot(t, [r["flows_ended"] for r in rows], label="ended")
    finish(fig, ax, "flows", "Flows (created and ended are cumulative)",
           os.path.join(args.out, "flows.png"))

    fig, ax = plt.subplots(figsize=(7, 4))
    tp = [p["t"] for p in per]
    ax.step(tp, [p["expiries_s"] for p in per], where="pre",
            label="expiries/s")
    ax.step(tp, [p["rearms_s"] for p in per], where="pre",
            label="re-arms/s")
    finish(fig, ax, "per second (mean over the stats period)",
           "Timer expiries", os.path.join(args.out, "expiries.png"))

    fig, ax = plt.subplots(figsize=(7, 4))
    lt = [p for p in per if p["p99_us"] is not None]
    ax.step([p["t"] for p in lt], [p["p50_us"] / 1000.0 for p in lt],
            where="pre", label="p50 (log2 bucket bound)")
    ax.step([p["t"] for p in lt], [p["p99_us"] / 1000.0 for p in lt],
            where="pre", label="p99 (log2 bucket bound)")
    ax.axhline(rows[-1]["tick_us"] / 1000.0, color="grey", ls="--",
               label="one tick")
    finish(fig, ax, "ms after the deadline",
           "Expiry lateness per stats period",
           os.path.join(args.out, "lateness.png"))

    print("%8s %8s %12s %10s" % ("t_s", "live", "expiries/s", "p99_us"))
    for p in per:
        print("%8.1f %8d %12.1f %10s" % (p["t"], p["live"], p["expiries_s"],
                                         p["p99_us"] if p["p99_us"]
                                         is not None else "-"))
    print("wrote flows.png, expiries.png, lateness.png in %s" % args.out)


if __name__ == "__main__":
    main()
