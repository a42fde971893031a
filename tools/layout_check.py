#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""The layout rules of examples/timer_pipeline, checked (stdlib only).

    python3 tools/layout_check.py BUILD_DIR [-v]

A module is a file's name without .c or .h (tp_rx.c and tp_rx.h are the
module tp_rx), whatever folder it is in. The module graph has an arrow
A -> B when a file of A includes B's header, or when A's object file calls
a function (nm: U) that B's object file defines (nm: T). The
symbols come from the build's own objects (BUILD_DIR/compile_commands.json
names them), so the calls are the compiler's, not a guess; a header-only
module's inline calls are found by name in its text.

Rules, each violation one line:
- cycle:   no circle between modules (each strongly connected set of more
           than one module is reported with one circle through it);
- lines:   no .c or .h over 600 lines;
- header:  every .c but main.c has its own header next to it;
- prefix:  every function a .c exports starts with its module's name (tp_rx
           exports tp_rx and tp_rx_*), main.c excepted;
- ctx:     struct tp_ctx has at most 40 members.

-v also prints the graph by floor (a module sits one floor above the
highest module it points to). The last line is
"RESULT layout: N passed, N failed" (one case per rule); the exit status
is 0 iff nothing failed.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
APP = os.path.join(TOP, "examples", "timer_pipeline")
MAX_LINES = 600
MAX_CTX_MEMBERS = 40

# Exceptions to the prefix rule, each with the reason it must stay.
# (module, symbol): reason.
PREFIX_ALLOW = {
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources():
    """Every .c and .h of the pipeline: {path relative to APP: module}.

    X_stub.c is module X: the build compiles it instead of X's own .c
    (records/tp_ipfix_stub.c without libfixbuf), behind X's header.
    """
    out = {}
    for root, _dirs, files in os.walk(APP):
        for f in files:
            if f.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(root, f), APP)
                mod = os.path.splitext(f)[0]
                if f.endswith("_stub.c"):
                    mod = mod[:-len("_stub")]
                out[rel] = mod
    return out


