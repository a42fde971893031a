#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Write every frame of a pcap file as one seed file: seeds.py PCAP DIR."""
import os
import struct
import sys

pcap, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with open(pcap, "rb") as f:
    data = f.read()
magic = struct.unpack_from("<I", data, 0)[0]
end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
off, n = 24, 0
while off + 16 <= len(data):
    _, _, incl, _ = struct.unpack_from(end + "IIII", data, off)
    off += 16
    with open(os.path.join(out, "frame%05d" % n), "wb") as s:
        s.write(data[off:off + incl])
    off += incl
    n += 1
# Boundary cases the generator does not write.
for name, frame in (("empty", b""), ("one_byte", b"\x00"),
                    ("eth_only", b"\x00" * 12 + b"\x08\x00"),
                    ("jumbo", b"\x00" * 12 + b"\x08\x00" + b"\x45" + b"\x00" * 9000)):
    with open(os.path.join(out, name), "wb") as s:
        s.write(frame)
print("%d seeds in %s" % (n + 4, out))
