#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Files the pipeline writes and its telemetry socket:
# - the flow log and net_pcap's tx_pcap are never written through a
#   symbolic link (exit status 2 before EAL starts, one message naming the
#   file, the link's target untouched), never over an input (a capture
#   being read, the --config file), and no more is the IPFIX file;
# - the flow log and tx_pcap created under umask 000 are not writable by
#   group or others, and an existing flow log loses that permission and
#   is emptied first (no tail of a longer old file is left);
# - the telemetry socket, under a runtime directory of mode 0700, is not
#   writable by group or others even under umask 000;
# - every /timer_pipeline/ and /timer_adapter/ telemetry command is
#   read-only: called twice each (good and bad parameters), the answers do
#   not change and the pipeline keeps running;
# - 200 telemetry clients that send a command and disconnect before the
#   reply neither kill the pipeline nor stop it forwarding, and it exits 0
#   with the exactly-once check passed;
# - SIGPIPE cannot kill it: with its stdout pipe closed early it finishes
#   the run and exits 0.
#
#     tests/pipeline/security.sh BUILD_DIR

SUITE=security
. "$(dirname "$0")/lib.sh"

TEL="python3 $TP_SRC/tests/pipeline/telemetry_client.py"
IN=$WORK/in.pcap
EXP=$WORK/in.json
NIN=$(tp_gen_expect "$IN" "$EXP" --seed 41 --flows 20)
SECRET="precious content, not to be overwritten"

# refused NAME FILE WORDS EAL-AND-APP-ARGS...: tp_refused (lib.sh): exit
# status 2 before EAL starts, one error line naming FILE and saying WORDS.
refused() {
	tp_refused "$@"
}

# untouched FILE: still holds the secret, and nothing else.
untouched() {
	[ "$(cat "$1" 2>/dev/null)" = "$SECRET" ]
}

# --- Symbolic links at the final component -------------------------------

echo "$SECRET" >"$WORK/target_log"
ln -s "$WORK/target_log" "$WORK/flows_link.json"
if refused flow_log_symlink "$WORK/flows_link.json" 'symbolic link' \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN" -- -T 0 \
	--stop-when-done --flow-log "$WORK/flows_link.json"; then
	if untouched "$WORK/target_log"; then
		tp_pass flow_log_symlink
	else
		tp_fail flow_log_symlink "the link's target was written"
	fi
fi

# A dangling link: following it would create the file it names.
ln -s "$WORK/created_by_log" "$WORK/dangling.json"
if refused flow_log_dangling_symlink "$WORK/dangling.json" 'symbolic link' \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN" -- -T 0 \
	--stop-when-done --flow-log "$WORK/dangling.json"; then
	if [ -e "$WORK/created_by_log" ]; then
		tp_fail flow_log_dangling_symlink "the link's target was created"
	else
		tp_pass flow_log_dangling_symlink
	fi
fi

echo "$SECRET" >"$WORK/target_pcap"
ln -s "$WORK/target_pcap" "$WORK/out_link.pcap"
if refused tx_pcap_symlink "$WORK/out_link.pcap" 'symbolic link' \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/out_link.pcap" \
	-- -T 0 --stop-when-done; then
	if untouched "$WORK/target_pcap"; then
		tp_pass tx_pcap_symlink
	else
		tp_fail tx_pcap_symlink "the link's target was written"
	fi
fi

ln -s "$WORK/created_by_tx" "$WORK/dangling.pcap"
if refused tx_pcap_dangling_symlink "$WORK/dangling.pcap" 'symbolic link' \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/dangling.pcap" \
	-- -T 0 --stop-when-done; then
	if [ -e "$WORK/created_by_tx" ]; then
		tp_fail tx_pcap_dangling_symlink "the link's target was created"
	else
		tp_pass tx_pcap_dangling_symlink
	fi
fi

# A symbolic link in a directory above is the caller's business (only the
# final component is checked): the run goes ahead.
ln -s "$WORK" "$WORK/dirlink"
log=$WORK/dir_symlink.log
tp_pcap_run "$log" "$IN" "$WORK/dirlink/dir_out.pcap" \
	--flow-log "$WORK/dirlink/dir_flows.json"
rc=$?
if tp_clean_exit $rc "$log" && [ -s "$WORK/dir_flows.json" ] &&
   [ -s "$WORK/dir_out.pcap" ]; then
	tp_pass symlink_above_final_component_allowed
else
	tp_fail symlink_above_final_component_allowed "exit status $rc" "$log"
fi

# --- Outputs over inputs, missing directories ----------------------------

