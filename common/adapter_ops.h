/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _ADAPTER_OPS_H_
#define _ADAPTER_OPS_H_

/**
 * @file
 * One ops table over the two event timer adapters: ours (lib_timer_adapter,
 * "direct") and DPDK's software rte_event_timer_adapter ("rte"). The
 * example, the benchmark and the differential test all drive an adapter
 * through it, so the same code runs against both.
 *
 * Every op passes its arguments and return value through unchanged (a NULL
 * handle included), so a caller sees exactly what the adapter's own call
 * returns, rte_errno included: the differential test depends on that.
 * The handle is the adapter's own (struct timer_adapter * or
 * struct rte_event_timer_adapter *) as a void pointer.
 *
 * Optional ops are NULL where an implementation lacks them; the bench's
 * third design ("ring", app/timer_bench/bench_ring.c) plugs in through the
 * same table.
 */

#include <stdint.h>

#include <rte_event_timer_adapter.h>

#include "timer_adapter.h"

/* The adapter ops table. 8< */
struct tp_adapter_ops {
	const char *name;	/**< "direct", "rte" (or the bench's "ring"). */
	/** NULL with rte_errno set on failure, as both create_ext calls. */
	void *(*create_ext)(const struct rte_event_timer_adapter_conf *conf,
			    rte_event_timer_adapter_port_conf_cb_t conf_cb,
			    void *conf_arg);
	int (*free)(void *h);
	int (*start)(void *h);
	int (*stop)(void *h);
	int (*service_id_get)(void *h, uint32_t *service_id);
	int (*stats_get)(void *h, struct rte_event_timer_adapter_stats *stats);
	uint16_t (*arm_burst)(void *h, struct rte_event_timer **tims,
			      uint16_t n);
	uint16_t (*arm_tmo_tick_burst)(void *h, struct rte_event_timer **tims,
				       uint64_t timeout_ticks, uint16_t n);
	uint16_t (*cancel_burst)(void *h, struct rte_event_timer **tims,
				 uint16_t n);
	/* Optional from here on (NULL: not offered). */
	void *(*lookup)(uint16_t adapter_id);
	int (*get_info)(void *h, struct rte_event_timer_adapter_info *info);
	int (*stats_reset)(void *h);
	/** -ENOTSUP where the implementation has none (DPDK before 23.03). */
	int (*remaining_ticks_get)(void *h, const struct rte_event_timer *t,
				   uint64_t *ticks_remaining);
	/** Exactly-once accounting (ours only). */
	int (*acct_get)(void *h, struct timer_adapter_accounting *acct);
	/**
	 * Wait until arms and cancels handed to the service have been
	 * applied (the bench's ring design only: the others apply them in
	 * the caller's call).
	 */
	void (*settle)(void *h);
};
/* >8 End of the adapter ops table. */

/** An adapter instance: its ops and the implementation's handle. */
struct tp_adapter {
	const struct tp_adapter_ops *ops;	/**< Implementation. */
	void *h;				/**< Handle, NULL if none. */
};

/** lib_timer_adapter (timer_adapter_*): wrappers tp_direct_*. */
extern const struct tp_adapter_ops tp_adapter_direct_ops;
/** DPDK's software adapter (rte_event_timer_*): wrappers tp_rte_*. */
extern const struct tp_adapter_ops tp_adapter_rte_ops;

#endif /* _ADAPTER_OPS_H_ */
