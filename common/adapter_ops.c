/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The two ops tables of adapter_ops.h. Both adapters take the same
 * arguments and differ only in the type behind the handle, so one macro
 * writes the pass-through wrappers of both: a call added to the table is
 * added to both at once and cannot drift between them.
 */

#include <rte_event_timer_adapter.h>

#include "adapter_ops.h"
#include "dpdk_compat.h"
#include "timer_adapter.h"

#define TP_ADAPTER_OPS(sfx, create_ext_, free_, start_, stop_, svc_,	\
		       stats_get_, arm_, arm_tmo_, cancel_, lookup_,	\
		       get_info_, stats_reset_, remaining_, acct_get_)	\
static void *								\
tp_##sfx##_create_ext(const struct rte_event_timer_adapter_conf *conf,	\
		      rte_event_timer_adapter_port_conf_cb_t conf_cb,	\
		      void *conf_arg)					\
{									\
	return create_ext_(conf, conf_cb, conf_arg);			\
}									\
static int								\
tp_##sfx##_free(void *h)						\
{									\
	return free_(h);						\
}									\
static int								\
tp_##sfx##_start(void *h)						\
{									\
	return start_(h);						\
}									\
static int								\
tp_##sfx##_stop(void *h)						\
{									\
	return stop_(h);						\
}									\
static int								\
tp_##sfx##_service_id_get(void *h, uint32_t *id)			\
{									\
	return svc_(h, id);						\
}									\
static int								\
tp_##sfx##_stats_get(void *h, struct rte_event_timer_adapter_stats *s)	\
{									\
	return stats_get_(h, s);					\
}									\
static uint16_t								\
tp_##sfx##_arm_burst(void *h, struct rte_event_timer **t, uint16_t n)	\
{									\
	return arm_(h, t, n);						\
}									\
static uint16_t								\
tp_##sfx##_arm_tmo_tick_burst(void *h, struct rte_event_timer **t,	\
			      uint64_t ticks, uint16_t n)		\
{									\
	return arm_tmo_(h, t, ticks, n);				\
}									\
static uint16_t								\
tp_##sfx##_cancel_burst(void *h, struct rte_event_timer **t,		\
			uint16_t n)					\
{									\
	return cancel_(h, t, n);					\
}									\
static void *tp_##sfx##_lookup(uint16_t id) { return lookup_(id); }	\
static int								\
tp_##sfx##_get_info(void *h, struct rte_event_timer_adapter_info *i)	\
{									\
	return get_info_(h, i);						\
}									\
static int								\
tp_##sfx##_stats_reset(void *h)						\
{									\
	return stats_reset_(h);						\
}									\
static int								\
tp_##sfx##_remaining_ticks_get(void *h, const struct rte_event_timer *t,\
			       uint64_t *rem)				\
{									\
	return remaining_(h, t, rem);					\
}									\
const struct tp_adapter_ops tp_adapter_##sfx##_ops = {			\
	.name = #sfx,							\
	.create_ext = tp_##sfx##_create_ext,				\
	.free = tp_##sfx##_free,					\
	.start = tp_##sfx##_start,					\
	.stop = tp_##sfx##_stop,					\
	.service_id_get = tp_##sfx##_service_id_get,			\
	.stats_get = tp_##sfx##_stats_get,				\
	.arm_burst = tp_##sfx##_arm_burst,				\
	.arm_tmo_tick_burst = tp_##sfx##_arm_tmo_tick_burst,		\
	.cancel_burst = tp_##sfx##_cancel_burst,			\
	.lookup = tp_##sfx##_lookup,					\
	.get_info = tp_##sfx##_get_info,				\
	.stats_reset = tp_##sfx##_stats_reset,				\
	.remaining_ticks_get = tp_##sfx##_remaining_ticks_get,		\
	.acct_get = acct_get_,						\
	.settle = NULL,							\
}

/* Only ours keeps exactly-once accounting. */
static int
tp_direct_acct_get(void *h, struct timer_adapter_accounting *acct)
{
	return timer_adapter_accounting_get(h, acct);
}

TP_ADAPTER_OPS(direct, timer_adapter_create_ext, timer_adapter_free,
	       timer_adapter_start, timer_adapter_stop,
	       timer_adapter_service_id_get, timer_adapter_stats_get,
	       timer_adapter_arm_burst, timer_adapter_arm_tmo_tick_burst,
	       timer_adapter_cancel_burst, timer_adapter_lookup,
	       timer_adapter_get_info, timer_adapter_stats_reset,
	       timer_adapter_remaining_ticks_get, tp_direct_acct_get);

TP_ADAPTER_OPS(rte, rte_event_timer_adapter_create_ext,
	       rte_event_timer_adapter_free, rte_event_timer_adapter_start,
	       rte_event_timer_adapter_stop,
	       rte_event_timer_adapter_service_id_get,
	       rte_event_timer_adapter_stats_get, rte_event_timer_arm_burst,
	       rte_event_timer_arm_tmo_tick_burst,
	       rte_event_timer_cancel_burst, rte_event_timer_adapter_lookup,
	       rte_event_timer_adapter_get_info,
	       rte_event_timer_adapter_stats_reset,
	       compat_rte_event_timer_remaining_ticks_get, NULL);
