/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_STATE_H_
#define _TA_STATE_H_

/*
 * The state machine of an rte_event_timer as the library drives it, and
 * the one place that writes the state (through common/dpdk_compat.h):
 *
 *   NOT_ARMED, CANCELED --arm------------> ARMED
 *   NOT_ARMED, CANCELED --arm rejected---> ERROR, ERROR_TOOEARLY,
 *                                          ERROR_TOOLATE
 *   ARMED ---------------cancel----------> CANCELED
 *   ARMED ---------------expiry----------> NOT_ARMED (a periodic timer
 *                                          stays ARMED)
 *   ARMED ---------------periodic re-arm
 *                        without memory--> ERROR
 *
 * Every write asserts (RTE_ASSERT: builds with RTE_ENABLE_ASSERT, i.e.
 * debug builds and -Ddebug_checks=true) that it is one of these moves.
 * Lock: the timer's list lock is held for the moves away from ARMED (the
 * canceller or the service owns the timer, see ta_node.h); the moves away
 * from NOT_ARMED and CANCELED are made by the arming thread, which owns
 * the timer until it is ARMED.
 */

#include <rte_debug.h>
#include <rte_event_timer_adapter.h>

#include "dpdk_compat.h"

/* Whether the library may move a timer from state from to state to. */
static inline int
ta_state_move_ok(enum rte_event_timer_state from,
		 enum rte_event_timer_state to)
{
	const int idle = from == RTE_EVENT_TIMER_NOT_ARMED ||
		from == RTE_EVENT_TIMER_CANCELED;

	switch (to) {
	case RTE_EVENT_TIMER_ARMED:
	case RTE_EVENT_TIMER_ERROR_TOOEARLY:
	case RTE_EVENT_TIMER_ERROR_TOOLATE:
		return idle;
	case RTE_EVENT_TIMER_ERROR:
		return idle || from == RTE_EVENT_TIMER_ARMED;
	case RTE_EVENT_TIMER_CANCELED:
	case RTE_EVENT_TIMER_NOT_ARMED:
		return from == RTE_EVENT_TIMER_ARMED;
	}
	return 0;
}

/* Assert that the move of a timer to state to is one of the above. */
static inline void
ta_state_check(const struct rte_event_timer *evtim,
	       enum rte_event_timer_state to)
{
	RTE_ASSERT(ta_state_move_ok(compat_timer_state_load(evtim,
							    COMPAT_RELAXED),
				    to));
	RTE_SET_USED(evtim);
	RTE_SET_USED(to);
}

/*
 * Move a timer to state to, with release order: what was written before
 * (the node, the event copy) is visible to whoever sees the new state.
 */
static inline void
ta_state_set(struct rte_event_timer *evtim, enum rte_event_timer_state to)
{
	ta_state_check(evtim, to);
	compat_timer_state_store(evtim, to, COMPAT_RELEASE);
}

/*
 * Mark a timer the arm call rejected with an error state (relaxed: the
 * arming thread owns the timer and publishes nothing with it).
 */
static inline void
ta_state_reject(struct rte_event_timer *evtim, enum rte_event_timer_state to)
{
	ta_state_check(evtim, to);
	compat_timer_state_store(evtim, to, COMPAT_RELAXED);
}

#endif /* _TA_STATE_H_ */
