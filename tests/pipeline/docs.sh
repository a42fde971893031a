#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# The documentation cannot drift from the program:
#   docs_build      scripts/docs.sh builds the guides (Sphinx -W: a broken
#                   include, literalinclude marker, reference or figure
#                   fails) with every figure drawn from this build's runs,
#                   and the API reference (Doxygen, undocumented public API
#                   fails)
#   browser         chromium (headless, through selenium) opens every built
#                   page: every image loaded with a non-zero natural size,
#                   every internal link's page and anchor exist, the API
#                   reference has an entry for every public function of
#                   timer_adapter.h (tests/pipeline/docs_browser.py);
#                   screenshots of the primer and the walkthrough in
#                   BUILD_DIR/docs/
#   summary_layout  docs/summary-json.rst's layout table names every key
#                   of --summary-json's "layout" and no other; the layout
#                   of the walkthrough's run, of a run with a separate
#                   worker lcore and of one without a service lcore hold
#                   together and give each lcore its roles
#                   (tests/pipeline/summary_layout.py)
#   file_lists      docs/testing.rst's and docs/sample_app.rst's file lists
#                   name only files that exist, and every source file
#                   (tests/pipeline/doc_files.py)
#   options_table   docs/options.inc is what "--help-rst" prints: the guide's
#                   option table and --help come from one table
#   counters_table  docs/counters.inc is what "--help-counters-rst" prints:
#                   the reference's counter table and every report come
#                   from one table (tp_counters.c)
#   exit_status_table  docs/exit-status.inc is what "--help-exit-rst"
#                   prints: the reference's exit statuses and --help's
#                   come from one table (tp_config_text.c)
#   live_table      docs/bench/live_table.rst is what
#                   tools/bench_live_report.py makes of docs/bench/live.json
#   bench_files     docs/bench holds no repetition, figure or duplicate:
#                   what the guides read, the rest in results/
#                   (tests/pipeline/bench_files.py)
#   using_it_compiles  the library guide's example compiles (-Werror)
#   readme_front    README.rst: valid reStructuredText, at most 160 lines,
#                   opening with exactly the two
#                   commands (demo, tests)
#   commands        every command marked ".. test: run" in README.rst,
#                   docs/howto.rst and docs/walkthrough.rst runs with status 0,
#                   and every ".. test: output" block matches what it printed
#                   (tests/pipeline/docs_test.py); the README's own test
#                   command is left to CI
#   walkthrough_arithmetic  the walkthrough's deadline arithmetic holds on
#                   the run's own trace of the flow
#   reader_records  the README's own-capture commands alone (a capture from
#                   tools/gen_pcap.py with seed 7) give flow records, within a
#                   minute, and the run's exactly-once check passed
#
#     tests/pipeline/docs.sh BUILD_DIR
SUITE=docs
source "$(dirname "$0")/lib.sh"

cd "$TP_SRC" || exit 1

# docs_build (the figures' runs use this build)
t0=$(date +%s)
if BUILD_DIR="$TP_BUILD" DOCS_OUT="$WORK/docs" bash scripts/docs.sh \
	>"$WORK/docs.log" 2>&1 &&
   [ -f "$WORK/docs/html/walkthrough.html" ] &&
   [ -f "$WORK/docs/html/api/timer__adapter_8h.html" ]; then
	echo "    docs built with their figures in $(( $(date +%s) - t0 )) s"
	tp_pass docs_build
else
	tp_fail docs_build "scripts/docs.sh failed" "$WORK/docs.log"
fi

# browser: the built pages as chromium shows them. Its temporary files
# (a profile's singleton socket folder, which it leaves in TMPDIR) go
# with the suite's work folder.
if TMPDIR=$WORK tests/pipeline/docs_browser.py "$WORK/docs/html" \
	lib_timer_adapter/timer_adapter.h "$TP_BUILD/docs" \
	>"$WORK/browser.log" 2>&1; then
	grep '^TIME' "$WORK/browser.log"
	tp_pass browser
else
	grep -E '^(FAIL|TIME) |^       ' "$WORK/browser.log"
	tp_fail browser "a built page does not show as it should" \
		"$WORK/browser.log"
fi

