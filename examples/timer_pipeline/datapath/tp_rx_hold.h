/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RX_HOLD_H_
#define _TP_RX_HOLD_H_

/*
 * RX held back on the inline packet path, wall clock (ctx->rx_hold, set
 * up by tp_lcore.c). No packet crosses the event device there, so nothing
 * in it slows RX down when flows are created faster than they end. A
 * worker that handles an expiry more than 'late' after its deadline
 * (tp_flow_expired()) moves 'until' to 'hold' on; RX polls no port
 * before it (tp_lcore.c). 'late' is 0 where RX is never held. The workers
 * write 'until' and RX lcores read it, relaxed, no lock; times are the
 * flows' clock (the timer cycles on the wall clock).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

struct tp_rx_hold {
	uint64_t late;		/**< Lateness that holds RX (0: never). */
	uint64_t hold;		/**< For how long. */
	uint64_t until;		/**< RX admits no packet before. */
};

/*
 * Worker: an expiry due at 'deadline' handled at 'now'. Late: hold RX
 * back. 'until' moves in steps of half a hold, so that the workers rarely
 * write the line RX reads.
 */
static __rte_always_inline void
tp_rx_hold_expiry(struct tp_rx_hold *h, uint64_t now, uint64_t deadline)
{
	uint64_t until;

	if (likely(h->late == 0 || now <= deadline + h->late))
		return;
	until = now + h->hold;
	if (until >= __atomic_load_n(&h->until, __ATOMIC_RELAXED) + h->hold / 2)
		__atomic_store_n(&h->until, until, __ATOMIC_RELAXED);
}

/* RX: whether it is held back at 'now' ('until' stays 0 if late is). */
static __rte_always_inline bool
tp_rx_hold_on(const struct tp_rx_hold *h, uint64_t now)
{
	return now < __atomic_load_n(&h->until, __ATOMIC_RELAXED);
}

#endif /* _TP_RX_HOLD_H_ */
