/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", the far ring: parked timers over spans, 20,000 in one
 * bucket, across a stop, cancelled from another lcore.
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
 * Far ring. With a 100 us tick and 10 s max_tmo a far span is 512 ticks
 * (51.2 ms): timers due beyond the next span are parked in a bucket, and
 * the service moves a bucket into the radix index during the span before.
 */
#define TICK_100US (TC_MS / 10)

/*
 * What the far-ring cases share: n timers, their arm times, whether each
 * must fire (want, 1 unless cancelled), their events with the time of the
 * first, an adapter of 100 us ticks and 10 s max_tmo, and the lateness
 * far_finish() found.
 */
struct far_case {
	unsigned int n;
	struct rte_event_timer *t;
	uint64_t *arm_tsc;
	uint8_t *want;
	struct tc_evcount ec;
	struct timer_adapter *a;
	uint64_t worst_late;
	unsigned int nb_late;
};

/* Allocate for n timers (want: all) and start an adapter of nb_timers. */
static int
far_setup(struct far_case *f, unsigned int n, uint64_t nb_timers)
{
	f->n = n;
	f->t = timers(n);
	f->arm_tsc = at_track(rte_zmalloc("arm", sizeof(*f->arm_tsc) * n, 0));
	f->want = at_track(rte_zmalloc("want", n, 0));
	TP_ASSERT(f->t != NULL && f->arm_tsc != NULL && f->want != NULL,
		  "alloc");
	TP_ASSERT(evcount(&f->ec, f->t, n, true) == 0, "alloc");
	memset(f->want, 1, n);
	f->a = start_adapter(TICK_100US, 10 * TC_SEC, nb_timers, 0);
	TP_ASSERT(f->a != NULL, "start");
	return TP_TEST_OK;
}

/*
 * Collect the events (expect of them, within max_ms), then check that the
 * timers wanted fired once, none early, none else did, and that the
 * adapter holds nothing more.
 */
static int
far_check_end(struct far_case *f, uint64_t expect, uint32_t max_ms)
{
	const uint64_t hz = rte_get_timer_hz();
	struct timer_adapter *a = f->a;
	struct rte_event_timer *t = f->t;
	const unsigned int n = f->n;
	const uint8_t *want = f->want;
	struct tc_evcount *ec = &f->ec;
	const uint64_t *arm_tsc = f->arm_tsc;
	uint64_t *worst_late = &f->worst_late;
	unsigned int *nb_late = &f->nb_late;
	struct timer_adapter_accounting ac;
	unsigned int i, bad;

	tc_collect(ec, expect, max_ms, 200);

	TP_ASSERT_EQ(tc_evcount_mismatch(ec, want, &bad), 0,
		     "timer %u: %u events, want %u", bad,
		     bad < n ? ec->count[bad] : 0, bad < n ? want[bad] : 0);
	TP_ASSERT_EQ(ec->foreign, 0, "foreign events");
	*worst_late = 0;
	*nb_late = 0;
	for (i = 0; i < n; i++) {
		uint64_t due = arm_tsc[i] + t[i].timeout_ticks * hz / 10000;

		if (!want[i])
			continue;
		TP_ASSERT(ec->first_tsc[i] >= due, "timer %u (%" PRIu64
			  " ticks) early by %" PRIu64 " ns", i,
			  t[i].timeout_ticks,
			  tc_cyc_to_ns(due - ec->first_tsc[i]));
		*worst_late = RTE_MAX(*worst_late, ec->first_tsc[i] - due);
		*nb_late += ec->first_tsc[i] - due > hz / 50;
	}
	TP_ASSERT_EQ(acct(a, &ac), 0, "accounting");
	TP_ASSERT_EQ(ac.pending, 0, "pending");
	TP_ASSERT_EQ(ac.parked, 0, "parked");
	TP_ASSERT_EQ(ac.armed, ac.expired + ac.cancelled, "armed %" PRIu64
		     " != expired %" PRIu64 " + cancelled %" PRIu64,
		     ac.armed, ac.expired, ac.cancelled);
	return TP_TEST_OK;
}

/*
 * Random timeouts over 15 spans, a quarter cancelled right away (parked
 * or not): every other timer fires once, never early, about on time.
 */
