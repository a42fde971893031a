/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", periodic timers: firing counts, the tick phase, the
 * remaining ticks.
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
 * Cancel n armed periodic timers in bursts. EAGAIN: the service is firing
 * that timer right now; it stays ARMED and the cancel is retried
 * (timer_adapter.h).
 */
static int
periodic_cancel_all(struct timer_adapter *a, struct rte_event_timer **p,
		    unsigned int n)
{
	unsigned int i, eagain = 0;

	for (i = 0; i < n; ) {
		unsigned int want = RTE_MIN(64u, n - i);
		unsigned int got = timer_adapter_cancel_burst(a, &p[i], want);

		i += got;
		if (got == want)
			continue;
		TP_ASSERT(rte_errno == EAGAIN, "cancel at %u: %s", i,
			  tc_errno_name(rte_errno));
		TP_ASSERT(++eagain < 100000, "cancel at %u: EAGAIN forever", i);
	}
	if (eagain != 0)
		printf("    %u cancels retried after EAGAIN\n", eagain);
	return TP_TEST_OK;
}

/*
 * After cancelling all n periodic timers: events already in the device
 * may still come, then none; counters and accounting agree with what was
 * received.
 */
static int
periodic_check_after_cancel(struct timer_adapter *a, struct tc_evcount *ec,
			    unsigned int n)
{
	struct rte_event_timer_adapter_stats s;
	struct timer_adapter_accounting ac;
	uint64_t grace, after;

	grace = ec->total;
	tc_collect(ec, 0, 300, 300);
	grace = ec->total - grace;
	after = ec->total;
	tc_collect(ec, 0, 500, 500);
	TP_ASSERT_EQ(ec->total - after, 0, "events after cancel + grace");
	TP_ASSERT(grace <= n, "%" PRIu64 " events in the grace period", grace);

	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	TP_ASSERT_EQ(s.ev_enq_count, ec->total, "ev_enq_count");
	TP_ASSERT_EQ(s.evtim_exp_count, ec->total, "evtim_exp_count");
	TP_ASSERT_EQ(s.ev_inv_count, 0, "ev_inv_count");
	TP_ASSERT_EQ(acct(a, &ac), 0, "accounting");
	TP_ASSERT_EQ(ac.armed, n, "armed");
	TP_ASSERT_EQ(ac.cancelled, n, "cancelled");
	TP_ASSERT_EQ(ac.expired, 0, "periodic firings counted as expired");
	TP_ASSERT_EQ(ac.pending, 0, "pending");
	return TP_TEST_OK;
}

/*
 * Start of the periodic cases: n timers (*t), pointers to them (*p), their
 * event counts and a started adapter of 100 ms ticks for periodic timers.
 */
static int
periodic_start(unsigned int n, struct rte_event_timer **t,
	       struct rte_event_timer ***p, struct tc_evcount *ec,
	       struct timer_adapter **a)
{
	*t = timers(n);
	*p = *t == NULL ? NULL : ptrs(*t, n);
	TP_ASSERT(*t != NULL && *p != NULL, "alloc");
	TP_ASSERT(evcount(ec, *t, n, false) == 0, "alloc");
	*a = start_adapter(TICK_100MS, MAX_TMO_180S, NB_TIMERS,
			   RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	TP_ASSERT(*a != NULL, "start");
	return TP_TEST_OK;
}

TA_CASE(test_periodic)
{
	const unsigned int n = 4096;
	struct rte_event_timer_adapter_stats s;
	uint64_t end, window_total, rem;
	unsigned int i, lo = UINT32_MAX, hi = 0;
	struct rte_event_timer *t, **p;
	struct timer_adapter *a;
	struct tc_evcount ec;

	TP_ASSERT(periodic_start(n, &t, &p, &ec, &a) == TP_TEST_OK, "set-up");
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, p, 1, n), n, "arm");
	end = rte_get_timer_cycles() + rte_get_timer_hz();
	while (rte_get_timer_cycles() < end)
		if (tc_dequeue(&ec, 32) == 0)
			tc_sleep_us(20);
	window_total = ec.total;
	for (i = 0; i < n; i++) {
		lo = RTE_MIN(lo, ec.count[i]);
		hi = RTE_MAX(hi, ec.count[i]);
	}
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	printf("    1 s of 100 ms periods: %" PRIu64 " events (%.2f per "
	       "timer, min %u max %u); ticks %" PRIu64 ", drops %" PRIu64
	       ", retries %" PRIu64 "\n", window_total,
	       (double)window_total / n, lo, hi, s.adapter_tick_count,
	       s.evtim_drop_count, s.evtim_retry_count);
	TP_ASSERT(lo >= 8 && hi <= 11, "per-timer firings %u..%u", lo, hi);
	TP_ASSERT_EQ(ec.foreign, 0, "foreign events");
	for (i = 0; i < n; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_ARMED, "%u", i);
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[0], &rem), 0,
		     "remaining ticks of a periodic timer");
	TP_ASSERT(rem <= 1, "periodic remaining %" PRIu64, rem);

	TP_ASSERT(periodic_cancel_all(a, p, n) == TP_TEST_OK, "cancel");
	for (i = 0; i < n; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_CANCELED, "%u", i);
	return periodic_check_after_cancel(a, &ec, n);
}

