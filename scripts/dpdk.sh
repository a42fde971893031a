#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Build a minimal DPDK for this project and install it into a cache outside
# the clone; print the PKG_CONFIG_PATH to build against it (the only line
# on stdout; progress goes to stderr).
#
#     bash scripts/dpdk.sh VERSION        e.g. 25.11.2: ../shared/dpdk/dpdk-VERSION.tar.xz
#     bash scripts/dpdk.sh FILE.tar.xz    your own DPDK tarball (any tar compression)
#     bash scripts/dpdk.sh DIR            your own DPDK source tree
#
#     PKG_CONFIG_PATH=$(bash scripts/dpdk.sh 25.11.2) bash scripts/setup.sh
#
# The cache is $DPDK_CACHE, default /var/cache/timer_pipeline/dpdk-VERSION.
# A cache whose stamp matches the source (its sha256, or the tree's path:
# remove the cache to rebuild a tree you changed) and the build options is
# reused as it is; anything else is rebuilt in its place. A
# tarball from ../shared/dpdk is checked against its .sha256 first.
# $DPDK_MESON_ARGS adds meson options (e.g. -Denable_stdatomic=true; give
# such a variant its own $DPDK_CACHE). Versions before 23.11 are refused:
# 22.11 is Debian's (scripts/setup.sh installs it).
#
# What is built: the libraries eventdev pulls in plus timer, cfgfile and
# telemetry; bus/vdev, mempool/ring, event/sw, event/dsw, net/null,
# net/pcap, net/af_packet and net/af_xdp (libxdp-dev, libbpf-dev); the app
# dpdk-test-eventdev; meson install also copies the examples' sources
# (PREFIX/share/dpdk/examples, where bench_pipeline.sh takes l2fwd-event).
# The driver SDK headers are installed (-Denable_driver_sdk=true: the
# event_direct driver, drivers/event_direct, builds against them). DPDK's
# unit test app, dpdk-test, is built too for the versions in
# $DPDK_TEST_VERSIONS (default 25.11.2, where CI runs DPDK's
# event_timer_adapter_test through the driver; 22.11 is Debian's
# /usr/bin/dpdk-test).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
shared=${TP_SHARED_DIR:-$(cd "$top/.." && pwd)/shared}

LIBS=eventdev,timer,cryptodev,dmadev,cfgfile,telemetry
APPS=test-eventdev
DRIVERS=bus/vdev,mempool/ring,event/sw,event/dsw,net/null,net/pcap,net/af_packet,net/af_xdp
# Each must be in the install, or the build failed us (net/af_xdp needs
# libxdp >= 1.2 or libbpf; Debian 12 has both).
REQUIRED_PMDS="bus_vdev mempool_ring event_sw event_dsw net_null net_pcap net_af_packet net_af_xdp"
PKGS="meson ninja-build pkg-config gcc python3 python3-pyelftools libnuma-dev libpcap-dev libxdp-dev libbpf-dev libelf-dev zlib1g-dev xz-utils"

die() { echo "dpdk.sh: $*" >&2; exit 1; }
log() { echo "dpdk.sh: $*" >&2; }

[ $# -eq 1 ] || {
	sed -n '5,13p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
arg=$1

# DPDK's build runs python3 with elftools: Debian's, ahead of any pyenv.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

install_packages() {
	local missing="" p
	for p in $PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root to install them)"
	log "installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# The source: a version from ../shared/dpdk, a tarball or a tree.
kind="" src="" version=""
if [ -d "$arg" ]; then
	kind=tree
	src=$(cd "$arg" && pwd)
	[ -f "$src/VERSION" ] && [ -f "$src/meson.build" ] ||
		die "$arg is not a DPDK source tree (no VERSION or meson.build)"
	version=$(tr -d ' \n' < "$src/VERSION")
elif [ -f "$arg" ]; then
	kind=tarball
	src=$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")
elif [[ "$arg" =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]]; then
	kind=tarball
	src=$shared/dpdk/dpdk-$arg.tar.xz
	[ -f "$src" ] || die "no $src (versions there: $(cd "$shared/dpdk" 2>/dev/null &&
		ls dpdk-*.tar.xz 2>/dev/null | sed 's/^dpdk-//; s/\.tar\.xz$//' | tr '\n' ' '))"
	[ -f "$src.sha256" ] || die "no checksum file $src.sha256"
	want=$(awk '{print $1; exit}' "$src.sha256")
	got=$(sha256sum "$src" | awk '{print $1}')
	[ "$want" = "$got" ] ||
		die "checksum mismatch for $src: expected $want, got $got (corrupt or replaced tarball)"
	version=$arg
else
	die "$arg: not a version (e.g. 25.11.2), a tarball or a source tree"
fi

