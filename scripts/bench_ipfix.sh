#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# IPFIX export, side by side in one run, repetitions interleaved
# (A B C..., B C ... A, ...), all on 127.0.0.1, same capture for all:
#
#   softflowd     softflowd -r (-t udp=1, a table large enough for every
#                 flow) to a fresh nfcapd. The capture spans less than its
#                 1-s timeout on the capture's clock, so softflowd ends every
#                 flow at the end of the file ("flushed" in its summary);
#   tp_ipfix_eof  timer_pipeline --flush-at-eof to a fresh nfcapd: every flow
#                 ends when the capture has been read, as with softflowd
#                 (the like-for-like run);
#   tp_none_eof   the same without export: the least wall time any exporter
#                 inside the pipeline could reach;
#   tp_ipfix      timer_pipeline ageing every flow by its real 1-s idle
#                 timeout (--stop-when-done), exporting to a fresh nfcapd;
#   tp_none       the same without export (no record is built);
#   tp_ipfix_sink the same as tp_ipfix to a UDP socket nobody reads: export
#                 without a collector decoding beside it on the same CPUs.
#
# Per run: wall time from start to exit (every exporter exits after its
# last record was sent), time from start to the last record on the
# collector's port (tcpdump on lo, headers only), flows/s = flows / wall, records the collector counted (nfcapd's own total at exit; must
# equal the flows), records the pipeline counted as not sent, nfcapd's CPU
# time, peak memory (RSS from /usr/bin/time, plus the 2-MB pages the
# pipeline held, which RSS leaves out). Per program: median, min, max; ratios of
# the medians with the spread of the per-repetition ratios. Export cost:
# tp_ipfix / tp_none (nfcapd shares the 2 CPUs) and tp_ipfix_sink / tp_none
# (it does not). Writes $BENCH_OUT/ipfix.json (10m: ipfix_10m.json; default
# bench/) and prints a table.
#
# The pipeline's wall time includes EAL start-up and building its tables;
# the ageing runs also hold the real 1-s timeout after the last packet. The
# JSON also gives the export window (first to last IPFIX message carrying
# records, as the exporter measures it).
#
#   bash scripts/bench_ipfix.sh [--quick] [--reps N] [--flows 1m|100k|10m]
#        [--progs "softflowd tp_ipfix_eof ..."]
#
#   full:   1M flows, 5 repetitions (~2 min, plus ~1 min once for the
#           capture); quick: 100K flows, 3 repetitions (~40 s);
#   10m:    10M flows, 3 repetitions (softflowd ~1 min a run, plus ~5 min
#           once for the capture), written to ipfix_10m.json; the target
#           there is 5x softflowd's flows/s with no record lost by either
#           (issue 20). --progs runs only those programs (the others'
#           ratios and targets are left out).
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${BENCH_OUT:-bench}
CAPS=${BENCH_CAPTURES:-$BUILD_DIR/bench-captures}
REPS=
SIZE=1m
PROGS_ARG=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) SIZE=100k ;;
	--reps) REPS=$2; shift ;;
	--flows) SIZE=$2; shift ;;
	--progs) PROGS_ARG=$2; shift ;;
	*) echo "usage: $0 [--quick] [--reps N] [--flows 1m|100k|10m]" \
		"[--progs LIST]" >&2
	   exit 2 ;;
	esac
	shift
done
case $SIZE in
100k) NFLOWS=100000; TABLE=131072 ;;
1m) NFLOWS=1000000; TABLE=1200000 ;;
10m) NFLOWS=10000000; TABLE=12000000 ;;
*) echo "bench_ipfix: --flows 1m, 100k or 10m" >&2; exit 2 ;;
esac
REPS=${REPS:-$([ $SIZE = 1m ] && echo 5 || echo 3)}
JSON=ipfix.json
[ $SIZE = 10m ] && JSON=ipfix_10m.json
[ "$REPS" -ge 1 ] || { echo "bench_ipfix: --reps >= 1" >&2; exit 2; }

