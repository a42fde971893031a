#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Build the documentation into build/docs/html (or $DOCS_OUT/html):
#   - the figures, drawn from real runs (tools/docs_figures.py) into
#     $DOCS_OUT/_figures, never committed: the demo capture
#     (scripts/demo.sh --capture-only, which builds the project first when
#     needed) run as docs/walkthrough.rst runs it (its own commands, taken
#     from the page), and once more at its recorded pace (about 12 s), plus
#     docs/bench's committed results;
#   - the guides in docs/ with Sphinx, warnings as errors (-W): a broken
#     include, literalinclude marker, reference or figure fails the build;
#   - the API reference of lib_timer_adapter/timer_adapter.h with Doxygen
#     (docs/Doxyfile), into html/api, failing on any warning, among them an
#     undocumented public function, structure or parameter.
# Exit status 0 iff all of it built without a warning.
#
#     bash scripts/docs.sh            then open build/docs/html/index.html
#
# Environment: BUILD_DIR (the build the runs use, default build; built by
# scripts/setup.sh when missing), DOCS_OUT (default build/docs).
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}
export BUILD_DIR=$BUILD
OUT=${DOCS_OUT:-build/docs}
# Debian's python3 (python3-sphinx, python3-matplotlib), whatever python3
# comes first in PATH.
PY=/usr/bin/python3
for tool in sphinx-build doxygen dot $PY; do
	command -v "$tool" >/dev/null || {
		echo "docs: $tool is missing (bash scripts/setup.sh installs it)" >&2
		exit 1
	}
done
$PY -c 'import matplotlib' 2>/dev/null || {
	echo "docs: $PY has no matplotlib (bash scripts/setup.sh installs" \
		"python3-matplotlib)" >&2
	exit 1
}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/html" "$OUT/doctrees" "$OUT/doxygen" "$OUT/_figures" \
	"$OUT/runs"
mkdir -p "$OUT/_figures" "$OUT/runs"

# fail WHAT LOG: a step of the figures failed; say which, show its end.
fail() {
	echo "docs: $1 failed; the end of $2:" >&2
	tail -n 20 "$2" >&2
	exit 1
}

echo "docs: the demo capture ($BUILD/demo/demo.pcap; builds $BUILD if needed)"
bash scripts/demo.sh --capture-only >"$OUT/runs/capture.log" 2>&1 ||
	fail "scripts/demo.sh --capture-only" "$OUT/runs/capture.log"

# The walkthrough's own run: its run_capture.sh commands, as the docs test
# runs them (build/ is $BUILD).
walk=$(python3 - "$BUILD" <<'PYEOF'
import sys
sys.path.insert(0, "tests/pipeline")
import docs_test
for kind, _, body, _ in docs_test.blocks("docs/walkthrough.rst"):
    cmds = [c for c in docs_test.commands(body) if "run_capture.sh" in c]
    if kind == "run" and cmds:
        print(docs_test.rewrite(cmds[0], sys.argv[1], "/tmp/"))
        break
PYEOF
)
walk_dir=$(sed -n 's/.* -o \([^ ]*\) .*/\1/p' <<<"$walk")
[ -n "$walk" ] && [ -n "$walk_dir" ] || {
	echo "docs: docs/walkthrough.rst has no run_capture.sh -o DIR command" >&2
	exit 1
}
echo "docs: the walkthrough's run: $walk"
bash -c "$walk" >"$OUT/runs/walk.log" 2>&1 ||
	fail "the walkthrough's run" "$OUT/runs/walk.log"
echo "docs: the demo capture at its pace (about 12 s)"
bash scripts/run_capture.sh "$BUILD/demo/demo.pcap" --replay-pace \
	-o "$OUT/runs/paced" >"$OUT/runs/paced.log" 2>&1 ||
	fail "the paced run" "$OUT/runs/paced.log"
echo "docs: tools/docs_figures.py -> $OUT/_figures"
$PY tools/docs_figures.py --build "$BUILD" --walk "$walk_dir" \
	--paced "$OUT/runs/paced" --bench docs/bench --out "$OUT/_figures"

echo "docs: sphinx-build -W docs -> $OUT/html"
TP_FIGURES="$OUT/_figures" sphinx-build -W --keep-going -q -b html \
	-d "$OUT/doctrees" docs "$OUT/html"

echo "docs: doxygen docs/Doxyfile -> $OUT/html/api"
(cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $OUT/doxygen") | doxygen - \
	>"$OUT/doxygen.log" 2>&1 || {
	cat "$OUT/doxygen.log" >&2
	echo "docs: doxygen failed (warnings are errors)" >&2
	exit 1
}
mv "$OUT/doxygen/api" "$OUT/html/api"
echo "docs: built $OUT/html/index.html"
