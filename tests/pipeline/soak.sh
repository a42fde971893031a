#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Soak, CI version: scripts/soak.sh for 60 s with 100,000 flows (the
# capture is generated once and cached in BUILD_DIR/soak/), flows ending
# and starting again all the time. Each of its checks is a case here: the
# resident memory and DPDK's heap are flat after the warm-up, mbufs out of
# the pool stay bounded, the expiry lateness p99 of the last window is at
# most two log2 buckets above the first's, flows churned (created at least
# 3x over), the exactly-once check passed with every flow ended, and the
# flush took at most 2 s; here the whole SIGINT to exit must too. Under 2
# minutes.
#
#     tests/pipeline/soak.sh BUILD_DIR

SUITE=soak
. "$(dirname "$0")/lib.sh"

OUT=$WORK/soak.json
LOG=$WORK/soak.out
# Windows of 22 s on a shared 2-CPU machine: lateness may move by two log2
# buckets (4x) between them without any drift in the pipeline.
timeout -k 10 170 bash "$TP_SRC/scripts/soak.sh" --seconds 60 \
	--flows 100000 --lateness-buckets 2 --build "$TP_BUILD" --out "$OUT" \
	>"$LOG" 2>&1
rc=$?
sed 's/^/    | /' "$LOG"

if [ ! -s "$OUT" ]; then
	tp_fail soak_ran "no results (soak.sh exit $rc)" "$LOG"
	tp_result
	exit
fi

# The script's verdict and each of its checks, read back from the JSON
# (so a check it forgot to make fails here as "missing").
while read -r name verdict why; do
	if [ "$verdict" = ok ]; then
		tp_pass "soak_$name"
	else
		tp_fail "soak_$name" "$why" "$LOG"
	fi
done < <(python3 "$TP_SRC/tools/soak_report.py" cases "$OUT" "$rc")

tp_result
