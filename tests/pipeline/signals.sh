#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Shutdown under load: SIGINT/SIGTERM stop RX, drain the events, flush every
# live flow as "forced_end", release the devices and exit 0 with the
# exactly-once check passing; a second signal exits at once (status 1).
# Telemetry answers /timer_pipeline/stats and /timer_pipeline/flows while
# the pipeline runs.
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

# stop SIGNAL: signal the pipeline, wait for it, set RC.
stop() {
	kill -s "$1" "$APP" 2>/dev/null
	wait "$PID"
	RC=$?
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
	if tp_clean_exit $RC "$log" && flushed "$log" "$WORK/sigint.json"
	then
		tp_pass sigint_under_load
	else
		tp_fail sigint_under_load "exit $RC, flows not all flushed" "$log"
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
	if tp_clean_exit $RC "$log" &&
	   [ "$(wc -l <"$WORK/sigterm.json")" -eq \
	     "$(tp_named "$log" flows created)" ]; then
		tp_pass sigterm_every_packet
	else
		tp_fail sigterm_every_packet "exit $RC or check failed" "$log"
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
	if tp_clean_exit $RC "$log" && [ "${rx:-0}" -gt 0 ]; then
		tp_pass sigint_net_null
	else
		tp_fail sigint_net_null "exit $RC, rx ${rx:-none}" "$log"
	fi
fi

# 4. A second signal during the flush: stop at once, status 1. A large
# flow table makes the flush walk long enough to be interrupted.
tp_eal
log=$WORK/twice.log
if ! start "$log" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$LOAD,infinite_rx=1" -- -T 1 \
	--flows 262144; then
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
