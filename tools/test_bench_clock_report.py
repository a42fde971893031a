#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Unit tests of tools/bench_clock_report.py (stdlib only, no DPDK).

    python3 tools/test_bench_clock_report.py [-v]

The model reader against json.load on gen_pcap.py's own --expect files,
the matching of biflow (pipeline, softflowd) and one-way (nfpcapd)
records against a model, nfdump raw parsing, and the summary's medians,
ratios, targets and clock.json layout. The last line is
"RESULT bench_clock_report: N passed, N failed"; the exit status is 0 iff
none failed.
"""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_clock_report as rep  # noqa: E402
import bench_pages  # noqa: E402
import tplib  # noqa: E402

GEN = os.path.join(HERE, "gen_pcap.py")
A, B = "10.0.0.1", "10.0.0.2"
T0 = 1700000000000      # ms


def rec(src, sport, dst, dport, pf, pr, first, last, proto=6, ver=4,
        vlan=0):
    """A flow log / model record."""
    return {"ip_version": ver, "proto": proto, "src": src, "sport": sport,
            "dst": dst, "dport": dport, "vlan": vlan, "packets_fwd": pf,
            "packets_rev": pr, "first_ns": first * 1000000,
            "last_ns": last * 1000000}


def raw(src, sport, dst, dport, pin, first, last, pout=None, proto=6):
    """One `nfdump -o raw` record as nfdump 1.7.1 prints it (ICMP: a
    type.code line instead of ports)."""
    lines = ["Flow Record: ", "  RecordCount  =                 1",
             "  first        =     %d [2023-11-14 22:13:20.134]" % first,
             "  last         =     %d [2023-11-14 22:13:20.134]" % last,
             "  proto        =                 %d %s" % (
                 proto, {1: "ICMP", 6: "TCP", 17: "UDP", 58: "ICMP6"}.get(
                     proto, str(proto)))]
    if proto in (1, 58):
        lines.append("  ICMP         =               8.0  type.code")
    else:
        lines += ["  src port     =             %5d" % sport,
                  "  dst port     =             %5d" % dport]
    lines.append("  in packets   =                 %d" % pin)
    if pout is not None:
        lines.append("  out packets  =                 %d" % pout)
    lines += ["  src addr     =       %s" % src,
              "  dst addr     =    %s" % dst, ""]
    return "\n".join(lines) + "\n"


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_bcr.")

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)


class TestReadModel(TempDir):
    def gen(self, *args):
        cap, exp = self.path("c.pcap"), self.path("c.json")
        subprocess.run([sys.executable, GEN, "-o", cap, "--expect", exp] +
                       list(args), check=True, capture_output=True)
        return exp

    def check(self, exp):
        with open(exp) as f:
            doc = json.load(f)
        model, top = rep.read_model(exp)
        self.assertEqual(model, [rep.from_log(r) for r in doc["paced"]])
        for k in ("flows", "packets", "flow_packets"):
            self.assertEqual(top[k], doc[k])
        self.assertEqual(top["summary"], doc["summary"])
        return model

    def test_streamed_equals_json_load(self):
        model = self.check(self.gen(*(
            "--seed 5 --flows 60 --pkts 2-4 --gap-ms 10-500 "
            "--flow-interval-ms 100 --idle-gap-pct 20 --idle-gap-ms 12000 "
            "--tmo-tcp-est 5 --tmo-udp 5 --tmo-icmp 5 --tmo-other 5").split()))
        self.assertGreater(len(model), 60)      # idle gaps split some

    def test_syn_scan(self):
        model = self.check(self.gen("--syn-scan", "none", "--flows", "50",
                                    "--flow-interval-ms", "0.001"))
        self.assertEqual(len(model), 50)
        # One SYN from 192.168.0.1 to 10.0.0.x: the key's first end is
        # the scanned host, the packet goes the other way.
        self.assertEqual({v[:2] for _, v in model}, {(0, 1)})

    def test_other_layout_read_whole(self):
        doc = {"flows": 1, "paced": [rec(A, 1, B, 2, 1, 1, T0, T0 + 5)]}
        p = self.write("m.json", json.dumps(doc))
        model, top = rep.read_model(p)
        self.assertEqual(model, [rep.from_log(doc["paced"][0])])
        self.assertEqual(top["flows"], 1)

    def test_count_checked_against_summary(self):
        p = self.gen("--flows", "5")
        with open(p) as f:
            text = f.read()
        # Drop the last paced record: the summary no longer agrees.
        start = text.index(' "paced": [')
        end = text.index("\n ]", start)
        cut = text.rindex("\n  {", start, end)
        self.write("m.json", text[:cut].rstrip(",") + text[end:])
        with self.assertRaises(SystemExit):
            rep.read_model(self.path("m.json"))


class TestRaw(TempDir):
    def test_iter_raw_and_keys(self):
        p = self.write("r.txt", raw(B, 80, A, 1234, 3, T0, T0 + 9) +
                       raw(A, 0, B, 0, 2, T0, T0 + 1, proto=1) +
                       raw("fd00::2", 53, "fd00::1", 999, 1, T0, T0,
                           pout=4, proto=17))
        recs = list(rep.iter_raw(p))
        self.assertEqual(len(recs), 3)
        self.assertEqual(len(recs), len(tplib.nfdump_raw(p)))
        # B:80 -> A:1234, one way: the key's first end is A (lower).
        self.assertEqual(rep.from_raw_oneway(recs[0]), (
            (4, 6, A, 1234, B, 80, 0), (1, 3, T0, T0 + 9)))
        # ICMP: no ports in the key.
        self.assertEqual(rep.from_raw_oneway(recs[1]), (
            (4, 1, A, 0, B, 0, 0), (0, 2, T0, T0 + 1)))
        # A biflow (softflowd): both directions, swapped with the ends.
        self.assertEqual(rep.from_raw(recs[2]), (
            (6, 17, "fd00::1", 999, "fd00::2", 53, 0), (4, 1, T0, T0)))

    def test_empty(self):
        self.assertEqual(list(rep.iter_raw(self.write("e.txt", ""))), [])


class TestScore(unittest.TestCase):
    M = [rep.from_log(r) for r in (
        rec(A, 1000, B, 80, 3, 2, T0, T0 + 100),
        # One conversation split at an idle gap: two records.
        rec(A, 1001, B, 80, 2, 1, T0, T0 + 50),
        rec(A, 1001, B, 80, 1, 1, T0 + 20000, T0 + 20010),
        # A SYN never answered: one direction only.
        rec(A, 1002, B, 80, 1, 0, T0 + 7, T0 + 7))]

    def oneway(self, *halves):
        return [rep.from_raw_oneway({
            "src addr": s, "dst addr": d, "proto": "6", "src port": str(sp),
            "dst port": str(dp), "in packets": str(n), "first": str(f),
            "last": str(la)}) for s, sp, d, dp, n, f, la in halves]

    def test_biflow_exact(self):
        self.assertEqual(rep.score(self.M, self.M, True), (4, {}))

    def test_biflow_split_missed(self):
        got = [self.M[0], rep.from_log(rec(A, 1001, B, 80, 3, 2, T0,
                                           T0 + 20010)), self.M[3]]
        matched, kinds = rep.score(self.M, got, False)
        self.assertEqual(matched, 2)
        self.assertEqual(dict(kinds),
                         {"fewer records (idle splits missed)": 1})

    def test_oneway_exact_with_times(self):
        got = self.oneway(
            (A, 1000, B, 80, 3, T0, T0 + 90), (B, 80, A, 1000, 2, T0 + 5,
                                               T0 + 100),
            (B, 80, A, 1001, 1, T0 + 20005, T0 + 20005),
            (A, 1001, B, 80, 2, T0, T0 + 50), (B, 80, A, 1001, 1, T0 + 3,
                                               T0 + 3),
            (A, 1001, B, 80, 1, T0 + 20000, T0 + 20010),
            (A, 1002, B, 80, 1, T0 + 7, T0 + 7))
        self.assertEqual(rep.score_oneway(self.M, got), (4, 4, {}))

    def test_oneway_times_off_and_split_missed(self):
        got = self.oneway(
            # Directions right, but the first packet 1 ms late.
            (A, 1000, B, 80, 3, T0 + 1, T0 + 90), (B, 80, A, 1000, 2, T0 + 5,
                                                   T0 + 100),
            # The idle split missed in one direction.
            (A, 1001, B, 80, 3, T0, T0 + 20010),
            (B, 80, A, 1001, 1, T0 + 3, T0 + 3),
            (B, 80, A, 1001, 1, T0 + 20005, T0 + 20005),
            # The SYN and a record the model has not.
            (A, 1002, B, 80, 1, T0 + 7, T0 + 7),
            (A, 1003, B, 80, 1, T0 + 7, T0 + 7))
        matched, timed, kinds = rep.score_oneway(self.M, got)
        self.assertEqual((matched, timed), (2, 1))
        self.assertEqual(dict(kinds), {
            "fewer records (idle splits missed)": 1,
            "conversation not in the model": 1})

    def test_oneway_each_record_used_once(self):
        # Two model records with the same packets: two one-way records
        # per direction are needed, not one reused.
        m = [rep.from_log(rec(A, 1, B, 2, 1, 1, T0, T0 + 1)),
             rep.from_log(rec(A, 1, B, 2, 1, 1, T0 + 9000, T0 + 9001))]
        got = self.oneway((A, 1, B, 2, 1, T0, T0), (B, 2, A, 1, 1, T0 + 1,
                                                     T0 + 1),
                          (A, 1, B, 2, 1, T0 + 9000, T0 + 9001))
        matched, timed, kinds = rep.score_oneway(m, got)
        self.assertEqual((matched, timed), (1, 1))
        self.assertEqual(dict(kinds),
                         {"fewer records (idle splits missed)": 1})

    def test_oneway_missing_conversation(self):
        matched, timed, kinds = rep.score_oneway(self.M[3:], [])
        self.assertEqual((matched, timed), (0, 0))
        self.assertEqual(dict(kinds), {"conversation missing": 1})


class TestScoreCommand(TempDir):
    def test_files_to_json(self):
        model = [rec(A, 1000, B, 80, 2, 1, T0, T0 + 100),
                 rec(A, 1001, B, 80, 1, 0, T0 + 1, T0 + 1)]
        m = self.write("m.json", json.dumps({"flows": 2, "packets": 4,
                                             "paced": model}, indent=1,
                                            sort_keys=True))
        tp = self.write("tp.json", "".join(json.dumps(r) + "\n"
                                           for r in model))
        sf = self.write("sf.raw", raw(A, 1000, B, 80, 2, 0, 0, pout=1))
        np_ = self.write("np.raw", raw(A, 1000, B, 80, 2, T0, T0 + 90) +
                         raw(B, 80, A, 1000, 1, T0 + 100, T0 + 100) +
                         raw(A, 1001, B, 80, 1, T0 + 1, T0 + 1))
        out = self.path("s.json")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(rep.main(["x", "score", m, tp, sf, np_, out]), 0)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual((doc["flows"], doc["packets"],
                          doc["model_records"]), (2, 4, 2))
        t = doc["tools"]
        self.assertEqual((t[rep.TP]["records"], t[rep.TP]["matched"],
                          t[rep.TP]["matched_with_times"]), (2, 2, 2))
        self.assertEqual((t[rep.SF]["records"], t[rep.SF]["matched"],
                          t[rep.SF]["matched_with_times"]), (1, 1, None))
        self.assertEqual(t[rep.SF]["differences"], {"conversation missing":
                                                    1})
        self.assertEqual((t[rep.NP]["records"], t[rep.NP]["matched"],
                          t[rep.NP]["matched_with_times"],
                          t[rep.NP]["records_are"]), (3, 2, 2, "one-way"))


class TestSummary(TempDir):
    def score_doc(self, name, exact=True):
        tools = {rep.TP: {"records": 10, "matched": 10,
                          "matched_with_times": 10 if exact else 9,
                          "differences": {}},
                 rep.SF: {"records": 9, "matched": 6,
                          "matched_with_times": None, "differences": {}},
                 rep.NP: {"records": 19, "matched": 7,
                          "matched_with_times": 7, "differences": {},
                          "records_are": "one-way"}}
        return self.write(name, json.dumps({"flows": 8, "packets": 30,
                                            "model_records": 10,
                                            "tools": tools}))

    def run_summary(self, times, *args):
        t = self.write("times.tsv", "".join(
            "\t".join(str(x) for x in row) + "\n" for row in times))
        out = self.path("clock.json")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            self.assertEqual(rep.main(["x", "summary", t, out] + list(args)),
                             0)
        with open(out) as f:
            return json.load(f), buf.getvalue()

    def test_medians_ratios_targets_layout(self):
        times = []
        # long: the pipeline 1.0-1.2 s, softflowd 3 s, nfpcapd 2-2.6 s.
        for r, (tp, sf, np_) in enumerate(((1000, 3000, 2000),
                                           (1200, 3100, 2600),
                                           (1100, 2900, 2200)), 1):
            times += [("long", r, rep.TP, tp, 0, 10),
                      ("long", r, rep.SF, sf, 0, 9),
                      ("long", r, rep.NP, np_, 0, 19)]
            times += [("synscan", r, rep.TP, 900, 0, 10),
                      ("synscan", r, rep.SF, 800 + r, 0, 9),
                      ("synscan", r, rep.NP, 1000, 0, 19)]
        doc, text = self.run_summary(
            times, "long=" + self.score_doc("l.json"),
            "synscan=" + self.score_doc("s.json"), "long.span_s=3600",
            "synscan.capture=/x/scan.pcap", "reps=3", "quick=0")
        # The earlier layout at the top level: the long case.
        self.assertEqual((doc["flows"], doc["model_records"]), (8, 10))
        self.assertEqual(doc["tools"][rep.TP]["time_ms"], 1100)
        self.assertEqual(doc["tools"][rep.TP]["matched_with_times"], 10)
        self.assertEqual(doc["time_ratio_sf_over_tp"], 3000 / 1100)
        self.assertEqual((doc["reps"], doc["quick"]), (3, 0))
        lc = doc["cases"]["long"]
        self.assertEqual(lc["span_s"], 3600)
        self.assertEqual(lc["tools"][rep.NP]["time_ms_reps"],
                         [2000, 2600, 2200])
        self.assertEqual((lc["tools"][rep.NP]["time_ms_min"],
                          lc["tools"][rep.NP]["time_ms_max"]), (2000, 2600))
        self.assertEqual(lc["tools"][rep.SF]["records_reps"], [9, 9, 9])
        self.assertEqual(lc["fastest_other"], rep.NP)
        # Per repetition: 1000/2000, 1200/2600, 1100/2200.
        self.assertEqual(lc["ratio_tp_over_fastest_other"],
                         {"median": 0.5, "min": 1200 / 2600, "max": 0.5})
        self.assertEqual(lc["target"]["ratio_at_most"], 0.5)
        self.assertTrue(lc["target"]["met"])
        sc = doc["cases"]["synscan"]
        self.assertEqual(sc["capture"], "/x/scan.pcap")
        self.assertEqual(sc["fastest_other"], rep.SF)
        self.assertEqual(sc["ratio_tp_over_fastest_other"]["median"],
                         900 / 802)
        self.assertFalse(sc["target"]["met"])
        self.assertIn("target <= 0.50: met", text)
        self.assertIn("target < 1.00: missed", text)

    def test_target_needs_exact_records_and_clean_exits(self):
        times = [("synscan", 1, rep.TP, 500, 0, 10),
                 ("synscan", 1, rep.SF, 800, 0, 9),
                 ("synscan", 1, rep.NP, 1000, 0, 19)]
        doc, text = self.run_summary(
            times, "synscan=" + self.score_doc("s.json", exact=False))
        self.assertNotIn("flows", doc)      # no long case
        t = doc["cases"]["synscan"]["target"]
        self.assertFalse(t["pipeline_records_exact"])
        self.assertFalse(t["met"])
        self.assertIn("not exactly the model's", text)
        times[2] = ("synscan", 1, rep.NP, 1000, 124, 19)
        doc, text = self.run_summary(times,
                                     "synscan=" + self.score_doc("s.json"))
        t = doc["cases"]["synscan"]["target"]
        self.assertEqual((t["every_run_exit_0"], t["met"]), (False, False))
        self.assertIn("exit [124]", text)

    def test_by_distance(self):
        # synscan, 4 reps: the pipeline 450 ms near and 600 far, nfpcapd
        # 500 near and 550 far; rep 4's pipeline run had both distances.
        hops = self.path("hop")
        os.makedirs(hops)
        plan = {1: "near", 2: "far", 3: "near", 4: "far"}
        times = []
        t0 = 1796600000000
        for r, band in plan.items():
            for a, tool, ms in (("tp", rep.TP, 450 if band == "near"
                                 else 600),
                                ("np", rep.NP, 500 if band == "near"
                                 else 550),
                                ("sf", rep.SF, 900)):
                times.append(("synscan", r, tool, ms, 0, 10))
                start = t0 + 10000 * r + {"tp": 0, "np": 3000,
                                          "sf": 6000}[a]
                ns = [30 if band == "near" else 135] * 8
                if r == 4 and a == "tp":
                    ns[3] = 30
                # A preempted sample and one outside the span: no effect
                # on the label.
                rows = ["%d %d" % (start + 100 * i, x)
                        for i, x in enumerate(ns)]
                rows.append("%d %d" % (start + 2000, 30 if band == "far"
                                       else 135))
                self.write(os.path.join("hop", "synscan.%s.%d.hop" % (a, r)),
                           "\n".join(rows) + "\n")
                self.write(os.path.join("hop", "synscan.%s.%d.span" % (a, r)),
                           "%d %d\n" % (start, start + 800))
        doc, text = self.run_summary(
            times, "synscan=" + self.score_doc("s.json"), "hops=" + hops)
        self.assertEqual(doc["cpu_distance"]["near_ns"], 30)
        self.assertEqual(doc["cpu_distance"]["far_ns"], 135)
        bd = doc["cases"]["synscan"]["by_distance"]
        self.assertEqual(doc["cases"]["synscan"]["fastest_other"], rep.NP)
        near, far = bd["near"], bd["far"]
        self.assertEqual(near["tools"][rep.TP], {"time_ms": 450, "runs": 2})
        self.assertEqual(far["tools"][rep.TP], {"time_ms": 600, "runs": 1})
        self.assertEqual(far["tools"][rep.NP], {"time_ms": 550, "runs": 2})
        self.assertAlmostEqual(near["ratio_tp_over_fastest_other"], 0.9)
        self.assertAlmostEqual(far["ratio_tp_over_fastest_other"],
                               600 / 550)
        self.assertEqual(bd["runs_mixed"], 1)
        self.assertIn("CPUs near", text)
        # Without samples: no by_distance, no cpu_distance.
        doc, _ = self.run_summary(times, "synscan=" +
                                  self.score_doc("s.json"))
        self.assertNotIn("by_distance", doc["cases"]["synscan"])
        self.assertNotIn("cpu_distance", doc)

    def test_output_bytes_and_fresh_pages(self):
        times = [("synscan", r, t, 500, 0, 10) for r in (1, 2, 3)
                 for t in (rep.TP, rep.SF, rep.NP)]
        # The pipeline wrote 1, 3 and 2 GB, nfpcapd 0.25 GB each time.
        nb = self.write("bytes.tsv", "".join(
            "synscan\t%d\t%s\t%d\n" % (r, t, n) for r, t, n in (
                (1, rep.TP, 2**30), (2, rep.TP, 3 * 2**30),
                (3, rep.TP, 2 * 2**30), (1, rep.NP, 2**28),
                (2, rep.NP, 2**28), (3, rep.NP, 2**28))))
        # Fresh pages: the first pass's second half 3000 ms/GB; reused
        # 500.
        first = [400.0, 450.0, 2900.0, 3100.0]
        again = [500.0, 480.0, 520.0, 500.0]
        pages = self.write("pages.json", json.dumps(dict(
            bench_pages.summarise(first, again), dir="/tmp")))
        doc, text = self.run_summary(
            times, "synscan=" + self.score_doc("s.json"),
            "fresh_pages=" + pages, "output_bytes=" + nb)
        self.assertEqual(doc["fresh_pages"]["fresh_ms_per_gb"], 3000.0)
        self.assertEqual(doc["fresh_pages"]["reused_ms_per_gb"], 500.0)
        tools = doc["cases"]["synscan"]["tools"]
        self.assertEqual(tools[rep.TP]["output_bytes"], 2 * 2**30)
        self.assertEqual(tools[rep.TP]["fresh_pages_extra_ms"], 5000.0)
        self.assertEqual(tools[rep.NP]["fresh_pages_extra_ms"], 625.0)
        self.assertNotIn("output_bytes", tools[rep.SF])   # none recorded
        self.assertEqual(doc["fresh_pages"]["warm_mb"], 512)
        self.assertIn("fresh 3000 past 512 MB warm, reused 500", text)
        self.assertIn("writes   2048 MB: up to 5000 ms more on fresh pages",
                      text)
        # No chunk twice as slow as the reused ones: no fresh page seen,
        # no estimate.
        warm = self.write("warm.json", json.dumps(dict(
            bench_pages.summarise([400.0, 450.0, 900.0, 980.0], again),
            dir="/tmp")))
        doc, text = self.run_summary(
            times, "synscan=" + self.score_doc("s.json"),
            "fresh_pages=" + warm, "output_bytes=" + nb)
        self.assertEqual(doc["fresh_pages"]["warm_mb"], 1024)
        self.assertIsNone(
            doc["cases"]["synscan"]["tools"][rep.TP]["fresh_pages_extra_ms"])
        self.assertIn("no fresh page in 2048 MB", text)
        # Without the probe: the bytes, no estimate; a failed probe says
        # so.
        bad = self.write("bad.json", json.dumps({"error": "ENOSPC",
                                                 "dir": "/tmp"}))
        doc, text = self.run_summary(
            times, "synscan=" + self.score_doc("s.json"),
            "fresh_pages=" + bad, "output_bytes=" + nb)
        self.assertIsNone(
            doc["cases"]["synscan"]["tools"][rep.TP]["fresh_pages_extra_ms"])
        self.assertIn("probe failed (ENOSPC)", text)


def main():
    return tplib.unittest_main("bench_clock_report", sys.modules[__name__])


if __name__ == "__main__":
    sys.exit(main())
