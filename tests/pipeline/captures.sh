#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Captures that are not what the pipeline expects, read by net_pcap
# (rx_pcap=FILE). Each one must give either a clear error (exit status 2,
# one message naming the file and the problem, before EAL starts: no EAL
# line, no runtime directory, no output file) or a clean run (exit 0,
# exactly-once check passed, rx == forwarded + dropped, every drop under a
# reason). Also: the packet parser on segmented mbufs (frames over the
# 2048-byte data room arrive chained).
#
#     tests/pipeline/captures.sh BUILD_DIR

SUITE=captures
. "$(dirname "$0")/lib.sh"

GOOD=$WORK/good.pcap
EXP=$WORK/good.json
NGOOD=$(tp_gen_expect "$GOOD" "$EXP" --seed 31 --flows 16)

# run_vdev LOG VDEV-ARGS [APP-ARGS...]: one run with our own net_pcap args.
run_vdev() {
	local log=$1 vdev=$2
	shift 2
	tp_eal
	tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 "--vdev=net_pcap0,$vdev" \
		-- "${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --flows 4096 "$@"
}

# refused NAME FILE WORDS VDEV-ARGS [APP-ARGS...]: exit status 2 before EAL
# starts, with one error line that names FILE and holds WORDS (a regex),
# and no output capture.
refused() {
	local name=$1 file=$2 words=$3 vdev=$4
	shift 4
	tp_refused "$name" "$file" "$words" --vdev=event_sw0 \
		"--vdev=net_pcap0,$vdev,tx_pcap=$WORK/$name.out.pcap" -- \
		"${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --flows 4096 "$@" ||
		return
	if [ -e "$WORK/$name.out.pcap" ]; then
		tp_fail "$name" "net_pcap had started: the output exists"
	else
		tp_pass "$name"
	fi
}

# ran NAME LOG RC WANT-RX [WARNING-REGEX]: a clean run that received
# WANT-RX packets, and warned when a regex is given.
ran() {
	local name=$1 log=$2 rc=$3 want=$4 warn=${5:-}
	if ! tp_clean_exit "$rc" "$log"; then
		tp_fail "$name" "exit status $rc or exactly-once check failed" \
			"$log"
	elif ! tp_balanced "$log"; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_expect_eq "rx" "$(tp_num "$log" rx_pkts)" "$want"; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif [ -n "$warn" ] && ! grep 'warning:' "$log" | grep -qE "$warn"
	then
		tp_fail "$name" "no warning saying /$warn/" "$log"
	else
		return 0
	fi
	return 1
}

# --- Refused: exit 2 before anything starts -------------------------------

# Link types the parser does not read (linktypes.sh runs those it does).
$TOOL linktype "$GOOD" "$WORK/wifi.pcap" 105
refused linktype_wifi "$WORK/wifi.pcap" 'link type 105 \(IEEE802_11' \
	"rx_pcap=$WORK/wifi.pcap" --stop-when-done
$TOOL pcapng "$GOOD" "$WORK/radiotap.pcapng" 127
refused pcapng_linktype_radiotap "$WORK/radiotap.pcapng" \
	'link type 127 \(IEEE802_11_RADIO' "rx_pcap=$WORK/radiotap.pcapng" \
	--stop-when-done
: >"$WORK/zero.pcap"
refused zero_bytes "$WORK/zero.pcap" 'empty \(0 bytes\)' \
	"rx_pcap=$WORK/zero.pcap" --stop-when-done
refused missing "$WORK/missing.pcap" 'cannot be opened: No such file' \
	"rx_pcap=$WORK/missing.pcap" --stop-when-done
$TOOL bytes "$WORK/text.pcap" 400
refused not_a_pcap "$WORK/text.pcap" 'not a pcap file' \
	"rx_pcap=$WORK/text.pcap" --stop-when-done
head -c 10 "$GOOD" >"$WORK/short.pcap"
refused global_header_cut "$WORK/short.pcap" 'cut short in its pcap file header' \
	"rx_pcap=$WORK/short.pcap" --stop-when-done
mkdir "$WORK/adir"
refused directory "$WORK/adir" 'not a regular file' \
	"rx_pcap=$WORK/adir" --stop-when-done
mkfifo "$WORK/fifo"
refused fifo_no_hang "$WORK/fifo" 'not a regular file' \
	"rx_pcap=$WORK/fifo" --stop-when-done
$TOOL empty "$WORK/empty.pcap"
refused empty_stop_when_done "$WORK/empty.pcap" 'no complete packet.*forever' \
	"rx_pcap=$WORK/empty.pcap" --stop-when-done
