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

# live NAME VDEV-ARGS ADAPTER: start the pipeline in its namespace, send,
# wait for every flow to end, SIGINT; sets LOG, RC, FLOWS.
live() {
	local name=$1 vdev=$2 ad=$3 i pid app
	LOG=$WORK/$name.log
	FLOWS=$WORK/$name.json
	STATS=$WORK/$name.stats.json
	tp_eal
	tp_args "$LOG" "${EAL[@]}" --vdev=event_sw0 "--vdev=net_pcap0,$vdev" \
		-- "${TMO_ARGS[@]}" -T 1 --stats-json "$STATS" \
		--idle-sleep-us 50 --flows 4096 --timer-adapter "$ad" \
		--flow-log "$FLOWS"
	ip netns exec "$NSP" timeout -k 5 40 "$TP_BIN" "${ARGS[@]}" \
		>"$LOG" 2>&1 &
	pid=$!
	TP_PIDS+=("$pid")
	RC=1
	for i in $(seq 1 100); do	# running: its first stats screen
		app=$(pgrep -P "$pid" | head -1)
		[ -n "$app" ] && grep -q '=== timer_pipeline stats' "$LOG" &&
			break
		kill -0 "$pid" 2>/dev/null || return
		sleep 0.2
	done
	[ -n "$app" ] || return
	TP_PIDS+=("$app")
	send tpa || return
	# Every flow ends by itself: idle timeouts of 1 s at most.
	for i in $(seq 1 50); do
		[ "$(tp_live_ended "$STATS")" = "$(wc -l <"$WORK/live.json.n")" ] &&
			break
		sleep 0.2
	done
	kill -INT "$app"
	wait "$pid"
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
