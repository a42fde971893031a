#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# DPDK's own, unmodified programs with and without the event_direct driver
# (docs/event-direct.rst), on the DPDK the build is against:
#
#     bash scripts/event_direct_proof.sh BUILD_DIR [suite|eventdev]...
#
#   suite     dpdk-test's event_timer_adapter_test, once with DPDK's adapter
#             and once through the driver, on the same lcore layout; one
#             line per case, both results. Fails if a case DPDK's adapter
#             passes fails through the driver. (About 4 minutes a run: the
#             suite waits out its timers; TP_PROOF_SUITE_SIDES=ed runs the
#             driver's side only and then fails on any failed case but those
#             in TP_PROOF_SUITE_BOTH, the cases known to fail on both.)
#   eventdev  dpdk-test-eventdev --test=perf_queue with --prod_type_timerdev
#             and --prod_type_timerdev_burst, 1M timers, both adapters:
#             throughput and arm latency side by side. Fails if a run through
#             the driver does not end with "Result: Success" by itself.
#             TP_PROOF_TE_SIDES=ed: the driver's runs only;
#             TP_PROOF_TE_TIMERS, TP_PROOF_TE_SECS: timers (1000000) and
#             the bound of each run (60 s).
#
# Both by default. The programs: PREFIX/bin of the DPDK the driver is linked
# to (scripts/dpdk.sh's cache, where dpdk-test is built for 25.11.2; /usr/bin
# for Debian's 22.11). Every DPDK process gets its own --file-prefix
# and runs under timeout. Prints "N passed, N failed" last; output under
# BUILD_DIR/event_direct_proof/.
set -uo pipefail

build=${1:-}
[ -d "$build" ] || { sed -n '5,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
build=$(cd "$build" && pwd)
shift
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(suite eventdev)

so=$build/drivers/event_direct/librte_event_direct.so
out=$build/event_direct_proof
mkdir -p "$out"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "[ PASS ] $*"; }
ko() { fail=$((fail + 1)); echo "[ FAIL ] $*"; }

if [ ! -f "$so" ]; then
	ko "event_direct_proof: no $so (the driver was not built)"
	echo "$pass passed, $fail failed"
	exit 1
fi

# EAL refuses a plugin with a world-writable folder on its path (a clone
# under /tmp): then -d takes a copy in a private folder.
plugin=$so
d=$(dirname "$so")
while [ "$d" != / ]; do
	if [ -n "$(find "$d" -maxdepth 0 -perm -0002 2>/dev/null)" ]; then
		pdir=${TP_PROOF_PLUGIN_DIR:-/var/cache/timer_pipeline/plugin-$$}
		mkdir -p "$pdir" && chmod 755 "$pdir" &&
			cp "$so" "$pdir/" && plugin=$pdir/$(basename "$so")
		trap 'rm -rf "$pdir"' EXIT
		echo "event_direct_proof: $d is world-writable: -d $plugin"
		break
	fi
	d=$(dirname "$d")
done

# The DPDK the driver is linked to: its libdir's prefix.
libdir=$(ldd "$so" | awk '/librte_eal\.so/ { print $3; exit }')
libdir=$(dirname "$libdir")
case $libdir in
/usr/lib*|/lib*) prefix=/usr ;;
*) prefix=$(cd "$libdir/../.." && pwd) ;;
esac
# DPDK's programs from scripts/dpdk.sh's cache have no rpath.
[ "$prefix" = /usr ] ||
	export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
dpdk_version=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --modversion libdpdk 2>/dev/null || echo unknown)
program() { # program NAME: PREFIX/bin/NAME, or nothing
	[ -x "$prefix/bin/$1" ] && echo "$prefix/bin/$1"
}
echo "event_direct_proof: DPDK $dpdk_version ($prefix), driver $so"

# dpdk-test needs 6 lcores (main, 3 test lcores, 2 it turns into service
# lcores: the event_sw scheduler's and the adapter's); on 2 CPUs the main
# and test lcores share CPU 0, the two service lcores CPU 1.
SUITE_LCORES=${TP_PROOF_SUITE_LCORES:---lcores=0@0,1@0,2@0,3@0,4@1,5@1}
EAL_MEM=(--no-huge -m 512 --no-pci --log-level=lib.eal:warning)

# run_dpdk NAME LOG SECONDS PROGRAM ARGS...: one DPDK process, its own
# --file-prefix, bounded; its runtime files removed afterwards.
run_dpdk() {
	local name=$1 log=$2 secs=$3 rc
	shift 3
	local fp=tp_proof_$$_$name
	timeout -k 10 -s "${TIMEOUT_SIGNAL:-TERM}" "$secs" "$1" \
		--file-prefix="$fp" "${@:2}" > "$log" 2>&1
	rc=$?
	rm -rf "/var/run/dpdk/$fp" "${XDG_RUNTIME_DIR:-/tmp}/dpdk/$fp" 2>/dev/null
	return $rc
}

side_args() { # side_args dpdk|ed: the vdevs of one side
	if [ "$1" = ed ]; then
		echo "-d $plugin --vdev=event_sw0 --vdev=event_direct0"
	else
		echo "--vdev=event_sw0"
	fi
}

