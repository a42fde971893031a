# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Shared helpers of the pipeline tests (sourced, not run: not executable).
#
# A test script sets SUITE, sources this file with the build directory as
# $1, calls tp_pass/tp_fail (or tp_expect) once per case and ends with
# tp_result, which prints "RESULT pipeline_<SUITE>: N passed, N failed" and
# returns 0 iff no case failed.
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

# EAL options for run number N (a fresh --file-prefix each time).
tp_eal() {
	TP_RUNS=$((TP_RUNS + 1))
	EAL=(-l 0-1 -s 0x2 --no-huge -m 512 --no-pci
	     --file-prefix "${TP_PREFIX}_$TP_RUNS" --log-level=pmd.net.pcap:warning)
}

# tp_run LOG TIMEOUT EAL-AND-APP-ARGS...: run the pipeline, return its status.
tp_run() {
	local log=$1 secs=$2
	shift 2
	timeout -k 5 "$secs" "$TP_BIN" "$@" >"$log" 2>&1
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

# Summary value: tp_stat LOG "rx" N -> the Nth number on the summary line.
tp_stat() {
	sed -n '/=== timer_pipeline summary/,$p' "$1" |
		awk -v key="$2" -v n="$3" '$1 == key {
			c = 0
			for (i = 2; i <= NF; i++) {
				v = $i; gsub(/[^0-9]/, "", v)
				if (v != "" && ++c == n) { print v; exit }
			}
		}'
}

# Summary counter by name on one line: tp_named LOG tx malformed -> the
# number after "malformed" on the summary's "tx" line.
tp_named() {
	sed -n '/=== timer_pipeline summary/,$p' "$1" |
		awk -v key="$2" -v name="$3" '$1 == key {
			for (i = 2; i < NF; i++) {
				w = $i; gsub(/[(),:]/, "", w)
				if (w == name) {
					v = $(i + 1); gsub(/[^0-9]/, "", v)
					print v; exit
				}
			}
		}'
}

# The run ended with status 0 and a passed exactly-once check.
tp_clean_exit() {
	local rc=$1 log=$2
	[ "$rc" -eq 0 ] && grep -q '^  PASSED' "$log"
}