TP=$BUILD_DIR/examples/timer_pipeline/dpdk-timer_pipeline
[ -x "$TP" ] || { echo "bench_ipfix: build $TP first" >&2; exit 1; }
for t in nfcapd softflowd /usr/bin/time; do
	command -v "$t" >/dev/null ||
		{ echo "bench_ipfix: $t missing (scripts/setup.sh)" >&2; exit 1; }
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

mkdir -p "$OUT" "$CAPS"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench_ipfix.XXXXXX")
LOGS=$OUT/${JSON%.json}_logs
rm -rf "$LOGS"
mkdir -p "$LOGS"
NFPID=""
RMEM0=""
cleanup() {
	[ -n "$NFPID" ] && kill "$NFPID" 2>/dev/null
	[ -n "$RMEM0" ] && echo "$RMEM0" >/proc/sys/net/core/rmem_max
	rm -rf "$WORK" "/var/run/dpdk/bench_ipfix_$$"
}
trap cleanup EXIT

# The collector gets a socket buffer that holds a whole burst: softflowd
# sends every record at the end of the file, as fast as it can, and with
# Linux's default cap (4 MB here) nfcapd dropped about half of them. The
# cap is raised for the run (as root) and put back at exit.
NFBUF=${BENCH_NFCAPD_BUF:-134217728}
rmem=$(cat /proc/sys/net/core/rmem_max 2>/dev/null || echo 0)
if [ "$rmem" -lt "$NFBUF" ]; then
	if echo "$NFBUF" 2>/dev/null >/proc/sys/net/core/rmem_max; then
		RMEM0=$rmem
	else
		echo "bench_ipfix: cannot raise net.core.rmem_max to $NFBUF" \
			"(not root?): nfcapd's buffer is capped at $rmem" >&2
	fi
fi

# The same capture as bench_pipeline.sh's aging figure (one UDP packet
# per flow, 64 bytes), written once.
CAP=$CAPS/udp$SIZE.pcap
if [ ! -f "$CAP" ]; then
	echo "== writing $CAP ($NFLOWS flows, once)"
	"$PY" tools/gen_pcap.py -o "$CAP.tmp" --seed $((NFLOWS / 1000)) \
		--flows "$NFLOWS" --mix udp=1 --pkts 1 --vlan-pct 0 \
		--ipv6-pct 0 --idle-gap-pct 0 --size 64 >/dev/null
	mv "$CAP.tmp" "$CAP"
fi

free_mb=$(awk '/HugePages_Free/ {f=$2} /Hugepagesize/ {s=$2}
	END {print int(f * s / 1024)}' /proc/meminfo)
if [ "${BENCH_HUGE:-auto}" = 1 ] ||
   { [ "${BENCH_HUGE:-auto}" = auto ] &&
     [ "$free_mb" -ge "$([ $SIZE = 10m ] && echo 12288 || echo 4096)" ]; }
then
	MEM="--in-memory"
else
	# smaller for 100K: zeroing 4 GB of 4K pages costs seconds
	case $SIZE in
	100k) MEM="--no-huge -m 1024" ;;
	1m) MEM="--no-huge -m 4096" ;;
	10m) MEM="--no-huge -m 12288" ;;
	esac
fi
# 1M flows take ~0.75 GB (flow table, timers): 2 MB pages when enough are
# free (scripts/setup.sh reserves 3 GB), else 4-KB pages (slower start).
[ "${BENCH_HUGE:-auto}" = auto ] && [ "$free_mb" -ge 1536 ] &&
	[ "$SIZE" != 10m ] && MEM="--in-memory"

# Each run's figures, the summary, the collector's port and the sink.
REPORT=tools/bench_ipfix_report.py

