#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Unit tests of tools/tplib.py (stdlib only, no DPDK).

    python3 tools/test_tplib.py [-v]

The telemetry client talks to a fake SOCK_SEQPACKET server in a temporary
folder. The last line is "RESULT tools: N passed, N failed"; the exit
status is 0 iff none failed.
"""

import json
import os
import random
import socket
import struct
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tplib  # noqa: E402


class TempDir(unittest.TestCase):
    """A fresh temporary folder per test, self.path(name) inside it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_tplib.")

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, data):
        mode = "wb" if isinstance(data, bytes) else "w"
        with open(self.path(name), mode) as f:
            f.write(data)
        return self.path(name)


class TestJsonLines(TempDir):
    def test_reads_objects_in_order_skipping_blank_lines(self):
        p = self.write("a.json", '{"a": 1}\n\n  \n{"b": [2, 3]}\n')
        self.assertEqual(tplib.read_jsonl(p), [{"a": 1}, {"b": [2, 3]}])

    def test_empty_file(self):
        self.assertEqual(tplib.read_jsonl(self.write("e.json", "")), [])

    def test_bad_line_exits_naming_file_and_line(self):
        p = self.write("bad.json", '{"a": 1}\n{"b": \n')
        with self.assertRaises(SystemExit) as cm:
            tplib.read_jsonl(p)
        self.assertTrue(str(cm.exception.code).startswith(p + ":2: not JSON"),
                        cm.exception.code)

    def test_missing_file(self):
        with self.assertRaises(OSError):
            tplib.read_jsonl(self.path("none.json"))


