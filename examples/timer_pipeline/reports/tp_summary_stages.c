/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * --summary-json's "stage_cycles": cycles per pipeline stage and thread
 * (-Dstage_cycles=true, datapath/tp_stages.h), or null without the
 * option. Main lcore only, at exit; reads the slots relaxed.
 */

#include <inttypes.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_service.h>
#include <rte_version.h>

#include "reports/tp_counters.h"
#include "reports/tp_json.h"
#include "reports/tp_summary_layout.h"
#include "reports/tp_summary_stages.h"
#include "records/tp_ipfix.h"
#include "tp_ctx.h"

#ifdef TP_STAGE_CYCLES
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
		tp_summary_layout_roles(w, ctx, (unsigned int)lcore);
		return;
	}
	tp_json_key(w, "lcore");
	fputs("null", w->f);
	tp_json_list(w, "roles");
	tp_json_word(w, "ipfix_thread");
	tp_json_list_end(w);
}

/* Did this thread count any stage? */
static bool
tp_stage_counted(const struct tp_stage_stats *s)
{
	unsigned int i;

	for (i = 0; i < TP_STAGE_MAX; i++)
		if (s->calls[i] != 0 || s->cycles[i] != 0)
			return true;
	return false;
}

/* A thread's cycles in all its stages. */
static uint64_t
tp_stage_sum(const struct tp_stage_stats *s)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < TP_STAGE_MAX; i++)
		sum += __atomic_load_n(&s->cycles[i], __ATOMIC_RELAXED);
	return sum;
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
void
tp_summary_stages_write(struct tp_json *w, const struct tp_ctx *ctx,
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

	/* The lcores with roles, and service lcores that counted stages
	 * (the record writer's).
	 */
	for (l = 0; l < RTE_MAX_LCORE; l++)
		if (ctx->lc[l].roles != 0 ||
		    (rte_lcore_has_role(l, ROLE_SERVICE) &&
		     tp_stage_counted(&ctx->lc[l].stages)))
			th[nth++] = (struct tp_stage_thread){ (int)l,
				&ctx->lc[l].stages };
	if (tp_ipfix_stages(ctx->ipfix) != NULL)
		th[nth++] = (struct tp_stage_thread){ -1,
			tp_ipfix_stages(ctx->ipfix) };
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
		if (th[t].lcore >= 0 &&
		    rte_lcore_has_role((unsigned int)th[t].lcore, ROLE_SERVICE))
			continue;	/* below, with its services */
		tp_stage_thread(w, ctx, th[t].lcore, tp_stage_sum(th[t].s),
				wall, hz, flows);
	}
	/* A service lcore: its services' cycles and its own stages'. */
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		if (!rte_lcore_has_role(l, ROLE_SERVICE))
			continue;
		sum = tp_stage_sum(&ctx->lc[l].stages);
		for (i = 0; i < TP_SVC_MAX; i++)
			if (svc_lcore[i] == (int)l)
				sum += svc_cyc[i];
		tp_stage_thread(w, ctx, (int)l, sum, wall, hz, flows);
	}
	tp_json_list_end(w);
	tp_json_end(w);
}
#else
/* Built without -Dstage_cycles=true: "stage_cycles": null. */
void
tp_summary_stages_write(struct tp_json *w, const struct tp_ctx *ctx,
		  const struct tp_counters *c)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(c);
	tp_json_key(w, "stage_cycles");
	fputs("null", w->f);
}
#endif /* TP_STAGE_CYCLES */