# collector_start NAME: a fresh nfcapd; PORT and NFPID set.
collector_start() {
	PORT=$("$PY" "$REPORT" free-port)
	mkdir -p "$WORK/$1.nf"
	nfcapd -w "$WORK/$1.nf" -p "$PORT" -b 127.0.0.1 -t 3600 \
		-B "$NFBUF" >"$LOGS/$1.nfcapd.log" 2>&1 &
	NFPID=$!
	# What reaches the collector, headers only: the last record's time.
	tcpdump -i lo -s 64 -B 16384 -w "$WORK/$1.pcap" \
		"udp and dst port $PORT" 2>"$WORK/$1.tcpdump" &
	TDPID=$!
	for _ in $(seq 50); do	# both listening within 5 s
		ss -Hlun "sport = :$PORT" 2>/dev/null | grep -q . &&
			grep -q "listening on" "$WORK/$1.tcpdump" && return 0
		sleep 0.1
	done
	echo "bench_ipfix: nfcapd or tcpdump not ready on $PORT" >&2
}

# collector_stop NAME: GOT = the flows nfcapd counted (its summary at
# exit), NFCPU = its CPU seconds. Not in a subshell: only this shell can
# wait for nfcapd.
collector_stop() {
	sleep 0.5
	kill -INT "$TDPID" 2>/dev/null
	wait "$TDPID" 2>/dev/null || true
	LAST_NS=$("$PY" "$REPORT" last-record "$WORK/$1.pcap" 2>/dev/null ||
		echo 0)
	NFCPU=$(cat /proc/"$NFPID"/task/*/stat 2>/dev/null | awk -v hz="$(getconf CLK_TCK)" \
		'{t += $14 + $15} END {printf "%.3f", t / hz}')
	kill -TERM "$NFPID" 2>/dev/null
	wait "$NFPID" 2>/dev/null || true
	NFPID=""
	rm -rf "$WORK/$1.nf"
	GOT=$(sed -n "s/.*Flows: \([0-9]*\),.*/\1/p" "$LOGS/$1.nfcapd.log" |
		tail -1)
}

# hugepages_free: free 2-MB pages now.
hugepages_free() {
	awk '/HugePages_Free/ {print $2}' /proc/meminfo
}

# run_tp LOG [APP-OPTIONS...]. Peak RSS leaves out the 2-MB pages DPDK
# maps: with SAMPLE_HUGE=1 (untimed runs only: sampling takes CPU) the
# most pages in use during the run, sampled every 20 ms, are written to
# LOG.huge in MB.
run_tp() {
	local log=$1 free0 low pid f
	shift
	free0=$(hugepages_free)
	low=$free0
	# shellcheck disable=SC2086
	/usr/bin/time -v timeout --foreground -s INT 600 "$TP" -l 0-1 -S 1 --no-pci \
		$MEM --file-prefix "bench_ipfix_$$" --vdev=event_sw0 \
		--log-level=lib.eal:warning --vdev="net_pcap0,rx_pcap=$CAP" -- \
		--fwd-mode drop --flows "$TABLE" --tmo-udp 1s -T 0 \
		--summary-json "$log.json" "$@" >"$log" 2>&1 &
	pid=$!
	while [ "${SAMPLE_HUGE:-0}" = 1 ] && kill -0 "$pid" 2>/dev/null; do
		f=$(hugepages_free)
		[ "$f" -lt "$low" ] && low=$f
		sleep 0.02
	done
	wait "$pid" || true
	[ "${SAMPLE_HUGE:-0}" = 1 ] && echo $(((free0 - low) * 2)) >"$log.huge"
	return 0
}

# A UDP socket bound and never read: the kernel drops what overflows it.
sink_start() {
	"$PY" "$REPORT" sink >"$WORK/sink.port" &
	SINKPID=$!
	for _ in $(seq 50); do
		[ -s "$WORK/sink.port" ] && break
		sleep 0.1
	done
	PORT=$(cat "$WORK/sink.port")
}

