#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""What the project's Python scripts share about the pipeline (stdlib only).

One definition each of:

  read_jsonl        a JSON-lines file (flow log, --stats-json), one dict a
                    line, blank lines skipped
  Telemetry         a DPDK telemetry v2 client (telemetry_path names the
                    socket of a --file-prefix)
  lat_bucket,       the expiry lateness log2 histogram as the app keeps it
  hist_pct          (tp_counters.h) and its percentiles (tp_counters_lat_pct)
  load_summary,     the app's --summary-json file and the one place that
  summary_get       reads keys from it (versions 1 and 2)
  pcap_read         a classic pcap file, either byte order

Scripts in tools/ import it directly; others put tools/ on sys.path first:

    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", "..", "tools"))
    import tplib

Run as a script it reads summary numbers for the shell tests:

  tplib.py nums SUMMARY.json KEY...
      One value per KEY, space separated (see summary_nums).
"""

import json
import os
import socket
import struct
import sys

# --- JSON lines -----------------------------------------------------------


def read_jsonl(path):
    """The objects of a JSON-lines file, in order, blank lines skipped.

    Exits (SystemExit) with "PATH:LINE: not JSON: why" on a line that is
    not JSON, as every script reading one did.
    """
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                sys.exit("%s:%d: not JSON: %s" % (path, n, e))
    return rows


# --- DPDK telemetry (v2) --------------------------------------------------

TELEMETRY_RUNTIME = "/var/run/dpdk"
TELEMETRY_SOCKET = "dpdk_telemetry.v2"


def telemetry_path(prefix, runtime=TELEMETRY_RUNTIME):
    """The telemetry socket of the DPDK process run with --file-prefix."""
    return os.path.join(runtime, prefix, TELEMETRY_SOCKET)


class Telemetry:
    """A connection to a DPDK telemetry v2 socket (SOCK_SEQPACKET).

    On connect the server sends a JSON greeting holding max_output_len;
    after that each command sent gets one reply, {"<command>": value},
    where value is null for a command nobody registered.
    """

    def __init__(self, path, timeout=10):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.sock.settimeout(timeout)
            self.sock.connect(path)
            self.greeting = json.loads(self.sock.recv(65536).decode())
        except (OSError, ValueError):
            self.sock.close()
            raise
        self.max_len = self.greeting.get("max_output_len", 16384)

    def call(self, cmd):
        """The whole reply to CMD ("/path" or "/path,params")."""
        self.sock.send(cmd.encode())
        return json.loads(self.sock.recv(self.max_len + 1024).decode())

    def query(self, cmd):
        """The dict CMD answers; ValueError when it answers something else
        (null: not registered yet)."""
        reply = self.call(cmd).get(cmd.split(",")[0])
        if not isinstance(reply, dict):
            raise ValueError("no answer to " + cmd)
        return reply

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --- Lateness histogram ---------------------------------------------------

# TP_LAT_BUCKETS (examples/timer_pipeline/reports/tp_slots.h): bucket 0 counts lateness under 1 us, bucket b
# (1..31) lateness in [2^(b-1), 2^b) us, the last one everything above.
LAT_BUCKETS = 32


def lat_bucket(late_ns):
    """The bucket an expiry late_ns after its deadline counts in
    (tp_stats_lateness)."""
    return min((late_ns // 1000).bit_length(), LAT_BUCKETS - 1)


def hist_pct(hist, p, max_us=None):
    """Upper bound (us) of the p-th percentile (0-100) of a log2 lateness
    histogram, as tp_counters_lat_pct computes it: 2^b for the first bucket b
    whose running count reaches ceil(n * p / 100), at most max_us when
    given (the run's maximum). None for an empty histogram (where the app
    writes 0). hist may be a window: the difference of two cumulative
    histograms read at two times."""
    n = sum(hist)
    if n <= 0:
        return None
    want, acc = (n * p + 99) // 100, 0
    for b, c in enumerate(hist):
        acc += c
        if acc >= want:
            return 1 << b if max_us is None else min(1 << b, max_us)
    return 1 << (len(hist) - 1) if max_us is None else max_us


def hist_window(a, b):
    """The histogram of what was counted between cumulative histograms a
    (earlier) and b (later)."""
    return [y - x for x, y in zip(a, b)]


# --- --summary-json -------------------------------------------------------

# The versions of --summary-json this reader knows.
SUMMARY_VERSIONS = (1, 2)
# Keys version 2 renamed: current name (as callers spell it, a path from
# the top) -> its name in version 1. Every read goes through summary_get,
# so a rename is one line here.
SUMMARY_V1_NAMES = {
    "counters.timers_armed_first": "counters.timers_armed",
    "counters.timers_armed": "check.timers_armed",
    "check.rx_pkts": "check.packets_rx",
    "check.forwarded": "check.packets_forwarded",
    "check.dropped": "check.packets_dropped",
    "check.events_in_flight": "check.packets_in_flight",
}


def check_summary(doc, what="summary"):
    """doc itself when it is a summary of a known version, else
    ValueError."""
    v = doc.get("version") if isinstance(doc, dict) else None
    if v not in SUMMARY_VERSIONS:
        raise ValueError("%s: summary version %r, this reader knows %s" %
                         (what, v, ", ".join(map(str, SUMMARY_VERSIONS))))
    return doc


def load_summary(path):
    """The --summary-json file at path. OSError when it cannot be read,
    ValueError when it is not JSON or not a summary of a known version."""
    with open(path) as f:
        return check_summary(json.load(f), path)


def summary_key(key):
    """The full path of KEY: with a dot, a path from the top
    ("check.flows_live", "times.stopped_ms"); without, a counter
    ("rx_pkts" = "counters.rx_pkts")."""
    return key if "." in key else "counters." + key


def summary_get(doc, key, default=None):
    """The value at KEY (see summary_key) in a summary of any known
    version, or default when it is not there."""
    path = summary_key(key)
    if doc.get("version") == 1:
        path = SUMMARY_V1_NAMES.get(path, path)
    v = doc
    for part in path.split("."):
        if not isinstance(v, dict) or part not in v:
            return default
        v = v[part]
    return v


def summary_nums(path, keys):
    """One word per key for a shell: the value ("true"/"false" for a
    boolean), or "none" when the file or the key is missing or the value
    is an object (what tp_nums in tests/pipeline/lib.sh prints)."""
    try:
        doc = load_summary(path)
    except OSError:
        doc = {}
    except ValueError as e:
        print("tplib: %s" % e, file=sys.stderr)
        doc = {}
    out = []
    for key in keys:
        v = summary_get(doc, key)
        if isinstance(v, bool):
            v = str(v).lower()
        out.append("none" if v is None or isinstance(v, dict) else str(v))
    return out


# --- pcap -----------------------------------------------------------------

PCAP_MAGIC_US = 0xA1B2C3D4
PCAP_MAGIC_NS = 0xA1B23C4D
PCAP_GLOBAL = "IHHiIII"
PCAP_RECORD = "IIII"


def pcap_read(path):
    """A classic pcap file: (endian, header, records).

    endian is "<" or ">"; header the global header's fields (magic, major,
    minor, thiszone, sigfigs, snaplen, linktype); records a list of (sec,
    frac, orig_len, data), frac in us or ns as the magic says, data the
    captured bytes (shorter than caplen when the file ends inside them).
    A file shorter than a global header gives (None, None, []); a record
    header cut short ends the list. ValueError for an unknown magic.
    """
    with open(path, "rb") as f:
        raw = f.read()
    size = struct.calcsize(PCAP_GLOBAL)
    if len(raw) < size:
        return None, None, []
    for endian in "<>":
        header = struct.unpack_from(endian + PCAP_GLOBAL, raw, 0)
        if header[0] in (PCAP_MAGIC_US, PCAP_MAGIC_NS):
            break
    else:
        raise ValueError("%s: not a pcap file (magic %s)" %
                         (path, raw[:4].hex()))
    rec = struct.Struct(endian + PCAP_RECORD)
    records, off = [], size
    while off + rec.size <= len(raw):
        sec, frac, caplen, orig = rec.unpack_from(raw, off)
        off += rec.size
        records.append((sec, frac, orig, raw[off:off + caplen]))
        off += caplen
    return endian, header, records


def pcap_ns(header, sec, frac):
    """A record's time in ns since the epoch."""
    return sec * 10**9 + frac * (1 if header[0] == PCAP_MAGIC_NS else 1000)


