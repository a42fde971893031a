#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Forwarding with a timer per flow against the fair l2fwd-event, on two
# (or more) DPDK versions in one run: scripts/bench_pipeline.sh's
# forwarding programs (l2fwd tp_direct_lazy tp_direct_every), one
# repetition of every version after the other, the order alternating
# (A B, B A, A B, ...), so that each version meets the machine's phases as
# often as the other (on a VM the host moves the vCPUs, and every program
# forwards at two rates by it: docs/bench.rst, "forwarding by CPU
# distance"). Each version's report is bench_pipeline.sh's over its
# repetitions, with the rates and ratios at each distance;
# tools/bench_fwd_versions.py puts them side by side and says whether the
# pipeline (lazy refresh) is at 1.0x l2fwd-event or more on every one.
#
#   bash scripts/bench_fwd_versions.sh [--reps N] [--secs S] [VERSION...]
#
# VERSION: "debian" (Debian's DPDK and the default build) or a version of
# ../shared/dpdk (scripts/dpdk.sh builds it once). Default: debian
# 25.11.2. Default 5 repetitions of 10 s: about 6 minutes for two
# versions. The first repetition builds what each version needs before
# it measures (scripts/setup.sh, skipped with BENCH_SKIP_SETUP=1 as in
# bench_pipeline.sh; the fair l2fwd-event; the capture). Writes
# bench/fwd_versions/fwd_versions.json (each version's pipeline.json and
# logs under bench/fwd_versions/VERSION/).
set -euo pipefail

cd "$(dirname "$0")/.."
usage() {
	sed -n '17,25p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
REPS=5
SECS=10
VERSIONS=()
while [ $# -gt 0 ]; do
	case $1 in
	--reps) [ $# -ge 2 ] || usage; REPS=$2; shift ;;
	--secs) [ $# -ge 2 ] || usage; SECS=$2; shift ;;
	-h|--help) usage ;;
	-*) echo "bench_fwd_versions: unknown option '$1'" >&2; usage ;;
	*) VERSIONS+=("$1") ;;
	esac
	shift
done
case "$REPS$SECS" in ''|*[!0-9]*)
	echo "bench_fwd_versions: --reps and --secs take integers" >&2; exit 2 ;;
esac
[ "$REPS" -ge 1 ] || { echo "bench_fwd_versions: --reps >= 1" >&2; exit 2; }
[ ${#VERSIONS[@]} -gt 0 ] || VERSIONS=(debian 25.11.2)
# Each version once (its output folder is its name), and each one there
# before anything is measured: a DPDK of ../shared/dpdk is built into
# its cache now if it is not yet (scripts/dpdk.sh).
seen=" "
for v in "${VERSIONS[@]}"; do
	case $seen in *" $v "*)
		echo "bench_fwd_versions: version '$v' given twice" >&2; exit 2 ;;
	esac
	seen="$seen$v "
	[ "$v" = debian ] || bash scripts/dpdk.sh "$v" >/dev/null ||
		{ echo "bench_fwd_versions: no DPDK $v (scripts/dpdk.sh)" >&2; exit 1; }
done
PROGS="l2fwd tp_direct_lazy tp_direct_every"
OUT=${BENCH_OUT:-bench/fwd_versions}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# bench_pipeline.sh for VERSION, its output in its own folder.
pipeline() { # pipeline VERSION ARGS...
	local v=$1 d=()
	shift
	[ "$v" = debian ] || d=(--dpdk "$v")
	BENCH_OUT=$OUT/$v bash scripts/bench_pipeline.sh ${d[@]+"${d[@]}"} "$@"
}

# The run's identity as it starts (what the binaries are built from).
START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
COMMIT=$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
DIRTY=$([ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] &&
	echo true || echo false)

mkdir -p "$OUT"
for v in "${VERSIONS[@]}"; do
	rm -rf "${OUT:?}/$v/pipeline_logs"
done
for r in $(seq 1 "$REPS"); do
	order=("${VERSIONS[@]}")
	if [ $((r % 2)) = 0 ]; then
		order=()
		for ((i = ${#VERSIONS[@]} - 1; i >= 0; i--)); do
			order+=("${VERSIONS[$i]}")
		done
	fi
	for v in "${order[@]}"; do
		echo "== rep $r/$REPS: DPDK $v"
		skip=1
		[ "$r" != 1 ] || skip=${BENCH_SKIP_SETUP:-0}
		BENCH_SKIP_SETUP=$skip pipeline "$v" --no-aging --no-ipfix \
			--programs "$PROGS" --reps "$REPS" --rep "$r" \
			--secs "$SECS" >"$OUT/$v.rep$r.log" 2>&1 ||
			{ echo "bench_fwd_versions: DPDK $v failed (see $OUT/$v.rep$r.log)" >&2
			  exit 1; }
	done
done
reports=()
for v in "${VERSIONS[@]}"; do
	reports+=("$OUT/$v/pipeline.json")
done
"$PY" tools/bench_fwd_versions.py --out "$OUT/fwd_versions.json" \
	--start "$START" --commit "$COMMIT" --dirty "$DIRTY" "${reports[@]}"
