#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Live interfaces: net_pcap on a veth (--vdev=net_pcap0,iface=IF, and
# rx_iface=/tx_iface=). The test makes two network namespaces of its own,
# a sender and the pipeline's, joined by veth pairs with IPv6 off (no
# neighbour discovery or MLD: the only traffic is ours). A sender of our
# own (python3, AF_PACKET) writes the frames of a generated capture on the
# sender's end; the pipeline, in its namespace, reads the other end. It
# must see every frame (rx == frames sent), end every flow by its idle
# timeout or its FIN/RST before it is stopped (no forced_end), write the
# generator's records exactly, and stop cleanly on SIGINT (exit 0,
# exactly-once check passed). The addresses exist on that wire only.
#
# The input drivers at a fixed rate: for each of net_af_xdp, net_af_packet
# and net_pcap iface= that starts here, tcpreplay --pps sends a capture of
# known flows (no QinQ: net_af_packet gives 802.1ad frames an 0x8100 outer
# tag, docs/captures.rst) and the pipeline, in monitor mode, must see
# every frame and write exactly those records; its summary must say
# whether it knows the kernel's drops (net_af_packet before DPDK 25.11,
# net_af_xdp: input_drops known false, imissed null). scripts/run_live.sh picks its
# input and, on SIGINT while every flow is live, ends them all as forced
# end within the 2-s shutdown budget; it sets the interface as its
# --print-tuning says for the input it picked while the pipeline runs,
# and puts the old values back at exit.
#
# Without the right to create namespaces (not root), every case is
# reported as passed with SKIP in its name and the reason.
#
#     tests/pipeline/live_iface.sh BUILD_DIR

SUITE=live_iface
. "$(dirname "$0")/lib.sh"

NSS=tpd$$s	# sender
NSP=tpd$$p	# pipeline

live_cleanup() {
	ip netns del "$NSS" 2>/dev/null
	ip netns del "$NSP" 2>/dev/null
	tp_cleanup
}
trap live_cleanup EXIT

skip() {
	echo "[ SKIP ] pipeline.live_iface: $1"
	tp_pass live_iface_SKIPPED
	tp_result
	exit $?
}

# --- Namespaces and veth pairs ---------------------------------------------

[ "$(id -u)" = 0 ] || skip "not root: cannot create network namespaces"
command -v ip >/dev/null || skip "no ip command (iproute2)"
ip netns add "$NSS" 2>"$WORK/netns.err" ||
	skip "cannot create a network namespace: $(cat "$WORK/netns.err")"
ip netns add "$NSP" || skip "cannot create a second network namespace"
for ns in "$NSS" "$NSP"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
done
# a <-> b: the pipeline's input; c <-> d: its output in the rx/tx case.
if ! ip link add tpa netns "$NSS" type veth peer name tpb netns "$NSP" ||
   ! ip link add tpd netns "$NSS" type veth peer name tpc netns "$NSP"; then
	skip "cannot create veth pairs"
fi
for l in "$NSS tpa" "$NSS tpd" "$NSP tpb" "$NSP tpc"; do
	set -- $l
	ip -n "$1" link set "$2" up
done
ip -n "$NSS" link set lo up
ip -n "$NSP" link set lo up

# The frames: a small capture, every frame under the veth's MTU.
CAP=$WORK/live.pcap
$GEN -o "$CAP" --seed 51 --flows 10 --size 64-400 --gap-ms 0.1-1 \
	--flow-interval-ms 1 --expect "$WORK/live.json" "${TMO_ARGS[@]}" \
	2>/dev/null
NSENT=$(python3 "$TP_SRC/tests/pipeline/pcap_tool.py" count "$CAP")

# send IF: every frame of $CAP on IF, in the sender's namespace.
send() {
	ip netns exec "$NSS" python3 - "$1" "$CAP" <<'EOF'
import socket, struct, sys
iface, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((iface, 0))
off = 24
while off + 16 <= len(data):
    cap = struct.unpack_from("<I", data, off + 8)[0]
    s.send(data[off + 16:off + 16 + cap])
    off += 16 + cap
EOF
}

# live_start NAME VDEV APP-ARGS...: the pipeline on VDEV in its namespace,
# with short timeouts, until it runs (its first stats screen); sets LOG,
# FLOWS, STATS, PID (timeout's) and APP (the pipeline's). Returns 1 if it
# ended or did not get there.
live_start() {
	local name=$1 vdev=$2 i
	shift 2
	LOG=$WORK/$name.log
	FLOWS=$WORK/$name.json
	STATS=$WORK/$name.stats.json
	APP=
	tp_eal
	tp_args "$LOG" "${EAL[@]}" --vdev=event_sw0 "--vdev=$vdev" \
		-- "${TMO_ARGS[@]}" -T 1 --stats-json "$STATS" \
		--idle-sleep-us 50 --flows 4096 --flow-log "$FLOWS" "$@"
	ip netns exec "$NSP" timeout -k 5 40 "$TP_BIN" "${ARGS[@]}" \
		>"$LOG" 2>&1 &
	PID=$!
	TP_PIDS+=("$PID")
	for i in $(seq 1 100); do
		APP=$(pgrep -P "$PID" | head -1)
		if [ -n "$APP" ] && grep -q '=== timer_pipeline stats' "$LOG"; then
			TP_PIDS+=("$APP")
			return 0
		fi
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.2
	done
	kill "$PID" 2>/dev/null
	return 1
}

