#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Idempotent set-up on Debian 12 (as root): install what is missing,
# reserve 2 MB hugepages when possible, provide DPDK's driver SDK headers
# for Debian's DPDK (below), configure and build into $BUILD_DIR (default:
# build). Extra meson options may be given in $MESON_ARGS.
set -euo pipefail

cd "$(dirname "$0")/.."
shared=${TP_SHARED_DIR:-$(cd .. && pwd)/shared}
BUILD_DIR=${BUILD_DIR:-build}
PKGS="dpdk dpdk-dev libdpdk-dev meson ninja-build pkg-config libpcap-dev gcc python3 coreutils procps"
# dpdk-timer_pipeline links DPDK's static libraries (meson_options.txt,
# pipeline_dpdk_link): their pkg-config flags name libsystemd (libpcap's,
# through dbus), whose link-time name only the -dev package gives.
PKGS="$PKGS libsystemd-dev"
# tests/pipeline/live_iface.sh and scripts/bench_live.sh: network namespaces
# and veth pairs (ip), a sender at a fixed rate (tcpreplay --pps).
PKGS="$PKGS iproute2 tcpreplay"
# The documentation (scripts/docs.sh), its tested commands and tools/plot_run.py.
PKGS="$PKGS python3-sphinx doxygen tcpdump python3-matplotlib"
# The guides' figures (graphviz for the diagrams) and the browser test of
# the built pages (tests/pipeline/docs_browser.py).
PKGS="$PKGS graphviz chromium chromium-driver python3-selenium"
# IPFIX export (libfixbuf) and its tests and benchmark: nfcapd/nfdump,
# ipfixDump, softflowd side by side, python3-ipfix as a second decoder,
# pmacct (nfacctd) as a collector without RFC 5103 biflows.
PKGS="$PKGS libfixbuf-dev libfixbuf-tools nfdump softflowd python3-ipfix pmacct"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup: missing packages:$missing (run as root to install them)" >&2
		exit 1
	fi
	echo "setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# Hugepages: secondary processes need them; everything else also runs
# without (--no-huge). Failure here is not fatal.
if [ "$(id -u)" = 0 ]; then
	hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	if [ -w "$hp" ] && [ "$(cat $hp)" -lt 256 ]; then
		echo 256 > "$hp" 2>/dev/null || true
	fi
	if ! grep -qs ' /dev/hugepages hugetlbfs ' /proc/mounts; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null || true
	fi
fi

# The event_direct driver (drivers/event_direct) needs DPDK's driver SDK
# headers, which Debian's libdpdk-dev does not ship: install those of the
# release Debian ships, from ../shared/dpdk/dpdk-VERSION.tar.xz, into a
# cache outside the clone (headers only; meson looks there, see
# drivers/event_direct/meson.build). A DPDK built by scripts/dpdk.sh has
# them already. Without the tarball the driver is not built (meson says
# which headers are missing).
sdk_headers() {
	local v inc tarball cache top
	v=$(pkg-config --modversion libdpdk 2>/dev/null) || return 0
	inc=$(pkg-config --variable=includedir libdpdk)
	[ -f "$inc/eventdev_pmd.h" ] || [ -f "$inc/dpdk/eventdev_pmd.h" ] && return 0
	cache=${TP_SDK_CACHE:-/var/cache/timer_pipeline}/dpdk-$v-sdk
	[ -f "$cache/include/eventdev_pmd.h" ] && return 0
	tarball=$shared/dpdk/dpdk-$v.tar.xz
	if [ ! -f "$tarball" ]; then
		echo "setup: no $tarball: the event_direct driver will not be built" >&2
		return 0
	fi
	top=$(tar -tf "$tarball" | awk -F/ 'NR == 1 { print $1 }')
	mkdir -p "$cache/include.tmp"
	# The driver-facing headers of EAL, eventdev and bus/vdev (each
	# meson.build's driver_sdk_headers).
	tar -xf "$tarball" -C "$cache/include.tmp" --strip-components=4 \
		"$top/lib/eal/include/dev_driver.h" \
		"$top/lib/eal/include/bus_driver.h"
	tar -xf "$tarball" -C "$cache/include.tmp" --strip-components=3 \
		"$top/lib/eventdev/eventdev_pmd.h" \
		"$top/lib/eventdev/eventdev_pmd_vdev.h" \
		"$top/lib/eventdev/event_timer_adapter_pmd.h" \
		"$top/lib/eventdev/eventdev_trace.h"
	tar -xf "$tarball" -C "$cache/include.tmp" --strip-components=4 \
		"$top/drivers/bus/vdev/bus_vdev_driver.h"
	rm -rf "$cache/include"
	mv "$cache/include.tmp" "$cache/include"
	echo "setup: DPDK $v driver SDK headers in $cache/include"
}
sdk_headers

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
	# shellcheck disable=SC2086
	meson setup "$BUILD_DIR" ${MESON_ARGS:-} >/dev/null
fi
ninja -C "$BUILD_DIR" >/dev/null
echo "setup: built in $BUILD_DIR"
