#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Build the documentation into build/docs/html (or $DOCS_OUT/html):
#   - the guides in docs/ with Sphinx, warnings as errors (-W): a broken
#     include, literalinclude marker or reference fails the build;
#   - the API reference of lib_timer_adapter/timer_adapter.h with Doxygen
#     (docs/Doxyfile), into html/api, failing on any warning, among them an
#     undocumented public function, structure or parameter.
# Exit status 0 iff both built without a warning.
#
#     bash scripts/docs.sh            then open build/docs/html/index.html
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${DOCS_OUT:-build/docs}
for tool in sphinx-build doxygen; do
	command -v "$tool" >/dev/null || {
		echo "docs: $tool is missing (bash scripts/setup.sh installs it)" >&2
		exit 1
	}
done
mkdir -p "$OUT"
rm -rf "$OUT/html" "$OUT/doctrees" "$OUT/doxygen"

echo "docs: sphinx-build -W docs -> $OUT/html"
sphinx-build -W --keep-going -q -b html -d "$OUT/doctrees" docs "$OUT/html"

echo "docs: doxygen docs/Doxyfile -> $OUT/html/api"
(cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $OUT/doxygen") | doxygen - \
	>"$OUT/doxygen.log" 2>&1 || {
	cat "$OUT/doxygen.log" >&2
	echo "docs: doxygen failed (warnings are errors)" >&2
	exit 1
}
mv "$OUT/doxygen/api" "$OUT/html/api"
echo "docs: built $OUT/html/index.html"