if [ "$kind" = tarball ]; then
	stamp_src="sha256 $(sha256sum "$src" | awk '{print $1}')"
	if [ -z "$version" ]; then
		# The VERSION file of the tarball's top folder.
		# (awk reads the whole list: an early exit would kill tar with
		# SIGPIPE, which pipefail reports as a failure)
		vf=$(tar -tf "$src" 2>/dev/null |
			awk '/^[^\/]+\/VERSION$/ && !f { print; f = 1 }')
		[ -n "$vf" ] ||
			die "$src is not a DPDK tarball (no top-level VERSION file)"
		version=$(tar -xOf "$src" "$vf" | tr -d ' \n')
	fi
else
	stamp_src="tree $src"
fi
case "$version" in
	2[3-9].*|[3-9][0-9].*) ;;
	*) die "DPDK $version: this script builds 23.11 and later (22.11 is Debian's: bash scripts/setup.sh)" ;;
esac

# dpdk-test only where it runs (it adds a few minutes to the build).
tests=false
case " ${DPDK_TEST_VERSIONS:-25.11.2} " in *" $version "*)
	tests=true
	APPS=$APPS,test ;;
esac

prefix=${DPDK_CACHE:-/var/cache/timer_pipeline/dpdk-$version}
stamp_opts="libs=$LIBS drivers=$DRIVERS apps=$APPS sdk=true extra=${DPDK_MESON_ARGS:-}"
stamp="$prefix/.timer_pipeline-stamp"

pcpath() { # the pkgconfig folder under the prefix
	local d
	d=$(dirname "$(find "$prefix" -name libdpdk.pc -path '*pkgconfig*' 2>/dev/null | head -n 1)")
	[ -f "$d/libdpdk.pc" ] || return 1
	echo "$d"
}

cached() {
	[ -f "$stamp" ] &&
		[ "$(sed -n 1p "$stamp")" = "$stamp_src" ] &&
		[ "$(sed -n 2p "$stamp")" = "$stamp_opts" ] && pcpath >/dev/null
}

mkdir -p "$(dirname "$prefix")" 2>/dev/null ||
	die "cannot create $(dirname "$prefix") (set DPDK_CACHE to a writable folder)"
exec 9>"$prefix.lock" || die "cannot write $prefix.lock (set DPDK_CACHE to a writable folder)"
flock 9

if cached; then
	log "DPDK $version: cached in $prefix"
	pcpath
	exit 0
fi

install_packages
work=$(mktemp -d "${TMPDIR:-/tmp}/dpdk-$version.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ "$kind" = tarball ]; then
	log "DPDK $version: unpacking $src"
	mkdir "$work/src"
	tar -xf "$src" -C "$work/src" --strip-components=1
	srcdir=$work/src
else
	srcdir=$src
fi

rm -rf "$prefix"
t0=$(date +%s)
log "DPDK $version: meson setup (prefix $prefix)"
# shellcheck disable=SC2086
meson setup "$work/build" "$srcdir" --prefix="$prefix" \
	-Dplatform=generic -Ddefault_library=shared \
	-Denable_libs="$LIBS" -Denable_drivers="$DRIVERS" \
	-Denable_apps="$APPS" -Dtests=$tests -Denable_driver_sdk=true \
	-Denable_docs=false \
	-Dexamples= ${DPDK_MESON_ARGS:-} > "$work/setup.log" 2>&1 ||
	{ tail -n 30 "$work/setup.log" >&2; die "meson setup failed"; }
log "DPDK $version: building ($(nproc) CPUs)"
ninja -C "$work/build" > "$work/build.log" 2>&1 ||
	{ grep -m 20 -E 'error|FAILED' "$work/build.log" >&2; die "build failed"; }
meson install -C "$work/build" > "$work/install.log" 2>&1 ||
	{ tail -n 20 "$work/install.log" >&2; die "meson install failed"; }

libdir=$(dirname "$(find "$prefix" -name 'librte_eal.so' | head -n 1)")
for p in $REQUIRED_PMDS; do
	ls "$libdir"/librte_"$p".so* "$libdir"/dpdk/pmds-*/librte_"$p".so* \
		>/dev/null 2>&1 || die "DPDK $version: driver $p was not built (see meson setup's summary)"
done
[ -x "$prefix/bin/dpdk-test-eventdev" ] || die "DPDK $version: dpdk-test-eventdev was not built"
[ "$tests" = false ] || [ -x "$prefix/bin/dpdk-test" ] ||
	die "DPDK $version: dpdk-test was not built"
[ -n "$(find "$prefix" -name eventdev_pmd.h -print -quit)" ] ||
	die "DPDK $version: the driver SDK headers were not installed"
[ -f "$prefix/share/dpdk/examples/l2fwd-event/main.c" ] ||
	die "DPDK $version: the examples' sources were not installed"
printf '%s\n%s\n' "$stamp_src" "$stamp_opts" > "$stamp"
log "DPDK $version: installed in $prefix in $(( $(date +%s) - t0 )) s"
pcpath
