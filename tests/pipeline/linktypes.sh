#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Captures that are not Ethernet, and captures with records net_pcap cannot
# carry, end to end:
# - every link type the parser reads (LINUX_SLL, LINUX_SLL2, RAW, IPV4,
#   IPV6, NULL, LOOP), both timer adapters: the flow records are exactly
#   those of the generator's model, every packet is accounted for, the
#   exactly-once check passes, and the output capture (Ethernet, tx_pcap)
#   holds the same IP packets behind a synthetic Ethernet header;
# - packets of a cooked capture no Ethernet frame can carry: counted
#   not_ether drops; ARP in a cooked capture: forwarded as Ethernet ARP;
# - BIG TCP: 80,000-byte records amid normal ones are aged by their
#   headers at their wire length (oversize), with one warning; the output
#   holds every frame, those cut to their first 512 bytes;
# - pcapng whose interfaces have different link types: refused, naming it.
#
#     tests/pipeline/linktypes.sh BUILD_DIR

SUITE=linktypes
. "$(dirname "$0")/lib.sh"

# clean NAME LOG RC WANT-RX: exit 0, check PASSED, rx == forwarded +
# dropped by reason, rx as wanted (numbers from the run's summary JSON).
clean() {
	if ! tp_clean_exit "$3" "$2"; then
		tp_fail "$1" "exit status $3 or exactly-once check failed" "$2"
	elif ! tp_balanced "$2"; then
		tp_fail "$1" "$TP_WHY" "$2"
	elif ! tp_expect_eq "rx" "$(tp_num "$2" rx_pkts)" "$4"; then
		tp_fail "$1" "$TP_WHY" "$2"
	else
		return 0
	fi
	return 1
}

# records_case NAME CAPTURE EXPECT MODE [APP-ARGS...]: case NAME, a run of
# CAPTURE: clean (every packet received) and its flow records EXPECT's
# (check_records.py records --mode MODE).
records_case() {
	local name=$1 cap=$2 exp=$3 mode=$4 log=$WORK/$1.log rc why
	shift 4
	tp_pcap_run "$log" "$cap" "$WORK/$name.out.pcap" "$@" \
		--flow-log "$WORK/$name.json"
	rc=$?
	clean "$name" "$log" $rc "$($TOOL count "$cap")" || return
	if why=$($CHECK records "$WORK/$name.json" "$exp" --mode "$mode"); then
		tp_pass "$name"
	else
		tp_fail "$name" "$why" "$log"
	fi
}

# same_ip NAME A.pcap B.pcap: the same frames once MACs are zeroed (our
# Ethernet header is synthetic: its MACs are the ports').
same_ip() {
	local why
	if ! why=$($TOOL zero-macs "$2" "$2.z" 2>&1) ||
	   ! why=$($TOOL zero-macs "$3" "$3.z" 2>&1); then
		tp_fail "$1" "pcap_tool: $why"
		return 1
	fi
	if why=$($CHECK pcap-equal "$2.z" "$3.z"); then
		return 0
	fi
	tp_fail "$1" "output capture: $why"
	return 1
}

# --- Each link type, both adapters ------------------------------------------

for lt in sll sll2 raw ipv4 ipv6 null loop; do
	v6=()
	[ $lt = ipv4 ] && v6=(--ipv6-pct 0)
	[ $lt = ipv6 ] && v6=(--ipv6-pct 100)
	$GEN -o "$WORK/$lt.pcap" --seed 41 --flows 12 --linktype $lt \
		--expect "$WORK/$lt.json" "${TMO_ARGS[@]}" 2>/dev/null
	# The same traffic as Ethernet: what the output capture must hold.
	$GEN -o "$WORK/$lt.eth.pcap" --seed 41 --flows 12 --vlan-pct 0 \
		"${v6[@]}" 2>/dev/null
	n=$($TOOL count "$WORK/$lt.eth.pcap")
	for ad in direct rte; do
		name=${lt}_$ad
		log=$WORK/$name.log
		tp_pcap_run "$log" "$WORK/$lt.pcap" "$WORK/$name.out.pcap" \
			--timer-adapter $ad --flow-log "$WORK/$name.json"
		clean $name "$log" $? "$n" || continue
		if ! why=$($CHECK records "$WORK/$name.json" "$WORK/$lt.json" \
			   --mode unpaced); then
			tp_fail $name "$why" "$log"
		elif ! tp_expect_eq "not_ether drops" \
			"$(tp_num "$log" drop_not_ether)" 0; then
			tp_fail $name "$TP_WHY" "$log"
		elif same_ip $name "$WORK/$lt.eth.pcap" \
			"$WORK/$name.out.pcap"; then
			tp_pass $name
		fi
	done
done

# Raw IP under the numbers some systems give it (libpcap reports 101 as 12).
for n in 12 14; do
	$TOOL linktype "$WORK/raw.pcap" "$WORK/raw$n.pcap" $n
	records_case raw_as_linktype_$n "$WORK/raw$n.pcap" "$WORK/raw.json" \
		unpaced
done

# NULL written on a big-endian host: the family in the other byte order
# (read as tcpdump reads it); LOOP's is always network order (above).
$TOOL null-swap "$WORK/null.pcap" "$WORK/null_be.pcap"
records_case null_big_endian_host "$WORK/null_be.pcap" "$WORK/null.json" \
	unpaced

