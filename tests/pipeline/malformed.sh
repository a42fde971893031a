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

for policy in drop forward; do
	name=malformed_$policy
	log=$WORK/$name.log
	tp_pcap_run "$log" "$IN" "$WORK/$name.pcap" --malformed $policy \
		--flow-log "$WORK/$name.json"
	rc=$?
	minus=$NMAL
	[ $policy = forward ] && minus=0
	read -r counted dropped nonip <<<"$(tp_nums "$log" rx_malformed \
		drop_malformed rx_non_ip)"
	if ! tp_clean_exit $rc "$log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" "$log"
	elif ! tp_expect_eq "malformed packets counted" "$counted" $NMAL ||
	     ! tp_expect_eq "malformed packets dropped" "$dropped" "$minus" ||
	     ! tp_expect_eq "non-IP packets" "$nonip" $NNONIP; then
		tp_fail $name "$TP_WHY" "$log"
	elif ! tp_balanced "$log"; then
		tp_fail $name "$TP_WHY" "$log"
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
	elif ! tp_balanced "$log"; then
		tp_fail $name "$TP_WHY" "$log"
	else
		tp_pass $name
	fi
done

tp_result
