#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Assert each Expect of docs/exercises.rst from the runs its commands made.

    exercises_check.py BUILD_DIR CMD_DIR

BUILD_DIR/ex/NAME/ holds each run (summary.json, flows.json, stats.json,
pipeline.log); CMD_DIR the commands' outputs as docs_test.py wrote them
(cmd_N.out, the command on the first line). Numbers the page marks
"(exact)" are compared exactly; "(checked: ...)" ones against the bound
the page states. One "ok"/"FAIL exercise N: ..." line per assertion, then
"RESULT exercises: N passed, N failed".
"""

import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
import tplib  # noqa: E402

CAPTURE_PACKETS = 338   # build/demo/demo.pcap (tools/gen_pcap.py --seed 1)


class Check:
    def __init__(self, build, cmds):
        self.build, self.passed, self.failed = build, 0, 0
        self.out = {}
        for p in glob.glob(os.path.join(cmds, "cmd_*.out")):
            first, _, rest = open(p, errors="replace").read().partition("\n")
            self.out[first[2:]] = rest

    def that(self, ex, ok, what):
        if ok:
            self.passed += 1
            print("ok   exercise %d: %s" % (ex, what))
        else:
            self.failed += 1
            print("FAIL exercise %d: %s" % (ex, what))

    def path(self, run, name):
        return os.path.join(self.build, "ex", run, name)

    def summary(self, run):
        try:
            return tplib.load_summary(self.path(run, "summary.json"))
        except (OSError, ValueError, SystemExit):
            return None

    def num(self, run, key):
        s = self.summary(run)
        v = tplib.summary_get(s, key) if s else None
        return v if isinstance(v, (int, float)) else None

    def printed(self, part):
        """The output of the command that contains PART (rewritten)."""
        for cmd, out in self.out.items():
            if part in cmd:
                return out
        return None


def hist_share_from(hist, min_us):
    """Share of expiries in buckets whose lower bound is >= min_us."""
    n = sum(hist)
    if not n:
        return None
    return sum(c for b, c in enumerate(hist)
               if b > 0 and (1 << (b - 1)) >= min_us) / n


def main(argv):
    c = Check(argv[1], argv[2])
    num, that = c.num, c.that

    def same43(ex, a, b):
        out = c.printed("same %s" % c.path(a, "flows.json")) or ""
        that(ex, "43 records identical" in out,
             "check_records.py same %s %s printed '43 records identical' "
             "(printed: %r)" % (a, b, out.strip()[-120:]))

    def passed(ex, run):
        s = c.summary(run)
        that(ex, bool(s) and s["check"]["passed"],
             "%s: the exactly-once check passed" % run)

    # 1: the tick.
    p50_1, p50_100 = num("tick1", "lateness_p50_us"), \
        num("tick100", "lateness_p50_us")
    that(1, p50_100 is not None and 32768 <= p50_100 <= 262144,
         "the 100-ms run's p50 bound %s us is within [32768, 262144]"
         % p50_100)
    that(1, None not in (p50_1, p50_100) and p50_1 < p50_100,
         "the 1-ms run's p50 %s us is below the 100-ms run's %s us"
         % (p50_1, p50_100))
    same43(1, "tick1", "tick100")
    # 2: lazy against every-packet.
    lazy = {k: num("lazy", k) for k in ("timers_armed", "timers_cancelled",
                                        "flows_created")}
    every = {k: num("every", k) for k in ("timers_armed", "timers_cancelled",
                                          "timers_expired",
                                          "timers_armed_first")}
    that(2, lazy["flows_created"] == 43, "lazy: 43 flows (got %s)"
         % lazy["flows_created"])
    that(2, lazy["timers_armed"] == 100, "lazy: 100 arms (got %s)"
         % lazy["timers_armed"])
    that(2, lazy["timers_cancelled"] == 6, "lazy: 6 cancels (got %s)"
         % lazy["timers_cancelled"])
    rearms = None if None in (every["timers_armed"],
                              every["timers_armed_first"]) else \
        every["timers_armed"] - every["timers_armed_first"]
    that(2, rearms == 303 and every["timers_cancelled"] == 303,
         "every-packet: 303 cancels and 303 arms after the first (got %s "
         "and %s)" % (every["timers_cancelled"], rearms))
    that(2, every["timers_expired"] == 43,
         "every-packet: 43 expiries, one per flow (got %s)"
         % every["timers_expired"])
    same43(2, "lazy", "every")
    # 3: direct against rte.
    that(3, (c.summary("direct") or {}).get("adapter") == "direct" and
         (c.summary("rte") or {}).get("adapter") == "rte",
         "the runs' adapters are direct and rte")
    same43(3, "direct", "rte")
    out = c.printed("cut -d, -f2- %s" % c.path("direct", "flows.json"))
    that(3, out is not None and out.strip() == "",
         "diff of the records without their serial printed nothing "
         "(printed: %r)" % (out or "")[:200])
    # 4: too few timers.
    fail, lack, flows = num("timers8", "timers_arm_failures"), \
        num("timers8", "ended_lack_of_resources"), \
        num("timers8", "flows_created")
    that(4, fail is not None and fail > 0, "arm failures above 0 (got %s)"
         % fail)
    that(4, fail == lack, "lack_of_resources %s == arm failures %s"
         % (lack, fail))
    that(4, (flows, lack) == (260, 243),
         "260 flows, 243 lack_of_resources (got %s, %s)" % (flows, lack))
    out = c.printed("reasons %s" % c.path("timers8", "flows.json")) or ""
    that(4, re.search(r"lack_of_resources +243\b", out) is not None,
         "check_records.py reasons shows lack_of_resources 243")
    passed(4, "timers8")
    # 5: a slow worker.
    share = {r: hist_share_from(num_list, 16384) for r, num_list in
             (("slow", (c.summary("slow") or {}).get("counters", {}).get(
                 "lateness_hist_log2_us", [])),
              ("direct", (c.summary("direct") or {}).get("counters", {}).get(
                  "lateness_hist_log2_us", [])))}
    that(5, share["slow"] is not None and share["slow"] >= 0.10,
         "expiries 16 ms or more late: slow %s (at least 10 %%), direct %s "
         "(not compared)" % (share["slow"], share["direct"]))
    same43(5, "slow", "direct")
    that(5, num("slow", "adapter_expiries") is not None and
         num("slow", "adapter_expiries") == num("slow", "timers_expired"),
         "adapter_expiries %s == timers_expired %s"
         % (num("slow", "adapter_expiries"), num("slow", "timers_expired")))
    # 6: SIGINT.
    try:
        log = open(c.path("sigint", "pipeline.log"), errors="replace").read()
    except OSError:
        log = ""
    that(6, "stopping (signal)" in log, "the log says 'stopping (signal)'")
    m = re.search(r"flushed and drained (\d+) ms after the stop request", log)
    that(6, m is not None and int(m.group(1)) <= 2000,
         "flushed and drained within 2000 ms (%s)"
         % (m.group(1) + " ms" if m else "no such line"))
    try:
        recs = tplib.read_jsonl(c.path("sigint", "flows.json"))
    except (OSError, SystemExit):
        recs = []
    that(6, any(r.get("end_reason") == "forced_end" for r in recs),
         "some records end as forced_end")
    rx = num("sigint", "rx_pkts")
    that(6, rx is not None and 0 < rx < CAPTURE_PACKETS,
         "%s packets received, fewer than the capture's %d"
         % (rx, CAPTURE_PACKETS))
    passed(6, "sigint")
    out = c.printed("TP_RUN_TIMEOUT=3") or ""
    that(6, "Exit status 0;" in out, "exit status 0")
    # 7: watch one flow.
    try:
        tr = [line.split() for line in open(c.path("trace", "pipeline.log"))
              if line.startswith("trace ")]
    except OSError:
        tr = []
    flows = {}
    for w in tr:
        flows.setdefault(w[5], []).append(w[6])
    that(7, len(flows) == 10, "trace lines for 10 flows (got %d)"
         % len(flows))
    after = all(b == "refresh" for ev in flows.values()
                for a, b in zip(ev, ev[1:] + [""]) if a == "packet")
    that(7, tr and after, "each packet line is followed by a refresh line")
    that(7, tr and not any("re-arm" in ev for ev in flows.values()),
         "no re-arm")
    that(7, tr and all(ev.count("expire") == 1 and
                       ev[ev.index("end") - 1] == "expire"
                       for ev in flows.values() if "end" in ev) and
         all("end" in ev for ev in flows.values()),
         "each flow ends at its first (and only) expire")
    # 8: plots.
    for run in ("slow", "direct"):
        pngs = [n for n in ("flows.png", "expiries.png", "lateness.png")
                if os.path.getsize(c.path(run, "plots/" + n)) > 0] \
            if os.path.isdir(c.path(run, "plots")) else []
        that(8, len(pngs) == 3, "%s: three PNGs (%s)" % (run, pngs))
        try:
            live = [r["flows_active"] for r in
                    tplib.read_jsonl(c.path(run, "stats.json"))]
        except (OSError, SystemExit, KeyError):
            live = []
        that(8, live and max(live) > 0 and live[-1] == 0,
             "%s: flows live above 0, then 0 in the last period (%s)"
             % (run, live))
    print("RESULT exercises: %d passed, %d failed" % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
