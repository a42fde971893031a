/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", expiry: the event's fields, never early (one timer,
 * many), a late service run, re-arming, a burst of 4096, the tick count.
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
 * Expiry.
 */

TA_CASE(test_expiry_event_fields)
{
	const unsigned int n = 16;
	struct rte_event_timer *t = timers(n);
	struct timer_adapter *a;
	unsigned int i, got = 0, seen[16] = { 0 };
	struct rte_event ev[16];
	uint64_t end;

	TP_ASSERT(t != NULL, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < n; i++) {
		t[i].ev.flow_id = 1000 + i;
		t[i].ev.sub_event_type = i;
		t[i].user_meta[0] = i;
		TP_ASSERT_EQ(arm1(a, &t[i], 1 + i), 1, "arm %u", i);
	}
	end = rte_get_timer_cycles() + ms_to_cyc(3000);
	while (rte_get_timer_cycles() < end) {
		unsigned int j, nb;

		nb = rte_event_dequeue_burst(tc_env.evdev, TC_TEST_PORT, ev,
					     RTE_DIM(ev), 0);
		for (j = 0; j < nb; j++) {
			struct rte_event_timer *et = ev[j].event_ptr;

			TP_ASSERT(et >= t && et < t + n, "foreign event_ptr");
			i = et - t;
			TP_ASSERT_EQ(ev[j].event_type, RTE_EVENT_TYPE_TIMER,
				     "event_type");
			TP_ASSERT_EQ(ev[j].sub_event_type, i, "sub_event_type");
			TP_ASSERT_EQ(ev[j].flow_id, 1000 + i, "flow_id");
			TP_ASSERT_EQ(ev[j].queue_id, TC_QUEUE_ATOMIC, "queue");
			TP_ASSERT_EQ(ev[j].sched_type, RTE_SCHED_TYPE_ATOMIC,
				     "sched_type");
			TP_ASSERT_EQ(et->user_meta[0], i, "user_meta touched");
			TP_ASSERT_EQ(++seen[i], 1, "timer %u fired twice", i);
			TP_ASSERT_EQ(state(et), RTE_EVENT_TIMER_NOT_ARMED,
				     "state of an expired timer");
			got++;
		}
		if (got == n)
			break;
		if (nb == 0)
			tc_sleep_us(50);
	}
	TP_ASSERT_EQ(got, n, "events");
	TP_ASSERT_EQ(tc_quiesce(100), 0, "extra events");
	return TP_TEST_OK;
}

/* A 30-tick timer of 100 ms: nothing before 3 s, then within 2 ticks. */
TA_CASE(test_expiry_never_early)
{
	struct rte_event_timer *t = timers(1);
	const uint64_t hz = rte_get_timer_hz();
	uint64_t t0, t1, tev = 0;
	struct timer_adapter *a;
	struct rte_event ev;

	TP_ASSERT(t != NULL, "alloc");
	a = start_adapter(TICK_100MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	t0 = rte_get_timer_cycles();
	TP_ASSERT_EQ(arm1(a, t, 30), 1, "arm");
	t1 = rte_get_timer_cycles();
	while (rte_get_timer_cycles() < t1 + 3 * hz + hz / 5 + hz / 20) {
		if (rte_event_dequeue_burst(tc_env.evdev, TC_TEST_PORT, &ev,
					    1, 0) == 1) {
			tev = rte_get_timer_cycles();
			break;
		}
		tc_sleep_us(100);
	}
	TP_ASSERT(tev != 0, "no event within 3.25 s");
	printf("    event %.1f ms after arm\n",
	       (double)tc_cyc_to_ns(tev - t0) / 1e6);
	TP_ASSERT(tev >= t0 + 3 * hz, "early by %.3f ms",
		  (double)tc_cyc_to_ns(t0 + 3 * hz - tev) / 1e6);
	TP_ASSERT(tev <= t1 + 3 * hz + hz / 5 + hz / 20,
		  "more than 2 ticks late");
	TP_ASSERT(ev.event_ptr == t, "event_ptr");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_NOT_ARMED, "state");
	return TP_TEST_OK;
}

