/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Adapter ops for lib_timer_adapter (--timer-adapter=skiplist, the
 * default). The calls mirror DPDK's one for one; the library also keeps
 * exactly-once accounting, which the exit check compares with the app's.
 */

#include <errno.h>

#include <rte_errno.h>

#include <timer_adapter.h>

#include "tp_adapter.h"

static int
tp_skl_create_ext(struct tp_adapter *ta,
		  const struct rte_event_timer_adapter_conf *conf,
		  rte_event_timer_adapter_port_conf_cb_t conf_cb,
		  void *conf_arg)
{
	ta->h.skl = timer_adapter_create_ext(conf, conf_cb, conf_arg);
	return ta->h.skl == NULL ? -rte_errno : 0;
}

static int
tp_skl_start(struct tp_adapter *ta)
{
	return timer_adapter_start(ta->h.skl);
}

static int
tp_skl_stop(struct tp_adapter *ta)
{
	return timer_adapter_stop(ta->h.skl);
}

static int
tp_skl_free(struct tp_adapter *ta)
{
	int ret = timer_adapter_free(ta->h.skl);

	if (ret == 0)
		ta->h.skl = NULL;
	return ret;
}

static int
tp_skl_service_id_get(struct tp_adapter *ta, uint32_t *service_id)
{
	return timer_adapter_service_id_get(ta->h.skl, service_id);
}

static uint16_t
tp_skl_arm_tmo_tick_burst(struct tp_adapter *ta, struct rte_event_timer **t,
			  uint64_t ticks, uint16_t n)
{
	return timer_adapter_arm_tmo_tick_burst(ta->h.skl, t, ticks, n);
}

static uint16_t
tp_skl_arm_burst(struct tp_adapter *ta, struct rte_event_timer **t,
		 uint16_t n)
{
	return timer_adapter_arm_burst(ta->h.skl, t, n);
}

static uint16_t
tp_skl_cancel_burst(struct tp_adapter *ta, struct rte_event_timer **t,
		    uint16_t n)
{
	return timer_adapter_cancel_burst(ta->h.skl, t, n);
}

static int
tp_skl_stats_get(struct tp_adapter *ta,
		 struct rte_event_timer_adapter_stats *stats)
{
	return timer_adapter_stats_get(ta->h.skl, stats);
}

static int
tp_skl_acct_get(struct tp_adapter *ta, struct tp_adapter_acct *acct)
{
	struct timer_adapter_accounting a;
	int ret;

	ret = timer_adapter_accounting_get(ta->h.skl, &a);
	if (ret < 0)
		return ret;
	acct->armed = a.armed;
	acct->expired = a.expired;
	acct->cancelled = a.cancelled;
	acct->pending = a.pending;
	return 0;
}

const struct tp_adapter_ops tp_adapter_skiplist_ops = {
	.name = "skiplist",
	.create_ext = tp_skl_create_ext,
	.start = tp_skl_start,
	.stop = tp_skl_stop,
	.free = tp_skl_free,
	.service_id_get = tp_skl_service_id_get,
	.arm_tmo_tick_burst = tp_skl_arm_tmo_tick_burst,
	.arm_burst = tp_skl_arm_burst,
	.cancel_burst = tp_skl_cancel_burst,
	.stats_get = tp_skl_stats_get,
	.acct_get = tp_skl_acct_get,
};
