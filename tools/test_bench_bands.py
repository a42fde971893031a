#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Unit tests of tools/bench_bands.py and the "bands" of
tools/bench_pipeline_report.py (stdlib only, no DPDK).

    python3 tools/test_bench_bands.py [-v]

tools/cpu_hop itself where CPU_HOP names it (meson test does) and there
are 2 CPUs: its samples and its refusals. The split of cpu_hop samples
into near and far (and refusing to split one group), the label of each
second, and the report's forwarding rates and ratios at each distance
from generated logs, where the programs drew the two distances unevenly. The last line is
"RESULT bench_bands: N passed, N failed"; the exit status is 0 iff none
failed.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_bands as bb  # noqa: E402
import bench_pipeline_report as bpr  # noqa: E402
import tplib  # noqa: E402

T0 = 1796600000000  # unix ms
NEAR, FAR = 30, 135  # ns, as cpu_hop reads this VM


class Split(unittest.TestCase):
    def test_two_groups(self):
        v = [NEAR + i % 5 for i in range(30)] + \
            [FAR + i % 7 for i in range(10)]
        sp = bb.split(v)
        self.assertIsNotNone(sp)
        self.assertTrue(NEAR + 5 < sp["threshold_ns"] < FAR)
        self.assertEqual(sp["readings"], 40)
        self.assertEqual(sp["far_share"], 0.25)
        self.assertEqual(sp["near_ns"], 32)
        self.assertEqual(sp["far_ns"], 137)

    def test_outliers(self):
        # Preempted samples (tens of us) neither form the far group nor
        # pull the split: 10 % near, 5 % far, a few 90 us.
        v = [NEAR] * 30 + [FAR] * 15 + [92000, 95000, 60000]
        sp = bb.split(v)
        self.assertIsNotNone(sp)
        self.assertEqual((sp["near_ns"], sp["far_ns"]), (NEAR, FAR))
        self.assertEqual((sp["readings"], sp["dropped"]), (45, 3))
        # Outliers alone beside one group: one group.
        self.assertIsNone(bb.split([NEAR] * 40 + [92000] * 3))

    def test_one_group(self):
        # Spread, but never twice apart: nothing told apart.
        self.assertIsNone(bb.split([40 + i for i in range(60)]))
        # Too few samples, or a far group of fewer than 3.
        self.assertIsNone(bb.split([NEAR] * 10 + [FAR] * 9))
        self.assertIsNone(bb.split([NEAR] * 40 + [FAR] * 2))
        # Samples that did not happen (-1, 0) are not readings.
        self.assertIsNone(bb.split([-1] * 40 + [NEAR] * 5))

    def test_load(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.hop")
            with open(p, "w") as f:
                f.write("%d 31\n%d -1\nnoise\n%d 140\n%d" %
                        (T0, T0 + 100, T0 + 200, T0 + 300))
            self.assertEqual(bb.load(p), [(T0, 31), (T0 + 200, 140)])
            self.assertEqual(bb.load(os.path.join(d, "none")), [])


class Label(unittest.TestCase):
    hop = [(T0 + 1000 + 100 * i, NEAR) for i in range(15)] + \
        [(T0 + 2600 + 100 * i, FAR) for i in range(20)]

    def test_label(self):
        # [T0 + 1 s, T0 + 2.5 s]: all near.
        self.assertEqual(bb.label(self.hop, T0, 2, 80), "near")
        # [T0 + 3 s, T0 + 4.5 s]: all far.
        self.assertEqual(bb.label(self.hop, T0, 4, 80), "far")
        # [T0 + 2 s, T0 + 3.5 s]: both: no label.
        self.assertIsNone(bb.label(self.hop, T0, 3, 80))
        # No sample at all.
        self.assertIsNone(bb.label(self.hop, T0, 9, 80))
        # The program's second may start up to 0.5 s after its launch: a
        # change within 0.5 s after the window leaves it unlabelled.
        late = [(T0 + 1000 + 100 * i, NEAR) for i in range(13)] + \
            [(T0 + 2300, FAR)]
        self.assertIsNone(bb.label(late, T0, 2, 80))
        self.assertEqual(bb.label(late[:-1], T0, 2, 80), "near")

    def test_band_rates(self):
        got = bb.band_rates([(2, 6.0e6), (3, 5.0e6), (4, 4.0e6)], self.hop,
                            T0, 80)
        self.assertEqual(got, {"near": [6.0e6], "far": [4.0e6], "mixed": 1})


@unittest.skipUnless(os.environ.get("CPU_HOP") and (os.cpu_count() or 1) >= 2,
                     "CPU_HOP (the built tools/cpu_hop) and 2 CPUs")
class CpuHop(unittest.TestCase):
    def hop(self, *args):
        return subprocess.run([os.environ["CPU_HOP"]] + list(args),
                              capture_output=True, text=True, timeout=20)

    def test_samples(self):
        # 1 s at 50 ms: 20 samples, in time order, most of them a time.
        p = self.hop("-a", "0", "-b", "1", "-i", "50", "-d", "1")
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [tuple(int(x) for x in line.split())
                for line in p.stdout.split("\n") if line]
        self.assertEqual(len(rows), 20)
        self.assertEqual([ms for ms, _ in rows],
                         sorted(ms for ms, _ in rows))
        self.assertTrue(all(ns == -1 or 0 < ns < 10 ** 6 for _, ns in rows))
        self.assertGreaterEqual(sum(ns > 0 for _, ns in rows), 10)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.hop")
            with open(path, "w") as f:
                f.write(p.stdout)
            self.assertEqual(bb.load(path), [r for r in rows if r[1] > 0])
        ts = [r[0] for r in rows]
        self.assertTrue(900 <= ts[-1] - ts[0] <= 1500, ts)

    def test_refusals(self):
        for args in (("-a", "0", "-b", "0"), ("-i", "5"), ("-i", "x"),
                     ("-z",), ("extra",)):
            p = self.hop(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertTrue(p.stderr, args)
        p = self.hop("-b", "100000", "-d", "1")
        self.assertEqual(p.returncode, 1)
        self.assertIn("cannot run a thread on CPU 100000", p.stderr)


def l2fwd_log(rates):
    """l2fwd-event's screens, one a second, of these per-second rates."""
    out, total = [], 0
    for r in [0] + rates:
        total += r
        out.append("Total packets sent:  %d\nTotal packets received:  %d"
                   % (total, total))
    return "\n".join(out) + "\n"


def tp_log(rates):
    """timer_pipeline's stats screens, one a second."""
    out, total = [], 0
    for i, r in enumerate([0] + rates):
        total += r
        out.append("=== timer_pipeline stats, %d.0 s ===\n"
                   "  rx       pkts %d bytes 0\n"
                   "  tx       forwarded %d dropped 0" % (i + 1, total, total))
    return "\n".join(out) + "\n"


class Report(unittest.TestCase):
    def run_report(self, hop_near):
        """Two reps of l2fwd and tp_direct_lazy, 8 s each; in hop_near
        runs the CPUs are near all along, in the others far. l2fwd
        forwards 6 near and 4 far, the pipeline 5 % more at each."""
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d, True)
        rate = {("l2fwd", True): 6.0e6, ("l2fwd", False): 4.0e6,
                ("tp_direct_lazy", True): 6.3e6,
                ("tp_direct_lazy", False): 4.2e6}
        for r in (1, 2):
            for p in ("l2fwd", "tp_direct_lazy"):
                near = (p, r) in hop_near
                start = T0 + 60000 * r + (30000 if p != "l2fwd" else 0)
                rates = [rate[(p, near)]] * 8
                base = os.path.join(d, "%s.%d" % (p, r))
                with open(base + ".log", "w") as f:
                    f.write(l2fwd_log(rates) if p == "l2fwd"
                            else tp_log(rates))
                with open(base + ".start", "w") as f:
                    f.write("%d\n" % start)
                with open(base + ".hop", "w") as f:
                    for i in range(100):
                        f.write("%d %d\n" % (start + 100 * i,
                                             NEAR if near else FAR))
        args = argparse.Namespace(
            logs=d, out=d, reps=2, secs=8, quick=0,
            progs="l2fwd tp_direct_lazy", aging="", wall=0, mem="")
        return bpr.build(args)

    def test_uneven_draw(self):
        # l2fwd drew near twice, the pipeline far once: the ratio of the
        # medians is below 1, and 1.05 at each distance.
        doc = self.run_report({("l2fwd", 1), ("l2fwd", 2),
                               ("tp_direct_lazy", 1)})
        self.assertLess(doc["ratios"]["direct_lazy_vs_l2fwd"]
                        ["ratio_of_medians"], 1.0)
        bd = doc["bands"]
        self.assertIsNotNone(bd["split"])
        r = bd["ratios"]["direct_lazy_vs_l2fwd"]
        # l2fwd has no far second: no far ratio.
        self.assertAlmostEqual(r["near"], 1.05)
        self.assertIsNone(r["far"])
        tp = bd["programs"]["tp_direct_lazy"]
        self.assertAlmostEqual(tp["near"]["median"], 6.3)
        self.assertAlmostEqual(tp["far"]["median"], 4.2)
        # 8 screens, 2 warm-up seconds and the last one dropped: 5 a run.
        self.assertEqual(tp["near"]["seconds"], 5)
        self.assertEqual(tp["far"]["seconds"], 5)
        self.assertIn("by distance between the CPUs", bpr.table(doc))

    def test_both_distances(self):
        doc = self.run_report({("l2fwd", 1), ("tp_direct_lazy", 2)})
        r = doc["bands"]["ratios"]["direct_lazy_vs_l2fwd"]
        self.assertAlmostEqual(r["near"], 1.05)
        self.assertAlmostEqual(r["far"], 1.05)

    def test_no_samples(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d, True)
        with open(os.path.join(d, "l2fwd.1.log"), "w") as f:
            f.write(l2fwd_log([6.0e6] * 8))
        args = argparse.Namespace(
            logs=d, out=d, reps=1, secs=8, quick=0, progs="l2fwd",
            aging="", wall=0, mem="")
        doc = bpr.build(args)
        self.assertIsNone(doc["bands"])
        self.assertNotIn("by distance", bpr.table(doc))


def main():
    return tplib.unittest_main("bench_bands", sys.modules[__name__])


if __name__ == "__main__":
    sys.exit(main())
