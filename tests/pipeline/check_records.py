#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Checks for the pipeline tests (Python 3 stdlib only).

  check_records.py records FLOWLOG EXPECT.json --mode paced|unpaced
      The flow records (JSON lines) must equal the expected ones: same
      count, and per flow the same key, end reason, packets, bytes and TCP
      flags per direction (and first/last packet times when paced).
  check_records.py same FLOWLOG_A FLOWLOG_B
      Two runs (e.g. the two adapters) gave the same records.
  check_records.py pcap-equal IN.pcap OUT.pcap [--minus N] [--mac PORT]
      OUT holds the frames of IN (as a multiset), less N dropped ones; with
      --mac, OUT's destination MACs are 02:00:00:00:00:PORT and the MACs
      are left out of the comparison (--no-mac: plain comparison).
  check_records.py doubled FLOWLOG EXPECT.json
      Same as records --mode unpaced with every packet seen twice (the
      capture read through two RX queues).
  check_records.py reasons FLOWLOG
      Print a count of records by end reason.
  check_records.py cut FULL_FLOWLOG CUT_FLOWLOG N
      The records of a capture cut to N bytes per packet (tcpdump -s N)
      equal those of the whole capture, less what the cut removed, each
      listed: no ports where the L4 header is cut inside them, no TCP flags
      (and so idle_timeout for end_of_flow) where it is cut before them.
      For captures without IPv6 extension headers (the record does not
      say a flow had them).
  check_records.py uniform FLOWLOG
      Records of pcap_tool.py uniform: flow i (sport 10000+i) counts
      200+7i bytes per packet, whatever packets it lost.
