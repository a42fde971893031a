#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""The file lists in the guides name the files that exist, and all of them.

    doc_files.py SRC_DIR

Two lists are checked against the tree git tracks:

- docs/testing.rst, "Where things live": a code block whose first column
  names files and folders. A line whose first word ends in "/" at the
  block's first indent is a folder; the names indented below it are in
  it. Names are globs ("ta_radix.[ch]", "tp_config*.c"); several on one
  line are separated by ", ". A folder with names below it stands for
  those; one without stands for all its files. Every name must match a tracked file, and
  every tracked C source or header, shell script in scripts/ and Python
  file in tools/ must be matched by a name.
- docs/sample_app.rst, the table of the example's files: every ``name``
  in its first column must match a file in examples/timer_pipeline/, and
  every C file there must be matched.

- docs/packet-path.rst, the path of a packet: every function it names
  (``name()`` in the text or "name()" in the figure's labels) is defined
  at the start of a line in a tracked .c or .h of the example, the
  library or common/ (DPDK's rte_* functions excepted), every struct
  (``struct tp_x``) and tp_*_t type it names is defined there, and every
  file it names (a path ending in .c or .h) exists, from the top of the
  tree or from examples/timer_pipeline/.

Prints one line per problem and "RESULT doc_files: N passed, N failed".
"""

import fnmatch
import os
import re
import subprocess
import sys


def tracked(src):
    out = subprocess.run(["git", "-C", src, "ls-files"], check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.split("\n") if p]


def where_things_live(path):
    """(glob, line number) of every name in the testing guide's block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    start = lines.index("Where things live")
    i = start
    while not lines[i].startswith(".. code-block::"):
        i += 1
    names, folder, base = [], "", None
    for n, line in enumerate(lines[i + 1:], i + 2):
        if line and not line.startswith(" "):
            break
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if base is None:
            base = indent
        if indent >= base + 16:
            continue        # the description column, continued
        first = re.split(r"\s{2,}", line.strip())[0]
        for name in first.split(", "):
            if indent == base:
                folder = name if name.endswith("/") else ""
                names.append((name, n))
            else:
                names.append((folder + name, n))
    # A folder with names listed below it names those, not all its files.
    parents = {name for name, _ in names if name.endswith("/") and
               any(o != name and o.startswith(name) for o, _ in names)}
    return [(name + "/" if name in parents else name, n)
            for name, n in names]


def sample_app_table(path):
    text = open(path, encoding="utf-8").read().split("\n")
    names = []
    in_table = False
    for n, line in enumerate(text, 1):
        if line.startswith("File ") and "Concern" in line:
            in_table = True
            continue
        if in_table and line.startswith("====") and names:
            break
        m = re.match(r"^``([^`]+)``\s", line)
        if in_table and m:
            for name in m.group(1).split(", "):
                names.append(("examples/timer_pipeline/" + name, n))
    return names


def packet_path_names(src, files):
    """(kind, name, line) of every function, type and file the page names,
    and the tree's definitions: (functions, structs, types)."""
    text = open(os.path.join(src, "docs/packet-path.rst"),
                encoding="utf-8").read().split("\n")
    named = []
    for n, line in enumerate(text, 1):
        line = line.replace("\\n", " ")   # the figure's line breaks
        for m in re.finditer(r"\b([a-z_][a-z0-9_]*)\(\)", line):
            if not m.group(1).startswith("rte_"):
                named.append(("function", m.group(1), n))
        for m in re.finditer(r"\bstruct (tp_[a-z0-9_]+)", line):
            named.append(("struct", m.group(1), n))
        for m in re.finditer(r"\b(tp_[a-z0-9_]+_t)\b", line):
            named.append(("type", m.group(1), n))
        for m in re.finditer(r"(?<![\w/.])((?:[\w-]+/)*[\w-]+\.[ch])\b", line):
            named.append(("file", m.group(1), n))
    funcs, structs, types = set(), set(), set()
    for f in files:
        if not re.match(r"^(examples/timer_pipeline|lib_timer_adapter|"
                        r"common)/.*\.[ch]$", f):
            continue
        body = open(os.path.join(src, f), encoding="utf-8").read()
        funcs.update(re.findall(r"^([a-z_][a-z0-9_]*)\(", body, re.M))
        structs.update(re.findall(r"^struct ([a-z0-9_]+) \{", body, re.M))
        types.update(re.findall(r"^typedef [^;(]*\(\*([a-z0-9_]+_t)\)",
                                body, re.M))
    return named, funcs, structs, types


def matches(name, files):
    if name.endswith("//"):       # a folder whose files are listed
        return [f for f in files if f.startswith(name[:-1])][:1]
    if name.endswith("/"):
        return [f for f in files if f.startswith(name)]
    return [f for f in files if fnmatch.fnmatchcase(f, name)]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    files = tracked(src)
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL doc_files: " + what)

    lists = [
        ("docs/testing.rst", where_things_live(
            os.path.join(src, "docs/testing.rst")),
         lambda f: (f.endswith((".c", ".h")) and not f.startswith("tests/"))
         or re.match(r"^scripts/[^/]+\.sh$", f)
         or re.match(r"^tools/[^/]+\.py$", f)),
        ("docs/sample_app.rst", sample_app_table(
            os.path.join(src, "docs/sample_app.rst")),
         lambda f: re.match(r"^examples/timer_pipeline/.+\.[ch]$", f)),
    ]
    for doc, names, wanted in lists:
        check(names, "%s: no file list found" % doc)
        named = set()
        for name, line in names:
            found = matches(name, files)
            check(found, "%s:%d names %s, which matches no file" %
                  (doc, line, name))
            named.update(found)
        for f in files:
            if wanted(f):
                check(f in named, "%s does not name %s" % (doc, f))
    named, funcs, structs, types = packet_path_names(src, files)
    check(named, "docs/packet-path.rst: names nothing")
    tracked_set = set(files)
    for kind, name, line in named:
        if kind == "function":
            ok = name in funcs
        elif kind == "struct":
            ok = name in structs
        elif kind == "type":
            ok = name in types
        else:
            ok = (name in tracked_set or
                  "examples/timer_pipeline/" + name in tracked_set)
        check(ok, "docs/packet-path.rst:%d names %s %s, which does not "
              "exist" % (line, kind, name))
    print("RESULT doc_files: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
