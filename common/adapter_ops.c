/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The two ops tables of adapter_ops.h: tp_adapter_direct_ops (ours) and
 * tp_adapter_rte_ops (DPDK's). Each wrapper passes its arguments and
 * return value through unchanged and differs from its twin only in the
 * call it makes; they are written out, one by name, so that each can be
 * found with grep. No lock: every call goes straight to the adapter.
 */

#include <rte_event_timer_adapter.h>

#include "adapter_ops.h"
#include "dpdk_compat.h"
#include "timer_adapter.h"

/* ---- lib_timer_adapter (timer_adapter_*) ---- */

static void *
tp_direct_create_ext(const struct rte_event_timer_adapter_conf *conf,
		     rte_event_timer_adapter_port_conf_cb_t conf_cb,
		     void *conf_arg)
{
	return timer_adapter_create_ext(conf, conf_cb, conf_arg);
}

static int
tp_direct_free(void *h)
{
	return timer_adapter_free(h);
}

static int
tp_direct_start(void *h)
{
	return timer_adapter_start(h);
}

static int
tp_direct_stop(void *h)
{
	return timer_adapter_stop(h);
}

static int
tp_direct_service_id_get(void *h, uint32_t *service_id)
{
	return timer_adapter_service_id_get(h, service_id);
}

static int
tp_direct_stats_get(void *h, struct rte_event_timer_adapter_stats *stats)
{
	return timer_adapter_stats_get(h, stats);
}

static uint16_t
tp_direct_arm_burst(void *h, struct rte_event_timer **tims, uint16_t n)
{
	return timer_adapter_arm_burst(h, tims, n);
}

static uint16_t
tp_direct_arm_tmo_tick_burst(void *h, struct rte_event_timer **tims,
			     uint64_t timeout_ticks, uint16_t n)
{
	return timer_adapter_arm_tmo_tick_burst(h, tims, timeout_ticks, n);
}

static uint16_t
tp_direct_cancel_burst(void *h, struct rte_event_timer **tims, uint16_t n)
{
	return timer_adapter_cancel_burst(h, tims, n);
}

static void *
tp_direct_lookup(uint16_t adapter_id)
{
	return timer_adapter_lookup(adapter_id);
}

static int
tp_direct_get_info(void *h, struct rte_event_timer_adapter_info *info)
{
	return timer_adapter_get_info(h, info);
}

static int
tp_direct_stats_reset(void *h)
{
	return timer_adapter_stats_reset(h);
}

static int
tp_direct_remaining_ticks_get(void *h, const struct rte_event_timer *t,
			      uint64_t *ticks_remaining)
{
	return timer_adapter_remaining_ticks_get(h, t, ticks_remaining);
}

/* Exactly-once accounting: ours only. */
static int
tp_direct_acct_get(void *h, struct timer_adapter_accounting *acct)
{
	return timer_adapter_accounting_get(h, acct);
}

const struct tp_adapter_ops tp_adapter_direct_ops = {
	.name = "direct",
	.create_ext = tp_direct_create_ext,
	.free = tp_direct_free,
	.start = tp_direct_start,
	.stop = tp_direct_stop,
	.service_id_get = tp_direct_service_id_get,
	.stats_get = tp_direct_stats_get,
	.arm_burst = tp_direct_arm_burst,
	.arm_tmo_tick_burst = tp_direct_arm_tmo_tick_burst,
	.cancel_burst = tp_direct_cancel_burst,
	.lookup = tp_direct_lookup,
	.get_info = tp_direct_get_info,
	.stats_reset = tp_direct_stats_reset,
	.remaining_ticks_get = tp_direct_remaining_ticks_get,
	.acct_get = tp_direct_acct_get,
	.settle = NULL,
};

/*
 * ---- DPDK's software adapter (rte_event_timer_*; remaining_ticks_get
 * through dpdk_compat.h, which has none before 23.03) ----
 */

static void *
tp_rte_create_ext(const struct rte_event_timer_adapter_conf *conf,
		  rte_event_timer_adapter_port_conf_cb_t conf_cb,
		  void *conf_arg)
{
	return rte_event_timer_adapter_create_ext(conf, conf_cb, conf_arg);
}

static int
tp_rte_free(void *h)
{
	return rte_event_timer_adapter_free(h);
}

static int
tp_rte_start(void *h)
{
	return rte_event_timer_adapter_start(h);
}

static int
tp_rte_stop(void *h)
{
	return rte_event_timer_adapter_stop(h);
}

static int
tp_rte_service_id_get(void *h, uint32_t *service_id)
{
	return rte_event_timer_adapter_service_id_get(h, service_id);
}

static int
tp_rte_stats_get(void *h, struct rte_event_timer_adapter_stats *stats)
{
	return rte_event_timer_adapter_stats_get(h, stats);
}

static uint16_t
tp_rte_arm_burst(void *h, struct rte_event_timer **tims, uint16_t n)
{
	return rte_event_timer_arm_burst(h, tims, n);
}

static uint16_t
tp_rte_arm_tmo_tick_burst(void *h, struct rte_event_timer **tims,
			  uint64_t timeout_ticks, uint16_t n)
{
	return rte_event_timer_arm_tmo_tick_burst(h, tims, timeout_ticks, n);
}

static uint16_t
tp_rte_cancel_burst(void *h, struct rte_event_timer **tims, uint16_t n)
{
	return rte_event_timer_cancel_burst(h, tims, n);
}

static void *
tp_rte_lookup(uint16_t adapter_id)
{
	return rte_event_timer_adapter_lookup(adapter_id);
}

static int
tp_rte_get_info(void *h, struct rte_event_timer_adapter_info *info)
{
	return rte_event_timer_adapter_get_info(h, info);
}

static int
tp_rte_stats_reset(void *h)
{
	return rte_event_timer_adapter_stats_reset(h);
}

static int
tp_rte_remaining_ticks_get(void *h, const struct rte_event_timer *t,
			   uint64_t *ticks_remaining)
{
	return compat_rte_event_timer_remaining_ticks_get(h, t,
							  ticks_remaining);
}

const struct tp_adapter_ops tp_adapter_rte_ops = {
	.name = "rte",
	.create_ext = tp_rte_create_ext,
	.free = tp_rte_free,
	.start = tp_rte_start,
	.stop = tp_rte_stop,
	.service_id_get = tp_rte_service_id_get,
	.stats_get = tp_rte_stats_get,
	.arm_burst = tp_rte_arm_burst,
	.arm_tmo_tick_burst = tp_rte_arm_tmo_tick_burst,
	.cancel_burst = tp_rte_cancel_burst,
	.lookup = tp_rte_lookup,
	.get_info = tp_rte_get_info,
	.stats_reset = tp_rte_stats_reset,
	.remaining_ticks_get = tp_rte_remaining_ticks_get,
	.acct_get = NULL,
	.settle = NULL,
};
