#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Snapshot length and wire length: captures cut to 64, 96 and 128 bytes
# per packet (as tcpdump -s N writes them; the cut copies are written
# here, from the tests' own generated captures), and records over 65535
# bytes (BIG TCP). A cut packet is still a packet of its flow, counted at
# its wire length. The rule is equality with our own records for the
# whole capture:
#
#   cut_96, cut_128          the default mix (IPv4/IPv6, VLAN, QinQ, IPv6
#                            extension headers): the same records as the
#                            whole capture and as the generator expects;
#                            same rx packets and wire bytes; `truncated`
#                            counts the cut packets
#   cut_64                   no extension headers: the same records less
#                            the fields the cut removed, each listed by
#                            check_records.py cut (IPv6 TCP flags, QinQ
#                            IPv6 ports)
#   cut_64_ext               with extension headers: a packet cut inside
#                            them is malformed (counted, documented); every
#                            packet still counted at its wire length
#   cut_96_sll               a Linux cooked capture cut to 96 bytes: the
#                            Ethernet capture's records
#   cut_96_clock,            both aged under --clock capture (drop mode),
#   cut_96_sll_clock         where the read-ahead frees each packet and RX
#                            meters what it noted: the same records and
#                            counts, the model's paced records
#   wire_two_files           one port reading a cut copy and a whole file:
#                            each packet keeps its own wire length
#   wire_rx_nombuf           a pool too small: net_pcap loses packets it
#                            has read (rx_nombuf); the others keep theirs
#   wire_infinite_rx         infinite_rx=1 on a cut capture
#   big_tcp                  80,000-byte records aged by their headers
#   big_tcp_only             a capture of oversize records only: aged,
#                            not refused
#   big_tcp_infinite_rx      infinite_rx=1 with oversize records
#   softflowd_cut_96         softflowd -r on the cut and the whole capture,
#                            beside ours: its differences are printed
#
#     tests/pipeline/snaplen.sh BUILD_DIR

SUITE=snaplen
. "$(dirname "$0")/lib.sh"

# cut_count FILE: records shorter than their wire length.
cut_count() {
	python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
import tplib
print(sum(1 for r in tplib.pcap_read(sys.argv[2])[2] if len(r[3]) < r[2]))
' "$TP_SRC/tools" "$1"
}

# run NAME CAPTURE [APP-ARGS]: read CAPTURE once; flow log WORK/NAME.json.
run() {
	local name=$1 cap=$2
	shift 2
	tp_pcap_run "$WORK/$name.log" "$cap" "$WORK/$name.out.pcap" \
		--flow-log "$WORK/$name.json" "$@"
}

# ok NAME RC: the run exited cleanly, its check passed and it balances.
ok() {
	if ! tp_clean_exit "$2" "$WORK/$1.log"; then
		tp_fail "$1" "exit status $2 or exactly-once check failed" \
			"$WORK/$1.log"
	elif ! tp_balanced "$WORK/$1.log"; then
		tp_fail "$1" "$TP_WHY" "$WORK/$1.log"
	else
		return 0
	fi
	return 1
}

# same_counts NAME WHOLE: rx packets and wire bytes as the whole run's;
# truncated = the cut records of NAME's capture ($2 capture).
same_counts() {
	local name=$1 whole=$2 cap=$3 rx bytes tr wrx wbytes
	read -r rx bytes tr <<<"$(tp_nums "$WORK/$name.log" rx_pkts rx_bytes \
		rx_truncated)"
	read -r wrx wbytes <<<"$(tp_nums "$WORK/$whole.log" rx_pkts rx_bytes)"
	tp_expect_eq "rx packets" "$rx" "$wrx" &&
		tp_expect_eq "rx wire bytes" "$bytes" "$wbytes" &&
		tp_expect_eq "truncated" "$tr" "$(cut_count "$cap")"
}

# --- The default mix, cut to 96 and 128 ---------------------------------------

FULL=$WORK/full.pcap
tp_gen_expect "$FULL" "$WORK/full.exp.json" --seed 61 --flows 40 \
	--ipv6-pct 50 --vlan-pct 30 --qinq-pct 20 --ext-hdr-pct 40 >/dev/null
run whole "$FULL"
ok whole $? && tp_pass whole
for n in 96 128; do
	name=cut_$n
	$TOOL snap "$FULL" "$WORK/$name.pcap" $n
	run $name "$WORK/$name.pcap"
	ok $name $? || continue
	if ! same_counts $name whole "$WORK/$name.pcap"; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	elif ! tp_expect "cut packets" "$(cut_count "$WORK/$name.pcap")" gt 0
	then
		tp_fail $name "the cut copy has no cut packet: $TP_WHY"
	elif ! why=$($CHECK same "$WORK/whole.json" "$WORK/$name.json") ||
	     ! why=$($CHECK records "$WORK/$name.json" "$WORK/full.exp.json" \
		     --mode unpaced); then
		tp_fail $name "$why"
	else
		tp_pass $name
	fi
