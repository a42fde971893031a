#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Check --summary-json's "layout" against docs/summary-json.rst and itself.

    summary_layout.py DOC.rst SUMMARY.json[=LCORE:ROLE+ROLE,...]...

- The keys: the layout table of DOC.rst ("``layout.x.y[]``" rows) names
  every key the given summaries have under "layout", and no key none of
  them has ("[]" marks a list's elements).
- Each layout holds together: every RX or worker lcore has its own event
  port, the adapter's is the next one; every RX queue of every port is
  polled by exactly one RX lcore; every service an lcore lists exists and
  that lcore is a service lcore; the adapter's service is registered, is
  "timer_adapter", runs, and a service lcore runs it; a record writer
  runs on one service lcore, and a run that wrote flow records under the
  capture clock on the inline path has one.
- =LCORE:ROLE+ROLE,...: the roles the run must have given each lcore.

Prints an "ok"/"FAIL" line per check and "RESULT summary_layout: N passed,
N failed".
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docs_test  # noqa: E402  (its Result: the ok/FAIL lines)


def doc_keys(path):
    keys = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^   \* - ``(layout\.[^`]+)``$", line)
        if m:
            keys.add(m.group(1))
    return keys


def json_keys(v, prefix, out):
    if isinstance(v, dict):
        for k, x in v.items():
            p = prefix + "." + k
            if isinstance(x, list):
                out.add(p + "[]")
                for e in x:
                    json_keys(e, p + "[]", out)
            else:
                if not isinstance(x, dict):
                    out.add(p)
                json_keys(x, p, out)
    return out


def services_of(lay, kind):
    return [s["service"] for s in lay["services"] if s["is"] == kind]


def capture_inline(lay, clock):
    return lay.get("packet_path") == "inline" and clock == "capture"


def on_one_service_lcore(lay, sids, what):
    """Each service of sids mapped to exactly one service lcore."""
    bad = []
    for s in sids:
        on = [lc["lcore"] for lc in lay["lcores"] if s in lc["services"]
              and "service" in lc["roles"]]
        if len(on) != 1:
            bad.append("the %s (service %d) runs on service lcores %s, "
                       "not one" % (what, s, on))
    return bad


def writer(lay, clock, counters):
    """The record writer: on one service lcore; one, when records were
    written under the capture clock on the inline path (the clock's lcore
    runs the other services), none on the events path with a single
    service lcore (the adapter's service keeps it), none without service
    lcores (the main lcore writes records)."""
    bad = []
    ws = services_of(lay, "record_writer")
    wrote = counters.get("records_written", 0) > 0
    inline = capture_inline(lay, clock)
    nsvc = sum(1 for lc in lay["lcores"] if "service" in lc["roles"])
    if nsvc == 0 and ws:
        bad.append("a record writer is registered in a run without "
                   "service lcores")
    if wrote and inline and nsvc > 0 and len(ws) != 1:
        bad.append("flow records were written under the capture clock on "
                   "the inline path, but %d record_writer services are "
                   "registered" % len(ws))
    if not inline and nsvc == 1 and ws:
        bad.append("a record writer shares the only service lcore with "
                   "the adapter's service")
    return bad + on_one_service_lcore(lay, ws, "record writer")


def rx_ahead(lay, clock):
    """A capture's read-ahead: one, on one service lcore, under the
    capture clock on the inline path with one RX queue and a service
    lcore; none elsewhere (the wall clock reads ports on the RX lcores
    only)."""
    bad = []
    ra = services_of(lay, "rx_ahead")
    inline = capture_inline(lay, clock)
    nq = sum(len(lc["rx_queues"]) for lc in lay["lcores"])
    nsvc = sum(1 for lc in lay["lcores"] if "service" in lc["roles"])
    want = 1 if inline and nq == 1 and nsvc > 0 else 0
    if len(ra) != want:
        bad.append("%d rx_ahead services, want %d (clock %s, %s path, %d "
                   "RX queues)" % (len(ra), want, clock,
                                   lay.get("packet_path"), nq))
    return bad + on_one_service_lcore(lay, ra, "read-ahead")


def coherent(lay):
    bad = []
    lcores = lay["lcores"]
    ports = [lc["event_port"] for lc in lcores
             if {"rx", "worker"} & set(lc["roles"])]
    if any("event_port" in lc for lc in lcores
           if not {"rx", "worker"} & set(lc["roles"])):
        bad.append("an lcore without RX or worker role has an event port")
    if sorted(ports) != list(range(len(ports))):
        bad.append("RX/worker event ports %s are not 0..%d, one each"
                   % (ports, len(ports) - 1))
    if lay["adapter"]["event_port"] != len(ports):
        bad.append("the adapter's event port %d is not the next one (%d)"
                   % (lay["adapter"]["event_port"], len(ports)))
    polled = sorted((q["port"], q["queue"]) for lc in lcores
                    for q in lc["rx_queues"])
    want = sorted((p["port"], q) for p in lay["ports"]
                  for q in range(p["rx_queues"]))
    if polled != want:
        bad.append("RX queues polled %s, configured %s" % (polled, want))
    if any(lc["rx_queues"] and "rx" not in lc["roles"] for lc in lcores):
        bad.append("an lcore without the RX role polls a queue")
    svc = {s["service"]: s for s in lay["services"]}
    # Without service lcores, the main lcore (control) runs the services.
    here = not any("service" in lc["roles"] for lc in lcores)
    for lc in lcores:
        for s in lc["services"]:
            if s not in svc:
                bad.append("lcore %d runs service %d, not registered"
                           % (lc["lcore"], s))
            if "service" not in lc["roles"] and \
                    not (here and "control" in lc["roles"]):
                bad.append("lcore %d runs a service but is no service "
                           "lcore, nor the main lcore of a run without "
                           "them" % lc["lcore"])
    a = lay["adapter"].get("service")
    if a is not None:
        if a not in svc or svc[a]["is"] != "timer_adapter" or \
                not svc[a]["running"]:
            bad.append("the adapter's service %s is not a running "
                       "timer_adapter service" % a)
        if not any(a in lc["services"] for lc in lcores):
            bad.append("no lcore runs the adapter's service %d" % a)
    qs = lay["eventdev"]["queues"]
    if sorted(q["carries"] for q in qs) != ["expiries", "packets"] or \
            lay["adapter"]["queue"] not in [q["queue"] for q in qs
                                            if q["carries"] == "expiries"]:
        bad.append("queues %s: the adapter's queue %d is not the expiry "
                   "queue" % (qs, lay["adapter"]["queue"]))
    return bad


def main(argv):
    res = docs_test.Result()

    def check(ok, what):
        res.check(ok, "summary_layout: " + what)

    documented = doc_keys(argv[1])
    check(documented, "%s has no layout table" % argv[1])
    seen = set()
    for arg in argv[2:]:
        path, _, roles = arg.partition("=")
        lay = json.load(open(path)).get("layout")
        check(lay is not None, "%s has no \"layout\"" % path)
        if lay is None:
            continue
        json_keys(lay, "layout", seen)
        doc = json.load(open(path))
        counters = doc.get("counters") or {}
        for why in (coherent(lay) + writer(lay, doc.get("clock"), counters) +
                    rx_ahead(lay, doc.get("clock"))):
            check(False, "%s: %s" % (path, why))
        check(True, "%s holds together" % path)
        got = {lc["lcore"]: lc["roles"] for lc in lay["lcores"]}
        for spec in filter(None, roles.split(",")):
            lc, _, r = spec.partition(":")
            check(sorted(got.get(int(lc), ["(none)"])) == sorted(r.split("+")),
                  "%s: lcore %s has roles %s (want %s)"
                  % (path, lc, got.get(int(lc)), r))
    for k in sorted(seen - documented):
        check(False, "%s does not describe %s" % (argv[1], k))
    for k in sorted(documented - seen):
        check(False, "%s describes %s, which no run wrote" % (argv[1], k))
    print("RESULT summary_layout: %d passed, %d failed" % (res.passed,
                                                           res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