refused empty_infinite_rx "$WORK/empty.pcap" 'no complete packet.*infinite_rx' \
	"rx_pcap=$WORK/empty.pcap,infinite_rx=1" --duration 2
$GEN -o "$WORK/jumbo.pcap" --seed 33 --flows 8 --size 2100-9000 \
	--expect "$WORK/jumbo.json" "${TMO_ARGS[@]}" 2>/dev/null
refused infinite_rx_jumbo "$WORK/jumbo.pcap" 'infinite_rx=1.*at most 2048' \
	"rx_pcap=$WORK/jumbo.pcap,infinite_rx=1" --duration 2
# A live interface that does not exist: named before EAL (net_pcap's own
# failure comes after it and names neither the interface nor the key).
if tp_refused missing_iface tp_no_such0 'iface .*no such network interface' \
	--vdev=event_sw0 --vdev=net_pcap0,rx_iface=lo,tx_iface=tp_no_such0 \
	-- -T 0 --duration 2; then
	tp_pass missing_iface
fi
# The abbreviation getopt_long lets EAL take is checked too.
tp_eal
log=$WORK/vdev_abbrev.log
tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 --vd \
	"net_pcap0,rx_pcap=$WORK/wifi.pcap,tx_pcap=$WORK/abbrev.out.pcap" -- -T 0 \
	--duration 3
rc=$?
if [ $rc -eq 2 ] && grep 'error:' "$log" | grep -qF "'$WORK/wifi.pcap'"; then
	tp_pass vdev_abbreviated
else
	tp_fail vdev_abbreviated "exit status $rc" "$log"
fi

# A record header damaged after the first packets: the header walk of a
# capture whose first record is whole runs while EAL starts (tp_capture.c),
# so it is refused once EAL is up: exit status 2, one error naming the
# file and the packet, and no run.
name=damaged_after_start
log=$WORK/$name.log
$TOOL damage "$GOOD" "$WORK/$name.pcap" 5
tp_pcap_run "$log" "$WORK/$name.pcap" "$WORK/$name.out.pcap"
rc=$?
if [ $rc -ne 2 ]; then
	tp_fail $name "exit status $rc, want 2" "$log"
elif [ "$(grep -c 'error:' "$log")" -ne 1 ] ||
     ! grep 'error:' "$log" |
	grep -qF "'$WORK/$name.pcap' is damaged after packet 5"; then
	tp_fail $name "want one error naming the file and packet 5" "$log"
elif grep -q 'Exactly-once' "$log"; then
	tp_fail $name "the run started" "$log"
else
	tp_pass $name
fi

# --- Clean runs ----------------------------------------------------------

# Cut after 20 whole packets, in the next record header or in its data.
for where in header data; do
	name=cut_in_$where
	log=$WORK/$name.log
	$TOOL cut "$GOOD" "$WORK/$name.pcap" 20 $where
	tp_pcap_run "$log" "$WORK/$name.pcap" "$WORK/$name.out.pcap"
	ran $name "$log" $? 20 "cut short.*in the $where of packet 21" ||
		continue
	# The cut record is not a packet: net_pcap counts one RX error.
	if tp_expect_eq "port ierrors" "$(tp_num "$log" port_ierrors)" 1
	then
		tp_pass $name
	else
		tp_fail $name "$TP_WHY" "$log"
	fi
done

# A record over 65535 bytes: net_pcap would cut it (it keeps lengths in
# 16 bits). What net_pcap reads is a copy in which it is cut to its first
# 512 bytes: aged by its headers, counted at its wire length (oversize),
# forwarded cut, with one warning naming it; the copy is removed.
name=record_over_65535
log=$WORK/$name.log
$TOOL huge "$WORK/huge.pcap" 70000
mkdir "$WORK/tmpdir"
TMPDIR=$WORK/tmpdir
export TMPDIR
tp_pcap_run "$log" "$WORK/huge.pcap" "$WORK/$name.out.pcap"
rc=$?
unset TMPDIR
$TOOL snap "$WORK/huge.pcap" "$WORK/huge512.pcap" 512 65535
if ran $name "$log" $rc 5 'packet 3 holds 70000 bytes.*oversize'; then
	if ! tp_expect_eq "oversize" "$(tp_num "$log" rx_oversize)" 1 ||
	   ! tp_expect_eq "drops" "$(tp_num "$log" dropped)" 0; then
		tp_fail $name "$TP_WHY" "$log"
	elif ! why=$($CHECK pcap-equal "$WORK/huge512.pcap" \
		     "$WORK/$name.out.pcap"); then
		tp_fail $name "$why"
	elif [ -n "$(ls -A "$WORK/tmpdir")" ]; then
		tp_fail $name "the copy was left: $(ls "$WORK/tmpdir")"
	else
		tp_pass $name
	fi
