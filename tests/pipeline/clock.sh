#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# --clock capture: a capture read at full speed ages its flows on its own
# timestamps, exactly as a paced replay would. Generator captures with
# idle gaps longer and shorter than each timeout must give the generator
# model's paced records, times included (check_records.py --mode paced):
# ten runs in a row, identical, under a background CPU load; Ethernet and
# LINUX_SLL captures, pcap and pcapng; the active timeout. A capture
# spanning more than 10 minutes must finish in under 5 % of its span.
# --replay-speed 10 must give the same records within the model's
# tolerance. The refusals (DPDK's adapter, live and infinite input,
# --replay-pace, speeds beyond the limits) exit with status 2 and one line
# naming the problem; the summary names the clock.
#
#     tests/pipeline/clock.sh BUILD_DIR

SUITE=clock
. "$(dirname "$0")/lib.sh"

# clock_run NAME IN [APP-ARGS...]: one --clock capture run of IN, its
# records in $WORK/NAME.json, its log in $WORK/NAME.log.
clock_run() {
	local name=$1 in=$2
	shift 2
	tp_pcap_run "$WORK/$name.log" "$in" "$WORK/$name.pcap" --clock capture \
		--flow-log "$WORK/$name.json" "$@"
}

# clock_case NAME IN EXP [APP-ARGS...]: a run whose records must be the
# model's paced ones.
clock_case() {
	local name=$1 in=$2 exp=$3 rc why
	shift 3
	clock_run "$name" "$in" "$@"
	rc=$?
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail "$name" "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
		return 1
	elif ! why=$($CHECK records "$WORK/$name.json" "$exp" --mode paced)
	then
		tp_fail "$name" "$why"
		return 1
	fi
	tp_pass "$name"
}

# Idle gaps of 2.5 s against 1-s timeouts (and packet gaps of 5-50 ms,
# far below them): flows split at the gaps.
IN=$WORK/gaps.pcap
EXP=$WORK/gaps.json
$GEN -o "$IN" --seed 7 --flows 12 --gap-ms 5-50 --flow-interval-ms 20 \
	--idle-gap-pct 50 --idle-gap-ms 2500 --malformed 4 --non-ip 2 \
	--expect "$EXP" "${TMO_ARGS[@]}" 2>/dev/null
