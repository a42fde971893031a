# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Case counting of the shell suites outside tests/pipeline (fuzz/run.sh,
# bench/smoke.sh), sourced after setting SUITE:
#
#   check NAME STATUS   "[ PASS ] SUITE.NAME" if STATUS is 0, else
#                       "[ FAIL ] SUITE.NAME"; counted
#   check_result        "RESULT SUITE: N passed, N failed"; returns 0 iff
#                       no case failed

pass=0
fail=0

check() {
	if [ "$2" -eq 0 ]; then
		echo "[ PASS ] $SUITE.$1"
		pass=$((pass + 1))
	else
		echo "[ FAIL ] $SUITE.$1"
		fail=$((fail + 1))
	fi
}

check_result() {
	echo "RESULT $SUITE: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
