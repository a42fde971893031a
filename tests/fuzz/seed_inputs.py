#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Seed corpora of the fuzz targets, from the tests' own inputs.

    seed_inputs.py TARGET DIR

TARGET is one of:
  options  fuzz_options.c records (selector byte, value, NUL): every
           argument vector of tests/pipeline/cmdline.sh as raw tokens,
           and for each entry of the option table (the selector picks it,
           so no name is listed here) hostile values: overflow, negative,
           empty, huge or fractional durations, bad units, long strings
  ini      configs/*.ini, the INI files tests/pipeline/cmdline.sh writes,
           and hostile ones (long values, a section given twice, keys
           before a section, escapes, CRLF, an [eal] section)
  capture  fuzz_capture.c inputs (flags byte, file): tools/gen_pcap.py
           captures of every link type, pcapng (one and two interfaces),
           oversize records; pcap_tool.py's big-endian, nanosecond and cut
           copies; pcapng holding every block type; bad magic, truncated
           headers, huge lengths
  ipfix    fuzz_ipfix.c inputs: the flows of tests/test_ipfix.c's table
           (zero and maximum counters and times, IPv4/IPv6, VLAN, ICMP,
           every end reason), in messages of every size
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", ".."))
PY = sys.executable


def write(out, name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


# --- options ---------------------------------------------------------------

HOSTILE = [b"", b"0", b"1", b"-1", b"-0", b"+5", b" 5", b"\t5", b"5 ",
           b"4294967295", b"4294967296", b"18446744073709551615",
           b"18446744073709551616", b"99999999999999999999999999",
           b"0x10", b"0x0x10", b"ffffffffffffffff", b"10000000000000000",
           b"1e3", b"5x", b"5sec", b"1.5m", b"0.5", b"1.", b".5",
           b"0.0000000001s", b"1.123456789h", b"18446744073.9s",
           b"5124095576030431h", b"9999999999h", b"7d", b"1000ms",
           b"10us", b"500ns", b"yes", b"no", b"maybe", b"atomic",
           b"0,2-3", b"3-1", b"0,,1", b"127", b"128", b"0-127",
           b"10.0.0.1:80", b"[2001:db8::1]:53", b"any:443", b"any",
           b"[::1]:65536", b"::1", b"a" * 300, b"b" * 5000, b"/dev/null",
           b"-", b"--", b"="]


def cmdline_vectors():
    """The argument vectors of cmdline.sh's PRE_EAL cases."""
    text = open(os.path.join(SRC, "tests", "pipeline", "cmdline.sh")).read()
    for name, args in re.findall(r'^\s*"([a-z0-9_]+)\|[^|"]*\|([^"]*)"',
                                 text, re.M):
        if "$" not in args:
            yield name, args.split()


def seeds_options(out):
    for name, argv in cmdline_vectors():
        # Form 3 (top bits 11): the token as it is.
        write(out, "cmdline_" + name,
              b"".join(b"\xc0" + a.encode() + b"\0" for a in argv))
    for sel in range(64):
        for i in range(0, len(HOSTILE), 6):
            vals = HOSTILE[i:i + 6]
            recs = b"".join(bytes([sel | (0x40 if k % 2 else 0)]) + v + b"\0"
                            for k, v in enumerate(vals))
            write(out, "opt%02d_%02d" % (sel, i), recs)
        write(out, "opt%02d_short" % sel, bytes([sel | 0x80]) + b"1\0")


# --- ini -------------------------------------------------------------------

def seeds_ini(out):
    cfgdir = os.path.join(SRC, "configs")
    for f in sorted(os.listdir(cfgdir)):
        if f.endswith(".ini"):
            write(out, "configs_" + f, open(os.path.join(cfgdir, f),
                                            "rb").read())
    text = open(os.path.join(SRC, "tests", "pipeline", "cmdline.sh")).read()
    for body, name in re.findall(r"printf '([^']*)' *>\"\$CFG/([a-z_]+)\.ini\"",
                                 text):
        write(out, "cmdline_" + name,
              body.replace("\\n", "\n").replace("\\t", "\t").encode())
    hostile = {
        "long_value": b"[records]\nflow-log = " + b"x" * 300 + b"\n",
        "value_255": b"[records]\nflow-log = " + b"x" * 255 + b"\n",
        "value_256": b"[records]\nflow-log = " + b"x" * 256 + b"\n",
        "long_key": b"[flows]\n" + b"k" * 70 + b" = 1\n",
        "long_section": b"[" + b"s" * 70 + b"]\nflows = 100\n",
        "long_line": b"[flows]\nflows = 100" + b" " * 400 + b"\n",
        "twice": b"[timeouts]\ntmo-udp = 5s\n[flows]\nflows = 100\n"
                 b"[timeouts]\ntmo-udp = 7s\n",
        "twice_bad": b"[eventdev]\nevents = 4096\n[eventdev]\n"
                     b"stats-period = 5\n",
        "no_section": b"flows = 100\n[flows]\n",
        "empty_value": b"[flows]\nflows =\n",
        "escape": b"[records]\nflow-log = a\\#b # comment\n",
        "crlf": b"[flows]\r\nflows = 100\r\n",
        "eal": b"[eal]\nargs = -l 0-1 --no-pci\n[run]\nduration = 5\n",
        "eal_bad_key": b"[eal]\nlcores = 0-1\n",
        "eq_in_value": b"[records]\nflow-log = a=b\n",
        "nul": b"[flows]\nflows = 1\x0000\n",
        "empty": b"",
        "only_comment": b"# nothing\n",
        "indented": b"  [flows]\n  flows = 100\n",
        "duration_wrap": b"[timeouts]\ntmo-udp = 18446744073.9s\n",
    }
    for name, body in hostile.items():
        write(out, "hostile_" + name, body)


# --- capture ---------------------------------------------------------------

def block(btype, body, endian="<"):
    body += b"\0" * (-len(body) % 4)
    n = len(body) + 12
    return struct.pack(endian + "II", btype, n) + body + \
        struct.pack(endian + "I", n)


def pcapng_every_block(frame, linktype=1):
    """SHB, IDB, EPB, SPB, OPB (obsolete), NRB, ISB, DSB, custom, unknown."""
    opt_end = struct.pack("<HH", 0, 0)
    comment = struct.pack("<HH", 1, 5) + b"hello\0\0\0" + opt_end
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) +
                comment)
    tsres = struct.pack("<HHB", 9, 1, 9) + b"\0\0\0" + opt_end
    out += block(1, struct.pack("<HHI", linktype, 0, 262144) + tsres)
    out += block(6, struct.pack("<IIIII", 0, 1, 2, len(frame), len(frame))
                 + frame)
    out += block(3, struct.pack("<I", len(frame)) + frame)
    out += block(2, struct.pack("<HHIIII", 0, 0, 1, 3, len(frame),
                                len(frame)) + frame)
    out += block(4, struct.pack("<HH", 1, 8) + bytes([10, 0, 0, 1]) +
                 b"host" + struct.pack("<HH", 0, 0))
    out += block(5, struct.pack("<III", 0, 1, 4) + opt_end)
    out += block(10, struct.pack("<II", 0x544c534b, 4) + b"keys")
    out += block(0xBAD, struct.pack("<I", 32473) + b"custom")
    out += block(0x40000BAD, struct.pack("<I", 32473) + b"custom")
    out += block(0x12345, b"unknown block")
    out += block(6, struct.pack("<IIIII", 0, 1, 3, len(frame), len(frame))
                 + frame)
    return out


def seeds_capture(out):
    tmp = tempfile.mkdtemp(prefix="tp_seeds.")
    gen = [PY, os.path.join(SRC, "tools", "gen_pcap.py")]
    tool = [PY, os.path.join(SRC, "tests", "pipeline", "pcap_tool.py")]
    files = []

    def run(args):
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    for lt in ["ether", "ipv4", "ipv6", "loop", "null", "raw", "sll",
               "sll2"]:
        p = os.path.join(tmp, lt + ".pcap")
        run(gen + ["-o", p, "--seed", "3", "--flows", "3", "--pkts", "2",
                   "--linktype", lt])
        files.append((lt, p))
    p = os.path.join(tmp, "malformed.pcap")
    run(gen + ["-o", p, "--seed", "5", "--flows", "2", "--malformed", "8",
               "--garbage", "4", "--vlan-pct", "50", "--qinq-pct", "50"])
    files.append(("malformed", p))
    p = os.path.join(tmp, "mixed.pcapng")
    run(gen + ["-o", p, "--seed", "3", "--flows", "4", "--pkts", "2",
               "--mixed-linktype", "sll"])
    files.append(("mixed_pcapng", p))
    p = os.path.join(tmp, "big.pcap")
    run(gen + ["-o", p, "--seed", "3", "--flows", "1", "--pkts", "2",
               "--mix", "tcp=1", "--big-tcp", "1", "--big-tcp-size",
               "70000"])
    files.append(("oversize", p))
    good = files[0][1]
    for mode in ["bigendian", "nanosecond"]:
        p = os.path.join(tmp, mode + ".pcap")
        run(tool + [mode, good, p])
        files.append((mode, p))
    for where in ["header", "data"]:
        p = os.path.join(tmp, "cut_" + where + ".pcap")
        run(tool + ["cut", good, p, "2", where])
        files.append(("cut_" + where, p))
    p = os.path.join(tmp, "one.pcapng")
    run(tool + ["pcapng", good, p, "1"])
    files.append(("pcapng", p))
    p = os.path.join(tmp, "radiotap.pcapng")
    run(tool + ["pcapng", good, p, "127"])
    files.append(("pcapng_radiotap", p))
    p = os.path.join(tmp, "wifi.pcap")
    run(tool + ["linktype", good, p, "105"])
    files.append(("wifi", p))
    p = os.path.join(tmp, "empty.pcap")
    run(tool + ["empty", p])
    files.append(("empty_pcap", p))
    for name, path in files:
        data = open(path, "rb").read()
        for flags in (0, 1, 2, 4):
            write(out, "%s_%d" % (name, flags), bytes([flags]) + data)
        os.unlink(path)
    os.rmdir(tmp)
    frame = bytes(12) + b"\x08\x00" + b"\x45" + bytes(39)
    hdr = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    rec = struct.pack("<IIII", 1, 0, len(frame), len(frame)) + frame
    extra = {
        "every_block": pcapng_every_block(frame),
        "every_block_sll": pcapng_every_block(bytes(16), 113),
        "bad_magic": b"\xde\xad\xbe\xef" + bytes(40),
        "short_magic": b"\xd4\xc3",
        "short_header": hdr[:20],
        "pcap_v2_3": hdr[:4] + struct.pack("<HH", 2, 3) + hdr[8:] + rec,
        "huge_caplen": hdr + struct.pack("<IIII", 1, 0, 0xFFFFFFF0, 60),
        "caplen_over_snaplen": struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0,
                                           0, 16, 1) + rec,
        "caplen_262144": hdr + struct.pack("<IIII", 1, 0, 262144, 262144),
        "time_gap": hdr + rec + struct.pack("<IIII", 100000, 0, len(frame),
                                            len(frame)) + frame,
        "ng_short_block": block(0x0A0D0D0A, struct.pack(
            "<IHHq", 0x1A2B3C4D, 1, 0, -1))[:20],
        "ng_big_block_len": struct.pack("<III", 0x0A0D0D0A, 0xFFFFFFF0,
                                        0x1A2B3C4D) + bytes(20),
        "ng_bigendian": block(0x0A0D0D0A, struct.pack(
            ">IHHq", 0x1A2B3C4D, 1, 0, -1), ">") + block(
            1, struct.pack(">HHI", 1, 0, 65535), ">") + block(
            6, struct.pack(">IIIII", 0, 1, 2, len(frame), len(frame)) +
            frame, ">"),
        "ng_epb_no_idb": block(0x0A0D0D0A, struct.pack(
            "<IHHq", 0x1A2B3C4D, 1, 0, -1)) + block(
            6, struct.pack("<IIIII", 3, 1, 2, len(frame), len(frame)) +
            frame),
    }
    for name, data in extra.items():
        for flags in (0, 1, 2, 4):
            write(out, "%s_%d" % (name, flags), bytes([flags]) + data)


# --- ipfix -----------------------------------------------------------------

U64 = 2**64 - 1
U32 = 2**32 - 1


def flow(src, dst, start=0, end=0, octets=(0, 0), packets=(0, 0), in_if=0,
         sport=0, dport=0, vlan=0, icmp=0, ipver=4, proto=17,
         flags=(0, 0), reason=1):
    return (bytes(src).ljust(16, b"\0") + bytes(dst).ljust(16, b"\0") +
            struct.pack("<QQQQQQIHHHHBBBBB", start, end, octets[0],
                        octets[1], packets[0], packets[1], in_if, sport,
                        dport, vlan, icmp, ipver, proto, flags[0], flags[1],
                        reason))


# The table of tests/test_ipfix.c.
FLOWS = [
    flow([10, 0, 0, 1], [10, 0, 0, 2], reason=1),
    flow([255] * 4, [0] * 4, U64 - 1, U64, (U64, U64), (U64, U64), U32,
         65535, 65535, proto=6, flags=(0xff, 0xff), reason=2),
    flow([0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [1],
         [0xfe, 0x80] + [0] * 12 + [0xab, 0xcd], 1700000000000,
         1700000000999, (1514, 60), (1, 1), ipver=6, proto=6, sport=443,
         dport=50000, flags=(0x12, 0x10), reason=3),
    flow([192, 168, 1, 1], [192, 168, 1, 2], 1, 2, (64, 0), (1, 0), 3, 53,
         53, vlan=4095, reason=4),
    flow([1, 2, 3, 4], [5, 6, 7, 8], 10, 20, (98, 98), (1, 1), proto=1,
         icmp=0xffff, reason=5),
    flow([0xfd] + [0] * 14 + [1], [0xfd] + [0] * 14 + [2], 5, 5, (104, 0),
         (1, 0), ipver=6, proto=58, vlan=1, icmp=0x8000, reason=1),
    flow([0] * 15 + [1], [0] * 15 + [1], octets=(1, 2), packets=(3, 4),
         ipver=6, proto=47, reason=4),
]
STATS = struct.pack("<IQQQQHHI", 4242, U64, 7, 3, 1700000000123, 65535, 600,
                    0)


def seeds_ipfix(out):
    for mtu in range(5):
        write(out, "table_%d" % mtu, bytes([mtu]) + STATS +
              b"".join(b"\0" + f for f in FLOWS))
        write(out, "fill_%d" % mtu, bytes([mtu]) + STATS +
              b"".join(b"\x03\xff" + f for f in FLOWS[:3]) + b"\x02")
        write(out, "refresh_%d" % mtu, bytes([mtu | 0x80]) + STATS +
              b"\x01" + STATS + b"\x00" + FLOWS[1] + b"\x01" + STATS)
    for reason in range(0, 256, 51):
        write(out, "reason_%d" % reason, b"\x01" + STATS + b"\0" +
              FLOWS[0][:-1] + bytes([reason]))


TARGETS = {"options": seeds_options, "ini": seeds_ini,
           "capture": seeds_capture, "ipfix": seeds_ipfix}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in TARGETS:
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    TARGETS[sys.argv[1]](sys.argv[2])
