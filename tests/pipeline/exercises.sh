#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# docs/exercises.rst, run as a reader would and checked against what it
# says (about 75 s: five of its runs replay the capture at its pace):
#   commands     every command marked ".. test: run" on the page runs with
#                status 0, in order (tests/pipeline/docs_test.py), on the
#                demo capture (scripts/demo.sh --capture-only) in
#                BUILD_DIR/ex/
#   exercise_N   each exercise's Expect, from its runs' summary.json,
#                flows.json, stats.json, logs and the commands' output
#                (tests/pipeline/exercises_check.py): numbers the page
#                marks exact compared exactly, the timing ones against
#                the bound the page states
# Run in the normal build's pass only (tests/run_tests.sh leaves it out of
# a sanitizer build: timing there is not the page's).
#
#     tests/pipeline/exercises.sh BUILD_DIR
SUITE=exercises
source "$(dirname "$0")/lib.sh"

cd "$TP_SRC" || exit 1
t0=$(date +%s)
if ! BUILD_DIR="$TP_BUILD" bash scripts/demo.sh --capture-only \
	>"$WORK/capture.log" 2>&1; then
	tp_fail commands "scripts/demo.sh --capture-only failed" \
		"$WORK/capture.log"
	tp_result
	exit
fi
rm -rf "$TP_BUILD/ex"

tp_doc_commands "a command of docs/exercises.rst failed" docs/exercises.rst

python3 tests/pipeline/exercises_check.py "$TP_BUILD" "$WORK" \
	>"$WORK/check.log" 2>&1
for n in 1 2 3 4 5 6 7 8; do
	if ! grep -q "^ok   exercise $n: " "$WORK/check.log"; then
		tp_fail "exercise_$n" "no check of exercise $n ran" "$WORK/check.log"
	elif grep -q "^FAIL exercise $n: " "$WORK/check.log"; then
		tp_fail "exercise_$n" "docs/exercises.rst, exercise $n, is wrong:"
		grep "^FAIL exercise $n: " "$WORK/check.log" | sed 's/^/    | /'
	else
		tp_pass "exercise_$n"
	fi
done
grep -q '^RESULT exercises: [0-9]* passed, 0 failed' "$WORK/check.log" ||
	grep -v '^ok ' "$WORK/check.log" | grep -v '^FAIL exercise' |
	sed 's/^/    | /'
echo "    exercises: $(( $(date +%s) - t0 )) s"
tp_result