Exit status 0 when the check holds; the reason is printed otherwise.
"""

import collections
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
import tplib  # noqa: E402

KEY = ("ip_version", "proto", "src", "sport", "dst", "dport", "vlan",
       "vlan_inner")
VALUES = ("end_reason", "packets_fwd", "bytes_fwd", "packets_rev",
          "bytes_rev", "tcp_flags_fwd", "tcp_flags_rev")
TIMES = ("first_ns", "last_ns")


def canon(rec, fields):
    return tuple(rec.get(k) for k in fields)


def sort_key(rec):
    return canon(rec, KEY) + (rec.get("first_ns", 0),)


def compare(got, want, fields, label_got, label_want):
    """Multiset comparison of records projected on 'fields'."""
    g = collections.Counter(canon(r, fields) for r in got)
    w = collections.Counter(canon(r, fields) for r in want)
    if g == w:
        return True
    print("records differ: %d %s, %d %s" % (len(got), label_got, len(want),
                                            label_want))
    for k in list((w - g).elements())[:5]:
        print("  missing: " + json.dumps(dict(zip(fields, k))))
    for k in list((g - w).elements())[:5]:
        print("  extra:   " + json.dumps(dict(zip(fields, k))))
    return False


def cmd_records(argv):
    if len(argv) != 4 or argv[2] != "--mode" or \
            argv[3] not in ("paced", "unpaced"):
        sys.exit("usage: records FLOWLOG EXPECT.json --mode paced|unpaced")
    got = tplib.read_jsonl(argv[0])
    with open(argv[1]) as f:
        exp = json.load(f)
    want = exp[argv[3]]
    fields = KEY + VALUES + (TIMES if argv[3] == "paced" else ())
    ok = compare(got, want, fields, "written", "expected")
    if ok:
        print("%d records match (%s)" % (len(got), argv[3]))
    return 0 if ok else 1


def cmd_same(argv):
    a, b = tplib.read_jsonl(argv[0]), tplib.read_jsonl(argv[1])
    ok = compare(a, b, KEY + VALUES, argv[0], argv[1])
    if ok:
        print("%d records identical" % len(a))
    return 0 if ok else 1


def cmd_doubled(argv):
    """Every expected (unpaced) flow once, with twice its packets/bytes."""
    got = tplib.read_jsonl(argv[0])
    with open(argv[1]) as f:
        want = json.load(f)["unpaced"]
    for r in want:
        for k in ("packets_fwd", "bytes_fwd", "packets_rev", "bytes_rev"):
            r[k] *= 2
    ok = compare(got, want, KEY + VALUES, "written", "expected (x2)")
    if ok:
        print("%d records match, packets doubled" % len(got))
    return 0 if ok else 1


# Bytes of the L4 header a record's fields need: ports, TCP flags.
PORTS_END, FLAGS_END = 4, 14


def cut_view(rec, n):
    """The record of the same flow in a capture cut to n bytes, and what
    the cut removed."""
    r = dict(rec)
    off = 14 + 4 * (rec["vlan"] != 0) + 4 * (rec["vlan_inner"] != 0) + \
        (20 if rec["ip_version"] == 4 else 40)
    removed = []
    if rec["proto"] in (6, 17) and off + PORTS_END > n:
        r["sport"] = r["dport"] = 0
        removed.append("ports")
    if rec["proto"] == 6 and off + FLAGS_END > n:
        r["tcp_flags_fwd"] = r["tcp_flags_rev"] = 0
        removed.append("tcp_flags")
        if r["end_reason"] == "end_of_flow":
            r["end_reason"] = "idle_timeout"
            removed.append("end_of_flow")
    return r, removed


def cmd_cut(argv):
    full, cut, n = tplib.read_jsonl(argv[0]), tplib.read_jsonl(argv[1]), \
        int(argv[2])
    want = {}
    removed = collections.Counter()
    for rec in full:
        r, rm = cut_view(rec, n)
        removed.update(rm)
        k = canon(r, KEY)
        if k in want:   # flows that only the cut fields told apart
            for f in ("packets_fwd", "bytes_fwd", "packets_rev",
                      "bytes_rev"):
                want[k][f] += r[f]
            removed["merged"] += 1
        else:
            want[k] = r
    ok = compare(cut, list(want.values()), KEY + VALUES,
                 "with -s %d" % n, "whole, less the cut fields")
    print("-s %d: %d records, %d of the whole capture; removed by the cut: "
          "ports %d, tcp_flags %d (end_of_flow -> idle_timeout %d), "
          "merged flows %d" % (n, len(cut), len(full), removed["ports"],
                               removed["tcp_flags"], removed["end_of_flow"],
                               removed["merged"]))
    return 0 if ok else 1


def cmd_uniform(argv):
    recs = tplib.read_jsonl(argv[0])
    bad = [r for r in recs if r["proto"] != 17 or r["packets_rev"] != 0 or
           r["bytes_fwd"] != r["packets_fwd"] *
           (200 + 7 * (r["sport"] - 10000))]
    for r in bad[:5]:
        print("  wrong: sport %d, %d packets, %d bytes" %
              (r["sport"], r["packets_fwd"], r["bytes_fwd"]))
    if bad or not recs:
        print("%d of %d records do not count their packets' wire length" %
              (len(bad), len(recs)))
        return 1
    print("%d records, %d packets, each at its wire length" %
          (len(recs), sum(r["packets_fwd"] for r in recs)))
    return 0


def read_frames(path):
    """The frames of a pcap file, in order."""
    try:
        return [r[3] for r in tplib.pcap_read(path)[2]]
    except ValueError as e:
        sys.exit(str(e))


def cmd_pcap_equal(argv):
    minus, mac_port = 0, None
    opts = argv[2:]
    while opts:
        if opts[0] == "--minus":
            minus = int(opts[1])
        elif opts[0] == "--mac":
            mac_port = int(opts[1])
        elif opts[0] != "--no-mac":
            sys.exit("pcap-equal: unknown option " + opts[0])
        opts = opts[2:]
    a, b = read_frames(argv[0]), read_frames(argv[1])
    if mac_port is not None:
        # --mac-updating: destination 02:00:00:00:00:<port>, our source.
        dst = bytes([2, 0, 0, 0, 0, mac_port])
        bad = [f for f in b if f[:6] != dst]
        if bad:
            print("%d frames without destination MAC %s" %
                  (len(bad), dst.hex(":")))
            return 1
        a = [f[12:] for f in a]
        b = [f[12:] for f in b]
    ca, cb = collections.Counter(a), collections.Counter(b)
    extra = cb - ca
    missing = sum((ca - cb).values())
    if extra or missing != minus:
        print("output capture: %d frames, input %d: %d not in the input, "
              "%d input frames missing (expected %d)" %
              (len(b), len(a), sum(extra.values()), missing, minus))
        return 1
    print("output capture holds the %d input frames (%d dropped)" %
          (len(b), minus))
    return 0


def cmd_reasons(argv):
    c = collections.Counter(r["end_reason"]
                            for r in tplib.read_jsonl(argv[0]))
    for reason, n in sorted(c.items()):
        print("  %-18s %d" % (reason, n))
    return 0


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmds = {"records": cmd_records, "same": cmd_same, "doubled": cmd_doubled,
            "pcap-equal": cmd_pcap_equal, "reasons": cmd_reasons,
            "cut": cmd_cut, "uniform": cmd_uniform}
    if sys.argv[1] not in cmds:
        sys.exit(__doc__)
    return cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
