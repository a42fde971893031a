#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Deterministic pcap generator for timer_pipeline (Python 3 stdlib only).

The same seed and options always give the same capture, byte for byte.
It streams: memory holds the flows still sending and 8 bytes per flow key
(to keep keys distinct), not the capture, so 10M flows take minutes and
well under 1 GB (--expect too: its records are written as they come).

Traffic: bidirectional flows with distinct keys, interleaved in time:
  tcp    SYN, SYN-ACK, ACK, data both ways, then FIN/FIN/ACK or an RST
  udp    request/response datagrams
  icmp   echo request/reply (ICMPv6 echo for IPv6 flows)
  other  GRE-like IP protocol 47 datagrams (no ports)
Any flow may be IPv6 (TCP/UDP sometimes behind a hop-by-hop extension
header), VLAN tagged or QinQ tagged. Some flows get one long idle gap.
Optional extra frames: malformed ones (truncated at each header, bad IHL,
bad IPv4 total length, bad IPv6 payload length), well-formed non-IP
frames (unknown ethertype) and random garbage behind IP/VLAN ethertypes.

--linktype writes the same traffic with another link-layer header in
place of Ethernet: Linux cooked (sll, sll2), raw IP (raw, ipv4, ipv6) or
loopback (null: little-endian address family, loop: network order). The
pipeline gives each such packet a 14-byte Ethernet header, so the expected
records (bytes of the Ethernet frame) are those of the Ethernet capture.
Flows are untagged there; ipv4 and ipv6 hold flows of that version only.

--big-tcp N adds N TCP segments of --big-tcp-size bytes (80000: BIG TCP /
GSO captures) to TCP flows, each right after its flow's first data packet
and at its time. The pipeline ages them by their headers at their wire
length, so --expect counts each in its flow's packets and bytes (the
frame's full length); the JSON also says how many there are ("oversize").
--mixed-linktype T writes pcapng with two interfaces: flows of odd number
on a second interface of link type T (sll, raw...).

Scans and floods, where every flow is new (--flows of them, one every
--flow-interval-ms; IPv4, untagged; --mix, --pkts, --ipv6-pct, --vlan-pct,
--rst-pct and --idle-gap-pct do not apply):
  --syn-scan none  one SYN per flow, from 192.168.0.1:40000 to port
                   1 + i % 1024 of host 10.0.0.1 + i // 1024, never
                   answered: each record ends by idle_timeout (tcp-syn);
  --syn-scan rst   the same SYNs, each answered by an RST/ACK from the
                   scanned port after --gap-ms: two packets per flow, each
                   record ends by end_of_flow;
  --udp-flood      one datagram (--size) per flow, from a new spoofed
                   source 10.0.0.1 + i // 60000 port 1024 + i % 60000 to
                   192.168.0.2:53: each record ends by idle_timeout.

With --expect FILE the flow records timer_pipeline must produce are written
as JSON, for two ways of running it:
  "unpaced": the capture read as fast as possible: one record per flow,
             ended by "end_of_flow" (TCP FIN/RST) or "idle_timeout";
  "paced":   with --replay-pace and the timeouts given here (same names and
             defaults as the pipeline): idle gaps longer than the timeout
             split a flow into several records.
