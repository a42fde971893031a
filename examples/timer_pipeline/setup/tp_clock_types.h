/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CLOCK_TYPES_H_
#define _TP_CLOCK_TYPES_H_

/*
 * --clock capture's state (tp_clock.h has the functions and how the clock
 * moves): ctx->clk. Written before the launch by tp_clock_init(); then
 * now, settled and base are atomics moved by whichever RX lcore holds
 * lock (a try-lock), the step counters and the services taken are under
 * lock, and the rest is read-only.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "datapath/tp_lcore_types.h"

/** --clock capture: the flows' clock (ctx->clk). */
struct tp_clock {
	bool on;			/**< --clock capture. */
	rte_spinlock_t lock;		/**< Held by the lcore moving it. */
	uint64_t now;			/**< The adapter's clock (atomic). */
	/** Every timer due at or before it has been handled (atomic). */
	uint64_t settled;
	uint64_t base;			/**< The first time set (atomic). */
	bool fire_pending;		/**< Moved to a timer's tick. */
	uint64_t steps;			/**< Moves of the clock (under lock). */
	uint64_t fire_steps;		/**< Moves to a timer's tick. */
	uint32_t adapter_service_id;	/**< The adapter's expiry service. */
	/** The services the clock runs itself (tp_clock.c): their ids, the
	 * service lcore each was mapped to, how many, and whether they are
	 * taken (under lock).
	 */
	uint32_t own_id[2];
	uint32_t own_lcore[2];
	unsigned int nb_own;
	bool own_taken;
	/** A service lcore left with no service, stopped meanwhile. */
	int32_t parked_lcore;
	unsigned int nb_q;		/**< RX queues of every RX lcore. */
	struct tp_rxq *q[RTE_MAX_LCORE * TP_MAX_RXQ_PER_LCORE]; /**< Them. */
	unsigned int nb_lc;		/**< RX and worker lcores. */
	struct tp_lcore *lc[RTE_MAX_LCORE]; /**< Them. */
};

#endif /* _TP_CLOCK_TYPES_H_ */
