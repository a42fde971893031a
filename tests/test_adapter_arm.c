/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", arming: already armed, error states, bad timeouts and
 * destinations, partial bursts, an exhausted pool, tick bursts.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_random.h>
#include <rte_service.h>

#include "test_adapter.h"

/*
 * Arm.
 */

TA_CASE(test_arm_already_armed)
{
	struct rte_event_timer *t = timers(1);
	struct rte_event_timer *p[2];
	struct timer_adapter *a;

	TP_ASSERT(t != NULL, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(arm1(a, t, 100), 1, "arm");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ARMED, "state");
	rte_errno = 0;
	TP_ASSERT_EQ(arm1(a, t, 100), 0, "arm twice");
	TP_ASSERT_EQ(rte_errno, EALREADY, "arm twice");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ARMED, "state changed");
	TP_ASSERT_EQ(cancel1(a, t), 1, "cancel");

	/* The same timer twice in one burst: the first arms it. */
	p[0] = t;
	p[1] = t;
	rte_errno = 0;
	TP_ASSERT_EQ(timer_adapter_arm_burst(a, p, 2), 1, "burst {t,t}");
	TP_ASSERT_EQ(rte_errno, EALREADY, "burst {t,t}");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ARMED, "state");
	TP_ASSERT_EQ(cancel1(a, t), 1, "cancel");
	TP_ASSERT_EQ(tc_quiesce(150), 0, "cancelled timer fired");
	return TP_TEST_OK;
}

TA_CASE(test_arm_error_states)
{
	static const int bad[] = {
		RTE_EVENT_TIMER_ERROR,
		RTE_EVENT_TIMER_ERROR_TOOEARLY,
		RTE_EVENT_TIMER_ERROR_TOOLATE,
	};
	struct rte_event_timer *t = timers(1);
	struct timer_adapter *a;
	unsigned int i;

	TP_ASSERT(t != NULL, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < RTE_DIM(bad); i++) {
		t->state = bad[i];
		rte_errno = 0;
		TP_ASSERT_EQ(arm1(a, t, 10), 0, "state %d armed", bad[i]);
		TP_ASSERT_EQ(rte_errno, EINVAL, "state %d", bad[i]);
		TP_ASSERT_EQ(state(t), bad[i], "state changed");
	}
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
	TP_ASSERT_EQ(arm1(a, t, 10), 1, "arm after reset");
	TP_ASSERT_EQ(cancel1(a, t), 1, "cancel");
	return TP_TEST_OK;
}

TA_CASE(test_arm_bad_timeouts)
{
	struct rte_event_timer *t = timers(2);
	/* The smallest tick count whose product wraps to [tick, 2 tick). */
	const uint64_t wrap = UINT64_MAX / TICK_10MS + 2;
	struct timer_adapter *a;

	TP_ASSERT(t != NULL, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");

	rte_errno = 0;
	TP_ASSERT_EQ(arm1(a, t, 0), 0, "0 ticks armed");
	TP_ASSERT_EQ(rte_errno, EINVAL, "0 ticks");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ERROR_TOOEARLY, "0 ticks");
	/* The shared 0 replaces the timer's own timeout, then fails. */
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
	t->timeout_ticks = 5;
	rte_errno = 0;
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, &t, 0, 1), 0,
		     "0 ticks armed (tmo_tick)");
	TP_ASSERT_EQ(rte_errno, EINVAL, "0 ticks (tmo_tick)");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ERROR_TOOEARLY, "tmo_tick");
	TP_ASSERT_EQ(t->timeout_ticks, 0, "timeout_ticks not written");

	/* 180 s / 10 ms = 18000 ticks is the largest timeout allowed. */
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
	rte_errno = 0;
	TP_ASSERT_EQ(arm1(a, t, 18001), 0, "beyond max_tmo armed");
	TP_ASSERT_EQ(rte_errno, EINVAL, "beyond max_tmo");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ERROR_TOOLATE, "too late");
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
	TP_ASSERT_EQ(arm1(a, t, 18000), 1, "max_tmo exactly");
	TP_ASSERT_EQ(cancel1(a, t), 1, "cancel");

	t[1].state = RTE_EVENT_TIMER_NOT_ARMED;
	rte_errno = 0;
	TP_ASSERT_EQ(arm1(a, &t[1], UINT64_MAX), 0, "UINT64_MAX armed");
	TP_ASSERT_EQ(rte_errno, EINVAL, "UINT64_MAX");
	TP_ASSERT_EQ(state(&t[1]), RTE_EVENT_TIMER_ERROR_TOOLATE, "UINT64_MAX");
	/* DPDK wraps this one to ~1 tick and arms it (deliberate fix). */
	t[1].state = RTE_EVENT_TIMER_NOT_ARMED;
	rte_errno = 0;
	TP_ASSERT_EQ(arm1(a, &t[1], wrap), 0, "wrapping timeout armed");
	TP_ASSERT_EQ(rte_errno, EINVAL, "wrapping timeout");
	TP_ASSERT_EQ(state(&t[1]), RTE_EVENT_TIMER_ERROR_TOOLATE, "wrap");
	TP_ASSERT_EQ(tc_quiesce(100), 0, "an event from a refused timer");
	return TP_TEST_OK;
}