run_one() { # run_one PROG REP -> one JSON line on stdout
	local p=$1 r=$2 log=$LOGS/$1.$2.log t0 t1
	t0=$(date +%s%N)
	GOT=0
	NFCPU=""
	LAST_NS=0
	case $p in
	tp_ipfix|tp_ipfix_eof)
		collector_start "$p.$r"
		t0=$(date +%s%N)
		if [ $p = tp_ipfix ]; then
			run_tp "$log" --stop-when-done --ipfix "127.0.0.1:$PORT"
		else
			run_tp "$log" --flush-at-eof --ipfix "127.0.0.1:$PORT"
		fi
		t1=$(date +%s%N)
		collector_stop "$p.$r" ;;
	tp_ipfix_sink)
		sink_start
		t0=$(date +%s%N)
		run_tp "$log" --stop-when-done --ipfix "127.0.0.1:$PORT"
		t1=$(date +%s%N)
		kill "$SINKPID" 2>/dev/null
		wait "$SINKPID" 2>/dev/null || true ;;
	softflowd)
		collector_start "$p.$r"
		t0=$(date +%s%N)
		/usr/bin/time -v timeout 600 softflowd -r "$CAP" \
			-n "127.0.0.1:$PORT" -v 10 -b -d -m $((TABLE * 2)) \
			-t udp=1 -t general=1 >"$log" 2>&1 || true
		t1=$(date +%s%N)
		collector_stop "$p.$r" ;;
	tp_none)
		run_tp "$log" --stop-when-done
		t1=$(date +%s%N) ;;
	tp_none_eof)
		run_tp "$log" --flush-at-eof
		t1=$(date +%s%N) ;;
	esac
	"$PY" "$REPORT" run "$p" "$r" "$log" "$(((t1 - t0) / 1000))" \
		"${GOT:-0}" "${NFCPU:-}" "$t0" "$LAST_NS"
}

LOAD0=$(cat /proc/loadavg)
PROGS="softflowd tp_ipfix_eof tp_none_eof tp_ipfix tp_none tp_ipfix_sink"
if [ -n "$PROGS_ARG" ]; then
	for p in $PROGS_ARG; do
		case " $PROGS " in *" $p "*) ;;
		*) echo "bench_ipfix: --progs: one of $PROGS, not '$p'" >&2
		   exit 2 ;;
		esac
	done
	PROGS=$PROGS_ARG
fi
: >"$WORK/runs.jsonl"
for r in $(seq 1 "$REPS"); do
	# rotate the order each repetition: no program always runs first
	set -- $PROGS
	for _ in $(seq 2 "$r"); do set -- "${@:2}" "$1"; done
	for p in "$@"; do
		echo "== rep $r/$REPS: $p ($SIZE flows)" >&2
		run_one "$p" "$r" >>"$WORK/runs.jsonl"
	done
done

# Untimed: the 2-MB pages each pipeline run holds (RSS leaves them out).
MEMPROGS=""
for kind in "tp_ipfix_sink tp_ipfix_eof tp_ipfix" "tp_none tp_none_eof"; do
	for p in $kind; do
		case " $PROGS " in *" $p "*) MEMPROGS="$MEMPROGS $p"; break ;; esac
	done
done
: >"$WORK/mem.jsonl"
for p in $MEMPROGS; do
	echo "== memory: $p" >&2
	SAMPLE_HUGE=1 run_one "$p" 0 >>"$WORK/mem.jsonl"
done

"$PY" "$REPORT" summary "$WORK/runs.jsonl" "$WORK/mem.jsonl" \
	"$OUT/$JSON" "$NFLOWS" "$REPS" "$MEM" \
	"$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	"$(date -u +%Y-%m-%dT%H:%MZ)" "$LOAD0" "$NFBUF"
. scripts/bench_common.sh
bench_stamp "$OUT/$JSON"
echo "bench_ipfix: wrote $OUT/$JSON" >&2