# summary_layout: the walkthrough's run (scripts/docs.sh ran it) and one
# with RX on lcore 0 and the worker on lcore 2 (sharing CPU 0), on the
# inline path with a flow log (so the record writer runs on lcore 1).
# layout_run NAME LCORE-OPTIONS...: the demo capture under the capture
# clock, drop mode, a flow log; its log is $WORK/NAME.log.
layout_run() {
	local name=$1
	shift
	TP_RUNS=$((TP_RUNS + 1))
	tp_run "$WORK/$name.log" 60 "$@" --no-huge -m 512 --no-pci \
		--file-prefix "${TP_PREFIX}_$TP_RUNS" \
		--log-level=lib.eal:warning --vdev=event_sw0 \
		"--vdev=net_pcap0,rx_pcap=$TP_BUILD/demo/demo.pcap,tx_pcap=$WORK/$name.pcap" \
		-- --clock capture --stop-when-done -T 0 --fwd-mode drop \
		--flow-log "$WORK/$name.json"
}
lay_log=$WORK/layout.log
one_log=$WORK/layout_one.log
layout_run layout --lcores 0@0,1@1,2@0 -S 1
rc=$?
# And one without a service lcore: lcore 0 runs everything.
[ "$rc" -eq 0 ] && layout_run layout_one -l 0
rc=$?
if [ "$rc" -eq 0 ] && python3 tests/pipeline/summary_layout.py \
	docs/summary-json.rst \
	"$TP_BUILD/walk/summary.json=0:control+rx+worker,1:service" \
	"$(tp_sum_path "$lay_log")=0:control+rx,1:service,2:worker" \
	"$(tp_sum_path "$one_log")=0:control+rx+worker" \
	>"$WORK/layout_check.log" 2>&1; then
	tp_pass summary_layout
else
	grep FAIL "$WORK/layout_check.log"
	tp_fail summary_layout "exit status $rc; the layout or its table is wrong" \
		"$lay_log"
fi

# generated NAME FILE OPTION: docs/FILE is what "OPTION" prints.
generated() {
	local name=$1 file=$2 opt=$3
	if "$TP_BIN" -- "$opt" >"$WORK/$file" 2>&1 &&
	   diff -u "docs/$file" "$WORK/$file" >"$WORK/$file.diff"; then
		tp_pass "$name"
	else
		tp_fail "$name" "docs/$file differs from $opt" \
			"(regenerate: dpdk-timer_pipeline -- $opt > docs/$file)"
		cat "$WORK/$file.diff"
	fi
}
generated options_table options.inc --help-rst
generated counters_table counters.inc --help-counters-rst
generated exit_status_table exit-status.inc --help-exit-rst

# live_table: docs/bench/live_table.rst is what docs/bench/live.json gives
# (tools/bench_live_report.py), so the live-rate figures name their run.
if python3 tools/bench_live_report.py --check docs/bench/live.json \
	docs/bench/live_table.rst >"$WORK/live_table.log" 2>&1; then
	tp_pass live_table
else
	tp_fail live_table "$(cat "$WORK/live_table.log")"
fi

# checked NAME WHY COMMAND...: the check passes when COMMAND does; else
# WHY and the problems it printed (its RESULT line left out).
checked() {
	local name=$1 why=$2
	shift 2
	if "$@" >"$WORK/$name.log" 2>&1; then
		tp_pass "$name"
	else
		tp_fail "$name" "$why"
		grep -v '^RESULT' "$WORK/$name.log"
	fi
}

# bench_files: docs/bench holds what the guides read; repetitions live in
# results/bench, figures are drawn at build time
checked bench_files "docs/bench holds a file the guides do not read" \
	python3 tests/pipeline/bench_files.py "$TP_SRC"

# file_lists: the guides' file lists (testing.rst "Where things live",
# sample_app.rst's table) name only files that exist, and every source
# file; the path of a packet names only functions and files that exist
checked file_lists "a guide's file list names a missing file or misses one" \
	python3 tests/pipeline/doc_files.py "$TP_SRC"

# using_it_compiles: the library guide's "Using it" example compiles with
# -Wall -Wextra -Werror against the public header, as a function whose free
# names (dev_id, service_lcore, port_cb, port) are its arguments.
python3 - docs/library.rst "$WORK/using_it.c" <<'PYEOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index(".. test: compile")
while not lines[i].startswith(".. code-block:: c"):
    i += 1
body = []
for line in lines[i + 1:]:
    if line and not line.startswith(" "):
        break
    body.append(line[4:])
inc = [x for x in body if x.startswith("#include")]
code = [x for x in body if not x.startswith("#include")]
with open(sys.argv[2], "w") as f:
    f.write("#include <stdio.h>\n#include <rte_errno.h>\n")
    f.write("\n".join(inc) + "\n\n")
    f.write("int use_it(uint8_t dev_id, uint32_t service_lcore,\n"
            "           rte_event_timer_adapter_port_conf_cb_t port_cb,\n"
            "           uint8_t port);\n")
    f.write("int\nuse_it(uint8_t dev_id, uint32_t service_lcore,\n"
            "       rte_event_timer_adapter_port_conf_cb_t port_cb,\n"
            "       uint8_t port)\n{\n")
    f.write("\n".join("\t" + x for x in code))
    f.write("\n\treturn 0;\n}\n")
PYEOF
# shellcheck disable=SC2046
if cc -std=gnu11 -Wall -Wextra -Werror -Wno-unused-variable \
	-include rte_config.h $(pkg-config --cflags libdpdk) \
	-DALLOW_EXPERIMENTAL_API -I lib_timer_adapter \
	-c "$WORK/using_it.c" -o "$WORK/using_it.o" >"$WORK/using_it.log" 2>&1
