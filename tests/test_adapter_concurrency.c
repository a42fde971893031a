/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", load and exactly-once: 50,000 timers in one tick,
 * arm/cancel mixes and arming on several lcores, cancel racing expiry.
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
 * Load and exactly-once.
 */

/* 50,000 timers due in the same tick, dequeued by a slow consumer. */
TA_CASE(test_load_50k_same_tick)
{
	const unsigned int n = 50000;
	struct rte_event_timer *t = timers(n);
	struct rte_event_timer **p = ptrs(t, n);
	struct timer_adapter_accounting ac0, ac1;
	struct rte_event_timer_adapter_stats s;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i, bad;
	uint64_t end;
	double t0;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 65536, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_stats_reset(a), 0, "reset");
	TP_ASSERT_EQ(acct(a, &ac0), 0, "accounting");
	t0 = tp_test_now_ms();
	/* One call, so that all share one deadline. */
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, p, 20, n), n,
		     "arm: %s", tc_errno_name(rte_errno));
	/* 32 events per millisecond: the device and the adapter back up. */
	end = rte_get_timer_cycles() + ms_to_cyc(30000);
	while (ec.total + ec.foreign < n && rte_get_timer_cycles() < end) {
		tc_dequeue(&ec, 32);
		tc_sleep_us(1000);
	}
	tc_collect(&ec, n, 1000, 200);
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	printf("    %" PRIu64 " events in %.0f ms, evtim_retry_count %" PRIu64
	       "\n", ec.total, tp_test_now_ms() - t0, s.evtim_retry_count);
	TP_ASSERT_EQ(ec.foreign, 0, "foreign events");
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0,
		     "timer %u: %u events", bad, bad < n ? ec.count[bad] : 0);
	TP_ASSERT_EQ(s.ev_enq_count, n, "ev_enq_count");
	TP_ASSERT_EQ(s.evtim_exp_count, n, "evtim_exp_count");
	TP_ASSERT_EQ(s.ev_inv_count, 0, "ev_inv_count");
	TP_ASSERT_EQ(acct(a, &ac1), 0, "accounting");
	TP_ASSERT_EQ(ac1.armed - ac0.armed, n, "armed");
	TP_ASSERT_EQ(ac1.expired - ac0.expired, n, "expired");
	TP_ASSERT_EQ(ac1.cancelled - ac0.cancelled, 0, "cancelled");
	TP_ASSERT_EQ(ac1.pending, 0, "pending");
	for (i = 0; i < n; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_NOT_ARMED, "%u", i);
	return TP_TEST_OK;
}

struct mix_arg {
	struct timer_adapter *a;
	struct rte_event_timer *t;	/* this lcore's timers */
	unsigned int n;
	uint32_t *arms;			/* successful arms per timer */
	uint32_t *cancels;		/* successful cancels per timer */
	struct tc_evcount *ec;		/* main only: dequeue as it goes */
	uint64_t end_tsc;
	uint64_t bad;			/* unexpected failures */
	int bad_errno;
};

static int
mix_loop(void *arg)
{
	struct mix_arg *m = arg;
	unsigned int op = 0;

	while (rte_get_timer_cycles() < m->end_tsc && !at_worker_abort) {
		unsigned int i = rte_rand_max(m->n);
		struct rte_event_timer *tp = &m->t[i];

		if (state(tp) != RTE_EVENT_TIMER_ARMED) {
			tp->timeout_ticks = 1 + rte_rand_max(20);
			if (timer_adapter_arm_burst(m->a, &tp, 1) == 1) {
				m->arms[i]++;
			} else {
				m->bad++;
				m->bad_errno = rte_errno;
			}
		} else if (rte_rand_max(8) == 0) {
			/* Rarely enough that many timers expire too. */
			if (cancel1(m->a, tp) == 1) {
				m->cancels[i]++;
			} else if (rte_errno != EINVAL && rte_errno != EAGAIN) {
				/* Only losing to the expiry is allowed. */
				m->bad++;
				m->bad_errno = rte_errno;
			}
		}
		if (++op % 64 != 0)
			continue;
		if (m->ec != NULL)
			while (tc_dequeue(m->ec, 32) > 0)
				;
		else
			tc_sleep_us(20);
	}
	return 0;
}

