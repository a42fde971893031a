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
#                         RX enqueues are refused (counted, retried, no
#                         packet or mbuf lost), expiry events still arrive.
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
# starts a new flow.
for ad in skiplist rte; do
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
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	if [ "${armfail:-0}" -eq 0 ]; then
		tp_fail "$name" "no arm failure with 256 timers" "$log"
	elif [ "$armfail" -ne "$lack" ] || [ "$nlack" -ne "$lack" ]; then
		tp_fail "$name" "arm failures $armfail, lack_of_resources ends $lack, records $nlack" "$log"
	elif [ "$rx" -ne "$MANY_PKTS" ] || [ "$fwd" -ne "$rx" ] ||
	     [ "$npkts" -ne "$rx" ]; then
		tp_fail "$name" "rx $rx fwd $fwd, packets in records $npkts" "$log"
	else
		tp_pass "$name"
	fi
done

# 1b. Flow table full under load: net_pcap replays the 2000 flows forever
# into a 64-flow table. evict: live flows end as lack_of_resources to make
# room; drop: the packets of new flows are dropped as table_full. Every
# packet attached to a flow is in a record; the rest are counted drops.
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
	lack=$(tp_named "$log" flows lack_of_resources)
	read -r nrec npkts nlack <<<"$(records_sum "$json")"
	if [ "$policy" = evict ] && { [ "${lack:-0}" -eq 0 ] ||
	     [ "$full" -ne 0 ] || [ "$npkts" -ne "$rx" ]; }; then
		tp_fail "$name" "rx $rx evicted $lack table_full $full, packets in records $npkts" "$log"
	elif [ "$policy" = drop ] && { [ "${full:-0}" -eq 0 ] ||
	     [ $((npkts + full)) -ne "$rx" ]; }; then
		tp_fail "$name" "rx $rx table_full $full, packets in records $npkts" "$log"
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

# 1d. Slow workers (each spins 300 us per burst) behind a small event
# device, timers of 20 ms on 1 ms ticks, net_pcap replaying forever: RX
# enqueues are refused and retried (counted), the adapter keeps expiry
# events it cannot enqueue and retries them (none lost: the exit check
# compares the adapter's expiries with the workers'), and no mbuf leaks.
for ad in skiplist rte; do
	name=slow_worker_backpressure_$ad
	log=$WORK/$name.log
	tp_eal
	tp_run "$log" 60 "${EAL[@]}" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$MANY,infinite_rx=1" -- \
		--tmo-udp 20ms --tmo-active 1s --timer-tick 1ms -T 0 \
		--flows 4096 --events 1024 --timer-adapter $ad \
		--fault-worker-delay-us 300 --fwd-mode drop --duration 3
	rc=$?
	HELD=$MANY_PKTS
	accounted "$name" "$log" $rc || { HELD=0; continue; }
	HELD=0
	retries=$(tp_named "$log" events enqueue_retries)
	aexp=$(tp_named "$log" events adapter_expiries)
	exp=$(tp_stat "$log" timers 3)
	idle=$(tp_named "$log" flows idle_timeout)
	if [ "${retries:-0}" -eq 0 ]; then
		tp_fail "$name" "no enqueue was refused" "$log"
	elif [ "${idle:-0}" -eq 0 ] || [ "$aexp" -ne "$exp" ]; then
		tp_fail "$name" "idle ends $idle, adapter expiries $aexp, processed $exp" "$log"
	else
		tp_pass "$name"
	fi
done

tp_result
