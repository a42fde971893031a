#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# IPFIX export, end to end with real collectors on 127.0.0.1 (ports chosen
# here, processes stopped by the trap):
#   - nfcapd (nfdump) receives the UDP export of the demo capture and of
#     generated model captures; `nfdump -o raw` must equal the pipeline's
#     own JSON flow log record for record (5-tuple, VLAN, packets and octets
#     both ways, end reason, first/last ms); with --ipfix-flows uni, one
#     record per direction with packets, the reply's 5-tuple swapped;
#   - nfacctd (pmacct, print plugin aggregating by 5-tuple): with uni its
#     rows add up to the flow log in both directions; with bi to the
#     initiator's direction only (it ignores RFC 5103 reverse elements);
#   - --ipfix-file: ipfixDump decodes it (templates, options records,
#     counts) and python3-ipfix compares it field by field;
#   - TCP (nfcapd has no TCP input): a small listener stores the stream,
#     ipfixDump and python3-ipfix decode it;
#   - TCP collector absent at start, started later, killed, started again:
#     the pipeline forwards every packet, exported + not sent == ended,
#     exit 0 with the check PASSED; telemetry /timer_pipeline/ipfix;
#   - SIGINT: live flows are exported as forced end;
#   - side by side with softflowd -r into nfcapd (differences printed;
#     docs/ipfix.rst explains each kind);
#   - bad options exit 2 before EAL, with one message naming the option.
#
#     tests/pipeline/ipfix.sh BUILD_DIR

SUITE=ipfix
. "$(dirname "$0")/lib.sh"

PY3=/usr/bin/python3	# python3-ipfix is a Debian package
ICHECK="$PY3 $TP_SRC/tests/pipeline/ipfix_check.py"
LISTEN="$PY3 $TP_SRC/tests/pipeline/ipfix_tcp_listen.py"

for t in nfcapd nfdump ipfixDump softflowd nfacctd; do
	if ! command -v "$t" >/dev/null; then
		echo "[ FAIL ] pipeline.$SUITE: $t not installed (scripts/setup.sh)"
		echo "RESULT pipeline_${SUITE}: 0 passed, 1 failed"
		exit 1
	fi
done
if ! "$TP_BIN" -- --ipfix-file "$WORK/probe" --dump-config >/dev/null 2>&1
then
	echo "[ FAIL ] pipeline.$SUITE: built without libfixbuf"
	echo "RESULT pipeline_${SUITE}: 0 passed, 1 failed"
	exit 1
fi

# ipfix_summary LOG NAME: counter ipfix_NAME of the run's --summary-json.
ipfix_summary() {
	tp_num "$1" "ipfix_$2"
}

# The run passed its exactly-once check, which has the IPFIX terms, and
# they add up: flows ended == exported + not sent. "lost" as third
# argument: records were lost from the --ipfix-file (exit status 3).
ipfix_accounted() {
	local log=$1 rc=$2 ended exported notsent
	if [ "${3:-}" = lost ]; then
		tp_lost_exit "$rc" "$log"
	else
		tp_clean_exit "$rc" "$log"
	fi &&
		grep -Eq '^  ipfix  ended [0-9]+ == exported [0-9]+ \+ not sent' \
			"$log" || return 1
	read -r ended exported notsent < <(tp_nums "$log" check.flows_ended \
		check.ipfix_exported check.ipfix_not_sent)
	tp_numbers ended="$ended" exported="$exported" notsent="$notsent" &&
		tp_expect "ended == exported + not sent" "$ended" eq \
			$((exported + notsent))
}

