#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""A DPDK telemetry (v2) client for the security tests (stdlib only).

  telemetry_client.py get SOCK CMD
      Print the reply to CMD (JSON).
  telemetry_client.py wait-rx SOCK N SECONDS
      Wait until /timer_pipeline/stats says rx_pkts >= N; exit 1 if not.
  telemetry_client.py readonly SOCK
      Snapshot our commands' answers, list the commands ("/"), call every
      /timer_pipeline/ and /timer_adapter/ command twice (without and with
      parameters, good and bad), snapshot again: the answers must not have
      changed (adapter_tick_count, uptime_ms and idle_polls, which count
      time, left out).
  telemetry_client.py storm SOCK N CMD
      N clients, each connects, sends CMD and disconnects at once, never
      reading the reply.

SOCK is <runtime dir>/dpdk_telemetry.v2, a SOCK_SEQPACKET UNIX socket: the
server sends a JSON greeting on connect, then one reply per command.
"""

import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
import tplib  # noqa: E402

OURS = ("/timer_pipeline/", "/timer_adapter/")
# Values that move with time, not with the calls (tick count, uptime,
# polls that found nothing).
VOLATILE = ("adapter_tick_count", "uptime_ms", "idle_polls")


def snapshot(c, adapters):
    snap = {}
    for cmd in ["/timer_pipeline/stats", "/timer_pipeline/flows",
                "/timer_adapter/list"] + \
            ["/timer_adapter/%s,%d" % (k, i) for i in adapters
             for k in ("info", "stats")]:
        reply = c.call(cmd)
        for v in reply.values():
            if isinstance(v, dict):
                for k in VOLATILE:
                    v.pop(k, None)
        snap[cmd] = reply
    return snap


def cmd_readonly(path):
    c = tplib.Telemetry(path)
    adapters = c.call("/timer_adapter/list").get("/timer_adapter/list")
    if not isinstance(adapters, list) or not adapters:
        print("no adapter in /timer_adapter/list: %r" % adapters)
        return 1
    before = snapshot(c, adapters)
    cmds = [x for x in c.call("/")["/"] if x.startswith(OURS)]
    want = {"/timer_pipeline/stats", "/timer_pipeline/flows",
            "/timer_adapter/list", "/timer_adapter/info",
            "/timer_adapter/stats"}
    if not want <= set(cmds):
        print("commands missing from '/': %s" % sorted(want - set(cmds)))
        return 1
    params = ["", ",%d" % adapters[0], ",x", ",-1", ",99999", ",0,0",
              "," + "9" * 40]
    calls = 0
    for _ in range(2):
        for cmd in cmds:
            for p in params:
                c.call(cmd + p)        # any answer will do, even an error
                calls += 1
    after = snapshot(c, adapters)
    c.close()
    changed = [k for k in before if before[k] != after[k]]
    if changed:
        for k in changed:
            print("%s changed:\n  before %s\n  after  %s" %
                  (k, json.dumps(before[k]), json.dumps(after[k])))
        return 1
    print("%d commands, %d calls, answers unchanged" % (len(cmds), calls))
    return 0


def cmd_storm(path, n, cmd):
    done = 0
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            s.connect(path)
            s.send(cmd.encode())
            done += 1
        except OSError:
            pass            # refused while too many clients: fine
        finally:
            s.close()
    print("%d of %d clients sent %s and left" % (done, n, cmd))
    return 0 if done > 0 else 1


def cmd_wait_rx(path, n, secs):
    end = time.time() + secs
    rx = None
    while time.time() < end:
        try:
            c = tplib.Telemetry(path)
            rx = c.call("/timer_pipeline/stats")["/timer_pipeline/stats"]
            c.close()
            if isinstance(rx, dict) and rx.get("rx_pkts", 0) >= n:
                return 0
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.2)
    print("rx_pkts did not reach %d: %r" % (n, rx))
    return 1


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    if argv[1] == "get" and len(argv) == 4:
        c = tplib.Telemetry(argv[2])
        print(json.dumps(c.call(argv[3])))
        c.close()
        return 0
    if argv[1] == "readonly" and len(argv) == 3:
        return cmd_readonly(argv[2])
    if argv[1] == "storm" and len(argv) == 5:
        return cmd_storm(argv[2], int(argv[3]), argv[4])
    if argv[1] == "wait-rx" and len(argv) == 5:
        return cmd_wait_rx(argv[2], int(argv[3]), float(argv[4]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
