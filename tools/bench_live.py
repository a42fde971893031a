#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""The live-rate search of scripts/bench_live.sh (Python 3 stdlib).

  bench_live.py --bin PIPELINE --cap CAPTURE --ns-send NS --ns-recv NS
                --if-send IF --if-recv IF --out OUT.json
                [--inputs af_xdp,af_packet,pcap,softflowd] [--reps 3]
                [--start-pps 20000] [--max-pps 1280000] [--secs 1.5]
                [--bisect 3] --vdev NAME=VDEV:RXD:SLEEP:LCORES...

For each input, the highest rate at which it receives every packet the
sender sent: tcpreplay --pps R (in NS_SEND, on IF_SEND) sends R * SECS
packets of CAPTURE (looped) over the veth to IF_RECV, where the input
reads them (in NS_RECV). A trial loses nothing when the input counted
every packet tcpreplay says it sent (the pipeline: rx_pkts and imissed 0;
softflowd -i: libpcap's received less its drops) and its run passed its
own checks. A step (rate) passes when all its repetitions lose nothing.
The search doubles the rate from START_PPS until a step fails (or the
sender cannot reach the rate: the input is then not the limit), then
bisects BISECT times between the last pass and the first failure. Steps
are interleaved: each round runs the next rate of every input still
searching, repetition by repetition, inputs in turn. Each trial also
records the sender's achieved rate and its CPU use (user + system
seconds of tcpreplay over its wall time, from wait4()).
"""

import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tplib  # noqa: E402



def netns(ns, argv):
    return ["ip", "netns", "exec", ns] + argv


def pin(cpu):
    """taskset's prefix for a program on one CPU, or none."""
    return [] if cpu is None else ["taskset", "-c", str(cpu)]


def wait_for(path, text, proc, secs=30):
    """True once path holds text; False if proc ended or secs passed."""
    end = time.time() + secs
    while time.time() < end:
        try:
            with open(path, errors="replace") as f:
                if text in f.read():
                    return True
        except OSError:
            pass
        if proc.poll() is not None:
            return False
        time.sleep(0.1)
    return False


def send(a, pps, count):
    """tcpreplay: (packets sent, achieved pps, CPU fraction, log)."""
    loops = max(1, math.ceil(count / a.cap_pkts))
    argv = netns(a.ns_send, pin(a.sender_cpu) + [
        "tcpreplay", "-q", "-i", a.if_send,
                             "--pps", str(pps), "--loop", str(loops),
                             "--limit", str(count), a.cap])
    t0 = time.time()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.time() - t0
    m = re.search(r"Actual: (\d+) packets .* sent in ([\d.]+) seconds", out)
    sent = int(m.group(1)) if m else 0
    secs = float(m.group(2)) if m else wall
    cpu = (ru.ru_utime + ru.ru_stime) / wall if wall > 0 else 0.0
    return sent, sent / secs if secs > 0 else 0.0, cpu, out


def trial_pipeline(a, name, pps, tmp, n):
    prefix = "tp_bench_live_%d_%d" % (os.getpid(), n)
    log = os.path.join(tmp, "%s.log" % prefix)
    summ = os.path.join(tmp, "%s.sum.json" % prefix)
    argv = netns(a.ns_recv, [
        "timeout", "-k", "5", "120", a.bin] + a.vdev[name][3].split() + [
        "--no-pci"] + a.mem + ["--file-prefix", prefix,
        "--log-level=lib.eal:warning", "--vdev=event_sw0",
        "--vdev=" + a.vdev[name][0], "--", "--fwd-mode", "monitor",
        "--rxd", a.vdev[name][1], "-T", "1",
        "--idle-sleep-us", a.vdev[name][2],
        "--flows", "65536",
        "--summary-json", summ])
    with open(log, "w") as f:
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT)
    if not wait_for(log, "=== timer_pipeline stats", p):
        p.kill()
        p.wait()
        return {"error": "did not start: " + open(log).read()[-300:]}
    sent, rate, cpu, _ = send(a, pps, int(pps * a.secs))
    time.sleep(0.3)		# the last frames through the veth
    subprocess.run(["pkill", "-INT", "-P", str(p.pid)])
    p.wait()
    try:
        s = tplib.load_summary(summ)
    except (OSError, ValueError) as e:
        return {"error": "no summary: %s" % e}
    c = s["counters"]
    drops = s.get("input_drops", {})
    got = c["rx_pkts"]
    ok = (p.returncode == 0 and s["check"]["passed"] and got == sent and
          (drops.get("imissed") or 0) == 0)
    for f in (log, summ):
        os.unlink(f)
    return {"sent": sent, "got": got, "imissed": drops.get("imissed"),
            "drops_known": drops.get("known"), "rc": p.returncode,
            "sender_pps": round(rate), "sender_cpu": round(cpu, 3),
            "lost": not ok}


