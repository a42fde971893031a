/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", cancel: errors, from another lcore, a 1-hour timeout;
 * arming from a non-EAL thread.
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
 * Cancel.
 */

TA_CASE(test_cancel_errors)
{
	struct rte_event_timer *t = timers(2);
	struct rte_event_timer *p[2];
	struct timer_adapter *a;
	struct tc_evcount ec;

	TP_ASSERT(t != NULL && evcount(&ec, t, 2, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	rte_errno = 0;
	TP_ASSERT_EQ(cancel1(a, t), 0, "never armed");
	TP_ASSERT_EQ(rte_errno, EINVAL, "never armed");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_NOT_ARMED, "state");
	t->state = RTE_EVENT_TIMER_ERROR_TOOLATE;
	rte_errno = 0;
	TP_ASSERT_EQ(cancel1(a, t), 0, "errored");
	TP_ASSERT_EQ(rte_errno, EINVAL, "errored");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ERROR_TOOLATE, "state");
	t->state = RTE_EVENT_TIMER_NOT_ARMED;

	TP_ASSERT_EQ(arm1(a, t, 100), 1, "arm");
	TP_ASSERT_EQ(cancel1(a, t), 1, "cancel");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_CANCELED, "state");
	rte_errno = 0;
	TP_ASSERT_EQ(cancel1(a, t), 0, "cancel twice");
	TP_ASSERT_EQ(rte_errno, EALREADY, "cancel twice");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_CANCELED, "state");

	TP_ASSERT_EQ(arm1(a, t, 100), 1, "re-arm");
	p[0] = t;
	p[1] = t;
	rte_errno = 0;
	TP_ASSERT_EQ(timer_adapter_cancel_burst(a, p, 2), 1, "burst {t,t}");
	TP_ASSERT_EQ(rte_errno, EALREADY, "burst {t,t}");

	/* Cancel after expiry fails: the timer is NOT_ARMED. */
	TP_ASSERT_EQ(arm1(a, &t[1], 1), 1, "arm");
	tc_collect(&ec, 1, 1000, 0);
	TP_ASSERT_EQ(ec.count[1], 1, "expiry");
	rte_errno = 0;
	TP_ASSERT_EQ(cancel1(a, &t[1]), 0, "cancel after expiry");
	TP_ASSERT_EQ(rte_errno, EINVAL, "cancel after expiry");
	TP_ASSERT_EQ(state(&t[1]), RTE_EVENT_TIMER_NOT_ARMED, "state");
	tc_collect(&ec, 0, 1200, 1200);
	TP_ASSERT_EQ(ec.count[0], 0, "cancelled timer fired");
	return TP_TEST_OK;
}

struct non_eal_arg {
	struct timer_adapter *a;
	struct rte_event_timer **p;
	unsigned int n;
	unsigned int done;
	unsigned int lcore;
};

static void *
non_eal_arm(void *arg)
{
	struct non_eal_arg *x = arg;
	unsigned int i;

	x->lcore = rte_lcore_id();
	for (i = 0; i < x->n; i += 16)
		x->done += timer_adapter_arm_tmo_tick_burst(x->a, &x->p[i], 20,
							    16);
	return NULL;
}

/* A non-EAL thread arms; main cancels half; the rest fire once. */
TA_CASE(test_arm_non_eal_thread)
{
	const unsigned int n = 512;
	struct rte_event_timer *t = timers(n);
	struct rte_event_timer **p = ptrs(t, n);
	uint8_t *want = at_track(rte_zmalloc("want", n, 0));
	struct non_eal_arg x;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i, bad;
	pthread_t th;

	TP_ASSERT(t != NULL && p != NULL && want != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 4096, 0);
	TP_ASSERT(a != NULL, "start");
	x = (struct non_eal_arg){ .a = a, .p = p, .n = n };
	TP_ASSERT_EQ(pthread_create(&th, NULL, non_eal_arm, &x), 0, "thread");
	TP_ASSERT_EQ(pthread_join(th, NULL), 0, "join");
	TP_ASSERT_EQ(x.lcore, LCORE_ID_ANY, "thread is an EAL lcore");
	TP_ASSERT_EQ(x.done, n, "armed from a non-EAL thread");
	for (i = 0; i < n; i++) {
		want[i] = i % 2;
		if (i % 2 == 0)
			TP_ASSERT_EQ(cancel1(a, &t[i]), 1, "cancel %u: %s", i,
				     tc_errno_name(rte_errno));
	}
	tc_collect(&ec, n / 2, 3000, 200);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, want, &bad), 0,
		     "timer %u: %u events", bad, bad < n ? ec.count[bad] : 0);
	return TP_TEST_OK;
}