# live NAME VDEV-ARGS ADAPTER: net_pcap0 on VDEV-ARGS: start, send, wait
# for every flow to end, SIGINT; sets LOG, RC, FLOWS.
live() {
	RC=1
	live_start "$1" "net_pcap0,$2" --timer-adapter "$3" || return
	send tpa || return
	# Every flow ends by itself: idle timeouts of 1 s at most.
	for i in $(seq 1 50); do
		[ "$(tp_live_ended "$STATS")" = "$(wc -l <"$WORK/live.json.n")" ] &&
			break
		sleep 0.2
	done
	kill -INT "$APP"
	wait "$PID"
	RC=$?
}

# Flows ended so far, from the last period of --stats-json STATS.
tp_live_ended() {
	python3 -c 'import json, sys
lines = open(sys.argv[1]).read().split("\n")
last = [l for l in lines if l.endswith("}")][-1:]
print(json.loads(last[0])["flows_ended"] if last else 0)' "$1" 2>/dev/null
}
python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["unpaced"]: print(r["proto"])' \
	"$WORK/live.json" >"$WORK/live.json.n"

# check NAME: the run's records, accounting and stop.
check() {
	local name=$1 rx fwd forced why
	read -r rx fwd forced <<<"$(tp_nums "$LOG" rx_pkts forwarded \
		ended_forced_end)"
	if ! tp_clean_exit "$RC" "$LOG"; then
		tp_fail "$name" "exit status $RC or exactly-once check failed \
after SIGINT" "$LOG"
	elif ! tp_expect_eq "rx (frames sent)" "$rx" "$NSENT" ||
	     ! tp_expect_eq "forwarded" "$fwd" "$NSENT" ||
	     ! tp_expect_eq "flows ended by the stop" "$forced" 0; then
		tp_fail "$name" "$TP_WHY" "$LOG"
	elif ! why=$($CHECK records "$FLOWS" "$WORK/live.json" \
		     --mode unpaced); then
		tp_fail "$name" "$why" "$LOG"
	else
		return 0
	fi
	return 1
}

# One interface for both directions: what we forward leaves on tpb (a
# packet socket does not read back what it sent itself).
live iface_direct "iface=tpb" direct
check iface_direct && tp_pass iface_direct

# Input and output on two interfaces: every frame leaves on tpc.
live rx_tx_iface_rte "rx_iface=tpb,tx_iface=tpc" rte
if check rx_tx_iface_rte; then
	if tp_expect_eq "port opackets" "$(tp_num "$LOG" port_opackets)" \
		"$NSENT"; then
		tp_pass rx_tx_iface_rte
	else
		tp_fail rx_tx_iface_rte "$TP_WHY" "$LOG"
	fi
fi

# --- The input drivers at a fixed rate (tcpreplay --pps) -----------------

RCAP=$WORK/rate.pcap
RPPS=5000
$GEN -o "$RCAP" --seed 52 --flows 60 --qinq-pct 0 --size 64-400 \
	--gap-ms 0.1-1 --flow-interval-ms 1 --expect "$WORK/rate.json" \
	"${TMO_ARGS[@]}" 2>/dev/null
RSENT=$($TOOL count "$RCAP")
RFLOWS=$(python3 -c 'import json, sys
print(len(json.load(open(sys.argv[1]))["unpaced"]))' "$WORK/rate.json")

# replay: every frame of $RCAP on tpa at $RPPS packets/s; fails on a
# frame tcpreplay could not send.
replay() {
	ip netns exec "$NSS" tcpreplay -q -i tpa --pps "$RPPS" "$RCAP" \
		>"$WORK/tcpreplay.log" 2>&1 &&
		grep -q "Actual: $RSENT packets" "$WORK/tcpreplay.log"
}

# drops_known VDEV: what the summary must say of the kernel's drops.
drops_known() {
	case $1 in
	net_af_packet*)
		pkg-config --atleast-version=25.11 libdpdk && echo true ||
			echo false ;;
	net_af_xdp*) echo false ;;	# not rx_ring_full (tp_live.c)
	*) echo true ;;
	esac
}

