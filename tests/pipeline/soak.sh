#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
#
# Soak, CI version: scripts/soak.sh for 60 s with 100,000 flows (the
# capture is generated once and cached in BUILD_DIR/soak/), flows ending
# and starting again all the time. Each of its checks is a case here: the
# resident memory and DPDK's heap are flat after the warm-up, mbufs out of
# the pool stay bounded, the expiry lateness p99 of the last window is at
# most two log2 buckets above the first's, flows churned (created at least
# 3x over), the exactly-once check passed with every flow ended, and the
# flush took at most 2 s; here the whole SIGINT to exit must too. Under 2
# minutes.
#
#     tests/pipeline/soak.sh BUILD_DIR

SUITE=soak
. "$(dirname "$0")/lib.sh"

OUT=$WORK/soak.json
LOG=$WORK/soak.out
# Windows of 22 s on a shared 2-CPU machine: lateness may move by two log2
# buckets (4x) between them without any drift in the pipeline.
timeout -k 10 170 bash "$TP_SRC/scripts/soak.sh" --seconds 60 \
	--flows 100000 --lateness-buckets 2 --build "$TP_BUILD" --out "$OUT" \
	>"$LOG" 2>&1
rc=$?
sed 's/^/    | /' "$LOG"

if [ ! -s "$OUT" ]; then
	tp_fail soak_ran "no results (soak.sh exit $rc)" "$LOG"
	tp_result
	exit
fi

# The script's verdict and each of its checks, read back from the JSON
# (so a check it forgot to make fails here as "missing").
while read -r name verdict why; do
	if [ "$verdict" = ok ]; then
		tp_pass "soak_$name"
	else
		tp_fail "soak_$name" "$why" "$LOG"
	fi
done < <(python3 - "$OUT" "$rc" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
f, c = doc["figures"], doc["checks"]
n = len(doc["samples"])
print("ran", "ok" if rc == 0 and doc["passed"] and n >= 25 and
      not doc["error"] else "bad",
      "exit %d, %d samples, error %s" % (rc, n, doc["error"]))
why = {
    "rss_flat": "RSS %s MB after warm-up, last %s MB, max deviation %s %%"
        % (f.get("rss_after_warmup_MB"), f.get("rss_last_MB"),
           f.get("rss_max_deviation_pct")),
    "lateness_stable": "lateness p99 first %s us, last %s us"
        % (f.get("lateness_p99_first_us"), f.get("lateness_p99_last_us")),
    "churn": "%s flows created, %s ended by timeouts"
        % (f.get("flows_created"),
           (f.get("ended_idle") or 0) + (f.get("ended_active") or 0)),
    "exactly_once": "exit status %s: %s"
        % (f.get("exit_status"), f.get("exactly_once")),
    "heap_flat": "DPDK heap %s MB after warm-up, last %s MB"
        % (f.get("heap_alloc_after_warmup_MB"), f.get("heap_alloc_last_MB")),
    "mbufs_bounded": "mbufs in use %s..%s"
        % (f.get("mbufs_in_use_min"), f.get("mbufs_in_use_max")),
    "flush_in_time": "flushed %s ms after SIGINT" % f.get("flush_ms"),
}
for k, w in why.items():
    print(k, "ok" if c.get(k) is True else "bad",
          w if k in c else "check missing")
# With 100,000 flows the teardown is small: the whole exit fits in 2 s.
e = f.get("sigint_to_exit_ms")
print("exit_in_time", "ok" if e is not None and e <= 2000 else "bad",
      "SIGINT to exit %s ms" % e)
EOF
)

tp_result