/*
 * Main and lcore 2 each arm their own timers (1..20 ticks of 1 ms) and
 * cancel random armed ones: events + cancels == arms, per timer.
 */
TA_CASE(test_random_arm_cancel_mix)
{
	const unsigned int half = 2048, n = 2 * half;
	struct rte_event_timer *t = timers(n);
	uint32_t *arms = at_track(rte_zmalloc("arms", sizeof(*arms) * n, 0));
	uint32_t *canc = at_track(rte_zmalloc("canc", sizeof(*canc) * n, 0));
	struct timer_adapter_accounting ac0, ac1;
	uint64_t sum_arm = 0, sum_cancel = 0;
	struct rte_event_timer_adapter_stats s;
	struct mix_arg m[2];
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i;
	uint64_t end;

	TP_ASSERT(t != NULL && arms != NULL && canc != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, false) == 0, "alloc");
	a = start_adapter(TC_MS, 10 * TC_SEC, 16384, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_stats_reset(a), 0, "reset");
	TP_ASSERT_EQ(acct(a, &ac0), 0, "accounting");
	end = rte_get_timer_cycles() + ms_to_cyc(1500);
	for (i = 0; i < 2; i++)
		m[i] = (struct mix_arg){ .a = a, .t = &t[i * half], .n = half,
			.arms = &arms[i * half], .cancels = &canc[i * half],
			.ec = i == 0 ? &ec : NULL, .end_tsc = end };
	TP_ASSERT_EQ(rte_eal_remote_launch(mix_loop, &m[1],
					   tc_env.worker_lcore), 0, "launch");
	mix_loop(&m[0]);
	TP_ASSERT_EQ(tc_wait_lcore(tc_env.worker_lcore, 10000), 0, "worker");
	for (i = 0; i < n; i++) {
		sum_arm += arms[i];
		sum_cancel += canc[i];
	}
	tc_collect(&ec, sum_arm - sum_cancel, 10000, 200);
	printf("    %" PRIu64 " arms, %" PRIu64 " cancels, %" PRIu64
	       " events\n", sum_arm, sum_cancel, ec.total);
	TP_ASSERT_EQ(m[0].bad, 0, "main: unexpected failure %s",
		     tc_errno_name(m[0].bad_errno));
	TP_ASSERT_EQ(m[1].bad, 0, "lcore 2: unexpected failure %s",
		     tc_errno_name(m[1].bad_errno));
	TP_ASSERT_EQ(ec.foreign, 0, "foreign events");
	for (i = 0; i < n; i++) {
		TP_ASSERT_EQ(ec.count[i], arms[i] - canc[i],
			     "timer %u: %u arms, %u cancels, %u events", i,
			     arms[i], canc[i], ec.count[i]);
		TP_ASSERT(state(&t[i]) != RTE_EVENT_TIMER_ARMED,
			  "timer %u still armed", i);
	}
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	TP_ASSERT_EQ(s.evtim_exp_count, ec.total, "evtim_exp_count");
	TP_ASSERT_EQ(s.ev_enq_count, ec.total, "ev_enq_count");
	TP_ASSERT_EQ(acct(a, &ac1), 0, "accounting");
	TP_ASSERT_EQ(ac1.armed - ac0.armed, sum_arm, "accounting armed");
	TP_ASSERT_EQ(ac1.cancelled - ac0.cancelled, sum_cancel, "cancelled");
	TP_ASSERT_EQ(ac1.expired - ac0.expired, ec.total, "expired");
	TP_ASSERT_EQ(ac1.pending, 0, "pending");
	TP_ASSERT_EQ(ac1.armed, ac1.expired + ac1.cancelled + ac1.pending,
		     "armed == expired + cancelled + pending");
	return TP_TEST_OK;
}

struct marm_arg {
	struct timer_adapter *a;
	struct rte_event_timer **p;
	unsigned int n;
	unsigned int done;
	int err;
};

