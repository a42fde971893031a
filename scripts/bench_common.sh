# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Sourced by scripts/bench.sh, bench_pipeline.sh and bench_clock.sh: which DPDK a
# benchmark runs on, and the run's identity in every JSON it writes.
#
#   bench_dpdk_select "$@"   takes --dpdk VERSION (a version of
#                            ../shared/dpdk, a tarball or a tree: built by
#                            scripts/dpdk.sh) out of the arguments into
#                            BENCH_ARGS; without it, the DPDK of
#                            PKG_CONFIG_PATH, else Debian's. Sets
#                            BENCH_DPDK (its version), BENCH_DPDK_PREFIX,
#                            BENCH_DPDK_LIBDIR, and the default BUILD_DIR
#                            (build, or build-dpdk-VERSION) and OUT
#                            (bench, or bench/dpdk-VERSION).
#   bench_stamp FILE.json    adds "run": date and commit (as the run
#                            started), DPDK, machine.
#   bench_hop_start LOG      tools/cpu_hop (how far apart CPUs 0 and 1
#   bench_hop_stop           are, sampled every 100 ms) into LOG while a
#                            run goes on, where BUILD_DIR has it; its pid
#                            in BENCH_HOP_PID until stopped.

bench_dpdk_select() {
	local want="" v
	BENCH_ARGS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--dpdk)
			[ $# -ge 2 ] || { echo "bench: --dpdk needs a version" >&2; exit 2; }
			want=$2; shift ;;
		--dpdk=*) want=${1#--dpdk=} ;;
		*) BENCH_ARGS+=("$1") ;;
		esac
		shift
	done
	if [ -n "$want" ]; then
		PKG_CONFIG_PATH=$(bash scripts/dpdk.sh "$want") || exit 1
		export PKG_CONFIG_PATH
	fi
	BENCH_DPDK=$(pkg-config --modversion libdpdk 2>/dev/null || true)
	[ -n "$BENCH_DPDK" ] || {
		# Debian's, installed by scripts/setup.sh.
		bash scripts/setup.sh >/dev/null
		BENCH_DPDK=$(pkg-config --modversion libdpdk)
	}
	BENCH_DPDK_PREFIX=$(pkg-config --variable=prefix libdpdk)
	BENCH_DPDK_LIBDIR=$(pkg-config --variable=libdir libdpdk)
	v=$BENCH_DPDK
	if [ "$BENCH_DPDK_PREFIX" = /usr ]; then
		BUILD_DIR=${BUILD_DIR:-build}
		OUT=${BENCH_OUT:-bench}
	else
		BUILD_DIR=${BUILD_DIR:-build-dpdk-$v}
		OUT=${BENCH_OUT:-bench/dpdk-$v}
		# DPDK's own programs (dpdk-test-eventdev) have no rpath to
		# its libraries; ours do.
		export LD_LIBRARY_PATH=$BENCH_DPDK_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	fi
	export BUILD_DIR
	# The run's identity as it starts (what the binaries are built from).
	BENCH_START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	BENCH_COMMIT=$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
	BENCH_DIRTY=$([ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] &&
		echo true || echo false)
	export BENCH_START BENCH_COMMIT BENCH_DIRTY
	echo "bench: DPDK $BENCH_DPDK ($BENCH_DPDK_PREFIX), build $BUILD_DIR, output $OUT"
}

# The DPDK program NAME of the selected DPDK (Debian's from PATH).
bench_dpdk_program() {
	if [ -x "$BENCH_DPDK_PREFIX/bin/$1" ]; then
		echo "$BENCH_DPDK_PREFIX/bin/$1"
	else
		command -v "$1" || true
	fi
}

bench_stamp() { # bench_stamp FILE.json: add the run's identity
	[ -f "$1" ] || return 0
	# Outside bench_dpdk_select (bench_ipfix.sh run alone): pkg-config's.
	: "${BENCH_DPDK:=$(pkg-config --modversion libdpdk 2>/dev/null || echo unknown)}"
	: "${BENCH_DPDK_PREFIX:=$(pkg-config --variable=prefix libdpdk 2>/dev/null || echo unknown)}"
	/usr/bin/python3 - "$1" "$BENCH_DPDK" "$BENCH_DPDK_PREFIX" <<'PYEOF'
import json, os, platform, subprocess, sys, time
path, dpdk, prefix = sys.argv[1:4]
def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
cpu = None
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
doc = json.load(open(path))
# Taken when the run started (bench_dpdk_select), else now.
dirty = os.environ.get("BENCH_DIRTY")
if dirty is None:
    dirty = bool(sh("git", "status", "--porcelain", "--untracked-files=no"))
else:
    dirty = dirty == "true"
doc["run"] = {
    "date": os.environ.get("BENCH_START") or
            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "commit": os.environ.get("BENCH_COMMIT") or
              sh("git", "rev-parse", "--short=7", "HEAD"),
    "commit_dirty": dirty,
    "dpdk": dpdk,
    "dpdk_prefix": prefix,
    "machine": {"cpu": cpu, "cpus": os.cpu_count(),
                "kernel": platform.release(),
                "mem_gb": round(os.sysconf("SC_PAGE_SIZE") *
                                os.sysconf("SC_PHYS_PAGES") / 2**30, 1)},
}
json.dump(doc, open(path, "w"), indent=1)
PYEOF
}

BENCH_HOP_PID=""
bench_hop_start() {
	BENCH_HOP_PID=""
	[ -x "$BUILD_DIR/tools/cpu_hop" ] || return 0
	"$BUILD_DIR/tools/cpu_hop" -a 0 -b 1 -i 100 >"$1" 2>/dev/null &
	BENCH_HOP_PID=$!
}
bench_hop_stop() {
	[ -n "$BENCH_HOP_PID" ] || return 0
	kill -TERM "$BENCH_HOP_PID" 2>/dev/null || true
	wait "$BENCH_HOP_PID" 2>/dev/null || true
	BENCH_HOP_PID=""
}