fi

# The same with "--vdev ARGS" as two arguments: the copy is named there.
name=record_over_65535_vdev_apart
log=$WORK/$name.log
tp_eal
tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 --vdev \
	"net_pcap0,rx_pcap=$WORK/huge.pcap,tx_pcap=$WORK/$name.out.pcap" -- \
	"${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --flows 4096 --stop-when-done
if ran $name "$log" $? 5 'packet 3 holds 70000 bytes'; then
	if why=$($CHECK pcap-equal "$WORK/huge512.pcap" \
		 "$WORK/$name.out.pcap"); then
		tp_pass $name
	else
		tp_fail $name "$why"
	fi
fi

# A pcapng cut inside a block: libpcap says so, the packets before run.
name=pcapng_cut
log=$WORK/$name.log
$TOOL pcapng "$GOOD" "$WORK/$name.pcapng"
head -c $(($(stat -c %s "$WORK/$name.pcapng") - 40)) "$WORK/$name.pcapng" \
	>"$WORK/${name}_cut.pcapng"
tp_pcap_run "$log" "$WORK/${name}_cut.pcapng" "$WORK/$name.out.pcap"
ran $name "$log" $? $((NGOOD - 1)) \
	"cut short after packet $((NGOOD - 1)) \\(libpcap: truncated" &&
	tp_pass $name

# Global header only, without --stop-when-done: a warning, then a run.
log=$WORK/empty_run.log
run_vdev "$log" "rx_pcap=$WORK/empty.pcap,tx_pcap=$WORK/empty.out.pcap" \
	--duration 2
ran empty_runs_until_duration "$log" $? 0 'no complete packet' &&
	tp_pass empty_runs_until_duration

# Other byte order, nanosecond timestamps (paced: the times must be read
# in the right unit), pcapng: the same records as the original.
$TOOL bigendian "$GOOD" "$WORK/be.pcap"
$TOOL nanosecond "$GOOD" "$WORK/ns.pcap"
$TOOL pcapng "$GOOD" "$WORK/good.pcapng"
for v in "big_endian be.pcap unpaced" "nanosecond ns.pcap paced" \
	 "pcapng good.pcapng unpaced"; do
	set -- $v
	name=$1
	log=$WORK/$name.log
	pace=()
	[ "$3" = paced ] && pace=(--replay-pace)
	tp_pcap_run "$log" "$WORK/$2" "$WORK/$name.out.pcap" "${pace[@]}" \
		--flow-log "$WORK/$name.json"
	ran $name "$log" $? "$NGOOD" || continue
	if why=$($CHECK records "$WORK/$name.json" "$EXP" --mode "$3"); then
		tp_pass $name
	else
		tp_fail $name "$why"
	fi
done

# Frames over the mbuf data room: multi-segment mbufs, forwarded whole.
name=jumbo_multi_segment
log=$WORK/$name.log
tp_pcap_run "$log" "$WORK/jumbo.pcap" "$WORK/$name.out.pcap" \
	--flow-log "$WORK/$name.json"
if ran $name "$log" $? "$($TOOL count "$WORK/jumbo.pcap")"; then
	if ! why=$($CHECK records "$WORK/$name.json" "$WORK/jumbo.json" \
		   --mode unpaced); then
		tp_fail $name "$why"
	elif ! why=$($CHECK pcap-equal "$WORK/jumbo.pcap" \
		     "$WORK/$name.out.pcap"); then
		tp_fail $name "$why"
	else
		tp_pass $name
	fi
fi

# IPv6 extension headers that put the L4 header across and beyond the
# first segment: still flows with their ports (malformed before).
name=headers_across_segments
log=$WORK/$name.log
$TOOL segmented "$WORK/seg.pcap" "$WORK/seg.json"
tp_pcap_run "$log" "$WORK/seg.pcap" "$WORK/$name.out.pcap" \
	--flow-log "$WORK/$name.json"
if ran $name "$log" $? 6; then
	if ! why=$($CHECK records "$WORK/$name.json" "$WORK/seg.json" \
		   --mode unpaced); then
		tp_fail $name "$why"
	elif ! tp_expect_eq "rx malformed" "$(tp_num "$log" rx_malformed)" 0
	then
		tp_fail $name "$TP_WHY" "$log"
	else
		tp_pass $name
	fi