static int
marm_worker(void *arg)
{
	struct marm_arg *x = arg;
	unsigned int i, k, got;

	x->done = 0;
	for (i = 0; i < x->n && !at_worker_abort; i += k) {
		k = RTE_MIN(32u, x->n - i);
		got = timer_adapter_arm_tmo_tick_burst(x->a, &x->p[i], 10, k);
		x->done += got;
		if (got != k) {
			x->err = rte_errno;
			break;
		}
	}
	return 0;
}

/* Two lcores arm 10,000 timers each at once: all 20,000 fire once. */
TA_CASE(test_multi_lcore_arm)
{
	const unsigned int half = 10000, n = 2 * half;
	struct rte_event_timer *t = timers(n);
	struct rte_event_timer **p = ptrs(t, n);
	struct marm_arg x;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i, k, bad;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, NB_TIMERS, 0);
	TP_ASSERT(a != NULL, "start");
	x = (struct marm_arg){ .a = a, .p = &p[half], .n = half };
	TP_ASSERT_EQ(rte_eal_remote_launch(marm_worker, &x,
					   tc_env.worker_lcore), 0, "launch");
	for (i = 0; i < half; i += k) {
		unsigned int j;

		k = RTE_MIN(32u, half - i);
		for (j = i; j < i + k; j++)
			t[j].timeout_ticks = 10 + j % 10;
		TP_ASSERT_EQ(timer_adapter_arm_burst(a, &p[i], k), k,
			     "main arm at %u: %s", i, tc_errno_name(rte_errno));
	}
	TP_ASSERT_EQ(tc_wait_lcore(tc_env.worker_lcore, 10000), 0, "worker");
	TP_ASSERT_EQ(x.done, half, "lcore 2 armed: %s", tc_errno_name(x.err));
	tc_collect(&ec, n, 20000, 200);
	TP_ASSERT_EQ(ec.foreign, 0, "foreign events");
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0,
		     "timer %u: %u events", bad, bad < n ? ec.count[bad] : 0);
	return TP_TEST_OK;
}

struct race_arg {
	struct timer_adapter *a;
	struct rte_event_timer **p;
	unsigned int n;
	uint64_t start_tsc;
	uint64_t pace;		/* cycles between two cancels (0: none) */
	bool reverse;
	uint8_t *ok;
	int *err;
};

static int
race_worker(void *arg)
{
	struct race_arg *r = arg;
	unsigned int k, i;

	/* Spin briefly: main sleeps meanwhile, so nobody loses CPU 0. */
	while (rte_get_timer_cycles() < r->start_tsc && !at_worker_abort)
		rte_pause();
	for (k = 0; k < r->n; k++) {
		uint64_t next = rte_get_timer_cycles() + r->pace;

		i = r->reverse ? r->n - 1 - k : k;
		if (cancel1(r->a, r->p[i]) == 1)
			r->ok[i] = 1;
		else
			r->err[i] = rte_errno;
		while (r->pace != 0 && rte_get_timer_cycles() < next)
			rte_pause();
	}
	return 0;
}

/* State of test_cancel_expiry_race across its rounds. */
struct race_state {
	unsigned int n;			/* Timers per round. */
	struct rte_event_timer *t;
	struct rte_event_timer **p;
	uint8_t *ok;			/* Per timer: its cancel succeeded. */
	int *err;			/* Per timer: the cancel's rte_errno. */
	struct tc_evcount ec;		/* Expiry events per timer. */
	struct timer_adapter *a;
	uint64_t hz;
	/* Cancel start after arming, in microseconds; adapted per round. */
	int64_t offset_us;
	unsigned int mixed;		/* Rounds with both outcomes. */
	unsigned int eagain;		/* Cancels that lost the CAS race. */
	uint64_t events, cancels;
};

