#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Run the adapter comparison (ours vs DPDK's vs the ring design) and write
# the table (stdout), bench/results.json and PNG plots into bench/.
#
#   bash scripts/bench.sh            full mode (1K/100K/1M outstanding, 3 reps)
#   bash scripts/bench.sh --quick    quick mode (< 2 minutes)
#
# Layout: lcore 0 produces and consumes, lcore 1 is the service lcore
# (event_sw scheduler and the adapter's service). On a machine with more
# CPUs, set BENCH_EAL (e.g. "-l 0-6 -s 0x40") to add producer lcores.
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${BENCH_OUT:-bench}
export BUILD_DIR
bash scripts/setup.sh

if [ "$(id -u)" = 0 ]; then
	dpkg-query -W -f='${Status}' python3-matplotlib 2>/dev/null |
		grep -q "install ok installed" || {
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends python3-matplotlib >/dev/null
	}
	# DPDK's adapter preallocates ~350 B per configured timer: 1M timers
	# need about 1 GB of hugepages next to ours and the timers themselves.
	hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	if [ -w "$hp" ] && [ "$(cat $hp)" -lt 1536 ]; then
		echo 1536 > "$hp" 2>/dev/null || true
	fi
fi

mkdir -p "$OUT"
EAL=${BENCH_EAL:-"-l 0-1 -s 0x2"}
# shellcheck disable=SC2086
timeout 3000 "$BUILD_DIR/app/timer_bench/dpdk-timer_bench" $EAL \
	--vdev=event_sw0 --no-pci --in-memory --log-level=lib.eal:warning \
	-- --json "$OUT/results.json" "$@" | tee "$OUT/results.txt"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" tools/bench_plot.py "$OUT/results.json" --outdir "$OUT"
