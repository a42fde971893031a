#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Fault injection: each fault is provoked, counted where the pipeline (or
# the PMD) sees it, and survived, and the exactly-once accounting holds at
# exit: flows created == ended + live, timers armed == expired + cancelled
# + pending, packets rx == forwarded + dropped (every drop under a reason)
# + in flight, and every mbuf is back in the pool.
#
#   timer pool exhausted  --timers below the live flows (both adapters):
#                         each failed arm is counted and its flow ends at
#                         once as lack_of_resources, with a record;
#   flow table full       --flows below the live flows, under load, evict
#                         and drop policies;
#   mbuf pool exhausted   a tiny --mbufs: the PMD's rx_nombuf is shown,
#                         and what it lost is all that is missing;
#   slow workers          --fault-worker-delay-us: the event device fills,
#                         RX enqueues are refused (counted, retried for
#                         50 ms of RX's own CPU time while the scheduler
#                         runs, then dropped as evdev_full: flow
#                         references released, no mbuf lost), expiry
#                         events still arrive;
#   stop during a pace    --replay-pace, stopped in a long capture gap:
#                         the packets RX holds until they are due are
#                         counted as received and dropped ("shutdown").
#
#     tests/pipeline/faults.sh BUILD_DIR

SUITE=faults
. "$(dirname "$0")/lib.sh"

# 2000 UDP flows starting within 20 ms, 4 packets each: all live at once.
MANY=$WORK/many.pcap
$GEN -o "$MANY" --seed 5 --flows 2000 --flow-interval-ms 0.01 \
	--mix udp=1 --pkts 4 2>/dev/null
MANY_PKTS=8000
# 5000 such flows of 8 packets, for the mbuf pool.
BIG=$WORK/big.pcap
$GEN -o "$BIG" --seed 9 --flows 5000 --flow-interval-ms 0.01 \
	--mix udp=1 --pkts 8 2>/dev/null
BIG_PKTS=40000

# records_sum JSON: "records packets" of a flow log (packets of all flows).
records_sum() {
	python3 - "$1" <<'EOF'
import json, sys
n = p = 0
reasons = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    n += 1
    p += r["packets_fwd"] + r["packets_rev"]
    reasons[r["end_reason"]] = reasons.get(r["end_reason"], 0) + 1
print(n, p, reasons.get("lack_of_resources", 0))
EOF
}

# fault_run NAME VDEV-ARGS APP-ARGS...: case NAME's run on event_sw and
# net_pcap0 (VDEV-ARGS: rx_pcap=...), with its flow log; sets name, log,
# json and rc (the exit status).
fault_run() {
	name=$1
	log=$WORK/$name.log
	json=$WORK/$name.json
	local vdev=$2
	shift 2
	tp_eal
	tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 "--vdev=net_pcap0,$vdev" \
		-- "$@" --flow-log "$json"
	rc=$?
}

# accounted CASE LOG RC [JSON]: clean exit, the exactly-once check passed,
# no mbuf left out of the pool except those a PMD holds ($HELD), and, with
# a flow log, one record per flow created.
HELD=0
accounted() {
	local name=$1 log=$2 rc=$3 json=${4:-} created inuse
	if ! tp_clean_exit "$rc" "$log"; then
		tp_fail "$name" "exit status $rc or exactly-once check failed" "$log"
		return 1
	fi
	read -r inuse created <<<"$(tp_nums "$log" mbufs_in_use flows_created)"
	if ! tp_expect_eq "mbufs in use at exit" "$inuse" "$HELD"; then
		tp_fail "$name" "$TP_WHY" "$log"
		return 1
	fi
	if [ -n "$json" ] && ! tp_expect_eq "records for $created flows" \
		"$(wc -l <"$json")" "$created"; then
		tp_fail "$name" "$TP_WHY" "$log"
		return 1
	fi
	return 0
}

