#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Run the test suites with meson and add up their results.
#
#     tests/run_tests.sh BUILD_DIR [SUITE...]
#
# Every test is a meson test() (tests/meson.build says which, with their
# EAL arguments and timeouts; a test registered anywhere else counts too).
# A SUITE is a meson suite: a test's own name (radix, adapter,
# pipeline_e2e, fuzz_parse, bench_smoke...) or a group (c, unit, pipeline,
# tools...); none means every test. This script does what meson does not:
# it reserves hugepages for the secondary suite, runs `meson test` (one test
# at a time but for the pure-C suites, which may run together), and reads
# each test's result line, "RESULT <suite>: N passed, N failed", from
# meson's JSON log. A test that crashes, times out or prints no RESULT line
# counts as one more failure, and so does a tests/pipeline/*.sh (but lib.sh)
# that tests/meson.build does not run. It prints a summary line per test,
# the failing cases' names and last "N passed, N failed"; the exit status
# is 0 iff nothing failed.
#
# Environment: TP_TEST_FILTER (case-name filter, read by every C suite),
# TP_TEST_TIMEOUT (seconds per test, instead of each test's own timeout),
# TP_SKIP_FUZZ=1 (leave the libFuzzer suites, suite fuzz, out: a sanitizer
# build already runs them; their regression cases, regress_*, still run),
# TP_SKIP_SUITES="SUITE..." (leave out every test in any of those suites,
# with a line saying so: CI's second DPDK leaves the guides' pages and the
# soak out, which run the same code on every DPDK). On a
# sanitizer build (b_sanitize) the tests of suite 'unsanitized' are left
# out, with a line saying so: pipeline_exercises, whose pages state timing
# a sanitized binary does not keep.

set -u

build=${1:-}
if [ ! -d "$build" ]; then
	echo "usage: $0 BUILD_DIR [SUITE...]" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
build=$(cd "$build" && pwd)
shift
srcdir=$(cd "$(dirname "$0")" && pwd)
logbase=tp_tests_$$
trap 'rm -f "$build/meson-logs/$logbase"*' EXIT

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

# tests.py MODE ARGS...: what meson knows about the tests, in Python.
#   select SRCDIR SUITE...  the tests the suites select (all when none is
#                           given), one a line, then
#                           "missing NAME" for each selected pipeline
#                           script meson does not run, and "unknown SUITE"
#   summary JSON-LOG NAME...  the per-test summary and the totals (a test
#                           NAME that did not run is a failure)
tests_py() {
	python3 - "$@" <<'PYEOF'
import glob, json, os, re, subprocess, sys

mode, build = sys.argv[1], sys.argv[2]
tests = json.loads(subprocess.run(
    ["meson", "introspect", build, "--tests"], check=True,
    capture_output=True, text=True).stdout)
# Suites are "project:suite"; a suite of the main project is asked by name.
suites = {t["name"]: {s.split(":", 1)[-1] for s in t["suite"]} | {t["name"]}
          for t in tests}

if mode == "select":
    srcdir, want = sys.argv[3], sys.argv[4:]
    chosen = lambda s: not want or any(w in s for w in want)
    # Suite 'unsanitized': timing a sanitizer build would not meet (the
    # exercises' pages); left out of such a build, with a line saying so.
    opts = json.loads(subprocess.run(
        ["meson", "introspect", build, "--buildoptions"], check=True,
        capture_output=True, text=True).stdout)
    sanitized = any(o["name"] == "b_sanitize" and o["value"] != "none"
                    for o in opts)
    skip = set(os.environ.get("TP_SKIP_SUITES", "").split())
    if os.environ.get("TP_SKIP_FUZZ") == "1":
        skip.add("fuzz")
    for name, s in suites.items():
        if chosen(s) and sanitized and "unsanitized" in s:
            print("sanitized", name)
        elif chosen(s) and s & skip:
            print("skipped", name)
        elif chosen(s):
            print(name)
    for script in sorted(glob.glob(os.path.join(srcdir, "pipeline", "*.sh"))):
        name = "pipeline_" + os.path.basename(script)[:-3]
        if name != "pipeline_lib" and name not in suites and \
           chosen({"pipeline", name}):
            print("missing", name)
    scripts = {"pipeline_" + os.path.basename(p)[:-3] for p in
               glob.glob(os.path.join(srcdir, "pipeline", "*.sh"))}
    for w in want:
        if not any(w in s for s in suites.values()) and w not in scripts:
            print("unknown", w)
    sys.exit(0)

timeout = {t["name"]: t["timeout"] for t in tests}
if os.environ.get("TP_TEST_TIMEOUT"):
    timeout = {n: int(os.environ["TP_TEST_TIMEOUT"]) for n in timeout}
result_re = re.compile(r"^RESULT [A-Za-z0-9_.-]+: ([0-9]+) passed, "
                       r"([0-9]+) failed$", re.M)
total_p = total_f = 0
failed = []
with open(sys.argv[3]) as f:
    runs = [json.loads(line) for line in f if line.strip()]
# Named "project:suite+suite / name"; listed in the order they are defined.
for r in runs:
    r["name"] = r["name"].rsplit(" / ", 1)[-1]
order = list(suites)
runs.sort(key=lambda r: order.index(r["name"]) if r["name"] in order else 0)
for r in runs:
    name, rc, out = r["name"], r["returncode"], r.get("stdout") or ""
    out += r.get("stderr") or ""
    found = result_re.findall(out)
    p, f = (int(found[-1][0]), int(found[-1][1])) if found else (0, 0)
    why = ""
    if r["result"] == "TIMEOUT" or rc in (124, 137):
        why = "timed out after %s s" % timeout.get(name, "?")
    elif rc < 0 or rc >= 128:
        why = "killed by signal %d" % (-rc if rc < 0 else rc - 128)
    elif not found:
        why = "no RESULT line, exit status %d" % rc
    elif rc != 0 and f == 0:
        why = "exit status %d with 0 failures" % rc
    if why:
        f += 1
        failed.append("%s (%s)" % (name, why))
        why = " (%s: +1 failure)" % why
    failed += ["%s: %s" % (name, m) for m in
               re.findall(r"^\[ FAIL \] (.*)$", out, re.M)]
    print("%s: %d passed, %d failed%s [%d s]" % (name, p, f, why,
                                                r["duration"]))
    total_p += p
    total_f += f
for name in sys.argv[4:]:
    if name not in {r["name"] for r in runs}:
        total_f += 1
        failed.append("%s (not run)" % name)
        print("%s: 0 passed, 1 failed (not run: +1 failure)" % name)
print("totals %d %d" % (total_p, total_f))
for line in failed:
    print("failed " + line)
PYEOF
}

