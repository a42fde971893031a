#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Run the commands the documentation shows, and check what they print.

    docs_test.py BUILD_DIR TMPDIR FILE.rst...

In the reStructuredText sources a command block to run is marked with a
comment right before it:

    .. test: run                      run every "$ " line of the next block
    .. test: run (except: CMD; CMD)   ... except these (e.g. the full suite)

and the block after a run block may be marked as the expected output of its
last command:

    .. test: output exact   every line of the block is a line of the output,
                            in the same order (other lines may come between)
    .. test: output trace   the trace lines of a run, expiries and re-arms left
                            out (their number depends on timing): the same
                            number of lines, the same words; times
                            ("1.234567s") within TIME_TOL s (a loaded machine
                            delays packets), tick counts exact

Commands run with bash from the top of the tree, in file order, with BUILD_DIR
set and "build/" rewritten to BUILD_DIR and "/tmp/" to TMPDIR. Prints one
"ok"/"FAIL" line per check and "commands: N passed, N failed";
writes each command's output to TMPDIR/cmd_<n>.out.
"""

import os
import re
import subprocess
import sys
import time

TIME_TOL = 2.0
LATE_MAX_US = 5000000
CMD_TIMEOUT = 120

MARK = re.compile(r"^\.\. test: (run|output)(.*)$")


def blocks(path):
    """Yield (kind, arg, lines, lineno) for each marked block."""
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        kind, arg, start = m.group(1), m.group(2).strip(), i + 1
        i += 1
        while i < len(lines) and not lines[i].startswith(".. code-block::"):
            if lines[i].strip():
                sys.exit("%s:%d: '.. test: %s' must precede a code-block"
                         % (path, start, kind))
            i += 1
        i += 1
        body = []
        while i < len(lines) and (lines[i] == "" or lines[i].startswith(" ")):
            body.append(lines[i])
            i += 1
        while body and body[-1] == "":
            body.pop()
        while body and body[0] == "":
            body.pop(0)
        indent = min(len(x) - len(x.lstrip()) for x in body if x.strip())
        yield kind, arg, [x[indent:] for x in body], start


def commands(body):
    """The "$ " commands of a console block, continuation lines joined; a
    block without any "$ " line is all commands (the README's opening)."""
    cmds, cur = [], None
    if not any(x.startswith("$ ") for x in body):
        body = ["$ " + x for x in body if x.strip()]
    for line in body:
        if cur is not None:
            cur += "\n" + line
        elif line.startswith("$ "):
            cur = line[2:]
        if cur is not None and not cur.endswith("\\"):
            cmds.append(cur)
            cur = None
    return cmds


def rewrite(cmd, build, tmp):
    cmd = re.sub(r"(?<![\w.-])/tmp/", tmp.rstrip("/") + "/", cmd)
    return re.sub(r"(?<![\w/.-])build/", build.rstrip("/") + "/", cmd)


class Result:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, why=""):
        if ok:
            self.passed += 1
            print("ok   %s" % what)
        else:
            self.failed += 1
            print("FAIL %s%s" % (what, ": " + why if why else ""))
        return ok


def cmp_exact(want, got):
    """Lines compared without their leading and trailing blanks."""
    pos = 0
    got = [g.strip() for g in got]
    for w in [x.strip() for x in want]:
        try:
            pos = got.index(w, pos) + 1
        except ValueError:
            return "line not printed (in this order): %s" % w
    return ""


TOKEN = re.compile(r"(\d+\.\d+)s|(\d+) us after|(\d+) ticks \((\d+) ms\)")


