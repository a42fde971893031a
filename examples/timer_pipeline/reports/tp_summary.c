/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The exactly-once check at exit and --summary-json: the check's terms,
 * the run's times, the layout (tp_summary_layout.c), the stage cycles
 * (tp_summary_stages.c) and every counter. Every key comes from the
 * counter table (tp_counters.h). Runs on the main lcore only; reads the
 * slots without locks (tp_slots.h).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_service.h>
#include <rte_version.h>

#include "reports/tp_counters.h"
#include "tp_ctx.h"
#include "datapath/tp_flow_table.h"
#include "records/tp_ipfix.h"
#include "records/tp_output.h"
#include "reports/tp_json.h"
#include "reports/tp_summary.h"
#include "reports/tp_summary_layout.h"
#include "reports/tp_summary_stages.h"
#include "setup/tp_option.h"

/* --summary-json's "version": 2 since the counter table (one name per
 * counter; docs/summary-json.rst lists the keys version 1 called
 * otherwise).
 */
#define TP_SUMMARY_VERSION 2

/* Entries that are not FREE and whose record is not yet written (none
 * above the table's top was ever taken).
 */
static uint64_t
tp_stats_live_entries(const struct tp_ctx *ctx)
{
	const uint32_t top = tp_flow_table_top(ctx);
	uint64_t n = 0;
	uint32_t i, r;

	for (i = 0; i < top; i++) {
		r = ctx->ft.entries[i].ref;
		if (r != TP_REF_FREE && (r & TP_REF_COUNT_MASK) != 0)
			n++;
	}
	return n;
}

static int
tp_stats_adapter_check(struct tp_ctx *ctx, const struct tp_counters *c,
		       uint64_t pending)
{
	struct rte_event_timer_adapter_stats as;
	const struct tp_adapter *ta = &ctx->ta;
	struct timer_adapter_accounting acct;
	int ok = 0;

	if (ta->ops->stats_get(ta->h, &as) == 0 &&
	    as.evtim_exp_count != c->timers_expired) {
		printf("  adapter built %" PRIu64 " expiry events, workers "
		       "processed %" PRIu64 "\n", as.evtim_exp_count,
		       c->timers_expired);
		ok = -1;
	}
	if (ta->ops->acct_get == NULL || ta->ops->acct_get(ta->h, &acct) != 0)
		return ok;
	if (acct.armed != c->timers_armed ||
	    acct.expired != c->timers_expired ||
	    acct.cancelled != c->timers_cancelled || acct.pending != pending) {
		printf("  adapter accounting armed %" PRIu64 " expired %"
		       PRIu64 " cancelled %" PRIu64 " pending %" PRIu64
		       " differs from the app's\n", acct.armed, acct.expired,
		       acct.cancelled, acct.pending);
		ok = -1;
	}
	return ok;
}

/* Every ended flow's record was exported or counted as not sent. */
static int
tp_stats_ipfix_check(const struct tp_counters *c, bool ipfix)
{
	if (!ipfix)
		return 0;
	printf("  ipfix  ended %" PRIu64 " == exported %" PRIu64
	       " + not sent %" PRIu64 "\n", c->flows_ended, c->ipfix_exported,
	       c->ipfix_not_sent);
	return c->flows_ended == c->ipfix_exported + c->ipfix_not_sent ?
		0 : -1;
}

/* A term of the check under its counter's name (the table's, #field). */
#define TP_CHECK_TERM(w, c, field) tp_json_u64(w, #field, (c)->field)

/*
 * The check's terms, as tp_summary_check() printed them: the counters under
 * their table names, and the two terms the check counts itself,
 * flows_live (entries whose record is not written) and timers_pending.
 */
static void
tp_summary_check_terms(struct tp_json *w, const struct tp_counters *c, bool ipfix,
		 uint64_t live, uint64_t pending, bool passed, uint64_t lost)
{
	tp_json_begin(w, "check");
	tp_json_bool(w, "passed", passed);
	tp_json_u64(w, "output_lost", lost);
	TP_CHECK_TERM(w, c, flows_created);
	TP_CHECK_TERM(w, c, flows_ended);
	tp_json_u64(w, "flows_live", live);
	TP_CHECK_TERM(w, c, timers_armed);
	TP_CHECK_TERM(w, c, timers_expired);
	TP_CHECK_TERM(w, c, timers_cancelled);
	tp_json_u64(w, "timers_pending", pending);
	TP_CHECK_TERM(w, c, rx_pkts);
	TP_CHECK_TERM(w, c, forwarded);
	TP_CHECK_TERM(w, c, monitored);
	TP_CHECK_TERM(w, c, dropped);
	TP_CHECK_TERM(w, c, events_in_flight);
	if (ipfix) {
		TP_CHECK_TERM(w, c, ipfix_exported);
		TP_CHECK_TERM(w, c, ipfix_not_sent);
	}
	TP_CHECK_TERM(w, c, records_written);
	TP_CHECK_TERM(w, c, records_not_written);
	tp_json_end(w);
}