TA_CASE(test_arm_bad_destination)
{
	struct rte_event_timer *t = timers(1);
	struct timer_adapter *a;
	struct rte_event ev;
	unsigned int n = 0;
	uint64_t end;

	TP_ASSERT(t != NULL, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");

#define ARM_ERROR(q, st, ticks, what) do {				\
	tc_timer_init(t, TC_QUEUE_ATOMIC);				\
	t->ev.queue_id = (q);						\
	t->ev.sched_type = (st);					\
	rte_errno = 0;							\
	TP_ASSERT_EQ(arm1(a, t, ticks), 0, what " armed");		\
	TP_ASSERT_EQ(rte_errno, EINVAL, what);				\
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ERROR, what);		\
} while (0)
	ARM_ERROR(TC_QUEUE_ATOMIC, RTE_SCHED_TYPE_PARALLEL, 10,
		  "PARALLEL on ATOMIC queue");
	ARM_ERROR(TC_QUEUE_ATOMIC, RTE_SCHED_TYPE_ORDERED, 10,
		  "ORDERED on ATOMIC queue");
	ARM_ERROR(TC_QUEUE_PARALLEL, RTE_SCHED_TYPE_ATOMIC, 10,
		  "ATOMIC on PARALLEL queue");
	ARM_ERROR(TC_NB_QUEUES, RTE_SCHED_TYPE_ATOMIC, 10, "queue 2");
	ARM_ERROR(255, RTE_SCHED_TYPE_ATOMIC, 10, "queue 255");
	/* The destination is checked before the timeout. */
	ARM_ERROR(TC_NB_QUEUES, RTE_SCHED_TYPE_ATOMIC, 0, "queue 2, 0 ticks");
	ARM_ERROR(TC_QUEUE_ATOMIC, RTE_SCHED_TYPE_PARALLEL, UINT64_MAX,
		  "bad sched type, too late");
#undef ARM_ERROR

	/* The matching PARALLEL queue works and the event keeps its queue. */
	tc_timer_init(t, TC_QUEUE_PARALLEL);
	TP_ASSERT_EQ(arm1(a, t, 2), 1, "PARALLEL queue");
	end = rte_get_timer_cycles() + ms_to_cyc(1000);
	while (n == 0 && rte_get_timer_cycles() < end)
		n = rte_event_dequeue_burst(tc_env.evdev, TC_TEST_PORT, &ev,
					    1, 0);
	TP_ASSERT_EQ(n, 1, "no event from the PARALLEL queue");
	TP_ASSERT(ev.event_ptr == t, "event_ptr");
	TP_ASSERT_EQ(ev.queue_id, TC_QUEUE_PARALLEL, "queue");
	TP_ASSERT_EQ(ev.sched_type, RTE_SCHED_TYPE_PARALLEL, "sched type");
	return TP_TEST_OK;
}

