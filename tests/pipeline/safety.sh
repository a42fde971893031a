#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Nothing a user gives is destroyed, and no record is lost silently:
# - an output that is an input (an rx_pcap capture, the --config file) or
#   another output is refused before EAL starts with exit status 2 and one
#   line naming both options and the file, whether it is named as given,
#   through a hard link, through a symbolic link to its directory, as
#   "./x" or through "..": each input is byte for byte intact afterwards;
#   character devices (/dev/null) are outside that rule;
# - a record file that fills (a full /dev/full, a small tmpfs or ext4 in
#   a private mount namespace, RLIMIT_FSIZE) gives exit status 3, one
#   message with the error's strerror, the check's per-sink terms adding
#   up (ended == written + not written) without PASSED, and a file of
#   whole records only; net_pcap's tx_pcap filling gives exit status 3 too;
# - a flow log on ext4 has space taken past its end while the run writes
#   it, and none once the run has ended;
# - the stats JSON failing is a warning and a count (exit 0); the summary
#   JSON failing is exit 1.
# The symbolic-link and file-mode rules are in security.sh.
#
#     tests/pipeline/safety.sh BUILD_DIR

SUITE=safety
. "$(dirname "$0")/lib.sh"

IN=$WORK/in.pcap
BIG=$WORK/big.pcap
tp_gen_expect "$IN" "$WORK/in.json" --seed 41 --flows 20 >/dev/null
tp_gen_expect "$BIG" "$WORK/big.json" --seed 5 --flows 300 >/dev/null
printf '[timers]\ntimer-tick = 10ms\n' >"$WORK/run.ini"
for f in in.pcap big.pcap run.ini; do
	cp "$WORK/$f" "$WORK/$f.orig"
done
mkdir -p "$WORK/sub"
ln -s "$WORK" "$WORK/dirlink"
HAVE_IPFIX=1
"$TP_BIN" -- --ipfix-file "$WORK/probe" --dump-config >/dev/null 2>&1 ||
	HAVE_IPFIX=0
rm -f "$WORK/probe"

# intact: every input holds what it held at the start.
intact() {
	local f
	for f in in.pcap big.pcap run.ini; do
		cmp -s "$WORK/$f" "$WORK/$f.orig" || { TP_WHY="$f changed"; return 1; }
	done
}

# aliased NAME FILE WORDS APP-ARGS...: refused (tp_refused: exit 2 before
# EAL, one error line naming 'FILE' and matching WORDS), inputs intact.
aliased() {
	local name=$1 file=$2 words=$3
	shift 3
	if tp_refused "$name" "$file" "$words" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=$WORK/$name.out.pcap" \
		-- -T 0 --stop-when-done "$@"; then
		if intact; then
			tp_pass "$name"
		else
			tp_fail "$name" "$TP_WHY"
		fi
	fi
	rm -f "$WORK/$name.out.pcap"
}

# --- Outputs over inputs --------------------------------------------------

CAP="is also the rx_pcap capture of --vdev net_pcap0"
aliased flow_log_is_rx_pcap_dotdot "$WORK/sub/../in.pcap" "--flow-log .*$CAP" \
	--flow-log "$WORK/sub/../in.pcap"
aliased flow_log_is_rx_pcap_dir_symlink "$WORK/dirlink/in.pcap" \
	"--flow-log .*$CAP" --flow-log "$WORK/dirlink/in.pcap"
ln "$IN" "$WORK/hard.pcap"
aliased stats_json_is_rx_pcap_hard_link "$WORK/hard.pcap" \
	"--stats-json .*$CAP" -T 1 --stats-json "$WORK/hard.pcap"
if [ $HAVE_IPFIX = 1 ]; then
	aliased ipfix_file_is_rx_pcap_hard_link "$WORK/hard.pcap" \
		"--ipfix-file.*$CAP" --ipfix-file "$WORK/hard.pcap"
else
	echo "    ipfix cases: skipped, built without libfixbuf"