/*
 * A service run late into its tick also fires the next tick's timers
 * whose deadline has passed, as DPDK's adapter does (it compares the real
 * time when it ticks), instead of leaving them to the tick after. Ticks
 * of 100 ms; a 1-tick timer armed 10 ms into a tick, while the service is
 * stopped, is due 10 ms into the next tick; the service resumes 40 ms
 * into that tick: the event comes then, not at the following tick (60 ms
 * later). DPDK's own suite (event_timer_arm_expiry) gives a 30-tick
 * timer one tick of margin and fails when a service lcore sharing a CPU
 * misses the tick just before the deadline.
 */
TA_CASE(test_expiry_late_service)
{
	struct rte_event_timer *t = timers(1);
	const uint64_t hz = rte_get_timer_hz();
	const uint64_t cpt = hz / 10;
	uint64_t t0, now, tev = 0;
	struct timer_adapter *a;
	struct rte_event ev;
	uint32_t svc;

	TP_ASSERT(t != NULL, "alloc");
	a = start_adapter(TICK_100MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_service_id_get(a, &svc), 0, "service id");
	/* 10 to 12 ms into a tick. */
	do {
		now = rte_get_timer_cycles();
	} while (now % cpt < cpt / 10 || now % cpt > cpt / 10 + cpt / 50);
	TP_ASSERT_EQ(rte_service_runstate_set(svc, 0), 0, "stop service");
	t0 = rte_get_timer_cycles();
	TP_ASSERT_EQ(arm1(a, t, 1), 1, "arm: %s", tc_errno_name(rte_errno));
	/* 40 ms into the next tick, 30 ms after the deadline. */
	while (rte_get_timer_cycles() < t0 + ms_to_cyc(130))
		tc_sleep_us(500);
	TP_ASSERT_EQ(rte_service_runstate_set(svc, 1), 0, "resume service");
	while (rte_get_timer_cycles() < t0 + ms_to_cyc(400)) {
		if (rte_event_dequeue_burst(tc_env.evdev, TC_TEST_PORT, &ev,
					    1, 0) == 1) {
			tev = rte_get_timer_cycles();
			break;
		}
		tc_sleep_us(100);
	}
	TP_ASSERT(tev != 0, "no event within 400 ms");
	printf("    event %.1f ms after arm (service resumed at 130 ms)\n",
	       (double)tc_cyc_to_ns(tev - t0) / 1e6);
	TP_ASSERT(tev >= t0 + ms_to_cyc(100), "early");
	TP_ASSERT(tev < t0 + ms_to_cyc(170),
		  "fired at the tick after (%.1f ms), not by the late run",
		  (double)tc_cyc_to_ns(tev - t0) / 1e6);
	TP_ASSERT(ev.event_ptr == t, "event_ptr");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_NOT_ARMED, "state");
	return TP_TEST_OK;
}

/* Many timers with 1 ms ticks and random timeouts: none early. */
TA_CASE(test_expiry_never_early_many)
{
	const unsigned int n = 500;
	struct rte_event_timer *t = timers(n);
	uint64_t *arm_tsc = at_track(rte_zmalloc("arm", sizeof(*arm_tsc) * n,
						 0));
	const uint64_t hz = rte_get_timer_hz();
	uint64_t worst_late = 0;
	unsigned int i, bad, nb_late = 0;
	struct timer_adapter *a;
	struct tc_evcount ec;

	TP_ASSERT(t != NULL && arm_tsc != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, true) == 0, "alloc");
	a = start_adapter(TC_MS, 10 * TC_SEC, 4096, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < n; i++) {
		arm_tsc[i] = rte_get_timer_cycles();
		TP_ASSERT_EQ(arm1(a, &t[i], 1 + rte_rand_max(100)), 1, "arm");
		if (i % 16 == 15)
			tc_dequeue(&ec, 32);
	}
	tc_collect(&ec, n, 5000, 50);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0, "timer %u", bad);
	for (i = 0; i < n; i++) {
		uint64_t tmo = t[i].timeout_ticks * hz / 1000;
		uint64_t due = arm_tsc[i] + tmo;

		TP_ASSERT(ec.first_tsc[i] >= due,
			  "timer %u (%" PRIu64 " ticks) early by %" PRIu64
			  " ns", i, t[i].timeout_ticks,
			  tc_cyc_to_ns(due - ec.first_tsc[i]));
		worst_late = RTE_MAX(worst_late, ec.first_tsc[i] - due);
		nb_late += ec.first_tsc[i] - due > hz / 50;
	}
	/* One tick (1 ms) plus service latency is the normal case. */
	return at_check_lateness(worst_late, nb_late, n);
}

