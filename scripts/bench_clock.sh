#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Aging a capture fast and right (issue 31, target 1): timer_pipeline
# --clock capture against softflowd -r and nfdump's nfpcapd -r, on two
# generator captures, repetitions interleaved:
#
#   long     conversations starting evenly over an hour of capture time
#            (default 1,000,000 over 3600 s; 2-4 data packets, 10-500 ms
#            apart); 20 % of them pause 12 s, past their 5-s idle timeout,
#            so the model splits them in two records. Pipeline --flows
#            262144 (the live flows are a few thousand).
#   synscan  a SYN scan: 1,000,000 flows of one packet each, 1 us apart
#            (gen_pcap.py --syn-scan none), never answered: every record
#            ends by the 5-s idle timeout, after the capture's end.
#            Pipeline --flows 1100000: its table holds them all.
#
#   bash scripts/bench_clock.sh [--dpdk VERSION] [--quick] [--reps N]
#        [--flows N] [--span-s S] [--scan-flows N] [--prepare]
#
#   full:   3 repetitions of 1M-flow captures (the captures are written
#           once to $BENCH_CAPTURES, default BUILD_DIR/bench-captures,
#           each with its model: the long one ~2 min, 1.3 GB + 0.8 GB;
#           the scan ~1 min, 70 MB + 0.7 GB)
#   quick:  1 repetition; 100,000 conversations over 3600 s (the
#           capture of docs/bench/clock.json's run) and a 100,000-flow
#           scan (pipeline --flows 110000): about a minute on 2 CPUs
#   --prepare: only write the captures.
#
# Every repetition runs each tool once on each case, in turn (the order
# of the three tools rotates from one repetition to the next), each after
# a sync: no writeback of an earlier run's files (up to 2 GB of output and
# read-backs per round) runs during its time. Wall time
# is from start to exit, start-up and the last record included; a run is
# stopped after 1800 s (quick: 300 s; the pipeline by one SIGINT) and
# its exit status shows in the table. A pipeline rebuilt during the run
# is reported (its sha256 before and after). First, after 15 s idle,
# what a fresh page of $TMPDIR costs (tools/bench_pages.py probe: on a
# VM that gives freed memory back to its host, far more than a page it
# used lately); with each tool's output bytes, the report says what
# fresh pages would add to each. Per tool
# and case the table gives the median and the spread (min-max) over the
# repetitions, and the ratio pipeline / fastest other (the one of softflowd
# and nfpcapd with the lower median; per repetition, the pipeline's time
# over its time in the same repetition: median and min-max). Targets:
# long, the pipeline takes at most half the time (ratio <= 0.5); synscan,
# the pipeline is faster (ratio < 1); each only with the pipeline's
# records exactly the model's (times included). During each run,
# tools/cpu_hop samples how far apart the two CPUs are; the report also
# gives the times and ratios of the runs made with the CPUs near and of
# those made with them far (a VM's host moves its vCPUs; docs/bench.rst).
#
# The same input and the same timeouts for all three (idle 5 s, FIN/RST
# 2 s, active 600 s):
#   pipeline   run_capture.sh's way (--clock capture, --stop-when-done,
#              its memory: 2-MB hugepages where enough are free, else
#              --no-huge; run_memory in run_common.sh, the choice shown in
#              the report), timeouts as options (--tmo-* 5 s, closing
#              2 s, --tmo-active 600), -T 0 (no stats screen),
#              --fwd-mode drop, a JSON flow log in $TMPDIR.
#   softflowd  -r CAPTURE, exports NetFlow v10 (-v 10) to nfcapd on
#              127.0.0.1, read back with nfdump -o raw. -t tcp=5
#              udp=5 icmp=5 general=5 (idle), tcp.fin=2 tcp.rst=2
#              (closing), maxlife=600 (active); -m flows + 1024: a
#              table for every flow (no early expiry for space); -b
#              bidirectional flows; -T vlan (the pipeline's key has the
#              VLAN); -d (no daemon).
#   nfpcapd    -r CAPTURE -w DIR, read back with nfdump -o raw. -e 600,5:
#              active 600 s, inactive 5 s, its only timeout settings (no
#              per-protocol or FIN/RST one). Its man page: the cache is
#              checked every 10 s, so a flow may outlive its 5 s by up to
#              10 s and a 12-s pause is not always a split.
#              -B flows + 1024 (as softflowd's -m: a cache node for every
#              flow, none added while it runs); -t 3600 (files rotate
#              hourly by capture time; all of them are read back); the
#              default snaplen (1522) holds every frame; no compression.
#              Its records are one-way: tools/bench_clock_report.py joins
#              the two directions of a model record.
# Records are matched against the generator's model (--expect "paced"
# records) by tools/bench_clock_report.py: biflow key and packets per
# direction, then also the first and last packet times in ms (not for
# softflowd, whose times are relative to its uptime). The first
# repetition's records are matched; later repetitions are only counted.
#
# Writes $OUT/clock.json (default bench/, or bench/dpdk-VERSION): the long
# case in the top-level fields (flows, model_records, tools,
# time_ratio_sf_over_tp; time_ms = the median), both cases under "cases",
# the run's date, commit and DPDK under "run" (scripts/bench_common.sh),
# and prints a table.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/bench_common.sh
bench_dpdk_select "$@"
set -- ${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"}
CAPS=${BENCH_CAPTURES:-$BUILD_DIR/bench-captures}
NFLOWS=""
SPAN=3600
SCAN=""
REPS=""
QUICK=0
PREPARE=0
usage() {
	echo "usage: $0 [--dpdk VERSION] [--quick] [--reps N] [--flows N]" \
		"[--span-s S] [--scan-flows N] [--prepare]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--reps) [ $# -ge 2 ] || usage; REPS=$2; shift ;;
	--flows) [ $# -ge 2 ] || usage; NFLOWS=$2; shift ;;
	--span-s) [ $# -ge 2 ] || usage; SPAN=$2; shift ;;
	--scan-flows) [ $# -ge 2 ] || usage; SCAN=$2; shift ;;
	--prepare) PREPARE=1 ;;
	*) usage ;;
	esac
	shift