TA_CASE(test_arm_burst_partial)
{
	struct rte_event_timer *t = timers(8);
	struct rte_event_timer **p = ptrs(t, 8);
	struct timer_adapter *a;
	unsigned int i;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < 8; i++)
		t[i].timeout_ticks = i == 4 ? 0 : 100;
	rte_errno = 0;
	TP_ASSERT_EQ(timer_adapter_arm_burst(a, p, 8), 4, "burst");
	TP_ASSERT_EQ(rte_errno, EINVAL, "burst");
	for (i = 0; i < 8; i++)
		TP_ASSERT_EQ(state(&t[i]), i < 4 ? RTE_EVENT_TIMER_ARMED :
			     i == 4 ? RTE_EVENT_TIMER_ERROR_TOOEARLY :
			     RTE_EVENT_TIMER_NOT_ARMED, "timer %u", i);

	/* Full success leaves rte_errno alone. */
	rte_errno = 12345;
	TP_ASSERT_EQ(timer_adapter_arm_burst(a, &p[5], 3), 3, "tail");
	TP_ASSERT_EQ(rte_errno, 12345, "rte_errno changed on success");

	/* Cancel {0, 1, 4(ERROR), 5}: stops at 4. */
	{
		struct rte_event_timer *q[4] = { p[0], p[1], p[4], p[5] };

		rte_errno = 0;
		TP_ASSERT_EQ(timer_adapter_cancel_burst(a, q, 4), 2, "cancel");
		TP_ASSERT_EQ(rte_errno, EINVAL, "cancel of an errored timer");
	}
	TP_ASSERT_EQ(state(&t[0]), RTE_EVENT_TIMER_CANCELED, "t0");
	TP_ASSERT_EQ(state(&t[1]), RTE_EVENT_TIMER_CANCELED, "t1");
	TP_ASSERT_EQ(state(&t[4]), RTE_EVENT_TIMER_ERROR_TOOEARLY, "t4");
	TP_ASSERT_EQ(state(&t[5]), RTE_EVENT_TIMER_ARMED, "t5");
	rte_errno = 12345;
	TP_ASSERT_EQ(timer_adapter_cancel_burst(a, &p[5], 3), 3, "cancel");
	TP_ASSERT_EQ(rte_errno, 12345, "rte_errno changed on success");
	TP_ASSERT_EQ(timer_adapter_cancel_burst(a, &p[2], 2), 2, "cancel");
	TP_ASSERT_EQ(tc_quiesce(100), 0, "event from a cancelled timer");
	return TP_TEST_OK;
}