done

# --- 64 bytes: what the cut removes, listed -------------------------------------

NOEXT=$WORK/noext.pcap
$GEN -o "$NOEXT" --seed 62 --flows 60 --ipv6-pct 50 --vlan-pct 30 \
	--qinq-pct 20 --ext-hdr-pct 0 2>/dev/null
run noext "$NOEXT"
if ok noext $?; then
	name=cut_64
	$TOOL snap "$NOEXT" "$WORK/$name.pcap" 64
	run $name "$WORK/$name.pcap"
	if ok $name $?; then
		if ! same_counts $name noext "$WORK/$name.pcap"; then
			tp_fail $name "$TP_WHY" "$WORK/$name.log"
		elif ! why=$($CHECK cut "$WORK/noext.json" "$WORK/$name.json" 64)
		then
			tp_fail $name "$why"
		elif ! echo "$why" | grep -q 'tcp_flags [1-9]'; then
			tp_fail $name "no IPv6 TCP flags were cut: the case does \
not test what it says ($why)"
		else
			echo "    $why"
			tp_pass $name
		fi
	fi
fi

# With extension headers: 14 + 40 + 8 (+ 4, 8 tagged) may pass 64 bytes.
name=cut_64_ext
$TOOL snap "$FULL" "$WORK/$name.pcap" 64
run $name "$WORK/$name.pcap"
if ok $name $?; then
	read -r mal dmal <<<"$(tp_nums "$WORK/$name.log" rx_malformed \
		drop_malformed)"
	if ! same_counts $name whole "$WORK/$name.pcap" ||
	   ! tp_expect "malformed (cut inside extension headers)" "$mal" gt 0 ||
	   ! tp_expect_eq "drop_malformed" "$dmal" "$mal"; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	else
		tp_pass $name
	fi
fi

# --- A Linux cooked capture, cut ------------------------------------------------

name=cut_96_sll
tp_gen_expect "$WORK/sll.pcap" "$WORK/sll.exp.json" --seed 63 --flows 30 \
	--linktype sll >/dev/null
$TOOL snap "$WORK/sll.pcap" "$WORK/$name.pcap" 96
run $name "$WORK/$name.pcap"
if ok $name $?; then
	if ! why=$($CHECK records "$WORK/$name.json" "$WORK/sll.exp.json" \
		   --mode unpaced); then
		tp_fail $name "$why"
	elif ! tp_expect "truncated" "$(tp_num "$WORK/$name.log" \
		rx_truncated)" gt 0; then
		tp_fail $name "$TP_WHY"
	else
		tp_pass $name
	fi
fi

# --- Cut captures aged on their own clock -------------------------------------

# run_capture.sh's way (--clock capture, drop mode: the inline path) with one
# RX queue and a service lcore: the capture's read-ahead classifies every
# packet on the service lcore and frees it, and RX has only what it noted of
# it (wire length, capture time, port). A cut packet still counts at its wire
# length, and a cooked capture's at its Ethernet frame's.

# read_ahead LOG: the run read its capture ahead (layout: an rx_ahead service).
read_ahead() {
	python3 -c 'import json, sys
lay = json.load(open(sys.argv[1]))["layout"]
sys.exit(0 if any(s["is"] == "rx_ahead" for s in lay["services"]) else 1)
' "$(tp_sum_path "$1")"
}

run whole_clock "$FULL" --clock capture --fwd-mode drop
if ok whole_clock $?; then
	tp_pass whole_clock
	for name in cut_96_clock cut_96_sll_clock; do
		if [ $name = cut_96_clock ]; then
			cap=$WORK/cut_96.pcap same=$WORK/whole_clock.json
			exp=$WORK/full.exp.json
		else
			cap=$WORK/cut_96_sll.pcap same=
			exp=$WORK/sll.exp.json
		fi
		run $name "$cap" --clock capture --fwd-mode drop
		ok $name $? || continue
		if ! read_ahead "$WORK/$name.log"; then
			tp_fail $name "no read-ahead: the case does not test \
what it says" "$WORK/$name.log"
		elif [ -n "$same" ] && ! same_counts $name whole_clock "$cap"
		then
			tp_fail $name "$TP_WHY" "$WORK/$name.log"
		elif [ -n "$same" ] &&
		     ! why=$($CHECK same "$same" "$WORK/$name.json"); then
			tp_fail $name "$why"
		elif ! why=$($CHECK records "$WORK/$name.json" "$exp" \
			     --mode paced); then
			tp_fail $name "$why"
		else
			tp_pass $name
		fi
	done