cp "$IN" "$WORK/keep.pcap"
if refused tx_pcap_is_rx_pcap "$WORK/keep.pcap" 'rx_pcap capture' \
	--vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$WORK/keep.pcap,tx_pcap=$WORK/keep.pcap" \
	-- -T 0 --stop-when-done; then
	if cmp -s "$IN" "$WORK/keep.pcap"; then
		tp_pass tx_pcap_is_rx_pcap
	else
		tp_fail tx_pcap_is_rx_pcap "the capture was overwritten"
	fi
fi
# over_capture NAME OPTION: OPTION naming the capture being read is refused
# and the capture left as it was.
over_capture() {
	if refused "$1" "$WORK/keep.pcap" 'rx_pcap capture' --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$WORK/keep.pcap" -- -T 0 \
		--stop-when-done "$2" "$WORK/keep.pcap"; then
		if cmp -s "$IN" "$WORK/keep.pcap"; then
			tp_pass "$1"
		else
			tp_fail "$1" "the capture was overwritten"
		fi
	fi
}
over_capture flow_log_is_rx_pcap --flow-log
# The IPFIX file is an output like the others (it once skipped this check).
if ! "$TP_BIN" -- --ipfix-file "$WORK/probe" --dump-config >/dev/null 2>&1
then
	echo "    ipfix_file_is_rx_pcap: skipped, built without libfixbuf"
else
	over_capture ipfix_file_is_rx_pcap --ipfix-file
fi
# The --config file is an input too.
printf '[timers]\ntimer-tick = 10ms\n' >"$WORK/keep.ini"
cp "$WORK/keep.ini" "$WORK/keep.ini.orig"
if refused flow_log_is_config "$WORK/keep.ini" 'config file' \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN" -- -T 0 \
	--stop-when-done --config "$WORK/keep.ini" \
	--flow-log "$WORK/keep.ini"; then
	if cmp -s "$WORK/keep.ini.orig" "$WORK/keep.ini"; then
		tp_pass flow_log_is_config
	else
		tp_fail flow_log_is_config "the --config file was overwritten"
	fi
fi
refused flow_log_no_directory "$WORK/nodir/flows.json" 'not a directory' \
	--vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN" -- -T 0 \
	--stop-when-done --flow-log "$WORK/nodir/flows.json" &&
	tp_pass flow_log_no_directory

# --- File modes under a permissive umask ---------------------------------

# mode FILE: its permission bits in octal.
mode() {
	stat -c %a "$1" 2>/dev/null
}

log=$WORK/umask.log
old_umask=$(umask)
umask 000
tp_pcap_run "$log" "$IN" "$WORK/umask_out.pcap" \
	--flow-log "$WORK/umask_flows.json"
rc=$?
umask "$old_umask"
mlog=$(mode "$WORK/umask_flows.json")
mtx=$(mode "$WORK/umask_out.pcap")
if ! tp_clean_exit $rc "$log"; then
	tp_fail umask_000_modes "exit status $rc" "$log"
