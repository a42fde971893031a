/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * --summary-json's "layout": the event device and its queues, the ports,
 * every lcore with its roles, the timer adapter and the services with
 * their lcores, as this run set them up. Main lcore only, at exit.
 */

#include <inttypes.h>
#include <stdio.h>

#include <rte_ethdev.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_service.h>

#include "reports/tp_json.h"
#include "datapath/tp_rx_ahead.h"
#include "reports/tp_summary_layout.h"
#include "setup/tp_option.h"
#include "tp_ctx.h"
#include "setup/tp_service.h"

/* The event queues as tp_evdev_queues() set them up. */
static void
tp_layout_evdev(struct tp_json *w, const struct tp_ctx *ctx)
{
	const struct tp_evdev *evd = &ctx->evd;
	struct rte_event_dev_info info;
	uint32_t depth;

	tp_json_begin(w, "eventdev");
	tp_json_u64(w, "dev_id", evd->dev_id);
	tp_json_name(w, "driver",
		     rte_event_dev_info_get(evd->dev_id, &info) == 0 &&
		     info.driver_name != NULL ? info.driver_name : "?");
	tp_json_u64(w, "nb_events", evd->nb_events);
	tp_json_u64(w, "rx_threshold", evd->rx_threshold);
	tp_json_u64(w, "dequeue_depth", evd->deq_depth);
	/* What a port holds, as the device says (port 0: RX or worker). */
	if (rte_event_port_attr_get(evd->dev_id, 0,
				    RTE_EVENT_PORT_ATTR_DEQ_DEPTH, &depth) == 0)
		tp_json_u64(w, "port_dequeue_depth", depth);
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

void
tp_summary_layout_roles(struct tp_json *w, const struct tp_ctx *ctx, unsigned int id)
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
		tp_summary_layout_roles(w, ctx, id);
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
		for (s = 0; s < nb_svc; s++)
			if ((service &&
			     rte_service_map_lcore_get((uint32_t)s, id) == 1) ||
			    (id == ctx->main_lcore &&
			     tp_service_here_has((uint32_t)s)))
				tp_json_num(w, (uint64_t)s);
		tp_json_list_end(w);
		tp_json_end(w);
	}
	tp_json_list_end(w);
}

/* Whether service s reads a capture ahead (tp_rx_ahead.h). */
static bool
tp_layout_is_rx_ahead(const struct tp_ctx *ctx, uint32_t s)
{
	unsigned int id, i;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		for (i = 0; i < ctx->lc[id].nb_rxq; i++)
			if (ctx->lc[id].rxq[i].ahead != NULL &&
			    tp_rx_ahead_service_id(&ctx->lc[id].rxq[i]) == s)
				return true;
	return false;
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
		else if (ctx->rec.service_on &&
			 (uint32_t)s == ctx->rec.service_id)
			what = "record_writer";
		else if (tp_layout_is_rx_ahead(ctx, (uint32_t)s))
			what = "rx_ahead";
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
void
tp_summary_layout_write(struct tp_json *w, const struct tp_ctx *ctx)
{
	const struct tp_adapter *ta = &ctx->ta;
	bool has_svc = false;
	uint32_t svc = 0;

	if (ta->h != NULL && ta->ops->service_id_get != NULL)
		has_svc = ta->ops->service_id_get(ta->h, &svc) == 0;
	tp_json_begin(w, "layout");
	/* Do packets cross the event device (sample_app.rst)? */
	tp_json_str(w, "packet_path", ctx->inline_path ? "inline" : "events");
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