def trial_softflowd(a, pps, tmp, n):
    ctl = os.path.join(tmp, "sf%d.ctl" % n)
    log = os.path.join(tmp, "sf%d.log" % n)
    argv = netns(a.ns_recv, pin(a.softflowd_cpu) + [
        "timeout", "-k", "5", "120", "softflowd",
                             "-i", a.if_recv, "-d", "-c", ctl,
                             "-n", "127.0.0.1:9995", "-p",
                             os.path.join(tmp, "sf%d.pid" % n)])
    with open(log, "w") as f:
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT)
    if not wait_for(log, "Exporting flows", p):
        p.kill()
        p.wait()
        return {"error": "softflowd did not start"}
    time.sleep(0.3)
    sent, rate, cpu, _ = send(a, pps, int(pps * a.secs))
    time.sleep(0.3)
    st = subprocess.run(netns(a.ns_recv, ["softflowctl", "-c", ctl,
                                          "statistics"]),
                        capture_output=True, text=True).stdout
    subprocess.run(netns(a.ns_recv, ["softflowctl", "-c", ctl, "shutdown"]),
                   capture_output=True)
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()

    def num(label):
        m = re.search(label + r": (\d+)", st)
        return int(m.group(1)) if m else None
    os.unlink(log)
    rcvd = num("Packets received by libpcap")
    dropped = (num("Packets dropped by libpcap") or 0) + \
        (num("Packets dropped by interface") or 0)
    got = None if rcvd is None else rcvd - dropped
    return {"sent": sent, "got": got, "imissed": dropped,
            "drops_known": True, "rc": 0, "sender_pps": round(rate),
            "sender_cpu": round(cpu, 3),
            "lost": got is None or got != sent or dropped != 0}


def trial(a, name, pps, tmp, n):
    if name == "softflowd":
        return trial_softflowd(a, pps, tmp, n)
    return trial_pipeline(a, name, pps, tmp, n)


class Search:
    """One input's step search: doubling, then bisection."""

    def __init__(self, name, a):
        self.name, self.a = name, a
        self.rate = a.start_pps
        self.good, self.bad = 0, None
        self.bisects = 0
        self.limit = None	# why the search stopped early
        self.steps = []

    def done(self):
        return self.rate is None

    def record(self, rate, trials):
        passed = all(not t.get("lost", True) and "error" not in t
                     for t in trials)
        reached = min((t.get("sender_pps", 0) for t in trials), default=0)
        self.steps.append({"pps": rate, "passed": passed,
                           "trials": trials})
        if any("error" in t for t in trials):
            self.limit = "error: " + [t["error"] for t in trials
                                      if "error" in t][0]
            self.rate = None
            return
        if passed:
            # Lossless at what the sender reached, if short of the rate.
            self.good = min(rate, reached)
        else:
            self.bad = rate
        if self.bad is None:
            if reached < 0.9 * rate:
                self.limit = ("the sender reached %d of %d packets/s: "
                              "the input was not the limit" %
                              (reached, rate))
                self.rate = None
            elif rate * 2 > self.a.max_pps:
                self.limit = "--max-pps %d reached" % self.a.max_pps
                self.rate = None
            else:
                self.rate = rate * 2
            return
        if self.bisects >= self.a.bisect or self.bad - self.good <= 1000:
            self.rate = None
            return
        self.bisects += 1
        self.rate = (self.good + self.bad) // 2


