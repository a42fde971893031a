#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Checks of the IPFIX export against the pipeline's own flow log.

  ipfix_check.py nfdump RAW.txt FLOWLOG.json
      RAW.txt is `nfdump -r FILE -o raw`. Every record must match one line
      of the flow log (JSON lines): same count, same 5-tuple and VLAN,
      packets and octets in both directions, end reason, first/last ms;
      ICMP records carry the initiator's echo request type.
  ipfix_check.py ipfix STREAM FLOWLOG.json [--not-sent N] [--min-options K]
                [--subset EXPORTED]
      STREAM is an IPFIX file or a captured TCP stream, decoded with
      python3-ipfix (RFC 5103 elements): the same comparison, plus both
      directions' TCP flags and ingressInterface 0; at least K options
      records, the last with notSentFlowTotalCount == N and
      observedFlowTotalCount == records in the flow log. With --subset,
      the stream holds EXPORTED records, each one of the flow log's (the
      others were not sent).
  ipfix_check.py nfdump-uni RAW.txt FLOWLOG.json
      --ipfix-flows uni: every record is one direction with packets of one
      line of the flow log (the reply's 5-tuple swapped, its own packets
      and octets, no reverse counters, the end reason); the initiator's
      starts with the flow, each lies within the flow's first and last ms
      and one of them ends with it.
  ipfix_check.py pmacct OUT.json FLOWLOG.json uni|bi
      OUT.json is nfacctd's print plugin (JSON lines, aggregate src_host,
      dst_host, src_port, dst_port, proto). Packets and bytes per 5-tuple
      must add up to the flow log's: both directions with uni, the
      initiator's only with bi (nfacctd ignores RFC 5103 reverse
      elements); prints the per-direction totals.
  ipfix_check.py count RAW.txt
      Print the number of flow records in nfdump raw output.
  ipfix_check.py totals RAW.txt
      Print its records, packets and octets (both directions).
  ipfix_check.py softflowd RAW_TP.txt RAW_SF.txt
      Compare two nfdump raw dumps by 5-tuple (the pipeline's and
      softflowd's records of one capture); print each kind of difference
      with its count; exit 0 (differences are documented, not failures).
Exit status 0 when the check holds; the reason is printed otherwise.
"""

import calendar
import collections
import ipaddress
import os
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
import tplib  # noqa: E402

ICMP_REQ = {4: 8 << 8, 6: 128 << 8}	# echo request type, code 0


def norm_addr(a):
    return str(ipaddress.ip_address(str(a)))


def log_key(r):
    return (r["ip_version"], r["proto"], norm_addr(r["src"]), r["sport"],
            norm_addr(r["dst"]), r["dport"], r["vlan"])


def log_vals(r):
    return (r["packets_fwd"], r["bytes_fwd"], r["packets_rev"],
            r["bytes_rev"], r["end_reason_code"], r["first_ns"] // 1000000,
            r["last_ns"] // 1000000)


parse_raw = tplib.nfdump_raw
num = tplib.raw_num


def raw_key_vals(r):
    src = ipaddress.ip_address(r["src addr"])
    proto = num(r["proto"])
    icmp = proto in (1, 58)
    key = (src.version, proto, str(src),
           0 if icmp else num(r.get("src port", "0")),
           norm_addr(r["dst addr"]),
           0 if icmp else num(r.get("dst port", "0")),
           max(num(r.get("src vlan", "0")), num(r.get("dst vlan", "0"))))
    vals = (num(r["in packets"]), num(r["in bytes"]),
            num(r.get("out packets", "0")), num(r.get("out bytes", "0")),
            num(r.get("end reason", "0x0"), 16), num(r["first"]),
            num(r["last"]))
    return key, vals, r.get("ICMP", "").split()[0] if icmp else None


def compare(got, want, what):
    g, w = collections.Counter(got), collections.Counter(want)
    if g == w:
        return True
    print("%s differ: %d exported, %d in the flow log" %
          (what, sum(g.values()), sum(w.values())))
    for k in list((w - g).elements())[:5]:
        print("  missing: %s" % (k,))
    for k in list((g - w).elements())[:5]:
        print("  extra:   %s" % (k,))
    return False


def cmd_nfdump(argv):
    raw, log = parse_raw(argv[0]), tplib.read_jsonl(argv[1])
    got, bad_icmp = [], []
    for r in raw:
        k, v, icmp = raw_key_vals(r)
        got.append(k + v)
        if icmp is not None:
            t, c = (int(x) for x in icmp.split("."))
            if (t << 8 | c) != ICMP_REQ[k[0]]:
                bad_icmp.append(icmp)
    ok = compare(got, [log_key(r) + log_vals(r) for r in log], "records")
    if bad_icmp:
        print("ICMP type.code not the echo request: %s" % bad_icmp[:5])
        ok = False
    if ok:
        print("%d records equal" % len(raw))
    return 0 if ok else 1


def ms(dt):
    return calendar.timegm(dt.utctimetuple()) * 1000 + dt.microsecond // 1000


def read_stream(path):
    import ipfix.ie
    import ipfix.reader
    ipfix.ie.use_iana_default()
    ipfix.ie.use_5103_default()
    with open(path, "rb") as f:
        return list(ipfix.reader.from_stream(f).namedict_iterator())


def stream_key_vals(d):
    v6 = "sourceIPv6Address" in d
    src = d["sourceIPv6Address" if v6 else "sourceIPv4Address"]
    dst = d["destinationIPv6Address" if v6 else "destinationIPv4Address"]
    key = (6 if v6 else 4, d["protocolIdentifier"], norm_addr(src),
           d.get("sourceTransportPort", 0), norm_addr(dst),
           d.get("destinationTransportPort", 0), d.get("vlanId", 0))
    vals = (d["packetDeltaCount"], d["octetDeltaCount"],
            d["reversePacketDeltaCount"], d["reverseOctetDeltaCount"],
            d["flowEndReason"], ms(d["flowStartMilliseconds"]),
            ms(d["flowEndMilliseconds"]), d["tcpControlBits"],
            d["reverseTcpControlBits"])
    return key, vals


def cmd_ipfix(argv):
    opts = dict(zip(argv[2::2], argv[3::2]))
    recs = read_stream(argv[0])
    log = tplib.read_jsonl(argv[1])
    data = [d for d in recs if "flowEndReason" in d]
    stats = [d for d in recs if "notSentFlowTotalCount" in d]
    got = [k + v for k, v in map(stream_key_vals, data)]
    want = [log_key(r) + log_vals(r) + (r["tcp_flags_fwd"],
                                        r["tcp_flags_rev"]) for r in log]
    if "--subset" in opts:
        extra = collections.Counter(got) - collections.Counter(want)
        ok = not extra and len(got) == int(opts["--subset"])
        if not ok:
            print("%d records, %s exported; not in the flow log: %s" %
                  (len(got), opts["--subset"], list(extra)[:3]))
    else:
        ok = compare(got, want, "records")
    if any(d.get("ingressInterface") != 0 for d in data):
        print("ingressInterface is not port 0")
        ok = False
    nmin = int(opts.get("--min-options", "2"))
    if len(stats) < nmin:
        print("%d options records, expected at least %d" % (len(stats), nmin))
        ok = False
    elif "--not-sent" in opts:
        last = stats[-1]
        if last["notSentFlowTotalCount"] != int(opts["--not-sent"]) or \
                last["observedFlowTotalCount"] != len(log):
            print("last options record %s: expected notSent %s, observed %d"
                  % (last, opts["--not-sent"], len(log)))
            ok = False
    if ok:
        print("%d records equal, %d options records" % (len(data),
                                                         len(stats)))
    return 0 if ok else 1


def uni_want(log):
    """The flow log as --ipfix-flows uni records: {key: [(vals, flow)]}."""
    want = collections.defaultdict(list)
    for r in log:
        k = log_key(r)
        icmp = r["proto"] in (1, 58)
        if icmp:
            k = k[:3] + (0,) + k[4:5] + (0,) + k[6:]
        want[k].append(((r["packets_fwd"], r["bytes_fwd"], 0, 0,
                         r["end_reason_code"]), r, 0))
        if r["packets_rev"] > 0:
            rk = (k[0], k[1], k[4], k[5], k[2], k[3], k[6])
            want[rk].append(((r["packets_rev"], r["bytes_rev"], 0, 0,
                              r["end_reason_code"]), r, 1))
    return want


def cmd_nfdump_uni(argv):
    raw, log = parse_raw(argv[0]), tplib.read_jsonl(argv[1])
    want = uni_want(log)
    nwant = sum(map(len, want.values()))
    bad = []
    ends = collections.defaultdict(int)
    for rec in raw:
        k, v, _ = raw_key_vals(rec)
        cands = want.get(k, [])
        for i, (vals, r, d) in enumerate(cands):
            first, last = r["first_ns"] // 1000000, r["last_ns"] // 1000000
            if vals == v[:5] and first <= v[5] <= v[6] <= last and \
                    (d == 1 or v[5] == first):
                ends[id(r)] = max(ends[id(r)], v[6])
                del cands[i]
                break
        else:
            bad.append(k + v)
    left = [k for k, c in want.items() for _ in c]
    late = [r["serial"] for r in log
            if ends.get(id(r), -1) != r["last_ns"] // 1000000]
    if bad or left or late:
        print("%d records, %d expected: %d unmatched %s, %d missing %s, "
              "%d flows whose last record does not end with them %s" %
              (len(raw), nwant, len(bad), bad[:3], len(left), left[:3],
               len(late), late[:3]))
        return 1
    print("%d records equal (%d flows)" % (len(raw), len(log)))
    return 0


def cmd_pmacct(argv):
    rows, log, mode = tplib.read_jsonl(argv[0]), tplib.read_jsonl(argv[1]), \
        argv[2]
    got = collections.Counter()
    gotb = collections.Counter()
    for r in rows:
        p = str(r["ip_proto"])
        k = (norm_addr(r["ip_src"]), r.get("port_src", 0),
             norm_addr(r["ip_dst"]), r.get("port_dst", 0),
             int(p) if p.isdigit() else socket.getprotobyname(p))
        got[k] += r["packets"]
        gotb[k] += r["bytes"]
    want = collections.Counter()
    wantb = collections.Counter()
    tot = [0, 0, 0, 0]
    for r in log:
        p = r["proto"]
        icmp = r["proto"] in (1, 58)
        s, d = norm_addr(r["src"]), norm_addr(r["dst"])
        sp, dp = (0, 0) if icmp else (r["sport"], r["dport"])
        tot[0] += r["packets_fwd"]
        tot[1] += r["bytes_fwd"]
        tot[2] += r["packets_rev"]
        tot[3] += r["bytes_rev"]
        want[(s, sp, d, dp, p)] += r["packets_fwd"]
        wantb[(s, sp, d, dp, p)] += r["bytes_fwd"]
        if mode == "uni" and r["packets_rev"] > 0:
            want[(d, dp, s, sp, p)] += r["packets_rev"]
            wantb[(d, dp, s, sp, p)] += r["bytes_rev"]
    print("flow log: forward %d packets %d bytes, reverse %d packets %d "
          "bytes; nfacctd: %d rows, %d packets %d bytes" %
          (tot[0], tot[1], tot[2], tot[3], len(rows), sum(got.values()),
           sum(gotb.values())))
    ok = compare(list(got.items()), list(want.items()),
                 "packets per 5-tuple")
    ok = compare(list(gotb.items()), list(wantb.items()),
                 "bytes per 5-tuple") and ok
    return 0 if ok else 1


def cmd_count(argv):
    print(len(parse_raw(argv[0])))
    return 0


def cmd_totals(argv):
    """Records, packets and octets of an nfdump raw dump."""
    vals = [raw_key_vals(r)[1] for r in parse_raw(argv[0])]
    print(len(vals), sum(v[0] + v[2] for v in vals),
          sum(v[1] + v[3] for v in vals))
    return 0


def canon_biflow(k, v):
    """Order a biflow's ends by (address, port): softflowd puts the lower
    end first, the pipeline the initiator; swap the directions to match."""
    a = (ipaddress.ip_address(k[2]), k[3])
    b = (ipaddress.ip_address(k[4]), k[5])
    if a <= b:
        return k, v
    return ((k[0], k[1], k[4], k[5], k[2], k[3], k[6]),
            (v[2], v[3], v[0], v[1]) + v[4:])


def cmd_softflowd(argv):
    """Side by side by 5-tuple; differences by kind, with examples."""
    dumps = []
    for path in argv[:2]:
        d = collections.defaultdict(list)
        for r in parse_raw(path):
            k, v, _ = raw_key_vals(r)
            k, v = canon_biflow(k, v)
            d[k].append(v)
        dumps.append(d)
    tp, sf = dumps
    kinds = collections.Counter()
    examples = {}

    def note(kind, k):
        kinds[kind] += 1
        examples.setdefault(kind, k)

    for k in set(tp) | set(sf):
        a, b = sorted(tp.get(k, [])), sorted(sf.get(k, []))
        if not b or not a:
            note("only_pipeline" if a else "only_softflowd", k)
            continue
        if len(a) != len(b):
            note("record_count_%d_vs_%d" % (len(a), len(b)), k)
            continue
        for x, y in zip(a, b):
            if (x[0], x[2]) != (y[0], y[2]):
                note("packets", k)
            elif (x[1], x[3]) != (y[1], y[3]):
                # the pipeline counts Ethernet frames, softflowd IP bytes
                l2 = ((x[1] - y[1]) / x[0] if x[0] else 0,
                      (x[3] - y[3]) / x[2] if x[2] else 0)
                note("octets_l2_%s" % "_".join(
                    "%g" % o for o in sorted(set(l2) - {0})), k)
            if x[4] != y[4]:
                note("end_reason_%d_vs_%d" % (x[4], y[4]), k)
            if x[5:] != y[5:]:
                note("times", k)
    print("pipeline %d records, softflowd %d records, %d 5-tuples" %
          (sum(map(len, tp.values())), sum(map(len, sf.values())),
           len(set(tp) | set(sf))))
    for kind, n in sorted(kinds.items()):
        print("  %-24s %6d  e.g. %s" % (kind, n, examples[kind]))
    if not kinds:
        print("  no difference")
    return 0


def main():
    cmds = {"nfdump": cmd_nfdump, "nfdump-uni": cmd_nfdump_uni,
            "pmacct": cmd_pmacct, "ipfix": cmd_ipfix, "count": cmd_count,
            "totals": cmd_totals,
            "softflowd": cmd_softflowd}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    sys.exit(cmds[sys.argv[1]](sys.argv[2:]))


if __name__ == "__main__":
    main()
