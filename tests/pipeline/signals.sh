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

# start LOG EAL-AND-APP-ARGS...: tp_start (lib.sh) with a 60-s limit: in
# the background, waits for the first stats screen; sets PID and APP.
start() {
	tp_start "$1" 60 "${@:2}"
}

# Longest time from a signal to the end of the process.
EXIT_MAX_MS=2000

# stop SIGNAL: tp_stop (signal, wait; sets RC and EXIT_MS), and say how
# long it took.
stop() {
	tp_stop "$1"
	echo "    signal to exit: $EXIT_MS ms"
}

# in_time: the last stop took at most EXIT_MAX_MS.
in_time() {
	tp_expect "ms from the signal to the exit" "$EXIT_MS" le "$EXIT_MAX_MS"
}

# flushed LOG JSON: every flow created was ended by the flush (forced_end)
# or earlier, and written once (TP_WHY says which part failed).
flushed() {
	local created forced
	read -r created forced <<<"$(tp_nums "$1" flows_created \
		ended_forced_end)"
	tp_expect "flows created" "$created" gt 0 &&
		tp_expect "flows ended by the flush" "$forced" gt 0 &&
		tp_expect_eq "records of $created flows" "$(wc -l <"$2")" \
			"$created"
}

# exited LOG: status 0 and the exactly-once check passed (TP_WHY if not).
exited() {
	tp_clean_exit "$RC" "$1" && return 0
	TP_WHY="exit $RC after $EXIT_MS ms, or the exactly-once check failed"
	return 1
}

# 1. SIGINT under load: net_pcap replaying a capture forever.
log=$WORK/sigint.log
if tp_start_replay sigint_under_load "$log" 60 "$LOAD" \
	--flow-log "$WORK/sigint.json"; then
	prefix=${TP_PREFIX}_$TP_RUNS
	# Telemetry while it runs.
	tel=$(printf '/timer_pipeline/stats\n/timer_pipeline/flows\n' |
	      timeout 10 dpdk-telemetry.py -f "$prefix" 2>&1)
	if grep -q '"timers_armed"' <<<"$tel" &&
	   grep -q '"ended_lack_of_resources"' <<<"$tel"; then
		tp_pass telemetry_commands
	else
		tp_fail telemetry_commands "no answer: $tel"
	fi
	stop INT
	if exited "$log" && flushed "$log" "$WORK/sigint.json" && in_time
	then
		tp_pass sigint_under_load
	else
		tp_fail sigint_under_load "$TP_WHY" "$log"
	fi
fi

# 2. SIGTERM under load, every-packet refresh with DPDK's adapter and
# short timeouts, so timers expire, re-arm and get cancelled all along.
log=$WORK/sigterm.log
if tp_start_replay sigterm_every_packet "$log" 60 "$LOAD" \
	--timer-adapter rte --refresh every-packet --tmo-udp 20ms \
	--tmo-tcp-est 30ms --tmo-tcp-syn 20ms --tmo-icmp 20ms \
	--tmo-other 20ms --tmo-tcp-closing 10ms --timer-tick 1ms \
	--flows 128 --flow-log "$WORK/sigterm.json"; then
	sleep 1
	stop TERM
	if exited "$log" && in_time &&
	   tp_expect_eq "records of all flows created" \
		"$(wc -l <"$WORK/sigterm.json")" \
		"$(tp_num "$log" flows_created)"; then
		tp_pass sigterm_every_packet
	else
		tp_fail sigterm_every_packet "$TP_WHY" "$log"
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
	read -r rx inuse <<<"$(tp_nums "$log" rx_pkts mbufs_in_use)"
	if exited "$log" && tp_expect "rx" "$rx" gt 0 && in_time &&
	   tp_expect_eq "mbufs in use at exit" "$inuse" 0; then
		tp_pass sigint_net_null
	else
		tp_fail sigint_net_null "$TP_WHY" "$log"
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
if ! start "$log" -l 0-1 -S 1 --no-huge -m 1024 --no-pci \
	--file-prefix "${TP_PREFIX}_$TP_RUNS" --log-level=pmd.net.pcap:warning \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$BIGLOAD,infinite_rx=1" -- \
	-T 1 --flows 262144 --tmo-udp 30s --flow-log "$WORK/large.json"; then
	tp_fail sigint_large_table "did not start" "$log"
else
	sleep 1
	stop INT
	if exited "$log" && flushed "$log" "$WORK/large.json" &&
	   tp_expect "flows ended by the flush" \
		"$(tp_num "$log" ended_forced_end)" ge 10000 && in_time; then
		tp_pass sigint_large_table
	else
		tp_fail sigint_large_table "$TP_WHY" "$log"
	fi
fi

# 5. SIGTERM with slow workers (--fault-worker-delay-us): the event device
# is full and RX blocked on it when the signal comes; RX gives up what it
# holds (counted as "shutdown" drops), workers drain the rest.
log=$WORK/slow.log
if tp_start_replay sigterm_slow_workers "$log" 60 "$LOAD" \
	--fault-worker-delay-us 500 --events 1024 --tmo-udp 50ms \
	--timer-tick 1ms --flow-log "$WORK/slow.json"; then
	stop TERM
	if exited "$log" && flushed "$log" "$WORK/slow.json" &&
	   tp_expect "enqueue retries" "$(tp_num "$log" enqueue_retries)" \
		gt 0 && in_time; then
		tp_pass sigterm_slow_workers
	else
		tp_fail sigterm_slow_workers "$TP_WHY" "$log"
	fi
fi

# 6. A second signal during the flush: stop at once, status 1. Slow
# workers (20 ms per burst) behind a full event device make the drain long
# enough (seconds) to be interrupted. The exit check still adds up, with
# the flows the flush left found live in the table (its walk stops at the
# highest position a flow took: tp_flow_table_top()).
log=$WORK/twice.log
if tp_start_replay second_signal "$log" 60 "$LOAD" \
	--flows 262144 --fault-worker-delay-us 20000; then
	t0=$(date +%s)
	kill -INT "$APP"
	sleep 0.1
	stop INT
	t1=$(date +%s)
	TP_WHY=
	if tp_expect_eq "exit status" "$RC" 1 &&
	   grep -q 'second signal' "$log" &&
	   tp_expect "s to stop" $((t1 - t0)) le 10 &&
	   awk '/^  flows  created/ { ok = $3 == $6 + $9 && $9 > 0 }
		END { exit !ok }' "$log"; then
		tp_pass second_signal
	else
		tp_fail second_signal "exit $RC after $((t1 - t0)) s: ${TP_WHY:-no 'second signal' message, or no live flow in a balanced check}" "$log"
	fi
fi

tp_result