fi

# The parser on hand-built chains: every split point, broken chains.
# Built by tests/meson.build, with ASan and UBSan.
PS=$TP_BUILD/tests/parse_segments
if [ ! -x "$PS" ]; then
	tp_fail parse_segments_builds "$PS not built"
else
	$GEN -o "$WORK/mix.pcap" --seed 7 --flows 40 --malformed 60 \
		--non-ip 10 --garbage 40 --vlan-pct 40 --qinq-pct 50 \
		--ipv6-pct 40 --ext-hdr-pct 60 2>/dev/null
	# The same on link types whose header the RX lcore replaces.
	for lt in sll2 raw null; do
		$GEN -o "$WORK/ps_$lt.pcap" --seed 7 --flows 40 --linktype $lt \
			--ipv6-pct 40 --ext-hdr-pct 60 2>/dev/null
	done
	for cap in mix.pcap seg.pcap ps_sll2.pcap ps_raw.pcap ps_null.pcap; do
		name=parse_segments_${cap%.pcap}
		# An LD_PRELOAD library (stdbuf's, say) would precede the
		# ASan runtime: none, and tell ASan not to mind.
		if ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 \
			LD_PRELOAD= timeout 120 "$PS" "$WORK/$cap" \
			>"$WORK/$name.log" 2>&1; then
			tp_pass $name
		else
			tp_fail $name "$(grep -c FAIL "$WORK/$name.log") \
check(s) failed" "$WORK/$name.log"
		fi
	done
fi

# --- --flush-at-eof: stop at the end of the captures ----------------------

# Timeouts of 30 s: every flow is still live when the capture ends, so each
# ends by the flush (forced end), at once rather than after its timeout,
# in the table closed as RX stopped (no delete, no grace period).
# Paced, with a 1.5-s silence inside the capture: the end is where the
# capture ends (every packet received and delivered in its time, none
# dropped at shutdown from the replay stash), not the first silence.
LONG_TMO=(--tmo-tcp-syn 30 --tmo-tcp-est 30 --tmo-tcp-closing 30
	--tmo-udp 30 --tmo-icmp 30 --tmo-other 30)
$GEN -o "$WORK/gap.pcap" --seed 41 --flows 6 --pkts 3 --idle-gap-pct 100 \
	--idle-gap-ms 1500 2>/dev/null
NGAP=$($TOOL count "$WORK/gap.pcap")
for mode in fast paced; do
	name=flush_at_eof_$mode
	log=$WORK/$name.log
	pace=()
	[ $mode = paced ] && pace=(--replay-pace)
	run_vdev "$log" "rx_pcap=$WORK/gap.pcap,tx_pcap=$WORK/$name.out.pcap" \
		"${LONG_TMO[@]}" --flush-at-eof "${pace[@]}"
	rc=$?
	read -r rx shut created forced closed < <(tp_nums "$log" rx_pkts \
		drop_shutdown flows_created ended_forced_end \
		flows_ended_closed)
	if ! tp_clean_exit "$rc" "$log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$log"
	elif ! grep -q "stopping (every capture read (--flush-at-eof))" \
		"$log"; then
		tp_fail $name "did not stop at the end of the capture" "$log"
	elif ! tp_expect "packets received" "$rx" eq "$NGAP" ||
	     ! tp_expect "packets dropped at shutdown" "$shut" eq 0 ||
	     ! tp_expect "flows created" "$created" gt 0 ||
	     ! tp_expect "flows forced to end" "$forced" eq "$created" ||
	     ! tp_expect "flows ended once RX stopped (the table closed)" \
		"$closed" eq "$created"; then
		tp_fail $name "$TP_WHY" "$log"
	else
		tp_pass $name
	fi
done
# Input without an end: exit 2 naming the option and the port.
for src in infinite null; do
	name=flush_at_eof_refused_$src
	log=$WORK/$name.log
	tp_eal
	if [ $src = infinite ]; then
		vdev="--vdev=net_pcap0,rx_pcap=$GOOD,infinite_rx=1"
	else
		vdev="--vdev=net_null0"
	fi
	tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 "$vdev" -- -T 0 \
		--flows 4096 --flush-at-eof
	rc=$?
	if [ $rc -ne 2 ]; then
		tp_fail $name "exit status $rc, want 2" "$log"
	elif ! grep -q -- "--flush-at-eof: port 0 does not read capture" \
		"$log"; then
		tp_fail $name "no message naming --flush-at-eof and port 0" "$log"
	else
		tp_pass $name
	fi
done

tp_result