/* Timers armed on one lcore are cancelled on another, both ways. */
TA_CASE(test_cancel_other_lcore)
{
	const unsigned int ns = 64, nbur = 16 * 16, n = ns + nbur;
	struct rte_event_timer *t = timers(n);
	struct rte_event_timer **p = ptrs(t, n);
	struct xcancel_arg x;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 4096, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < ns; i++)
		TP_ASSERT_EQ(arm1(a, &t[i], 20), 1, "arm %u", i);
	for (i = ns; i < n; i += 16)
		TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, &p[i], 20, 16),
			     16, "arm burst at %u", i);
	x = (struct xcancel_arg){ .a = a, .p = p, .nb_single = ns,
				  .nb_burst = nbur };
	TP_ASSERT(at_xcancel_remote(&x) == TP_TEST_OK, "lcore %u",
		  tc_env.worker_lcore);
	TP_ASSERT_EQ(x.done, n, "cancelled on lcore %u", tc_env.worker_lcore);
	for (i = 0; i < n; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_CANCELED, "%u", i);

	/* The other way: lcore 2 arms, main cancels. */
	for (i = 0; i < ns; i++)
		tc_timer_init(&t[i], TC_QUEUE_ATOMIC);
	x = (struct xcancel_arg){ .a = a, .p = p, .nb_single = ns,
				  .arm = true };
	TP_ASSERT(at_xcancel_remote(&x) == TP_TEST_OK, "lcore %u",
		  tc_env.worker_lcore);
	TP_ASSERT_EQ(x.done, ns, "armed on lcore %u", tc_env.worker_lcore);
	TP_ASSERT_EQ(timer_adapter_cancel_burst(a, p, ns), ns, "cancel: %s",
		     tc_errno_name(rte_errno));

	tc_collect(&ec, 0, 400, 400);
	TP_ASSERT_EQ(ec.total + ec.foreign, 0, "events from cancelled timers");
	return TP_TEST_OK;
}

/* A 1-hour timeout is accepted, reported and cancellable. */
TA_CASE(test_cancel_one_hour)
{
	struct rte_event_timer *t = timers(2);
	struct timer_adapter *a;
	struct tc_evcount ec;
	uint64_t rem;

	TP_ASSERT(t != NULL && evcount(&ec, t, 2, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, 7200 * TC_SEC, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(arm1(a, &t[0], 360000), 1, "arm 1 h");
	TP_ASSERT_EQ(arm1(a, &t[1], 30000), 1, "arm 300 s");
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[0], &rem), 0,
		     "remaining");
	TP_ASSERT(rem >= 359990 && rem <= 360000, "1 h: %" PRIu64 " ticks",
		  rem);
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, &t[1], &rem), 0,
		     "remaining");
	TP_ASSERT(rem >= 29990 && rem <= 30000, "300 s: %" PRIu64 " ticks",
		  rem);
	/* An overflowing ns-to-cycles conversion would fire them now. */
	tc_collect(&ec, 0, 300, 300);
	TP_ASSERT_EQ(ec.total, 0, "long timers fired early");
	TP_ASSERT_EQ(cancel1(a, &t[0]), 1, "cancel 1 h");
	TP_ASSERT_EQ(cancel1(a, &t[1]), 1, "cancel 300 s");
	return TP_TEST_OK;
}

static const struct tp_test_case cancel_cases[] = {
	{ "cancel_errors", test_cancel_errors },
	{ "cancel_other_lcore", test_cancel_other_lcore },
	{ "arm_non_eal_thread", test_arm_non_eal_thread },
	{ "cancel_one_hour", test_cancel_one_hour },
};

const struct tp_test_table at_cancel_cases = TP_TEST_TABLE(cancel_cases);
