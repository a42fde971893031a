# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Shared helpers of the pipeline tests (sourced, not run: not executable).
#
# A test script sets SUITE, sources this file with the build directory as
# $1, calls tp_pass/tp_fail once per case and ends with tp_result, which
# prints "RESULT pipeline_<SUITE>: N passed, N failed" and returns 0 iff no
# case failed.
#
# Numbers come from the run's --summary-json (tp_run and tp_start add it):
# tp_num/tp_nums read them, tp_expect/tp_expect_eq compare them and fail on
# an empty or non-numeric value, naming what they compared in TP_WHY:
#
#	read -r rx fwd <<<"$(tp_nums "$log" rx_pkts forwarded)"
#	if ! tp_expect_eq "forwarded" "$fwd" "$rx"; then
#		tp_fail "$name" "$TP_WHY" "$log"
#
# Every DPDK process runs under timeout, with its own --file-prefix, on the
# 2-CPU layout: lcore 0 = main, RX and worker; lcore 1 = service lcore.

set -u

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	echo "RESULT pipeline_${SUITE}: 0 passed, 1 failed"
	exit 1
fi

TP_BUILD=$(cd "$1" && pwd)
TP_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TP_BIN=$TP_BUILD/examples/timer_pipeline/dpdk-timer_pipeline
GEN="python3 $TP_SRC/tools/gen_pcap.py"
CHECK="python3 $TP_SRC/tests/pipeline/check_records.py"
TOOL="python3 $TP_SRC/tests/pipeline/pcap_tool.py"
WORK=$(mktemp -d "/tmp/tp_pipeline_${SUITE}_XXXXXX")
TP_PREFIX="tp_${SUITE}_$$"
TP_RUNS=0
TP_PIDS=()
pass=0
fail=0

# Short timeouts used by most cases (seconds; same names as the app).
TMO_ARGS=(--tmo-tcp-syn 1 --tmo-tcp-est 1 --tmo-tcp-closing 0.5
	  --tmo-udp 1 --tmo-icmp 1 --tmo-other 1)

tp_cleanup() {
	local p
	for p in "${TP_PIDS[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$WORK"
	# Our DPDK runtime directories (one per run, by --file-prefix).
	rm -rf "/var/run/dpdk/${TP_PREFIX}"_[0-9]*
}
trap tp_cleanup EXIT

if [ ! -x "$TP_BIN" ]; then
	echo "[ FAIL ] pipeline.$SUITE: $TP_BIN not built"
	echo "RESULT pipeline_${SUITE}: 0 passed, 1 failed"
	exit 1
fi

tp_pass() {
	echo "[ PASS ] pipeline.$1"
	pass=$((pass + 1))
}

