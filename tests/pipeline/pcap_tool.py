#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Make captures that are not what the pipeline expects (stdlib only).

  pcap_tool.py count IN                    print the number of records
  pcap_tool.py linktype IN OUT N           same records, link type N
  pcap_tool.py cut IN OUT K header|data    K whole records, then the next
                                           one cut in its record header or
                                           in its packet data
  pcap_tool.py damage IN OUT K            K whole records, then a record
                                           header whose captured length
                                           (2^31 - 1) no reader accepts,
                                           and the rest of the records
  pcap_tool.py snap IN OUT N [ABOVE]       every record cut to N bytes,
                                           wire lengths kept, snapshot
                                           length N (tcpdump -s N); with
                                           ABOVE, only records over ABOVE
                                           bytes (snapshot length kept)
  pcap_tool.py uniform OUT FLOWS PKTS      FLOWS UDP flows of PKTS packets
                                           each, flow i (source port
                                           10000+i) all of 200+7i bytes
                                           on the wire, interleaved
  pcap_tool.py empty OUT                   global header only
  pcap_tool.py bigendian IN OUT            same capture, big-endian
  pcap_tool.py nanosecond IN OUT           same capture, nanosecond magic
  pcap_tool.py huge OUT CAPLEN             snaplen 262144, a few small
                                           frames and one of CAPLEN bytes
  pcap_tool.py pcapng IN OUT [N]           same frames as pcapng, whose
                                           interface has link type N (1)
  pcap_tool.py bytes OUT N                 N bytes that are not a pcap
  pcap_tool.py zero-macs IN OUT            same frames, MAC addresses
                                           zeroed (compare frames whose
                                           Ethernet header is synthetic)
  pcap_tool.py null-swap IN OUT            a NULL capture with each
                                           4-byte family in the other
                                           byte order (a big-endian host)
  pcap_tool.py sll-odd IN OUT              a LINUX_SLL capture plus: ARP
                                           (protocol 0x0806), 802.2 LLC
                                           (protocol 0x0004), a netlink
                                           message (ARPHRD_NETLINK), a
                                           record cut inside its header
  pcap_tool.py segmented OUT EXPECT        IPv6 flows whose extension
                                           headers push the L4 header
                                           across and beyond the first
                                           2048-byte mbuf segment; EXPECT
                                           gets their records (the format
                                           of gen_pcap.py --expect)

