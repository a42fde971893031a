#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# End to end with net_pcap (rx_pcap + tx_pcap): a generated capture with
# known flows must give exactly the expected flow records, the output
# capture must hold the input's frames, and every way of running the
# pipeline (both adapters, both refresh modes, event_dsw, ordered and
# parallel queues, several workers) must give the same records.
#
#     tests/pipeline/e2e.sh BUILD_DIR

SUITE=e2e
. "$(dirname "$0")/lib.sh"

IN=$WORK/in.pcap
EXP=$WORK/in.json
NMAL=10
$GEN -o "$IN" --seed 42 --flows 150 --malformed $NMAL --non-ip 4 \
	--expect "$EXP" "${TMO_ARGS[@]}" 2>/dev/null

# check_run CASE LOG RC RECORDS OUT: exit status, exactly-once, records
# equal to the generator's, output capture equal to the input's.
check_run() {
	local name=$1 log=$2 rc=$3 rec=$4 out=$5 why
	if ! tp_clean_exit "$rc" "$log"; then
		tp_fail "$name" "exit status $rc or exactly-once check failed" "$log"
		return
	fi
	if ! why=$($CHECK records "$rec" "$EXP" --mode unpaced); then
		tp_fail "$name" "$why"
		return
	fi
	if ! why=$($CHECK pcap-equal "$IN" "$out" --minus $NMAL); then
		tp_fail "$name" "$why"
		return
	fi
	tp_pass "$name"
}

# run_case CASE [APP-ARGS...]: one run on the shared capture.
run_case() {
	local name=$1 rc
	shift
	tp_pcap_run "$WORK/$name.log" "$IN" "$WORK/$name.pcap" \
		--flow-log "$WORK/$name.json" "$@"
	rc=$?
	check_run "$name" "$WORK/$name.log" $rc "$WORK/$name.json" \
		"$WORK/$name.pcap"
}

run_case records_direct --timer-adapter direct
run_case records_rte --timer-adapter rte
# The largest --burst: more flow packets in one burst than rte_hash looks
# up in one call (64); it once left the rest unset and crashed.
run_case burst_128 --burst 128

if out=$($CHECK same "$WORK/records_direct.json" "$WORK/records_rte.json")
then
	tp_pass adapters_same_records
else
	tp_fail adapters_same_records "$out"
fi

# On the events path (every packet an event) the ports keep event_sw's
# default depth (16), as l2fwd-event's do; only the inline path deepens them.
read -r cq deq <<<"$(tp_nums "$WORK/records_direct.log" \
	layout.eventdev.port_dequeue_depth layout.eventdev.dequeue_depth)"
path=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["layout"]["packet_path"])' \
	"$(tp_sum_path "$WORK/records_direct.log")")
if [ "$path" = events ] && tp_expect "ports' dequeue depth" "$cq" eq 16 &&
   tp_expect "dequeue burst" "$deq" eq 32; then
	tp_pass events_path_port_depth
else
	tp_fail events_path_port_depth "packet path $path: $TP_WHY"
fi

# No service lcore (-l 0): the main lcore runs the event scheduler and
# the timer adapter in its loop (setup/tp_service.h). In pair mode every
# packet crosses event_sw, which only that lcore schedules; in drop mode
# the inline path. Records as the generator's, the output as the input
# (cmdline.sh's no_service_lcore_rte: DPDK's adapter is refused).
TP_LCORES="-l 0" run_case one_lcore_pair --fwd-mode pair
name=one_lcore_drop
TP_LCORES="-l 0" tp_pcap_run "$WORK/$name.log" "$IN" "$WORK/$name.pcap" \
	--flow-log "$WORK/$name.json" --fwd-mode drop
rc=$?
if ! tp_clean_exit $rc "$WORK/$name.log"; then
	tp_fail $name "exit status $rc or exactly-once check failed" \
		"$WORK/$name.log"
elif ! why=$($CHECK records "$WORK/$name.json" "$EXP" --mode unpaced); then
	tp_fail $name "$why"
elif [ "$(grep -c 'runs on the main lcore 0 (no service lcore)' \
	"$WORK/$name.log")" -ne 2 ]; then
	tp_fail $name "want the scheduler and the adapter on lcore 0" \
		"$WORK/$name.log"
