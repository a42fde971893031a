#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Write every frame of a pcap file as seed files: seeds.py PCAP DIR.

A seed is one byte naming the link type (fuzz_parse.c's
tp_fuzz_linktypes[], LINKTYPES below, same order) and the packet. Every
frame is an Ethernet seed; every fourth is also written with each other
link type's header in place of Ethernet's (tools/gen_pcap.py's relink()).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
from gen_pcap import relink  # noqa: E402

LINKTYPES = ["ether", "sll", "sll2", "raw", "raw", "raw", "ipv4", "ipv6",
             "null", "loop"]

pcap, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with open(pcap, "rb") as f:
    data = f.read()
magic = struct.unpack_from("<I", data, 0)[0]
end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
off, n, seeds = 24, 0, 0


def seed(name, sel, frame):
    with open(os.path.join(out, name), "wb") as s:
        s.write(bytes([sel]) + frame)


while off + 16 <= len(data):
    _, _, incl, _ = struct.unpack_from(end + "IIII", data, off)
    off += 16
    frame = data[off:off + incl]
    seed("frame%05d" % n, 0, frame)
    seeds += 1
    for sel in range(1, len(LINKTYPES)):
        if n % 4 == 0 and len(frame) >= 14:
            seed("frame%05d_%d" % (n, sel), sel,
                 relink(frame, LINKTYPES[sel]))
            seeds += 1
    off += incl
    n += 1
# Boundary cases the generator does not write.
for name, sel, frame in (
        ("empty", 0, b""), ("one_byte", 0, b"\x00"),
        ("eth_only", 0, b"\x00" * 12 + b"\x08\x00"),
        ("jumbo", 0, b"\x00" * 12 + b"\x08\x00" + b"\x45" + b"\x00" * 9000),
        ("sll_short", 1, b"\x00" * 15),
        ("sll_netlink", 1, struct.pack("!HHH8sH", 0, 824, 0, bytes(8), 0x800)),
        ("sll_llc", 1, struct.pack("!HHH8sH", 0, 1, 6, bytes(8), 4) + b"\x42"),
        ("raw_empty", 3, b""), ("raw_v5", 3, b"\x50" + bytes(30)),
        ("null_swapped", 8, struct.pack(">I", 2) + b"\x45" + bytes(19)),
        ("null_unknown", 8, struct.pack("<I", 7) + b"\x45" + bytes(19)),
        ("loop_host", 9, struct.pack("<I", 2) + b"\x45" + bytes(19))):
    seed(name, sel, frame)
    seeds += 1
print("%d seeds in %s" % (seeds, out))