def strip_comments(text):
    """The code of a C file: no comments, no string or char literals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(?:\\.|[^'\\\n])'", "' '", text)


def objects(build):
    """{source path relative to APP: object file} from compile_commands."""
    path = os.path.join(build, "compile_commands.json")
    with open(path) as f:
        cmds = json.load(f)
    out = {}
    for c in cmds:
        src = os.path.normpath(os.path.join(c["directory"], c["file"]))
        if not src.startswith(APP + os.sep):
            continue
        m = re.search(r"\s-o\s+(\S+)", c.get("command", ""))
        if m is None or "dpdk-timer_pipeline.p" not in m.group(1):
            continue
        out[os.path.relpath(src, APP)] = os.path.join(c["directory"],
                                                      m.group(1))
    return out


def nm(obj):
    """(defined, undefined) global symbol sets of an object file."""
    r = subprocess.run(["nm", "-g", obj], check=True, capture_output=True,
                       text=True)
    defined, undefined = set(), set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] == "T":
            defined.add(parts[2])
    return defined, undefined


def tarjan(nodes, edges):
    index, low, stack, on, sccs = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            sccs.append(sorted(scc))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sccs


def one_cycle(scc, edges):
    """A circle through the first module of a strongly connected set."""
    start = scc[0]
    members = set(scc)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, ())):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return scc


def ctx_members():
    """Members of struct tp_ctx (declarations at its top level)."""
    for rel in sources():
        if not rel.endswith(".h"):
            continue
        with open(os.path.join(APP, rel)) as f:
            text = strip_comments(f.read())
        m = re.search(r"\bstruct\s+tp_ctx\s*\{", text)
        if m is None:
            continue
        depth, i, count = 1, m.end(), 0
        while depth > 0 and i < len(text):
            ch = text[i]
            if ch in "{(":
                depth += 1
            elif ch in "})":
                depth -= 1
            elif ch in ";," and depth == 1:
                count += 1
            i += 1
        return rel, count
    return None, 0


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    build = args[0]
    srcs = sources()
    mods = sorted(set(srcs.values()))
    by_module = {}
    for rel, mod in srcs.items():
        by_module.setdefault(mod, []).append(rel)
    failures = {"cycle": [], "lines": [], "header": [], "prefix": [],
                "ctx": []}

    # Arrows from includes.
    edges = {m: set() for m in mods}
    why = {}
    texts = {}
    for rel, mod in srcs.items():
        with open(os.path.join(APP, rel)) as f:
            texts[rel] = f.read()
        for inc in INCLUDE_RE.findall(texts[rel]):
            dst = os.path.splitext(os.path.basename(inc))[0]
            if dst in edges and dst != mod:
                edges[mod].add(dst)
                why.setdefault((mod, dst), "%s includes %s" % (rel, inc))

    # Arrows from symbols.
    objs = objects(build)
    defined_in = {}
    undefined = {}
    for rel, obj in sorted(objs.items()):
        d, u = nm(obj)
        mod = srcs.get(rel)
        if mod is None:
            continue
        undefined[mod] = undefined.get(mod, set()) | u
        for s in d:
            defined_in.setdefault(s, set()).add(mod)
            if mod != "main" and not (s == mod or
                                      s.startswith(mod + "_")):
                if (mod, s) not in PREFIX_ALLOW:
                    failures["prefix"].append(
                        "prefix: %s defines %s" % (rel, s))
    for mod, syms in undefined.items():
        for s in sorted(syms):
            for dst in defined_in.get(s, ()):
                if dst != mod:
                    edges[mod].add(dst)
                    why.setdefault((mod, dst), "%s calls %s" % (mod, s))
    # Header-only modules: calls by name in their text.
    for mod in mods:
        if any(r.endswith(".c") for r in by_module[mod]):
            continue
        for rel in by_module[mod]:
            body = strip_comments(texts[rel])
            for s in set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", body)):
                for dst in defined_in.get(s, ()):
                    if dst != mod:
                        edges[mod].add(dst)
                        why.setdefault((mod, dst),
                                       "%s calls %s" % (rel, s))

    for scc in tarjan(mods, edges):
        if len(scc) < 2:
            continue
        cyc = one_cycle(scc, edges)
        steps = "; ".join(why[(a, b)] for a, b in zip(cyc, cyc[1:]))
        failures["cycle"].append("cycle: %d modules {%s}: %s (%s)" % (
            len(scc), ", ".join(scc), " -> ".join(cyc), steps))

    for rel in sorted(srcs):
        n = texts[rel].count("\n")
        if n > MAX_LINES:
            failures["lines"].append("lines: %s has %d lines (> %d)" % (
                rel, n, MAX_LINES))
        if rel.endswith(".c") and srcs[rel] != "main":
            h = os.path.join(os.path.dirname(rel), srcs[rel] + ".h")
            if h not in srcs:
                failures["header"].append("header: %s has no %s" % (
                    rel, os.path.basename(h)))

    rel, count = ctx_members()
    if rel is None:
        failures["ctx"].append("ctx: no struct tp_ctx found")
    elif count > MAX_CTX_MEMBERS:
        failures["ctx"].append("ctx: struct tp_ctx (%s) has %d members "
                               "(> %d)" % (rel, count, MAX_CTX_MEMBERS))

    # Floors: 0 for a module that points nowhere (circles share a floor).
    floor = {}
    comp = {}
    for scc in tarjan(mods, edges):
        for m in scc:
            comp[m] = tuple(scc)
    # Tarjan emits components callees first.
    for scc in tarjan(mods, edges):
        f = 0
        for m in scc:
            for d in edges[m]:
                if comp[d] != tuple(scc):
                    f = max(f, floor[d] + 1)
        for m in scc:
            floor[m] = f
    nb_edges = sum(len(v) for v in edges.values())
    up = sum(1 for a in mods for b in edges[a] if floor[b] >= floor[a])
    print("layout: %d modules, %d files, %d arrows (%d not downward), "
          "%d floors, struct tp_ctx: %d members" % (
              len(mods), len(srcs), nb_edges, up,
              max(floor.values()) + 1 if floor else 0, count))
    if verbose:
        for f in range(max(floor.values()) + 1):
            print("floor %d: %s" % (f, " ".join(
                "%s(%s)" % (m, ",".join(sorted(edges[m])))
                for m in mods if floor[m] == f)))
        for rel in sorted(srcs):
            print("  %s: %d lines" % (rel, texts[rel].count("\n")))

    passed = failed = 0
    for rule, lines in failures.items():
        for line in lines:
            print(line)
        if lines:
            failed += 1
            print("FAIL %s (%d)" % (rule, len(lines)))
        else:
            passed += 1
            print("ok %s" % rule)
    print("RESULT layout: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
