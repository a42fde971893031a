#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Run every test suite and add up the results.
#
#     tests/run_tests.sh BUILD_DIR [SUITE...]
#
# Each suite binary prints "RESULT <suite>: N passed, N failed". This
# script runs them one after the other under timeout: first the pure-C
# suites (every BUILD_DIR/tests/test_* binary other than the DPDK ones, run
# without arguments), then the DPDK suites, each with its own --file-prefix
# (so that concurrent runs never share a DPDK runtime directory), then every
# tests/pipeline/*.sh (but lib.sh) with BUILD_DIR as $1, then the benchmark's
# quick mode (tests/bench/smoke.sh). A suite that crashes, times out or
# prints no RESULT line counts as one more failure, and so does a
# tests/pipeline/*.sh without its execute bit. The last line is "N passed,
# N failed"; the exit status is 0 iff nothing failed.
#
# EAL layout (2 CPUs): lcore 0 = main, lcore 1 = the service lcore (event_sw
# scheduler and adapter services), lcore 2 = a worker sharing CPU 0.
# The secondary suite needs hugepages; the others run with --no-huge.
#
# Environment: TP_TEST_FILTER (case-name filter passed to every C suite),
# TP_TEST_TIMEOUT (seconds per suite, overrides the defaults below).

set -u

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR [SUITE...]" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
build=$(cd "$1" && pwd)
shift
only="$*"
srcdir=$(cd "$(dirname "$0")" && pwd)
logdir=$(mktemp -d "${TMPDIR:-/tmp}/tp_tests.XXXXXX")
trap 'rm -rf "$logdir"' EXIT

# shellcheck disable=SC2054 # the commas belong to --lcores
eal_common=(--lcores=0@0,1@1,2@0 -S 1 --vdev=event_sw0 --no-pci
	--log-level=lib.eal:warning)
filter=()
[ -n "${TP_TEST_FILTER:-}" ] && filter=("$TP_TEST_FILTER")
dpdk_suites=" adapter differential secondary "
eal_nohuge=(--no-huge -m 1024)

total_pass=0
total_fail=0
summary=()

# Free 2-MB hugepages on a mounted hugetlbfs, reserving some when root.
hugepages_ready() {
	local sys=/sys/kernel/mm/hugepages/hugepages-2048kB free

	if [ "$(id -u)" = 0 ]; then
		if [ -w "$sys/nr_hugepages" ] &&
		   [ "$(cat "$sys/free_hugepages")" -lt 128 ]; then
			echo $(( $(cat "$sys/nr_hugepages") + 256 )) \
				> "$sys/nr_hugepages" 2>/dev/null
		fi
		if ! grep -qs '^[^ ]* /dev/hugepages hugetlbfs' /proc/mounts; then
			mkdir -p /dev/hugepages &&
				mount -t hugetlbfs nodev /dev/hugepages \
					2>/dev/null
		fi
	fi
	grep -qs ' hugetlbfs ' /proc/mounts || return 1
	free=$(cat "$sys/free_hugepages" 2>/dev/null || echo 0)
	[ "$free" -ge 64 ]
}

selected() {
	[ -z "$only" ] && return 0
	case " $only " in *" $1 "*) return 0 ;; esac
	return 1
}

# run_suite NAME TIMEOUT COMMAND...: run, print, parse, count.
run_suite() {
	local name=$1 tmo=${TP_TEST_TIMEOUT:-$2} log="$logdir/$1.log"
	local rc line p=0 f=0 why="" t0
	shift 2

	echo "=== $name: $*"
	t0=$(date +%s)
	timeout -k 10 "$tmo" stdbuf -oL -eL "$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^RESULT [A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed$' \
		"$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/.*, ([0-9]+) failed$/\1/')
	fi
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="timed out after $tmo s"
	elif [ "$rc" -ge 128 ]; then
		why="killed by signal $((rc - 128))"
	elif [ -z "$line" ]; then
		why="no RESULT line, exit status $rc"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		why="exit status $rc with 0 failures"
	fi
	[ -n "$why" ] && f=$((f + 1)) && why=" ($why: +1 failure)"
	summary+=("$name: $p passed, $f failed$why [$(( $(date +%s) - t0 )) s]")
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

# run_dpdk_suite NAME TIMEOUT MEMORY-ARGS...
run_dpdk_suite() {
	local name=$1 tmo=$2 bin="$build/tests/test_$1"
	shift 2

	selected "$name" || return 0
	if [ ! -x "$bin" ]; then
		summary+=("$name: binary $bin missing -> 1 failure")
		total_fail=$((total_fail + 1))
		return 0
	fi
	run_suite "$name" "$tmo" "$bin" "${eal_common[@]}" "$@" \
		--file-prefix="tp_test_$$_$name" -- "${filter[@]}"
	# A crashed primary may leave its runtime files behind.
	rm -rf "/var/run/dpdk/tp_test_$$_$name" \
		"${XDG_RUNTIME_DIR:-/tmp}/dpdk/tp_test_$$_$name" 2>/dev/null
	rm -f /dev/hugepages/"tp_test_$$_$name"map_* 2>/dev/null
}

# Pure-C suites (no EAL, no file prefix): every other test_* binary.
for bin in "$build"/tests/test_*; do
	name=$(basename "$bin")
	name=${name#test_}
	if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
		continue
	fi
	case "$dpdk_suites" in *" $name "*) continue ;; esac
	selected "$name" || continue
	run_suite "$name" 120 "$bin" "${filter[@]}"
done

run_dpdk_suite adapter 240 "${eal_nohuge[@]}"
run_dpdk_suite differential 120 "${eal_nohuge[@]}"
if selected secondary; then
	if hugepages_ready; then
		run_dpdk_suite secondary 120
	else
		echo "=== secondary: no free hugepages on a mounted hugetlbfs"
		# Runs anyway without them, so that it reports its failure.
		run_dpdk_suite secondary 120
	fi
fi

# Every tests/pipeline/*.sh but lib.sh (sourced by the others) is a suite:
# one that cannot be executed (no execute bit) counts as a failure, named,
# rather than silently not running.
for script in "$srcdir"/pipeline/*.sh; do
	[ "$(basename "$script")" = lib.sh ] && continue
	name=pipeline_$(basename "$script" .sh)
	selected "$name" || selected pipeline || continue
	if [ ! -x "$script" ]; then
		echo "=== $name: $script is not executable (chmod +x it)"
		summary+=("$name: $script not executable -> 1 failure")
		total_fail=$((total_fail + 1))
		continue
	fi
	run_suite "$name" 300 "$script" "$build"
done

# The parser's libFuzzer target, already built with ASan and UBSan: a
# sanitizer build of the other suites sets TP_SKIP_FUZZ=1 to not run it twice.
if selected fuzz_parse && [ "${TP_SKIP_FUZZ:-0}" != 1 ]; then
	run_suite fuzz_parse 300 "$srcdir/fuzz/run.sh" "$build"
fi

if selected bench_smoke; then
	run_suite bench_smoke 700 "$srcdir/bench/smoke.sh" "$build"
fi

echo
echo "=== summary"
for line in "${summary[@]}"; do
	echo "$line"
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
