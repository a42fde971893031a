#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Unit tests of tools/bench_fwd_versions.py (stdlib only, no DPDK).

    python3 tools/test_bench_fwd_versions.py [-v]

Reports of bench_pipeline.sh written here for two versions: each
version's rates and ratios carried over, the target met only when it
holds on every version, a version without the pipeline's run counted as
missed, and a report that is not there refused. The last line is
"RESULT bench_fwd_versions: N passed, N failed"; the exit status is 0
iff none failed.
"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_fwd_versions as bfv  # noqa: E402
import tplib  # noqa: E402


def summary(reps):
    s = sorted(reps)
    return {"median": s[len(s) // 2], "min": s[0], "max": s[-1],
            "reps": reps}


def report(dpdk, l2fwd, lazy, near=None, far=None):
    """A bench_pipeline.sh report: l2fwd-event's and the lazy pipeline's
    per-repetition rates (lazy None: the pipeline was not run)."""
    fwd = {"l2fwd": summary(l2fwd)}
    ratios = {}
    if lazy is not None:
        fwd["tp_direct_lazy"] = summary(lazy)
        pairs = [a / b for a, b in zip(lazy, l2fwd)]
        ratios["direct_lazy_vs_l2fwd"] = {
            "ratio_of_medians": fwd["tp_direct_lazy"]["median"] /
            fwd["l2fwd"]["median"],
            "pair_min": min(pairs), "pair_max": max(pairs), "target": 1.0,
            "met": True}
    return {"conditions": {"reps": len(l2fwd), "secs_per_run": 10},
            "forwarding_Mpps": fwd, "ratios": ratios,
            "bands": {"ratios": {"direct_lazy_vs_l2fwd":
                                 {"near": near, "far": far}}},
            "run": {"dpdk": dpdk, "dpdk_prefix": "/usr"}}


class FwdVersions(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir, True)

    def write(self, name, doc):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    def test_both_met(self):
        a = self.write("a.json", report("22.11.11", [4.0, 6.0, 4.0],
                                        [5.0, 6.2, 4.4], 1.05, 1.1))
        b = self.write("b.json", report("25.11.2", [3.8, 5.9, 3.7],
                                        [4.4, 6.1, 4.3]))
        doc = bfv.build([a, b], "2026-12-07T10:00:00Z", "abc1234", False)
        self.assertTrue(doc["target"]["met_on_every_version"])
        self.assertEqual(doc["run"]["dpdk"], ["22.11.11", "25.11.2"])
        v = doc["versions"][0]
        self.assertEqual(v["dpdk"], "22.11.11")
        self.assertAlmostEqual(
            v["ratios"]["direct_lazy_vs_l2fwd"]["ratio_of_medians"], 1.25)
        self.assertAlmostEqual(v["ratios"]["direct_lazy_vs_l2fwd"]["near"],
                               1.05)
        self.assertAlmostEqual(v["forwarding_Mpps"]["l2fwd"]["median"], 4.0)
        self.assertIsNone(v["forwarding_Mpps"]["tp_direct_every"])
        self.assertIn("met", bfv.table(doc).splitlines()[-1])

    def test_one_missed(self):
        # Met on one version, 0.89 on the other: missed.
        a = self.write("a.json", report("22.11.11", [4.0] * 3, [6.0] * 3))
        b = self.write("b.json", report("25.11.2", [4.6] * 3, [4.1] * 3))
        doc = bfv.build([a, b])
        self.assertTrue(doc["versions"][0]["met"])
        self.assertFalse(doc["versions"][1]["met"])
        self.assertFalse(doc["target"]["met_on_every_version"])
        self.assertTrue(bfv.table(doc).endswith("MISSED"))

    def test_not_run(self):
        # A version whose pipeline did not run has no ratio: missed.
        a = self.write("a.json", report("22.11.11", [4.0] * 3, [6.0] * 3))
        b = self.write("b.json", report("25.11.2", [4.0] * 3, None))
        doc = bfv.build([a, b])
        self.assertIsNone(doc["versions"][1]["ratios"][bfv.TARGET])
        self.assertFalse(doc["target"]["met_on_every_version"])
        self.assertIn("-", bfv.table(doc))

    def test_missing_report(self):
        a = self.write("a.json", report("22.11.11", [4.0] * 3, [6.0] * 3))
        out = os.path.join(self.dir, "out.json")
        err = io.StringIO()
        sys.argv = ["bench_fwd_versions.py", "--out", out, a,
                    os.path.join(self.dir, "none.json")]
        with contextlib.redirect_stderr(err):
            self.assertEqual(bfv.main(), 1)
        self.assertIn("none.json", err.getvalue())
        self.assertFalse(os.path.exists(out))
        sys.argv = ["bench_fwd_versions.py", "--out", out, "--dirty",
                    "false", a]
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(bfv.main(), 0)
        with open(out) as f:
            doc = json.load(f)
        self.assertIs(doc["run"]["commit_dirty"], False)
        self.assertTrue(doc["target"]["met_on_every_version"])


def main():
    return tplib.unittest_main("bench_fwd_versions", sys.modules[__name__])


if __name__ == "__main__":
    sys.exit(main())
