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
import json
import os
import sys


def load(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit("%s:%d: not JSON: %s" % (path, n, e))
    if len(rows) < 2:
        sys.exit("%s: %d line(s); need two stats periods or more "
                 "(run longer, or with -T 1)" % (path, len(rows)))
    return rows


def hist_pct(hist, p):
    """Upper bound (us) of the p-th percentile of a log2 histogram:
    bucket 0 counts lateness under 1 us, bucket b in [2^(b-1), 2^b) us."""
    total = sum(hist)
    if total == 0:
        return None
    need = total * p / 100.0
    acc = 0
    for b, c in enumerate(hist):
        acc += c
        if acc >= need:
            return 1 if b == 0 else 2 ** b
    return 2 ** (len(hist) - 1)


def periods(rows):
    """Per-period rates and lateness percentiles, from consecutive lines."""
    out = []
    for a, b in zip(rows, rows[1:]):
        dt = b["t_s"] - a["t_s"]
        if dt <= 0:
            continue
        d_hist = [y - x for x, y in zip(a["lateness_hist_log2_us"],
                                        b["lateness_hist_log2_us"])]
        out.append({
            "t": b["t_s"],
            "expiries_s": (b["timers_expired"] - a["timers_expired"]) / dt,
            "rearms_s": (b["timers_rearmed"] - a["timers_rearmed"]) / dt,
            "p50_us": hist_pct(d_hist, 50),
            "p99_us": hist_pct(d_hist, 99),
            "live": b["flows_active"],
        })
    return out


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
    ax.set_xlabel("seconds since start")
    ax.set_ylabel("flows")
    ax.set_title("Flows (created and ended are cumulative)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "flows.png"))

    fig, ax = plt.subplots(figsize=(7, 4))
    tp = [p["t"] for p in per]
    ax.step(tp, [p["expiries_s"] for p in per], where="pre",
            label="expiries/s")
    ax.step(tp, [p["rearms_s"] for p in per], where="pre",
            label="re-arms/s")
    ax.set_xlabel("seconds since start")
    ax.set_ylabel("per second (mean over the stats period)")
    ax.set_title("Timer expiries")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "expiries.png"))

    fig, ax = plt.subplots(figsize=(7, 4))
    lt = [p for p in per if p["p99_us"] is not None]
    ax.step([p["t"] for p in lt], [p["p50_us"] / 1000.0 for p in lt],
            where="pre", label="p50 (log2 bucket bound)")
    ax.step([p["t"] for p in lt], [p["p99_us"] / 1000.0 for p in lt],
            where="pre", label="p99 (log2 bucket bound)")
    ax.axhline(rows[-1]["tick_us"] / 1000.0, color="grey", ls="--",
               label="one tick")
    ax.set_xlabel("seconds since start")
    ax.set_ylabel("ms after the deadline")
    ax.set_title("Expiry lateness per stats period")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "lateness.png"))

    print("%8s %8s %12s %10s" % ("t_s", "live", "expiries/s", "p99_us"))
    for p in per:
        print("%8.1f %8d %12.1f %10s" % (p["t"], p["live"], p["expiries_s"],
                                         p["p99_us"] if p["p99_us"]
                                         is not None else "-"))
    print("wrote flows.png, expiries.png, lateness.png in %s" % args.out)


if __name__ == "__main__":
    main()
