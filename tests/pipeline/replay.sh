#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Replay pace: with --replay-pace the capture's inter-packet gaps are
# honoured, so flows age as they did when recorded. A capture with long
# idle gaps must end its flows with "idle_timeout" exactly at the gaps
# (same records, same first/last packet times as the generator's model),
# and long flows must be cut by the active timeout.
#
#     tests/pipeline/replay.sh BUILD_DIR

SUITE=replay
. "$(dirname "$0")/lib.sh"

IN=$WORK/gaps.pcap
EXP=$WORK/gaps.json
$GEN -o "$IN" --seed 7 --flows 12 --gap-ms 5-50 --flow-interval-ms 20 \
	--idle-gap-pct 50 --idle-gap-ms 2500 --malformed 4 --non-ip 2 \
	--expect "$EXP" "${TMO_ARGS[@]}" 2>/dev/null

# paced_case CASE IN EXP [APP-ARGS...]
paced_case() {
	local name=$1 in=$2 exp=$3 rc why
	shift 3
	tp_pcap_run "$WORK/$name.log" "$in" "$WORK/$name.pcap" --replay-pace \
		--flow-log "$WORK/$name.json" "$@"
	rc=$?
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail "$name" "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! why=$($CHECK records "$WORK/$name.json" "$exp" --mode paced)
	then
		tp_fail "$name" "$why"
	else
		tp_pass "$name"
	fi
}

paced_case idle_gaps_direct "$IN" "$EXP" --timer-adapter direct
paced_case idle_gaps_rte "$IN" "$EXP" --timer-adapter rte

# The gaps did split flows: more records than flows, and as many written
# as the model predicts.
read -r npaced nflows < <(python3 -c "import json
d = json.load(open('$EXP')); print(len(d['paced']), d['flows'])")
nwritten=$(wc -l <"$WORK/idle_gaps_direct.json")
if tp_expect "records the model expects, for $nflows flows" \
	"$npaced" gt "$nflows" &&
   tp_expect_eq "records written" "$nwritten" "$npaced"; then
	tp_pass flows_split_at_gaps
else
	tp_fail flows_split_at_gaps "$TP_WHY"
fi

# Active timeout: UDP flows with a packet every 600 ms, idle timeout 1 s,
# active timeout 1.5 s: each flow is cut every 1.5 s.
$GEN -o "$WORK/long.pcap" --seed 9 --flows 8 --mix udp=1 --pkts 5-9 \
	--gap-ms 600 --flow-interval-ms 50 --expect "$WORK/long.json" \
	"${TMO_ARGS[@]}" --tmo-active 1.5 2>/dev/null
paced_case active_timeout "$WORK/long.pcap" "$WORK/long.json" --tmo-active 1.5
nact=$(grep -c '"end_reason":"active_timeout"' "$WORK/active_timeout.json")
if tp_expect "records ended by the active timeout" "$nact" gt 0 &&
   tp_expect_eq "active_timeout ends counted" \
	"$(tp_num "$WORK/active_timeout.log" ended_active_timeout)" "$nact"
then
	tp_pass active_timeout_seen
else
	tp_fail active_timeout_seen "$TP_WHY"
fi

# Without --replay-pace the same capture is read at once: one record per
# flow, none split.
tp_pcap_run "$WORK/unpaced.log" "$IN" "$WORK/unpaced.pcap" \
	--flow-log "$WORK/unpaced.json"
rc=$?
if tp_clean_exit $rc "$WORK/unpaced.log" &&
   why=$($CHECK records "$WORK/unpaced.json" "$EXP" --mode unpaced); then
	tp_pass unpaced_not_split
else
	tp_fail unpaced_not_split "${why:-exit $rc}" "$WORK/unpaced.log"
fi

tp_result