# Paced: capture timestamps read through a cooked header too.
records_case sll2_paced "$WORK/sll2.pcap" "$WORK/sll2.json" paced \
	--replay-pace

# --- Cooked packets that are not IP --------------------------------------------

# ARP (an ethertype: forwarded as an Ethernet ARP frame), 802.2 LLC and a
# netlink message (no ethertype: not_ether), a record shorter than the
# cooked header (not_ether).
name=sll_not_ether
log=$WORK/$name.log
$TOOL sll-odd "$WORK/sll.pcap" "$WORK/odd.pcap"
n=$($TOOL count "$WORK/odd.pcap")
tp_pcap_run "$log" "$WORK/odd.pcap" "$WORK/$name.out.pcap"
if clean $name "$log" $? "$n"; then
	read -r ne nonip fwd <<<"$(tp_nums "$log" drop_not_ether rx_non_ip \
		forwarded)"
	arp=$(python3 - "$WORK/$name.out.pcap" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, n = 24, 0
while off + 16 <= len(d):
    cap = struct.unpack_from("<I", d, off + 8)[0]
    f = d[off + 16:off + 16 + cap]
    n += f[12:14] == b"\x08\x06" and f[14:16] == b"\x00\x01"
    off += 16 + cap
print(n)
EOF
)
	if ! tp_expect_eq "not_ether drops" "$ne" 3 ||
	   ! tp_expect_eq "rx non-ip" "$nonip" 4 ||
	   ! tp_expect_eq "forwarded" "$fwd" $((n - 3)) ||
	   ! tp_expect_eq "ARP frames in the output" "$arp" 1; then
		tp_fail $name "$TP_WHY" "$log"
	else
		tp_pass $name
	fi
fi

# --- BIG TCP: records over 65535 bytes ----------------------------------------

n=$(tp_gen_expect "$WORK/big.pcap" "$WORK/big.json" --seed 43 --flows 16 \
	--mix tcp=1 --big-tcp 4)
# What the pipeline forwards: the oversize records cut to 512 bytes.
$TOOL snap "$WORK/big.pcap" "$WORK/big512.pcap" 512 65535
for ad in direct rte; do
	name=big_tcp_$ad
	log=$WORK/$name.log
	tp_pcap_run "$log" "$WORK/big.pcap" "$WORK/$name.out.pcap" \
		--timer-adapter $ad --flow-log "$WORK/$name.json"
	clean $name "$log" $? "$n" || continue
	warns=$(grep -c 'warning:.*oversize' "$log")
	if ! tp_expect_eq "oversize" "$(tp_num "$log" rx_oversize)" 4 ||
	   ! tp_expect_eq "drops" "$(tp_num "$log" dropped)" 0; then
		tp_fail $name "$TP_WHY" "$log"
	elif [ "$warns" != 1 ] ||
	     ! grep 'warning:' "$log" | grep -q 'holds 80000 bytes'; then
		tp_fail $name "want one warning naming the first 80000-byte \
packet, got $warns" "$log"
	elif ! why=$($CHECK records "$WORK/$name.json" "$WORK/big.json" \
		     --mode unpaced); then
		tp_fail $name "$why" "$log"
	elif ! why=$($CHECK pcap-equal "$WORK/big512.pcap" \
		     "$WORK/$name.out.pcap"); then
		tp_fail $name "$why"
	else
		tp_pass $name
	fi
done

# The oversize count in telemetry, while the pipeline runs.
name=big_tcp_telemetry
log=$WORK/$name.log
tp_eal
if ! tp_start --sock "$log" 60 "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$WORK/big.pcap,tx_pcap=$WORK/$name.out.pcap" \
	-- "${TMO_ARGS[@]}" -T 1 --idle-sleep-us 50 --flows 4096; then
	tp_fail $name "the pipeline did not start" "$log"
else
	over=$(python3 "$TP_SRC/tests/pipeline/telemetry_client.py" get \
		"$SOCK" /timer_pipeline/stats | python3 -c 'import json, sys
print(json.load(sys.stdin)["/timer_pipeline/stats"].get("rx_oversize"))')
	tp_stop INT
	if ! tp_expect_eq "telemetry oversize" "$over" 4; then
		tp_fail $name "$TP_WHY" "$log"
	elif ! grep -q 'oversize 4' "$log"; then
		tp_fail $name "the stats screen does not say 'oversize 4'" "$log"
	else
		tp_pass $name
	fi
fi

# --- pcapng with interfaces of different link types ----------------------------

name=pcapng_mixed_linktypes
$GEN -o "$WORK/mixed.pcapng" --seed 44 --flows 8 --mixed-linktype sll \
	2>/dev/null
if tp_refused $name "$WORK/mixed.pcapng" \
	'different link types.*1 EN10MB.*type 113' --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$WORK/mixed.pcapng,tx_pcap=$WORK/mixed.out" \
	-- --stop-when-done; then
	if [ -e "$WORK/mixed.out" ]; then
		tp_fail $name "net_pcap had started: the output exists"
	else
		tp_pass $name
	fi
fi

tp_result
