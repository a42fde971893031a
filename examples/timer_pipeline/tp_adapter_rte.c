/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Adapter ops for DPDK's rte_event_timer_adapter (--timer-adapter=rte).
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_event_timer_adapter.h>

#include "tp_adapter.h"

static int
tp_rte_create_ext(struct tp_adapter *ta,
		  const struct rte_event_timer_adapter_conf *conf,
		  rte_event_timer_adapter_port_conf_cb_t conf_cb,
		  void *conf_arg)
{
	ta->h.rte = rte_event_timer_adapter_create_ext(conf, conf_cb,
						       conf_arg);
	return ta->h.rte == NULL ? -rte_errno : 0;
}

static int
tp_rte_start(struct tp_adapter *ta)
{
	return rte_event_timer_adapter_start(ta->h.rte);
}

static int
tp_rte_stop(struct tp_adapter *ta)
{
	return rte_event_timer_adapter_stop(ta->h.rte);
}

static int
tp_rte_free(struct tp_adapter *ta)
{
	int ret = rte_event_timer_adapter_free(ta->h.rte);

	if (ret == 0)
		ta->h.rte = NULL;
	return ret;
}

static int
tp_rte_service_id_get(struct tp_adapter *ta, uint32_t *service_id)
{
	return rte_event_timer_adapter_service_id_get(ta->h.rte, service_id);
}

static uint16_t
tp_rte_arm_tmo_tick_burst(struct tp_adapter *ta, struct rte_event_timer **t,
			  uint64_t ticks, uint16_t n)
{
	return rte_event_timer_arm_tmo_tick_burst(ta->h.rte, t, ticks, n);
}

static uint16_t
tp_rte_arm_burst(struct tp_adapter *ta, struct rte_event_timer **t,
		 uint16_t n)
{
	return rte_event_timer_arm_burst(ta->h.rte, t, n);
}

static uint16_t
tp_rte_cancel_burst(struct tp_adapter *ta, struct rte_event_timer **t,
		    uint16_t n)
{
	return rte_event_timer_cancel_burst(ta->h.rte, t, n);
}

static int
tp_rte_stats_get(struct tp_adapter *ta,
		 struct rte_event_timer_adapter_stats *stats)
{
	return rte_event_timer_adapter_stats_get(ta->h.rte, stats);
}

const struct tp_adapter_ops tp_adapter_rte_ops = {
	.name = "rte",
	.create_ext = tp_rte_create_ext,
	.start = tp_rte_start,
	.stop = tp_rte_stop,
	.free = tp_rte_free,
	.service_id_get = tp_rte_service_id_get,
	.arm_tmo_tick_burst = tp_rte_arm_tmo_tick_burst,
	.arm_burst = tp_rte_arm_burst,
	.cancel_burst = tp_rte_cancel_burst,
	.stats_get = tp_rte_stats_get,
	.acct_get = NULL,
};
