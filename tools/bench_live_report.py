#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""The live-rate table from scripts/bench_live.sh's JSON (stdlib only).

  bench_live_report.py LIVE.json TABLE.rst     write the table, print it
  bench_live_report.py --check LIVE.json TABLE.rst
                                               exit 1 unless TABLE.rst is
                                               what LIVE.json gives

Per input: the highest rate with no loss in every repetition, the first
rate that lost, why the search stopped, and at the highest lossless step
the sender's achieved rate and CPU (median [min, max] of the
repetitions). The title names the run: date, commit, DPDK.
"""

import json
import statistics
import sys

LABEL = {"af_xdp": "net_af_xdp", "af_packet": "net_af_packet",
         "pcap": "net_pcap iface=", "softflowd": "softflowd -i"}


def spread(vals, fmt):
    if not vals:
        return "-"
    return "%s [%s, %s]" % (fmt % statistics.median(vals), fmt % min(vals),
                            fmt % max(vals))


def table(doc):
    run = doc.get("run", {})
    reps = doc["method"]["reps"]
    out = [".. list-table:: Highest rate with no loss (packets/s), %d "
           "interleaved repetitions per step; run %s, commit %s, DPDK %s"
           % (reps, run.get("date", "?"), run.get("commit", "?"),
              run.get("dpdk", "?")),
           "   :header-rows: 1", "",
           "   * - input", "     - no loss up to", "     - first loss at",
           "     - sender pps at the last lossless step",
           "     - sender CPU (fraction of one)", "     - search ended"]
    for name, r in doc["inputs"].items():
        good = [s for s in r["steps"] if s["passed"]]
        last = good[-1]["trials"] if good else []
        pps = [t["sender_pps"] for t in last if "sender_pps" in t]
        cpu = [t["sender_cpu"] for t in last if "sender_cpu" in t]
        out += ["   * - %s" % LABEL.get(name, name),
                "     - %s" % format(r["max_lossless_pps"], ","),
                "     - %s" % (format(r["first_loss_pps"], ",")
                               if r["first_loss_pps"] else "none"),
                "     - %s" % spread(pps, "%d"),
                "     - %s" % spread(cpu, "%.2f"),
                "     - %s" % r["stopped"]]
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    check = args[:1] == ["--check"]
    if check:
        args = args[1:]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as f:
        text = table(json.load(f))
    if check:
        with open(args[1]) as f:
            if f.read() != text:
                print("%s is not what %s gives: run tools/bench_live_report"
                      ".py %s %s" % (args[1], args[0], args[0], args[1]),
                      file=sys.stderr)
                return 1
        return 0
    with open(args[1], "w") as f:
        f.write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
