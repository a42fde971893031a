/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The run's results as files and the exactly-once check: --stats-json
 * (one line of counters per stats period), --summary-json (the check's
 * terms, every counter and the pipeline's layout at exit) and the small
 * JSON writer both use.
 * Every key comes from the counter table (tp_counters.h). Runs on the
 * main lcore only; reads the slots without locks (tp_counters.h).
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
#include "records/tp_ipfix.h"
#include "records/tp_output.h"
#include "reports/tp_summary.h"
#include "setup/tp_option.h"

/* --summary-json's "version": 2 since the counter table (one name per
 * counter; docs/summary-json.rst lists the keys version 1 called
 * otherwise).
 */
#define TP_SUMMARY_VERSION 2

/* A JSON object being written: keys and numbers only, no escaping. */
struct tp_json {
	FILE *f;		/**< Output. */
	const char *sep;	/**< "" before an object's first member. */
};

static void
tp_json_key(struct tp_json *w, const char *key)
{
	fprintf(w->f, "%s\"%s\":", w->sep, key);
	w->sep = ",";
}

static void
tp_json_u64(struct tp_json *w, const char *key, uint64_t v)
{
	tp_json_key(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

static void
tp_json_bool(struct tp_json *w, const char *key, bool v)
{
	tp_json_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* Only fixed names (adapter, refresh mode, stop reason): no escaping. */
static void
tp_json_str(struct tp_json *w, const char *key, const char *v)
{
	tp_json_key(w, key);
	fprintf(w->f, "\"%s\"", v);
}

/* An object or a list ('{' or '[') under KEY, closed by tp_json_close(). */
static void
tp_json_open(struct tp_json *w, const char *key, int c)
{
	tp_json_key(w, key);
	fputc(c, w->f);
	w->sep = "";
}

static void
tp_json_close(struct tp_json *w, int c)
{
	fputc(c, w->f);
	w->sep = ",";
}

static void
tp_json_begin(struct tp_json *w, const char *key)
{
	tp_json_open(w, key, '{');
}

/* A name from outside the program (a device's): escaped for JSON. */
static void
tp_json_name(struct tp_json *w, const char *key, const char *v)
{
	const unsigned char *c;

	tp_json_key(w, key);
	fputc('"', w->f);
	for (c = (const unsigned char *)v; *c != '\0'; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(w->f, "\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			fprintf(w->f, "\\u%04x", *c);
		else
			fputc(*c, w->f);
	}
	fputc('"', w->f);
}

/* A list under KEY; its elements are objects (tp_json_elem) or words. */
static void
tp_json_list(struct tp_json *w, const char *key)
{
	tp_json_open(w, key, '[');
}

static void
tp_json_list_end(struct tp_json *w)
{
	tp_json_close(w, ']');
}

/* An object as a list element, closed by tp_json_end(). */
static void
tp_json_elem(struct tp_json *w)
{
	fprintf(w->f, "%s{", w->sep);
	w->sep = "";
}

/* A fixed word (a role name) as a list element. */
static void
tp_json_word(struct tp_json *w, const char *v)
{
	fprintf(w->f, "%s\"%s\"", w->sep, v);
	w->sep = ",";
}

/* A number as a list element. */
static void
tp_json_num(struct tp_json *w, uint64_t v)
{
	fprintf(w->f, "%s%" PRIu64, w->sep, v);
	w->sep = ",";
}

static void
tp_json_end(struct tp_json *w)
{
	tp_json_close(w, '}');
}

/* A key of the counter table (tp_counters_each()): a number or a list. */
static void
tp_json_put(void *arg, const char *key, const uint64_t *v, unsigned int n)
{
	struct tp_json *w = arg;
	unsigned int i;

	if (n == 0) {
		tp_json_u64(w, key, *v);
		return;
	}
	tp_json_key(w, key);
	for (i = 0; i < n; i++)
		fprintf(w->f, "%c%" PRIu64, i ? ',' : '[', v[i]);
	fputc(']', w->f);
}

/* Every counter of the table; the exporter's only while it is on. */
static void
tp_json_counters(struct tp_json *w, const struct tp_counters *c, bool ipfix)
{
	tp_counters_each(c, ipfix ? TP_GRP_ALL :
			 TP_GRP_ALL & ~TP_GRP_BIT(TP_GRP_IPFIX), tp_json_put, w);
}

/* A --stats-json line lost: counted, the first one logged. */
static void
tp_stats_json_lost(struct tp_ctx *ctx, bool final)
{
	__atomic_store_n(&ctx->sj.failed_lines,
			 ctx->sj.failed_lines + 1, __ATOMIC_RELAXED);
	if (!ctx->sj.warned)
		TP_LOG(WARNING, "--stats-json '%s': a line could not be "
		       "written%s%s; counting the lines lost "
		       "(stats_json_failed), the run goes on",
		       ctx->cfg->stats_json, errno != 0 ? ": " : "",
		       errno != 0 ? strerror(errno) : "");
	ctx->sj.warned = true;
	if (final)
		ctx->sj.closed = true;
}

/*
 * --stats-json: every counter as one JSON object per line, for
 * tools/plot_run.py, after "t_s" (seconds since launch) and "final".
 * Counters are cumulative since the start; the lateness histogram too, so
 * a reader takes percentiles per interval from the difference of two
 * lines. Opened at the first period. A diagnostic file: a line that
 * cannot be written is counted (stats_json_failed), the first failure is
 * logged, and the run goes on.
 */
void
tp_stats_json_write(struct tp_ctx *ctx, bool final)
{
	struct tp_counters c;
	struct tp_json w;
	bool ipfix;

	if (ctx->cfg->stats_json[0] == '\0' || ctx->sj.closed)
		return;
	if (ctx->sj.file == NULL && !ctx->sj.failed) {
		ctx->sj.file = tp_output_fopen("--stats-json",
						  ctx->cfg->stats_json);
		ctx->sj.failed = ctx->sj.file == NULL;
	}
	if (ctx->sj.file == NULL) {	/* could not be opened: logged */
		tp_stats_json_lost(ctx, final);
		return;
	}
	w.f = ctx->sj.file;
	w.sep = "";
	ipfix = tp_counters_read(ctx, &c, NULL);
	fputc('{', w.f);
	tp_json_key(&w, "t_s");
	fprintf(w.f, "%.3f", (double)tp_cycles_to_ns(rte_get_timer_cycles() -
		ctx->start_tsc, ctx->hz) / 1e9);
	tp_json_bool(&w, "final", final);
	tp_json_counters(&w, &c, ipfix);
	fputs("}\n", w.f);
	if ((fflush(w.f) != 0) | ferror(w.f)) {
		clearerr(w.f);
		tp_stats_json_lost(ctx, false);
	}
	if (final) {
		if (fclose(w.f) != 0)
			tp_stats_json_lost(ctx, false);
		ctx->sj.file = NULL;
		ctx->sj.closed = true;	/* nothing after the last */
	}
}

/* Entries that are not FREE and whose record is not yet written. */
static uint64_t
tp_stats_live_entries(const struct tp_ctx *ctx)
{
	uint64_t n = 0;
	uint32_t i, r;

	for (i = 0; i < ctx->ft.nb_entries; i++) {
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
	const bool known = ctx->input.live_drops_unknown == 0;

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
	tp_json_str(w, "unknown_why", ctx->input.live_drops_why);
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

/* The event queues as tp_evdev_queues() set them up. */
static void
tp_layout_evdev(struct tp_json *w, const struct tp_ctx *ctx)
{
	const struct tp_evdev *evd = &ctx->evd;
	struct rte_event_dev_info info;

	tp_json_begin(w, "eventdev");
	tp_json_u64(w, "dev_id", evd->dev_id);
	tp_json_name(w, "driver",
		     rte_event_dev_info_get(evd->dev_id, &info) == 0 &&
		     info.driver_name != NULL ? info.driver_name : "?");
	tp_json_u64(w, "nb_events", evd->nb_events);
	tp_json_u64(w, "rx_threshold", evd->rx_threshold);
	tp_json_u64(w, "dequeue_depth", evd->deq_depth);
	tp_json_list(w, "queues");
	tp_json_elem(w);
	tp_json_u64(w, "queue", TP_QUEUE_PKT);
	tp_json_str(w, "carries", "packets");
	tp_json_str(w, "sched", tp_option_sched_name(ctx->cfg->sched_type));
	tp_json_u64(w, "priority", RTE_EVENT_DEV_PRIORITY_NORMAL);
	tp_json_end(w);
	tp_json_elem(w);
	tp_json_u64(w, "queue", TP_QUEUE_TIMER);
	tp_json_str(w, "carries", "expiries");
	tp_json_str(w, "sched", tp_option_sched_name(RTE_SCHED_TYPE_ATOMIC));
	tp_json_u64(w, "priority", evd->timer_prio);
	tp_json_end(w);
	tp_json_list_end(w);
	tp_json_end(w);
}

/* The ethdev ports in use, their queues and where they forward to. */
static void
tp_layout_ports(struct tp_json *w, const struct tp_ctx *ctx)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	uint16_t i, p;

	tp_json_list(w, "ports");
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		p = ctx->eth.ports[i];
		if (rte_eth_dev_get_name_by_port(p, name) != 0)
			snprintf(name, sizeof(name), "?");
		tp_json_elem(w);
		tp_json_u64(w, "port", p);
		tp_json_name(w, "name", name);
		tp_json_u64(w, "rx_queues", ctx->eth.nb_rxq[p]);
		tp_json_u64(w, "tx_queues", ctx->eth.nb_txq[p]);
		tp_json_u64(w, "forwards_to", ctx->eth.dst_port[p]);
		tp_json_end(w);
	}
	tp_json_list_end(w);
}

/* An lcore's roles, as a list of words under "roles". */
static void
tp_json_roles(struct tp_json *w, const struct tp_ctx *ctx, unsigned int id)
{
	const struct tp_lcore *lc = &ctx->lc[id];

	tp_json_list(w, "roles");
	if (rte_lcore_has_role(id, ROLE_SERVICE))
		tp_json_word(w, "service");
	if (lc->roles & TP_ROLE_CONTROL)
		tp_json_word(w, "control");
	if (lc->roles & TP_ROLE_RX)
		tp_json_word(w, "rx");
	if (lc->roles & TP_ROLE_WORKER)
		tp_json_word(w, "worker");
	tp_json_list_end(w);
}

/* Every lcore of the run: its roles, event port, RX queues, services. */
static void
tp_layout_lcores(struct tp_json *w, const struct tp_ctx *ctx)
{
	int32_t nb_svc = (int32_t)rte_service_get_count();
	unsigned int id, i;
	int32_t s;

	tp_json_list(w, "lcores");
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		const struct tp_lcore *lc = &ctx->lc[id];
		const bool service = rte_lcore_has_role(id, ROLE_SERVICE);

		if (!service && !rte_lcore_is_enabled(id))
			continue;
		tp_json_elem(w);
		tp_json_u64(w, "lcore", id);
		tp_json_u64(w, "cpu", rte_lcore_to_cpu_id(id));
		tp_json_roles(w, ctx, id);
		if (lc->roles & (TP_ROLE_RX | TP_ROLE_WORKER))
			tp_json_u64(w, "event_port", lc->ev_port);
		tp_json_list(w, "rx_queues");
		for (i = 0; i < lc->nb_rxq; i++) {
			tp_json_elem(w);
			tp_json_u64(w, "port", lc->rxq[i].port);
			tp_json_u64(w, "queue", lc->rxq[i].queue);
			tp_json_end(w);
		}
		tp_json_list_end(w);
		tp_json_list(w, "services");
		for (s = 0; service && s < nb_svc; s++)
			if (rte_service_map_lcore_get((uint32_t)s, id) == 1)
				tp_json_num(w, (uint64_t)s);
		tp_json_list_end(w);
		tp_json_end(w);
	}
	tp_json_list_end(w);
}

/* Every registered service and what it is to the pipeline. */
static void
tp_layout_services(struct tp_json *w, const struct tp_ctx *ctx,
		   uint32_t adapter_svc, bool has_adapter_svc)
{
	int32_t nb_svc = (int32_t)rte_service_get_count();
	const char *name, *what;
	int32_t s;

	tp_json_list(w, "services");
	for (s = 0; s < nb_svc; s++) {
		name = rte_service_get_name((uint32_t)s);
		if (name == NULL)
			continue;
		if (has_adapter_svc && (uint32_t)s == adapter_svc)
			what = "timer_adapter";
		else if (ctx->evd.has_sched_service &&
			 (uint32_t)s == ctx->evd.sched_service_id)
			what = "scheduler";
		else
			what = "other";
		tp_json_elem(w);
		tp_json_u64(w, "service", (uint64_t)s);
		tp_json_name(w, "name", name);
		tp_json_str(w, "is", what);
		tp_json_bool(w, "running",
			     rte_service_runstate_get((uint32_t)s) == 1);
		tp_json_end(w);
	}
	tp_json_list_end(w);
}

/*
 * "layout": the pipeline as this run set it up (the text print of
 * tp_lcore_roles_print() as data): the event device and its queues, the
 * ports, every lcore with its roles, the timer adapter and the services
 * with their lcores. docs/summary-json.rst describes each key.
 */
static void
tp_summary_layout(struct tp_json *w, const struct tp_ctx *ctx)
{
	const struct tp_adapter *ta = &ctx->ta;
	bool has_svc = false;
	uint32_t svc = 0;

	if (ta->h != NULL && ta->ops->service_id_get != NULL)
		has_svc = ta->ops->service_id_get(ta->h, &svc) == 0;
	tp_json_begin(w, "layout");
	tp_layout_evdev(w, ctx);
	tp_layout_ports(w, ctx);
	tp_layout_lcores(w, ctx);
	tp_json_begin(w, "adapter");
	tp_json_str(w, "name", ta->ops->name);
	tp_json_u64(w, "event_port", ctx->evd.adapter_port);
	tp_json_u64(w, "queue", TP_QUEUE_TIMER);
	tp_json_u64(w, "tick_ns", tp_config_scaled_tick_ns(ctx->cfg));
	if (has_svc)
		tp_json_u64(w, "service", svc);
	tp_json_end(w);
	tp_layout_services(w, ctx, svc, has_svc);
	tp_json_end(w);
}

#ifdef TP_STAGE_CYCLES
/* A ratio (ns per flow, a share), three decimals. */
static void
tp_json_f64(struct tp_json *w, const char *key, double v)
{
	tp_json_key(w, key);
	fprintf(w->f, "%.3f", v);
}

/* The stage names, from TP_STAGE_LIST (tp_stages.h). */
static const char *const tp_stage_names[TP_STAGE_MAX] = {
#define TP_STAGE_NAME(id, name, desc) [TP_STAGE_ ## id] = name,
	TP_STAGE_LIST(TP_STAGE_NAME)
#undef TP_STAGE_NAME
};
static const char *const tp_stage_descs[TP_STAGE_MAX] = {
#define TP_STAGE_DESC(id, name, desc) [TP_STAGE_ ## id] = desc,
	TP_STAGE_LIST(TP_STAGE_DESC)
#undef TP_STAGE_DESC
};

/*
 * The two stages DPDK's service statistics count (RTE_SERVICE_ATTR_*),
 * after the TP_STAGE_LIST rows: the timer adapter's service (expiry:
 * the timer wheel, the expiry events' enqueue) and the event_sw
 * scheduler's.
 */
enum { TP_SVC_ADAPTER, TP_SVC_SCHED, TP_SVC_MAX };
static const char *const tp_svc_names[TP_SVC_MAX] = {
	"expiry_adapter_service", "scheduler_service",
};
static const char *const tp_svc_descs[TP_SVC_MAX] = {
	"service lcore: the timer adapter's service (expiry: timer wheel, "
	"expiry events' enqueue); calls: service calls",
	"service lcore: the event_sw scheduler's service; calls: service "
	"calls",
};

/* A thread that counts stages: an lcore (-1: the IPFIX thread). */
struct tp_stage_thread {
	int lcore;
	const struct tp_stage_stats *s;
};

/* Service stage i's id (false: this run has no such service). */
static bool
tp_stage_svc(const struct tp_ctx *ctx, unsigned int i, uint32_t *id)
{
	const struct tp_adapter *ta = &ctx->ta;

	if (i == TP_SVC_SCHED) {
		*id = ctx->evd.sched_service_id;
		return ctx->evd.has_sched_service;
	}
	return ta->h != NULL && ta->ops->service_id_get != NULL &&
		ta->ops->service_id_get(ta->h, id) == 0;
}

static uint64_t
tp_stage_svc_attr(uint32_t id, uint32_t attr)
{
	uint64_t v = 0;

	rte_service_attr_get(id, attr, &v);
	return v;
}

/* The first service lcore service id runs on, -1 if none. */
static int
tp_stage_svc_lcore(uint32_t id)
{
	unsigned int l;

	for (l = 0; l < RTE_MAX_LCORE; l++)
		if (rte_lcore_has_role(l, ROLE_SERVICE) &&
		    rte_service_map_lcore_get(id, l) == 1)
			return (int)l;
	return -1;
}

/* The thread's "lcore" and "roles" keys. */
static void
tp_stage_who(struct tp_json *w, const struct tp_ctx *ctx, int lcore)
{
	if (lcore >= 0) {
		tp_json_u64(w, "lcore", (uint64_t)lcore);
		tp_json_roles(w, ctx, (unsigned int)lcore);
		return;
	}
	tp_json_key(w, "lcore");
	fputs("null", w->f);
	tp_json_list(w, "roles");
	tp_json_word(w, "ipfix_thread");
	tp_json_list_end(w);
}

/* ns per flow created of 'cyc' TSC cycles. */
static double
tp_stage_ns_per_flow(uint64_t cyc, uint64_t hz, uint64_t flows)
{
	return flows == 0 ? 0.0 : (double)cyc * 1e9 / (double)hz /
		(double)flows;
}

/* One thread's element of "lcores": its stages against its wall time. */
static void
tp_stage_thread(struct tp_json *w, const struct tp_ctx *ctx, int lcore,
		uint64_t sum, uint64_t wall, uint64_t hz, uint64_t flows)
{
	tp_json_elem(w);
	tp_stage_who(w, ctx, lcore);
	tp_json_u64(w, "wall_cycles", wall);
	tp_json_u64(w, "stage_cycles", sum);
	tp_json_f64(w, "busy_share", wall == 0 ? 0.0 :
		    (double)sum / (double)wall);
	tp_json_f64(w, "per_new_flow_ns", tp_stage_ns_per_flow(sum, hz, flows));
	tp_json_end(w);
}

/* One stage's row: totals, then each thread's part. */
static void
tp_stage_row(struct tp_json *w, const struct tp_ctx *ctx, const char *name,
	     const char *desc, const int *lcore, const uint64_t *cyc,
	     const uint64_t *calls, unsigned int n, uint64_t hz,
	     uint64_t flows)
{
	uint64_t tc = 0, tn = 0;
	unsigned int t;

	for (t = 0; t < n; t++) {
		tc += cyc[t];
		tn += calls[t];
	}
	tp_json_begin(w, name);
	tp_json_str(w, "covers", desc);
	tp_json_u64(w, "cycles", tc);
	tp_json_u64(w, "calls", tn);
	tp_json_f64(w, "cycles_per_call", tn == 0 ? 0.0 :
		    (double)tc / (double)tn);
	tp_json_f64(w, "per_new_flow_ns", tp_stage_ns_per_flow(tc, hz, flows));
	tp_json_list(w, "lcores");
	for (t = 0; t < n; t++) {
		if (cyc[t] == 0 && calls[t] == 0)
			continue;
		tp_json_elem(w);
		tp_stage_who(w, ctx, lcore[t]);
		tp_json_u64(w, "cycles", cyc[t]);
		tp_json_u64(w, "calls", calls[t]);
		tp_json_end(w);
	}
	tp_json_list_end(w);
	tp_json_end(w);
}

/*
 * "stage_cycles" (built with -Dstage_cycles=true): each stage's cycles
 * and calls, in total and per thread, per new flow in ns, and each
 * thread's stage cycles against its wall time (busy_share) and per new
 * flow. docs/summary-json.rst describes each key.
 */
static void
tp_summary_stages(struct tp_json *w, const struct tp_ctx *ctx,
		  const struct tp_counters *c)
{
	const uint64_t hz = rte_get_tsc_hz(), flows = c->flows_created;
	const uint64_t end = ctx->ctl.phase_tsc > ctx->start_tsc ?
		ctx->ctl.phase_tsc : rte_get_timer_cycles();
	const uint64_t wall = end - ctx->start_tsc;
	static struct tp_stage_thread th[RTE_MAX_LCORE + 1];
	static int who[RTE_MAX_LCORE + 1];
	static uint64_t cyc[RTE_MAX_LCORE + 1], calls[RTE_MAX_LCORE + 1];
	uint64_t svc_cyc[TP_SVC_MAX] = { 0 }, sum;
	int svc_lcore[TP_SVC_MAX];
	unsigned int nth = 0, t, i, l;
	uint32_t id;

	for (l = 0; l < RTE_MAX_LCORE; l++)
		if (ctx->lc[l].roles != 0)
			th[nth++] = (struct tp_stage_thread){ (int)l,
				&ctx->lc[l].stages };
	if (tp_ipfix_stages(ctx) != NULL)
		th[nth++] = (struct tp_stage_thread){ -1,
			tp_ipfix_stages(ctx) };
	tp_json_begin(w, "stage_cycles");
	tp_json_u64(w, "hz", hz);
	tp_json_u64(w, "wall_cycles", wall);
	tp_json_u64(w, "flows_created", flows);
	/* From 23.03 a service's cycles leave out its idle calls. */
	tp_json_bool(w, "service_cycles_busy_only",
		     RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0));
	tp_json_begin(w, "stages");
	for (i = 0; i < TP_STAGE_MAX; i++) {
		for (t = 0; t < nth; t++) {
			who[t] = th[t].lcore;
			cyc[t] = __atomic_load_n(&th[t].s->cycles[i],
						 __ATOMIC_RELAXED);
			calls[t] = __atomic_load_n(&th[t].s->calls[i],
						   __ATOMIC_RELAXED);
		}
		tp_stage_row(w, ctx, tp_stage_names[i], tp_stage_descs[i], who,
			     cyc, calls, nth, hz, flows);
	}
	for (i = 0; i < TP_SVC_MAX; i++) {
		svc_lcore[i] = -1;
		if (!tp_stage_svc(ctx, i, &id))
			continue;
		svc_lcore[i] = tp_stage_svc_lcore(id);
		who[0] = svc_lcore[i];
		svc_cyc[i] = cyc[0] = tp_stage_svc_attr(id,
							RTE_SERVICE_ATTR_CYCLES);
		calls[0] = tp_stage_svc_attr(id, RTE_SERVICE_ATTR_CALL_COUNT);
		tp_stage_row(w, ctx, tp_svc_names[i], tp_svc_descs[i], who,
			     cyc, calls, svc_lcore[i] >= 0 ? 1 : 0, hz, flows);
	}
	tp_json_end(w);
	/* Each thread: what its stages take of its wall time and per flow. */
	tp_json_list(w, "lcores");
	for (t = 0; t < nth; t++) {
		for (sum = 0, i = 0; i < TP_STAGE_MAX; i++)
			sum += __atomic_load_n(&th[t].s->cycles[i],
					       __ATOMIC_RELAXED);
		tp_stage_thread(w, ctx, th[t].lcore, sum, wall, hz, flows);
	}
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		if (!rte_lcore_has_role(l, ROLE_SERVICE))
			continue;
		for (sum = 0, i = 0; i < TP_SVC_MAX; i++)
			if (svc_lcore[i] == (int)l)
				sum += svc_cyc[i];
		tp_stage_thread(w, ctx, (int)l, sum, wall, hz, flows);
	}
	tp_json_list_end(w);
	tp_json_end(w);
}
#else
/* Built without -Dstage_cycles=true: "stage_cycles": null. */
static void
tp_summary_stages(struct tp_json *w, const struct tp_ctx *ctx,
		  const struct tp_counters *c)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(c);
	tp_json_key(w, "stage_cycles");
	fputs("null", w->f);
}
#endif /* TP_STAGE_CYCLES */

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
	tp_summary_layout(&w, ctx);
	tp_summary_input_drops(&w, ctx, c);
	tp_summary_stages(&w, ctx, c);
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
	pending = tp_flow_count_timers(ctx);
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