else
	tp_pass $name
fi

# The table's memory: on 2-MB hugetlb pages when EAL runs on hugepages
# (the records the same), on transparent hugepages with --no-huge (the
# run above).
name=table_hugepages
free=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages \
	2>/dev/null || echo 0)
if [ "$free" -lt 64 ] || ! grep -qs ' hugetlbfs ' /proc/mounts; then
	tp_fail $name "needs 64 free 2-MB hugepages (scripts/setup.sh" \
		"reserves them); $free free"
else
	TP_MEM=--huge-unlink tp_pcap_run "$WORK/$name.log" "$IN" \
		"$WORK/$name.pcap" --flow-log "$WORK/$name.json" --fwd-mode drop
	rc=$?
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! why=$($CHECK records "$WORK/$name.json" "$EXP" \
		     --mode unpaced); then
		tp_fail $name "$why"
	elif ! grep -q 'flow table: .*, on 2-MB hugepages$' \
		"$WORK/$name.log"; then
		tp_fail $name "want the table on 2-MB hugepages" \
			"$WORK/$name.log"
	elif ! grep -q 'flow table: .*, on transparent hugepages' \
		"$WORK/one_lcore_drop.log"; then
		tp_fail $name "want the --no-huge run's table on transparent" \
			"hugepages" "$WORK/one_lcore_drop.log"
	else
		tp_pass $name
	fi
fi

# A flow log's pages further back than --file-cache-mb from its end
# leave the page cache as they are written back (the sink's
# POSIX_FADV_DONTNEED, 8 MB at a time). With --file-cache-mb 0, of a
# ~35-MB log of 100,000 records at least the first 8 MB are no longer
# cached at exit; by default (512 MB) all of it is. The first run's
# writer is slowed (100 us a call that takes records) for log_lines_early
# below.
tp_gen_expect "$WORK/scan.pcap" "$WORK/scan.exp.json" --seed 3 \
	--syn-scan none --flows 100000 --flow-interval-ms 0.001 >/dev/null
for name in log_page_cache log_page_cache_kept; do
	if [ $name = log_page_cache ]; then
		more=(--fault-writer-delay-us 100 --file-cache-mb 0)
	else
		more=()
	fi
	tp_pcap_run "$WORK/$name.log" "$WORK/scan.pcap" /dev/null \
		--flows 131072 --clock capture --fwd-mode drop \
		--flow-log "$WORK/$name.json" "${more[@]}"
	rc=$?
	size=$(stat -c %s "$WORK/$name.json" 2>/dev/null || echo 0)
	res=$(fincore -b -n -o RES "$WORK/$name.json" 2>/dev/null ||
	      echo "$size")
	# fincore counts whole pages: the log's pages, in bytes. (Against its
	# size in bytes, a run that dropped exactly 8 MB failed by the part
	# of the last page the log does not fill: 25,186,304 cached of
	# 33,571,515 bytes.)
	page=$(getconf PAGESIZE)
	paged=$(( (size + page - 1) / page * page ))
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif [ "$(stat -f -c %T "$WORK")" = tmpfs ]; then
		tp_fail $name "$WORK is on tmpfs, whose pages cannot be dropped"
	elif [ "$(wc -l <"$WORK/$name.json")" -ne 100000 ]; then
		tp_fail $name "want 100000 records in the flow log"
	elif [ $name = log_page_cache ] &&
	     [ "$res" -gt $((paged - (8 << 20))) ]; then
		tp_fail $name "$res of the log's $size bytes still cached at exit"
	elif [ $name = log_page_cache_kept ] && [ "$res" -lt "$size" ]; then
		tp_fail $name "$res of the log's $size bytes cached at exit, want all"
	else
		tp_pass $name
	fi
done

# The same run: its 100,000 flows end at once when the capture ends, the
# record writer lags, and the lcore ending them formats lines itself
# (records/tp_record.c, record_lines_early). The log holds the records
# of the generator's model, each once. Whether a writer at full speed
# lags depends on the machine (45,007 lines in a CI run, none in 3 runs
# on another VM of the same kind), so the run slows it.
name=log_lines_early
early=$(tp_num "$WORK/log_page_cache.log" record_lines_early)
if ! why=$($CHECK records "$WORK/log_page_cache.json" "$WORK/scan.exp.json" \
	   --mode paced); then
	tp_fail $name "$why"
