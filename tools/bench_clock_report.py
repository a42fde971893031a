#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Records of one capture against the generator's model (Python 3 stdlib).

  bench_clock_report.py MODEL.json FLOWLOG.json SF_RAW.txt T_TP_MS T_SF_MS
                        OUT.json

MODEL.json is gen_pcap.py's --expect file (its "paced" records: idle gaps
longer than the timeout split a conversation), FLOWLOG.json the pipeline's
--flow-log (JSON lines), SF_RAW.txt `nfdump -o raw` of softflowd -r's
export of the same capture, T_*_MS the wall time of each run (start to
exit: its last record was out before). A record matches the model when its
biflow key (5-tuple and VLAN) and packets per direction equal one of the
model's records (each model record is matched once), so a conversation
the model splits at an idle gap matches only if its records are split
there too. "with times" also needs the first and last packet times (ms):
only for the pipeline, since softflowd 1.1.0 exports times relative to its
uptime, which nfdump turns into dates from the export time (docs/ipfix.rst,
"Differences from softflowd"). Bytes and end reasons are left out:
softflowd counts IP bytes, the pipeline Ethernet frames, and their end
reason codes differ. Prints a table and the kinds of differences per tool;
writes OUT.json.
"""

import collections
import ipaddress
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tplib  # noqa: E402


def canon(ver, proto, src, sport, dst, dport, vlan, pf, pr, first, last):
    """Order a biflow's ends by (address, port), directions with them."""
    a = (ipaddress.ip_address(src), sport)
    b = (ipaddress.ip_address(dst), dport)
    if b < a:
        a, b, pf, pr = b, a, pr, pf
    key = (ver, proto, str(a[0]), a[1], str(b[0]), b[1], vlan)
    return key, (pf, pr, first, last)


def from_log(r):
    icmp = r["proto"] in (1, 58)
    return canon(r["ip_version"], r["proto"], r["src"],
                 0 if icmp else r["sport"], r["dst"],
                 0 if icmp else r["dport"], r["vlan"],
                 r["packets_fwd"], r["packets_rev"],
                 r["first_ns"] // 1000000, r["last_ns"] // 1000000)


parse_raw = tplib.nfdump_raw
num = tplib.raw_num


def from_raw(r):
    src = ipaddress.ip_address(r["src addr"])
    proto = num(r["proto"])
    icmp = proto in (1, 58)
    return canon(src.version, proto, str(src),
                 0 if icmp else num(r.get("src port", "0")),
                 str(ipaddress.ip_address(r["dst addr"])),
                 0 if icmp else num(r.get("dst port", "0")),
                 max(num(r.get("src vlan", "0")), num(r.get("dst vlan", "0"))),
                 num(r["in packets"]), num(r.get("out packets", "0")),
                 num(r["first"]), num(r["last"]))


def score(model, got, times):
    """Matched records and the kinds of differences, per conversation."""
    m, g = collections.defaultdict(list), collections.defaultdict(list)
    for k, v in model:
        m[k].append(v if times else v[:2])
    for k, v in got:
        g[k].append(v if times else v[:2])
    matched = 0
    kinds = collections.Counter()
    for k in set(m) | set(g):
        a, b = collections.Counter(m.get(k, [])), collections.Counter(
            g.get(k, []))
        matched += sum((a & b).values())
        na, nb = sum(a.values()), sum(b.values())
        if na == nb and a == b:
            continue
        if nb == 0:
            kinds["conversation missing"] += 1
        elif na == 0:
            kinds["conversation not in the model"] += 1
        elif nb < na:
            kinds["fewer records (idle splits missed)"] += 1
        elif nb > na:
            kinds["more records"] += 1
        else:
            kinds["same records, other packets or times"] += 1
    return matched, kinds


def main(argv):
    if len(argv) != 7:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        exp = json.load(f)
    model = [from_log(r) for r in exp["paced"]]
    with open(argv[2]) as f:
        tp = [from_log(json.loads(line)) for line in f if line.strip()]
    sf = [from_raw(r) for r in parse_raw(argv[3])]
    t_tp, t_sf = int(argv[4]), int(argv[5])
    out = {"flows": exp["flows"], "model_records": len(model), "tools": {}}
    print("%-22s %9s %9s %8s %11s %9s" % ("", "records", "match",
                                            "match %", "with times",
                                            "time ms"))
    print("%-22s %9d" % ("model (paced)", len(model)))
    for name, recs, t, times in (("pipeline --clock capture", tp, t_tp, True),
                                 ("softflowd -r", sf, t_sf, False)):
        matched, kinds = score(model, recs, False)
        timed = score(model, recs, True)[0] if times else None
        out["tools"][name] = {"records": len(recs), "matched": matched,
                              "matched_with_times": timed, "time_ms": t,
                              "differences": dict(kinds)}
        print("%-22s %9d %9d %7.1f%% %11s %9d" % (
            name[:22], len(recs), matched,
            100.0 * matched / max(len(model), 1),
            "-" if timed is None else str(timed), t))
        for kind, n in sorted(kinds.items()):
            print("    %-40s %8d conversations" % (kind, n))
    out["time_ratio_sf_over_tp"] = t_sf / max(t_tp, 1)
    print("time softflowd / pipeline: %.2f" % out["time_ratio_sf_over_tp"])
    with open(argv[6], "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
