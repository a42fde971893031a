#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""docs/bench holds what the guides read, and nothing else.

    bench_files.py SRC_DIR

Fails on a file under docs/bench (as git tracks it) that is
- a repetition (a folder or file named *_reps/ or repN.*): those belong in
  results/bench/ (results/README.rst);
- a figure (.png, .svg): figures are drawn when the docs are built
  (tools/docs_figures.py);
- a copy of another file there, byte for byte.

Prints one line per problem and "RESULT bench_files: N passed, N failed".
"""

import hashlib
import os
import re
import subprocess
import sys


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    out = subprocess.run(["git", "-C", src, "ls-files", "docs/bench"],
                         check=True, capture_output=True, text=True).stdout
    files = [p for p in out.split("\n") if p]
    problems = []
    seen = {}
    for p in files:
        parts = p.split("/")
        if any(d.endswith("_reps") for d in parts[:-1]) or \
                re.fullmatch(r"rep\d+\..*", parts[-1]):
            problems.append("%s: a repetition; it belongs in results/bench/"
                            % p)
        if parts[-1].endswith((".png", ".svg")):
            problems.append("%s: a figure; docs.sh draws figures at build "
                            "time" % p)
        with open(os.path.join(src, p), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if digest in seen:
            problems.append("%s: the same bytes as %s" % (p, seen[digest]))
        else:
            seen[digest] = p
    for line in problems:
        print(line)
    if not files:
        problems.append("no docs/bench")
        print("docs/bench: no tracked file")
    print("RESULT bench_files: %d passed, %d failed"
          % (0 if problems else 1, 1 if problems else 0))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
