#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""A minimal IPFIX-over-TCP collector for the tests (stdlib only).

  ipfix_tcp_listen.py PORT OUTPREFIX [--delay-ms N]

Listens on 127.0.0.1:PORT and writes connection number i's IPFIX Messages
to OUTPREFIX.i (a valid IPFIX file: whole messages only; a message cut by a
lost connection is dropped). Serves one connection at a time, until killed.
--delay-ms: sleep this long after every read (a slow collector).
"""

import socket
import struct
import sys
import time


def serve(conn, path, delay):
    buf = b""
    with open(path, "wb", buffering=0) as out:
        while True:
            data = conn.recv(65536)
            if not data:
                return
            buf += data
            while len(buf) >= 4:
                ver, length = struct.unpack("!HH", buf[:4])
                if ver != 10 or length < 16:
                    sys.exit("%s: not an IPFIX stream" % path)
                if len(buf) < length:
                    break
                out.write(buf[:length])
                buf = buf[length:]
            if delay:
                time.sleep(delay)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    port, prefix = int(sys.argv[1]), sys.argv[2]
    delay = 0.0
    if len(sys.argv) == 5 and sys.argv[3] == "--delay-ms":
        delay = int(sys.argv[4]) / 1000.0
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(4)
    n = 0
    while True:
        conn, _ = srv.accept()
        serve(conn, "%s.%d" % (prefix, n), delay)
        conn.close()
        n += 1


if __name__ == "__main__":
    main()
