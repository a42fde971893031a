#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Command line and configuration files: every bad command line or config
# file prints exactly one error line (naming the problem, pointing to
# --help) and exits with status 2 before anything starts; --help documents
# every option with its default; the shipped configs load; the command
# line overrides the file.
#
#     tests/pipeline/cmdline.sh BUILD_DIR

SUITE=cmdline
. "$(dirname "$0")/lib.sh"

CFG=$WORK/cfg
mkdir -p "$CFG"
printf '[timeouts]\ntmo-udp = 5s\n[bogus]\nx = 1\n' >"$CFG/section.ini"
printf '[timeouts]\ntmo-udpp = 5s\n' >"$CFG/key.ini"
printf '[flows]\nflows = 3\n' >"$CFG/range.ini"
printf '[timeouts]\ntmo-udp = fast\n' >"$CFG/value.ini"
printf '[clock]\nreplay-pace = maybe\n' >"$CFG/bool.ini"
printf '[timeouts]\ntmo-udp 5s\n' >"$CFG/syntax.ini"
printf '[eal]\nlcores = 0-1\n' >"$CFG/eal.ini"
printf 'flows = 100\n' >"$CFG/nosection.ini"
printf '[timers]\ntimer-adapter = hardware\n' >"$CFG/enum.ini"
printf '[lcores]\nrx-lcores = 1-0\n' >"$CFG/lcores.ini"
printf '[debug]\nfault-worker-delay-us = 1000001\n' >"$CFG/debug.ini"
# Found by tests/fuzz/fuzz_ini.c: a section given twice was read once (its
# second part silently skipped); a value over 255 bytes was silently cut.
printf '[eventdev]\nevents = 4096\n[eventdev]\nstats-period = 5\n' \
	>"$CFG/twice.ini"
printf '[records]\nflow-log = %0300d\n' 0 >"$CFG/longvalue.ini"
printf '[fl%070d]\nflows = 100\n' 0 >"$CFG/longsection.ini"