# udp_case NAME CAPTURE [APP-ARGS...]: export to nfcapd, compare (with
# --ipfix-flows uni as the first APP-ARG: a record per direction).
udp_case() {
	local name=$1 in=$2 port rc why mode=nfdump
	shift 2
	[ "${1:-}" = --ipfix-flows ] && [ "${2:-}" = uni ] && mode=nfdump-uni
	port=$(free_port udp)
	nfcapd_start "$WORK/$name.nf" "$port"
	tp_pcap_run "$WORK/$name.log" "$in" "$WORK/$name.out.pcap" \
		--flow-log "$WORK/$name.json" --ipfix "127.0.0.1:$port" "$@"
	rc=$?
	nfcapd_stop "$WORK/$name.nf" "$WORK/$name.raw"
	if ! ipfix_accounted "$WORK/$name.log" $rc; then
		tp_fail "$name" "exit $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! tp_expect "not sent on loopback" \
		"$(ipfix_summary "$WORK/$name.log" not_sent)" eq 0; then
		tp_fail "$name" "records not sent on loopback" "$WORK/$name.log"
	elif ! why=$($ICHECK $mode "$WORK/$name.raw" "$WORK/$name.json"); then
		tp_fail "$name" "$why"
	else
		tp_pass "$name"
	fi
}

