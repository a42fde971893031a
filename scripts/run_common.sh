# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Sourced by scripts/run_capture.sh and scripts/run_live.sh (not run):
#
#   run_report TOOL OUT STATUS   after a run: the end of its summary and
#                                its exactly-once check (OUT/pipeline.log),
#                                the end of the log if STATUS is not 0,
#                                and the records by end reason
#                                (OUT/flows.json). ROOT: the source tree.

run_report() {
	local tool=$1 out=$2 status=$3
	sed -n '/=== timer_pipeline summary/,$p' "$out/pipeline.log"
	if [ "$status" -ne 0 ]; then
		echo "$tool: the pipeline exited with status $status; the end" \
			"of $out/pipeline.log:" >&2
		tail -n 15 "$out/pipeline.log" >&2
	fi
	if [ -s "$out/flows.json" ]; then
		echo
		echo "Flow records by end reason ($out/flows.json):"
		python3 "$ROOT/tests/pipeline/check_records.py" reasons \
			"$out/flows.json"
	fi
}