TA_CASE(test_arm_pool_exhausted)
{
	const unsigned int nb = 64, max = 4096;
	struct rte_event_timer *t = timers(max);
	struct rte_event_timer **p = ptrs(t, max);
	uint8_t *want = at_track(rte_zmalloc("want", max, 0));
	struct rte_event_timer_adapter_stats s;
	struct timer_adapter_accounting ac;
	unsigned int i, armed, k, bad;
	int err;
	struct timer_adapter *a;
	struct tc_evcount ec;

	TP_ASSERT(t != NULL && p != NULL && want != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, max, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, nb, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < max; i++)
		t[i].timeout_ticks = 30;
	for (armed = 0; armed < max; armed++) {
		rte_errno = 0;
		if (arm1(a, &t[armed], 30) != 1)
			break;
	}
	printf("    nb_timers %u: %u armed before ENOSPC\n", nb, armed);
	TP_ASSERT(armed >= nb, "only %u of nb_timers %u armed", armed, nb);
	TP_ASSERT(armed < max, "no limit: %u armed", armed);
	TP_ASSERT_EQ(rte_errno, ENOSPC, "errno when full");
	TP_ASSERT_EQ(state(&t[armed]), RTE_EVENT_TIMER_NOT_ARMED, "failed");
	rte_errno = 0;
	TP_ASSERT_EQ(timer_adapter_arm_burst(a, &p[armed], 4), 0, "full");
	TP_ASSERT_EQ(rte_errno, ENOSPC, "full burst");

	/* Three nodes free: a burst of 8 arms those (short count). */
	TP_ASSERT_EQ(timer_adapter_cancel_burst(a, &p[armed - 3], 3), 3,
		     "cancel 3");
	tc_sleep_us(50 * 1000);
	rte_errno = 0;
	k = timer_adapter_arm_burst(a, &p[armed], 8);
	err = rte_errno;
	TP_ASSERT_EQ(acct(a, &ac), 0, "accounting");
	/* With an exact pool (armed == nb) exactly the 3 freed ones. */
	TP_ASSERT(k >= 3 && k < 8 && (armed > nb || k == 3),
		  "burst of 8 with 3 free armed %u (%s); pending %" PRIu64
		  ", nodes %" PRIu64, k, tc_errno_name(err), ac.pending,
		  ac.nodes);
	rte_errno = err;
	TP_ASSERT_EQ(rte_errno, ENOSPC, "short burst");
	for (i = 0; i < 8; i++)
		TP_ASSERT_EQ(state(p[armed + i]), i < k ?
			     RTE_EVENT_TIMER_ARMED : RTE_EVENT_TIMER_NOT_ARMED,
			     "burst element %u", i);

	/* Everything armed, and only that, expires exactly once. */
	for (i = 0; i < max; i++)
		want[i] = i < armed - 3 || (i >= armed && i < armed + k);
	tc_collect(&ec, armed - 3 + k, 5000, 100);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, want, &bad), 0,
		     "timer %u: %u events, want %u", bad,
		     bad < max ? ec.count[bad] : 0, bad < max ? want[bad] : 0);
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	TP_ASSERT_EQ(s.evtim_exp_count, armed + k - 3, "evtim_exp_count");

	/* The nodes come back: the pool can be filled again. */
	tc_sleep_us(50 * 1000);
	for (i = 0; i < nb; i++)
		tc_timer_init(&t[i], TC_QUEUE_ATOMIC);
	k = timer_adapter_arm_tmo_tick_burst(a, p, 1000, nb);
	TP_ASSERT_EQ(k, nb, "refill: %s", tc_errno_name(rte_errno));
	TP_ASSERT_EQ(timer_adapter_cancel_burst(a, p, nb), nb, "cancel");
	return TP_TEST_OK;
}

TA_CASE(test_arm_tmo_tick_burst)
{
	struct rte_event_timer *t = timers(24);
	struct rte_event_timer **p = ptrs(t, 24);
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i, bad;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, 16, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < 24; i++)
		t[i].timeout_ticks = 999999 + i;
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, p, 5, 16), 16, "arm");
	for (i = 0; i < 16; i++) {
		TP_ASSERT_EQ(t[i].timeout_ticks, 5, "timer %u", i);
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_ARMED, "%u", i);
	}
	tc_collect(&ec, 16, 2000, 100);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0, "timer %u", bad);

	/* A failing element: every timeout_ticks is still written. */
	TP_ASSERT_EQ(arm1(a, &t[19], 500), 1, "arm t19");
	rte_errno = 0;
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, &p[16], 7, 8), 3,
		     "burst with an armed element");
	TP_ASSERT_EQ(rte_errno, EALREADY, "armed element");
	for (i = 16; i < 24; i++)
		TP_ASSERT_EQ(t[i].timeout_ticks, 7, "timeout_ticks of %u", i);
	for (i = 20; i < 24; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_NOT_ARMED, "%u", i);
	TP_ASSERT_EQ(timer_adapter_cancel_burst(a, &p[16], 4), 4, "cancel");
	return TP_TEST_OK;
}

static const struct tp_test_case arm_cases[] = {
	{ "arm_already_armed", test_arm_already_armed },
	{ "arm_error_states", test_arm_error_states },
	{ "arm_bad_timeouts", test_arm_bad_timeouts },
	{ "arm_bad_destination", test_arm_bad_destination },
	{ "arm_burst_partial", test_arm_burst_partial },
	{ "arm_pool_exhausted", test_arm_pool_exhausted },
	{ "arm_tmo_tick_burst", test_arm_tmo_tick_burst },
};

const struct tp_test_table at_arm_cases = TP_TEST_TABLE(arm_cases);