# Rejected before EAL starts: "NAME|NAMED|app arguments" (after --). The
# one error line must hold NAMED (a fixed string): the offending option as
# the user can find it in --help, or the config file's section and key (a
# config case must also name its file).
PRE_EAL=(
	"unknown_option|'--no-such-option'|--no-such-option"
	"unknown_short_option|'-x'|-x"
	"abbreviated_option|'--tmo-ud'|--tmo-ud 5"
	"missing_value|'--flows'|--flows"
	"positional_argument|'stray'|stray"
	"not_a_number|'--flows'|--flows many"
	"negative_number|'--flows'|--flows -5"
	"trailing_garbage|'--burst'|--burst 32x"
	"flows_too_small|'--flows'|--flows 1"
	"burst_zero|'--burst'|--burst 0"
	"burst_too_big|'--burst'|--burst 1000"
	"stats_period_too_long|'--stats-period'|-T 100000"
	"rx_threshold_too_low|'--rx-threshold-pct'|--rx-threshold-pct 5"
	"bad_duration_unit|'--tmo-udp'|--tmo-udp 5x"
	"zero_timeout|'--tmo-udp'|--tmo-udp 0"
	"duration_sum_wraps|'--tmo-udp'|--tmo-udp 18446744073.9s"
	"duration_huge_hours|'--tmo-udp'|--tmo-udp 5124095576030432h"
	"timeout_below_tick|'--tmo-udp' is shorter than --timer-tick|--timer-tick 1s --tmo-udp 500ms"
	"tick_too_long|'--timer-tick'|--timer-tick 2s"
	"timers_not_a_number|'--timers'|--timers lots"
	"timers_too_many|'--timers'|--timers 100000000"
	"worker_delay_too_long|'--fault-worker-delay-us'|--fault-worker-delay-us 200000"
	"worker_delay_negative|'--fault-worker-delay-us'|--fault-worker-delay-us -1"
	"bad_adapter|'--timer-adapter'|--timer-adapter hardware"
	"bad_refresh|'--refresh'|--refresh sometimes"
	"bad_sched|'--eventq-sched'|--eventq-sched atomically"
	"bad_fwd_mode|'--fwd-mode'|--fwd-mode bounce"
	"bad_log_format|'--flow-log-format'|--flow-log-format xml"
	"bad_malformed_policy|'--malformed'|--malformed ignore"
	"bad_table_full_policy|'--table-full'|--table-full grow"
	"trace_flow_bad_address|'--trace-flow'|--trace-flow 10.0.0.300"
	"trace_flow_port_zero|'--trace-flow'|--trace-flow 10.0.0.1:0"
	"trace_flow_any_without_port|'--trace-flow'|--trace-flow any"
	"trace_flow_open_bracket|'--trace-flow'|--trace-flow [2001:db8::1:53"
	"stats_json_without_period|--stats-json needs a stats period|--stats-json /tmp/tp_never.json -T 0"
	"zero_portmask|'--portmask'|-p 0"
	"bad_portmask|'--portmask'|-p 0xzz"
	"portmask_prefix_twice|'--portmask'|-p 0x0x10"
	"reversed_lcore_range|'--rx-lcores'|--rx-lcores 3-1"
	"lcore_list_letters|'--worker-lcores'|--worker-lcores a,b"
	"lcore_list_empty_item|'--worker-lcores'|--worker-lcores 0,,1"
	"lcore_too_big|'--rx-lcores'|--rx-lcores 99999"
	"missing_config_file|none.ini'|--config $CFG/none.ini"
	"config_unknown_section|unknown section [bogus]|--config $CFG/section.ini"
	"config_unknown_key|[timeouts] unknown key 'tmo-udpp'|--config $CFG/key.ini"
	"config_out_of_range|[flows] flows:|--config $CFG/range.ini"
	"config_bad_value|[timeouts] tmo-udp:|--config $CFG/value.ini"
	"config_bad_bool|[clock] replay-pace:|--config $CFG/bool.ini"
	"config_syntax_error|syntax.ini:2:|--config $CFG/syntax.ini"
	"config_eal_unknown_key|[eal] unknown key 'lcores'|--config $CFG/eal.ini"
	"config_key_outside_section|nosection.ini'|--config $CFG/nosection.ini"
	"config_bad_enum|[timers] timer-adapter:|--config $CFG/enum.ini"
	"config_bad_lcores|[lcores] rx-lcores:|--config $CFG/lcores.ini"
	"config_debug_out_of_range|[debug] fault-worker-delay-us:|--config $CFG/debug.ini"
	"config_section_twice|[eventdev] unknown key 'stats-period'|--config $CFG/twice.ini"
	"config_value_too_long|longvalue.ini:2: value longer than 255 bytes|--config $CFG/longvalue.ini"
	"config_section_name_too_long|longsection.ini:1: section name longer|--config $CFG/longsection.ini"
)

for entry in "${PRE_EAL[@]}"; do
	IFS='|' read -r name named rest <<<"$entry"
	read -r -a args <<<"$rest"
	cfgfile=
	[ "${args[0]}" = --config ] && cfgfile=${args[1]}
	log=$WORK/$name.log
	timeout -k 2 10 "$TP_BIN" -- "${args[@]}" >"$log" 2>&1
	rc=$?
	lines=$(wc -l <"$log")
	if [ $rc -ne 2 ]; then
		tp_fail "bad_cmdline.$name" "exit status $rc, want 2" "$log"
	elif [ "$lines" -ne 1 ] || ! grep -q 'error: .*see --help' "$log"; then
		tp_fail "bad_cmdline.$name" "want one error line" "$log"
	elif ! grep -qF -- "$named" "$log"; then
		tp_fail "bad_cmdline.$name" "the error does not name $named" "$log"
	elif [ -n "$cfgfile" ] && ! grep -qF -- "$cfgfile" "$log"; then
		tp_fail "bad_cmdline.$name" "the error does not name the file $cfgfile" "$log"
	elif grep -q '^EAL:' "$log"; then
		tp_fail "bad_cmdline.$name" "EAL started" "$log"
	else
		tp_pass "bad_cmdline.$name"
	fi
done

