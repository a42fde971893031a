/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Arm and cancel, and the remaining time of a timer: the calling lcore
 * inserts into its own list directly.
 *
 * Lock: an arm call holds its lcore's list lock (ta_list.h) for the whole
 * burst; a cancel call holds the lock of each timer's list, one hold per
 * run of timers of one list. Everything below goes through ta_list.h, the
 * timer state through ta_state.h.
 */

#include <errno.h>
#include <stdbool.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "ta_private.h"
#include "ta_state.h"
#include "ta_time.h"

/* The list of the calling thread: its lcore's, or the non-EAL one. */
static inline struct ta_list *
ta_my_list(struct timer_adapter *adapter)
{
	unsigned int lcore = rte_lcore_id();

	if (unlikely(lcore >= RTE_MAX_LCORE))
		lcore = TA_LIST_NON_EAL;
	return &adapter->lists[lcore];
}

/*
 * Argument check of the burst calls, compiled in with TIMER_ADAPTER_DEBUG
 * only: the fast path trusts its caller (as DPDK's does).
 */
static inline int
ta_burst_args_bad(const struct timer_adapter *adapter,
		  struct rte_event_timer **evtims)
{
#ifdef TIMER_ADAPTER_DEBUG
	if (!ta_valid(adapter) || evtims == NULL) {
		rte_errno = EINVAL;
		return 1;
	}
#else
	RTE_SET_USED(adapter);
	RTE_SET_USED(evtims);
#endif
	return 0;
}

/*
 * Return of a burst call: how many elements were done, with rte_errno set
 * to the first failure's reason if the burst stopped early.
 */
static inline uint16_t
ta_burst_result(int err, uint16_t done)
{
	if (err != 0)
		rte_errno = err;
	return done;
}

/*
 * Whether an event may go to its queue with its schedule type. Queue
 * types are cached in the adapter (eventdev's attribute lookup is a call
 * and several checks per arm otherwise); the cache is dropped at start.
 */
static inline int
ta_sched_ok(struct timer_adapter *adapter, const struct rte_event *ev)
{
	uint8_t qs = __atomic_load_n(&adapter->qsched[ev->queue_id],
				     __ATOMIC_RELAXED);
	uint32_t sched;
	int ret;

	if (unlikely(qs == 0)) {
		ret = rte_event_queue_attr_get(adapter->conf.event_dev_id,
				ev->queue_id,
				RTE_EVENT_QUEUE_ATTR_SCHEDULE_TYPE, &sched);
		/* -EOVERFLOW: an ALL_TYPES queue, whose type is any. */
		if (ret == -EOVERFLOW)
			qs = TA_QS_ANY;
		else if (ret == 0)
			qs = TA_QS_KNOWN | (uint8_t)sched;
		else
			return 0;	/* No such queue: not cached. */
		__atomic_store_n(&adapter->qsched[ev->queue_id], qs,
				 __ATOMIC_RELAXED);
	}
	return qs == TA_QS_ANY || qs == (TA_QS_KNOWN | ev->sched_type);
}

/*
 * Validate one timer; returns 0 or the rte_errno to report. On a timeout
 * error the timer's state is set as DPDK does.
 */
static inline int
ta_arm_check(struct timer_adapter *adapter, struct rte_event_timer *evtim,
	     uint64_t *tmo_ns)
{
	enum rte_event_timer_state st =
		compat_timer_state_load(evtim, COMPAT_RELAXED);

	if (unlikely(st == RTE_EVENT_TIMER_ARMED))
		return EALREADY;
	if (unlikely(st != RTE_EVENT_TIMER_NOT_ARMED &&
		     st != RTE_EVENT_TIMER_CANCELED))
		return EINVAL;
	if (unlikely(!ta_sched_ok(adapter, &evtim->ev))) {
		ta_state_reject(evtim, RTE_EVENT_TIMER_ERROR);
		return EINVAL;
	}
	if (unlikely(evtim->timeout_ticks == 0)) {
		ta_state_reject(evtim, RTE_EVENT_TIMER_ERROR_TOOEARLY);
		return EINVAL;
	}
	*tmo_ns = ta_ticks_to_ns(evtim->timeout_ticks,
				 adapter->conf.timer_tick_ns);
	if (unlikely(*tmo_ns == 0 || *tmo_ns > adapter->conf.max_tmo_ns)) {
		ta_state_reject(evtim, RTE_EVENT_TIMER_ERROR_TOOLATE);
		return EINVAL;
	}
	return 0;
}