elif ! tp_expect "lines formatted by lcore 0" "$early" gt 0; then
	tp_fail $name "$TP_WHY" "$WORK/log_page_cache.log"
else
	echo "    $name: $early of 100000 lines formatted by lcore 0"
	tp_pass $name
fi

run_case every_packet_direct --refresh every-packet
run_case every_packet_rte --refresh every-packet --timer-adapter rte
run_case parallel_queue --eventq-sched parallel
run_case ordered_queue --eventq-sched ordered

# event_dsw: distributed scheduling, no scheduler service.
tp_eal
tp_run "$WORK/dsw.log" 90 "${EAL[@]}" --vdev=event_dsw0 \
	"--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/dsw.pcap" -- \
	"${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --stop-when-done \
	--flow-log "$WORK/dsw.json"
check_run event_dsw "$WORK/dsw.log" $? "$WORK/dsw.json" "$WORK/dsw.pcap"

# Two workers and a separate RX lcore (lcore 2 shares CPU 0): flows are
# created by RX while workers end them concurrently.
TP_RUNS=$((TP_RUNS + 1))
tp_run "$WORK/multi.log" 120 --lcores=0@0,1@1,2@0 -S 1 --no-huge -m 512 \
	--no-pci --file-prefix "${TP_PREFIX}_$TP_RUNS" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/multi.pcap" -- \
	"${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --stop-when-done \
	--rx-lcores 0 --worker-lcores 0,2 --flow-log "$WORK/multi.json"
check_run two_workers "$WORK/multi.log" $? "$WORK/multi.json" \
	"$WORK/multi.pcap"

# Two RX lcores read the same capture (two rx_pcap queues): every key
# arrives on both, so both RX lcores race to create each flow and refresh
# it while two workers count and end flows. One record per flow, with
# exactly twice the packets and bytes. The last variant meters on the
# inline path: both RX lcores count into the same flows (atomically).
for variant in lazy every-packet inline; do
	name=two_rx_lcores_same_keys_$variant
	args=(--refresh "$variant")
	[ $variant = inline ] && {
		name=inline_path_two_rx_lcores
		args=(--fwd-mode drop --packet-path inline)
	}
	TP_RUNS=$((TP_RUNS + 1))
	tp_run "$WORK/$name.log" 120 --lcores=0@0,1@1,2@0 -S 1 --no-huge \
		-m 512 --no-pci --file-prefix "${TP_PREFIX}_$TP_RUNS" \
		--vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$IN,rx_pcap=$IN,tx_pcap=$WORK/$name.pcap" \
		-- "${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --stop-when-done \
		--rx-lcores 0,2 --worker-lcores 0,2 "${args[@]}" \
		--flow-log "$WORK/$name.json"
	rc=$?
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! why=$($CHECK doubled "$WORK/$name.json" "$EXP"); then
		tp_fail $name "$why"
	else
		tp_pass $name
	fi
done

# The inline packet path (--packet-path inline, drop and monitor modes):
# RX meters each packet into its flow and frees it; only timer events
# cross the event device. The same records as the generator's, every
# packet metered (monitored) or dropped (fwd_drop), no packet event (two
# RX lcores on the same keys: above). --packet-path auto takes it in drop
# mode on the wall clock too (clock.sh checks the capture clock), and
# keeps packets as events with --packet-path events.
for mode in drop monitor; do
	name=inline_path_$mode
	tp_pcap_run "$WORK/$name.log" "$IN" "$WORK/$name.pcap" \
		--flow-log "$WORK/$name.json" --fwd-mode $mode \
		--packet-path inline
	rc=$?
	read -r enq rx mon fwdd <<<"$(tp_nums "$WORK/$name.log" \
		events_enqueued rx_pkts monitored drop_fwd_drop)"
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! why=$($CHECK records "$WORK/$name.json" "$EXP" \
			--mode unpaced); then
		tp_fail $name "$why"
	elif ! tp_expect "packet events enqueued" "$enq" eq 0 ||
	     ! tp_expect_eq "monitored $mon + fwd_drop $fwdd + malformed" \
		"$((mon + fwdd + NMAL))" "$rx"; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	else
		tp_pass $name
	fi
done
name=auto_path_wall_clock
tp_pcap_run "$WORK/$name.log" "$IN" "$WORK/$name.pcap" \
	--flow-log "$WORK/$name.json" --fwd-mode drop
rc=$?
read -r enq rx fwdd cq <<<"$(tp_nums "$WORK/$name.log" events_enqueued rx_pkts \
	drop_fwd_drop layout.eventdev.port_dequeue_depth)"
# Only expiries cross the device: its ports take event_sw's deepest (128).
if ! tp_clean_exit $rc "$WORK/$name.log"; then
	tp_fail $name "exit status $rc or exactly-once check failed" \
		"$WORK/$name.log"
elif ! tp_expect "packet events enqueued" "$enq" eq 0 ||
     ! tp_expect "ports' dequeue depth" "$cq" eq 128 ||
     ! tp_expect_eq "fwd_drop $fwdd + malformed" "$((fwdd + NMAL))" "$rx"; then
	tp_fail $name "$TP_WHY" "$WORK/$name.log"
else
	tp_pass $name
fi

# RX held back on the inline path (wall clock): 3000 one-packet flows
# that all expire within a tick or two (1-ms ticks), and a worker made
# slow (--fault-worker-delay-us 100 a burst, about 320 expiries a ms):
# it handles most of them more than 1.25 ticks after their deadlines, and
# RX then polls no port for a quarter tick each time (rx_held_polls).
# RX has an lcore of its own (lcore 0; the worker is lcore 2, on the same
# CPU): on a combined lcore RX yields to a busy worker role first
# (rx_yield_polls), and with the ports 128 deep the worker stays busy
# until the last late expiry, so whether a held poll is counted there is
# a matter of timing. Every flow still ends once (the exactly-once
# check). On the event path the event device's backpressure does that
# instead: no RX poll is held.
$GEN -o "$WORK/burst.pcap" --seed 7 --flows 3000 --pkts 1 --mix udp=1 \
	--flow-interval-ms 0.001 >/dev/null 2>&1
for path in inline events; do
	name=rx_held_back_$path
	TP_LCORES="--lcores 0@0,1@1,2@0 -S 1" tp_pcap_run "$WORK/$name.log" \
		"$WORK/burst.pcap" "$WORK/$name.pcap" \
		--flow-log "$WORK/$name.json" --fwd-mode drop --flows 8192 \
		--rx-lcores 0 --worker-lcores 2 \
		--timer-tick 1ms --tmo-udp 50ms --packet-path $path \
		--fault-worker-delay-us 100
	rc=$?
	read -r held created <<<"$(tp_nums "$WORK/$name.log" rx_held_polls \
		flows_created)"
	if [ $path = inline ]; then op=gt; else op=eq; fi
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! tp_expect "flows" "$created" eq 3000 ||
	     ! tp_expect "RX polls held back" "$held" $op 0; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	else
		tp_pass $name
	fi
done

# RX's new flows spread after a late expiry (datapath/tp_rx_hold.h): the
# layout and slow worker above, replayed at the capture's pace: two waves
# of 30,000 one-packet flows at 1M flows/s, the second 300 ms after the
# first, each flow ending 2 ms after it came. Expiries run late in the
# first wave; the second comes within the spread's 1,024 ticks after the
# last late one, faster than the share the first wave's fading peak
# gives RX, and RX is held for the rest of each tick (rx_spread_polls).
# The pause makes that so however the lcores are scheduled: one wave,
# read unpaced, was all read in one CI run before any expiry ran late
# (its expiries 131 to 163 ms late, no spread). Every flow still ends once.
$GEN -o "$WORK/spread.pcap" --seed 13 --flows 30000 --pkts 1 --mix udp=1 \
	--flow-interval-ms 0.001 --start 1700000000 >/dev/null 2>&1
$GEN -o "$WORK/spread2.pcap" --seed 14 --flows 30000 --pkts 1 --mix udp=1 \
	--flow-interval-ms 0.001 --start 1700000000.3 >/dev/null 2>&1
# The second wave's packets behind the first's (a pcap header is 24 bytes).
tail -c +25 "$WORK/spread2.pcap" >>"$WORK/spread.pcap"
name=rx_spread_inline
TP_LCORES="--lcores 0@0,1@1,2@0 -S 1" tp_pcap_run "$WORK/$name.log" \
	"$WORK/spread.pcap" "$WORK/$name.pcap" \
	--flow-log "$WORK/$name.json" --fwd-mode drop --flows 65536 \
	--rx-lcores 0 --worker-lcores 2 --timer-tick 1ms --tmo-udp 2ms \
	--packet-path inline --fault-worker-delay-us 100 --replay-pace
rc=$?
read -r spread held created <<<"$(tp_nums "$WORK/$name.log" \
	rx_spread_polls rx_held_polls flows_created)"
echo "    $name: rx_spread_polls $spread rx_held_polls $held"
if ! tp_clean_exit $rc "$WORK/$name.log"; then
	tp_fail $name "exit status $rc or exactly-once check failed" \
		"$WORK/$name.log"
elif ! tp_expect "flows" "$created" eq 60000 ||
     ! tp_expect "log lines" "$(wc -l <"$WORK/$name.json")" eq 60000 ||
     ! tp_expect "RX polls held back" "$held" gt 0 ||
     ! tp_expect "RX polls past the tick's share" "$spread" gt 0; then
	tp_fail $name "$TP_WHY" "$WORK/$name.log"
else
	tp_pass $name
fi

# RX paced by the record writer (datapath/tp_rx_hold.h): on the inline
# path (wall clock) with a flow log, the writer service made slow
# (--fault-writer-delay-us 300 a call: some 50,000 records a second, well
# below RX's rate in an ASan build too; at 100 us, about 160,000, an ASan
# build's RX once never got ahead of it) lags behind 30,000 one-packet
# flows that RX reads as fast as it can and that end 2 ms after they
# came. More than 2,048 records then wait, and RX makes no more new flows
# than the writer took records (rx_paced_polls). Every flow still ends once, and its record is in the
# log. On the event path the main lcore writes the records (the option
# slows only the service) and RX is never paced: the event device's
# backpressure holds it.
$GEN -o "$WORK/pace.pcap" --seed 11 --flows 30000 --pkts 1 --mix udp=1 \
	--flow-interval-ms 0.001 >/dev/null 2>&1
for path in inline events; do
	name=rx_paced_$path
	tp_pcap_run "$WORK/$name.log" "$WORK/pace.pcap" "$WORK/$name.pcap" \
		--flow-log "$WORK/$name.json" --fwd-mode drop --flows 32768 \
		--timer-tick 1ms --tmo-udp 2ms --packet-path $path \
		--fault-writer-delay-us 300
	rc=$?
	read -r paced created written <<<"$(tp_nums "$WORK/$name.log" \
		rx_paced_polls flows_created records_written)"
	if [ $path = inline ]; then op=gt; else op=eq; fi
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! tp_expect "flows" "$created" eq 30000 ||
	     ! tp_expect "records written" "$written" eq 30000 ||
	     ! tp_expect "log lines" "$(wc -l <"$WORK/$name.json")" eq 30000 ||
	     ! tp_expect "RX polls paced" "$paced" $op 0; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	else
		tp_pass $name
	fi
done

# The flow table's writers (datapath/tp_flow_table.c): one lcore holding
# the RX, worker and control roles (records_direct, lcore 0) makes the
# hash single-writer; RX and worker on lcores of their own (the runs
# above, each exact) keep it multi-writer. Either way the table hands
# out the free slots itself, the last freed first.
name=table_writers
if ! grep -q 'freed slots reused last first, one writer lcore, ' \
	"$WORK/records_direct.log"; then
	tp_fail $name "want one writer lcore with lcore 0 main, RX and" \
		"worker, slots reused last first" "$WORK/records_direct.log"
elif ! grep -q 'freed slots reused last first, several writer lcores, ' \
	"$WORK/rx_held_back_inline.log"; then
	tp_fail $name "want several writer lcores with RX on lcore 0 and" \
		"the worker on lcore 2, slots reused last first" \
		"$WORK/rx_held_back_inline.log"
else
	tp_pass $name
fi

# tp_c_checks NAME PROG [ARGS...]: run the C test tests/PROG of the build
# (tests/pipeline/tp_check.h) as test NAME; it passes when PROG exits 0
# and its result line counts some checks and no failure.
tp_c_checks() {
	local name=$1 prog=$2 bin=$TP_BUILD/tests/$2
	shift 2
	if [ ! -x "$bin" ]; then
		tp_fail $name "$bin not built"
	elif timeout 60 "$bin" "$@" >"$WORK/$name.log" 2>&1 &&
	   grep -q "^$prog: [1-9][0-9]* passed, 0 failed\$" "$WORK/$name.log"
	then
		tp_pass $name
	else
		tp_fail $name \
			"$(grep -c FAIL "$WORK/$name.log") check(s) failed" \
			"$WORK/$name.log"
	fi
}

# Ended flows' slots come back in batches under one RCU token, parked
# when the defer queue is full (datapath/tp_flow_slot.c): none before the
# reader reports, every one after, and out again last first
# (tests/pipeline/flow_slots.c, built by tests/meson.build). Its EAL runtime folder is the suite's (the
# exit removes it): without a prefix, EAL left /var/run/dpdk/rte behind.
tp_c_checks flow_slots flow_slots --no-huge -m 256 --no-shconf --no-pci -l 0 \
	--file-prefix "${TP_PREFIX}_0" --log-level=lib.eal:warning

# RX paced by the record writer (datapath/tp_rx_hold.h): unpaced up to
# the backlog, then as many new flows as the writer took records, shared
# by the RX lcores and capped (tests/pipeline/rx_pace.c, built by
# tests/meson.build).
tp_c_checks rx_pace_credit rx_pace

# RX's new flows spread over the ticks after a late expiry
# (datapath/tp_rx_hold.h): a tick admits the recent average's share, the
# average follows RX and grows while capped, and the spread ends its
# ticks after the last late expiry (tests/pipeline/rx_spread.c, built by
# tests/meson.build).
tp_c_checks rx_spread_share rx_spread

# The flow log's addresses, written by hand: each IPv6 one as inet_ntop()
# writes it, each IPv4 one dotted (tests/pipeline/record_line.c, built by
# tests/meson.build).
tp_c_checks record_line_addrs record_line

# Two ports: l2fwd pairs (0 <-> 1), each capture comes out of the other
# port; with --mac-updating the destination MAC is 02:00:00:00:00:<port>.
$GEN -o "$WORK/p0.pcap" --seed 1 --flows 20 2>/dev/null
$GEN -o "$WORK/p1.pcap" --seed 2 --flows 20 2>/dev/null
for mac in no-mac-updating mac-updating; do
	name=port_pairs_$mac
	tp_eal
	tp_run "$WORK/$name.log" 90 "${EAL[@]}" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$WORK/p0.pcap,tx_pcap=$WORK/$name.0.pcap" \
		"--vdev=net_pcap1,rx_pcap=$WORK/p1.pcap,tx_pcap=$WORK/$name.1.pcap" \
		-- "${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --stop-when-done \
		--$mac
	rc=$?
	if ! tp_clean_exit $rc "$WORK/$name.log"; then
		tp_fail $name "exit status $rc or exactly-once check failed" \
			"$WORK/$name.log"
	elif ! why=$($CHECK pcap-equal "$WORK/p0.pcap" "$WORK/$name.1.pcap" \
		     $([ $mac = mac-updating ] && echo --mac 1) &&
		     $CHECK pcap-equal "$WORK/p1.pcap" "$WORK/$name.0.pcap" \
		     $([ $mac = mac-updating ] && echo --mac 0)); then
		tp_fail $name "$why"
	else
		tp_pass $name
	fi
done

# CSV records: a header and one line per flow.
tp_pcap_run "$WORK/csv.log" "$IN" "$WORK/csv.pcap" \
	--flow-log "$WORK/csv.csv" --flow-log-format csv
rc=$?
nrec=$(python3 -c "import json; print(len(json.load(open('$EXP'))['unpaced']))")
if ! tp_clean_exit $rc "$WORK/csv.log"; then
	tp_fail csv_records "exit status $rc or exactly-once check failed" \
		"$WORK/csv.log"
elif ! head -1 "$WORK/csv.csv" | grep -q '^serial,ip_version,proto,src,sport'
then
	tp_fail csv_records "no CSV header line" "$WORK/csv.log"
elif ! tp_expect_eq "CSV record lines" \
	"$(($(wc -l <"$WORK/csv.csv") - 1))" "$nrec"; then
	tp_fail csv_records "$TP_WHY" "$WORK/csv.log"
else
	tp_pass csv_records
fi

# A full table, evict policy: the oldest idle flows end with "lack of
# resources"; every packet is still forwarded and counted.
$GEN -o "$WORK/many.pcap" --seed 5 --flows 400 --flow-interval-ms 0.01 \
	--mix udp=1 --pkts 4 2>/dev/null
for policy in evict drop; do
	name=table_full_$policy
	log=$WORK/full_$policy.log
	tp_pcap_run "$log" "$WORK/many.pcap" "$WORK/full_$policy.pcap" \
		--flows 64 --table-full $policy \
		--flow-log "$WORK/full_$policy.json"
	rc=$?
	read -r rx fwd full lack <<<"$(tp_nums "$log" rx_pkts forwarded \
		drop_table_full ended_lack_of_resources)"
	if ! tp_clean_exit $rc "$log"; then
		tp_fail $name "exit $rc / check failed" "$log"
	elif [ "$policy" = evict ] &&
	     ! { tp_expect "lack_of_resources ends" "$lack" gt 0 &&
		 tp_expect_eq "forwarded (rx $rx)" "$fwd" "$rx"; }; then
		tp_fail $name "$TP_WHY" "$log"
	elif [ "$policy" = drop ] &&
	     ! { tp_expect "table_full drops" "$full" gt 0 &&
		 tp_numbers forwarded="$fwd" &&
		 tp_expect_eq "forwarded $fwd + table_full $full" \
			"$((fwd + full))" "$rx"; }; then
		tp_fail $name "$TP_WHY" "$log"
	else
		tp_pass $name
	fi
done

# stage_cycles: in a build with -Dstage_cycles=true (meson-info says), the
# records_direct run's summary counts every stage it ran, in cycles and in
# calls that match the counters; without the option it is null.
stage_opt=$(python3 -c 'import json, sys
for o in json.load(open(sys.argv[1])):
    if o["name"] == "stage_cycles":
        print(str(o["value"]).lower())' \
	"$TP_BUILD/meson-info/intro-buildoptions.json" 2>/dev/null)
if ! why=$(python3 - "$(tp_sum_path "$WORK/records_direct.log")" \
	"${stage_opt:-false}" 2>&1 <<'EOF_PY'
import json, sys
doc = json.load(open(sys.argv[1]))
st, c = doc.get("stage_cycles", "missing"), doc["counters"]
if sys.argv[2] != "true":
    sys.exit(0 if st is None else "built without stage_cycles: %r" % (st,))
if not isinstance(st, dict):
    sys.exit("built with stage_cycles, summary has %r" % (st,))
rows = st["stages"]
for name, r in rows.items():
    if (r["calls"] > 0) != (r["cycles"] > 0):
        sys.exit("%s: %d calls, %d cycles" % (name, r["calls"], r["cycles"]))
for name in ("rx_read", "parse", "table_insert", "arm", "event_enqueue",
             "worker_packets", "record_encode", "record_write",
             "expiry_adapter_service"):
    if rows[name]["calls"] == 0:
        sys.exit("%s did not run" % name)
armed = c["timers_armed"] + c["timers_arm_failures"]
checks = [("rx_read calls", rows["rx_read"]["calls"], "==", c["rx_pkts"]),
          ("parse calls", rows["parse"]["calls"], "==", c["rx_pkts"]),
          ("arm calls", rows["arm"]["calls"], "==", armed),
          ("arm calls", rows["arm"]["calls"], ">=", c["flows_created"]),
          ("flow_end calls", rows["flow_end"]["calls"], "==",
           c["timers_expired"]),
          ("record_encode calls", rows["record_encode"]["calls"], "==",
           c["records_written"])]
for what, a, op, b in checks:
    if not (a == b if op == "==" else a >= b):
        sys.exit("%s %d %s %d is false" % (what, a, op, b))
EOF_PY
); then
	tp_fail stage_cycles "$why"
else
	tp_pass stage_cycles
fi

tp_result
