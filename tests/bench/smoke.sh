#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Suite "bench_smoke": timer_bench's quick mode works and writes a well
# formed JSON file with every figure of every adapter, the closed-loop
# test (test-eventdev's timer producers) and the open-loop overload case
# included. No speed is asserted (these machines are noisy); what is
# asserted is correctness: our adapter delivers every expiry exactly once,
# also under backpressure, and gives back every timer of the closed loop.
#
#     tests/bench/smoke.sh BUILD_DIR
set -u

build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
bin="$build/app/timer_bench/dpdk-timer_bench"
out=$(mktemp -d "${TMPDIR:-/tmp}/tp_bench.XXXXXX")
# The run's EAL runtime folder goes too.
trap 'rm -rf "$out" "/var/run/dpdk/tp_bench_$$"' EXIT
SUITE=bench_smoke
. "$src/tests/check.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# One repetition of the quick mode, every adapter.
timeout 600 "$bin" -l 0-1 -S 1 --vdev=event_sw0 --no-pci --no-huge -m 1536 \
	--file-prefix "tp_bench_$$" --log-level=lib.eal:warning \
	-- --quick --reps 1 --adapters direct,rte,ring \
	--tests arm,expiry,backpressure,lateness,closedloop,overload \
	--json "$out/r.json" > "$out/r.txt" 2>&1
rc=$?
tail -n 30 "$out/r.txt"
check runs_to_completion $rc
"$PY" "$src/tools/bench_plot.py" --check-only "$out/r.json"
check json_well_formed $?

# Every test produced figures for every adapter, and ours lost nothing.
"$PY" - "$out/r.json" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
med = {(m["test"], m["adapter"], m["key"]): m["median"] for m in doc["medians"]}
bad = []
for test in ("arm", "memory", "expiry", "backpressure", "lateness",
             "closedloop", "overload"):
    for adapter in ("direct", "rte", "ring"):
        if not any(k[0] == test and k[1] == adapter for k in med):
            bad.append("no %s figures for %s" % (test, adapter))
for test in ("expiry", "backpressure"):
    if med.get((test, "direct", "delivered_frac")) != 1:
        bad.append("%s: direct delivered %r" % (test, med.get((test, "direct", "delivered_frac"))))
    if med.get((test, "direct", "duplicates")) != 0:
        bad.append("%s: direct duplicates" % test)
if med.get(("backpressure", "direct", "undelivered")) != 0:
    bad.append("backpressure: direct left events undelivered")
for case in ("exp10us_tick1us", "exp10ms_tick10us"):
    for prod in ("plain", "burst"):
        # Every timer back in the pool within the 2-s drain.
        if med.get(("closedloop", "direct",
                    "%s/%s_undelivered" % (case, prod))) != 0:
            bad.append("closedloop %s/%s: direct lost or kept timers" % (case, prod))
        if med.get(("closedloop", "direct",
                    "%s/%s_armed_after_delivery" % (case, prod))) != 0:
            bad.append("closedloop %s/%s: direct timer armed after its "
                       "expiry was delivered" % (case, prod))
for prod in ("plain", "burst"):
    if med.get(("overload", "direct", "%s_delivered_frac" % prod)) != 1:
        bad.append("overload %s: direct delivered %r" % (prod, med.get(
            ("overload", "direct", "%s_delivered_frac" % prod))))
for b in bad:
    print("    " + b)
sys.exit(1 if bad else 0)
PYEOF
check every_figure_and_exactly_once $?

check_result