# nfacctd_stop PID: SIGINT (its plugins purge and exit), then, since its
# core process may stay, SIGKILL to it and its children after 3 s.
nfacctd_stop() {
	local i
	kill -INT "$1" 2>/dev/null
	for i in $(seq 30); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	pkill -KILL -P "$1" 2>/dev/null
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# pmacct_case NAME CAPTURE bi|uni: export to nfacctd (print plugin, JSON,
# aggregated by 5-tuple), whose rows must add up to the flow log: both
# directions with uni, the initiator's only with bi (nfacctd ignores the
# RFC 5103 reverse elements, docs/ipfix.rst). Prints the totals.
pmacct_case() {
	local name=$1 in=$2 mode=$3 port rc why pid
	port=$(free_port udp)
	printf '%s\n' "daemonize: false" "nfacctd_ip: 127.0.0.1" \
		"nfacctd_port: $port" "plugins: print[p]" \
		"aggregate[p]: src_host, dst_host, src_port, dst_port, proto" \
		"print_output[p]: json" \
		"print_output_file[p]: $WORK/$name.pm.json" \
		"print_output_file_append[p]: true" \
		"print_refresh_time[p]: 1" >"$WORK/$name.conf"
	nfacctd -f "$WORK/$name.conf" >"$WORK/$name.nfacctd.log" 2>&1 &
	pid=$!
	TP_PIDS+=("$pid")
	sleep 1
	tp_pcap_run "$WORK/$name.log" "$in" "$WORK/$name.out.pcap" \
		--flow-log "$WORK/$name.json" --ipfix "127.0.0.1:$port" \
		--ipfix-flows "$mode"
	rc=$?
	sleep 2		# a refresh of the print plugin has written the rows
	nfacctd_stop "$pid"
	if ! ipfix_accounted "$WORK/$name.log" $rc; then
		tp_fail "$name" "exit $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif [ ! -s "$WORK/$name.pm.json" ]; then
		tp_fail "$name" "nfacctd wrote nothing" "$WORK/$name.nfacctd.log"
	elif ! why=$($ICHECK pmacct "$WORK/$name.pm.json" "$WORK/$name.json" \
		     "$mode"); then
		tp_fail "$name" "$why"
	else
		echo "    $name: $why"
		tp_pass "$name"
	fi
}

# 1. UDP to nfcapd: the demo capture (scripts/demo.sh's) and models.
$GEN -o "$WORK/demo.pcap" --seed 1 --flows 40 --gap-ms 20-300 \
	--flow-interval-ms 50 --idle-gap-pct 30 --idle-gap-ms 4000 \
	--malformed 10 --non-ip 4 2>/dev/null
$GEN -o "$WORK/model.pcap" --seed 5 --flows 300 --ipv6-pct 40 \
	--ext-hdr-pct 30 --vlan-pct 20 --qinq-pct 10 --rst-pct 20 2>/dev/null
$GEN -o "$WORK/many.pcap" --seed 6 --flows 3000 --pkts 1-4 \
	--flow-interval-ms 1 --gap-ms 1-5 2>/dev/null
udp_case udp_demo "$WORK/demo.pcap"
udp_case udp_model "$WORK/model.pcap"
udp_case udp_many_messages "$WORK/many.pcap" --flows 8192
# --ipfix-flows uni: nfcapd gets a record per direction.
udp_case udp_model_uni "$WORK/model.pcap" --ipfix-flows uni
udp_case udp_many_messages_uni "$WORK/many.pcap" --ipfix-flows uni \
	--flows 8192
# Every CPU has an lcore (-l 0-1 -S 1): a UDP exporter runs as a service
# on the service lcore (the log says so). Under the capture clock in drop
# mode the record writer service shares that lcore and hands it the
# records through a 64-record queue: all 3000 reach nfcapd, equal to the
# flow log, and none is counted as not sent.
udp_case udp_service_queue_wait "$WORK/many.pcap" --flows 8192 \
	--clock capture --fwd-mode drop --ipfix-queue 64
if ! grep -q "IPFIX exporter (service [0-9]*) runs on service lcore 1" \
	"$WORK/udp_service_queue_wait.log"; then
	tp_fail udp_service_layout "the exporter did not run as a service" \
		"$WORK/udp_service_queue_wait.log"
elif ! tp_expect "IPFIX records exported" \
	"$(ipfix_summary "$WORK/udp_service_queue_wait.log" exported)" eq \
	"$(tp_num "$WORK/udp_service_queue_wait.log" flows_created)"; then
	tp_fail udp_service_layout "$TP_WHY" \
		"$WORK/udp_service_queue_wait.log"
else
	tp_pass udp_service_layout
fi
# pmacct: uni gives every direction, bi the initiator's only.
pmacct_case pmacct_uni "$WORK/model.pcap" uni
pmacct_case pmacct_bi "$WORK/model.pcap" bi

# 2. --ipfix-file: ipfixDump decodes it, python3-ipfix compares it.
tp_pcap_run "$WORK/file.log" "$WORK/model.pcap" "$WORK/file.out.pcap" \
	--flow-log "$WORK/file.json" --ipfix-file "$WORK/file.ipfix" \
	--ipfix-domain 7
rc=$?
nrec=$(wc -l <"$WORK/file.json")
ipfixDump --in "$WORK/file.ipfix" --stats >"$WORK/file.dump" 2>&1
drec=$(sed -n 's/.*Messages, \([0-9]*\) Data Records, \([0-9]*\) Template.*/\1/p' \
	"$WORK/file.dump")
dtmpl=$(sed -n 's/.*Data Records, \([0-9]*\) Template Records.*/\1/p' \
	"$WORK/file.dump")
dopt=$(awk '$1 == "264" {print $3}' "$WORK/file.dump")
if ! ipfix_accounted "$WORK/file.log" $rc; then
	tp_fail file_ipfixdump "exit $rc or check failed" "$WORK/file.log"
elif [ "$drec" != $((nrec + dopt)) ] || [ "${dopt:-0}" -lt 2 ] ||
     [ "$((dtmpl % 9))" != 0 ] || [ "$dtmpl" -lt 18 ] ||
     grep -qi "error" "$WORK/file.dump"; then
	tp_fail file_ipfixdump "ipfixDump: $drec data records ($dopt options), \
$dtmpl templates, for $nrec flows" "$WORK/file.dump"
else
	tp_pass file_ipfixdump
fi
if why=$($ICHECK ipfix "$WORK/file.ipfix" "$WORK/file.json" \
	--not-sent 0 --min-options 2); then
	tp_pass file_decoded_equal
else
	tp_fail file_decoded_equal "$why"
fi
if ipfixDump --in "$WORK/file.ipfix" 2>/dev/null |
	grep -q "observation domain id: 7\|domain: *7\|obdomain: *7"; then
	tp_pass file_domain
else
	tp_fail file_domain "observation domain 7 not in ipfixDump's output"
fi

# Queue full, --ipfix-queue-full drop (a live port's default): a
# 64-record queue and 3000 flows ending within a second: records that
# find it full are counted as not sent; the file holds the others, and its
# last options record says how many were not sent. They are lost from a
# file on this machine, so the run exits with status 3.
tp_pcap_run "$WORK/qfull.log" "$WORK/many.pcap" "$WORK/qfull.out.pcap" \
	--flows 8192 --flow-log "$WORK/qfull.json" \
	--ipfix-file "$WORK/qfull.ipfix" --ipfix-queue 64 \
	--ipfix-queue-full drop
rc=$?
read -r qfull exported notsent < <(tp_nums "$WORK/qfull.log" \
	ipfix_queue_full ipfix_exported ipfix_not_sent)
if ! ipfix_accounted "$WORK/qfull.log" $rc lost; then
	tp_fail queue_full "exit $rc or check failed" "$WORK/qfull.log"
elif ! tp_expect "records that found the queue full" "$qfull" gt 0; then
	tp_fail queue_full "$TP_WHY" "$WORK/qfull.log"
elif ! why=$($ICHECK ipfix "$WORK/qfull.ipfix" "$WORK/qfull.json" \
	     --subset "$exported" --not-sent "$notsent"); then
	tp_fail queue_full "$why"
else
	tp_pass queue_full
fi

# The same with the default (auto: wait, every port reading a capture):
# the lcore that hands records over waits for room, so every one of the
# 3000 records is exported while the flows age by their timers, and none
# is counted as not sent.
tp_pcap_run "$WORK/qwait.log" "$WORK/many.pcap" "$WORK/qwait.out.pcap" \
	--flows 8192 --flow-log "$WORK/qwait.json" \
	--ipfix-file "$WORK/qwait.ipfix" --ipfix-queue 64
rc=$?
read -r created exported notsent < <(tp_nums "$WORK/qwait.log" \
	flows_created ipfix_exported ipfix_not_sent)
if ! ipfix_accounted "$WORK/qwait.log" $rc; then
	tp_fail queue_full_wait "exit $rc or check failed" "$WORK/qwait.log"
elif ! tp_expect "flows" "$created" eq 3000 ||
     ! tp_expect "flows exported" "$exported" eq "$created" ||
     ! tp_expect "records not sent" "$notsent" eq 0; then
	tp_fail queue_full_wait "$TP_WHY" "$WORK/qwait.log"
elif ! why=$($ICHECK ipfix "$WORK/qwait.ipfix" "$WORK/qwait.json" \
	     --not-sent 0); then
	tp_fail queue_full_wait "$why"
else
	tp_pass queue_full_wait
fi

# Flush at the end of the capture through the same 64-record queue: the
# forced end walks the table no faster than the exporter takes records,
# so every one of the 3000 flows is exported and none is counted as not
# sent (without that wait most of them found the queue full). Timeouts of
# 30 s: every flow ends by the flush, long before any timer.
tp_pcap_run "$WORK/eof.log" "$WORK/many.pcap" "$WORK/eof.out.pcap" \
	--flows 8192 --flow-log "$WORK/eof.json" --tmo-udp 30 \
	--tmo-tcp-syn 30 --tmo-tcp-est 30 --tmo-icmp 30 --tmo-other 30 \
	--ipfix-file "$WORK/eof.ipfix" --ipfix-queue 64 --flush-at-eof
rc=$?
read -r created forced exported notsent < <(tp_nums "$WORK/eof.log" \
	flows_created ended_forced_end ipfix_exported ipfix_not_sent)
if ! ipfix_accounted "$WORK/eof.log" $rc; then
	tp_fail flush_at_eof_queue "exit $rc or check failed" "$WORK/eof.log"
elif ! grep -q "every capture read (--flush-at-eof)" "$WORK/eof.log"; then
	tp_fail flush_at_eof_queue "did not stop at the end of the capture" \
		"$WORK/eof.log"
elif ! tp_expect "flows forced to end" "$forced" eq "$created" ||
     ! tp_expect "flows exported" "$exported" eq "$created" ||
     ! tp_expect "records not sent" "$notsent" eq 0; then
	tp_fail flush_at_eof_queue "$TP_WHY" "$WORK/eof.log"
elif ! why=$($ICHECK ipfix "$WORK/eof.ipfix" "$WORK/eof.json" \
	     --not-sent 0); then
	tp_fail flush_at_eof_queue "$why"
else
	tp_pass flush_at_eof_queue
fi

# 3. TCP: a listener stores the stream; ipfixDump and python3-ipfix.
port=$(free_port tcp)
$LISTEN "$port" "$WORK/tcp.stream" &
lpid=$!
TP_PIDS+=("$lpid")
sleep 0.3
tp_pcap_run "$WORK/tcp.log" "$WORK/model.pcap" "$WORK/tcp.out.pcap" \
	--flow-log "$WORK/tcp.json" --ipfix "127.0.0.1:$port" \
	--ipfix-transport tcp
rc=$?
sleep 0.3
kill "$lpid" 2>/dev/null
wait "$lpid" 2>/dev/null
if ! ipfix_accounted "$WORK/tcp.log" $rc; then
	tp_fail tcp "exit $rc or check failed" "$WORK/tcp.log"
elif ! why=$($ICHECK ipfix "$WORK/tcp.stream.0" "$WORK/tcp.json" \
	     --not-sent 0); then
	tp_fail tcp "$why"
elif ! ipfixDump --in "$WORK/tcp.stream.0" --stats 2>&1 |
	grep -q "Data Records"; then
	tp_fail tcp "ipfixDump cannot read the TCP stream"
else
	tp_pass tcp
fi

# 4. TCP collector absent at start, started later, killed mid-run and
# started again, during a paced replay of ~5 s.
$GEN -o "$WORK/long.pcap" --seed 11 --flows 120 --pkts 2-6 \
	--flow-interval-ms 40 --gap-ms 10-200 2>/dev/null
port=$(free_port tcp)
tp_eal
tel_sock=/var/run/dpdk/${TP_PREFIX}_$TP_RUNS/dpdk_telemetry.v2
timeout -k 5 60 "$TP_BIN" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$WORK/long.pcap,tx_pcap=$WORK/long.out.pcap" \
	-- "${TMO_ARGS[@]}" -T 1 --idle-sleep-us 50 --flows 4096 \
	--stop-when-done --replay-pace --flow-log "$WORK/down.json" \
	--ipfix "127.0.0.1:$port" --ipfix-transport tcp \
	--summary-json "$(tp_sum_path "$WORK/down.log")" \
	>"$WORK/down.log" 2>&1 &
ppid=$!
TP_PIDS+=("$ppid")
sleep 1.5
$LISTEN "$port" "$WORK/down.stream" &
lpid=$!
TP_PIDS+=("$lpid")
sleep 1.5
kill -KILL "$lpid" 2>/dev/null
wait "$lpid" 2>/dev/null
sleep 0.7
$LISTEN "$port" "$WORK/down2.stream" &
lpid=$!
TP_PIDS+=("$lpid")
# Mid-run, telemetry shows the exporter's counters.
python3 "$TP_SRC/tests/pipeline/telemetry_client.py" get "$tel_sock" \
	/timer_pipeline/ipfix >"$WORK/tel.json" 2>&1
wait "$ppid"
rc=$?
sleep 0.3
kill "$lpid" 2>/dev/null
wait "$lpid" 2>/dev/null
ended=$(wc -l <"$WORK/down.json")
exported=$(ipfix_summary "$WORK/down.log" exported)
notsent=$(ipfix_summary "$WORK/down.log" not_sent)
reconn=$(ipfix_summary "$WORK/down.log" reconnects)
got=0
for s in "$WORK"/down.stream.* "$WORK"/down2.stream.*; do
	[ -f "$s" ] || continue
	n=$($PY3 -c "import sys
sys.path.insert(0, '$TP_SRC/tests/pipeline')
import ipfix_check
print(sum('flowEndReason' in d for d in ipfix_check.read_stream('$s')))")
	got=$((got + n))
done
if ! ipfix_accounted "$WORK/down.log" $rc; then
	tp_fail collector_down "exit $rc or check failed" "$WORK/down.log"
elif ! tp_numbers exported="$exported" not_sent="$notsent" \
	reconnects="$reconn" ||
     [ "$((exported + notsent))" != "$ended" ] || [ "$notsent" -eq 0 ] ||
     [ "$got" -gt "$exported" ] || [ "$got" -eq 0 ] ||
     [ "${reconn:-0}" -lt 1 ]; then
	tp_fail collector_down "ended $ended, exported $exported, not sent \
$notsent, received $got, reconnects $reconn" "$WORK/down.log"
elif ! tp_expect "packets forwarded == received" \
	"$(tp_num "$WORK/down.log" check.forwarded)" eq \
	"$(tp_num "$WORK/down.log" check.rx_pkts)"; then
	tp_fail collector_down "$TP_WHY" "$WORK/down.log"
else
	tp_pass collector_down
fi

if python3 -c "import json, sys
d = json.load(open(sys.argv[1]))['/timer_pipeline/ipfix']
keys = ('enabled', 'ipfix_messages', 'ipfix_exported', 'ipfix_bytes',
        'ipfix_templates', 'ipfix_not_sent', 'ipfix_queue_full',
        'ipfix_reconnects')
sys.exit(0 if all(isinstance(d.get(k), int) for k in keys) and
         d['enabled'] == 1 and d['ipfix_not_sent'] > 0 else 1)" "$WORK/tel.json"
then
	tp_pass telemetry_ipfix
else
	tp_fail telemetry_ipfix "/timer_pipeline/ipfix mid-run" "$WORK/tel.json"
fi

# 5. SIGINT with live flows: forced end, exported before exit.
port=$(free_port udp)
nfcapd_start "$WORK/sig.nf" "$port"
tp_eal
timeout -k 5 60 "$TP_BIN" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$WORK/long.pcap,tx_pcap=$WORK/sig.out.pcap" \
	-- --tmo-udp 30 --tmo-tcp-est 30 --tmo-tcp-syn 30 --tmo-icmp 30 \
	--tmo-other 30 -T 0 --idle-sleep-us 50 --flows 4096 --replay-pace \
	--flow-log "$WORK/sig.json" --ipfix "127.0.0.1:$port" \
	--ipfix-template-refresh 1s \
	--summary-json "$(tp_sum_path "$WORK/sig.log")" \
	>"$WORK/sig.log" 2>&1 &
ppid=$!
TP_PIDS+=("$ppid")
# Three and a half seconds after the setup (not after the exec: start-up
# under a sanitizer and a loaded machine takes seconds of its own), so
# that the refresh's sends at 0, 1, 2 and 3 s have 1.5 s of slack for the
# three the check below wants on a loaded machine. Its
# last log line (stderr: stdout is buffered in a file) maps the scheduler.
for _ in $(seq 300); do
	grep -q 'event scheduler (service [0-9]*) runs on' "$WORK/sig.log" \
		2>/dev/null && break
	sleep 0.1
done
sleep 3.5
# Signal the pipeline itself: timeout would also signal its group (twice).
app=$(pgrep -P "$ppid" | head -1)
t0=$(date +%s%N)
kill -INT "${app:-$ppid}"
wait "$ppid"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
nfcapd_stop "$WORK/sig.nf" "$WORK/sig.raw"
nforced=$(grep -c '"end_reason_code":4' "$WORK/sig.json")
if ! ipfix_accounted "$WORK/sig.log" $rc; then
	tp_fail sigint_forced_end "exit $rc or check failed" "$WORK/sig.log"
elif [ "$nforced" -eq 0 ] || [ "$ms" -gt 2000 ]; then
	tp_fail sigint_forced_end "$nforced forced-end records, exit after \
$ms ms" "$WORK/sig.log"
elif ! why=$($ICHECK nfdump "$WORK/sig.raw" "$WORK/sig.json"); then
	tp_fail sigint_forced_end "$why"
else
	tp_pass sigint_forced_end
fi
# UDP template refresh every 1 s over ~3.5 s: start, >= 2 refreshes.
ntmpl=$(ipfix_summary "$WORK/sig.log" templates)
if [ "${ntmpl:-0}" -ge 3 ]; then
	tp_pass udp_template_refresh
else
	tp_fail udp_template_refresh "${ntmpl:-0} template sends in 3.5 s with \
--ipfix-template-refresh 1s (expected >= 3)" "$WORK/sig.log"
fi

# 6. Side by side with softflowd -r: same capture, same timeouts, same
# nfcapd; the differences are printed (docs/ipfix.rst explains each).
port=$(free_port udp)
nfcapd_start "$WORK/sf.nf" "$port"
timeout 60 softflowd -r "$WORK/model.pcap" -n "127.0.0.1:$port" -v 10 -b -d \
	-T vlan -t tcp=1 -t tcp.rst=1 -t tcp.fin=1 -t udp=1 -t icmp=1 \
	-t general=1 -t maxlife=600 >"$WORK/sf.log" 2>&1
rc=$?
nfcapd_stop "$WORK/sf.nf" "$WORK/sf.raw"
$ICHECK softflowd "$WORK/udp_model.raw" "$WORK/sf.raw" >"$WORK/sf.diff"
sed 's/^/    /' "$WORK/sf.diff"
nsf=$($ICHECK count "$WORK/sf.raw")
only_sf=$(awk '$1 == "only_softflowd" {print $2}' "$WORK/sf.diff")
only_tp=$(awk '$1 == "only_pipeline" {print $2}' "$WORK/sf.diff")
# softflowd 1.1.0 does not parse 802.1ad (QinQ) frames: those flows are
# the pipeline's only.
qinq=$(grep -c -v '"vlan_inner":0' "$WORK/udp_model.json")
if [ "$rc" -ne 0 ] || [ "$nsf" -eq 0 ] || [ -n "$only_sf" ] ||
   [ "${only_tp:-0}" != "$qinq" ]; then
	tp_fail softflowd_side_by_side "softflowd rc $rc, $nsf records, \
${only_sf:-0} 5-tuples softflowd's only, ${only_tp:-0} the pipeline's only \
($qinq QinQ flows)" "$WORK/sf.diff"
else
	tp_pass softflowd_side_by_side
fi

# 7. Bad options: exit 2 before EAL, one message naming the option.
bad_case() {
	local name=$1 want=$2 rc
	shift 2
	"$TP_BIN" --no-huge --in-memory -- "$@" >"$WORK/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" "$WORK/$name.log" &&
	   ! grep -q "EAL:" "$WORK/$name.log"; then
		tp_pass "$name"
	else
		tp_fail "$name" "exit $rc, expected 2 and '$want'" \
			"$WORK/$name.log"
	fi
}
bad_case bad_host "'--ipfix'" --ipfix no-such-host.invalid:4739
bad_case bad_port0 "port 0" --ipfix 127.0.0.1:0
bad_case bad_port_text "'--ipfix'" --ipfix 127.0.0.1:http
bad_case bad_file "'--ipfix-file'" --ipfix-file /nonexistent/dir/x.ipfix
bad_case bad_both "exclude each other" --ipfix 127.0.0.1 \
	--ipfix-file "$WORK/x.ipfix"
bad_case bad_transport "'--ipfix-transport'" --ipfix 127.0.0.1 \
	--ipfix-transport sctp
bad_case bad_refresh "'--ipfix-template-refresh'" --ipfix 127.0.0.1 \
	--ipfix-template-refresh 0

# 8. The INI file's [ipfix] section, shown by --dump-config.
cat >"$WORK/ipfix.ini" <<EOF
[ipfix]
ipfix = 127.0.0.1:9995
ipfix-transport = tcp
ipfix-domain = 42
ipfix-template-refresh = 30s
EOF
"$TP_BIN" -- --config "$WORK/ipfix.ini" --dump-config >"$WORK/ini.out" 2>&1
if grep -Eq "^ *ipfix += 127.0.0.1:9995$" "$WORK/ini.out" &&
   grep -Eq "^ *ipfix-transport += tcp$" "$WORK/ini.out" &&
   grep -Eq "^ *ipfix-domain += 42$" "$WORK/ini.out" &&
   grep -Eq "^ *ipfix-template-refresh += 30s$" "$WORK/ini.out"; then
	tp_pass ini_ipfix_section
else
	tp_fail ini_ipfix_section "--dump-config does not show the file's \
[ipfix] values" "$WORK/ini.out"
fi

tp_result