done
# Each run's limit (s): a pipeline that hangs is stopped (one SIGINT,
# which flushes its flows) and its exit status is in the table.
if [ "$QUICK" = 1 ]; then
	: "${NFLOWS:=100000}" "${SCAN:=100000}" "${REPS:=1}"
	LIMIT=300
else
	: "${NFLOWS:=1000000}" "${SCAN:=1000000}" "${REPS:=3}"
	LIMIT=1800
fi
for v in "$NFLOWS" "$SCAN" "$REPS" "$SPAN"; do
	case $v in ''|*[!0-9]*|0) echo "bench_clock: counts are integers >= 1" >&2
			       exit 2 ;;
	esac
done
TP=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
[ "$PREPARE" = 1 ] || [ -x "$TP" ] ||
	{ echo "bench_clock: build $TP first" >&2; exit 1; }
if [ "$PREPARE" = 0 ]; then
	for t in nfcapd nfdump nfpcapd softflowd; do
		command -v "$t" >/dev/null ||
			{ echo "bench_clock: $t missing (scripts/setup.sh)" >&2
			  exit 1; }
	done
fi
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
REPORT=tools/bench_clock_report.py
# run_memory: the pipeline's memory options, as run_capture.sh's.
. scripts/run_common.sh

mkdir -p "$CAPS"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench_clock.XXXXXX")
NFPID=""
RMEM0=""
cleanup() {
	[ -n "$NFPID" ] && kill "$NFPID" 2>/dev/null
	[ -n "${BENCH_HOP_PID:-}" ] && kill "$BENCH_HOP_PID" 2>/dev/null
	[ -n "$RMEM0" ] && echo "$RMEM0" >/proc/sys/net/core/rmem_max
	[ -n "${BENCH_KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# The timeouts, as the pipeline's options (and the generator's model).
TMO=(--tmo-tcp-syn 5 --tmo-tcp-est 5 --tmo-tcp-closing 2 --tmo-udp 5
     --tmo-icmp 5 --tmo-other 5 --tmo-active 600)
SF_TMO=(-t tcp=5 -t tcp.rst=2 -t tcp.fin=2 -t udp=5 -t icmp=5
	-t general=5 -t maxlife=600)
NP_TMO=(-e "600,5")

# capture CAP EXPECT GEN-OPTIONS...: written once (.tmp, then renamed).
capture() {
	local cap=$1 exp=$2
	shift 2
	[ -f "$cap" ] && [ -f "$exp" ] && return 0
	echo "== writing $cap (once)"
	"$PY" tools/gen_pcap.py -o "$cap.tmp" --seed 5 "$@" "${TMO[@]}" \
		--expect "$exp.tmp" >/dev/null 2>"$WORK/gen.log" ||
		{ cat "$WORK/gen.log" >&2; exit 1; }
	mv "$exp.tmp" "$exp"
	mv "$cap.tmp" "$cap"
}
CAP_long=$CAPS/clock_${NFLOWS}_${SPAN}s.pcap
interval=$("$PY" -c "print($SPAN * 1000 / $NFLOWS)")
capture "$CAP_long" "${CAP_long%.pcap}.json" --flows "$NFLOWS" \
	--pkts 2-4 --gap-ms 10-500 --flow-interval-ms "$interval" \
	--idle-gap-pct 20 --idle-gap-ms 12000 --vlan-pct 0
CAP_synscan=$CAPS/clock_synscan_${SCAN}.pcap
capture "$CAP_synscan" "${CAP_synscan%.pcap}.json" --syn-scan none \
	--flows "$SCAN" --flow-interval-ms 0.001
[ "$PREPARE" = 1 ] && { echo "bench_clock: captures ready in $CAPS"; exit 0; }
# Per case (read as ${!name}): the pipeline's --flows, and the flows
# the others' tables are sized for.
TPF_long=262144
TPF_synscan=$((SCAN + SCAN / 10))
# shellcheck disable=SC2034
FL_long=$NFLOWS
# shellcheck disable=SC2034
FL_synscan=$SCAN

# softflowd sends its records in bursts as fast as it can: nfcapd gets a
# socket buffer that holds them (as in bench_ipfix.sh; as root, put back
# at exit), or it drops some and the count varies from run to run.
NFBUF=134217728
rmem=$(cat /proc/sys/net/core/rmem_max 2>/dev/null || echo 0)
if [ "$rmem" -lt "$NFBUF" ]; then
	if echo "$NFBUF" 2>/dev/null >/proc/sys/net/core/rmem_max; then
		RMEM0=$rmem
	else
		echo "bench_clock: cannot raise net.core.rmem_max (not root?):" \
			"nfcapd may drop softflowd's records" >&2
	fi
fi

now_ms() { echo $(($(date +%s%N) / 1000000)); }
# How far apart the two CPUs are during each run (tools/cpu_hop.c; the
# report compares the tools at each distance, as bench_pipeline.sh does):
# its samples in $HOPS/CASE.TOOL.REP.hop, the timed part of the run in
# .span (unix ms).
HOPS=$WORK/hop
mkdir -p "$HOPS"
span() { # span CASE REP TOOL T0 T1
	echo "$4 $5" >"$HOPS/$1.$3.$2.span"
}
TIMES=$WORK/times.tsv
: >"$TIMES"
# keep CASE REP TOOL FILE COUNT: the first repetition's records are kept
# for the report; later ones only counted.
keep() {
	if [ "$2" = 1 ]; then
		mv "$4" "$WORK/$1.$3.out"
	else
		rm -f "$4"
	fi
}

# out_bytes CASE REP TOOL PATH: the bytes a run wrote (a file, or the
# files of a folder: nfcapd's for softflowd), into $BYTES.
BYTES=$WORK/bytes.tsv
: >"$BYTES"
out_bytes() {
	local n
	n=$(du -sb "$4" 2>/dev/null | cut -f1) || n=""
	[ -n "$n" ] && printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$n" >>"$BYTES"
	return 0
}

# run_tp CASE REP: the pipeline, run_capture.sh's way.
run_tp() {
	local c=$1 r=$2 cap tpf t0 t1 st=0 prefix n
	cap=CAP_$c; cap=${!cap}
	tpf=TPF_$c; tpf=${!tpf}
	prefix=bench_clock_$$_${c}_$r
	# Memory as run_capture.sh takes it.
	run_memory --flows "$tpf"
	echo "$c ${RUN_MEM[*]}" >>"$WORK/memory"
	rm -f "$WORK/tp.json"
	t0=$(now_ms)
	timeout -k 30 -s INT "$LIMIT" "$TP" -l 0-1 -S 1 --no-pci "${RUN_MEM[@]}" \
		--file-prefix "$prefix" --log-level=lib.eal:warning \
		--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$cap,tx_pcap=/dev/null" -- \
		"${TMO[@]}" -T 0 --flows "$tpf" --stop-when-done --clock capture \
		--fwd-mode drop --flow-log "$WORK/tp.json" \
		>"$WORK/$c.tp.$r.log" 2>&1 || st=$?
	t1=$(now_ms)
	span "$c" "$r" tp "$t0" "$t1"
	rm -rf "/var/run/dpdk/$prefix"
	out_bytes "$c" "$r" "pipeline --clock capture" "$WORK/tp.json"
	n=$(wc -l <"$WORK/tp.json" 2>/dev/null || echo 0)
	printf '%s\t%s\tpipeline --clock capture\t%s\t%s\t%s\n' \
		"$c" "$r" $((t1 - t0)) "$st" "$n" >>"$TIMES"
	if [ "$st" != 0 ]; then
		echo "   pipeline exit status $st; its log ends:" >&2
		tail -5 "$WORK/$c.tp.$r.log" >&2
	fi
	keep "$c" "$r" tp "$WORK/tp.json"
}

# run_sf CASE REP: softflowd -r, exporting to nfcapd.
run_sf() {
	local c=$1 r=$2 cap fl port t0 t1 st=0
	cap=CAP_$c; cap=${!cap}
	fl=FL_$c; fl=${!fl}
	port=$("$PY" -c "import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', 0))
print(s.getsockname()[1])")
	rm -rf "$WORK/nf"
	mkdir -p "$WORK/nf"
	timeout -k 10 $((LIMIT + 60)) nfcapd -w "$WORK/nf" -p "$port" -b 127.0.0.1 \
		-t 3600 -B "$NFBUF" >"$WORK/nf.log" 2>&1 &
	NFPID=$!
	sleep 0.5
	t0=$(now_ms)
	# A table for every flow, exported as it goes (-v 10 NetFlow v10).
	timeout -k 30 "$LIMIT" softflowd -r "$cap" -n "127.0.0.1:$port" -v 10 -b \
		-d -m $((fl + 1024)) -T vlan "${SF_TMO[@]}" \
		>"$WORK/$c.sf.$r.log" 2>&1 || st=$?
	t1=$(now_ms)
	span "$c" "$r" sf "$t0" "$t1"
	sleep 1	# the last datagrams
	kill -TERM "$NFPID"
	wait "$NFPID" 2>/dev/null || true
	NFPID=""
	out_bytes "$c" "$r" "softflowd -r" "$WORK/nf"
	readback "$c" "$r" sf softflowd "$WORK/nf" $((t1 - t0)) "$st"
}

# readback CASE REP ABBR TOOL DIR MS STATUS: the nfcapd files in DIR read
# back with nfdump, the run's line in $TIMES, its records kept.
readback() {
	local c=$1 r=$2 a=$3 tool=$4 dir=$5 ms=$6 st=$7 n
	nfdump -R "$dir" -o raw >"$WORK/$a.raw"
	n=$(grep -c '^Flow Record' "$WORK/$a.raw" || true)
	printf '%s\t%s\t%s -r\t%s\t%s\t%s\n' \
		"$c" "$r" "$tool" "$ms" "$st" "$n" >>"$TIMES"
	[ "$st" = 0 ] || echo "   $tool exit status $st" >&2
	keep "$c" "$r" "$a" "$WORK/$a.raw"
}

# run_np CASE REP: nfpcapd -r, writing nfcapd files.
run_np() {
	local c=$1 r=$2 cap fl t0 t1 st=0
	cap=CAP_$c; cap=${!cap}
	fl=FL_$c; fl=${!fl}
	rm -rf "$WORK/np"
	mkdir -p "$WORK/np"
	t0=$(now_ms)
	timeout -k 30 "$LIMIT" nfpcapd -r "$cap" -w "$WORK/np" "${NP_TMO[@]}" \
		-B $((fl + 1024)) -t 3600 >"$WORK/$c.np.$r.log" 2>&1 || st=$?
	t1=$(now_ms)
	span "$c" "$r" np "$t0" "$t1"
	out_bytes "$c" "$r" "nfpcapd -r" "$WORK/np"
	readback "$c" "$r" np nfpcapd "$WORK/np" $((t1 - t0)) "$st"
}

# Every run reads its capture from the page cache.
cat "$CAP_long" "$CAP_synscan" >/dev/null
# The pipeline's build, to tell whether it was rebuilt during the run.
tp_sum() { sha256sum "$TP" | cut -d' ' -f1; }
TP_SUM=$(tp_sum)
# What a fresh page costs here (each run's output takes them, a few
# hundred MB; tools/bench_pages.py waits for the VM's host first).
echo "== fresh pages in $WORK"
"$PY" tools/bench_pages.py probe "$WORK" "$WORK/pages.json"
TOOLS=(tp sf np)
for r in $(seq 1 "$REPS"); do
	for c in long synscan; do
		for i in 0 1 2; do
			t=${TOOLS[$(((i + r - 1) % 3))]}
			echo "== rep $r/$REPS: $c, $t"
			# No writeback of an earlier run's files (its output,
			# the read-backs) pending into this one's time.
			sync
			bench_hop_start "$HOPS/$c.$t.$r.hop"
			"run_$t" "$c" "$r"
			bench_hop_stop
		done
	done
done

TP_CHANGED=0
if [ "$(tp_sum)" != "$TP_SUM" ]; then
	TP_CHANGED=1
	echo "bench_clock: $TP was rebuilt during the run: its times" \
		"mix builds" >&2
fi
for c in long synscan; do
	cap=CAP_$c; cap=${!cap}
	echo "== $c: records against the model"
	"$PY" "$REPORT" score "${cap%.pcap}.json" "$WORK/$c.tp.out" \
		"$WORK/$c.sf.out" "$WORK/$c.np.out" "$WORK/$c.score.json"
done
mkdir -p "$OUT"
# The pipeline's memory options in each case (every choice, if they
# changed from run to run).
mem_of() {
	awk -v c="$1" '$1 == c { sub(/^[^ ]+ /, ""); print }' "$WORK/memory" |
		sort -u | paste -sd '|'
}
"$PY" "$REPORT" summary "$TIMES" "$OUT/clock.json" \
	"long=$WORK/long.score.json" "synscan=$WORK/synscan.score.json" \
	"long.capture=$CAP_long" "long.span_s=$SPAN" \
	"long.pipeline_flows=$TPF_long" "long.pipeline_memory=$(mem_of long)" \
	"synscan.capture=$CAP_synscan" "synscan.pipeline_flows=$TPF_synscan" \
	"synscan.pipeline_memory=$(mem_of synscan)" \
	"fresh_pages=$WORK/pages.json" "output_bytes=$BYTES" "hops=$HOPS" \
	"quick=$QUICK" "reps=$REPS" "pipeline_sha256=$TP_SUM" \
	"pipeline_rebuilt_during_run=$TP_CHANGED"
bench_stamp "$OUT/clock.json"
if [ "$TP_CHANGED" = 1 ]; then
	echo "bench_clock: the pipeline was rebuilt during the run (see above)"
fi
