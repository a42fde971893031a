# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Sourced by scripts/run_capture.sh and scripts/run_live.sh (not run):
#
#   run_report TOOL OUT STATUS   after a run: the end of its summary and
#                                its exactly-once check (OUT/pipeline.log),
#                                the end of the log if STATUS is not 0,
#                                and the records by end reason
#                                (OUT/flows.json). ROOT: the source tree.
#   run_once LOG SECS CMD...     run the pipeline CMD (its output appended
#                                to LOG) and stop it with exactly one
#                                SIGINT, as Ctrl-C would: on Ctrl-C or
#                                SIGTERM, or SECS seconds after its start;
#                                SIGKILL 60 s after that as a backstop.
#                                Sets $status to its exit status.
#   run_memory ARGS...           the EAL memory options for a pipeline run
#                                with these options (its --flows, default
#                                65536): sets the array RUN_MEM.

run_report() {
	local tool=$1 out=$2 status=$3
	sed -n '/=== timer_pipeline summary/,$p' "$out/pipeline.log"
	if [ "$status" -ne 0 ]; then
		echo "$tool: the pipeline exited with status $status; the end" \
			"of $out/pipeline.log:" >&2
		tail -n 15 "$out/pipeline.log" >&2
	fi
	if [ -s "$out/flows.json" ]; then
		echo
		echo "Flow records by end reason ($out/flows.json):"
		python3 "$ROOT/tests/pipeline/check_records.py" reasons \
			"$out/flows.json"
	fi
}

# The pipeline takes a second signal as "stop at once, without flushing",
# so it must get exactly one. timeout runs it in a process group of its
# own: a Ctrl-C reaches this script alone, which signals the pipeline
# itself, once. timeout only kills (a timeout that expires or is signalled
# sends its signal to its child and then to its whole group, and a DPDK
# process whose lcores run on other CPUs can take both); the SIGINT after
# SECS comes from a guard here, once.
run_once() {
	local log=$1 secs=$2 pid guard
	shift 2
	timeout -s KILL "$((secs + 60))" "$@" >>"$log" 2>&1 &
	pid=$!
	# The guard ignores SIGINT: a Ctrl-C (or a signalled timeout above
	# this script) reaching the whole group would end its sleep early,
	# and its stop would be the pipeline's second signal.
	(trap '' INT; sleep "$secs"; run_once_stop "$pid") &
	guard=$!
	# shellcheck disable=SC2064
	trap "run_once_stop $pid" INT TERM
	# wait returns early (above 128) for a trapped signal: wait on.
	while :; do
		wait "$pid"
		status=$?
		kill -0 "$pid" 2>/dev/null || break
	done
	trap - INT TERM
	pkill -KILL -P "$guard" sleep 2>/dev/null
	kill -KILL "$guard" 2>/dev/null
	wait "$guard" 2>/dev/null
	return 0
}

# One SIGINT to the pipeline under timeout PID (or to PID itself).
run_once_stop() {
	local app
	trap '' INT TERM
	app=$(pgrep -P "$1" | head -1)
	kill -INT "${app:-$1}" 2>/dev/null
}

# Hugepage memory for a flow table of N flows, in MB. DPDK's, measured on
# 2-MB pages (DPDK 22.11, 2026-12-05): 66 MB at 65,536 flows, 174 MB at
# 1.1M and 382 MB at 4M (rte_hash's keys and buckets, the event device,
# the mbufs, rings); and the table's entries and timers, 168 bytes a
# slot, slots 1.07 times the flows (datapath/tp_flow_table.c), which go
# on hugepages too where the pool has room. 64 MB and 300 bytes a flow
# cover both.
run_memory_mb() {
	echo $((64 + ($1 * 300 + (1 << 20) - 1) / (1 << 20)))
}

# Hugepages where enough 2-MB pages are free (unlinked as soon as they are
# mapped: nothing is left behind in hugetlbfs, whatever the exit), else
# 4-KB pages (--no-huge, at least 512 MB). On hugepages, DPDK's memory is
# taken as the run needs it, and pages the pool keeps are never handed
# back to the host: a VM's first touch of memory is slow (docs/bench.rst,
# "Ageing a capture").
run_memory() {
	local flows=65536 need free next=""
	for a in "$@"; do
		if [ "$next" = 1 ]; then
			flows=$a
			next=""
			continue
		fi
		case "$a" in
		--flows) next=1 ;;
		--flows=*) flows=${a#--flows=} ;;
		esac
	done
	case "$flows" in
	''|*[!0-9]*) flows=65536 ;;	# the pipeline refuses it anyway
	esac
	need=$(run_memory_mb "$flows")
	free=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages \
		2>/dev/null || echo 0)
	if [ $((free * 2)) -ge "$need" ] &&
	   grep -qs ' hugetlbfs ' /proc/mounts; then
		RUN_MEM=(--huge-unlink)
	else
		[ "$need" -lt 512 ] && need=512
		RUN_MEM=(--no-huge -m "$need")
	fi
}