def main():
    ap = argparse.ArgumentParser()
    for k in ("bin", "cap", "ns-send", "ns-recv", "if-send", "if-recv",
              "out"):
        ap.add_argument("--" + k, required=True)
    ap.add_argument("--inputs", default="af_xdp,af_packet,pcap,softflowd")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--start-pps", type=int, default=20000)
    ap.add_argument("--max-pps", type=int, default=1280000)
    ap.add_argument("--secs", type=float, default=1.5)
    ap.add_argument("--bisect", type=int, default=3)
    ap.add_argument("--vdev", action="append", default=[], dest="vdevs",
                    metavar="NAME=VDEV:RXD:SLEEP:LCORES",
                    help="each pipeline input's --vdev, --rxd, "
                    "--idle-sleep-us and EAL lcore options "
                    "(scripts/run_live.sh --print-vdev)")
    ap.add_argument("--iface-tuning", default="",
                    help="the settings of the receiving end of the veth "
                    "(FILE=VALUE ..., scripts/run_live.sh --print-tuning), "
                    "recorded in the output")
    ap.add_argument("--sender-cpu", type=int, default=None,
                    help="the CPU tcpreplay runs on (taskset)")
    ap.add_argument("--softflowd-cpu", type=int, default=None,
                    help="the CPU softflowd runs on (taskset): that of "
                    "the pipeline's lcore 0")
    ap.add_argument("--no-huge", action="store_true",
                    help="the pipeline without hugepages (default: -m 256)")
    a = ap.parse_args()
    a.mem = ["--no-huge", "-m", "1024"] if a.no_huge else ["-m", "256"]
    a.vdev = {}
    for v in a.vdevs:
        name, rest = v.split("=", 1)
        vdev, rxd, sleep, lcores = rest.rsplit(":", 3)
        a.vdev[name] = (vdev, rxd, sleep, lcores)
    a.cap_pkts = len(tplib.pcap_read(a.cap)[2])
    searches = [Search(n, a) for n in a.inputs.split(",")]
    tmp = tempfile.mkdtemp(prefix="tp_bench_live_")
    n = 0
    signal.signal(signal.SIGINT, signal.default_int_handler)
    while not all(s.done() for s in searches):
        live = [s for s in searches if not s.done()]
        results = {s.name: [] for s in live}
        for rep in range(a.reps):
            for s in live:		# interleaved: inputs in turn
                n += 1
                t = trial(a, s.name, s.rate, tmp, n)
                t["rep"] = rep + 1
                results[s.name].append(t)
                print("  %-9s %8d pps rep %d: %s" % (
                    s.name, s.rate, rep + 1,
                    t.get("error") or "sent %d got %s imissed %s "
                    "sender %d pps %.0f%% CPU%s" % (
                        t["sent"], t["got"], t["imissed"],
                        t["sender_pps"], 100 * t["sender_cpu"],
                        " LOST" if t["lost"] else "")), flush=True)
        for s in live:
            s.record(s.rate, results[s.name])
    doc = {"eal_memory": " ".join(a.mem), "vdevs": {k: {"vdev": v[0], "rxd": int(v[1]), "idle_sleep_us": int(v[2]), "eal_lcores": v[3]}
                     for k, v in a.vdev.items()},
           "cpus": {"sender": a.sender_cpu, "softflowd": a.softflowd_cpu},
           "iface_tuning": dict(kv.split("=", 1)
                                for kv in a.iface_tuning.split()),
           "capture": {"path": os.path.basename(a.cap),
                       "packets": a.cap_pkts},
           "method": {"reps": a.reps, "start_pps": a.start_pps,
                      "max_pps": a.max_pps, "secs_per_trial": a.secs,
                      "bisect": a.bisect},
           "inputs": {}}
    for s in searches:
        doc["inputs"][s.name] = {
            "max_lossless_pps": s.good, "first_loss_pps": s.bad,
            "stopped": s.limit or "bisected", "steps": s.steps}
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.rmdir(tmp) if not os.listdir(tmp) else None


if __name__ == "__main__":
    main()
