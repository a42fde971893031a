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
#                         50 ms, then dropped as evdev_full: flow
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
	inuse=$(tp_named "$log" mbufs in_use)
	if [ "${inuse:-x}" != "$HELD" ]; then
		tp_fail "$name" "mbufs in use at exit: ${inuse:-none}, want $HELD" "$log"
		return 1
	fi
	created=$(tp_named "$log" flows created)
	if [ -n "$json" ] && [ "$(wc -l <"$json")" -ne "$created" ]; then
		tp_fail "$name" "$(wc -l <"$json") records for $created flows" "$log"
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
	armfail=$(tp_named "$log" timers failures)
	lack=$(tp_named "$log" flows lack_of_resources)
	rx=$(tp_stat "$log" rx 1)
	fwd=$(tp_stat "$log" tx 1)
	drop=$(tp_stat "$log" tx 2)
	full=$(tp_named "$log" tx evdev_full)
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: rx $rx forwarded $fwd dropped $drop (evdev_full" \
		"$full), arm failures $armfail, lack_of_resources $lack"
	if [ "${armfail:-0}" -eq 0 ]; then
		tp_fail "$name" "no arm failure with 256 timers" "$log"
	elif [ "$nlack" -ne "$lack" ] || [ "$armfail" -gt "$lack" ] ||
	     { [ "${full:-x}" -eq 0 ] && [ "$armfail" -ne "$lack" ]; }; then
		tp_fail "$name" "arm failures $armfail, lack_of_resources ends $lack, records $nlack, evdev_full $full" "$log"
	elif [ "$rx" -ne "$MANY_PKTS" ] || [ "$drop" -ne "$full" ] ||
	     [ $((fwd + full)) -ne "$rx" ] || [ "$npkts" -ne "$fwd" ]; then
		tp_fail "$name" "rx $rx fwd $fwd evdev_full $full of $drop drops, packets in records $npkts" "$log"
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
	name=flow_table_full_$policy
	log=$WORK/$name.log
	json=$WORK/$name.json
	tp_eal
	tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$MANY,infinite_rx=1" -- \
		"${TMO_ARGS[@]}" -T 0 --flows 64 --table-full $policy \
		--duration 2 --flow-log "$json"
	rc=$?
	HELD=$MANY_PKTS
	accounted "$name" "$log" $rc "$json" || { HELD=0; continue; }
	HELD=0
	rx=$(tp_stat "$log" rx 1)
	full=$(tp_named "$log" tx table_full)
	evfull=$(tp_named "$log" tx evdev_full)
	shut=$(tp_named "$log" tx shutdown)
	lack=$(tp_named "$log" flows lack_of_resources)
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: rx $rx, packets in records $npkts, table_full $full" \
		"evdev_full $evfull shutdown $shut"
	if [ -z "$evfull" ] || [ -z "$shut" ] ||
	   [ $((npkts + full + evfull + shut)) -ne "$rx" ]; then
		tp_fail "$name" "rx $rx != packets in records $npkts + table_full $full + evdev_full $evfull + shutdown $shut" "$log"
	elif [ "$policy" = evict ] && { [ "${lack:-0}" -eq 0 ] ||
	     [ "$full" -ne 0 ]; }; then
		tp_fail "$name" "rx $rx evicted $lack table_full $full" "$log"
	elif [ "$policy" = drop ] && [ "${full:-0}" -eq 0 ]; then
		tp_fail "$name" "rx $rx table_full $full" "$log"
	else
		tp_pass "$name"
	fi
done

# 1c. Mbuf pool exhausted: 512 mbufs for 4096 events in flight. net_pcap
# fails to allocate, counts rx_nombuf and loses the packet it had read;
# the pipeline shows the PMD's count, keeps running, and every packet of
# the capture is either received or one of those.
name=mbuf_pool_exhausted
log=$WORK/$name.log
json=$WORK/$name.json
tp_eal
tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$BIG" -- "${TMO_ARGS[@]}" -T 0 \
	--flows 16384 --mbufs 512 --fwd-mode drop --stop-when-done \
	--flow-log "$json"
rc=$?
if accounted "$name" "$log" $rc "$json"; then
	rx=$(tp_stat "$log" rx 1)
	ipk=$(tp_named "$log" ports ipackets)
	nombuf=$(tp_named "$log" ports rx_nombuf)
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	if [ "${nombuf:-0}" -eq 0 ]; then
		tp_fail "$name" "no rx_nombuf with 512 mbufs" "$log"
	elif [ "$ipk" -ne "$rx" ] || [ $((ipk + nombuf)) -ne $BIG_PKTS ] ||
	     [ "$npkts" -ne "$rx" ]; then
		tp_fail "$name" "ipackets $ipk + rx_nombuf $nombuf != $BIG_PKTS, rx $rx, packets in records $npkts" "$log"
	else
		tp_pass "$name"
	fi
fi

