/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_ADAPTER_H_
#define _TP_ADAPTER_H_

/*
 * One small ops table hides which event timer adapter runs the flow timers:
 * lib_timer_adapter (tp_adapter_direct.c) or DPDK's
 * rte_event_timer_adapter (tp_adapter_rte.c). Both take the same
 * rte_event_timer structures and return the same values, so the pipeline
 * code is identical for both.
 */

#include <stdint.h>

#include <rte_event_timer_adapter.h>

#include "tp_config.h"

struct timer_adapter;
struct tp_adapter;

/** Exactly-once accounting, where the adapter offers it. */
struct tp_adapter_acct {
	uint64_t armed;		/**< Timers armed. */
	uint64_t expired;	/**< Timers expired (event built). */
	uint64_t cancelled;	/**< Timers cancelled. */
	uint64_t pending;	/**< Timers armed now. */
};

/* The adapter ops table. 8< */
struct tp_adapter_ops {
	const char *name;
	int (*create_ext)(struct tp_adapter *ta,
			  const struct rte_event_timer_adapter_conf *conf,
			  rte_event_timer_adapter_port_conf_cb_t conf_cb,
			  void *conf_arg);
	int (*start)(struct tp_adapter *ta);
	int (*stop)(struct tp_adapter *ta);
	int (*free)(struct tp_adapter *ta);
	int (*service_id_get)(struct tp_adapter *ta, uint32_t *service_id);
	uint16_t (*arm_tmo_tick_burst)(struct tp_adapter *ta,
				       struct rte_event_timer **tims,
				       uint64_t timeout_ticks, uint16_t n);
	uint16_t (*arm_burst)(struct tp_adapter *ta,
			      struct rte_event_timer **tims, uint16_t n);
	uint16_t (*cancel_burst)(struct tp_adapter *ta,
				 struct rte_event_timer **tims, uint16_t n);
	int (*stats_get)(struct tp_adapter *ta,
			 struct rte_event_timer_adapter_stats *stats);
	/** Optional (NULL: the adapter keeps no such accounting). */
	int (*acct_get)(struct tp_adapter *ta, struct tp_adapter_acct *acct);
};
/* >8 End of the adapter ops table. */

/** An adapter instance: its ops and the implementation's handle. */
struct tp_adapter {
	const struct tp_adapter_ops *ops;	/**< Implementation. */
	union {
		struct rte_event_timer_adapter *rte; /**< DPDK's. */
		struct timer_adapter *direct;	/**< lib_timer_adapter's. */
	} h;					/**< Handle, NULL until created. */
};

extern const struct tp_adapter_ops tp_adapter_rte_ops;
extern const struct tp_adapter_ops tp_adapter_direct_ops;

static inline const struct tp_adapter_ops *
tp_adapter_ops_get(enum tp_adapter_kind kind)
{
	return kind == TP_ADAPTER_RTE ? &tp_adapter_rte_ops :
		&tp_adapter_direct_ops;
}

#endif /* _TP_ADAPTER_H_ */