/*
 * Add a checked timer to the list (ta_list_add()) and mark it armed.
 * Returns 0 or ENOSPC.
 */
static inline int
ta_arm_one(struct timer_adapter *adapter, struct ta_list *list,
	   struct rte_event_timer *evtim, uint64_t deadline, uint64_t now_tick)
{
	struct ta_node *node;

	node = ta_list_add(list, ta_tick_ceil(&adapter->tick_div,
					      adapter->cyc_per_tick, deadline),
			   (uintptr_t)evtim, now_tick);
	if (unlikely(node == NULL))
		return ENOSPC;
	evtim->impl_opaque[0] = (uintptr_t)node;
	evtim->impl_opaque[1] = deadline;
	/* Publish the node before the state that lets cancel look at it. */
	ta_state_set(evtim, RTE_EVENT_TIMER_ARMED);
	return 0;
}

/*
 * Common arm loop of both arm calls, specialised on the clock: the TSC,
 * or (app_clock) the application's clock of TIMER_ADAPTER_F_CLOCK. The
 * TSC variant is the loop without any clock test.
 */
static __rte_always_inline uint16_t
ta_arm_body(const struct timer_adapter *cadapter,
	    struct rte_event_timer **evtims, uint16_t nb, const bool app_clock)
{
	struct timer_adapter *adapter = (struct timer_adapter *)(uintptr_t)cadapter;
	struct ta_list *list;
	uint64_t now, now_tick = 0, tmo_ns, tmo_cyc = 0, last_ns = 0;
	uint16_t i, granted;
	int err = 0;

	if (nb == 0)
		return 0;
	list = ta_my_list(adapter);
	if (unlikely(!list->used) && ta_list_use(adapter, list) < 0) {
		rte_errno = ENOSPC;
		return 0;
	}
	if (unlikely(ta_list_lock(adapter, list) < 0)) {
		/* A process died in a call on this lcore's list (see .h). */
		rte_errno = ENOSPC;
		return 0;
	}
	granted = ta_credits_get(adapter, list, nb);
	now = app_clock ? ta_now(adapter) : rte_get_timer_cycles();
	/* Only a list with an empty far ring needs the current tick. */
	if (unlikely(ta_list_wants_now(list)))
		now_tick = rte_reciprocal_divide_u64(now, &adapter->tick_div);
	for (i = 0; i < nb; i++) {
		struct rte_event_timer *evtim = evtims[i];

		err = ta_arm_check(adapter, evtim, &tmo_ns);
		if (unlikely(err != 0))
			break;
		if (unlikely(i >= granted)) {
			err = ENOSPC;
			break;
		}
		/* Runs of equal timeouts convert once. */
		if (tmo_ns != last_ns) {
			tmo_cyc = ns_to_cycles(tmo_ns, adapter->hz);
			last_ns = tmo_ns;
		}
		err = ta_arm_one(adapter, list, evtim, now + tmo_cyc,
				 now_tick);
		if (unlikely(err != 0))
			break;
	}
	ta_list_armed(list, i);
	ta_list_unlock(list);
	return ta_burst_result(err, i);
}

static __rte_noinline uint16_t
ta_arm_app_clock(const struct timer_adapter *adapter,
		 struct rte_event_timer **evtims, uint16_t nb)
{
	return ta_arm_body(adapter, evtims, nb, true);
}

/* One test per burst picks the loop (the TSC one inline). */
static __rte_always_inline uint16_t
ta_arm(const struct timer_adapter *adapter, struct rte_event_timer **evtims,
       uint16_t nb)
{
	if (ta_burst_args_bad(adapter, evtims))
		return 0;
	if (unlikely(adapter->clock_mode))
		return ta_arm_app_clock(adapter, evtims, nb);
	return ta_arm_body(adapter, evtims, nb, false);
}