# driver NAME VDEV: the pipeline in monitor mode on tpb through VDEV.
driver() {
	local name=$1 vdev=$2 i rx mon drop known imissed
	if ! live_start "$name" "$vdev" --fwd-mode monitor; then
		wait "$PID"
		if grep -qiE 'xdp|bpf|af_packet' "$LOG" &&
		   ! grep -q '=== timer_pipeline stats' "$LOG"; then
			echo "[ SKIP ] pipeline.live_iface: $name: the driver does" \
				"not start here: $(grep -iE 'error|fail' "$LOG" |
				head -1)"
			tp_pass "${name}_SKIPPED"
		else
			tp_fail "$name" "did not start" "$LOG"
		fi
		return
	fi
	if ! replay; then
		kill -INT "$APP"
		wait "$PID"
		tp_fail "$name" "tcpreplay did not send $RSENT frames" \
			"$WORK/tcpreplay.log"
		return
	fi
	for i in $(seq 1 50); do
		[ "$(tp_live_ended "$STATS")" = "$RFLOWS" ] && break
		sleep 0.2
	done
	kill -INT "$APP"
	wait "$PID"
	RC=$?
	read -r rx mon drop known imissed <<<"$(tp_nums "$LOG" rx_pkts \
		monitored dropped input_drops.known input_drops.imissed)"
	if ! tp_clean_exit "$RC" "$LOG"; then
		tp_fail "$name" "exit status $RC or exactly-once check failed" \
			"$LOG"
	elif ! tp_expect_eq "rx (frames sent)" "$rx" "$RSENT" ||
	     ! tp_expect_eq "monitored" "$mon" "$RSENT" ||
	     ! tp_expect_eq "dropped" "$drop" 0 ||
	     ! tp_expect_eq "port opackets (monitor: no TX)" \
		     "$(tp_num "$LOG" port_opackets)" 0; then
		tp_fail "$name" "$TP_WHY" "$LOG"
	elif [ "$known" != "$(drops_known "$vdev")" ] ||
	     { [ "$known" = false ] && [ "$imissed" != none ]; } ||
	     { [ "$known" = true ] && [ "$imissed" != 0 ]; }; then
		tp_fail "$name" "input_drops known $known imissed $imissed; \
want known $(drops_known "$vdev")" "$LOG"
	elif [ "$known" = false ] &&
	     ! grep -q 'input drops unknown (imissed is no full count)' "$LOG"; then
		tp_fail "$name" "no 'input drops unknown' line" "$LOG"
	elif ! why=$($CHECK records "$FLOWS" "$WORK/rate.json" \
		     --mode unpaced); then
		tp_fail "$name" "$why" "$LOG"
	else
		tp_pass "$name"
	fi
}

if ! command -v tcpreplay >/dev/null; then
	echo "[ SKIP ] pipeline.live_iface: no tcpreplay (scripts/setup.sh)"
	tp_pass rate_SKIPPED
else
	driver rate_af_xdp net_af_xdp0,iface=tpb
	driver rate_af_packet net_af_packet0,iface=tpb
	driver rate_pcap net_pcap0,iface=tpb
fi

# --- scripts/run_live.sh: its pick, and Ctrl-C with every flow live -------

# The script, as a shell started from a terminal runs it (SIGINT not
# ignored, as it is for a background job of this script), with long
# timeouts: no flow ends before the signal.
name=run_live_ctrl_c
RL=$WORK/run_live
# The settings run_live.sh may tune, as the pipeline's end has them now.
TUNABLE="napi_defer_hard_irqs gro_flush_timeout"
iface_settings() {
	local f
	for f in $TUNABLE; do
		printf '%s=%s ' "$f" "$(ip netns exec "$NSP" \
			cat "/sys/class/net/tpb/$f" 2>/dev/null)"
	done
}
TUNE_BEFORE=$(iface_settings)
ip netns exec "$NSP" timeout -k 5 60 python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp("bash", ["bash"] + sys.argv[1:])' "$TP_SRC/scripts/run_live.sh" \
	tpb -o "$RL" -- --tmo-tcp-syn 30 --tmo-tcp-est 30 --tmo-tcp-closing 30 \
	--tmo-udp 30 --tmo-icmp 30 --tmo-other 30 -T 1 \
	>"$WORK/$name.out" 2>"$WORK/$name.err" &
RPID=$!
TP_PIDS+=("$RPID")
for i in $(seq 1 150); do
	grep -q '=== timer_pipeline stats' "$RL/pipeline.log" 2>/dev/null && break
	kill -0 "$RPID" 2>/dev/null || break
	sleep 0.2
done
TUNE_DURING=$(iface_settings)
if ! grep -q '=== timer_pipeline stats' "$RL/pipeline.log" 2>/dev/null; then
	kill -INT "$RPID" 2>/dev/null
	wait "$RPID"
	tp_fail $name "the script's pipeline did not start" "$WORK/$name.err"