# tp_fail CASE WHY [LOG]: print the reason and the end of the log.
tp_fail() {
	echo "[ FAIL ] pipeline.$1: $2"
	if [ $# -ge 3 ] && [ -f "$3" ]; then
		tail -n 15 "$3" | sed 's/^/    | /'
	fi
	fail=$((fail + 1))
}

tp_result() {
	echo "RESULT pipeline_${SUITE}: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# tp_gen_expect CAPTURE RECORDS GEN-ARGS...: gen_pcap.py writes CAPTURE
# and RECORDS, its model of the flow records under the TMO_ARGS timeouts;
# prints the capture's number of packets.
tp_gen_expect() {
	local cap=$1 exp=$2
	shift 2
	$GEN -o "$cap" "$@" --expect "$exp" "${TMO_ARGS[@]}" 2>/dev/null
	$TOOL count "$cap"
}

# EAL options for run number N (a fresh --file-prefix each time), and
# those of the array TP_EAL_MORE if set. TP_LCORES replaces the lcore
# options ("-l 0-1 -S 1"), TP_MEM the memory ones ("--no-huge -m 512").
tp_eal() {
	TP_RUNS=$((TP_RUNS + 1))
	# shellcheck disable=SC2206
	EAL=(${TP_LCORES:--l 0-1 -S 1} ${TP_MEM:---no-huge -m 512} --no-pci
	     --file-prefix "${TP_PREFIX}_$TP_RUNS" --log-level=pmd.net.pcap:warning
	     ${TP_EAL_MORE:+"${TP_EAL_MORE[@]}"})
}

# The --summary-json file of the run that writes LOG (see tp_num).
tp_sum_path() {
	echo "${1%.log}.sum.json"
}

# tp_args LOG EAL-AND-APP-ARGS...: sets ARGS to the arguments with
# "--summary-json $(tp_sum_path LOG)" right after the "--" that starts the
# app options (unless TP_SUMMARY=0, or there is no "--"), so that the
# run's numbers can be read with tp_num.
tp_args() {
	local sum a added=0
	sum=$(tp_sum_path "$1")
	shift
	ARGS=()
	rm -f "$sum"
	for a in "$@"; do
		ARGS+=("$a")
		if [ "$a" = -- ] && [ $added = 0 ] && [ "${TP_SUMMARY:-1}" = 1 ]
		then
			ARGS+=(--summary-json "$sum")
			added=1
		fi
	done
}

# tp_run LOG TIMEOUT EAL-AND-APP-ARGS...: run the pipeline, return its status.
tp_run() {
	local log=$1 secs=$2
	shift 2
	tp_args "$log" "$@"
	timeout -k 5 "$secs" "$TP_BIN" "${ARGS[@]}" >"$log" 2>&1
}

# tp_start [--sock] LOG TIMEOUT EAL-AND-APP-ARGS...: run the pipeline in the
# background (with -T, it prints stats screens) and wait until it runs: its
# first stats screen (and with --sock, its telemetry socket). Sets PID
# (timeout's), APP (the pipeline's, to signal it directly) and SOCK (the
# telemetry socket of the last tp_eal prefix). Returns 1 if it ended or
# did not get there within 30 s.
tp_start() {
	local sock=0 log secs i
	[ "$1" = --sock ] && { sock=1; shift; }
	log=$1 secs=$2
	shift 2
	SOCK=/var/run/dpdk/${TP_PREFIX}_$TP_RUNS/dpdk_telemetry.v2
	tp_args "$log" "$@"
	timeout -k 5 "$secs" "$TP_BIN" "${ARGS[@]}" >"$log" 2>&1 &
	PID=$!
	TP_PIDS+=("$PID")
	for i in $(seq 1 150); do
		APP=$(pgrep -P "$PID" | head -1)
		if [ -n "$APP" ] && { [ $sock = 0 ] || [ -S "$SOCK" ]; } &&
		   grep -q '=== timer_pipeline stats' "$log" 2>/dev/null; then
			TP_PIDS+=("$APP")
			return 0
		fi
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

# tp_start_replay [--sock] NAME LOG TIMEOUT CAPTURE [APP-ARGS...]: case
# NAME's pipeline, started by tp_start (a fresh tp_eal) on event_sw and
# net_pcap0 replaying CAPTURE forever, with -T 1 (stats screens). Fails
# case NAME ("did not start") and returns 1 if it does not get running.
tp_start_replay() {
	local sock=() name log secs cap
	[ "$1" = --sock ] && { sock=(--sock); shift; }
	name=$1 log=$2 secs=$3 cap=$4
	shift 4
	tp_eal
	tp_start "${sock[@]}" "$log" "$secs" "${EAL[@]}" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$cap,infinite_rx=1" -- -T 1 "$@" &&
		return 0
	tp_fail "$name" "did not start" "$log"
	return 1
}

# tp_stop [SIGNAL]: signal the pipeline tp_start started (SIGINT by
# default), wait for it; sets RC and EXIT_MS (signal to end of process).
tp_stop() {
	local t0 t1
	t0=$(date +%s%N)
	kill -s "${1:-INT}" "$APP" 2>/dev/null
	wait "$PID"
	RC=$?
	t1=$(date +%s%N)
	EXIT_MS=$(((t1 - t0) / 1000000))
}

# tp_refused NAME FILE WORDS EAL-AND-APP-ARGS...: the run exits with status
# 2 before EAL starts, with one error line that names FILE (as 'FILE')
# and says WORDS (a regex). Fails the case NAME (and returns 1) if not;
# returns 0 without passing it, so the caller can check more.
tp_refused() {
	local name=$1 file=$2 words=$3 log=$WORK/$1.log rc
	shift 3
	tp_eal
	tp_run "$log" 60 "${EAL[@]}" "$@"
	rc=$?
	if [ $rc -ne 2 ]; then
		tp_fail "$name" "exit status $rc, want 2" "$log"
	elif [ "$(grep -c 'error:' "$log")" -ne 1 ] ||
	     ! grep 'error:' "$log" | grep -qF "'$file'" ||
	     ! grep 'error:' "$log" | grep -qE -- "$words"; then
		tp_fail "$name" "want one error naming '$file', /$words/" "$log"
	elif grep -q '^EAL:' "$log" ||
	     [ -e "/var/run/dpdk/${TP_PREFIX}_$TP_RUNS" ]; then
		tp_fail "$name" "EAL had started" "$log"
	else
		return 0
	fi
	return 1
}

# tp_pcap_run LOG IN.pcap OUT.pcap [APP-ARGS...]: net_pcap rx_pcap/tx_pcap,
# event_sw, stop when the capture is done and every flow has aged.
tp_pcap_run() {
	local log=$1 in=$2 out=$3
	shift 3
	tp_eal
	tp_run "$log" 90 "${EAL[@]}" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$in,tx_pcap=$out" -- \
		"${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --flows 4096 \
		--stop-when-done "$@"
}

# Tests read numbers with tp_num/tp_nums (the summary JSON), never from the
# human summary text: a renamed key fails the check rather than switching
# it off.

# tp_nums LOG KEY...: numbers from the --summary-json of the run that
# wrote LOG, one per KEY, space separated. A KEY with a dot is a path from
# the top ("check.flows_live"); without, it is a counter
# ("drop_evdev_full" = "counters.drop_evdev_full"). A missing file or key
# gives "none" in its place (which tp_expect refuses), never a shift.
tp_nums() {
	python3 "$TP_SRC/tools/tplib.py" nums "$(tp_sum_path "$1")" "${@:2}"
}

# tp_num LOG KEY: one number, as tp_nums.
tp_num() {
	tp_nums "$1" "$2"
}

# tp_expect WHAT A OP B: true iff A and B are integers and A OP B holds
# (OP: eq ne lt le gt ge). Otherwise false, and TP_WHY says what was
# compared: "WHAT: 3 eq 4 is false" or "WHAT: 'none' is not a number".
# Unlike [ "$a" -ne "$b" ], an empty or missing value fails the check.
TP_WHY=
tp_expect() {
	local what=$1 a=$2 op=$3 b=$4 v
	for v in "$a" "$b"; do
		if ! [[ "$v" =~ ^-?[0-9]+$ ]]; then
			TP_WHY="$what: '$v' is not a number ($a $op $b)"
			return 1
		fi
	done
	case $op in
	eq | ne | lt | le | gt | ge) ;;
	*) TP_WHY="$what: unknown comparison '$op'"; return 1 ;;
	esac
	if [ "$a" "-$op" "$b" ]; then
		return 0
	fi
	TP_WHY="$what: $a $op $b is false"
	return 1
}

# tp_numbers NAME=VALUE...: true iff every VALUE is an integer, so that
# arithmetic on them means something; else TP_WHY names the first that is
# not. Check before $((a + b)): bash takes "none" or "" there as 0.
tp_numbers() {
	local nv
	for nv in "$@"; do
		if ! [[ "${nv#*=}" =~ ^-?[0-9]+$ ]]; then
			TP_WHY="${nv%%=*}: '${nv#*=}' is not a number"
			return 1
		fi
	done
}

# tp_expect_eq WHAT ACTUAL EXPECTED: tp_expect WHAT ACTUAL eq EXPECTED.
tp_expect_eq() {
	tp_expect "$1" "$2" eq "$3"
}

# tp_balanced LOG: from the run's summary JSON, rx == forwarded + monitored
# + dropped
# and the drops add up over their reasons (every counters.drop_* key).
# False with TP_WHY naming the numbers otherwise.
tp_balanced() {
	local out
	if ! out=$(python3 - "$(tp_sum_path "$1")" <<'EOF'
import json, sys
def no(why):
    print(why)
    sys.exit(1)
try:
    c = json.load(open(sys.argv[1]))["counters"]
    rx, fwd, drop = c["rx_pkts"], c["forwarded"] + c["monitored"], c["dropped"]
    reasons = {k: v for k, v in c.items() if k.startswith("drop_")}
except (OSError, ValueError, KeyError) as e:
    no("no summary numbers (%s: %s)" % (type(e).__name__, e))
if not reasons:
    no("no drop_* counter in the summary")
if rx != fwd + drop or drop != sum(reasons.values()):
    no("rx %d != forwarded (+ monitored) %d + dropped %d, or dropped != sum of %s"
       % (rx, fwd, drop, reasons))
EOF
	); then
		TP_WHY=$out
		return 1
	fi
}

# tp_lost_exit RC LOG: the run lost output on this machine (a record
# file or tx_pcap): exit status 3, the check's terms add up but it does
# not say PASSED, and the summary says passed false and how much was lost.
tp_lost_exit() {
	local rc=$1 log=$2
	[ "$rc" -eq 3 ] && grep -q '^  FAILED: output lost (exit status 3)' \
		"$log" && ! grep -q '^  PASSED' "$log" || return 1
	[ ! -e "$(tp_sum_path "$log")" ] ||
		{ [ "$(tp_num "$log" check.passed)" = false ] &&
		  [ "$(tp_num "$log" check.output_lost)" -gt 0 ]; }
}

# The run ended with status 0 and a passed exactly-once check (in the
# summary text, and in the summary JSON when the run wrote one).
tp_clean_exit() {
	local rc=$1 log=$2
	[ "$rc" -eq 0 ] && grep -q '^  PASSED' "$log" || return 1
	[ ! -e "$(tp_sum_path "$log")" ] ||
		[ "$(tp_num "$log" check.passed)" = true ]
}

# --- Collectors (nfdump's nfcapd) -------------------------------------------

# A free port on 127.0.0.1 for udp or tcp.
free_port() {
	/usr/bin/python3 -c "import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM if sys.argv[1] == 'udp'
                  else socket.SOCK_STREAM)
s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])" "$1"
}