TA_CASE(test_rearm)
{
	struct rte_event_timer *t = timers(1);
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int r;

	TP_ASSERT(t != NULL && evcount(&ec, t, 1, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	/* Re-arm right after expiry: the state is NOT_ARMED already. */
	for (r = 1; r <= 3; r++) {
		TP_ASSERT_EQ(arm1(a, t, 2), 1, "arm %u", r);
		tc_collect(&ec, r, 2000, 0);
		TP_ASSERT_EQ(ec.count[0], r, "events after arm %u", r);
		TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_NOT_ARMED, "state");
	}
	/* Re-arm after cancel: only the second arming fires. */
	TP_ASSERT_EQ(arm1(a, t, 20), 1, "arm");
	TP_ASSERT_EQ(cancel1(a, t), 1, "cancel");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_CANCELED, "state");
	TP_ASSERT_EQ(arm1(a, t, 30), 1, "arm after cancel");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ARMED, "state");
	tc_collect(&ec, 4, 2000, 400);
	TP_ASSERT_EQ(ec.count[0], 4, "events");
	return TP_TEST_OK;
}

TA_CASE(test_burst_4096)
{
	const unsigned int n = 4096;
	struct rte_event_timer *t = timers(n);
	struct rte_event_timer **p = ptrs(t, n);
	struct rte_event_timer_adapter_stats s;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i, bad;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, n, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, NB_TIMERS, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_stats_reset(a), 0, "reset");
	for (i = 0; i < n; i++)
		t[i].timeout_ticks = 5;
	TP_ASSERT_EQ(timer_adapter_arm_burst(a, p, n), n, "arm 4096: %s",
		     tc_errno_name(rte_errno));
	tc_collect(&ec, n, 10000, 100);
	TP_ASSERT_EQ(ec.foreign, 0, "foreign events");
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0,
		     "timer %u: %u events", bad, bad < n ? ec.count[bad] : 0);
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	TP_ASSERT_EQ(s.ev_enq_count, n, "ev_enq_count");
	TP_ASSERT_EQ(s.evtim_exp_count, n, "evtim_exp_count");
	TP_ASSERT_EQ(s.ev_inv_count, 0, "ev_inv_count");
	TP_ASSERT_EQ(timer_adapter_stats_reset(a), 0, "reset");
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	TP_ASSERT_EQ(s.ev_enq_count, 0, "ev_enq_count after reset");
	TP_ASSERT_EQ(s.evtim_exp_count, 0, "evtim_exp_count after reset");
	TP_ASSERT_EQ(s.evtim_retry_count, 0, "retry after reset");
	TP_ASSERT_EQ(s.evtim_drop_count, 0, "drop after reset");
	TP_ASSERT(s.adapter_tick_count <= 1, "ticks after reset");
	return TP_TEST_OK;
}

TA_CASE(test_tick_count)
{
	struct rte_event_timer_adapter_stats s;
	struct timer_adapter *a;

	a = start_adapter(TICK_100MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	tc_sleep_us(150 * 1000);
	TP_ASSERT_EQ(timer_adapter_stats_reset(a), 0, "reset");
	tc_sleep_us(1000 * 1000);
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats");
	printf("    %" PRIu64 " ticks in 1 s\n", s.adapter_tick_count);
	TP_ASSERT(s.adapter_tick_count >= 10 && s.adapter_tick_count <= 12,
		  "%" PRIu64 " ticks of 100 ms in 1 s", s.adapter_tick_count);
	return TP_TEST_OK;
}

static const struct tp_test_case expiry_cases[] = {
	{ "expiry_event_fields", test_expiry_event_fields },
	{ "expiry_never_early", test_expiry_never_early },
	{ "expiry_never_early_many", test_expiry_never_early_many },
	{ "expiry_late_service", test_expiry_late_service },
	{ "rearm", test_rearm },
	{ "burst_4096", test_burst_4096 },
	{ "tick_count", test_tick_count },
};

const struct tp_test_table at_expiry_cases = TP_TEST_TABLE(expiry_cases);