fi

# --- Each packet keeps its own wire length ---------------------------------------

# uniform_ok NAME: every record counts 200+7i bytes per packet (flow i).
uniform_ok() {
	if ! why=$($CHECK uniform "$WORK/$1.json"); then
		tp_fail "$1" "$why" "$WORK/$1.log"
		return 1
	fi
}

$TOOL uniform "$WORK/uniform.pcap" 40 25
$TOOL snap "$WORK/uniform.pcap" "$WORK/uniform96.pcap" 96
NU=$($TOOL count "$WORK/uniform.pcap")

# One port, two queues: the cut copy (trailers) and the whole file (none).
name=wire_two_files
tp_eal
tp_run "$WORK/$name.log" 60 "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$WORK/uniform96.pcap,rx_pcap=$WORK/uniform.pcap,tx_pcap=$WORK/$name.out.pcap" \
	-- "${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --flows 4096 \
	--rx-queues 2 --stop-when-done --flow-log "$WORK/$name.json"
if ok $name $? && uniform_ok $name; then
	read -r rx tr <<<"$(tp_nums "$WORK/$name.log" rx_pkts rx_truncated)"
	if ! tp_expect_eq "rx (both files)" "$rx" $((2 * NU)) ||
	   ! tp_expect_eq "truncated (the cut file only)" "$tr" "$NU"; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	else
		tp_pass $name
	fi
fi

# A pool net_pcap runs out of: the packets it loses are its rx_nombuf.
# (Packets as events: the event device holds the pool's mbufs; on the
# inline path RX frees each packet at once.)
name=wire_rx_nombuf
$TOOL uniform "$WORK/many.pcap" 100 200
$TOOL snap "$WORK/many.pcap" "$WORK/many96.pcap" 96
NM=$($TOOL count "$WORK/many.pcap")
run $name "$WORK/many96.pcap" --flows 16384 --mbufs 512 --fwd-mode drop \
	--packet-path events
if ok $name $? && uniform_ok $name; then
	read -r rx nombuf <<<"$(tp_nums "$WORK/$name.log" rx_pkts \
		port_rx_nombuf)"
	if ! tp_expect "rx_nombuf with 512 mbufs" "$nombuf" gt 0 ||
	   ! tp_expect_eq "rx + rx_nombuf" "$((rx + nombuf))" "$NM"; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	else
		tp_pass $name
	fi
fi

# infinite_rx: net_pcap replays the copy's packets from its own ring.
name=wire_infinite_rx
if tp_start_replay $name "$WORK/$name.log" 60 "$WORK/uniform96.pcap" \
	"${TMO_ARGS[@]}" --idle-sleep-us 50 --flows 4096 \
	--flow-log "$WORK/$name.json"; then
	sleep 1.5
	tp_stop INT
	if ok $name $RC && uniform_ok $name; then
		read -r rx tr <<<"$(tp_nums "$WORK/$name.log" rx_pkts \
			rx_truncated)"
		if ! tp_expect "rx (replayed)" "$rx" gt "$NU" ||
		   ! tp_expect_eq "truncated" "$tr" "$rx"; then
			tp_fail $name "$TP_WHY" "$WORK/$name.log"
		else
			tp_pass $name
		fi
	fi
fi

# --- Records over 65535 bytes ---------------------------------------------------

BIG=$WORK/big.pcap
tp_gen_expect "$BIG" "$WORK/big.exp.json" --seed 64 --flows 12 --mix tcp=1 \
	--big-tcp 4 >/dev/null
# wire_bytes FILE: the wire bytes of its records.
wire_bytes() {
	python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
import tplib
print(sum(r[2] for r in tplib.pcap_read(sys.argv[2])[2]))
' "$TP_SRC/tools" "$1"
}
# rec_bytes FLOWLOG: packets and bytes of its records.
rec_bytes() {
	python3 -c 'import json, sys
p = b = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    p += r["packets_fwd"] + r["packets_rev"]
    b += r["bytes_fwd"] + r["bytes_rev"]
print(p, b)' "$1"
}

# big_ok NAME CAPTURE OVERSIZE: every packet in a record at its wire
# length; OVERSIZE of them oversize (and truncated).
big_ok() {
	local name=$1 cap=$2 want=$3 over tr rx p b
	read -r rx over tr <<<"$(tp_nums "$WORK/$name.log" rx_pkts \
		rx_oversize rx_truncated)"
	read -r p b <<<"$(rec_bytes "$WORK/$name.json")"
	if ! tp_expect_eq "oversize" "$over" "$want" ||
	   ! tp_expect_eq "truncated" "$tr" "$want" ||
	   ! tp_expect_eq "packets in records" "$p" "$rx" ||
	   ! tp_expect_eq "bytes in records" "$b" "$(wire_bytes "$cap")"; then
		tp_fail "$name" "$TP_WHY" "$WORK/$name.log"
		return 1
	fi
}