# 1a. Timer pool exhausted: 256 timers for 2000 live flows. The adapter
# refuses arms (ENOSPC); every refused arm is counted, and its flow ends at
# once as lack_of_resources, its packet counted and forwarded: no flow is
# left without a timer, so none can leak. The next packet of the same key
# starts a new flow. RX reads the capture faster than the worker drains
# it: should the event device stay full past RX's retry (a busy machine),
# the rest of a burst is dropped as evdev_full and a flow its dropped
# packet created ends as lack_of_resources too; every other packet is
# forwarded and in a record.
for ad in direct rte; do
	name=timer_pool_exhausted_$ad
	log=$WORK/$name.log
	json=$WORK/$name.json
	tp_pcap_run "$log" "$MANY" "$WORK/$name.pcap" --timers 256 \
		--timer-adapter $ad --flow-log "$json"
	rc=$?
	accounted "$name" "$log" $rc "$json" || continue
	read -r armfail lack rx fwd drop full <<<"$(tp_nums "$log" \
		timers_arm_failures ended_lack_of_resources rx_pkts forwarded \
		dropped drop_evdev_full)"
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: rx $rx forwarded $fwd dropped $drop (evdev_full" \
		"$full), arm failures $armfail, lack_of_resources $lack"
	# Without evdev_full drops, every lack_of_resources end is an arm
	# failure; with them, some are flows a dropped packet created.
	want_lack=$armfail
	[ "$full" = 0 ] || want_lack=$lack
	if ! tp_expect "arm failures with 256 timers" "$armfail" gt 0 ||
	   ! tp_expect_eq "lack_of_resources records" "$nlack" "$lack" ||
	   ! tp_expect "arm failures vs lack_of_resources ends $lack" \
		"$armfail" le "$lack" ||
	   ! tp_expect_eq "lack_of_resources ends (evdev_full $full)" \
		"$lack" "$want_lack"; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_expect_eq "rx" "$rx" "$MANY_PKTS" ||
	     ! tp_expect_eq "dropped (all evdev_full)" "$drop" "$full" ||
	     ! tp_numbers forwarded="$fwd" ||
	     ! tp_expect_eq "forwarded $fwd + evdev_full $full" \
		"$((fwd + full))" "$rx" ||
	     ! tp_expect_eq "packets in records" "$npkts" "$fwd"; then
		tp_fail "$name" "$TP_WHY" "$log"
	else
		tp_pass "$name"
	fi
done

# 1b. Flow table full under load: net_pcap replays the 2000 flows forever
# into a 64-flow table. evict: live flows end as lack_of_resources to make
# room; drop: the packets of new flows are dropped as table_full. Every
# packet attached to a flow is in a record; the rest are counted drops
# (table_full, and, RX being faster than the worker, evdev_full, and
# shutdown for a burst RX held when --duration stopped it).
for policy in evict drop; do
	fault_run flow_table_full_$policy "rx_pcap=$MANY,infinite_rx=1" \
		"${TMO_ARGS[@]}" -T 0 --flows 64 --table-full $policy \
		--duration 2
	HELD=$MANY_PKTS
	accounted "$name" "$log" $rc "$json" || { HELD=0; continue; }
	HELD=0
	read -r rx full evfull shut lack <<<"$(tp_nums "$log" rx_pkts \
		drop_table_full drop_evdev_full drop_shutdown \
		ended_lack_of_resources)"
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: rx $rx, packets in records $npkts, table_full $full" \
		"evdev_full $evfull shutdown $shut"
	if ! tp_numbers table_full="$full" evdev_full="$evfull" \
		shutdown="$shut" ||
	   ! tp_expect_eq "packets in records $npkts + table_full $full + evdev_full $evfull + shutdown $shut" \
		"$((npkts + full + evfull + shut))" "$rx"; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif [ "$policy" = evict ] &&
	     ! { tp_expect "lack_of_resources ends" "$lack" gt 0 &&
		 tp_expect_eq "table_full drops" "$full" 0; }; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif [ "$policy" = drop ] &&
	     ! tp_expect "table_full drops" "$full" gt 0; then
		tp_fail "$name" "$TP_WHY" "$log"
	else
		tp_pass "$name"
	fi
done

# 1c. Mbuf pool exhausted: 512 mbufs for 4096 events in flight (packets
# as events: on the inline path RX frees each packet at once). net_pcap
# fails to allocate, counts rx_nombuf and loses the packet it had read;
# the pipeline shows the PMD's count, keeps running, and every packet of
# the capture is either received or one of those.
fault_run mbuf_pool_exhausted "rx_pcap=$BIG" "${TMO_ARGS[@]}" -T 0 \
	--flows 16384 --mbufs 512 --fwd-mode drop --packet-path events \
	--stop-when-done
if accounted "$name" "$log" $rc "$json"; then
	read -r rx ipk nombuf <<<"$(tp_nums "$log" rx_pkts port_ipackets \
		port_rx_nombuf)"
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	if ! tp_expect "rx_nombuf with 512 mbufs" "$nombuf" gt 0; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_expect_eq "port ipackets" "$ipk" "$rx" ||
	     ! tp_numbers ipackets="$ipk" ||
	     ! tp_expect_eq "ipackets $ipk + rx_nombuf $nombuf" \
		"$((ipk + nombuf))" $BIG_PKTS ||
	     ! tp_expect_eq "packets in records" "$npkts" "$rx"; then
		tp_fail "$name" "$TP_WHY" "$log"
	else
		tp_pass "$name"
	fi
fi