uint16_t
timer_adapter_arm_burst(const struct timer_adapter *adapter,
			struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	return ta_arm(adapter, evtims, nb_evtims);
}

uint16_t
timer_adapter_arm_tmo_tick_burst(const struct timer_adapter *adapter,
				 struct rte_event_timer **evtims,
				 uint64_t timeout_ticks, uint16_t nb_evtims)
{
	uint16_t i;

	/*
	 * Every element gets the timeout, also those after a failing one (as
	 * DPDK does); the arm loop then converts it once for the whole burst.
	 */
	for (i = 0; i < nb_evtims; i++)
		evtims[i]->timeout_ticks = timeout_ticks;
	return ta_arm(adapter, evtims, nb_evtims);
}

/* Reason a cancel cannot proceed, from the timer's state. */
static inline int
ta_cancel_state_err(const struct rte_event_timer *evtim)
{
	enum rte_event_timer_state st =
		compat_timer_state_load(evtim, COMPAT_ACQUIRE);

	if (st == RTE_EVENT_TIMER_CANCELED)
		return EALREADY;
	if (st != RTE_EVENT_TIMER_ARMED)
		return EINVAL;
	return 0;
}

/*
 * Cancel one armed timer whose list lock is held. Returns 0 or the
 * rte_errno to report.
 */
static inline int
ta_cancel_one(struct timer_adapter *adapter, struct ta_list *list,
	      struct rte_event_timer *evtim, struct ta_node *node)
{
	int err;

	if (node->evtim != (uintptr_t)evtim) {
		/*
		 * The service settled it first (its event is built) and the
		 * node may already serve another timer. Report what the
		 * state says once it settles; while it still says ARMED,
		 * that is EAGAIN.
		 */
		err = ta_cancel_state_err(evtim);
		return err != 0 ? err : EAGAIN;
	}
	ta_list_cancel(adapter, list, node);
	ta_state_set(evtim, RTE_EVENT_TIMER_CANCELED);
	return 0;
}

uint16_t
timer_adapter_cancel_burst(const struct timer_adapter *cadapter,
			   struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	struct timer_adapter *adapter = (struct timer_adapter *)(uintptr_t)cadapter;
	struct ta_list *locked = NULL;
	uint16_t i;
	int err = 0;

	if (ta_burst_args_bad(adapter, evtims))
		return 0;
	for (i = 0; i < nb_evtims; i++) {
		struct rte_event_timer *evtim = evtims[i];
		struct ta_node *node;
		struct ta_list *list;

		err = ta_cancel_state_err(evtim);
		if (unlikely(err != 0))
			break;
		node = (struct ta_node *)(uintptr_t)evtim->impl_opaque[0];
		list = &adapter->lists[node->owner];
		/* Consecutive timers of one list share one lock hold. */
		if (list != locked) {
			if (locked != NULL)
				ta_list_unlock(locked);
			locked = NULL;
			if (unlikely(ta_list_lock(adapter, list) < 0)) {
				/* Its timers can no longer be cancelled. */
				err = EINVAL;
				break;
			}
			locked = list;
		}
		err = ta_cancel_one(adapter, list, evtim, node);
		if (unlikely(err != 0))
			break;
	}
	if (locked != NULL)
		ta_list_unlock(locked);
	return ta_burst_result(err, i);
}

int
timer_adapter_remaining_ticks_get(const struct timer_adapter *adapter,
				  const struct rte_event_timer *evtim,
				  uint64_t *ticks_remaining)
{
	uint64_t now, deadline, ns;

	if (!ta_valid(adapter) || evtim == NULL || ticks_remaining == NULL)
		return -EINVAL;
	if (compat_timer_state_load(evtim, COMPAT_ACQUIRE) !=
	    RTE_EVENT_TIMER_ARMED)
		return -EINVAL;
	deadline = evtim->impl_opaque[1];
	now = ta_now(adapter);
	if (now >= deadline) {
		*ticks_remaining = 0;
		return 0;
	}
	ns = cycles_to_ns(deadline - now, adapter->hz);
	*ticks_remaining = (ns + adapter->conf.timer_tick_ns - 1) /
		adapter->conf.timer_tick_ns;
	return 0;
}