/* Setup: timers, outcome arrays, event counter, a started adapter. */
static int
race_setup(struct race_state *rs, unsigned int n)
{
	memset(rs, 0, sizeof(*rs));
	rs->n = n;
	rs->hz = rte_get_timer_hz();
	rs->offset_us = 1800;
	rs->t = timers(n);
	rs->p = ptrs(rs->t, n);
	rs->ok = at_track(rte_zmalloc("ok", n, 0));
	rs->err = at_track(rte_zmalloc("err", sizeof(*rs->err) * n, 0));
	TP_ASSERT(rs->t != NULL && rs->p != NULL && rs->ok != NULL &&
		  rs->err != NULL, "alloc");
	TP_ASSERT(evcount(&rs->ec, rs->t, n, false) == 0, "alloc");
	rs->a = start_adapter(TC_MS, TC_SEC, 8192, 0);
	TP_ASSERT(rs->a != NULL, "start");
	return TP_TEST_OK;
}

/*
 * Race, round r: arm every timer for 1 tick, let lcore 2 cancel them all
 * around their expiry, collect the events. *nok: cancels that succeeded.
 */
static int
race_round(struct race_state *rs, unsigned int r, unsigned int *nok)
{
	const uint64_t cyc_tick = rs->hz / 1000;
	struct race_arg ra;
	uint64_t t_arm;
	unsigned int i;

	for (i = 0; i < rs->n; i++) {
		tc_timer_init(&rs->t[i], TC_QUEUE_ATOMIC);
		rs->ok[i] = 0;
		rs->err[i] = 0;
	}
	tc_evcount_reset(&rs->ec);
	/*
	 * Arm just after a tick boundary (ticks are multiples of the tick
	 * length in TSC time, as in DPDK), so that the expiry comes at about
	 * the same offset every round. This only makes the race likelier; no
	 * check depends on it.
	 */
	while (rte_get_timer_cycles() % cyc_tick > cyc_tick / 20)
		rte_pause();
	t_arm = rte_get_timer_cycles();
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(rs->a, rs->p, 1, rs->n),
		     rs->n, "round %u arm: %s", r, tc_errno_name(rte_errno));
	ra = (struct race_arg){ .a = rs->a, .p = rs->p, .n = rs->n,
		.start_tsc = t_arm + rs->hz * rs->offset_us / 1000000,
		.reverse = (r / 2) % 2 == 1, .ok = rs->ok, .err = rs->err };
	if (r % 2 == 1) {
		ra.start_tsc = t_arm + rs->hz / 2000;
		ra.pace = rs->hz * 3 / 2000000;
	}
	TP_ASSERT_EQ(rte_eal_remote_launch(race_worker, &ra,
					   tc_env.worker_lcore), 0, "launch");
	TP_ASSERT_EQ(tc_wait_lcore(tc_env.worker_lcore, 10000), 0, "worker");
	*nok = 0;
	for (i = 0; i < rs->n; i++)
		*nok += rs->ok[i];
	tc_collect(&rs->ec, rs->n - *nok, 3000, 3);
	return TP_TEST_OK;
}

/*
 * Checks of round r: every timer either was cancelled (state CANCELED, no
 * event) or fired once (cancel failed with EINVAL or EAGAIN, NOT_ARMED).
 */
static int
race_check_round(struct race_state *rs, unsigned int r, unsigned int nok)
{
	const struct tc_evcount *ec = &rs->ec;
	unsigned int i;

	for (i = 0; i < rs->n; i++) {
		TP_ASSERT_EQ(rs->ok[i] + ec->count[i], 1,
			     "round %u timer %u: cancel %s, %u events", r, i,
			     rs->ok[i] ? "succeeded" :
			     tc_errno_name(rs->err[i]), ec->count[i]);
		if (rs->ok[i] != 0) {
			TP_ASSERT_EQ(state(&rs->t[i]), RTE_EVENT_TIMER_CANCELED,
				     "%u", i);
			continue;
		}
		TP_ASSERT(rs->err[i] == EINVAL || rs->err[i] == EAGAIN,
			  "round %u timer %u: cancel failed with %s", r, i,
			  tc_errno_name(rs->err[i]));
		TP_ASSERT_EQ(state(&rs->t[i]), RTE_EVENT_TIMER_NOT_ARMED,
			     "round %u timer %u", r, i);
		rs->eagain += rs->err[i] == EAGAIN;
	}
	TP_ASSERT_EQ(ec->foreign, 0, "foreign events");
	rs->mixed += nok != 0 && nok != rs->n;
	rs->events += ec->total;
	rs->cancels += nok;
	return TP_TEST_OK;
}