# Rejected after EAL init, before any device starts: "NAME|NAMED|EAL|app".
# The error line (the one pointing to --help) must hold NAMED: the option
# to fix. EAL does not say which of its options it refused, so
# bad_eal_option can only name the EAL options as the place to look.
POST_EAL=(
	"rx_lcore_not_enabled|--rx-lcores: lcore 5|-l 0-1 -S 1 --vdev=event_sw0 --vdev=net_null0|--rx-lcores 5"
	"worker_is_service_lcore|--worker-lcores: lcore 1|-l 0-1 -S 1 --vdev=event_sw0 --vdev=net_null0|--worker-lcores 1"
	"no_service_lcore_rte|-S <list>|-l 0-1 --vdev=event_sw0 --vdev=net_null0|--timer-adapter rte"
	"ordered_on_dsw|--eventq-sched|-l 0-1 -S 1 --vdev=event_dsw0 --vdev=net_null0|--eventq-sched ordered"
	"no_event_device|--vdev=event_sw0|-l 0-1 -S 1 --vdev=net_null0|"
	"no_port|port mask|-l 0-1 -S 1 --vdev=event_sw0|"
	"portmask_missing_port|fix -p|-l 0-1 -S 1 --vdev=event_sw0 --vdev=net_null0|-p 0x6"
	"bad_eal_option|EAL options|--no-such-eal-option|"
)