elif [ -z "$mlog" ] || [ $((8#$mlog & 8#022)) -ne 0 ] ||
     [ -z "$mtx" ] || [ $((8#$mtx & 8#022)) -ne 0 ]; then
	tp_fail umask_000_modes "flow log mode ${mlog:-none}, tx_pcap mode \
${mtx:-none}: writable by group or others"
else
	tp_pass umask_000_modes
fi

# An existing, world-writable flow log is rewritten and loses that bit.
# Far longer than the new log: a tail left untruncated would show.
yes old | head -n 100000 >"$WORK/ww_flows.json"
chmod 666 "$WORK/ww_flows.json"
log=$WORK/world_writable.log
tp_pcap_run "$log" "$IN" "$WORK/ww_out.pcap" --flow-log "$WORK/ww_flows.json"
rc=$?
m=$(mode "$WORK/ww_flows.json")
if tp_clean_exit $rc "$log" && [ -n "$m" ] &&
   [ $((8#$m & 8#022)) -eq 0 ] && ! grep -q '^old$' "$WORK/ww_flows.json"
then
	tp_pass existing_flow_log_loses_write_bits
else
	tp_fail existing_flow_log_loses_write_bits "exit $rc, mode $m" "$log"
fi

# --- Telemetry -----------------------------------------------------------

# start LOG EAL-AND-APP-ARGS...: tp_start --sock (lib.sh) with a 90-s
# limit; sets PID, APP and SOCK (its telemetry socket).
start() {
	tp_start --sock "$1" 90 "${@:2}"
}

# stop: SIGINT, wait, set RC.
stop() {
	tp_stop INT
}

# Read-only commands: a finite capture, long timeouts, so once it is read
# nothing moves but what the calls would move. Started under umask 000:
# the telemetry socket must still be reachable by its owner only.
tp_eal
log=$WORK/tel_readonly.log
umask 000
start "$log" "${EAL[@]}" --vdev=event_sw0 "--vdev=net_pcap0,rx_pcap=$IN" \
	-- -T 1 --tmo-tcp-syn 60 --tmo-tcp-est 60 --tmo-tcp-closing 60 \
	--tmo-udp 60 --tmo-icmp 60 --tmo-other 60
started=$?
umask "$old_umask"
if [ $started -eq 0 ]; then
	mdir=$(mode "$(dirname "$SOCK")")
	msock=$(mode "$SOCK")
	if [ "$mdir" = 700 ] && [ -n "$msock" ] &&
	   [ $((8#$msock & 8#022)) -eq 0 ]; then
		tp_pass telemetry_socket_private
	else
		tp_fail telemetry_socket_private "runtime directory mode \
${mdir:-?}, socket mode ${msock:-?}"
	fi
fi
if [ $started -ne 0 ]; then
	tp_fail telemetry_read_only "did not start" "$log"
elif ! why=$($TEL wait-rx "$SOCK" "$NIN" 20); then
	tp_fail telemetry_read_only "$why" "$log"
	stop
else
	sleep 0.5	# the last packets' events reach the workers
	why=$($TEL readonly "$SOCK")
	ok=$?
	alive=0
	kill -0 "$APP" 2>/dev/null && alive=1
	stop
	if [ $ok -ne 0 ]; then
		tp_fail telemetry_read_only "$why"
	elif [ $alive -ne 1 ]; then
		tp_fail telemetry_read_only "the pipeline died" "$log"
	elif ! tp_clean_exit $RC "$log"; then
		tp_fail telemetry_read_only "exit status $RC after the calls" \
			"$log"
	else
		echo "    $why"
		tp_pass telemetry_read_only
	fi
fi

# Clients that leave before their reply, under load (infinite_rx).
log=$WORK/tel_storm.log
if tp_start_replay --sock telemetry_disconnect_storm "$log" 90 "$IN" \
	--flow-log "$WORK/storm.json"; then
	why=$($TEL storm "$SOCK" 200 /timer_pipeline/flows)
	ok=$?
	sleep 0.5
	if ! kill -0 "$APP" 2>/dev/null; then
		wait "$PID"
		tp_fail telemetry_disconnect_storm "the pipeline died: exit \
status $? ($why)" "$log"
	else
		# Still forwarding: rx keeps growing after the storm.
		rx1=$($TEL get "$SOCK" /timer_pipeline/stats |
		      python3 -c 'import json,sys; print(json.load(sys.stdin)["/timer_pipeline/stats"]["rx_pkts"])')
		sleep 1
		rx2=$($TEL get "$SOCK" /timer_pipeline/stats |
		      python3 -c 'import json,sys; print(json.load(sys.stdin)["/timer_pipeline/stats"]["rx_pkts"])')
		stop
		if [ $ok -ne 0 ]; then
			tp_fail telemetry_disconnect_storm "$why"
		elif ! tp_expect "telemetry rx_pkts one second after $rx1 (still forwarding)" \
			"$rx2" gt "$rx1"; then
			tp_fail telemetry_disconnect_storm "$TP_WHY" "$log"
		elif ! tp_clean_exit $RC "$log"; then
			tp_fail telemetry_disconnect_storm "exit status $RC" "$log"
		else
			echo "    $why; rx $rx1 -> $rx2 one second later"
			tp_pass telemetry_disconnect_storm
		fi
	fi
fi

# SIGPIPE is ignored. On Linux a SEQPACKET socket (telemetry v2) does not
# raise it, so the storm above passes either way; a closed stdout pipe
# does: the pipeline must finish its run (flows flushed, records written,
# exactly-once check passed: exit 0), not die of it (exit 141).
log=$WORK/stdout_closed.err
tp_eal
timeout -k 5 60 "$TP_BIN" "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/closed_out.pcap" -- \
	"${TMO_ARGS[@]}" -T 1 --idle-sleep-us 50 --stop-when-done \
	--flow-log "$WORK/closed.json" 2>"$log" | head -c 100 >/dev/null
rc=${PIPESTATUS[0]}
want=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["unpaced"]))' "$EXP")
got=$(wc -l <"$WORK/closed.json" 2>/dev/null)
if tp_expect_eq "exit status" "$rc" 0 &&
   tp_expect_eq "records in the flow log" "$got" "$want"; then
	tp_pass stdout_closed_no_sigpipe
else
	tp_fail stdout_closed_no_sigpipe "$TP_WHY" "$log"
fi

tp_result