/*
 * The packets lost before RX, by reason: the ports' imissed (the kernel's
 * drops on a live interface, a full RX ring), rx_nombuf and ierrors.
 * Where a driver does not count the kernel's drops, "known" is false and
 * "imissed" null, not 0 (tp_live.c).
 */
static void
tp_summary_input_drops(struct tp_json *w, const struct tp_ctx *ctx,
		       const struct tp_counters *c)
{
	const bool known = ctx->live.drops_unknown == 0;

	tp_json_begin(w, "input_drops");
	tp_json_bool(w, "known", known);
	tp_json_key(w, "imissed");
	if (known)
		fprintf(w->f, "%" PRIu64, c->port_imissed);
	else
		fputs("null", w->f);
	tp_json_u64(w, "rx_nombuf", c->port_rx_nombuf);
	tp_json_u64(w, "ierrors", c->port_ierrors);
	/* A fixed text with a port number and driver names: no escaping. */
	tp_json_str(w, "unknown_why", ctx->live.drops_why);
	tp_json_end(w);
}

/*
 * When the run's phases happened, in ms from the launch (the lcores
 * started), and the launch itself on the wall clock: a benchmark tells
 * start-up, running, flushing and exit apart with them.
 */
static void
tp_summary_times(struct tp_json *w, const struct tp_ctx *ctx)
{
	const uint64_t ms = ctx->hz / 1000;

	tp_json_str(w, "stop_reason", ctx->ctl.stop_reason != NULL ?
		    ctx->ctl.stop_reason : "none");
	tp_json_begin(w, "times");
	tp_json_u64(w, "launch_unix_ms", ctx->start_ns / 1000000);
	tp_json_u64(w, "stop_request_ms", ctx->ctl.stop_tsc > ctx->start_tsc ?
		    (ctx->ctl.stop_tsc - ctx->start_tsc) / ms : 0);
	tp_json_u64(w, "stopped_ms", ctx->ctl.phase_tsc > ctx->start_tsc ?
		    (ctx->ctl.phase_tsc - ctx->start_tsc) / ms : 0);
	tp_json_end(w);
}

/*
 * Write --summary-json (if set): run facts, "check" with the exactly-once
 * check's terms as tp_summary_check() printed them, "layout" (the lcores,
 * queues, ports and services of this run), then "counters", every
 * counter of the table. The file is created like --flow-log (no symbolic
 * link, 0644).
 *
 * @return 0, or -1 (logged) if the file cannot be written.
 */
static int
tp_summary_write(const struct tp_ctx *ctx, const struct tp_counters *c,
		 bool ipfix, uint64_t live, uint64_t pending, bool passed,
		 uint64_t lost)
{
	const char *path = ctx->cfg->summary_json;
	struct tp_json w = { .sep = "" };

	if (path[0] == '\0')
		return 0;
	w.f = tp_output_fopen("--summary-json", path);
	if (w.f == NULL)
		return -1;
	fputc('{', w.f);
	tp_json_u64(&w, "version", TP_SUMMARY_VERSION);
	tp_json_str(&w, "adapter", ctx->ta.ops->name);
	tp_json_str(&w, "refresh", ctx->cfg->refresh == TP_REFRESH_LAZY ?
		    "lazy" : "every-packet");
	/* The clock that aged the flows (--clock). */
	tp_json_str(&w, "clock", ctx->clk.on ? "capture" : "wall");
	tp_json_bool(&w, "aborted", ctx->ctl.aborted);
	tp_summary_times(&w, ctx);
	tp_summary_check_terms(&w, c, ipfix, live, pending, passed, lost);
	tp_summary_layout_write(&w, ctx);
	tp_summary_input_drops(&w, ctx, c);
	tp_summary_stages_write(&w, ctx, c);
	tp_json_begin(&w, "counters");
	tp_json_counters(&w, c, ipfix);
	tp_json_end(&w);
	fputs("}\n", w.f);
	if (ferror(w.f) | (fclose(w.f) != 0)) {
		TP_LOG(ERR, "cannot write --summary-json '%s'", path);
		return -1;
	}
	return 0;
}