and "summary": per way, the records, packets and bytes and the records by
end reason. --summary-only leaves the record lists out (10M flows: the
lists take ~8 GB, the summary a few hundred bytes).
"""

import argparse
import hashlib
import heapq
import json
import os
import random
import struct
import sys
from array import array

ETH_IPV4 = 0x0800
ETH_IPV6 = 0x86DD
ETH_VLAN = 0x8100
ETH_QINQ = 0x88A8
ETH_UNKNOWN = 0x88B5          # IEEE local experimental ethertype

FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10

# Pipeline defaults (dpdk-timer_pipeline --help), in seconds.
DEFAULT_TMO = {
    "tcp-syn": 10.0, "tcp-est": 120.0, "tcp-closing": 5.0, "udp": 30.0,
    "icmp": 10.0, "other": 30.0, "active": 600.0,
}
END_NAMES = {1: "idle_timeout", 2: "active_timeout", 3: "end_of_flow",
             4: "forced_end", 5: "lack_of_resources"}


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def parse_range(text, kind=int):
    parts = text.split("-")
    if len(parts) == 1:
        return kind(parts[0]), kind(parts[0])
    if len(parts) != 2:
        raise argparse.ArgumentTypeError("expected N or MIN-MAX: " + text)
    lo, hi = kind(parts[0]), kind(parts[1])
    if lo > hi:
        raise argparse.ArgumentTypeError("MIN > MAX in " + text)
    return lo, hi


def parse_mix(text):
    mix = {}
    for item in text.split(","):
        name, _, weight = item.partition("=")
        if name not in ("tcp", "udp", "icmp", "other"):
            raise argparse.ArgumentTypeError("unknown protocol " + name)
        mix[name] = float(weight)
    if sum(mix.values()) <= 0:
        raise argparse.ArgumentTypeError("empty protocol mix")
    return mix


_PATTERN = [b""]


def payload(fid, n):
    """n payload bytes of flow fid: (fid + i) & 0xFF for byte i."""
    if len(_PATTERN[0]) < n + 256:
        _PATTERN[0] = bytes(range(256)) * ((n + 511) // 256)
    off = fid & 0xFF
    return _PATTERN[0][off:off + n]


class KeySet:
    """The flow keys drawn so far, 8 bytes each: an open-addressing table
    of 64-bit BLAKE2b digests (10M keys: 128 MiB), where a Python set of
    the keys would take ~1 KB each. Two keys with one digest (about
    n^2 / 2^65: 3e-6 at 10M keys) count as one, so the second is drawn
    again: the capture stays deterministic, a key is never given twice."""

    def __init__(self):
        self.n = 0
        self.tab = array("Q", bytes(8 * 1024))

    def _put(self, tab, h):
        mask = len(tab) - 1
        i = h & mask
        while True:
            v = tab[i]
            if v == 0:
                tab[i] = h
                return True
            if v == h:
                return False
            i = (i + 1) & mask

    def add(self, key):
        """Add key (bytes); False when it was there already."""
        h = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(),
                           "little") or 1
        if not self._put(self.tab, h):
            return False
        self.n += 1
        if self.n * 10 > len(self.tab) * 7:
            tab = array("Q", bytes(16 * len(self.tab)))
            for v in self.tab:
                if v:
                    self._put(tab, v)
            self.tab = tab
        return True


class Flow:
    """One generated conversation (a flow key, both directions)."""

    def __init__(self, fid, proto, ipver, vlan, qinq, ext):
        self.fid = fid
        self.proto = proto          # "tcp", "udp", "icmp", "other"
        self.ipver = ipver
        self.vlan = vlan            # (outer, inner) ids, 0 = none
        self.qinq = qinq
        self.ext = ext              # IPv6 hop-by-hop header
        self.cli = self.srv = None  # addresses (bytes)
        self.cport = self.sport = 0
        self.pkts = []              # (t_us, dir, tcp_flags, frame)
        self.close = None           # "fin", "rst" or None


class Generator:
    def __init__(self, args):
        self.a = args
        self.rng = random.Random(args.seed)
        self.keys = KeySet()
        self.mac_c = bytes([0x02, 0, 0, 0, 0, 0x01])
        self.mac_s = bytes([0x02, 0, 0, 0, 0, 0x02])

    # ---- addresses and keys ------------------------------------------
    def addr(self, ipver):
        r = self.rng
        if ipver == 4:
            return bytes([10, r.randrange(256), r.randrange(256),
                          r.randrange(1, 255)])
        return bytes([0xFD, 0, 0, 0, 0, 0, 0, 0]) + bytes(
            r.randrange(256) for _ in range(8))

    def new_key(self, flow):
        proto_num = {"tcp": 6, "udp": 17, "other": 47,
                     "icmp": 1 if flow.ipver == 4 else 58}[flow.proto]
        while True:
            flow.cli, flow.srv = self.addr(flow.ipver), self.addr(flow.ipver)
            if flow.proto in ("tcp", "udp"):
                flow.cport = self.rng.randrange(1024, 65536)
                flow.sport = self.rng.choice([53, 80, 443, 8080, 5000])
            ends = sorted([(flow.cli, flow.cport), (flow.srv, flow.sport)])
            key = struct.pack("!BHH", proto_num, *flow.vlan) + \
                ends[0][0] + struct.pack("!H", ends[0][1]) + \
                ends[1][0] + struct.pack("!H", ends[1][1])
            if flow.cli != flow.srv and self.keys.add(key):
                return

    # ---- frame building ------------------------------------------------
    def l2(self, flow, d, ethertype):
        src, dst = (self.mac_c, self.mac_s) if d == 0 else \
            (self.mac_s, self.mac_c)
        hdr = dst + src
        if flow.qinq:
            hdr += struct.pack("!HHHH", ETH_QINQ, flow.vlan[0], ETH_VLAN,
                               flow.vlan[1])
        elif flow.vlan[0]:
            hdr += struct.pack("!HH", ETH_VLAN, flow.vlan[0])
        return hdr + struct.pack("!H", ethertype)

    def l3(self, flow, d, proto_num, l4):
        src, dst = (flow.cli, flow.srv) if d == 0 else (flow.srv, flow.cli)
        if flow.ipver == 4:
            hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4),
                              self.rng.randrange(65536), 0, 64, proto_num, 0,
                              src, dst)
            hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
            return ETH_IPV4, hdr + l4
        nxt, ext = proto_num, b""
        if flow.ext:
            # hop-by-hop options: next header, length 0, PadN to 8 bytes
            ext = struct.pack("!BB", proto_num, 0) + b"\x01\x04\0\0\0\0"
            nxt = 0
        hdr = struct.pack("!IHBB16s16s", 6 << 28, len(ext) + len(l4), nxt,
                          64, src, dst)
        return ETH_IPV6, hdr + ext + l4

    def l4(self, flow, d, flags, payload):
        sp, dp = (flow.cport, flow.sport) if d == 0 else \
            (flow.sport, flow.cport)
        if flow.proto == "tcp":
            return struct.pack("!HHIIBBHHH", sp, dp, 1000, 2000, 5 << 4,
                               flags, 8192, 0, 0) + payload
        if flow.proto == "udp":
            return struct.pack("!HHHH", sp, dp, 8 + len(payload), 0) + payload
        if flow.proto == "icmp":
            if flow.ipver == 4:
                typ = 8 if d == 0 else 0
            else:
                typ = 128 if d == 0 else 129
            return struct.pack("!BBHHH", typ, 0, 0, flow.fid & 0xFFFF,
                               len(flow.pkts)) + payload
        return struct.pack("!HH", 0, 0x0800) + payload      # GRE-like

    def frame(self, flow, d, flags=0):
        proto_num = {"tcp": 6, "udp": 17, "other": 47,
                     "icmp": 1 if flow.ipver == 4 else 58}[flow.proto]
        hdr_len = len(self.l2(flow, d, 0)) + \
            len(self.l3(flow, d, proto_num, self.l4(flow, d, flags, b""))[1])
        lo, hi = self.a.size
        size = max(hdr_len, self.rng.randint(lo, hi))
        if flow.proto == "tcp" and flags & (SYN | FIN | RST) and \
                not flags & PSH:
            size = hdr_len                 # control segments carry no data
        etype, l3 = self.l3(flow, d, proto_num,
                            self.l4(flow, d, flags,
                                    payload(flow.fid, size - hdr_len)))
        return self.l2(flow, d, etype) + l3

    # ---- flows -----------------------------------------------------------
    def pick_proto(self):
        names = sorted(self.a.mix)
        return self.rng.choices(names, [self.a.mix[n] for n in names])[0]

    def make_flow(self, fid, start_us):
        a, r = self.a, self.rng
        proto = self.pick_proto()
        ipver = 6 if r.random() * 100 < a.ipv6_pct else 4
        vlan, qinq = (0, 0), False
        if r.random() * 100 < a.vlan_pct:
            if r.random() * 100 < a.qinq_pct:
                vlan, qinq = (r.randrange(1, 4095), r.randrange(1, 4095)), True
            else:
                vlan = (r.randrange(1, 4095), 0)
        ext = ipver == 6 and proto in ("tcp", "udp") and \
            r.random() * 100 < a.ext_hdr_pct
        f = Flow(fid, proto, ipver, vlan, qinq, ext)
        self.new_key(f)
        nd = r.randint(*a.pkts)
        script = []                               # (dir, flags)
        if proto == "tcp":
            script += [(0, SYN), (1, SYN | ACK), (0, ACK)]
            script += [(i % 2, ACK | PSH) for i in range(nd)]
            f.close = "rst" if r.random() * 100 < a.rst_pct else "fin"
            if f.close == "fin":
                script += [(0, FIN | ACK), (1, FIN | ACK), (0, ACK)]
            else:
                script += [(0, RST | ACK)]
        else:
            script += [(i % 2, 0) for i in range(nd)]
        gap_at = -1
        if r.random() * 100 < a.idle_gap_pct and nd >= 2:
            first = 3 if proto == "tcp" else 0
            gap_at = first + r.randrange(1, nd)   # before this packet
        t = start_us
        for i, (d, flags) in enumerate(script):
            if i > 0:
                t += r.randint(*a.gap_us)
            if i == gap_at:
                t += a.idle_gap_us
            f.pkts.append((t, d, flags, self.frame(f, d, flags)))
        return f

    # ---- extra frames ----------------------------------------------------
    def malformed(self, kind, n):
        r = self.rng
        eth = self.mac_s + self.mac_c
        ip4 = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40, 1, 0, 64, 6, 0,
                          bytes([10, 9, 9, 1]), bytes([10, 9, 9, 2]))
        tcp = struct.pack("!HHIIBBHHH", 1234, 80, 1, 2, 0x50, ACK, 100, 0, 0)
        ip6 = struct.pack("!IHBB16s16s", 6 << 28, 8, 17, 64, b"\xfd" * 16,
                          b"\xfe" * 16)
        udp = struct.pack("!HHHH", 1111, 53, 8, 0)
        if kind == 0:                                      # runt frame
            return eth[:6 + r.randrange(1, 8)]
        if kind == 1:                                      # VLAN tag cut
            return eth + struct.pack("!H", ETH_VLAN) + b"\x00"
        if kind == 2:                                      # IPv4 header cut
            return eth + struct.pack("!H", ETH_IPV4) + ip4[:12]
        if kind == 3:                                      # IPv6 header cut
            return eth + struct.pack("!H", ETH_IPV6) + ip6[:30]
        if kind == 4:                                      # TCP header cut
            hdr = bytearray(ip4)
            struct.pack_into("!H", hdr, 2, 30)
            return eth + struct.pack("!H", ETH_IPV4) + bytes(hdr) + tcp[:10]
        if kind == 5:                                      # UDP header cut
            return eth + struct.pack("!H", ETH_IPV6) + \
                struct.pack("!IHBB16s16s", 6 << 28, 4, 17, 64, b"\xfd" * 16,
                            b"\xfe" * 16) + udp[:4]
        if kind == 6:                                      # IHL < 5
            hdr = bytearray(ip4)
            hdr[0] = 0x43
            return eth + struct.pack("!H", ETH_IPV4) + bytes(hdr) + tcp
        if kind == 7:                                      # total length
            hdr = bytearray(ip4)
            struct.pack_into("!H", hdr, 2, 1400)
            return eth + struct.pack("!H", ETH_IPV4) + bytes(hdr) + tcp
        if kind == 8:                                      # IPv6 payload len
            return eth + struct.pack("!H", ETH_IPV6) + \
                struct.pack("!IHBB16s16s", 6 << 28, 900, 17, 64,
                            b"\xfd" * 16, b"\xfe" * 16) + udp
        hdr = bytearray(ip4)                               # total < IHL
        struct.pack_into("!H", hdr, 2, 12)
        return eth + struct.pack("!H", ETH_IPV4) + bytes(hdr) + tcp

    def garbage(self, n):
        """Random bytes behind an ethertype the parser will follow."""
        r = self.rng
        etype = r.choice([ETH_IPV4, ETH_IPV6, ETH_VLAN, ETH_QINQ,
                          r.randrange(65536)])
        body = bytes(r.randrange(256) for _ in range(r.randint(0, 120)))
        frame = self.mac_s + self.mac_c + struct.pack("!H", etype) + body
        if r.random() < 0.2:
            frame = frame[:r.randint(1, len(frame))]
        if r.random() < 0.5 and len(frame) > 14 and etype == ETH_IPV4:
            frame = frame[:14] + bytes([0x45]) + frame[15:]  # plausible IHL
        return frame

    def non_ip(self, n):
        payload = bytes((n + i) & 0xFF for i in range(46))
        return self.mac_s + self.mac_c + struct.pack("!H", ETH_UNKNOWN) + \
            payload

    def big_tcp(self, tcp, ntcp, n, size):
        """n data segments of size bytes in TCP flows, as GSO captures
        them: IPv4 total length 0, IPv6 payload length 0 (jumbo); segment
        i goes to TCP flow i % ntcp, of which tcp holds the first ones.
        Each is a packet of its flow, right after the flow's first data
        packet and at its time (after the ones added before it): returns
        {flow number: [packet...]}."""
        added = {}
        for i in range(n if ntcp else 0):
            f = tcp[i % ntcp]
            t, d = f.pkts[3][0], f.pkts[3][1]   # with the first data
            l4 = self.l4(f, d, ACK | PSH, b"")
            etype, l3 = self.l3(f, d, 6, l4)
            l3 = bytearray(l3)
            struct.pack_into("!H", l3, 2 if f.ipver == 4 else 4, 0)
            frame = self.l2(f, d, etype) + bytes(l3)
            frame += payload(f.fid, size - len(frame))
            added.setdefault(f.fid, []).append((t, d, ACK | PSH, frame))
        return added

    # ---- scans and floods: every packet a new flow -------------------------
    def churn_flow(self, fid, t):
        """Flow fid of --syn-scan or --udp-flood, starting at t. Its key is
        fid's by construction (no two alike, none drawn at random):
        syn-scan: 192.168.0.1:40000 to port 1 + fid % 1024 of host
                  10.0.0.1 + fid // 1024;
        udp-flood: 10.0.0.1 + fid // 60000 port 1024 + fid % 60000 (a
                  spoofed source) to 192.168.0.2:53."""
        a = self.a
        if a.syn_scan:
            f = Flow(fid, "tcp", 4, (0, 0), False, False)
            f.cli, f.cport = bytes([192, 168, 0, 1]), 40000
            f.srv = struct.pack("!I", (10 << 24) + 1 + fid // 1024)
            f.sport = 1 + fid % 1024
            script = [(0, SYN)]
            if a.syn_scan == "rst":
                script.append((1, RST | ACK))
                f.close = "rst"
        else:
            f = Flow(fid, "udp", 4, (0, 0), False, False)
            f.cli = struct.pack("!I", (10 << 24) + 1 + fid // 60000)
            f.cport = 1024 + fid % 60000
            f.srv, f.sport = bytes([192, 168, 0, 2]), 53
            script = [(0, 0)]
        for i, (d, flags) in enumerate(script):
            if i > 0:
                t += self.rng.randint(*a.gap_us)
            f.pkts.append((t, d, flags, self.frame(f, d, flags)))
        return f

    # ---- everything ------------------------------------------------------
    def flows(self):
        """The flows by number. Flow i starts in [i, i + 1) flow intervals
        (--syn-scan, --udp-flood: at i intervals) after --start."""
        a, r = self.a, self.rng
        iv = a.flow_interval_us
        for i in range(a.flows):
            if a.syn_scan or a.udp_flood:
                yield self.churn_flow(i, a.start_us + i * iv)
            else:
                yield self.make_flow(i, a.start_us + i * iv +
                                     r.randint(0, iv))

    def extras(self):
        """The frames that belong to no flow of the model (malformed,
        non-IP, garbage), sorted, and the BIG TCP segments per flow. They
        are drawn after every flow, at times up to the last packet: one
        pass over the flows (kept: only those that get BIG TCP segments)
        comes first, the caller then starts again from the seed."""
        a, r = self.a, self.rng
        end, tcp, ntcp = a.start_us, [], 0
        for f in self.flows():
            end = max(end, f.pkts[-1][0])
            if f.proto == "tcp":
                if len(tcp) < a.big_tcp:
                    tcp.append(f)
                ntcp += 1
        events = []                               # (t_us, order, frame)
        for i in range(a.malformed):
            t = r.randint(a.start_us, end)
            events.append((t, a.flows + i, 0, self.malformed(i % 10, i)))
        for i in range(a.non_ip):
            t = r.randint(a.start_us, end)
            events.append((t, a.flows + a.malformed + i, 0, self.non_ip(i)))
        base = a.flows + a.malformed + a.non_ip
        for i in range(a.garbage):
            t = r.randint(a.start_us, end)
            events.append((t, base + i, 0, self.garbage(i)))
        big = self.big_tcp(tcp, ntcp, a.big_tcp, a.big_tcp_size)
        events.sort(key=lambda e: (e[0], e[1], e[2]))
        return events, big

    def generate(self, on_flow):
        """The capture's packets (t_us, order, order, frame) in time
        order, as an iterator: memory holds the flows still sending (a
        heap of their packets), not the capture. on_flow(flow) sees each
        flow, whole, before its first packet comes out."""
        a = self.a
        extras, big = [], {}
        if a.malformed or a.non_ip or a.garbage or a.big_tcp:
            extras, big = self.extras()
            self.rng, self.keys = random.Random(a.seed), KeySet()

        def flow_packets():
            heap = []
            for f in self.flows():
                # No later flow starts before flow f's earliest start, and
                # at that time its packets sort after these (by number).
                bound = a.start_us + f.fid * a.flow_interval_us
                while heap and heap[0][0] <= bound:
                    yield heapq.heappop(heap)
                if f.fid in big:
                    f.pkts[4:4] = big.pop(f.fid)
                on_flow(f)
                for i, (t, _d, _fl, fr) in enumerate(f.pkts):
                    heapq.heappush(heap, (t, f.fid, i, fr))
            while heap:
                yield heapq.heappop(heap)

        return heapq.merge(flow_packets(), extras,
                           key=lambda e: (e[0], e[1], e[2]))


# Link types: pcap LINKTYPE_ number and the header that replaces Ethernet.
LINKTYPES = {"ether": 1, "sll": 113, "sll2": 276, "raw": 101, "ipv4": 228,
             "ipv6": 229, "null": 0, "loop": 108}
AF_INET, AF_INET6_DARWIN, AF_INET6_OPENBSD = 2, 30, 24


def relink(frame, linktype):
    """The Ethernet frame with linktype's header in place of Ethernet's."""
    if linktype == "ether":
        return frame
    etype = struct.unpack_from("!H", frame, 12)[0]
    src, ip = frame[6:12], frame[14:]
    v6 = etype == ETH_IPV6
    if linktype == "sll":       # packet type 0 (to us), ARPHRD_ETHER
        return struct.pack("!HHH8sH", 0, 1, 6, src, etype) + ip
    if linktype == "sll2":      # protocol, reserved, ifindex, ARPHRD_ETHER
        return struct.pack("!HHIHBB8s", etype, 0, 1, 1, 0, 6, src) + ip
    if linktype == "null":      # host order: written little-endian
        return struct.pack("<I", AF_INET6_DARWIN if v6 else AF_INET) + ip
    if linktype == "loop":      # network order
        return struct.pack("!I", AF_INET6_OPENBSD if v6 else AF_INET) + ip
    return ip                   # raw, ipv4, ipv6


def write_pcap(path, events, linktype="ether", snaplen=65535):
    """Write the packets of the iterator events; returns how many."""
    n = 0
    with open(path, "wb", buffering=1 << 20) as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, snaplen,
                              LINKTYPES[linktype]))
        for t, _a, _b, frame in events:
            frame = relink(frame, linktype)
            out.write(struct.pack("<IIII", t // 1000000, t % 1000000,
                                  len(frame), len(frame)))
            out.write(frame)
            n += 1
    return n


def write_pcapng(path, events, mixed, snaplen=65535):
    """pcapng: interface 0 Ethernet, 1 of link type mixed (odd flows)."""
    def block(btype, body):
        body += b"\0" * (-len(body) % 4)
        n = len(body) + 12
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)

    n = 0
    with open(path, "wb", buffering=1 << 20) as out:
        out.write(block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0,
                                                 -1)))
        out.write(block(1, struct.pack("<HHI", 1, 0, snaplen)))
        out.write(block(1, struct.pack("<HHI", LINKTYPES[mixed], 0,
                                       snaplen)))
        for t, fid, _b, frame in events:
            ifc = fid % 2
            frame = relink(frame, mixed) if ifc else frame
            out.write(block(6, struct.pack("<IIIII", ifc, t >> 32,
                                           t & 0xFFFFFFFF, len(frame),
                                           len(frame)) + frame))
            n += 1
    return n


# ---- expected records (the pipeline's aging rules, as a model) ----------
def tmo_class(flow, cls, d, flags):
    """Timeout class after a packet (tp_flow.c / tp_worker.c rules)."""
    if flow.proto != "tcp":
        return {"udp": "udp", "icmp": "icmp", "other": "other"}[flow.proto]
    if flags & (FIN | RST):
        return "tcp-closing"
    if cls is None:
        return "tcp-syn" if (flags & (SYN | ACK)) == SYN else "tcp-est"
    if cls == "tcp-syn" and d == 1:
        return "tcp-est"
    return cls


def ntop(addr):
    if len(addr) == 4:
        return ".".join(str(b) for b in addr)
    import ipaddress
    return str(ipaddress.IPv6Address(addr))


def new_record(flow, t, d):
    fwd_is_cli = d == 0
    cli = (flow.cli, flow.cport) if fwd_is_cli else (flow.srv, flow.sport)
    srv = (flow.srv, flow.sport) if fwd_is_cli else (flow.cli, flow.cport)
    proto = {"tcp": 6, "udp": 17, "other": 47,
             "icmp": 1 if flow.ipver == 4 else 58}[flow.proto]
    return {"ip_version": flow.ipver, "proto": proto,
            "src": ntop(cli[0]), "sport": cli[1],
            "dst": ntop(srv[0]), "dport": srv[1],
            "vlan": flow.vlan[0], "vlan_inner": flow.vlan[1],
            "first_ns": t * 1000, "last_ns": t * 1000,
            "packets_fwd": 0, "bytes_fwd": 0,
            "packets_rev": 0, "bytes_rev": 0,
            "tcp_flags_fwd": 0, "tcp_flags_rev": 0,
            "_init_dir": d}


def expected_records(flows, tmo, paced, warn):
    """Records per flow; paced applies idle and active timeouts."""
    recs = []
    us = {k: int(v * 1e6) for k, v in tmo.items()}
    margin = 300000                     # 300 ms either side is ambiguous
    for f in flows:
        rec, cls, last, first = None, None, 0, 0
        for (t, d, flags, frame) in f.pkts:
            if rec is not None and paced:
                idle_end = last + us[cls]
                act_end = first + us["active"]
                end = min(idle_end, act_end)
                if abs(t - end) < margin:
                    warn("flow %d: packet %.3f s from a timeout boundary"
                         % (f.fid, (t - end) / 1e6))
                if t >= end:
                    reason = 2 if act_end < idle_end else \
                        (3 if cls == "tcp-closing" else 1)
                    rec["end_reason"] = END_NAMES[reason]
                    recs.append(rec)
                    rec, cls = None, None
            if rec is None:
                rec, first = new_record(f, t, d), t
            rd = 0 if d == rec["_init_dir"] else 1
            side = "fwd" if rd == 0 else "rev"
            rec["packets_" + side] += 1
            rec["bytes_" + side] += len(frame)
            rec["tcp_flags_" + side] |= flags
            rec["last_ns"] = t * 1000
            cls = tmo_class(f, cls, rd, flags)
            last = t
        if rec is not None:
            idle_end = last + us[cls]
            act_end = first + us["active"]
            if paced and act_end < idle_end:
                reason = 2
            else:
                reason = 3 if cls == "tcp-closing" else 1
            rec["end_reason"] = END_NAMES[reason]
            recs.append(rec)
    for r in recs:
        del r["_init_dir"]
        if not paced:
            del r["first_ns"], r["last_ns"]
    return recs


class Expect:
    """The --expect file, written as the flows go by: each flow's records
    go to a temporary file per list (beside the output), joined under the
    counts at the end. The layout is json.dump(indent=1, sort_keys=True)'s.
    With summary_only the record lists are left out; "summary" has, per
    way of running, the records, packets and bytes and the records by end
    reason, always."""

    LISTS = ("ambiguous", "paced", "unpaced")

    def __init__(self, path, tmo, summary_only):
        self.path, self.tmo, self.summary_only = path, tmo, summary_only
        self.tmp = {k: open("%s.%s.tmp" % (path, k), "w+")
                    for k in self.LISTS}
        self.count = dict.fromkeys(self.LISTS, 0)
        self.flow_packets = 0
        self.first_warnings = []
        self.summary = {m: {"records": 0, "packets": 0, "bytes": 0,
                            "end_reasons": {}}
                        for m in ("paced", "unpaced")}

    def _item(self, name, text):
        if self.count[name]:
            self.tmp[name].write(",\n")
        self.tmp[name].write("  " + text.replace("\n", "\n  "))
        self.count[name] += 1

    def _warn(self, msg):
        if len(self.first_warnings) < 5:
            self.first_warnings.append(msg)
        self._item("ambiguous", json.dumps(msg))

    def flow(self, f):
        self.flow_packets += len(f.pkts)
        for mode in ("paced", "unpaced"):
            paced = mode == "paced"
            warn = self._warn if paced else (lambda m: None)
            for r in expected_records([f], self.tmo, paced, warn):
                sm = self.summary[mode]
                sm["records"] += 1
                sm["packets"] += r["packets_fwd"] + r["packets_rev"]
                sm["bytes"] += r["bytes_fwd"] + r["bytes_rev"]
                er = sm["end_reasons"]
                er[r["end_reason"]] = er.get(r["end_reason"], 0) + 1
                if not self.summary_only:
                    self._item(mode, json.dumps(r, indent=1,
                                                sort_keys=True))

    def finish(self, counts):
        doc = dict(counts, flow_packets=self.flow_packets,
                   timeouts=self.tmo, summary=self.summary)
        lists = ("ambiguous",) if self.summary_only else self.LISTS
        with open(self.path, "w") as out:
            out.write("{\n")
            keys = sorted(list(doc) + list(lists))
            for i, k in enumerate(keys):
                out.write(" %s: " % json.dumps(k))
                if k in doc:
                    out.write(json.dumps(doc[k], indent=1, sort_keys=True)
                              .replace("\n", "\n "))
                elif not self.count[k]:
                    out.write("[]")
                else:
                    out.write("[\n")
                    self.tmp[k].seek(0)
                    while True:
                        chunk = self.tmp[k].read(1 << 20)
                        if not chunk:
                            break
                        out.write(chunk)
                    out.write("\n ]")
                out.write(",\n" if i + 1 < len(keys) else "\n")
            out.write("}\n")
        self.close()
        return self.first_warnings

    def close(self):
        for k, t in self.tmp.items():
            t.close()
            os.unlink("%s.%s.tmp" % (self.path, k))


# The options with a default, in --help's order: name, type, the default
# as it would be typed (argparse converts it; --help shows it), what the
# option sets. --start and --linktype come between OPTIONS and
# BIG_TCP_OPTIONS.
OPTIONS = (
    ("seed", int, "1", "random seed"),
    ("flows", int, "20", "flows"),
    ("mix", parse_mix, "tcp=50,udp=30,icmp=15,other=5", "protocol weights"),
    ("ipv6-pct", float, "25", "%% of flows over IPv6"),
    ("ext-hdr-pct", float, "50",
     "%% of IPv6 TCP/UDP flows with a hop-by-hop header"),
    ("vlan-pct", float, "20", "%% of flows VLAN tagged"),
    ("qinq-pct", float, "25", "%% of tagged flows that are QinQ"),
    ("rst-pct", float, "30", "%% of TCP flows closed by RST, else FIN"),
    ("pkts", parse_range, "2-8", "data packets per flow, N or MIN-MAX"),
    ("size", parse_range, "64-512", "frame size in bytes, N or MIN-MAX"),
    ("gap-ms", lambda s: parse_range(s, float), "1-20",
     "gap between packets of a flow, ms"),
    ("flow-interval-ms", float, "5", "time between flow starts, ms"),
    ("idle-gap-pct", float, "0", "%% of flows with one long idle gap"),
    ("idle-gap-ms", float, "3000", "length of that gap, ms"),
    ("malformed", int, "0", "malformed frames to add"),
    ("non-ip", int, "0", "non-IP frames (unknown ethertype) to add"),
    ("garbage", int, "0", "random frames (fuzzing; not in --expect)"),
)
BIG_TCP_OPTIONS = (
    ("big-tcp", int, "0", "oversize TCP segments to add"),
    ("big-tcp-size", int, "80000", "their size in bytes"),
)


def add_defaults(p, options):
    """Add options (rows of OPTIONS) to the parser p."""
    for name, kind, default, what in options:
        p.add_argument("--" + name, type=kind, default=default,
                       help="%s (%s)" % (what, default))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("-o", "--output", required=True, help="pcap file to write")
    add_defaults(p, OPTIONS)
    p.add_argument("--start", type=float, default=1700000000.0,
                   help="capture start, seconds since the epoch")
    p.add_argument("--linktype", choices=sorted(LINKTYPES), default="ether",
                   help="link-layer header (ether)")
    add_defaults(p, BIG_TCP_OPTIONS)
    p.add_argument("--mixed-linktype", choices=sorted(set(LINKTYPES) -
                                                      {"ether"}),
                   help="pcapng, odd flows on an interface of this type")
    churn = p.add_mutually_exclusive_group()
    churn.add_argument("--syn-scan", choices=("none", "rst"),
                       help="every packet a new TCP flow: a SYN to a new "
                       "port/host,\nanswered by nothing (none) or by an "
                       "RST/ACK (rst)")
    churn.add_argument("--udp-flood", action="store_true",
                       help="every packet a new UDP flow (spoofed sources)")
    p.add_argument("--expect", help="write the expected flow records (JSON)")
    p.add_argument("--summary-only", action="store_true",
                   help="--expect: counts only, no record lists")
    for name, val in DEFAULT_TMO.items():
        p.add_argument("--tmo-" + name, type=float, default=val,
                       help="pipeline --tmo-%s in seconds (%g)" % (name, val))
    a = p.parse_args()
    a.gap_us = (int(a.gap_ms[0] * 1000), int(a.gap_ms[1] * 1000))
    a.idle_gap_us = int(a.idle_gap_ms * 1000)
    a.flow_interval_us = int(a.flow_interval_ms * 1000)
    a.start_us = int(a.start * 1e6)
    if a.size[0] < 14:
        p.error("--size must be at least 14")
    if a.linktype != "ether" or a.mixed_linktype:
        if a.malformed or a.non_ip or a.garbage:
            p.error("--malformed, --non-ip, --garbage: Ethernet only")
        a.vlan_pct = 0
    if a.linktype == "ipv4" or a.mixed_linktype == "ipv4":
        a.ipv6_pct = 0
    if a.linktype == "ipv6" or a.mixed_linktype == "ipv6":
        a.ipv6_pct = 100
    if a.big_tcp and a.big_tcp_size <= 65535:
        p.error("--big-tcp-size must be over 65535")

    exp = None
    if a.expect:
        tmo = {k: getattr(a, "tmo_" + k.replace("-", "_"))
               for k in DEFAULT_TMO}
        exp = Expect(a.expect, tmo, a.summary_only)
    events = Generator(a).generate(exp.flow if exp else lambda f: None)
    # As tcpdump on Linux: a snapshot length that keeps BIG TCP whole.
    snaplen = 262144 if a.big_tcp else 65535
    try:
        if a.mixed_linktype:
            n = write_pcapng(a.output, events, a.mixed_linktype, snaplen)
        else:
            n = write_pcap(a.output, events, a.linktype, snaplen)
    except BaseException:
        if exp:
            exp.close()
        raise
    print("%s: %d packets, %d flows, %d malformed, %d non-IP, %d garbage" %
          (a.output, n, a.flows, a.malformed, a.non_ip, a.garbage),
          file=sys.stderr)
    if not exp:
        return 0
    warnings = exp.finish({
        "seed": a.seed, "packets": n, "flows": a.flows,
        "malformed": a.malformed, "non_ip": a.non_ip,
        "oversize": a.big_tcp, "linktype": a.linktype})
    for w in warnings:
        print("warning: " + w, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
