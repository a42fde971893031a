#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Run one DPDK test suite, as tests/meson.build's test() does:
#
#     tests/dpdk_suite.sh NAME BINARY EAL-ARGS...
#
# with its own --file-prefix, tp_test_<pid>_NAME (so that concurrent runs
# never share a DPDK runtime directory), then remove what a crashed or
# killed primary leaves under that prefix. The suite reads its case-name
# filter from TP_TEST_FILTER.

set -u

name=$1
bin=$2
shift 2
prefix=tp_test_$$_$name

cleanup() {
	rm -rf "/var/run/dpdk/$prefix" \
		"${XDG_RUNTIME_DIR:-/tmp}/dpdk/$prefix" 2>/dev/null
	rm -f /dev/hugepages/"$prefix"map_* 2>/dev/null
}
trap cleanup EXIT
# A timeout signals the whole process group: clean up once the suite died.
trap 'exit 143' TERM

"$bin" "$@" --file-prefix="$prefix"