# nfcapd_start DIR PORT: collector in the background; NFCAPD = its pid.
nfcapd_start() {
	mkdir -p "$1"
	nfcapd -w "$1" -p "$2" -b 127.0.0.1 -t 3600 -B 4000000 \
		>"$1.log" 2>&1 &
	NFCAPD=$!
	TP_PIDS+=("$NFCAPD")
	sleep 0.3
}

# nfcapd_stop DIR RAW: SIGTERM closes the file; dump it as raw text.
nfcapd_stop() {
	sleep 0.3	# the last datagrams
	kill -TERM "$NFCAPD" 2>/dev/null
	wait "$NFCAPD" 2>/dev/null
	nfdump -r "$(ls "$1"/nfcapd.2* | head -1)" -o raw >"$2" 2>&1
}

# tp_doc_commands WHY FILE.rst...: case "commands": every command marked
# ".. test: run" in the files runs with status 0 and prints what their
# ".. test: output" blocks show (tests/pipeline/docs_test.py, from the top
# of the tree, build/ being TP_BUILD); its log is $WORK/commands.log.
tp_doc_commands() {
	local why=$1 rc
	shift
	(cd "$TP_SRC" && python3 tests/pipeline/docs_test.py "$TP_BUILD" \
		"$WORK" "$@") >"$WORK/commands.log" 2>&1
	rc=$?
	grep -E '^(ok|FAIL|skip|TIME) |^       ' "$WORK/commands.log"
	if [ "$rc" -eq 0 ] && grep -q '^commands: [1-9][0-9]* passed, 0 failed' \
		"$WORK/commands.log"; then
		tp_pass commands
	else
		tp_fail commands "$why" "$WORK/commands.log"
	fi
}