class TestLateness(unittest.TestCase):
    def hist(self, late_ns):
        h = [0] * tplib.LAT_BUCKETS
        for ns in late_ns:
            h[tplib.lat_bucket(ns)] += 1
        return h

    def test_bucket_bounds(self):
        # bucket 0: under 1 us; bucket b: [2^(b-1), 2^b) us; the last one
        # takes everything above
        for ns, b in ((0, 0), (999, 0), (1000, 1), (1999, 1), (2000, 2),
                      (3999, 2), (4000, 3), (1023999, 10), (1024000, 11),
                      ((1 << 30) * 1000, 31), ((1 << 40) * 1000, 31)):
            self.assertEqual(tplib.lat_bucket(ns), b, ns)

    def test_empty_is_none(self):
        self.assertIsNone(tplib.hist_pct([0] * 32, 99))
        self.assertIsNone(tplib.hist_pct([], 50))

    def test_bucket_upper_bound(self):
        h = [0] * 32
        h[0] = 100
        self.assertEqual(tplib.hist_pct(h, 99), 1)
        h = [0, 99, 0, 1] + [0] * 28
        self.assertEqual(tplib.hist_pct(h, 99), 2)
        self.assertEqual(tplib.hist_pct(h, 100), 8)
        self.assertEqual(tplib.hist_pct(h, 50), 2)

    def test_rank_is_rounded_up(self):
        # n = 150, p99: rank ceil(148.5) = 149 (integer, as the C does)
        h = [0] * 32
        h[2], h[5] = 148, 2
        self.assertEqual(tplib.hist_pct(h, 99), 32)
        h[2], h[5] = 149, 1
        self.assertEqual(tplib.hist_pct(h, 99), 4)

    def test_capped_by_max(self):
        h = [0] * 32
        h[10] = 5
        self.assertEqual(tplib.hist_pct(h, 99), 1024)
        self.assertEqual(tplib.hist_pct(h, 99, max_us=700), 700)
        self.assertEqual(tplib.hist_pct(h, 99, max_us=5000), 1024)

    def test_bound_holds_the_percentile(self):
        # The bound is above the true percentile, and less than twice it.
        rng = random.Random(7)
        for _ in range(50):
            late = sorted(int(rng.expovariate(1 / 20000.0))
                          for _ in range(rng.randint(1, 400)))
            h = self.hist(late)
            for p in (50, 90, 99, 100):
                true_us = late[(len(late) * p + 99) // 100 - 1] // 1000
                bound = tplib.hist_pct(h, p)
                self.assertGreater(bound, true_us)
                self.assertLessEqual(bound, max(1, 2 * true_us))

    def test_window(self):
        a, b = [1, 2, 3], [1, 5, 4]
        self.assertEqual(tplib.hist_window(a, b), [0, 3, 1])
        self.assertEqual(tplib.hist_pct(tplib.hist_window(a, b), 99), 4)


def summary(version=1, **extra):
    doc = {"version": version, "adapter": "direct", "aborted": False,
           "times": {"launch_unix_ms": 1700000000123, "stop_request_ms": 40,
                     "stopped_ms": 55},
           "check": {"passed": True, "flows_live": 0},
           "counters": {"rx_pkts": 10, "forwarded": 9}}
    doc.update(extra)
    return doc


class TestSummary(TempDir):
    def test_versions_1_and_2(self):
        for v in (1, 2):
            p = self.write("s%d.json" % v, json.dumps(summary(v)))
            doc = tplib.load_summary(p)
            self.assertEqual(tplib.summary_get(doc, "rx_pkts"), 10)

    def test_other_versions_refused(self):
        for doc in (summary(3), summary(None), [1, 2], {"counters": {}}):
            p = self.write("s.json", json.dumps(doc))
            with self.assertRaises(ValueError):
                tplib.load_summary(p)

    def test_not_json_refused(self):
        with self.assertRaises(ValueError):
            tplib.load_summary(self.write("s.json", "{"))

    def test_keys(self):
        doc = summary()
        self.assertEqual(tplib.summary_key("rx_pkts"), "counters.rx_pkts")
        self.assertEqual(tplib.summary_key("times.stopped_ms"),
                         "times.stopped_ms")
        self.assertEqual(tplib.summary_get(doc, "times.stopped_ms"), 55)
        self.assertEqual(tplib.summary_get(doc, "check.passed"), True)
        self.assertEqual(tplib.summary_get(doc, "adapter.x"), None)
        self.assertEqual(tplib.summary_get(doc, "nope", -1), -1)
        self.assertEqual(tplib.summary_get(doc, "times.nope"), None)

    def test_version_1_names(self):
        saved = dict(tplib.SUMMARY_V1_NAMES)
        try:
            tplib.SUMMARY_V1_NAMES["counters.rx_packets"] = "counters.rx_pkts"
            self.assertEqual(tplib.summary_get(summary(1), "rx_packets"), 10)
            v2 = summary(2, counters={"rx_packets": 11, "rx_pkts": 12})
            self.assertEqual(tplib.summary_get(v2, "rx_packets"), 11)
        finally:
            tplib.SUMMARY_V1_NAMES.clear()
            tplib.SUMMARY_V1_NAMES.update(saved)

    def test_version_2_renames(self):
        # docs/summary-json.rst: first arms were counters.timers_armed in
        # version 1, every arm only check.timers_armed.
        v1 = summary(1, check={"timers_armed": 8, "packets_rx": 10},
                     counters={"timers_armed": 5})
        v2 = summary(2, check={"timers_armed": 8, "rx_pkts": 10},
                     counters={"timers_armed": 8, "timers_armed_first": 5})
        for doc in (v1, v2):
            self.assertEqual(tplib.summary_get(doc, "timers_armed"), 8)
            self.assertEqual(tplib.summary_get(doc, "timers_armed_first"), 5)
            self.assertEqual(tplib.summary_get(doc, "check.rx_pkts"), 10)

    def test_nums_as_tp_nums_prints_them(self):
        p = self.write("s.json", json.dumps(summary()))
        self.assertEqual(
            tplib.summary_nums(p, ["rx_pkts", "check.passed", "aborted.x",
                                   "times", "missing", "times.stopped_ms"]),
            ["10", "true", "none", "none", "none", "55"])
        self.assertEqual(tplib.summary_nums(self.path("no.json"),
                                            ["rx_pkts", "forwarded"]),
                         ["none", "none"])


class FakeTelemetry:
    """A DPDK-like telemetry v2 server on a SEQPACKET socket: a greeting,
    then one reply per command from a table (null when not in it)."""

    def __init__(self, path, answers, max_len=1024):
        self.answers = answers
        self.max_len = max_len
        self.commands = []
        self.srv = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.srv.bind(path)
        self.srv.listen(4)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            with conn:
                conn.send(json.dumps({"version": "DPDK 22.11.0",
                                      "pid": os.getpid(),
                                      "max_output_len": self.max_len})
                          .encode())
                while True:
                    cmd = conn.recv(1024).decode()
                    if not cmd:
                        break
                    self.commands.append(cmd)
                    name = cmd.split(",")[0]
                    conn.send(json.dumps({name: self.answers.get(cmd)})
                              .encode())

    def close(self):
        self.srv.close()


class TestTelemetry(TempDir):
    def setUp(self):
        super().setUp()
        self.sock = self.path("dpdk_telemetry.v2")
        self.srv = FakeTelemetry(self.sock, {
            "/timer_pipeline/stats": {"rx_pkts": 5,
                                      "lateness_hist_log2_us": [1, 2]},
            "/eal/heap_info,0": {"Alloc_size": 4096},
            "/timer_adapter/list": [0]})

    def tearDown(self):
        self.srv.close()
        super().tearDown()

    def test_path(self):
        self.assertEqual(tplib.telemetry_path("tp_x"),
                         "/var/run/dpdk/tp_x/dpdk_telemetry.v2")
        self.assertEqual(tplib.telemetry_path("p", self.tmp.name),
                         os.path.join(self.tmp.name, "p",
                                      "dpdk_telemetry.v2"))

    def test_greeting_and_call(self):
        with tplib.Telemetry(self.sock) as t:
            self.assertEqual(t.max_len, 1024)
            self.assertEqual(t.greeting["version"], "DPDK 22.11.0")
            self.assertEqual(t.call("/timer_adapter/list"),
                             {"/timer_adapter/list": [0]})
            self.assertEqual(t.call("/nope"), {"/nope": None})
        self.assertEqual(self.srv.commands, ["/timer_adapter/list", "/nope"])

    def test_query(self):
        with tplib.Telemetry(self.sock) as t:
            self.assertEqual(t.query("/timer_pipeline/stats")["rx_pkts"], 5)
            self.assertEqual(t.query("/eal/heap_info,0"),
                             {"Alloc_size": 4096})
            with self.assertRaises(ValueError):
                t.query("/timer_pipeline/flows")       # not registered
            with self.assertRaises(ValueError):
                t.query("/timer_adapter/list")          # not a dict

    def test_no_server(self):
        with self.assertRaises(OSError):
            tplib.Telemetry(self.path("none.v2"))


def pcap_bytes(endian, magic, records, linktype=1, cut=0):
    out = struct.pack(endian + "IHHiIII", magic, 2, 4, 0, 0, 65535, linktype)
    for sec, frac, data in records:
        out += struct.pack(endian + "IIII", sec, frac, len(data),
                           len(data) + 4) + data
    return out[:len(out) - cut]


class TestNfdumpRaw(TempDir):
    RAW = ("Flow Record: \n  Flags        =              0x00 FLOW\n"
           "  src addr     =          10.0.0.1\n"
           "  proto        =                17 (udp)\n"
           "  end reason   =              0x01\n\n"
           "Flow Record: \n  in packets   =                 3\n")

    def test_records(self):
        recs = tplib.nfdump_raw(self.write("r.txt", self.RAW))
        self.assertEqual(len(recs), 2)
        self.assertEqual(recs[0]["src addr"], "10.0.0.1")
        self.assertEqual(tplib.raw_num(recs[0]["proto"]), 17)
        self.assertEqual(tplib.raw_num(recs[0]["end reason"], 16), 1)
        self.assertEqual(tplib.raw_num(recs[1]["in packets"]), 3)


class TestPcap(TempDir):
    RECS = [(1700000000, 5, b"\x01" * 60), (1700000001, 999999, b"\x02" * 14)]

    def test_little_and_big_endian(self):
        for endian in "<>":
            p = self.write("a.pcap", pcap_bytes(endian, tplib.PCAP_MAGIC_US,
                                                self.RECS))
            e, hdr, recs = tplib.pcap_read(p)
            self.assertEqual(e, endian)
            self.assertEqual(hdr[0], tplib.PCAP_MAGIC_US)
            self.assertEqual(hdr[6], 1)
            self.assertEqual(recs, [(s, f, len(d) + 4, d)
                                    for s, f, d in self.RECS])

    def test_times(self):
        p = self.write("us.pcap", pcap_bytes("<", tplib.PCAP_MAGIC_US,
                                             self.RECS))
        _, hdr, recs = tplib.pcap_read(p)
        self.assertEqual(tplib.pcap_ns(hdr, *recs[1][:2]),
                         1700000001999999000)
        p = self.write("ns.pcap", pcap_bytes(">", tplib.PCAP_MAGIC_NS,
                                             self.RECS))
        _, hdr, recs = tplib.pcap_read(p)
        self.assertEqual(tplib.pcap_ns(hdr, *recs[1][:2]),
                         1700000001000999999)

    def test_cut_short(self):
        p = self.write("c.pcap", pcap_bytes("<", tplib.PCAP_MAGIC_US,
                                            self.RECS, cut=4))
        recs = tplib.pcap_read(p)[2]
        self.assertEqual(len(recs), 2)
        self.assertEqual(recs[1][3], b"\x02" * 10)
        p = self.write("h.pcap", pcap_bytes("<", tplib.PCAP_MAGIC_US,
                                            self.RECS, cut=20))
        self.assertEqual(len(tplib.pcap_read(p)[2]), 1)

    def test_empty_and_header_only(self):
        self.assertEqual(tplib.pcap_read(self.write("e.pcap", b"")),
                         (None, None, []))
        p = self.write("g.pcap", pcap_bytes("<", tplib.PCAP_MAGIC_US, []))
        self.assertEqual(tplib.pcap_read(p)[2], [])

    def test_not_a_pcap(self):
        with self.assertRaises(ValueError):
            tplib.pcap_read(self.write("x.pcap", b"\x0a\x0d\x0d\x0a" * 8))


def main():
    return tplib.unittest_main("tools", sys.modules[__name__])


if __name__ == "__main__":
    sys.exit(main())
