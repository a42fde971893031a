#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Suite "fuzz_TARGET": build one libFuzzer target with clang (fuzzer +
# ASan + UBSan), seed it from the tests' own inputs and fuzz it for
# FUZZ_SECONDS (default 30). Any crash, sanitizer report or broken
# invariant fails the suite; the input that triggered it is kept in
# build/fuzz-findings/TARGET-* to become a regression case
# (tests/fuzz/regress/TARGET/, replayed by the regress_TARGET suite).
#
#     tests/fuzz/run.sh BUILD_DIR [TARGET]
#
# TARGET (default parse), its sources and seeds:
#   parse    the packet parser (tp_parse.h); every frame of a generated
#            capture, of every link type (seeds.py)
#   options  the command line parser (tp_args.c, tp_option.c);
#            cmdline.sh's argument vectors and hostile values per
#            option (seed_inputs.py)
#   ini      the INI loader (tp_config_file.c); configs/*.ini, cmdline.sh's
#            files, hostile files
#   capture  the rx_pcap pre-scan (tp_capture.c, libpcap); generated pcap
#            and pcapng captures, every pcapng block type, broken headers
#   ipfix    the IPFIX encoder (tp_ipfix_enc.c, libfixbuf); test_ipfix.c's
#            flows
# options and ini also get a dictionary made from the option table.
set -u

build=$1
target=${2:-parse}
src=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SECONDS:-30}
out="$build/fuzz"
work=$(mktemp -d "${TMPDIR:-/tmp}/tp_fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
SUITE=fuzz_$target
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

tp=$src/examples/timer_pipeline
cfg_srcs=("$tp/setup/tp_args.c" "$tp/setup/tp_config.c"
	"$tp/setup/tp_config_file.c" "$tp/setup/tp_config_text.c"
	"$tp/setup/tp_option.c" "$tp/setup/tp_option_parse.c")
dpdk_cflags=$(pkg-config --cflags libdpdk)
dpdk_libs="$(pkg-config --libs libdpdk) -Wl,-rpath,$(pkg-config \
	--variable=libdir libdpdk) -Wl,--disable-new-dtags"
# Per target: its sources, libraries, -max_len, extra libFuzzer options.
fuzz_opts=()
case $target in
parse)
	srcs=(); libs=$dpdk_libs; max_len=9100 ;;
options)
	srcs=("${cfg_srcs[@]}"); libs=$dpdk_libs; max_len=8192
	fuzz_opts=(-close_fd_mask=3) ;;
ini)
	srcs=("${cfg_srcs[@]}"); libs=$dpdk_libs; max_len=4096
	fuzz_opts=(-close_fd_mask=3) ;;
capture)
	# setup/tp_capture.c is included by the target (its table is static).
	srcs=(); libs="$dpdk_libs -lpcap"; max_len=300000
	fuzz_opts=(-close_fd_mask=3) ;;
ipfix)
	srcs=("$tp/records/tp_ipfix_enc.c")
	dpdk_cflags=$(pkg-config --cflags libfixbuf)
	libs=$(pkg-config --libs libfixbuf); max_len=20000 ;;
*)
	echo "unknown fuzz target '$target'"
	check target_known 1
	check_result
	exit 1 ;;
esac

mkdir -p "$out"
# shellcheck disable=SC2086
clang -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -DALLOW_EXPERIMENTAL_API \
	-I"$tp" -I"$src/common" $dpdk_cflags \
	"$src/tests/fuzz/fuzz_$target.c" "${srcs[@]}" \
	-o "$out/fuzz_$target" $libs > "$work/build.log" 2>&1
rc=$?
cat "$work/build.log"
check builds $rc
if [ $rc -ne 0 ]; then
	check_result
	exit 1
fi

if [ "$target" = parse ]; then
	"$PY" "$src/tools/gen_pcap.py" -o "$work/seed.pcap" --seed 7 \
		--flows 60 --malformed 80 --non-ip 10 --garbage 40 \
		--vlan-pct 40 --qinq-pct 50 --ipv6-pct 40 --ext-hdr-pct 60 \
		>/dev/null &&
		"$PY" "$src/tests/fuzz/seeds.py" "$work/seed.pcap" \
			"$work/corpus"
else
	"$PY" "$src/tests/fuzz/seed_inputs.py" "$target" "$work/corpus"
fi
check seed_corpus $?
# The regression cases seed it too: the fuzzer starts where bugs were.
[ -d "$src/tests/fuzz/regress/$target" ] &&
	cp "$src/tests/fuzz/regress/$target"/* "$work/corpus/"

case $target in options|ini)
	TP_FUZZ_WRITE_DICT="$work/dict" "$out/fuzz_$target" >/dev/null 2>&1
	check dictionary_from_option_table $?
	fuzz_opts+=(-dict="$work/dict") ;;
esac

mkdir -p "$build/fuzz-findings"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	timeout $((secs + 60)) "$out/fuzz_$target" -max_total_time="$secs" \
	-max_len=$max_len -artifact_prefix="$build/fuzz-findings/$target-" \
	-print_final_stats=1 "${fuzz_opts[@]}" "$work/corpus" \
	> "$work/fuzz.log" 2>&1
rc=$?
grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|DONE|^fuzz:|ERROR|SUMMARY|Test unit written|==[0-9]+==" \
	"$work/fuzz.log" | head -20
check "no_finding_in_${secs}s" $rc

check_result
