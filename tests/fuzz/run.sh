#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Suite "fuzz_parse": build the libFuzzer target of the packet parser with
# clang (fuzzer + ASan + UBSan), seed it with every frame of a generated
# capture (truncated headers, bad lengths, IPv6 extension chains, VLAN
# stacks, garbage) and fuzz for FUZZ_SECONDS (default 60). Any crash,
# sanitizer report or broken invariant fails the suite; the input that
# triggered it is kept in build/fuzz-findings/ to become a regression test.
#
#     tests/fuzz/run.sh BUILD_DIR
set -u

build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SECONDS:-60}
out="$build/fuzz"
work=$(mktemp -d "${TMPDIR:-/tmp}/tp_fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
SUITE=fuzz_parse
. "$src/tests/check.sh"

if ! command -v clang >/dev/null && [ "$(id -u)" = 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends clang libclang-rt-dev >/dev/null 2>&1 ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		  apt-get install -y -qq --no-install-recommends clang \
		  libclang-rt-dev >/dev/null; }
fi
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

mkdir -p "$out"
# shellcheck disable=SC2046
clang -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -DALLOW_EXPERIMENTAL_API \
	-I"$src/examples/timer_pipeline" -I"$src/common" \
	$(pkg-config --cflags libdpdk) \
	"$src/tests/fuzz/fuzz_parse.c" -o "$out/fuzz_parse" \
	$(pkg-config --libs libdpdk) \
	-Wl,-rpath,"$(pkg-config --variable=libdir libdpdk)" -Wl,--disable-new-dtags \
	> "$work/build.log" 2>&1
rc=$?
cat "$work/build.log"
check builds $rc
if [ $rc -ne 0 ]; then
	check_result
	exit 1
fi

"$PY" "$src/tools/gen_pcap.py" -o "$work/seed.pcap" --seed 7 --flows 60 \
	--malformed 80 --non-ip 10 --garbage 40 --vlan-pct 40 --qinq-pct 50 \
	--ipv6-pct 40 --ext-hdr-pct 60 >/dev/null &&
	"$PY" "$src/tests/fuzz/seeds.py" "$work/seed.pcap" "$work/corpus"
check seed_corpus $?

mkdir -p "$build/fuzz-findings"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	timeout $((secs + 60)) "$out/fuzz_parse" -max_total_time="$secs" \
	-max_len=9100 -artifact_prefix="$build/fuzz-findings/" \
	-print_final_stats=1 "$work/corpus" > "$work/fuzz.log" 2>&1
rc=$?
grep -E "^stat::number_of_executed_units|^Done|ERROR|SUMMARY|==[0-9]+==" \
	"$work/fuzz.log" | head -20
check "no_finding_in_${secs}s" $rc

check_result
