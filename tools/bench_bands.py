#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""How far apart the two CPUs were, second by second (tools/cpu_hop.c).

On a VM, a vCPU's thread can move between host cores. On docs/bench.rst's
2-vCPU VM the two vCPUs are either near (cpu_hop: some 30 ns a one-way
pass) or far (some 135 ns), and a program that hands every packet from
one CPU to the other forwards some 6 or some 4 Mpps accordingly, both
l2fwd-event and timer_pipeline. Which of the two a run draws is the
host's doing and changes within seconds; so that two programs are
compared at the same distance, each per-second rate gets the distance
the samples around it saw:

- split(readings): the two groups of the samples (two means on the log
  of the times, samples over 20 times the 10th percentile dropped: a
  thread preempted throughout), or one group when they are not at least
  2 apart (then nothing is told apart);
- label(...): "near" or "far" for a second whose samples all fall on
  one side of the split, None when they disagree or there are none
  (label_window(...): the same for any stretch of time);
- band_rates(...): a run's per-second rates, by label.

A cpu_hop log has one line per sample, "UNIX_MS NS" (NS -1: no sample).
Stdlib only.
"""

import math
import statistics

# The two groups must be this far apart (ratio of their middles).
MIN_SPLIT = 2.0
# Samples over this many times the 10th percentile are dropped.
OUTLIER = 20
# At least this many samples, and this many in the smaller group.
MIN_READINGS = 20
MIN_GROUP = 3
# A per-second rate ending at t (seconds after the program started) is
# for [t - 1, t] of the program's own clock, which starts up to this
# much after its launch (EAL's start): its window reaches this far on.
START_SLACK_S = 0.5


def load(path):
    """[(unix_ms, ns)] of a cpu_hop log; samples without a time dropped."""
    out = []
    try:
        lines = open(path).read().split("\n")
    except OSError:
        return out
    for line in lines:
        f = line.split()
        if len(f) != 2:
            continue
        try:
            ms, ns = int(f[0]), int(f[1])
        except ValueError:
            continue
        if ns > 0:
            out.append((ms, ns))
    return out


def split(readings):
    """{"threshold_ns", "near_ns", "far_ns", "readings", "dropped",
    "far_share"} of the readings (ns values), or None when they do not
    form two groups."""
    v = sorted(x for x in readings if x > 0)
    if len(v) < MIN_READINGS:
        return None
    # A thread preempted within every block of a sample (a busy program
    # on its CPU) reads tens of microseconds: not a distance.
    cap = v[len(v) // 10] * OUTLIER
    n_all = len(v)
    v = [x for x in v if x <= cap]
    logs = [math.log(x) for x in v]
    lo, hi = logs[0], logs[-1]
    if hi - lo < math.log(MIN_SPLIT):
        return None
    for _ in range(50):
        cut = (lo + hi) / 2
        a = [x for x in logs if x < cut]
        b = [x for x in logs if x >= cut]
        if not a or not b:
            return None
        nlo, nhi = statistics.mean(a), statistics.mean(b)
        if (nlo, nhi) == (lo, hi):
            break
        lo, hi = nlo, nhi
    near = [x for x in v if math.log(x) < (lo + hi) / 2]
    far = [x for x in v if math.log(x) >= (lo + hi) / 2]
    if (len(near) < MIN_GROUP or len(far) < MIN_GROUP or
            statistics.median(far) < MIN_SPLIT * statistics.median(near)):
        return None
    return {"threshold_ns": round(math.exp((lo + hi) / 2), 1),
            "near_ns": statistics.median(near),
            "far_ns": statistics.median(far),
            "readings": len(v), "dropped": n_all - len(v),
            "far_share": round(len(far) / len(v), 3)}


def label_window(hop, lo_ms, hi_ms, threshold):
    """"near" or "far" when every sample of hop [(ms, ns)] from lo_ms to
    hi_ms (unix ms) is on that side of threshold, else None."""
    seen = {ns >= threshold for ms, ns in hop if lo_ms <= ms <= hi_ms}
    if len(seen) != 1:
        return None
    return "far" if seen.pop() else "near"


def label(hop, start_ms, t_end, threshold):
    """The distance of the second that ended t_end s after a program's
    launch at start_ms (unix ms), from the samples hop [(ms, ns)]."""
    return label_window(hop, start_ms + (t_end - 1) * 1000,
                        start_ms + (t_end + START_SLACK_S) * 1000, threshold)


def band_rates(samples, hop, start_ms, threshold):
    """{"near": [rates], "far": [rates], "mixed": n} of a run's per-second
    samples [(t_end, rate)]."""
    out = {"near": [], "far": [], "mixed": 0}
    for t, r in samples:
        b = label(hop, start_ms, t, threshold)
        if b is None:
            out["mixed"] += 1
        else:
            out[b].append(r)
    return out
