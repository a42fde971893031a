#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Unit tests of tools/gen_pcap.py (stdlib only, no DPDK).

    python3 tools/test_gen_pcap.py [-v]

Each test runs the generator as a user does (a child process) into a
temporary folder and reads its capture back with tplib.pcap_read. The last
line is "RESULT gen_pcap: N passed, N failed"; the exit status is 0 iff
none failed.
"""

import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tplib  # noqa: E402

GEN = os.path.join(HERE, "gen_pcap.py")
KEY = ("ip_version", "proto", "src", "sport", "dst", "dport", "vlan",
       "vlan_inner")

# SHA-256 of captures the generator wrote before it streamed (commit
# 75f4b2c, every flow in memory): streaming must not change a byte.
GOLDEN = (
    ("--seed 42 --flows 150 --malformed 10 --non-ip 4",
     "c2c9b2c91a6f0628015d85e8596c5ef027cd19efaf59eca5835b1527df295687"),
    ("--seed 41 --flows 12 --linktype sll2",
     "065435f981c7ea99b63cfcd0cbc1c8865ad187d81ff275c08260aa48603f7c1e"),
    ("--seed 44 --flows 8 --mixed-linktype raw",
     "0c4866dde1c27b5eec278c0c2f8db23a54d8bffe5bee90f0c398087848250e93"),
    ("--seed 43 --flows 16 --mix tcp=1 --big-tcp 4",
     "3b924bbbccc81976f81e352cd084516e136d186152d569c1d04031921cfd5bae"),
)


class Gen(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_gen_pcap.")

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def gen(self, args, name="g", expect=True):
        """Run the generator; returns (pcap records, expect JSON or None,
        the child's peak RSS in KiB)."""
        cap = self.path(name + ".pcap")
        cmd = [sys.executable, GEN, "-o", cap] + args.split()
        if expect:
            cmd += ["--expect", self.path(name + ".json")]
        subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
        # The largest child's so far: the others here are all smaller.
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        exp = None
        if expect:
            with open(self.path(name + ".json")) as f:
                exp = json.load(f)
        recs = None if "--mixed-linktype" in args else \
            tplib.pcap_read(cap)[2]
        return recs, exp, rss

    def check_consistent(self, recs, exp):
        """Packets in time order; the JSON's counts are the capture's and
        the records'; no two records of one key (unpaced)."""
        times = [(r[0], r[1]) for r in recs]
        self.assertEqual(times, sorted(times))
        self.assertEqual(exp["packets"], len(recs))
        for mode in ("unpaced", "paced"):
            s = exp["summary"][mode]
            self.assertEqual(s["records"], len(exp[mode]))
            self.assertEqual(s["packets"], sum(r["packets_fwd"] +
                                               r["packets_rev"]
                                               for r in exp[mode]))
            self.assertEqual(s["bytes"], sum(r["bytes_fwd"] + r["bytes_rev"]
                                             for r in exp[mode]))
            self.assertEqual(sum(s["end_reasons"].values()), s["records"])
        keys = [tuple(r[k] for k in KEY) for r in exp["unpaced"]]
        self.assertEqual(len(keys), len(set(keys)))
        self.assertEqual(exp["summary"]["unpaced"]["packets"],
                         exp["flow_packets"])

    def test_same_bytes_as_before_streaming(self):
        for i, (args, digest) in enumerate(GOLDEN):
            self.gen(args, "golden%d" % i, expect=False)
            with open(self.path("golden%d.pcap" % i), "rb") as f:
                got = hashlib.sha256(f.read()).hexdigest()
            self.assertEqual(got, digest, args)

    def test_model_matches_capture(self):
        recs, exp, _ = self.gen("--seed 5 --flows 300 --ipv6-pct 40 "
                                "--idle-gap-pct 30 --malformed 20 --non-ip 3")
        self.check_consistent(recs, exp)
        self.assertEqual(exp["flow_packets"], len(recs) - 23)

    def test_big_tcp_segments_counted_in_their_flow(self):
        recs, exp, _ = self.gen("--seed 7 --flows 3 --mix tcp=1 --big-tcp 7")
        self.check_consistent(recs, exp)
        big = [r for r in recs if len(r[3]) == 80000]
        self.assertEqual(len(big), 7)
        self.assertEqual(exp["oversize"], 7)
        small = sum(len(r[3]) for r in recs if len(r[3]) != 80000)
        self.assertEqual(exp["summary"]["unpaced"]["bytes"],
                         small + 7 * 80000)
        # Each right after its flow's first data packet, at its time.
        for i, r in enumerate(recs):
            if len(r[3]) == 80000:
                self.assertEqual(recs[i - 1][:2], r[:2])

    def test_syn_scan_without_reply(self):
        recs, exp, _ = self.gen("--syn-scan none --flows 3000 "
                                "--flow-interval-ms 0.01")
        self.check_consistent(recs, exp)
        self.assertEqual(len(recs), 3000)
        self.assertEqual(exp["summary"]["unpaced"]["end_reasons"],
                         {"idle_timeout": 3000})
        self.assertTrue(all(r["tcp_flags_fwd"] == 0x02 and
                            r["packets_rev"] == 0 for r in exp["unpaced"]))

    def test_syn_scan_with_rst(self):
        recs, exp, _ = self.gen("--syn-scan rst --flows 2000 "
                                "--flow-interval-ms 0.01 --gap-ms 0.1-2")
        self.check_consistent(recs, exp)
        self.assertEqual(len(recs), 4000)
        self.assertEqual(exp["summary"]["unpaced"]["end_reasons"],
                         {"end_of_flow": 2000})
        self.assertTrue(all(r["tcp_flags_rev"] == 0x14
                            for r in exp["unpaced"]))

    def test_udp_flood(self):
        recs, exp, _ = self.gen("--udp-flood --flows 3000 --size 64-128 "
                                "--flow-interval-ms 0.001")
        self.check_consistent(recs, exp)
        self.assertEqual(len(recs), 3000)
        self.assertTrue(all(64 <= len(r[3]) <= 128 for r in recs))
        self.assertEqual(exp["summary"]["unpaced"]["end_reasons"],
                         {"idle_timeout": 3000})

    def test_summary_only(self):
        _, full, _ = self.gen("--seed 9 --flows 50", "full")
        _, summ, _ = self.gen("--seed 9 --flows 50 --summary-only", "summ")
        self.assertNotIn("unpaced", summ)
        self.assertNotIn("paced", summ)
        for k in ("unpaced", "paced"):
            del full[k]
        self.assertEqual(summ, full)

    def test_bounded_memory(self):
        # 100,000 one-packet flows: ~130 MB when every flow was held.
        recs, exp, rss = self.gen("--seed 3 --flows 100000 --mix udp=1 "
                                  "--pkts 1 --size 64 --summary-only",
                                  expect=True)
        self.assertEqual(len(recs), 100000)
        self.assertEqual(exp["summary"]["unpaced"]["records"], 100000)
        self.assertLess(rss, 64 * 1024, "peak RSS %d KiB" % rss)


def main():
    return tplib.unittest_main("gen_pcap", sys.modules[__name__])


if __name__ == "__main__":
    sys.exit(main())
