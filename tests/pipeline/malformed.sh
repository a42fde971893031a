#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Bad input: malformed packets (truncated at each header, bad IHL, bad
# IPv4 total length, bad IPv6 payload length) are counted and dropped or
# forwarded by policy, never crash the pipeline, and never disturb the
# flows around them: rx == forwarded + dropped in every run.
#
#     tests/pipeline/malformed.sh BUILD_DIR

SUITE=malformed
. "$(dirname "$0")/lib.sh"

IN=$WORK/bad.pcap
EXP=$WORK/bad.json
NMAL=40
NNONIP=6
$GEN -o "$IN" --seed 13 --flows 40 --malformed $NMAL --non-ip $NNONIP \
	--expect "$EXP" "${TMO_ARGS[@]}" 2>/dev/null

# balance LOG: rx == forwarded + dropped (all reasons).
balance() {
	local rx fwd drop
	rx=$(tp_stat "$1" rx 1)
	fwd=$(tp_stat "$1" tx 1)
	drop=$(tp_stat "$1" tx 2)
	[ -n "$rx" ] && [ "$rx" -eq $((fwd + drop)) ]
}

for policy in drop forward; do
	name=malformed_$policy
	log=$WORK/$name.log
	tp_pcap_run "$log" "$IN" "$WORK/$name.pcap" --malformed $policy \
		--flow-log "$WORK/$name.json"
	rc=$?
	minus=$NMAL
	[ $policy = forward ] && minus=0
	counted=$(tp_named "$log" rx malformed)
	dropped=$(tp_named "$log" tx malformed)
	nonip=$(tp_named "$log" rx non-ip)
	if ! tp_clean_exit $rc "$log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" "$log"
	elif [ "$counted" != $NMAL ] || [ "$dropped" != "$minus" ] ||
	     [ "$nonip" != $NNONIP ]; then
		tp_fail $name "malformed $counted (want $NMAL), dropped \
$dropped (want $minus), non-ip $nonip (want $NNONIP)" "$log"
	elif ! balance "$log"; then
		tp_fail $name "rx != forwarded + dropped" "$log"
	elif ! why=$($CHECK pcap-equal "$IN" "$WORK/$name.pcap" --minus $minus)
	then
		tp_fail $name "$why"
	elif ! why=$($CHECK records "$WORK/$name.json" "$EXP" --mode unpaced)
	then
		tp_fail $name "flows disturbed: $why"
	else
		tp_pass $name
	fi
done

# Random garbage behind IPv4/IPv6/VLAN ethertypes, with both adapters and
# both refresh modes: no crash, counters balance, exactly-once holds.
$GEN -o "$WORK/fuzz.pcap" --seed 17 --flows 30 --malformed 20 --garbage 3000 \
	2>/dev/null
for variant in "direct lazy" "rte every-packet"; do
	set -- $variant
	name=garbage_$1_$2
	log=$WORK/$name.log
	tp_pcap_run "$log" "$WORK/fuzz.pcap" "$WORK/$name.pcap" \
		--timer-adapter $1 --refresh $2
	rc=$?
	if ! tp_clean_exit $rc "$log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" "$log"
	elif ! balance "$log"; then
		tp_fail $name "rx != forwarded + dropped" "$log"
	else
		tp_pass $name
	fi
done

tp_result