# 1d. Slow workers (each spins 20 ms per burst, so the device stays full
# past RX's 50-ms retry) behind a small event device (256 events; event_sw
# can starve a port of credits below about 128), timers of 20 ms on 1 ms
# ticks, net_pcap replaying forever: RX enqueues are refused and retried
# (counted), then what is left of a burst is dropped as evdev_full, its
# flow references released (a flow its dropped packet created ends as
# lack_of_resources); the adapter keeps expiry events it cannot enqueue
# and retries them (none lost: the exit check compares the adapter's
# expiries with the workers'), and no mbuf leaks. Every packet that reached a worker is in a flow record; the rest
# are drops by reason: rx == forwarded + dropped.
for ad in direct rte; do
	name=slow_worker_backpressure_$ad
	log=$WORK/$name.log
	json=$WORK/$name.json
	tp_eal
	tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$MANY,infinite_rx=1" -- \
		--tmo-udp 20ms --tmo-active 1s --timer-tick 1ms -T 0 \
		--flows 4096 --events 256 --timer-adapter $ad \
		--fault-worker-delay-us 20000 --fwd-mode drop --duration 3 \
		--flow-log "$json"
	rc=$?
	HELD=$MANY_PKTS
	accounted "$name" "$log" $rc "$json" || { HELD=0; continue; }
	HELD=0
	retries=$(tp_named "$log" events enqueue_retries)
	aexp=$(tp_named "$log" events adapter_expiries)
	exp=$(tp_stat "$log" timers 3)
	idle=$(tp_named "$log" flows idle_timeout)
	full=$(tp_named "$log" tx evdev_full)
	fwdd=$(tp_named "$log" tx fwd_drop)
	rx=$(tp_stat "$log" rx 1)
	fwd=$(tp_stat "$log" tx 1)
	drop=$(tp_stat "$log" tx 2)
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: rx $rx forwarded $fwd dropped $drop" \
		"(fwd_drop $fwdd evdev_full $full" \
		"shutdown $(tp_named "$log" tx shutdown)), retries $retries"
	if [ "${retries:-0}" -eq 0 ] || [ "${full:-0}" -eq 0 ]; then
		tp_fail "$name" "enqueue retries ${retries:-none}, evdev_full drops ${full:-none}" "$log"
	elif [ "$rx" -ne $((fwd + drop)) ] || [ "$npkts" -ne "$fwdd" ]; then
		tp_fail "$name" "rx $rx != forwarded $fwd + dropped $drop, or packets in records $npkts != processed $fwdd" "$log"
	elif [ "${idle:-0}" -eq 0 ] || [ "$aexp" -ne "$exp" ]; then
		tp_fail "$name" "idle ends $idle, adapter expiries $aexp, processed $exp" "$log"
	else
		tp_pass "$name"
	fi
done

# 1e. --events far below what event_sw's ports can hoard (up to 96 credits
# each): the limit is raised with a warning, so expiry events never wait
# for credits that other ports keep; with slow workers the run still ends
# cleanly with every expiry processed.
name=tiny_events
log=$WORK/$name.log
json=$WORK/$name.json
tp_eal
tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$MANY,infinite_rx=1" -- \
	--tmo-udp 20ms --tmo-active 1s --timer-tick 1ms -T 0 \
	--flows 4096 --events 64 --fault-worker-delay-us 2000 \
	--fwd-mode drop --duration 3 --flow-log "$json"
rc=$?
HELD=$MANY_PKTS
if accounted "$name" "$log" $rc "$json"; then
	aexp=$(tp_named "$log" events adapter_expiries)
	exp=$(tp_stat "$log" timers 3)
	if ! grep -q -- '--events 64 raised to' "$log"; then
		tp_fail "$name" "no warning that --events was raised" "$log"
	elif [ -z "$aexp" ] || [ "$aexp" -eq 0 ] || [ "$aexp" != "$exp" ]; then
		tp_fail "$name" "adapter expiries $aexp, processed $exp" "$log"
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
	rx=$(tp_stat "$log" rx 1)
	fwd=$(tp_stat "$log" tx 1)
	drop=$(tp_stat "$log" tx 2)
	shut=$(tp_named "$log" tx shutdown)
	ipk=$(tp_named "$log" ports ipackets)
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	echo "    $name: ipackets $ipk rx $rx forwarded $fwd dropped $drop" \
		"(shutdown $shut)"
	if [ "${shut:-0}" -eq 0 ]; then
		tp_fail "$name" "no stashed packet dropped at the stop" "$log"
	elif [ "$ipk" -ne "$rx" ] || [ "$rx" -ne $((fwd + drop)) ] ||
	     [ "$npkts" -ne "$fwd" ]; then
		tp_fail "$name" "ipackets $ipk, rx $rx, forwarded $fwd + dropped $drop, packets in records $npkts" "$log"
	else
		tp_pass "$name"
	fi
fi

tp_result
