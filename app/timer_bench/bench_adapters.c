/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Thin ops wrappers: ours (lib_timer_adapter) and DPDK's built-in software
 * adapter, created the same way (create_ext on a port the bench set up).
 */

#include <rte_event_timer_adapter.h>

#include "bench.h"
#include "timer_adapter.h"

static int
bench_port_cb(uint16_t id __rte_unused, uint8_t dev_id __rte_unused,
	      uint8_t *port, void *arg)
{
	*port = *(uint8_t *)arg;
	return 0;
}

/* Ours. */

static int
sk_create(struct bench_ctx *ctx, const struct rte_event_timer_adapter_conf *conf,
	  uint8_t port, struct rte_event_timer *base __rte_unused,
	  uint64_t nb __rte_unused, void **h)
{
	static uint8_t port_arg;

	RTE_SET_USED(ctx);
	port_arg = port;
	*h = timer_adapter_create_ext(conf, bench_port_cb, &port_arg);
	return *h == NULL ? -1 : 0;
}

static int sk_start(void *h) { return timer_adapter_start(h); }
static int sk_stop(void *h) { return timer_adapter_stop(h); }
static int sk_free(void *h) { return timer_adapter_free(h); }

static int
sk_service_id(void *h, uint32_t *id)
{
	return timer_adapter_service_id_get(h, id);
}

static uint16_t
sk_arm(void *h, struct rte_event_timer **t, uint16_t n)
{
	return timer_adapter_arm_burst(h, t, n);
}

static uint16_t
sk_arm_tmo(void *h, struct rte_event_timer **t, uint64_t tmo, uint16_t n)
{
	return timer_adapter_arm_tmo_tick_burst(h, t, tmo, n);
}

static uint16_t
sk_cancel(void *h, struct rte_event_timer **t, uint16_t n)
{
	return timer_adapter_cancel_burst(h, t, n);
}

static int
sk_stats(void *h, struct rte_event_timer_adapter_stats *s)
{
	return timer_adapter_stats_get(h, s);
}

static void sk_settle(void *h __rte_unused) { }

const struct bench_adapter_ops bench_direct_ops = {
	.name = "direct",
	.create = sk_create,
	.start = sk_start,
	.stop = sk_stop,
	.free = sk_free,
	.service_id = sk_service_id,
	.arm = sk_arm,
	.arm_tmo = sk_arm_tmo,
	.cancel = sk_cancel,
	.stats = sk_stats,
	.settle = sk_settle,
};

/* DPDK's. */

static int
rte_create(struct bench_ctx *ctx,
	   const struct rte_event_timer_adapter_conf *conf, uint8_t port,
	   struct rte_event_timer *base __rte_unused,
	   uint64_t nb __rte_unused, void **h)
{
	static uint8_t port_arg;

	RTE_SET_USED(ctx);
	port_arg = port;
	*h = rte_event_timer_adapter_create_ext(conf, bench_port_cb, &port_arg);
	return *h == NULL ? -1 : 0;
}

static int rte_start(void *h) { return rte_event_timer_adapter_start(h); }
static int rte_stop(void *h) { return rte_event_timer_adapter_stop(h); }
static int rte_free_(void *h) { return rte_event_timer_adapter_free(h); }

static int
rte_service_id(void *h, uint32_t *id)
{
	return rte_event_timer_adapter_service_id_get(h, id);
}

static uint16_t
rte_arm(void *h, struct rte_event_timer **t, uint16_t n)
{
	return rte_event_timer_arm_burst(h, t, n);
}

static uint16_t
rte_arm_tmo(void *h, struct rte_event_timer **t, uint64_t tmo, uint16_t n)
{
	return rte_event_timer_arm_tmo_tick_burst(h, t, tmo, n);
}

static uint16_t
rte_cancel(void *h, struct rte_event_timer **t, uint16_t n)
{
	return rte_event_timer_cancel_burst(h, t, n);
}

static int
rte_stats(void *h, struct rte_event_timer_adapter_stats *s)
{
	return rte_event_timer_adapter_stats_get(h, s);
}

static void rte_settle(void *h __rte_unused) { }

const struct bench_adapter_ops bench_rte_ops = {
	.name = "rte",
	.create = rte_create,
	.start = rte_start,
	.stop = rte_stop,
	.free = rte_free_,
	.service_id = rte_service_id,
	.arm = rte_arm,
	.arm_tmo = rte_arm_tmo,
	.cancel = rte_cancel,
	.stats = rte_stats,
	.settle = rte_settle,
};