TA_CASE(test_far_ring_expiry)
{
	const unsigned int n = 4000;
	struct timer_adapter_accounting ac;
	uint64_t cancelled = 0;
	struct far_case f;
	unsigned int i;

	TP_ASSERT(far_setup(&f, n, n) == TP_TEST_OK, "set-up");
	for (i = 0; i < n; i++) {
		f.arm_tsc[i] = rte_get_timer_cycles();
		/* 0.1 ms .. 1.5 s */
		TP_ASSERT_EQ(arm1(f.a, &f.t[i], 1 + rte_rand_max(15000)), 1,
			     "arm %u: %s", i, tc_errno_name(rte_errno));
		if (i % 64 == 63)
			tc_dequeue(&f.ec, 64);
	}
	TP_ASSERT_EQ(acct(f.a, &ac), 0, "accounting");
	printf("    %" PRIu64 " of %u timers parked\n", ac.parked, n);
	/* Timers beyond the next span (about 90 % of them) are parked. */
	TP_ASSERT(ac.parked >= n / 2, "only %" PRIu64 " parked", ac.parked);
	for (i = 0; i < n; i += 4) {
		if (state(&f.t[i]) != RTE_EVENT_TIMER_ARMED)
			continue;
		TP_ASSERT_EQ(cancel1(f.a, &f.t[i]), 1, "cancel %u: %s", i,
			     tc_errno_name(rte_errno));
		f.want[i] = 0;
		cancelled++;
	}
	TP_ASSERT(cancelled > n / 5, "only %" PRIu64 " cancelled", cancelled);
	TP_ASSERT(far_check_end(&f, n - cancelled, 5000) == TP_TEST_OK,
		  "end state");
	/* A bucket moved a span (51.2 ms) late would show here. */
	return at_check_lateness(f.worst_late, f.nb_late, n - cancelled);
}

/*
 * 20,000 timers parked in one bucket, from two lcores: the service moves
 * them TA_FAR_BUDGET at a time over many ticks, and still in time.
 */
struct far_arm_arg {
	struct timer_adapter *a;
	struct rte_event_timer **p;
	uint64_t *arm_tsc;
	unsigned int n;
	unsigned int done;
};

static int
far_arm_worker(void *arg)
{
	struct far_arm_arg *x = arg;
	unsigned int i;

	x->done = 0;
	for (i = 0; i < x->n; i += 100) {
		unsigned int k;

		for (k = 0; k < 100; k++)
			x->arm_tsc[i + k] = rte_get_timer_cycles();
		x->done += timer_adapter_arm_tmo_tick_burst(x->a, &x->p[i],
							    3000, 100);
	}
	return 0;
}

TA_CASE(test_far_ring_one_bucket)
{
	const unsigned int n = 20000, half = n / 2;
	struct timer_adapter_accounting ac;
	struct far_arm_arg x0, x1;
	struct rte_event_timer **p;
	struct far_case f;

	/* Room for the credits each list keeps cached. */
	TP_ASSERT(far_setup(&f, n, n + 256) == TP_TEST_OK, "set-up");
	p = ptrs(f.t, n);
	TP_ASSERT(p != NULL, "alloc");
	/* 300 ms: beyond the next 51.2 ms span whatever the phase. */
	x0 = (struct far_arm_arg){ .a = f.a, .p = p, .arm_tsc = f.arm_tsc,
				   .n = half };
	x1 = (struct far_arm_arg){ .a = f.a, .p = &p[half],
				   .arm_tsc = &f.arm_tsc[half], .n = half };
	TP_ASSERT_EQ(rte_eal_remote_launch(far_arm_worker, &x1,
					   tc_env.worker_lcore), 0, "launch");
	far_arm_worker(&x0);
	TP_ASSERT_EQ(tc_wait_lcore(tc_env.worker_lcore, 10000), 0, "worker");
	TP_ASSERT_EQ(x0.done + x1.done, n, "armed");
	TP_ASSERT_EQ(acct(f.a, &ac), 0, "accounting");
	printf("    %" PRIu64 " of %u timers parked\n", ac.parked, n);
	TP_ASSERT(ac.parked == n, "only %" PRIu64 " parked", ac.parked);
	TP_ASSERT(far_check_end(&f, n, 10000) == TP_TEST_OK, "end state");
	/* The last events wait for the test's dequeue (4096 in flight). */
	printf("    worst lateness %.3f ms\n",
	       (double)tc_cyc_to_ns(f.worst_late) / 1e6);
	return TP_TEST_OK;
}