fi
if tp_refused tx_pcap_is_rx_pcap_dot "$WORK/./in.pcap" \
	"tx_pcap of --vdev net_pcap1 .*$CAP" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=/dev/null" \
	"--vdev=net_pcap1,rx_pcap=$BIG,tx_pcap=$WORK/./in.pcap" -- -T 0 \
	--stop-when-done; then
	if intact; then
		tp_pass tx_pcap_is_rx_pcap_dot
	else
		tp_fail tx_pcap_is_rx_pcap_dot "$TP_WHY"
	fi
fi

# The --config file, by each output, named another way than --config.
CFG="is also the --config file"
aliased flow_log_is_config "$WORK/./run.ini" "--flow-log .*$CFG" \
	--config "$WORK/run.ini" --flow-log "$WORK/./run.ini"
TP_SUMMARY=0 aliased summary_json_is_config "$WORK/sub/../run.ini" \
	"--summary-json .*$CFG" --config "$WORK/run.ini" \
	--summary-json "$WORK/sub/../run.ini"
aliased stats_json_is_config "$WORK/dirlink/run.ini" "--stats-json .*$CFG" \
	--config "$WORK/run.ini" -T 1 --stats-json "$WORK/dirlink/run.ini"
[ $HAVE_IPFIX = 1 ] &&
	aliased ipfix_file_is_config "$WORK/run.ini" "--ipfix-file.*$CFG" \
		--config "$WORK/run.ini" --ipfix-file "$WORK/run.ini"

# --- An output given twice ------------------------------------------------

TWICE="two outputs cannot share a file"
TP_SUMMARY=0 aliased flow_log_and_summary_json_new_file "$WORK/./new.json" \
	"--summary-json .*is also the file of --flow-log: $TWICE" \
	--flow-log "$WORK/new.json" --summary-json "$WORK/./new.json"
[ -e "$WORK/new.json" ] && tp_fail flow_log_and_summary_json_created \
	"the refused run created the file"
echo old >"$WORK/old1.json"
ln "$WORK/old1.json" "$WORK/old2.json"
aliased flow_log_and_stats_json_hard_link "$WORK/old2.json" \
	"--stats-json .*is also the file of --flow-log: $TWICE" \
	--flow-log "$WORK/old1.json" -T 1 --stats-json "$WORK/old2.json"
[ "$(cat "$WORK/old1.json")" = old ] ||
	tp_fail flow_log_and_stats_json_kept "the existing file was written"
aliased tx_pcap_and_flow_log "$WORK/dirlink/tx_pcap_and_flow_log.out.pcap" \
	"--flow-log .*is also the file of tx_pcap of --vdev net_pcap0" \
	--flow-log "$WORK/dirlink/tx_pcap_and_flow_log.out.pcap"
[ $HAVE_IPFIX = 1 ] &&
	aliased ipfix_file_and_flow_log "$WORK/sub/../x.out" \
		"--ipfix-file.*is also the file of --flow-log" \
		--flow-log "$WORK/x.out" --ipfix-file "$WORK/sub/../x.out"

# Character devices are outside the rule: /dev/null twice is a clean run.
log=$WORK/dev_null_twice.log
tp_pcap_run "$log" "$IN" /dev/null --flow-log /dev/null -T 1 \
	--stats-json /dev/null
rc=$?
if tp_clean_exit $rc "$log" && intact; then
	tp_pass dev_null_twice_allowed
else
	tp_fail dev_null_twice_allowed "exit status $rc ${TP_WHY:-}" "$log"
fi

# --- Record files that fill ------------------------------------------------