/*
 * After an even round, chase the expiry: all cancelled means the sweep
 * started too early, none means too late; jitter keeps it moving.
 */
static void
race_chase(struct race_state *rs, unsigned int r, unsigned int nok)
{
	if (r % 2 == 1)
		return;
	if (nok == rs->n)
		rs->offset_us += 40;
	else if (nok == 0)
		rs->offset_us -= 40;
	rs->offset_us += (int64_t)rte_rand_max(41) - 20;
	rs->offset_us = RTE_MAX(rs->offset_us, (int64_t)0);
	rs->offset_us = RTE_MIN(rs->offset_us, (int64_t)3000);
}

/*
 * Final checks: no late event, the race was really met, and the adapter's
 * accounting agrees with what the rounds saw (ac0: before the first).
 */
static int
race_check_end(struct race_state *rs, unsigned int rounds,
	       const struct timer_adapter_accounting *ac0)
{
	struct timer_adapter_accounting ac1;

	tc_evcount_reset(&rs->ec);
	tc_collect(&rs->ec, 0, 200, 200);
	TP_ASSERT_EQ(rs->ec.total, 0, "late events after the last round");
	printf("    %u timers: %" PRIu64 " cancelled, %" PRIu64 " expired; "
	       "%u of %u rounds mixed, %u EAGAIN\n", rs->n * rounds,
	       rs->cancels, rs->events, rs->mixed, rounds, rs->eagain);
	/* Otherwise the case proved nothing about the race. */
	TP_ASSERT(rs->mixed >= rounds / 10, "the sweep met the expiry in only "
		  "%u rounds", rs->mixed);
	TP_ASSERT_EQ(acct(rs->a, &ac1), 0, "accounting");
	TP_ASSERT_EQ(ac1.armed - ac0->armed, (uint64_t)rs->n * rounds, "armed");
	TP_ASSERT_EQ(ac1.cancelled - ac0->cancelled, rs->cancels, "cancelled");
	TP_ASSERT_EQ(ac1.expired - ac0->expired, rs->events, "expired");
	TP_ASSERT_EQ(ac1.pending, 0, "pending");
	return TP_TEST_OK;
}

/*
 * 1-tick timers cancelled by lcore 2 right around their expiry: for every
 * timer exactly one of "cancel succeeded" and "event delivered".
 *
 * Even rounds sweep at full speed from an offset that chases the expiry
 * (most true CAS conflicts, i.e. EAGAIN, come from these); odd rounds pace
 * the sweep (1.5 us per cancel, about 3 ticks) so that it straddles the
 * expiry whatever the service's latency.
 */
TA_CASE(test_cancel_expiry_race)
{
	const unsigned int rounds = 200;
	struct timer_adapter_accounting ac0;
	struct race_state rs;
	unsigned int r, nok;

	TP_ASSERT(race_setup(&rs, 2048) == TP_TEST_OK, "setup");
	TP_ASSERT_EQ(acct(rs.a, &ac0), 0, "accounting");
	for (r = 0; r < rounds; r++) {
		if (race_round(&rs, r, &nok) != TP_TEST_OK ||
		    race_check_round(&rs, r, nok) != TP_TEST_OK)
			return TP_TEST_FAIL;
		race_chase(&rs, r, nok);
	}
	return race_check_end(&rs, rounds, &ac0);
}

static const struct tp_test_case concurrency_cases[] = {
	{ "load_50k_same_tick", test_load_50k_same_tick },
	{ "random_arm_cancel_mix", test_random_arm_cancel_mix },
	{ "multi_lcore_arm", test_multi_lcore_arm },
	{ "cancel_expiry_race", test_cancel_expiry_race },
};

const struct tp_test_table at_concurrency_cases =
	TP_TEST_TABLE(concurrency_cases);