name=big_tcp
run $name "$BIG"
if ok $name $? && big_ok $name "$BIG" 4; then
	$TOOL snap "$BIG" "$WORK/big512.pcap" 512 65535
	if ! grep 'warning:' "$WORK/$name.log" | grep -q 'holds 80000 bytes'
	then
		tp_fail $name "no warning naming the first 80000-byte packet" \
			"$WORK/$name.log"
	elif ! why=$($CHECK pcap-equal "$WORK/big512.pcap" \
		     "$WORK/$name.out.pcap"); then
		tp_fail $name "forwarded frames: $why"
	elif ! why=$($CHECK records "$WORK/$name.json" "$WORK/big.exp.json" \
		     --mode unpaced); then
		tp_fail $name "$why"
	else
		tp_pass $name
	fi
fi

name=big_tcp_only
python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
import tplib, struct
e, h, recs = tplib.pcap_read(sys.argv[2])
with open(sys.argv[3], "wb") as f:
    f.write(struct.pack("<IHHiIII", *h))
    for s, u, o, d in recs:
        if len(d) > 65535:
            f.write(struct.pack("<IIII", s, u, len(d), o) + d)
' "$TP_SRC/tools" "$BIG" "$WORK/only.pcap"
run $name "$WORK/only.pcap"
if ok $name $? && big_ok $name "$WORK/only.pcap" 4; then
	if ! tp_expect "flows" "$(tp_num "$WORK/$name.log" flows_created)" \
		gt 0; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	else
		tp_pass $name
	fi
fi

name=big_tcp_infinite_rx
if tp_start_replay $name "$WORK/$name.log" 60 "$BIG" "${TMO_ARGS[@]}" \
	--idle-sleep-us 50 --flows 4096 --flow-log "$WORK/$name.json"; then
	sleep 1
	tp_stop INT
	if ok $name $RC; then
		read -r over rx <<<"$(tp_nums "$WORK/$name.log" rx_oversize \
			rx_pkts)"
		if ! tp_expect "oversize (replayed)" "$over" gt 4; then
			tp_fail $name "$TP_WHY" "$WORK/$name.log"
		else
			tp_pass $name
		fi
	fi
fi

# --- softflowd, a second opinion ------------------------------------------------

# softflowd_run CAPTURE RAW: softflowd -r into nfcapd, dumped as raw text.
softflowd_run() {
	local port
	port=$(free_port udp)
	nfcapd_start "$2.nf" "$port"
	timeout 60 softflowd -r "$1" -n "127.0.0.1:$port" -v 10 -b -d \
		-T vlan -t tcp=1 -t tcp.rst=1 -t tcp.fin=1 -t udp=1 -t icmp=1 \
		-t general=1 -t maxlife=600 >"$2.log" 2>&1
	nfcapd_stop "$2.nf" "$2"
}

name=softflowd_cut_96
if ! command -v softflowd >/dev/null || ! command -v nfcapd >/dev/null; then
	tp_fail $name "softflowd or nfcapd missing (scripts/setup.sh)"
else
	softflowd_run "$FULL" "$WORK/sf_full.raw"
	softflowd_run "$WORK/cut_96.pcap" "$WORK/sf_cut.raw"
	ICHECK="python3 $TP_SRC/tests/pipeline/ipfix_check.py"
	read -r sfn sfp sfb <<<"$($ICHECK totals "$WORK/sf_cut.raw")"
	read -r sfn0 sfp0 sfb0 <<<"$($ICHECK totals "$WORK/sf_full.raw")"
	read -r tpp tpb <<<"$(rec_bytes "$WORK/cut_96.json")"
	tpn=$(wc -l <"$WORK/cut_96.json")
	echo "    -s 96: softflowd $sfn flows, $sfp packets, $sfb bytes" \
		"(whole capture: $sfn0, $sfp0, $sfb0);" \
		"timer_pipeline $tpn flows, $tpp packets, $tpb bytes"
	if ! tp_numbers sfn="$sfn" sfp="$sfp" sfb="$sfb" ||
	   ! tp_expect "softflowd flows" "$sfn" gt 0; then
		tp_fail $name "softflowd gave no records: $TP_WHY" \
			"$WORK/sf_cut.raw.log"
	elif ! tp_expect_eq "softflowd packets, cut vs whole" "$sfp" "$sfp0" ||
	     ! tp_expect_eq "softflowd bytes, cut vs whole" "$sfb" "$sfb0"
	then
		tp_fail $name "softflowd itself counts the cut capture \
differently: $TP_WHY"
	else
		tp_pass $name
	fi
fi

tp_result