then
	tp_pass using_it_compiles
else
	tp_fail using_it_compiles "docs/library.rst's example does not compile" \
		"$WORK/using_it.log"
fi

# readme_front: the first code block holds exactly the two commands.
lines=$(wc -l < README.rst)
first=$(awk '/^\.\. code-block::/ {inb=1; next}
	inb && /^    [^ ]/ {print; n++; next}
	inb && n && !/^ *$/ {exit}' README.rst | sed 's/^ *\$ //; s/^ *//')
rst_ok=$(python3 -c "
import docutils.core
docutils.core.publish_string(open('README.rst').read(), writer_name='null',
    settings_overrides={'report_level': 2, 'halt_level': 2})
print('yes')" 2>&1 | tail -n 1)
if [ "$rst_ok" = yes ] && [ "$lines" -le 160 ] &&
   [ "$first" = "$(printf 'bash scripts/demo.sh\nbash scripts/test.sh')" ]; then
	tp_pass readme_front
else
	tp_fail readme_front "README.rst: reStructuredText ok: $rst_ok; $lines lines; first commands:" \
		"$first"
	echo "$first"
fi

# commands (and the walkthrough's figures)
tp_doc_commands "a documented command failed or printed otherwise" \
	README.rst docs/howto.rst docs/walkthrough.rst

# walkthrough_arithmetic: the deadline arithmetic the walkthrough works out
# holds on this run's own trace of the flow (tick 10 ms, SYN-only 2 s,
# closing 1 s): arm for 200 ticks; the FIN brings the timer in to 100 ticks;
# each re-arm is for the time left until last packet + 1 s, rounded up to
# ticks (so it is due within one tick after that); the flow ends at the first expiry 1 s or more after its last
# packet, as end_of_flow.
if python3 - "$TP_BUILD/walk/pipeline.log" <<'PYEOF'
import re, sys
ev = []
for line in open(sys.argv[1]):
    m = re.match(r"trace +([0-9.]+)s lcore \d+ flow \d+ +(\S+) +(.*)", line)
    if m:
        ev.append((float(m.group(1)), m.group(2), m.group(3)))
def ticks(d):
    return int(re.match(r"(\d+) ticks", d).group(1))
assert ev and ev[0][1] == "arm" and ticks(ev[0][2]) == 200, ev[:1]
last_pkt, closing, n_rearm = ev[0][0], False, 0
for i, (t, kind, d) in enumerate(ev):
    if kind == "packet":
        last_pkt = t
        closing |= bool(re.search(r" tcp \S*[FR]", d))
    elif kind == "refresh":
        assert closing and ticks(d) == 100, (t, d)
    elif kind == "re-arm":
        # Armed for the time left rounded up to ticks: due within one tick
        # after the idle deadline (microsecond rounding of the printout).
        due = float(re.search(r"due ([0-9.]+)s", d).group(1))
        idle = last_pkt + 1.0
        assert idle - 2e-6 <= due < idle + 0.01 + 2e-6, (t, d, idle)
        n_rearm += 1
    elif kind == "end":
        assert d == "end_of_flow" and ev[i - 1][1] == "expire", (t, d)
        assert ev[i - 1][0] - last_pkt >= 1.0 - 0.001, (t, last_pkt)
        break
else:
    raise SystemExit("no end line")
print("    walkthrough: %d trace lines, %d re-arm(s), arithmetic holds"
      % (len(ev), n_rearm))
PYEOF
then
	tp_pass walkthrough_arithmetic
else
	tp_fail walkthrough_arithmetic "the trace does not follow the" \
		"walkthrough's arithmetic" "$TP_BUILD/walk/pipeline.log"
fi

# reader_records: README's run_capture command on the seed-7 capture.
rec="$TP_BUILD/capture/my/flows.json"
t=$(awk '/^TIME .* scripts\/run_capture.sh \/tmp\/my.pcap$/ {print $2}' \
	"$WORK/commands.log")
n=$(python3 - "$rec" <<'EOF' 2>/dev/null
import json, sys
keys = {"src", "dst", "proto", "packets_fwd", "end_reason"}
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(len(recs) if recs and all(keys <= set(r) for r in recs) else 0)
EOF
)
if [ -n "$t" ] && [ "${n:-0}" -gt 0 ] &&
   python3 -c "import sys; sys.exit(0 if float('$t') < 60 else 1)" &&
   grep -q PASSED "$TP_BUILD/capture/my/pipeline.log"; then
	echo "    reader: $n records in ${t} s"
	tp_pass reader_records
else
	tp_fail reader_records "records: '${n:-none}', time: '${t:-none}' s" \
		"$TP_BUILD/capture/my/pipeline.log"
fi

tp_result
