#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""What a fresh page of file memory costs on this machine (stdlib only).

The benchmarks' programs write their records into files (a flow log on
tmpfs, nfcapd files and a flow log on ext4), and each 4 KB they write
takes a page of memory. On a VM that gives the memory it leaves free
back to its host (free page reporting), a page the VM has not used
lately costs the host's fault as well, and that cost is the machine's,
not the program's: on the development VMs about 6 us a page on
2026-12-05 and 10 to 11 on a new one on 2026-12-06 (docs/bench.rst), and
how much memory is still warm moves from run to run. So the benchmarks
measure it beside their runs and say what it adds to each program's
output.

  bench_pages.py probe DIR OUT.json
      Wait IDLE_S (15 s) idle, so that the memory freed so far goes back
      to the host; then write 2 GB into a file in DIR in 64-KB writes
      (as the flow log's buffer goes out), delete it, and write it again
      at once. OUT gets
      the ms per GB of each 256 MB of both passes; "reused_ms_per_gb",
      the median of the second pass; "fresh_ms_per_gb", the median of
      the first pass's chunks that took more than twice that (null when
      none did), and "warm_mb", what the first pass wrote before the
      first such chunk: the memory the VM still held from recent work
      (1 to 2 GB here): past it, the first pass takes pages the VM
      gave back to its host.

Imported: extra_ms(probe, nbytes) is the most that fresh pages add to
writing nbytes (all of them fresh), line(probe) the probe in one line.
"""

import json
import os
import statistics
import sys
import time

IDLE_S = 15
PROBE_MB = 2048
CHUNK_MB = 256
BLOCK = 65536


def probe_pass(path):
    """ms per GB of each CHUNK_MB written into a new file at path."""
    block = b"x" * BLOCK
    out = []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for _ in range(PROBE_MB // CHUNK_MB):
            t = time.perf_counter()
            for _ in range(CHUNK_MB * (1 << 20) // BLOCK):
                os.write(fd, block)
            out.append(round((time.perf_counter() - t) * 1e3 * 1024 /
                             CHUNK_MB, 1))
    finally:
        os.close(fd)
        os.unlink(path)
    return out


def summarise(first, again):
    """The probe's document from its two passes (ms per GB per chunk)."""
    reused = statistics.median(again)
    slow = [i for i, x in enumerate(first) if x > 2 * reused]
    return {"idle_s": IDLE_S, "mb": PROBE_MB, "chunk_mb": CHUNK_MB,
            "first_ms_per_gb": first, "again_ms_per_gb": again,
            "fresh_ms_per_gb": statistics.median(first[i] for i in slow)
            if slow else None,
            "warm_mb": (slow[0] if slow else len(first)) * CHUNK_MB,
            "reused_ms_per_gb": reused}


def cmd_probe(argv):
    d = argv[0]
    path = os.path.join(d, "bench_pages_probe.%d" % os.getpid())
    time.sleep(IDLE_S)
    try:
        first = probe_pass(path)
        doc = summarise(first, probe_pass(path))
    except OSError as e:
        doc = {"error": str(e)}
    doc["dir"] = d
    with open(argv[1], "w") as f:
        json.dump(doc, f)
        f.write("\n")
    return 0


def extra_ms(probe, nbytes):
    """The most fresh pages add to writing nbytes, in ms (None: the probe
    saw no fresh page, or failed)."""
    if not probe or probe.get("fresh_ms_per_gb") is None or \
            nbytes is None:
        return None
    return (probe["fresh_ms_per_gb"] - probe["reused_ms_per_gb"]) * \
        nbytes / 2**30


def line(probe):
    """The probe in one line."""
    if not probe:
        return "fresh pages: not measured"
    if probe.get("error"):
        return "fresh pages in %s: probe failed (%s)" % (
            probe.get("dir", "?"), probe["error"])
    fresh = probe["fresh_ms_per_gb"]
    return ("fresh pages in %s, %d MB in 64-KB writes, ms/GB per %d MB: "
            "after %d s idle %s; again at once %s: %s, reused %.0f"
            % (probe.get("dir", "?"), probe["mb"], probe["chunk_mb"],
               probe.get("idle_s", IDLE_S),
               " ".join("%.0f" % x for x in probe["first_ms_per_gb"]),
               " ".join("%.0f" % x for x in probe["again_ms_per_gb"]),
               "no fresh page in %d MB" % probe["mb"] if fresh is None
               else "fresh %.0f past %d MB warm" % (fresh,
                                                    probe["warm_mb"]),
               probe["reused_ms_per_gb"]))


def main(argv):
    if len(argv) != 3 or argv[0] != "probe":
        sys.exit(__doc__)
    return cmd_probe(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