for entry in "${POST_EAL[@]}"; do
	name=${entry%%|*}
	rest=${entry#*|}
	named=${rest%%|*}
	rest=${rest#*|}
	read -r -a eal <<<"${rest%%|*}"
	read -r -a app <<<"${rest#*|}"
	tp_eal
	log=$WORK/$name.log
	tp_run "$log" 30 "${eal[@]}" --no-huge -m 256 --no-pci \
		--file-prefix "${TP_PREFIX}_$TP_RUNS" -- "${app[@]}"
	rc=$?
	if [ $rc -ne 2 ]; then
		tp_fail "bad_setup.$name" "exit status $rc, want 2" "$log"
	elif [ "$(grep -c 'see --help' "$log")" -ne 1 ]; then
		tp_fail "bad_setup.$name" "want one error naming --help" "$log"
	elif ! grep 'see --help' "$log" | grep -qF -- "$named"; then
		tp_fail "bad_setup.$name" "the error does not name $named" "$log"
	elif grep -q -E '^Lcores|=== timer_pipeline summary' "$log"; then
		tp_fail "bad_setup.$name" "the pipeline started" "$log"
	else
		tp_pass "bad_setup.$name"
	fi
done

# EAL options that EAL refuses: the run ends with status 2 and the
# pipeline's own line on stderr (after EAL's), whichever way EAL refuses
# them: up to 24.11 rte_eal_init() returns -1; from 25.11 EAL's argparse
# calls exit() inside rte_eal_init() (status 234), which the pipeline's
# exit handler turns into the same line and status. "NAME|EAL options".
EAL_REFUSED_LINE="dpdk-timer_pipeline: error: invalid EAL options"
EAL_REFUSED=(
	"unknown_eal_option|-l 0-1 -S 1 --no-such-eal-option"
	"eal_option_twice|-l 0-1 -S 1 --lcores=0-1"
)
for entry in "${EAL_REFUSED[@]}"; do
	name=${entry%%|*}
	read -r -a eal <<<"${entry#*|}"
	tp_eal
	log=$WORK/$name.log
	err=$WORK/$name.err
	timeout -k 5 30 "$TP_BIN" "${eal[@]}" --no-huge -m 256 --no-pci \
		--file-prefix "${TP_PREFIX}_$TP_RUNS" --vdev=event_sw0 \
		--vdev=net_null0 -- >"$log" 2>"$err"
	rc=$?
	if [ $rc -ne 2 ]; then
		tp_fail "eal_refused.$name" "exit status $rc, want 2" "$err"
	elif [ "$(grep -cF "$EAL_REFUSED_LINE" "$err")" -ne 1 ]; then
		tp_fail "eal_refused.$name" \
			"want one '$EAL_REFUSED_LINE' line on stderr" "$err"
	elif grep -q -E '^Lcores|=== timer_pipeline summary' "$log" "$err"; then
		tp_fail "eal_refused.$name" "the pipeline started" "$log"
	else
		tp_pass "eal_refused.$name"
	fi
done

# A plugin: the default build has every DPDK driver built in (DPDK's
# static libraries, meson's pipeline_dpdk_link) and refuses -d before EAL
# starts, in each form EAL takes (and from the [eal] section of --config),
# with one line naming it; EAL's other options pass. A shared build
# (-Dpipeline_dpdk_link=shared) hands -d to EAL.
if ldd "$TP_BIN" | grep -q 'librte_eal'; then
	tp_linked=shared
else
	tp_linked=static
fi
printf '[eal]\nargs = -l 0-1 -S 1 -d %s/no_plugin.so\n' "$WORK" \
	>"$CFG/plugin.ini"
PLUGIN=(
	"plain|-d|-d $WORK/no_plugin.so"
	"attached|-d$WORK|-d$WORK/no_plugin.so"
	"clustered|-vd|-vd $WORK/no_plugin.so"
	"long|--driver-path|--driver-path=$WORK/no_plugin.so"
	"long_prefix|--driver|--driver $WORK/no_plugin.so"
	"config_file|-d|--config $CFG/plugin.ini"
)
for entry in "${PLUGIN[@]}"; do
	IFS='|' read -r name named rest <<<"$entry"
	read -r -a args <<<"$rest"
	log=$WORK/plugin_$name.log
	if [ "$name" = config_file ]; then
		timeout -k 2 20 "$TP_BIN" -- "${args[@]}" >"$log" 2>&1
	else
		timeout -k 2 20 "$TP_BIN" -l 0-1 "${args[@]}" --no-huge -m 256 \
			--no-pci --file-prefix "${TP_PREFIX}_0" \
			--vdev=event_sw0 --vdev=net_null0 -- >"$log" 2>&1
	fi
	rc=$?
	if [ $tp_linked = shared ]; then
		if grep -q '^EAL:' "$log" && ! grep -q 'built in' "$log"; then
			tp_pass "plugin_$name.shared_build_hands_it_to_eal"
		else
			tp_fail "plugin_$name.shared_build_hands_it_to_eal" \
				"EAL did not get it" "$log"
		fi
	elif [ $rc -ne 2 ]; then
		tp_fail "plugin_$name.refused" "exit status $rc, want 2" "$log"
	elif [ "$(wc -l <"$log")" -ne 1 ] ||
	     ! grep -qF -- "error: EAL option $named" "$log" ||
	     ! grep -q 'built in.*see --help' "$log"; then
		tp_fail "plugin_$name.refused" "want one line naming $named" "$log"
	elif grep -q '^EAL:' "$log"; then
		tp_fail "plugin_$name.refused" "EAL started" "$log"
	else
		tp_pass "plugin_$name.refused"
	fi
done
# Options with a d in them, and a short option's value that begins with
# -d, are no plugin: --vdev and --huge-dir, and -m's value (EAL refuses
# "-d1" as a size; the point is that it gets there). Exit 2 from EAL, with
# EAL's messages and no refusal of ours. The suite's prefix: EAL makes its
# runtime folder even in memory, and the suite's exit removes it.
log=$WORK/plugin_none.log
timeout -k 2 30 "$TP_BIN" -l 0-1 -S 1 --in-memory --no-huge --no-pci \
	--huge-dir /dev/null -m -d1 --file-prefix "${TP_PREFIX}_0" \
	--vdev=event_sw0 --vdev=net_null0 -- --probe-ports >"$log" 2>&1
if [ $tp_linked = static ] &&
   { grep -q 'built in' "$log" || ! grep -q '^EAL:' "$log"; }; then
	tp_fail plugin_none.not_refused "a plain EAL command was refused" "$log"
else
	tp_pass plugin_none.not_refused
fi

# --help: every option, each with its default, without EAL.
OPTIONS=(portmask rx-queues rxd txd burst mbufs fwd-mode mac-updating
	 packet-path malformed rx-lcores worker-lcores idle-sleep-us eventq-sched events
	 rx-threshold-pct timer-priority timer-adapter timer-tick refresh timers
	 tmo-tcp-syn tmo-tcp-est tmo-tcp-closing tmo-udp tmo-icmp tmo-other
	 tmo-active flows table-full flow-log flow-log-format file-cache-mb trace-timers
	 trace-flow replay-pace replay-speed clock stats-period stats-json duration
	 stop-when-done probe-ports
	 flush-at-eof
	 fault-worker-delay-us fault-writer-delay-us summary-json ipfix ipfix-transport ipfix-flows
	 ipfix-file
	 ipfix-domain ipfix-template-refresh ipfix-queue ipfix-queue-full)
for form in "--help" "-- --help" "-- -h" "-- --flows 5 --help"; do
	read -r -a args <<<"$form"
	log=$WORK/help.log
	timeout -k 2 10 "$TP_BIN" "${args[@]}" >"$log" 2>&1
	rc=$?
	missing=""
	for o in "${OPTIONS[@]}"; do
		grep -q -E -- "--(\[no-\])?$o( |$)" "$log" || missing="$missing $o"
	done
	ndef=$(grep -c 'default: ' "$log")
	case=help${form// /_}
	if [ $rc -ne 0 ] || [ -n "$missing" ] || [ "$ndef" -ne ${#OPTIONS[@]} ] ||
	   grep -q '^EAL:' "$log"; then
		tp_fail "$case" "exit $rc, missing:$missing, $ndef defaults" "$log"
	else
		tp_pass "$case"
	fi
done

# The shipped configurations load; the command line wins over the file,
# wherever --config stands.
for f in "$TP_SRC"/configs/*.ini; do
	name=config_$(basename "$f" .ini)
	if "$TP_BIN" -- --config "$f" --dump-config >"$WORK/$name.log" 2>&1
	then
		tp_pass "$name"
	else
		tp_fail "$name" "does not load" "$WORK/$name.log"
	fi
done
out=$("$TP_BIN" -- --tmo-udp 7s --config "$TP_SRC/configs/pcap-demo.ini" \
	--no-replay-pace --dump-config 2>&1)
if grep -q 'tmo-udp *= 7s' <<<"$out" &&
   grep -q 'replay-pace *= no' <<<"$out" &&
   grep -q 'tmo-icmp *= 2s' <<<"$out"; then
	tp_pass command_line_overrides_config
else
	tp_fail command_line_overrides_config "$out"
fi

# Values the fuzzers found taken wrongly (tests/fuzz/): a number with a
# leading blank was accepted; a duration with 9 decimals of an hour was
# stored wrapped (3601722582630 ns); a section given twice applies both
# parts, the last value winning.
out=$("$TP_BIN" -- "--flows=	100" --dump-config 2>&1)
if [ $? -eq 2 ] && grep -q "'--flows'" <<<"$out"; then
	tp_pass number_with_leading_tab_refused
else
	tp_fail number_with_leading_tab_refused "$out"
fi
out=$("$TP_BIN" -- --tmo-active 1.123456789h --dump-config 2>&1)
if grep -q 'tmo-active *= 4044444440400ns' <<<"$out"; then
	tp_pass duration_fraction_exact
else
	tp_fail duration_fraction_exact "$out"
fi
printf '[timeouts]\ntmo-udp = 5s\n[flows]\nflows = 100\n[timeouts]\ntmo-udp = 7s\n' \
	>"$CFG/twice_ok.ini"
out=$("$TP_BIN" -- --config "$CFG/twice_ok.ini" --dump-config 2>&1)
if grep -q 'tmo-udp *= 7s' <<<"$out" && grep -q 'flows *= 100' <<<"$out"; then
	tp_pass config_section_twice_last_wins
else
	tp_fail config_section_twice_last_wins "$out"
fi

# The adapter's old name still works, says once that it is the old name,
# and selects the direct adapter.
out=$("$TP_BIN" -- --timer-adapter skiplist --dump-config 2>&1)
if [ "$(grep -c "old name of the 'direct' adapter" <<<"$out")" -eq 1 ] &&
   grep -q 'timer-adapter *= direct' <<<"$out"; then
	tp_pass old_adapter_name
else
	tp_fail old_adapter_name "$out"
fi

tp_result