read -r npaced nflows < <(python3 -c "import json
d = json.load(open('$EXP')); print(len(d['paced']), d['flows'])")

clock_case idle_gaps "$IN" "$EXP"
if tp_expect "records the model expects, for $nflows flows" \
	"$npaced" gt "$nflows" &&
   tp_expect_eq "records written" "$(wc -l <"$WORK/idle_gaps.json")" \
	"$npaced"; then
	tp_pass flows_split_at_gaps
else
	tp_fail flows_split_at_gaps "$TP_WHY"
fi

# Once every input is over, no key is looked up again: the flows still
# live at the capture's end end without a delete or a grace period
# (flows_ended_closed), those that ended at the gaps before did not. The
# wall clock's run (below) ends every flow before RX stops: none.
read -r closed ended <<<"$(tp_nums "$WORK/idle_gaps.log" \
	flows_ended_closed flows_ended)"
if tp_expect "flows ended in the closed table" "$closed" gt 0 &&
   tp_expect "flows ended in the closed table, of $ended" "$closed" lt \
	"$ended"; then
	tp_pass table_closed_at_end
else
	tp_fail table_closed_at_end "$TP_WHY"
fi

# The inline packet path (drop and monitor modes: RX meters, only timer
# events cross the event device, and the lcore moving the clock runs the
# adapter's and the scheduler's services itself until RX stops): the same
# paced records, the services handed back for the drain.
for mode in drop monitor; do
	if clock_case idle_gaps_inline_$mode "$IN" "$EXP" --fwd-mode $mode &&
	   ! grep -q 'runs the adapter.s and the scheduler.s services' \
		"$WORK/idle_gaps_inline_$mode.log"; then
		tp_fail clock_runs_services_$mode "no log line: the services" \
			"were not taken" "$WORK/idle_gaps_inline_$mode.log"
	fi
done

# The summary says which clock ran; the wall clock's run does not split.
clock=$(python3 -c "import json, sys
print(json.load(open(sys.argv[1])).get('clock'))" \
	"$(tp_sum_path "$WORK/idle_gaps.log")")
if [ "$clock" != capture ]; then
	tp_fail summary_names_clock "summary clock '$clock', want capture"
elif ! grep -q ', capture clock ===' "$WORK/idle_gaps.log"; then
	tp_fail summary_names_clock "summary screen does not name the clock" \
		"$WORK/idle_gaps.log"
else
	tp_pass summary_names_clock
fi
tp_pcap_run "$WORK/wall.log" "$IN" "$WORK/wall.pcap" \
	--flow-log "$WORK/wall.json"
rc=$?
if tp_clean_exit $rc "$WORK/wall.log" &&
   why=$($CHECK records "$WORK/wall.json" "$EXP" --mode unpaced); then
	tp_pass wall_clock_not_split
else
	tp_fail wall_clock_not_split "${why:-exit status $rc}" "$WORK/wall.log"
fi
if tp_expect "flows ended in the closed table, wall clock" \
	"$(tp_num "$WORK/wall.log" flows_ended_closed)" eq 0; then
	tp_pass wall_clock_table_open
else
	tp_fail wall_clock_table_open "$TP_WHY"
fi

# Ten runs in a row under a background CPU load (two bounded `yes`, one per
# CPU, bounded by timeout, ended by their PIDs): the same records each time,
# every one the model's.
LOAD=()
for i in 1 2; do
	timeout 300 yes >/dev/null &
	LOAD+=($!)
	TP_PIDS+=($!)
done
ok=1
for i in $(seq 1 10); do
	clock_run "load_$i" "$IN"
	rc=$?
	if ! tp_clean_exit $rc "$WORK/load_$i.log"; then
		tp_fail ten_runs_under_load "run $i: exit status $rc" \
			"$WORK/load_$i.log"
		ok=0
		break
	elif ! why=$($CHECK records "$WORK/load_$i.json" "$EXP" --mode paced)
	then
		tp_fail ten_runs_under_load "run $i: $why"
		ok=0
		break
	elif ! cmp -s <(sort "$WORK/load_1.json") <(sort "$WORK/load_$i.json")
	then
		tp_fail ten_runs_under_load "run $i differs from run 1"
		ok=0
		break
	fi
done
kill "${LOAD[@]}" 2>/dev/null
wait "${LOAD[@]}" 2>/dev/null
[ $ok = 1 ] && tp_pass ten_runs_under_load

# Both link types, pcap and pcapng: the same traffic, the same records.
$GEN -o "$WORK/sll.pcap" --seed 7 --flows 12 --gap-ms 5-50 \
	--flow-interval-ms 20 --idle-gap-pct 50 --idle-gap-ms 2500 \
	--linktype sll --expect "$WORK/sll.exp.json" "${TMO_ARGS[@]}" 2>/dev/null
clock_case linktype_sll "$WORK/sll.pcap" "$WORK/sll.exp.json"
$TOOL pcapng "$IN" "$WORK/gaps.pcapng" 1
clock_case pcapng_ether "$WORK/gaps.pcapng" "$EXP"
$TOOL pcapng "$WORK/sll.pcap" "$WORK/sll.pcapng" 113
clock_case pcapng_sll "$WORK/sll.pcapng" "$WORK/sll.exp.json"

# Two rx_pcap ports read together, their packets interleaved in capture
# time: the clock is the minimum of the two, the records both models'.
$GEN -o "$WORK/b.pcap" --seed 8 --flows 12 --gap-ms 5-50 \
	--flow-interval-ms 25 --idle-gap-pct 50 --idle-gap-ms 2500 \
	--expect "$WORK/b.exp.json" "${TMO_ARGS[@]}" 2>/dev/null
python3 -c "import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
json.dump({'flows': a['flows'] + b['flows'], 'paced': a['paced'] + b['paced'],
           'unpaced': a['unpaced'] + b['unpaced']}, open(sys.argv[3], 'w'))" \
	"$EXP" "$WORK/b.exp.json" "$WORK/two.exp.json"
tp_eal
tp_run "$WORK/two_ports.log" 90 "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/two0.pcap" \
	"--vdev=net_pcap1,rx_pcap=$WORK/b.pcap,tx_pcap=$WORK/two1.pcap" -- \
	"${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --flows 4096 --stop-when-done \
	--clock capture --flow-log "$WORK/two_ports.json"
rc=$?
if ! tp_clean_exit $rc "$WORK/two_ports.log"; then
	tp_fail two_ports "exit status $rc" "$WORK/two_ports.log"
elif ! why=$($CHECK records "$WORK/two_ports.json" "$WORK/two.exp.json" \
	--mode paced); then
	tp_fail two_ports "$why"
else
	tp_pass two_ports
fi

# IPFIX export of a capture-clock run: the file holds the flow log's
# records (capture times), and those are the model's.
if "$TP_BIN" -- --ipfix-file "$WORK/probe" --dump-config >/dev/null 2>&1
then
	clock_case ipfix_file "$IN" "$EXP" --ipfix-file "$WORK/c.ipfix"
	if ! why=$(/usr/bin/python3 "$TP_SRC/tests/pipeline/ipfix_check.py" \
		ipfix "$WORK/c.ipfix" "$WORK/ipfix_file.json"); then
		tp_fail ipfix_export "$why"
	else
		tp_pass ipfix_export
	fi
fi

# --flush-at-eof still ends the flows live at the capture's end as forced
# end: the clock stops at the last packet's time, so the model's records
# whose flow was still within its timeout there are forced, the others
# end as the model says.
clock_run flush "$IN" --flush-at-eof
rc=$?
if ! tp_clean_exit $rc "$WORK/flush.log"; then
	tp_fail flush_at_eof "exit status $rc" "$WORK/flush.log"
elif ! why=$(python3 - "$WORK/flush.json" "$EXP" \
	"${TMO_ARGS[@]}" <<'PYEOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
exp = json.load(open(sys.argv[2]))["paced"]
end = max(r["last_ns"] for r in exp)
# Idle timeouts of 1 s (0.5 s once closing): a model record whose last
# packet came less than that before the end is still live there.
def live(r):
    tmo = 0.5e9 if r["end_reason"] == "end_of_flow" else 1e9
    return r["last_ns"] + tmo > end
want = sorted((r["first_ns"], "forced_end" if live(r) else r["end_reason"])
              for r in exp)
got = sorted((r["first_ns"], r["end_reason"]) for r in recs)
forced = sum(1 for _, e in want if e == "forced_end")
if got != want or forced == 0:
    print("records by (first packet, end reason) differ from the model "
          "cut at the last packet (%d forced there): %s"
          % (forced, [x for x in got if x not in want][:3]))
    sys.exit(1)
PYEOF
); then
	tp_fail flush_at_eof "$why"
elif ! grep -q "stopping (every capture read (--flush-at-eof))" \
	"$WORK/flush.log"; then
	tp_fail flush_at_eof "no --flush-at-eof stop" "$WORK/flush.log"
else
	tp_pass flush_at_eof
fi

# Active timeout: a packet every 600 ms, idle timeout 1 s, active 1.5 s.
$GEN -o "$WORK/long.pcap" --seed 9 --flows 8 --mix udp=1 --pkts 5-9 \
	--gap-ms 600 --flow-interval-ms 50 --expect "$WORK/long.json" \
	"${TMO_ARGS[@]}" --tmo-active 1.5 2>/dev/null
if clock_case active_timeout "$WORK/long.pcap" "$WORK/long.json" \
	--tmo-active 1.5; then
	nact=$(grep -c '"end_reason":"active_timeout"' \
		"$WORK/active_timeout.json")
	if tp_expect "records ended by the active timeout" "$nact" gt 0; then
		tp_pass active_timeout_seen
	else
		tp_fail active_timeout_seen "$TP_WHY"
	fi
fi

# A capture spanning more than 10 minutes (a flow every 10 s, some with a
# 30-s idle gap, 5-s timeouts): the model's records, in under 5 % of the
# span (start-up included).
TMO5=(--tmo-tcp-syn 5 --tmo-tcp-est 5 --tmo-tcp-closing 2 --tmo-udp 5
      --tmo-icmp 5 --tmo-other 5)
$GEN -o "$WORK/span.pcap" --seed 11 --flows 64 --gap-ms 100-2000 \
	--flow-interval-ms 10000 --idle-gap-pct 40 --idle-gap-ms 30000 \
	--expect "$WORK/span.exp.json" "${TMO5[@]}" 2>/dev/null
span_ms=$(python3 -c "import json, sys
r = json.load(open(sys.argv[1]))['paced']
print((max(x['last_ns'] for x in r) - min(x['first_ns'] for x in r))
      // 1000000)" "$WORK/span.exp.json")
t0=$(date +%s%N)
clock_case long_span "$WORK/span.pcap" "$WORK/span.exp.json" "${TMO5[@]}"
run_ms=$((($(date +%s%N) - t0) / 1000000))
clock_case long_span_inline "$WORK/span.pcap" "$WORK/span.exp.json" \
	"${TMO5[@]}" --fwd-mode drop
echo "    span ${span_ms} ms, run ${run_ms} ms"
if tp_expect "capture span (ms) over 10 minutes" "$span_ms" ge 600000 &&
   tp_expect "run (ms) under 5 % of the span" "$((run_ms * 20))" lt \
	"$span_ms"; then
	tp_pass long_span_fast
else
	tp_fail long_span_fast "$TP_WHY"
fi

# --replay-speed 10: paced, ten times faster, every timeout and the tick
# divided by 10; record times stay in capture time. The tolerance is the
# model's: no packet of the capture lies within 300 ms (capture time) of a
# timeout boundary, 30 ms of real time at this speed, three ticks.
t0=$(date +%s%N)
tp_pcap_run "$WORK/speed10.log" "$IN" "$WORK/speed10.pcap" \
	--replay-speed 10 --flow-log "$WORK/speed10.json"
rc=$?
run_ms=$((($(date +%s%N) - t0) / 1000000))
cap_ms=$(python3 -c "import json, sys
r = json.load(open(sys.argv[1]))['paced']
print((max(x['last_ns'] for x in r) - min(x['first_ns'] for x in r))
      // 1000000)" "$EXP")
echo "    capture span ${cap_ms} ms, run at speed 10 ${run_ms} ms"
if ! tp_clean_exit $rc "$WORK/speed10.log"; then
	tp_fail replay_speed_10 "exit status $rc" "$WORK/speed10.log"
elif ! why=$($CHECK records "$WORK/speed10.json" "$EXP" --mode paced); then
	tp_fail replay_speed_10 "$why"
elif ! tp_expect "run (ms) shorter than the capture's span" "$run_ms" lt \
	"$cap_ms"; then
	tp_fail replay_speed_10 "$TP_WHY"
else
	tp_pass replay_speed_10
fi

# Refusals: exit status 2 and one line saying why.
# clock_refused NAME WORDS EAL-AND-APP-ARGS...
clock_refused() {
	local name=$1 words=$2 log=$WORK/$1.log rc
	shift 2
	tp_eal
	tp_run "$log" 60 "${EAL[@]}" "$@"
	rc=$?
	if [ $rc -ne 2 ]; then
		tp_fail "$name" "exit status $rc, want 2" "$log"
	elif ! grep -qE -- "$words" "$log"; then
		tp_fail "$name" "no message /$words/" "$log"
	else
		tp_pass "$name"
	fi
}
clock_refused refused_rte_adapter \
	"error: --clock capture needs --timer-adapter direct" \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/r.pcap" \
	-- -T 0 --clock capture --timer-adapter rte
clock_refused refused_replay_pace \
	"error: --clock capture and --replay-pace exclude each other" \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/r.pcap" \
	-- -T 0 --clock capture --replay-pace
clock_refused refused_speed_ticks \
	"error: --replay-speed 10000: the shortest timeout, --tmo-tcp-closing, .* under 10 ticks" \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/r.pcap" \
	-- -T 0 --replay-speed 10000
$GEN -o "$WORK/dense.pcap" --seed 3 --flows 3000 --flow-interval-ms 0.001 \
	--gap-ms 0.001 2>/dev/null
clock_refused refused_speed_rate \
	"--replay-speed 10: the captures' [0-9]+ packets over [0-9]+ ms would come at [0-9]+ packets/s, beyond" \
	--vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$WORK/dense.pcap,tx_pcap=$WORK/r.pcap" \
	-- -T 0 --replay-speed 10
clock_refused refused_infinite_rx \
	"--clock capture: port 0 does not read capture files" \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN,infinite_rx=1" \
	-- -T 0 --flows 4096 --clock capture
clock_refused refused_live \
	"--clock capture: port 0 does not read capture files" \
	--vdev=event_sw0 --vdev=net_null0 -- -T 0 --flows 4096 --clock capture

tp_result
