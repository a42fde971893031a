/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The event timer adapter: created on a port of our event device (the
 * create_ext callback), its service mapped to a service lcore. Setup only,
 * main lcore; ctx->ta is read-only after.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_service.h>

#include "tp_ctx.h"
#include "setup/tp_adapter.h"
#include "setup/tp_clock.h"
#include "setup/tp_evdev.h"
#include "setup/tp_service.h"

/* create_ext callback: the adapter enqueues on a port we set up. 8< */
static int
tp_adapter_port_cb(uint16_t adapter_id, uint8_t dev_id, uint8_t *port_id,
		   void *arg)
{
	struct tp_ctx *ctx = arg;
	int ret;

	RTE_SET_USED(adapter_id);
	RTE_SET_USED(dev_id);
	/* Full credit: expiries must get in even when RX ports cannot. */
	ret = tp_evdev_port(ctx, ctx->evd.adapter_port, ctx->evd.nb_events,
			    false);
	if (ret < 0)
		return ret;
	*port_id = ctx->evd.adapter_port;
	return 0;
}
/* >8 End of create_ext callback. */

int
tp_adapter_setup(struct tp_ctx *ctx)
{
	const struct tp_config *cfg = ctx->cfg;
	struct rte_event_timer_adapter_conf ac;
	uint64_t max_tmo = 0;
	uint32_t svc;
	unsigned int i;
	int ret;

	for (i = 0; i < TP_TMO_MAX; i++)
		max_tmo = RTE_MAX(max_tmo, cfg->tmo_ns[i] / cfg->replay_speed);
	memset(&ac, 0, sizeof(ac));
	ac.event_dev_id = ctx->evd.dev_id;
	ac.timer_adapter_id = 0;
	ac.socket_id = rte_socket_id();
	ac.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK;
	ac.timer_tick_ns = tp_config_scaled_tick_ns(cfg);
	ac.max_tmo_ns = max_tmo + 2 * ac.timer_tick_ns;
	/* One timer per flow slot, unless --timers asks for fewer (a fault
	 * test: arms then fail with ENOSPC and the flows end at once).
	 */
	ac.nb_timers = cfg->nb_timers != 0 ? cfg->nb_timers :
		ctx->ft.nb_entries;
	/* --clock capture: the adapter runs on the capture's clock. */
	ac.flags = ctx->clk.on ? TIMER_ADAPTER_F_CLOCK : 0;
	ctx->ta.ops = cfg->adapter == TP_ADAPTER_RTE ? &tp_adapter_rte_ops :
		&tp_adapter_direct_ops;
	ctx->ta.h = ctx->ta.ops->create_ext(&ac, tp_adapter_port_cb, ctx);
	if (ctx->ta.h == NULL) {
		ret = rte_errno != 0 ? -rte_errno : -EINVAL;
		TP_LOG(ERR, "cannot create the %s timer adapter: %s",
		       ctx->ta.ops->name, rte_strerror(-ret));
		return ret;
	}
	ret = ctx->ta.ops->service_id_get(ctx->ta.h, &svc);
	if (ret < 0)
		return ret;
	ret = tp_service_map(svc, "timer adapter");
	if (ret < 0)
		return ret;
	ret = rte_service_runstate_set(svc, 1);
	if (ret < 0)
		return ret;
#ifdef TP_STAGE_CYCLES
	/* The expiry row of "stage_cycles": the service's own cycles. */
	rte_service_set_stats_enable(svc, 1);
#endif
	ret = tp_clock_init(ctx);
	if (ret < 0)
		return ret;
	TP_LOG(INFO, "%s timer adapter: tick %" PRIu64 " ns, %" PRIu64
	       " timers, event port %u", ctx->ta.ops->name, ac.timer_tick_ns,
	       ac.nb_timers, ctx->evd.adapter_port);
	if (ac.nb_timers < ctx->ft.nb_entries)
		TP_LOG(WARNING, "--timers %" PRIu64 " is below the %u flow "
		       "slots: flows whose timer cannot be armed end as "
		       "lack_of_resources", ac.nb_timers, ctx->ft.nb_entries);
	return 0;
}