IN is a little-endian capture such as tools/gen_pcap.py (microsecond) or
net_pcap's tx_pcap (nanosecond) writes.
"""

import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
import tplib  # noqa: E402

GLOBAL = struct.Struct("<IHHiIII")
RECORD = struct.Struct("<IIII")


def load(path):
    """Return (global header fields, [(sec, usec, orig_len, data)])."""
    try:
        endian, hdr, recs = tplib.pcap_read(path)
    except ValueError:
        endian = None
    if endian != "<":
        sys.exit("%s: not a little-endian pcap" % path)
    return hdr, recs


def dump(path, hdr, recs, endian="<", magic=0xA1B2C3D4, scale=1):
    g = struct.Struct(endian + "IHHiIII")
    r = struct.Struct(endian + "IIII")
    with open(path, "wb") as f:
        f.write(g.pack(magic, *hdr[1:]))
        for sec, frac, orig, data in recs:
            f.write(r.pack(sec, frac * scale, len(data), orig) + data)


def pcapng(path, recs, linktype):
    def block(btype, body):
        body += b"\0" * (-len(body) % 4)
        n = len(body) + 12
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)

    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", linktype, 0, 65535))
    for sec, usec, orig, data in recs:
        ts = sec * 1000000 + usec
        out += block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF,
                                    len(data), orig) + data)
    with open(path, "wb") as f:
        f.write(out)


def uniform(flows, pkts):
    """Records (sec, usec, wire length, data) of flows UDP flows, flow i
    of pkts packets of 200+7i bytes on the wire, from 10.9.0.1:10000+i to
    10.9.1.1:9 (discard), round robin 10 us apart; the data is the whole frame."""
    recs = []
    t = 1000000
    for k in range(pkts):
        for i in range(flows):
            wire = 200 + 7 * i
            udp = struct.pack("!HHHH", 10000 + i, 9, wire - 34, 0)
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, wire - 14, k & 0xFFFF,
                             0, 64, 17, 0, bytes([10, 9, 0, 1]),
                             bytes([10, 9, 1, 1]))
            frame = (b"\x02\0\0\0\0\x02" + b"\x02\0\0\0\0\x01" +
                     b"\x08\x00" + ip + udp)
            frame += bytes((i + j) & 0xFF for j in range(wire - len(frame)))
            recs.append((t // 1000000, t % 1000000, wire, frame))
            t += 10
    return recs


def ext_chain(sizes, last):
    """IPv6 extension headers of the given sizes (multiples of 8): a
    hop-by-hop header, then destination options, then protocol 'last'."""
    out = b""
    for i, size in enumerate(sizes):
        nxt = 60 if i + 1 < len(sizes) else last       # 60: dest. options
        out += struct.pack("!BB", nxt, size // 8 - 1) + bytes(size - 2)
    return out


def segmented(path, expect):
    """Three flows, one request and one reply each. The first segment of
    an mbuf holds 2048 bytes, the next ones 2176: the UDP header sits
    across the first boundary (2046-2053), the first TCP header beyond it
    (4150), the second across the next one (4214-4233)."""
    flows = [(17, [1992], 1000, 53), (6, [2048, 2048], 2000, 80),
             (6, [2048, 2048, 64], 3000, 443)]
    recs, want = [], []
    for n, (proto, sizes, sport, dport) in enumerate(flows):
        a = bytes.fromhex("fd00000000000000000000000000%04x" % (2 * n + 1))
        b = bytes.fromhex("fd00000000000000000000000000%04x" % (2 * n + 2))
        lens = []
        for i, (s, d, sp, dp) in enumerate([(a, b, sport, dport),
                                            (b, a, dport, sport)]):
            data = bytes(100)
            if proto == 17:
                l4 = struct.pack("!HHHH", sp, dp, 8 + len(data), 0)
            else:
                flags = 0x02 if i == 0 else 0x12          # SYN, SYN-ACK
                l4 = struct.pack("!HHIIBBHHH", sp, dp, 1, 0, 5 << 4,
                                 flags, 8192, 0, 0)
            ext = ext_chain(sizes, proto)
            ip6 = struct.pack("!IHBB16s16s", 6 << 28,
                              len(ext) + len(l4) + len(data), 0, 64, s, d)
            eth = bytes([2, 0, 0, 0, 0, 2 - i, 2, 0, 0, 0, 0, 1 + i]) + \
                b"\x86\xdd"
            frame = eth + ip6 + ext + l4 + data
            recs.append((1700000000, 1000 * len(recs), len(frame), frame))
            lens.append(len(frame))
        want.append({"ip_version": 6, "proto": proto,
                     "src": "fd00::%x" % (2 * n + 1), "sport": sport,
                     "dst": "fd00::%x" % (2 * n + 2), "dport": dport,
                     "vlan": 0, "vlan_inner": 0,
                     "end_reason": "idle_timeout",
                     "packets_fwd": 1, "bytes_fwd": lens[0],
                     "packets_rev": 1, "bytes_rev": lens[1],
                     "tcp_flags_fwd": 0x02 if proto == 6 else 0,
                     "tcp_flags_rev": 0x12 if proto == 6 else 0})
    dump(path, (0xA1B2C3D4, 2, 4, 0, 0, 65535, 1), recs)
    with open(expect, "w") as f:
        json.dump({"unpaced": want}, f)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd = argv[1]
    if cmd == "count":
        print(len(load(argv[2])[1]))
    elif cmd == "linktype":
        hdr, recs = load(argv[2])
        dump(argv[3], hdr[:6] + (int(argv[4]),), recs)
    elif cmd == "cut":
        hdr, recs = load(argv[2])
        keep, where = int(argv[4]), argv[5]
        if keep >= len(recs):
            sys.exit("cut: only %d records" % len(recs))
        dump(argv[3], hdr, recs[:keep + 1])
        size = GLOBAL.size + sum(RECORD.size + len(r[3])
                                 for r in recs[:keep])
        size += RECORD.size // 2 if where == "header" else \
            RECORD.size + len(recs[keep][3]) // 2
        with open(argv[3], "r+b") as f:
            f.truncate(size)
    elif cmd == "damage":
        hdr, recs = load(argv[2])
        keep = int(argv[4])
        if keep >= len(recs):
            sys.exit("damage: only %d records" % len(recs))
        dump(argv[3], hdr, recs)
        off = GLOBAL.size + sum(RECORD.size + len(r[3])
                                for r in recs[:keep])
        with open(argv[3], "r+b") as f:
            f.seek(off + 8)
            f.write(struct.pack("<I", 0x7FFFFFFF))
    elif cmd == "snap":
        hdr, recs = load(argv[2])
        n = int(argv[4])
        above = int(argv[5]) if len(argv) > 5 else None
        if above is None:
            hdr = hdr[:5] + (n,) + hdr[6:]
        dump(argv[3], hdr, [(s_, u, o, d[:n] if above is None or
                             len(d) > above else d)
                            for s_, u, o, d in recs])
    elif cmd == "uniform":
        dump(argv[2], (0xA1B2C3D4, 2, 4, 0, 0, 65535, 1),
             uniform(int(argv[3]), int(argv[4])))
    elif cmd == "empty":
        dump(argv[2], (0xA1B2C3D4, 2, 4, 0, 0, 65535, 1), [])
    elif cmd == "bigendian":
        hdr, recs = load(argv[2])
        dump(argv[3], hdr, recs, endian=">")
    elif cmd == "nanosecond":
        hdr, recs = load(argv[2])
        dump(argv[3], hdr, recs, magic=0xA1B23C4D, scale=1000)
    elif cmd == "huge":
        caplen = int(argv[3])
        eth = b"\x02" * 6 + b"\x04" * 6 + b"\x88\xb5"    # local experimental
        small = [(1700000000, i, 64, eth + bytes(50)) for i in range(4)]
        big = (1700000000, 9, caplen, eth + bytes(caplen - len(eth)))
        dump(argv[2], (0xA1B2C3D4, 2, 4, 0, 0, 262144, 1),
             small[:2] + [big] + small[2:])
    elif cmd == "pcapng":
        pcapng(argv[3], load(argv[2])[1], int(argv[4]) if len(argv) > 4
               else 1)
    elif cmd == "bytes":
        text = b"this is not a capture file\n" * (int(argv[3]) // 27 + 1)
        with open(argv[2], "wb") as f:
            f.write(text[:int(argv[3])])
    elif cmd == "zero-macs":
        hdr, recs = load(argv[2])
        dump(argv[3], hdr, [(a, b, c, bytes(12) + d[12:])
                            for a, b, c, d in recs], magic=hdr[0])
    elif cmd == "null-swap":
        hdr, recs = load(argv[2])
        dump(argv[3], hdr, [(a, b, c, d[3::-1] + d[4:])
                            for a, b, c, d in recs])
    elif cmd == "sll-odd":
        hdr, recs = load(argv[2])
        t = recs[-1][0] + 1 if recs else 1700000000
        arp = struct.pack("!HHHHBBH6s4s6s4s", 1, 0x0800, 6, 4, 6, 4, 1,
                          b"\x02" * 6, bytes([10, 0, 0, 1]), bytes(6),
                          bytes([10, 0, 0, 2]))
        odd = [struct.pack("!HHH8sH", 0, 1, 6, b"\x02" * 8, 0x0806) + arp,
               struct.pack("!HHH8sH", 0, 1, 6, b"\x02" * 8, 4) +
               b"\x42\x42\x03" + bytes(40),
               struct.pack("!HHH8sH", 0, 824, 0, bytes(8), 0) + bytes(20),
               struct.pack("!HHH", 0, 1, 6)]
        dump(argv[3], hdr, recs + [(t, i, len(d), d)
                                   for i, d in enumerate(odd)])
    elif cmd == "segmented":
        segmented(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