/*
 * Periodic timers armed just after a tick boundary (ticks lie on the TSC
 * grid, as in DPDK): each firing then lands at the last tick boundary
 * before the next period's deadline, which is on time. No device
 * backpressure happens here, so no firing may be skipped (drops are only
 * for a device full for longer than a period, timer_adapter.h).
 */
TA_CASE(test_periodic_tick_phase)
{
	const unsigned int n = 4096;
	const uint64_t cyc_tick = rte_get_timer_hz() / 10;
	struct rte_event_timer_adapter_stats s;
	struct rte_event_timer *t, **p;
	unsigned int lo, hi;
	struct timer_adapter *a;
	struct tc_evcount ec;

	TP_ASSERT(periodic_start(n, &t, &p, &ec, &a) == TP_TEST_OK, "set-up");
	/* Within 20 us after a boundary (sleep through most of the wait). */
	tc_sleep_us(tc_cyc_to_ns(cyc_tick - rte_get_timer_cycles() % cyc_tick)
		    / 1000 * 9 / 10);
	while (rte_get_timer_cycles() % cyc_tick > cyc_tick / 5000)
		rte_pause();
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, p, 1, n), n, "arm");
	hi = tc_periodic_collect(&ec, n, &lo);
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	printf("    100 ms periods: at most %u firings per timer at 1.05 s, "
	       "at least %u by the end; drops %" PRIu64 ", retries %" PRIu64
	       "\n", hi, lo, s.evtim_drop_count, s.evtim_retry_count);
	TP_ASSERT_EQ(s.evtim_drop_count, 0, "firings skipped");
	TP_ASSERT(hi <= 11, "a timer fired %u times in 1.05 s (early)", hi);
	TP_ASSERT(lo >= 10, "a timer fired only %u times in 1.5 s", lo);
	return TP_TEST_OK;
}

/* 5 ticks of 100 ms read every 100 ms: 5, 4, 3, 2, 1, event, -EINVAL. */
TA_CASE(test_remaining_ticks)
{
	struct rte_event_timer *t = timers(2);
	const uint64_t hz = rte_get_timer_hz();
	struct timer_adapter *a;
	struct tc_evcount ec;
	uint64_t t1, rem;
	unsigned int i;

	TP_ASSERT(t != NULL && evcount(&ec, t, 2, false) == 0, "alloc");
	a = start_adapter(TICK_100MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[1], &rem),
		     -EINVAL, "never armed");
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, NULL, &rem),
		     -EINVAL, "NULL timer");
	TP_ASSERT_EQ(arm1(a, &t[0], 5), 1, "arm");
	t1 = rte_get_timer_cycles();
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[0], NULL),
		     -EINVAL, "NULL output");
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(NULL, &t[0], &rem),
		     -EINVAL, "NULL adapter");
	for (i = 0; i < 5; i++) {
		uint64_t at = t1 + i * hz / 10 + hz / 100;
		uint64_t now = rte_get_timer_cycles();

		if (now < at)
			tc_sleep_us(tc_cyc_to_ns(at - now) / 1000);
		TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[0], &rem),
			     0, "read %u", i);
		TP_ASSERT_EQ(rem, 5 - i, "remaining ticks at %u00 ms", i);
	}
	tc_collect(&ec, 1, 1000, 0);
	TP_ASSERT_EQ(ec.count[0], 1, "event");
	TP_ASSERT_EQ(state(&t[0]), RTE_EVENT_TIMER_NOT_ARMED, "state");
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[0], &rem),
		     -EINVAL, "expired timer");
	TP_ASSERT_EQ(arm1(a, &t[0], 10), 1, "arm");
	TP_ASSERT_EQ(cancel1(a, &t[0]), 1, "cancel");
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[0], &rem),
		     -EINVAL, "cancelled timer");
	return TP_TEST_OK;
}

static const struct tp_test_case periodic_cases[] = {
	{ "periodic", test_periodic },
	{ "periodic_tick_phase", test_periodic_tick_phase },
	{ "remaining_ticks", test_remaining_ticks },
};

const struct tp_test_table at_periodic_cases = TP_TEST_TABLE(periodic_cases);
