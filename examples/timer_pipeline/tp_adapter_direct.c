/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Adapter ops for lib_timer_adapter (--timer-adapter=direct, the
 * default). The calls mirror DPDK's one for one; the library also keeps
 * exactly-once accounting, which the exit check compares with the app's.
 */

#include <errno.h>

#include <rte_errno.h>

#include <timer_adapter.h>

#include "tp_adapter.h"

static int
tp_direct_create_ext(struct tp_adapter *ta,
		  const struct rte_event_timer_adapter_conf *conf,
		  rte_event_timer_adapter_port_conf_cb_t conf_cb,
		  void *conf_arg)
{
	ta->h.direct = timer_adapter_create_ext(conf, conf_cb, conf_arg);
	return ta->h.direct == NULL ? -rte_errno : 0;
}

static int
tp_direct_start(struct tp_adapter *ta)
{
	return timer_adapter_start(ta->h.direct);
}

static int
tp_direct_stop(struct tp_adapter *ta)
{
	return timer_adapter_stop(ta->h.direct);
}

static int
tp_direct_free(struct tp_adapter *ta)
{
	int ret = timer_adapter_free(ta->h.direct);

	if (ret == 0)
		ta->h.direct = NULL;
	return ret;
}

static int
tp_direct_service_id_get(struct tp_adapter *ta, uint32_t *service_id)
{
	return timer_adapter_service_id_get(ta->h.direct, service_id);
}

static uint16_t
tp_direct_arm_tmo_tick_burst(struct tp_adapter *ta, struct rte_event_timer **t,
			  uint64_t ticks, uint16_t n)
{
	return timer_adapter_arm_tmo_tick_burst(ta->h.direct, t, ticks, n);
}

static uint16_t
tp_direct_arm_burst(struct tp_adapter *ta, struct rte_event_timer **t,
		 uint16_t n)
{
	return timer_adapter_arm_burst(ta->h.direct, t, n);
}

static uint16_t
tp_direct_cancel_burst(struct tp_adapter *ta, struct rte_event_timer **t,
		    uint16_t n)
{
	return timer_adapter_cancel_burst(ta->h.direct, t, n);
}

static int
tp_direct_stats_get(struct tp_adapter *ta,
		 struct rte_event_timer_adapter_stats *stats)
{
	return timer_adapter_stats_get(ta->h.direct, stats);
}

static int
tp_direct_acct_get(struct tp_adapter *ta, struct tp_adapter_acct *acct)
{
	struct timer_adapter_accounting a;
	int ret;

	ret = timer_adapter_accounting_get(ta->h.direct, &a);
	if (ret < 0)
		return ret;
	acct->armed = a.armed;
	acct->expired = a.expired;
	acct->cancelled = a.cancelled;
	acct->pending = a.pending;
	return 0;
}

const struct tp_adapter_ops tp_adapter_direct_ops = {
	.name = "direct",
	.create_ext = tp_direct_create_ext,
	.start = tp_direct_start,
	.stop = tp_direct_stop,
	.free = tp_direct_free,
	.service_id_get = tp_direct_service_id_get,
	.arm_tmo_tick_burst = tp_direct_arm_tmo_tick_burst,
	.arm_burst = tp_direct_arm_burst,
	.cancel_burst = tp_direct_cancel_burst,
	.stats_get = tp_direct_stats_get,
	.acct_get = tp_direct_acct_get,
};