/*
 * Parked timers across a stop: armed, stopped for 12 spans, more armed
 * while stopped, started again. The service catches up: each fires once,
 * none early.
 */
TA_CASE(test_far_ring_stop_start)
{
	const unsigned int n = 600;
	struct timer_adapter_accounting ac;
	struct far_case f;
	unsigned int i;

	TP_ASSERT(far_setup(&f, n, n) == TP_TEST_OK, "set-up");
	for (i = 0; i < n / 2; i++) {
		f.arm_tsc[i] = rte_get_timer_cycles();
		TP_ASSERT_EQ(arm1(f.a, &f.t[i], 2500 + i * 10), 1, "arm %u", i);
	}
	TP_ASSERT_EQ(timer_adapter_stop(f.a), 0, "stop");
	rte_delay_ms(650);
	/* Relative to a stale service state: some due in the next span. */
	for (; i < n; i++) {
		f.arm_tsc[i] = rte_get_timer_cycles();
		TP_ASSERT_EQ(arm1(f.a, &f.t[i], 500 + (i - n / 2) * 10), 1,
			     "arm %u", i);
	}
	TP_ASSERT_EQ(acct(f.a, &ac), 0, "accounting");
	printf("    %" PRIu64 " of %u timers parked\n", ac.parked, n);
	TP_ASSERT(ac.parked > 0, "nothing parked");
	TP_ASSERT_EQ(timer_adapter_start(f.a), 0, "start again");
	TP_ASSERT(far_check_end(&f, n, 8000) == TP_TEST_OK, "end state");
	return TP_TEST_OK;
}

/* Parked timers cancelled from another lcore, and the ring drains. */
TA_CASE(test_far_ring_cancel_other_lcore)
{
	const unsigned int n = 512;
	struct rte_event_timer *t = timers(n);
	struct rte_event_timer **p = ptrs(t, n);
	struct timer_adapter_accounting ac;
	struct xcancel_arg x;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, false) == 0, "alloc");
	a = start_adapter(TICK_100US, 10 * TC_SEC, n, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < n; i++)
		TP_ASSERT_EQ(arm1(a, &t[i], 5000 + rte_rand_max(40000)), 1,
			     "arm %u", i);
	TP_ASSERT_EQ(acct(a, &ac), 0, "accounting");
	TP_ASSERT_EQ(ac.parked, n, "parked");
	x = (struct xcancel_arg){ .a = a, .p = p, .nb_single = n / 2,
				  .nb_burst = n / 2 };
	TP_ASSERT(at_xcancel_remote(&x) == TP_TEST_OK, "lcore %u",
		  tc_env.worker_lcore);
	TP_ASSERT_EQ(x.done, n, "cancelled on lcore %u", tc_env.worker_lcore);
	TP_ASSERT_EQ(acct(a, &ac), 0, "accounting");
	TP_ASSERT_EQ(ac.parked, 0, "parked after cancel");
	TP_ASSERT_EQ(ac.pending, 0, "pending after cancel");
	TP_ASSERT_EQ(ac.cancelled, n, "cancelled");
	/* The emptied buckets and a fresh arm still work. */
	tc_timer_init(&t[0], TC_QUEUE_ATOMIC);
	TP_ASSERT_EQ(arm1(a, &t[0], 2500), 1, "re-arm");
	tc_collect(&ec, 1, 3000, 100);
	TP_ASSERT_EQ(ec.total, 1, "one event after the re-arm");
	TP_ASSERT_EQ(ec.count[0], 1, "from the re-armed timer");
	return TP_TEST_OK;
}

static const struct tp_test_case far_ring_cases[] = {
	{ "far_ring_expiry", test_far_ring_expiry },
	{ "far_ring_one_bucket", test_far_ring_one_bucket },
	{ "far_ring_stop_start", test_far_ring_stop_start },
	{ "far_ring_cancel_other_lcore", test_far_ring_cancel_other_lcore },
};

const struct tp_test_table at_far_ring_cases = TP_TEST_TABLE(far_ring_cases);