def nfdump_raw(path):
    """`nfdump -o raw` output: one dict per 'Flow Record', its 'key = value'
    lines stripped (values as nfdump prints them, e.g. "8 (0x08)")."""
    recs, cur = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("Flow Record"):
                cur = {}
                recs.append(cur)
            elif cur is not None and "=" in line:
                k, v = line.split("=", 1)
                cur[k.strip()] = v.strip()
    return recs


def raw_num(v, base=10):
    """The number that starts an nfdump raw value ("17 (udp)" -> 17)."""
    return int(v.split()[0], base)


def unittest_main(name, module):
    """Run a module's unittest cases; print the suite's RESULT line.

    The tests/ convention: "RESULT NAME: N passed, N failed" last. Returns
    the exit status: 0 when every case ran and passed."""
    import unittest
    verbosity = 2 if "-v" in sys.argv[1:] else 1
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    res = unittest.TextTestRunner(stream=sys.stdout,
                                  verbosity=verbosity).run(suite)
    failed = len(res.failures) + len(res.errors)
    passed = res.testsRun - failed - len(res.skipped)
    print("RESULT %s: %d passed, %d failed" % (name, passed, failed))
    return 0 if failed == 0 and res.testsRun > 0 else 1


def main(argv):
    if len(argv) >= 3 and argv[1] == "nums":
        print(" ".join(summary_nums(argv[2], argv[3:])))
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
