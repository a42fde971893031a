#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Shutdown under load: SIGINT/SIGTERM stop RX, drain the events, flush every
# live flow as "forced_end", release the devices and exit 0 with the
# exactly-once check passing, within 2 s of the signal (measured from the
# kill to the end of the process: flush, drain and teardown), also with a
# large flow table and with slow workers; a second signal exits at once
# (status 1). Telemetry answers /timer_pipeline/stats and
# /timer_pipeline/flows while the pipeline runs.
#
#     tests/pipeline/signals.sh BUILD_DIR

SUITE=signals
. "$(dirname "$0")/lib.sh"

LOAD=$WORK/load.pcap
$GEN -o "$LOAD" --seed 21 --flows 300 --malformed 10 --non-ip 3 2>/dev/null

# start LOG EAL-AND-APP-ARGS...: run in the background under timeout; sets
# PID (timeout's) and APP (the pipeline's, which we signal directly).
# Waits for the first stats screen, i.e. for the pipeline to be running.
start() {
	local log=$1 i
	shift
	timeout -k 5 60 "$TP_BIN" "$@" >"$log" 2>&1 &
	PID=$!
	TP_PIDS+=("$PID")
	for i in $(seq 1 150); do
		APP=$(pgrep -P "$PID" | head -1)
		if [ -n "$APP" ] &&
		   grep -q '=== timer_pipeline stats' "$log" 2>/dev/null; then
			TP_PIDS+=("$APP")
			return 0
		fi
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

# Longest time from a signal to the end of the process.
EXIT_MAX_MS=2000

# stop SIGNAL: signal the pipeline, wait for it, set RC and EXIT_MS (the
# time from the signal to the end of the process).
stop() {
	local t0 t1
	t0=$(date +%s%N)
	kill -s "$1" "$APP" 2>/dev/null
	wait "$PID"
	RC=$?
	t1=$(date +%s%N)
	EXIT_MS=$(((t1 - t0) / 1000000))
	echo "    signal to exit: $EXIT_MS ms"
}

# in_time: the last stop took at most EXIT_MAX_MS.
in_time() {
	[ "$EXIT_MS" -le "$EXIT_MAX_MS" ]
}

# flushed LOG JSON: every flow created was ended by the flush (forced_end)
# or earlier, and written once.
flushed() {
	local created forced lines
	created=$(tp_named "$1" flows created)
	forced=$(tp_named "$1" flows forced_end)
	lines=$(wc -l <"$2")
	[ -n "$created" ] && [ "$created" -gt 0 ] && [ "${forced:-0}" -gt 0 ] &&
		[ "$lines" -eq "$created" ]
}

# 1. SIGINT under load: net_pcap replaying a capture forever.
tp_eal
prefix=${TP_PREFIX}_$TP_RUNS
log=$WORK/sigint.log
if ! start "$log" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$LOAD,infinite_rx=1" -- -T 1 \
	--flow-log "$WORK/sigint.json"; then
	tp_fail sigint_under_load "did not start" "$log"
else
	# Telemetry while it runs.
	tel=$(printf '/timer_pipeline/stats\n/timer_pipeline/flows\n' |
	      timeout 10 dpdk-telemetry.py -f "$prefix" 2>&1)
	if grep -q '"timers_armed"' <<<"$tel" &&
	   grep -q '"lack_of_resources"' <<<"$tel"; then
		tp_pass telemetry_commands
	else
		tp_fail telemetry_commands "no answer: $tel"
	fi
	stop INT
	if tp_clean_exit $RC "$log" && flushed "$log" "$WORK/sigint.json" &&
	   in_time; then
		tp_pass sigint_under_load
	else
		tp_fail sigint_under_load "exit $RC after $EXIT_MS ms, flows not all flushed" "$log"
	fi
fi

# 2. SIGTERM under load, every-packet refresh with DPDK's adapter and
# short timeouts, so timers expire, re-arm and get cancelled all along.
tp_eal
log=$WORK/sigterm.log
if ! start "$log" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$LOAD,infinite_rx=1" -- -T 1 \
	--timer-adapter rte --refresh every-packet --tmo-udp 20ms \
	--tmo-tcp-est 30ms --tmo-tcp-syn 20ms --tmo-icmp 20ms \
	--tmo-other 20ms --tmo-tcp-closing 10ms --timer-tick 1ms \
	--flows 128 --flow-log "$WORK/sigterm.json"; then
	tp_fail sigterm_every_packet "did not start" "$log"
else
	sleep 1
	stop TERM
	if tp_clean_exit $RC "$log" && in_time &&
	   [ "$(wc -l <"$WORK/sigterm.json")" -eq \
	     "$(tp_named "$log" flows created)" ]; then
		tp_pass sigterm_every_packet
	else
		tp_fail sigterm_every_packet "exit $RC after $EXIT_MS ms or check failed" "$log"
	fi
fi

# 3. SIGINT under load from net_null (no flows: all non-IP).
tp_eal
log=$WORK/null.log
if ! start "$log" "${EAL[@]}" --vdev=event_sw0 --vdev=net_null0 -- -T 1 \
	--fwd-mode drop; then
	tp_fail sigint_net_null "did not start" "$log"
else
	stop INT
	rx=$(tp_stat "$log" rx 1)
	inuse=$(tp_named "$log" mbufs in_use)
	if tp_clean_exit $RC "$log" && [ "${rx:-0}" -gt 0 ] && in_time &&
	   [ "${inuse:-x}" = 0 ]; then
		tp_pass sigint_net_null
	else
		tp_fail sigint_net_null "exit $RC after $EXIT_MS ms, rx ${rx:-none}, mbufs in use ${inuse:-none}" "$log"
	fi
fi

# 4. SIGINT with many live flows in a large table: 50,000 UDP flows
# replayed forever into a table of 262,144 (327,680 slots to walk), busy
# polling, every record written. The flush must still end within 2 s.
BIGLOAD=$WORK/big.pcap
$GEN -o "$BIGLOAD" --seed 22 --flows 50000 --flow-interval-ms 0.01 \
	--mix udp=1 --pkts 1 --size 64 --vlan-pct 0 --ipv6-pct 0 2>/dev/null
TP_RUNS=$((TP_RUNS + 1))
log=$WORK/large.log
if ! start "$log" -l 0-1 -s 0x2 --no-huge -m 1024 --no-pci \
	--file-prefix "${TP_PREFIX}_$TP_RUNS" --log-level=pmd.net.pcap:warning \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$BIGLOAD,infinite_rx=1" -- \
	-T 1 --flows 262144 --tmo-udp 30s --flow-log "$WORK/large.json"; then
	tp_fail sigint_large_table "did not start" "$log"
else
	sleep 1
	stop INT
	forced=$(tp_named "$log" flows forced_end)
	if tp_clean_exit $RC "$log" && flushed "$log" "$WORK/large.json" &&
	   [ "${forced:-0}" -ge 10000 ] && in_time; then
		tp_pass sigint_large_table
	else
		tp_fail sigint_large_table "exit $RC after $EXIT_MS ms, ${forced:-0} flows flushed" "$log"
	fi
fi

# 5. SIGTERM with slow workers (--fault-worker-delay-us): the event device
# is full and RX blocked on it when the signal comes; RX gives up what it
# holds (counted as "shutdown" drops), workers drain the rest.
tp_eal
log=$WORK/slow.log
if ! start "$log" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$LOAD,infinite_rx=1" -- -T 1 \
	--fault-worker-delay-us 500 --events 1024 --tmo-udp 50ms \
	--timer-tick 1ms --flow-log "$WORK/slow.json"; then
	tp_fail sigterm_slow_workers "did not start" "$log"
else
	stop TERM
	retries=$(tp_named "$log" events enqueue_retries)
	if tp_clean_exit $RC "$log" && flushed "$log" "$WORK/slow.json" &&
	   [ "${retries:-0}" -gt 0 ] && in_time; then
		tp_pass sigterm_slow_workers
	else
		tp_fail sigterm_slow_workers "exit $RC after $EXIT_MS ms, enqueue retries ${retries:-none}" "$log"
	fi
fi

# 6. A second signal during the flush: stop at once, status 1. Slow
# workers (20 ms per burst) behind a full event device make the drain long
# enough (seconds) to be interrupted.
tp_eal
log=$WORK/twice.log
if ! start "$log" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$LOAD,infinite_rx=1" -- -T 1 \
	--flows 262144 --fault-worker-delay-us 20000; then
	tp_fail second_signal "did not start" "$log"
else
	t0=$(date +%s)
	kill -INT "$APP"
	sleep 0.1
	stop INT
	t1=$(date +%s)
	if [ "$RC" -eq 1 ] && grep -q 'second signal' "$log" &&
	   [ $((t1 - t0)) -le 10 ]; then
		tp_pass second_signal
	else
		tp_fail second_signal "exit $RC after $((t1 - t0)) s" "$log"
	fi
fi

tp_result