# 1d. Slow workers (each spins 20 ms per burst, so the device stays full
# past RX's 50-ms retry; the combined RX and worker lcore spends that time
# in its own worker role, which counts) behind a small event device (256
# events; event_sw can starve a port of credits below about 128), timers
# of 20 ms on 1 ms
# ticks, net_pcap replaying forever: RX enqueues are refused and retried
# (counted), then what is left of a burst is dropped as evdev_full, its
# flow references released (a flow its dropped packet created ends as
# lack_of_resources); the adapter keeps expiry events it cannot enqueue
# and retries them (none lost: the exit check compares the adapter's
# expiries with the workers'), and no mbuf leaks. Every packet that reached a worker is in a flow record; the rest
# are drops by reason: rx == forwarded + dropped.
for ad in direct rte; do
	fault_run slow_worker_backpressure_$ad "rx_pcap=$MANY,infinite_rx=1" \
		--tmo-udp 20ms --tmo-active 1s --timer-tick 1ms -T 0 \
		--flows 4096 --events 256 --timer-adapter $ad \
		--fault-worker-delay-us 20000 --fwd-mode drop --duration 3 \
		--packet-path events
	HELD=$MANY_PKTS
	accounted "$name" "$log" $rc "$json" || { HELD=0; continue; }
	HELD=0
	read -r retries aexp exp idle full fwdd rx fwd drop shut \
		<<<"$(tp_nums "$log" enqueue_retries adapter_expiries \
		timers_expired ended_idle_timeout drop_evdev_full \
		drop_fwd_drop rx_pkts forwarded dropped drop_shutdown)"
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: rx $rx forwarded $fwd dropped $drop" \
		"(fwd_drop $fwdd evdev_full $full shutdown $shut)," \
		"retries $retries"
	if ! tp_expect "enqueue retries" "$retries" gt 0 ||
	   ! tp_expect "evdev_full drops" "$full" gt 0; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_numbers forwarded="$fwd" dropped="$drop" ||
	     ! tp_expect_eq "forwarded $fwd + dropped $drop" \
		"$((fwd + drop))" "$rx" ||
	     ! tp_expect_eq "packets in records (processed: fwd_drop)" \
		"$npkts" "$fwdd"; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_expect "idle_timeout ends" "$idle" gt 0 ||
	     ! tp_expect_eq "adapter expiries (processed $exp)" \
		"$aexp" "$exp"; then
		tp_fail "$name" "$TP_WHY" "$log"
	else
		tp_pass "$name"
	fi
done

# 1e. --events far below what event_sw's ports can hoard (up to 96 credits
# each): the limit is raised with a warning, so expiry events never wait
# for credits that other ports keep; with slow workers the run still ends
# cleanly with every expiry processed.
fault_run tiny_events "rx_pcap=$MANY,infinite_rx=1" \
	--tmo-udp 20ms --tmo-active 1s --timer-tick 1ms -T 0 \
	--flows 4096 --events 64 --fault-worker-delay-us 2000 \
	--packet-path events \
	--fwd-mode drop --duration 3
HELD=$MANY_PKTS
if accounted "$name" "$log" $rc "$json"; then
	read -r aexp exp <<<"$(tp_nums "$log" adapter_expiries \
		timers_expired)"
	if ! grep -q -- '--events 64 raised to' "$log"; then
		tp_fail "$name" "no warning that --events was raised" "$log"
	elif ! tp_expect "adapter expiries" "$aexp" gt 0 ||
	     ! tp_expect_eq "adapter expiries (processed $exp)" \
		"$aexp" "$exp"; then
		tp_fail "$name" "$TP_WHY" "$log"
	else
		echo "    $name: adapter expiries $aexp == processed $exp"
		tp_pass "$name"
	fi
fi
HELD=0

# 1e. Stop during a paced replay: 20 flows whose second half comes after a
# 60-s gap, --replay-pace, stopped by --duration 2 in the gap. RX has read
# a burst past the gap and holds it until it is due; at the stop those
# packets are received and dropped as "shutdown": the PMD's ipackets ==
# rx == forwarded + dropped, and the mbufs are back in the pool.
GAP=$WORK/gap.pcap
$GEN -o "$GAP" --seed 3 --flows 20 --mix udp=1 --pkts 6 --gap-ms 1-5 \
	--flow-interval-ms 5 --idle-gap-pct 100 --idle-gap-ms 60000 2>/dev/null
name=paced_stop_in_gap
log=$WORK/$name.log
json=$WORK/$name.json
tp_pcap_run "$log" "$GAP" "$WORK/$name.pcap" --replay-pace --duration 2 \
	--flow-log "$json"
rc=$?
if accounted "$name" "$log" $rc "$json"; then
	read -r rx fwd drop shut ipk <<<"$(tp_nums "$log" rx_pkts forwarded \
		dropped drop_shutdown port_ipackets)"
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: ipackets $ipk rx $rx forwarded $fwd dropped $drop" \
		"(shutdown $shut)"
	if ! tp_expect "stashed packets dropped at the stop (shutdown)" \
		"$shut" gt 0; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_expect_eq "port ipackets" "$ipk" "$rx" ||
	     ! tp_numbers forwarded="$fwd" dropped="$drop" ||
	     ! tp_expect_eq "forwarded $fwd + dropped $drop" \
		"$((fwd + drop))" "$rx" ||
	     ! tp_expect_eq "packets in records" "$npkts" "$fwd"; then
		tp_fail "$name" "$TP_WHY" "$log"
	else
		tp_pass "$name"
	fi
fi

tp_result