# lost_run NAME LOG SINK-OPT ERROR: the run lost records to SINK-OPT: exit
# status 3 (tp_lost_exit), the write error's strerror ERROR printed once,
# naming SINK-OPT, and the inputs intact. Returns 1 after failing NAME.
lost_run() {
	local name=$1 log=$2 opt=$3 err=$4 rc=$RC n
	n=$(grep -c -- "$opt '.*': write failed: $err" "$log")
	if ! tp_lost_exit "$rc" "$log"; then
		tp_fail "$name" "exit status $rc: want 3, FAILED: output lost" \
			"$log"
	elif [ "$n" != 1 ]; then
		tp_fail "$name" "want one '$opt ... write failed: $err', got $n" \
			"$log"
	elif ! intact; then
		tp_fail "$name" "$TP_WHY"
	else
		return 0
	fi
	return 1
}

# flow_log_adds_up NAME LOG FILE: ended == written + not written, both
# above 0 unless FILE is /dev/full, and FILE holds exactly the written
# records, each a whole JSON line.
flow_log_adds_up() {
	local name=$1 log=$2 file=$3 ended written lost lines
	read -r ended written lost < <(tp_nums "$log" flows_ended \
		records_written records_not_written)
	if ! tp_numbers ended="$ended" written="$written" lost="$lost"; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_expect "ended == written + not written" "$ended" eq \
		$((written + lost)) || ! tp_expect "records lost" "$lost" gt 0
	then
		tp_fail "$name" "$TP_WHY" "$log"
	elif [ "$file" != /dev/full ] &&
	     ! lines=$(python3 -c 'import json, sys
print(sum(1 for l in open(sys.argv[1]) if json.loads(l)))' "$file" 2>&1); then
		tp_fail "$name" "the flow log holds a torn record: $lines"
	elif [ "$file" != /dev/full ] &&
	     ! tp_expect "records in the file" "$lines" eq "$written"; then
		tp_fail "$name" "$TP_WHY"
	else
		tp_pass "$name"
	fi
}

log=$WORK/flow_log_dev_full.log
tp_pcap_run "$log" "$IN" "$WORK/o.pcap" --flow-log /dev/full
RC=$?
lost_run flow_log_dev_full "$log" --flow-log "No space left on device" &&
	flow_log_adds_up flow_log_dev_full "$log" /dev/full

# A wrapper in place of the binary: the run in a private mount namespace
# with a 16 KiB tmpfs on $WORK/mnt, whose files are copied to $WORK/saved
# before the namespace goes away; or under RLIMIT_FSIZE (TP_FSIZE_KB).
REAL_BIN=$TP_BIN
cat >"$WORK/in_tmpfs.sh" <<EOF
#!/bin/sh
exec unshare -m sh -c 'mount -t tmpfs -o size=16k tmpfs "$WORK/mnt" ||
	exit 99; "\$0" "\$@"; rc=\$?; cp -a "$WORK/mnt/." "$WORK/saved/"; exit \$rc' \
	"$REAL_BIN" "\$@"
EOF
cat >"$WORK/in_fsize.sh" <<EOF
#!/bin/sh
ulimit -f \${TP_FSIZE_KB:-16} && exec "$REAL_BIN" "\$@"
EOF
chmod +x "$WORK/in_tmpfs.sh" "$WORK/in_fsize.sh"
mkdir -p "$WORK/mnt" "$WORK/saved"

TMPFS=1
if ! unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$WORK/mnt'" \
	2>"$WORK/unshare.err"; then
	TMPFS=0
	tp_fail tmpfs_mount "cannot mount a tmpfs in a private mount \
namespace: $(cat "$WORK/unshare.err")"
fi

# flow_log_fills NAME WRAPPER SAVED: the capture's records to the flow log
# $WORK/mnt/f.json, run through WRAPPER, which fills it (No space left on
# device); SAVED: the file as the run left it.
flow_log_fills() {
	local name=$1 log=$WORK/$1.log
	TP_BIN=$2
	tp_pcap_run "$log" "$BIG" "$WORK/o.pcap" --flow-log "$WORK/mnt/f.json"
	RC=$?
	TP_BIN=$REAL_BIN
	lost_run "$name" "$log" --flow-log "No space left on device" &&
		flow_log_adds_up "$name" "$log" "$3"
}

[ $TMPFS = 1 ] && flow_log_fills flow_log_enospc_tmpfs "$WORK/in_tmpfs.sh" \
	"$WORK/saved/f.json"

if [ $TMPFS = 1 ] && [ $HAVE_IPFIX = 1 ]; then
	log=$WORK/ipfix_file_enospc.log
	TP_BIN=$WORK/in_tmpfs.sh
	tp_pcap_run "$log" "$BIG" "$WORK/o.pcap" --ipfix-file \
		"$WORK/mnt/f.ipfix"
	RC=$?
	TP_BIN=$REAL_BIN
	name=ipfix_file_enospc_tmpfs
	if lost_run $name "$log" --ipfix-file "No space left on device"; then
		read -r ended exported notsent < <(tp_nums "$log" flows_ended \
			ipfix_exported ipfix_not_sent)
		ipfixDump --in "$WORK/saved/f.ipfix" --stats \
			>"$WORK/f.ipfix.dump" 2>&1
		drc=$?
		# Data records: the flow records and the options record.
		data=$(sed -n 's/.*File Stats: .* \([0-9]*\) Data Records.*/\1/p' \
			"$WORK/f.ipfix.dump")
		if ! tp_numbers ended="$ended" exported="$exported" \
			notsent="$notsent"; then
			tp_fail $name "$TP_WHY" "$log"
		elif ! tp_expect "ended == exported + not sent" "$ended" eq \
			$((exported + notsent)) ||
		     ! tp_expect "records not written" "$notsent" gt 0; then
			tp_fail $name "$TP_WHY" "$log"
		elif [ $drc -ne 0 ]; then
			tp_fail $name "ipfixDump cannot read the cut file" \
				"$WORK/f.ipfix.dump"
		elif ! tp_expect "data records in the file" "${data:-none}" \
			ge "$exported" ||
		     ! tp_expect "data records in the file" "${data:-none}" \
			le $((exported + 1)); then
			tp_fail $name "$TP_WHY" "$WORK/f.ipfix.dump"
		else
			tp_pass $name
		fi
	fi
fi

if [ $TMPFS = 1 ]; then
	log=$WORK/tx_pcap_enospc.log
	TP_BIN=$WORK/in_tmpfs.sh
	tp_pcap_run "$log" "$BIG" "$WORK/mnt/o.pcap" --flow-log \
		"$WORK/tx_enospc.json"
	RC=$?
	TP_BIN=$REAL_BIN
	short=$(tp_num "$log" port_tx_pcap_short)
	if ! tp_lost_exit $RC "$log"; then
		tp_fail tx_pcap_enospc_tmpfs "exit status $RC, want 3" "$log"
	elif ! grep -q "^  FRAMES LOST: tx_pcap files lack" "$log" ||
	     ! grep -q "tx_pcap '$WORK/mnt/o.pcap' of port 0 holds" "$log"; then
		tp_fail tx_pcap_enospc_tmpfs "no shortfall reported" "$log"
	elif ! tp_expect "bytes missing from tx_pcap" "$short" gt 0 ||
	     ! tp_expect "records not written" \
		"$(tp_num "$log" records_not_written)" eq 0 || ! intact; then
		tp_fail tx_pcap_enospc_tmpfs "$TP_WHY" "$log"
	else
		tp_pass tx_pcap_enospc_tmpfs
	fi
fi

# ext4, where a record file takes its space ahead (records/tp_sink.c): an
# ext4 image (TP_EXT4_IMG) loop-mounted on $WORK/mnt in a private mount
# namespace, its files copied to $WORK/saved_ext4 before it goes away.
# With TP_EXT4_WATCH=N the run goes on until the flow log f.json holds N
# lines; its size, space and lines ("SIZE BLOCKS BLOCK-BYTES LINES") are
# then noted in ext4_open.txt, and the first three in ext4_closed.txt once
# a SIGINT has ended the run.
cat >"$WORK/in_ext4.sh" <<EOF
#!/bin/sh
exec unshare -m sh -c 'mount -o loop "\$TP_EXT4_IMG" "$WORK/mnt" || exit 99
if [ -z "\$TP_EXT4_WATCH" ]; then
	"\$0" "\$@"; rc=\$?
else
	"\$0" "\$@" & pid=\$!
	i=0
	while [ \$i -lt 300 ] && kill -0 \$pid 2>/dev/null &&
	      [ "\$(cat "$WORK/mnt/f.json" 2>/dev/null | wc -l)" -lt \
		"\$TP_EXT4_WATCH" ]; do
		sleep 0.1; i=\$((i + 1))
	done
	echo "\$(stat -c "%s %b %B" "$WORK/mnt/f.json")" \
		"\$(wc -l <"$WORK/mnt/f.json")" >"$WORK/ext4_open.txt"
	kill -INT \$pid; wait \$pid; rc=\$?
	stat -c "%s %b %B" "$WORK/mnt/f.json" >"$WORK/ext4_closed.txt"
fi
cp -a "$WORK/mnt/." "$WORK/saved_ext4/"; exit \$rc' "$REAL_BIN" "\$@"
EOF
chmod +x "$WORK/in_ext4.sh"
mkdir -p "$WORK/saved_ext4"

# ext4_image FILE SIZE MKFS-OPTIONS...: an empty ext4 file system in FILE.
ext4_image() {
	local img=$1 size=$2
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img" && mkfs.ext4 -q -F "$@" "$img"
}

EXT4=1
if ! ext4_image "$WORK/tiny.ext4" 96k -b 1024 -N 16 -m 0 -O ^has_journal \
	2>"$WORK/mkfs.err" ||
   ! unshare -m sh -c "mount -o loop '$WORK/tiny.ext4' '$WORK/mnt'" \
	2>"$WORK/unshare.err"; then
	EXT4=0
	tp_fail ext4_mount "cannot make and loop-mount an ext4 image in a \
private mount namespace: $(cat "$WORK/mkfs.err" "$WORK/unshare.err")"
fi

# A flow log that fills an ext4 (72 KB free; the capture's records take
# about 100 KB): what it took ahead is its own space, and every record
# that does not fit is counted.
[ $EXT4 = 1 ] && TP_EXT4_IMG=$WORK/tiny.ext4 flow_log_fills \
	flow_log_enospc_ext4 "$WORK/in_ext4.sh" "$WORK/saved_ext4/f.json"

# space_ext4 NAME SIZE: the run writes its flow log on an ext4 of SIZE
# until the log holds a line per flow of the capture, then ends by SIGINT.
# While it ran the log had 16 MB or more of space past its end (taken 32
# MB at a time, or what the file system had); after the exit it has no
# more than its size in whole blocks, and every record.
space_ext4() {
	local name=$1 size=$2 log osize oblocks obytes olines csize cblocks \
		cbytes written lines rc
	log=$WORK/$name.log
	rm -rf "$WORK/saved_ext4" "$WORK/ext4_open.txt" "$WORK/ext4_closed.txt"
	mkdir -p "$WORK/saved_ext4"
	if ! ext4_image "$WORK/space.ext4" "$size" -b 4096 \
		2>"$WORK/mkfs.err"; then
		tp_fail "$name" "mkfs.ext4: $(cat "$WORK/mkfs.err")"
		return
	fi
	TP_BIN=$WORK/in_ext4.sh
	tp_eal
	TP_EXT4_IMG=$WORK/space.ext4 TP_EXT4_WATCH=300 tp_run "$log" 90 \
		"${EAL[@]}" --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$BIG,tx_pcap=/dev/null" -- \
		"${TMO_ARGS[@]}" -T 0 --idle-sleep-us 50 --flows 4096 \
		--flow-log "$WORK/mnt/f.json"
	rc=$?
	TP_BIN=$REAL_BIN
	read -r osize oblocks obytes olines <"$WORK/ext4_open.txt"
	read -r csize cblocks cbytes <"$WORK/ext4_closed.txt"
	written=$(tp_num "$log" records_written)
	lines=$(wc -l <"$WORK/saved_ext4/f.json")
	if ! tp_clean_exit "$rc" "$log"; then
		tp_fail "$name" "exit status $rc, want 0 and PASSED" "$log"
	elif ! tp_numbers osize="$osize" oblocks="$oblocks" \
		obytes="$obytes" olines="$olines" csize="$csize" \
		cblocks="$cblocks" cbytes="$cbytes" written="$written" \
		lines="$lines"; then
		tp_fail "$name" "$TP_WHY" "$log"
	elif ! tp_expect "lines while it ran" "$olines" ge 300 ||
	     ! tp_expect "space while it ran (bytes)" \
		$((oblocks * obytes)) ge $((osize + (16 << 20))) ||
	     ! tp_expect "space after the exit (bytes)" \
		$((cblocks * cbytes)) le $(((csize + 4095) / 4096 * 4096)) ||
	     ! tp_expect "records in the file" "$lines" eq "$written"; then
		tp_fail "$name" "$TP_WHY" "$log"
	else
		tp_pass "$name"
	fi
}

# On 64 MB every step is taken; on 32 MB (25 MB free) the first one fails
# with ENOSPC after taking what there was, which the log then fills.
if [ $EXT4 = 1 ]; then
	space_ext4 flow_log_space_ext4 64M
	space_ext4 flow_log_space_ext4_partial 32M
fi

# RLIMIT_FSIZE: EFBIG, not death by SIGXFSZ (status 153). EAL's shared
# config file is larger than the limit: --no-shconf.
log=$WORK/flow_log_efbig.log
TP_BIN=$WORK/in_fsize.sh
TP_EAL_MORE=(--no-shconf)
tp_pcap_run "$log" "$BIG" /dev/null --flow-log "$WORK/efbig.json"
RC=$?
TP_EAL_MORE=()
TP_BIN=$REAL_BIN
if [ $RC -eq 153 ]; then
	tp_fail flow_log_efbig "killed by SIGXFSZ" "$log"
elif lost_run flow_log_efbig "$log" --flow-log "File too large"; then
	flow_log_adds_up flow_log_efbig "$log" "$WORK/efbig.json"
fi

# --- Diagnostic files -------------------------------------------------------

log=$WORK/stats_json_dev_full.log
tp_pcap_run "$log" "$IN" /dev/null -T 1 --stats-json /dev/full
rc=$?
n=$(grep -c "stats-json '/dev/full': a line could not be written" "$log")
failed=$(tp_num "$log" stats_json_failed)
if ! tp_clean_exit $rc "$log"; then
	tp_fail stats_json_dev_full "exit status $rc, want 0 and PASSED" "$log"
elif [ "$n" != 1 ]; then
	tp_fail stats_json_dev_full "want one warning, got $n" "$log"
elif ! tp_expect "stats JSON lines lost" "$failed" gt 0; then
	tp_fail stats_json_dev_full "$TP_WHY" "$log"
else
	tp_pass stats_json_dev_full
fi

log=$WORK/summary_json_dev_full.log
tp_eal
TP_SUMMARY=0 tp_run "$log" 90 "${EAL[@]}" --vdev=event_sw0 \
	"--vdev=net_pcap0,rx_pcap=$IN,tx_pcap=/dev/null" -- "${TMO_ARGS[@]}" \
	-T 0 --stop-when-done --summary-json /dev/full
rc=$?
if [ $rc -ne 1 ] || ! grep -q "cannot write --summary-json '/dev/full'" \
	"$log"; then
	tp_fail summary_json_dev_full "exit status $rc, want 1 and the error" \
		"$log"
else
	tp_pass summary_json_dev_full
fi

tp_result