total_pass=0
total_fail=0
summary=()
failed=()

if ! list=$(tests_py select "$build" "$srcdir" "$@"); then
	echo "$build: meson knows no tests there (not a build directory?)"
	echo "0 passed, 1 failed"
	exit 1
fi
mapfile -t selected <<<"$list"
names=()
for line in "${selected[@]}"; do
	case $line in
	"missing "*)
		summary+=("${line#missing }: tests/pipeline/${line#missing pipeline_}.sh not in tests/meson.build -> 1 failure")
		failed+=("${line#missing } (not in tests/meson.build)")
		total_fail=$((total_fail + 1)) ;;
	"unknown "*)
		echo "=== ${line#unknown }: no such test or suite" ;;
	"sanitized "*)
		echo "=== ${line#sanitized }: left out of a sanitizer build (suite unsanitized)" ;;
	"skipped "*)
		echo "=== ${line#skipped }: left out (TP_SKIP_SUITES, TP_SKIP_FUZZ)" ;;
	?*)
		names+=("$line") ;;
	esac
done

case " ${names[*]} " in *" secondary "*)
	hugepages_ready ||
		# It runs anyway without them, so that it reports its failure.
		echo "=== secondary: no free hugepages on a mounted hugetlbfs"
esac

args=(-C "$build" -v --no-stdsplit --logbase "$logbase" --num-processes 2)
[ -n "${TP_TEST_TIMEOUT:-}" ] &&
	args+=(-t 0 --wrapper "timeout -k 10 $TP_TEST_TIMEOUT")

meson_rc=0
if [ ${#names[@]} -gt 0 ]; then
	meson test "${args[@]}" "${names[@]}"
	meson_rc=$?
fi

# (meson names it after the wrapper too, when there is one.)
json=$(ls "$build/meson-logs/$logbase"*.json 2>/dev/null | head -n 1)
if [ -n "$json" ] && [ -s "$json" ]; then
	while IFS= read -r line; do
		case $line in
		"totals "*)
			read -r _ p f <<<"$line"
			total_pass=$((total_pass + p))
			total_fail=$((total_fail + f)) ;;
		"failed "*)
			failed+=("${line#failed }") ;;
		*)
			summary+=("$line") ;;
		esac
	done < <(tests_py summary "$build" "$json" "${names[@]}")
fi
# meson itself failed (the build, say) with no failing test to show for it.
if [ "$meson_rc" -ne 0 ] && [ "$total_fail" -eq 0 ]; then
	summary+=("meson test: exit status $meson_rc -> 1 failure")
	failed+=("meson test (exit status $meson_rc)")
	total_fail=$((total_fail + 1))
fi

echo
echo "=== summary"
for line in "${summary[@]}"; do
	echo "$line"
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "failed tests:"
	printf '  %s\n' "${failed[@]}"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