elif ! replay; then
	kill -INT "$RPID"
	wait "$RPID"
	tp_fail $name "tcpreplay did not send $RSENT frames" "$WORK/tcpreplay.log"
else
	kill -INT "$RPID"
	wait "$RPID"
	RC=$?
	cp "$RL/summary.json" "$WORK/$name.sum.json" 2>/dev/null
	cp "$RL/pipeline.log" "$WORK/$name.log"
	read -r rx ended forced req stopped <<<"$(tp_nums "$WORK/$name.log" \
		rx_pkts flows_ended ended_forced_end times.stop_request_ms \
		times.stopped_ms)"
	pick=$(sed -n 's/^run_live: input \([a-z_]*\) .*/\1/p' "$WORK/$name.err")
	if [ "$RC" -ne 0 ] || ! tp_clean_exit 0 "$WORK/$name.log"; then
		tp_fail $name "exit status $RC or exactly-once check failed" \
			"$WORK/$name.err"
		# The pipeline's own errors and warnings (a drain timeout, a
		# second signal), which come before the log's end.
		grep -iE 'error|warning|signal|did not|FAILED' "$WORK/$name.log" |
			head -n 8 | sed 's/^/    + /'
	elif [ -z "$pick" ] || ! grep -q "^Input $pick; exit status 0" \
		"$WORK/$name.out"; then
		tp_fail $name "the script named no input it picked" "$WORK/$name.err"
	elif ! tp_numbers req="$req" stopped="$stopped"; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	elif ! tp_expect_eq "rx (frames sent)" "$rx" "$RSENT" ||
	     ! tp_expect_eq "flows ended" "$ended" "$RFLOWS" ||
	     ! tp_expect_eq "ended as forced end" "$forced" "$RFLOWS" ||
	     ! tp_expect "signal to stopped, ms (2-s budget)" \
		     $((stopped - req)) le 2000; then
		tp_fail $name "$TP_WHY" "$WORK/$name.log"
	elif [ "$(wc -l <"$RL/flows.json")" != "$RFLOWS" ]; then
		tp_fail $name "$(wc -l <"$RL/flows.json") records, want $RFLOWS" \
			"$WORK/$name.log"
	else
		echo "  (run_live picked $pick; stopped $((stopped - req)) ms" \
			"after the signal)"
		tp_pass $name
	fi
fi

# The interface while the script's pipeline ran, and after: what
# run_live.sh --print-tuning gives for its pick, then the old values.
name=run_live_tuning
TUNE_AFTER=$(iface_settings)
pick=$(sed -n 's/^run_live: input \([a-z_]*\) .*/\1/p' \
	"$WORK/run_live_ctrl_c.err")
want=$TUNE_BEFORE
for kv in $(bash "$TP_SRC/scripts/run_live.sh" --print-tuning "${pick:-none}"); do
	want=$(echo "$want" | sed "s/\b${kv%%=*}=[^ ]*/$kv/")
done
if [ -z "$pick" ]; then
	tp_fail $name "run_live.sh named no input" "$WORK/run_live_ctrl_c.err"
elif [ "$TUNE_DURING" != "$want" ]; then
	tp_fail $name "while it ran ($pick): $TUNE_DURING; want $want" \
		"$WORK/run_live_ctrl_c.err"
elif [ "$TUNE_AFTER" != "$TUNE_BEFORE" ]; then
	tp_fail $name "after it: $TUNE_AFTER; want $TUNE_BEFORE back" \
		"$WORK/run_live_ctrl_c.err"
else
	echo "  (with $pick: $TUNE_DURING; after: $TUNE_AFTER)"
	tp_pass $name
fi

# A tun device carries raw IP, not Ethernet: refused before EAL, named.
name=tun_refused
log=$WORK/$name.log
if ! ip -n "$NSP" tuntap add dev tpt mode tun 2>"$WORK/tun.err"; then
	echo "[ SKIP ] pipeline.$name: no tun device: $(cat "$WORK/tun.err")"
	tp_pass ${name}_SKIPPED
else
	tp_eal
	ip netns exec "$NSP" timeout -k 5 30 "$TP_BIN" "${EAL[@]}" \
		--vdev=event_sw0 --vdev=net_pcap0,iface=tpt -- -T 0 >"$log" 2>&1
	rc=$?
	if [ $rc -ne 2 ] || [ "$(grep -c 'error:' "$log")" != 1 ] ||
	   ! grep 'error:' "$log" | grep -q "iface 'tpt' is not an Ethernet \
interface (ARPHRD type 65534)" || grep -q '^EAL:' "$log"; then
		tp_fail $name "exit status $rc; want 2 and one error naming \
'tpt' before EAL" "$log"
	else
		tp_pass $name
	fi
fi

tp_result
