#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Scans and floods, where every packet is a new flow (tools/gen_pcap.py
# --syn-scan, --udp-flood), end to end:
# - a SYN scan answered by RSTs, table large enough: the records are
#   exactly the generator's model (every flow ends as end_of_flow);
# - a SYN scan and a UDP flood of 10x the table size (--flows 1024, 10,240
#   one-packet flows read at once), both table-full policies: every flow
#   of the capture is in exactly one record or its packet is a table_full
#   drop, each record equal to its flow in the model (key, packets, bytes,
#   flags; the end reason the model's or, for an evicted flow,
#   lack_of_resources); evict: every flow has its record and some were
#   evicted, no table_full drop; drop: the table's flows have records,
#   the rest are table_full drops, nothing evicted; exactly-once check.
#
#     tests/pipeline/churn.sh BUILD_DIR

SUITE=churn
. "$(dirname "$0")/lib.sh"

TABLE=1024
FLOOD=$((10 * TABLE))

# flood_check FLOWLOG MODEL.json POLICY TABLE_FULL_DROPS: the records
# against the model (see the top); prints why and fails otherwise.
flood_check() {
	python3 - "$@" <<'PYEOF'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["TP_SRC"], "tools"))
import tplib
log, model, policy, full = sys.argv[1], sys.argv[2], sys.argv[3], \
    int(sys.argv[4])
KEY = ("ip_version", "proto", "src", "sport", "dst", "dport", "vlan",
       "vlan_inner")
VAL = ("packets_fwd", "bytes_fwd", "packets_rev", "bytes_rev",
       "tcp_flags_fwd", "tcp_flags_rev")
want = {tuple(r[k] for k in KEY): r for r in json.load(open(model))["unpaced"]}
got = tplib.read_jsonl(log)
seen = set()
lack = 0
for r in got:
    k = tuple(r[x] for x in KEY)
    if k in seen:
        sys.exit("two records for %s" % (k,))
    seen.add(k)
    m = want.get(k)
    if m is None:
        sys.exit("a record of no flow of the capture: %s" % (k,))
    if any(r[v] != m[v] for v in VAL):
        sys.exit("record %s: %s, want %s" % (
            k, [r[v] for v in VAL], [m[v] for v in VAL]))
    if r["end_reason"] == "lack_of_resources":
        lack += 1
    elif r["end_reason"] != m["end_reason"]:
        sys.exit("record %s ends as %s, want %s or lack_of_resources" %
                 (k, r["end_reason"], m["end_reason"]))
n = len(want)
if policy == "evict":
    if len(got) != n or full != 0 or lack == 0:
        sys.exit("evict: %d records of %d flows, %d table_full drops, %d "
                 "evicted (want all, 0, > 0)" % (len(got), n, full, lack))
else:
    if len(got) + full != n or full == 0 or lack != 0:
        sys.exit("drop: %d records + %d table_full drops != %d flows, or "
                 "%d evicted (want 0)" % (len(got), full, n, lack))
print("%d records, %d evicted, %d table_full drops, %d flows" %
      (len(got), lack, full, n))
PYEOF
}
export TP_SRC

# --- a SYN scan answered by RSTs: the model's records ----------------------------

name=syn_scan_rst_records
n=$(tp_gen_expect "$WORK/rst.pcap" "$WORK/rst.json" --syn-scan rst \
	--flows 2000 --flow-interval-ms 0.01 --gap-ms 0.1-1)
log=$WORK/$name.log
tp_pcap_run "$log" "$WORK/rst.pcap" "$WORK/$name.out.pcap" \
	--flow-log "$WORK/$name.json"
rc=$?
if ! tp_clean_exit $rc "$log"; then
	tp_fail $name "exit status $rc or exactly-once check failed" "$log"
elif ! tp_expect_eq "rx" "$(tp_num "$log" rx_pkts)" "$n" ||
     ! tp_expect_eq "end_of_flow" "$(tp_num "$log" ended_end_of_flow)" 2000
then
	tp_fail $name "$TP_WHY" "$log"
elif ! why=$($CHECK records "$WORK/$name.json" "$WORK/rst.json" \
	     --mode unpaced); then
	tp_fail $name "$why" "$log"
else
	tp_pass $name
fi

# --- floods of 10x the table -------------------------------------------------

tp_gen_expect "$WORK/syn.pcap" "$WORK/syn.json" --syn-scan none \
	--flows $FLOOD --flow-interval-ms 0.001 >/dev/null
tp_gen_expect "$WORK/udp.pcap" "$WORK/udp.json" --udp-flood \
	--flows $FLOOD --size 64-128 --flow-interval-ms 0.001 >/dev/null
for cap in syn udp; do
	for policy in evict drop; do
		name=${cap}_flood_table_full_$policy
		log=$WORK/$name.log
		tp_pcap_run "$log" "$WORK/$cap.pcap" "$WORK/$name.out.pcap" \
			--flows $TABLE --table-full $policy \
			--flow-log "$WORK/$name.json"
		rc=$?
		if ! tp_clean_exit $rc "$log"; then
			tp_fail $name "exit status $rc or exactly-once check \
failed" "$log"
		elif ! tp_balanced "$log" ||
		     ! tp_expect_eq "rx" "$(tp_num "$log" rx_pkts)" $FLOOD; then
			tp_fail $name "$TP_WHY" "$log"
		elif ! why=$(flood_check "$WORK/$name.json" "$WORK/$cap.json" \
			     $policy "$(tp_num "$log" drop_table_full)"); then
			tp_fail $name "$why" "$log"
		else
			echo "    $name: $why"
			tp_pass $name
		fi
	done
done

tp_result