# ---- DPDK's adapter test suite ----
suite() {
	local dt side log sides=${TP_PROOF_SUITE_SIDES:-dpdk ed} c r_d r_e
	local bothfail=" ${TP_PROOF_SUITE_BOTH:-} "
	dt=$(program dpdk-test)
	if [ -z "$dt" ]; then
		echo "=== suite: no dpdk-test in $prefix/bin: skipped (scripts/dpdk.sh builds it for 25.11.2)"
		return 0
	fi
	for side in $sides; do
		log=$out/suite_$side.log
		echo "=== dpdk-test event_timer_adapter_test, $side ($SUITE_LCORES $(side_args "$side"))"
		# shellcheck disable=SC2046
		DPDK_TEST=event_timer_adapter_test run_dpdk "suite_$side" "$log" 600 \
			"$dt" "${EAL_MEM[@]}" "$SUITE_LCORES" $(side_args "$side")
		sed -n 's/^ + TestCase \[ *[0-9]*\] : \([A-Za-z0-9_]*\) \([a-z]*\).*/\1 \2/p' \
			"$log" > "$out/suite_$side.cases"
		grep -q . "$out/suite_$side.cases" ||
			{ ko "suite.$side: no test case ran (see $log)"; continue; }
		[ "$side" = dpdk ] ||
			grep -q "event_direct0: event device" "$log" ||
			ko "suite.$side: the driver did not log a takeover"
	done
	if [ -f "$out/suite_dpdk.cases" ] && [[ " $sides " == *" dpdk "* ]]; then
		printf '%-36s %-10s %s\n' case dpdk event_direct
		while read -r c r_d; do
			r_e=$(awk -v c="$c" '$1 == c { print $2 }' "$out/suite_ed.cases" 2>/dev/null)
			printf '%-36s %-10s %s\n' "$c" "$r_d" "${r_e:-not run}"
			if [ "$r_d" = succeeded ] && [ "$r_e" != succeeded ]; then
				ko "suite.$c: DPDK's adapter passes it, through the driver: ${r_e:-not run}"
			elif [ "$r_e" = succeeded ]; then
				ok "suite.$c"
			else
				echo "    ($c fails on both: see $out/suite_*.log)"
			fi
		done < "$out/suite_dpdk.cases"
	else
		while read -r c r_e; do
			printf '%-36s %s\n' "$c" "$r_e"
			if [ "$r_e" = succeeded ]; then
				ok "suite.$c"
			elif [[ "$bothfail" == *" $c "* ]]; then
				echo "    ($c: known to fail with DPDK's adapter too on this layout)"
			else
				ko "suite.$c: $r_e through the driver"
			fi
		done < "$out/suite_ed.cases"
	fi
}

# ---- dpdk-test-eventdev: the seed's harness ----
# Main (printing the rate) and the producer and worker on CPU 0, the
# service lcore (event_sw's scheduler and the adapter's service) on CPU 1.
TE_LCORES=${TP_PROOF_TE_LCORES:---lcores=0@0,1@1,2@0,3@0 -S 1}
TE_TIMERS=${TP_PROOF_TE_TIMERS:-1000000}
TE_SECS=${TP_PROOF_TE_SECS:-60}
# Expiry 1 ms on 100-us ticks: the run is bounded by how fast the timers
# can be armed and their events carried, not by the timeout.
TE_OPTS=(--test=perf_queue --plcores=2 --wlcores=3 --stlist=a
	--nb_timers="$TE_TIMERS" --expiry_nsec=1000000
	--timer_tick_nsec=100000 --max_tmo_nsec=10000000)

eventdev() {
	local te prod side log rate lat res secs t0
	te=$(program dpdk-test-eventdev)
	[ -n "$te" ] || { ko "eventdev: no dpdk-test-eventdev in $prefix/bin"; return; }
	printf '%-16s %-6s %10s %14s %8s %s\n' prod adapter "avg Mpps" "arm lat (us)" "secs" result
	for prod in timerdev timerdev_burst; do
		for side in ${TP_PROOF_TE_SIDES:-dpdk ed}; do
			log=$out/te_${prod}_$side.log
			t0=$(date +%s.%N)
			# shellcheck disable=SC2046,SC2086
			TIMEOUT_SIGNAL=INT run_dpdk "te_$side" "$log" "$TE_SECS" "$te" $TE_LCORES \
				--in-memory --no-pci --log-level=lib.eal:warning \
				$(side_args "$side") -- "${TE_OPTS[@]}" --prod_type_$prod
			secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
			rate=$(tr '\r' '\n' < "$log" | sed 's/\x1b\[[0-9;]*m//g' |
				sed -n 's/.*mpps avg \([0-9.]*\) mpps.*/\1/p' | tail -n 1)
			lat=$(sed -n 's/.*arm latency = \([0-9.]*\) us.*/\1/p' "$log" | head -n 1)
			res=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | sed -n 's/^Result: \([A-Za-z]*\).*/\1/p' | tail -n 1)
			# Stopped by timeout's SIGINT, it still prints "Success":
			# finished means every timer's event reached the workers.
			got=0
			for w in $(sed 's/\x1b\[[0-9;]*m//g' "$log" |
				sed -n 's/^Worker [0-9]* packets: \([0-9a-f]*\).*/\1/p'); do
				got=$((got + 0x$w))
			done
			[ "$res" = Success ] && [ "$got" -ne "$TE_TIMERS" ] &&
				res="stopped at ${TE_SECS} s, $got events"
			printf '%-16s %-6s %10s %14s %8.1f %s\n' "$prod" "$side" \
				"${rate:--}" "${lat:--}" "$secs" "${res:-none}"
			if [ "$side" = ed ]; then
				if [ "$res" = Success ]; then
					ok "eventdev.$prod: finished through the driver"
				else
					ko "eventdev.$prod: did not finish its $TE_TIMERS timers through the driver (see $log)"
				fi
			fi
		done
	done
}

for p in "${parts[@]}"; do
	case $p in
	suite) suite ;;
	eventdev) eventdev ;;
	*) ko "unknown part $p (suite, eventdev)" ;;
	esac
done
echo "RESULT event_direct_proof: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