def cmp_trace_line(w, g):
    """Same words and tick counts; times and lateness within tolerances."""
    ws, gs = TOKEN.split(w), TOKEN.split(g)
    if len(ws) != len(gs):
        return "different shape"
    for i in range(0, len(ws), 5):
        if ws[i].split() != gs[i].split():
            return "'%s' != '%s'" % (ws[i].strip(), gs[i].strip())
        if i + 4 >= len(ws):
            break
        wt, wl, wk, wm = ws[i + 1:i + 5]
        gt, gl, gk, gm = gs[i + 1:i + 5]
        if wt is not None and (gt is None or
                               abs(float(wt) - float(gt)) > TIME_TOL):
            return "time %s s vs %s s" % (wt, gt)
        if wl is not None and (gl is None or int(gl) > LATE_MAX_US):
            return "lateness %s us" % gl
        if wk is not None:
            if gk is None:
                return "ticks missing"
            if int(wk) != int(gk):
                return "%s ticks vs %s ticks" % (wk, gk)
    return ""


def trace_kind(line):
    return line.split()[6] if len(line.split()) > 6 else ""


def cmp_trace(want, got):
    """The lines of every event but expiries and re-arms, in order: how
    often a timer expires and is re-armed depends on timing (a stalled
    machine can add a round); the docs test checks their arithmetic on the
    run's own trace instead. The flow must end at an expiry."""
    got = [g for g in got if g.startswith("trace ")]
    if any(trace_kind(a) == "end" and trace_kind(b) != "expire"
           for b, a in zip(got, got[1:])):
        return "the flow did not end at an expiry"
    timed = ("expire", "re-arm")
    want = [w for w in want if trace_kind(w) not in timed]
    got = [g for g in got if trace_kind(g) not in timed]
    if len(want) != len(got):
        return "%d trace lines shown, %d printed (expire and re-arm " \
            "lines left out)" % (len(want), len(got))
    for w, g in zip(want, got):
        why = cmp_trace_line(w, g)
        if why:
            return "%s\n       shown:   %s\n       printed: %s" % (why, w, g)
    return ""


def main():
    build, tmp, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    env = dict(os.environ, BUILD_DIR=build)
    res = Result()
    done = {}
    n = 0
    for path in files:
        last = None
        rel = os.path.relpath(path, root)
        for kind, arg, body, lineno in blocks(path):
            where = "%s:%d" % (rel, lineno)
            if kind == "run":
                skip = []
                m = re.match(r"\(except: (.*)\)$", arg)
                if m:
                    skip = [s.strip() for s in m.group(1).split(";")]
                elif arg:
                    sys.exit("%s: unknown run argument '%s'" % (where, arg))
                for cmd in commands(body):
                    if cmd in skip:
                        print("skip %s: %s" % (where, cmd))
                        continue
                    n += 1
                    real = rewrite(cmd, build, tmp)
                    t0 = time.time()
                    if real in done:
                        # The same command shown twice (README and how-to)
                        # runs once.
                        rc, last = done[real]
                        res.check(rc == 0, "%s: %s (ran above)" % (where, cmd))
                        continue
                    try:
                        p = subprocess.run(["bash", "-c", real], cwd=root,
                                           env=env, stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT,
                                           timeout=CMD_TIMEOUT)
                        out, rc = p.stdout.decode(errors="replace"), \
                            p.returncode
                    except subprocess.TimeoutExpired as e:
                        out = (e.stdout or b"").decode(errors="replace")
                        rc = "timeout"
                    dt = time.time() - t0
                    with open(os.path.join(tmp, "cmd_%d.out" % n), "w") as f:
                        f.write("$ %s\n%s" % (real, out))
                    last = out.split("\n")
                    done[real] = (rc, last)
                    res.check(rc == 0, "%s: %s (%.1f s)" % (where, cmd, dt),
                              "exit status %s; last lines:\n%s" % (
                                  rc, "\n".join(last[-8:])))
                    print("TIME %.1f %s" % (dt, cmd))
            else:
                if last is None:
                    sys.exit("%s: output block without a command" % where)
                mode = arg
                if mode == "exact":
                    why = cmp_exact([rewrite(x, build, tmp) for x in body],
                                    last)
                elif mode == "trace":
                    why = cmp_trace(body, last)
                else:
                    sys.exit("%s: unknown output mode '%s'" % (where, mode))
                res.check(not why, "%s: output as shown (%s)" % (where, mode),
                          why)
    print("commands: %d passed, %d failed" % (res.passed,
                                                           res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