/*
 * The record files (the flow log, the IPFIX file) and tx_pcap: each
 * ended flow is in the file or counted as not written, and what is not
 * written is lost on the user's own disk, so the run does not pass. An
 * IPFIX collector's not sent records are a counted drop (the network may
 * lose them), checked by tp_stats_ipfix_check().
 *
 * @return what the files lost (records, and tx_pcap bytes); *ok = -1 if
 *   a sink's terms do not add up.
 */
static uint64_t
tp_stats_files_check(const struct tp_ctx *ctx, const struct tp_counters *c,
		     bool ipfix, int *ok)
{
	const struct tp_config *cfg = ctx->cfg;
	uint64_t lost = 0;

	if (ctx->rec.log_on) {
		printf("  flow log  ended %" PRIu64 " == written %" PRIu64
		       " + not written %" PRIu64 "\n", c->flows_ended,
		       c->records_written, c->records_not_written);
		if (c->flows_ended != c->records_written +
		    c->records_not_written)
			*ok = -1;
		if (c->records_not_written > 0)
			printf("  RECORDS LOST: %" PRIu64 " records not written "
			       "to --flow-log '%s'\n", c->records_not_written,
			       cfg->flow_log);
		lost += c->records_not_written;
	}
	if (ipfix && cfg->ipfix_file[0] != '\0' && c->ipfix_not_sent > 0) {
		printf("  RECORDS LOST: %" PRIu64 " records not written to "
		       "--ipfix-file '%s'\n", c->ipfix_not_sent,
		       cfg->ipfix_file);
		lost += c->ipfix_not_sent;
	}
	if (c->port_tx_pcap_short > 0) {
		printf("  FRAMES LOST: tx_pcap files lack %" PRIu64 " bytes of "
		       "the frames sent to them\n", c->port_tx_pcap_short);
		lost += c->port_tx_pcap_short;
	}
	return lost;
}

/* Exactly-once check. 8< */
int
tp_summary_check(struct tp_ctx *ctx)
{
	uint64_t live, pending, lost;
	struct tp_counters c;
	bool ipfix;
	int ok = 0, status;

	ipfix = tp_counters_read(ctx, &c, NULL);
	live = tp_stats_live_entries(ctx);
	pending = tp_flow_table_count_timers(ctx);
	printf("Exactly-once check:\n  flows  created %" PRIu64 " == ended %"
	       PRIu64 " + live %" PRIu64 "\n  timers armed %" PRIu64
	       " == expired %" PRIu64 " + cancelled %" PRIu64 " + pending %"
	       PRIu64 "\n", c.flows_created, c.flows_ended, live,
	       c.timers_armed, c.timers_expired, c.timers_cancelled, pending);
	/* Every packet received was forwarded, metered only (monitor mode:
	 * the term is printed there) or dropped under a reason.
	 */
	printf("  packets rx %" PRIu64 " == forwarded %" PRIu64, c.rx_pkts,
	       c.forwarded);
	if (ctx->cfg->fwd_mode == TP_FWD_MONITOR)
		printf(" + monitored %" PRIu64, c.monitored);
	printf(" + dropped %" PRIu64 " + in flight %" PRIu64 "\n", c.dropped,
	       c.events_in_flight);
	if (c.flows_created != c.flows_ended + live ||
	    c.timers_armed != c.timers_expired + c.timers_cancelled + pending ||
	    c.rx_pkts != c.forwarded + c.monitored + c.dropped +
	    c.events_in_flight)
		ok = -1;
	if (!ctx->ctl.aborted && (live != 0 || pending != 0 ||
			      c.events_in_flight != 0)) {
		printf("  flows, timers or packets left after the flush\n");
		ok = -1;
	}
	if (tp_stats_adapter_check(ctx, &c, pending) != 0)
		ok = -1;
	if (tp_stats_ipfix_check(&c, ipfix) != 0)
		ok = -1;
	lost = tp_stats_files_check(ctx, &c, ipfix, &ok);
	if (ok != 0) {
		printf("  FAILED\n");
		status = EXIT_FAILURE;
	} else if (lost > 0) {
		printf("  FAILED: output lost (exit status %d)\n",
		       TP_EXIT_LOST);
		status = TP_EXIT_LOST;
	} else {
		printf("  PASSED\n");
		status = EXIT_SUCCESS;
	}
	if (tp_summary_write(ctx, &c, ipfix, live, pending,
			     status == EXIT_SUCCESS, lost) != 0)
		status = EXIT_FAILURE;
	return status;
}
/* >8 End of exactly-once check. */
