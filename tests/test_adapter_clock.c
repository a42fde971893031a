/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", application clock (TIMER_ADAPTER_F_CLOCK): ticks from
 * timer_adapter_clock_set(), expiry of exactly the timers due at or before
 * the clock, nothing while it stands still, older times ignored and
 * counted, the calls refused on a TSC adapter.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include "test_adapter.h"

/* A capture-like epoch: the clock starts far from 0. */
#define CLK_BASE ((uint64_t)1700000000 * TC_SEC)

static struct timer_adapter *
start_clock_adapter(uint64_t tick_ns, uint64_t nb_timers)
{
	return start_adapter(tick_ns, MAX_TMO_180S, nb_timers,
			     TIMER_ADAPTER_F_CLOCK);
}

/*
 * Wait (up to 2 s of real time) until the service has run at the clock's
 * value with nothing due left undelivered.
 */
static int
clock_settle(struct timer_adapter *a, struct timer_adapter_clock *c)
{
	uint64_t end = rte_get_timer_cycles() + ms_to_cyc(2000);

	do {
		if (timer_adapter_clock_get(a, c) != 0)
			return -1;
		if (c->done_ns >= c->now_ns)
			return 0;
		tc_sleep_us(100);
	} while (rte_get_timer_cycles() < end);
	printf("    service did not reach the clock (done %" PRIu64
	       ", now %" PRIu64 ")\n", c->done_ns, c->now_ns);
	return -1;
}

/* Set the clock, let the service run there, dequeue what it delivered. */
static int
clock_step(struct timer_adapter *a, struct tc_evcount *ec, uint64_t ns)
{
	struct timer_adapter_clock c;
	unsigned int got;

	if (timer_adapter_clock_set(a, ns) != 0 || clock_settle(a, &c) != 0)
		return -1;
	/* Every delivered event is in the device: dequeue them all. */
	do {
		got = tc_dequeue(ec, 64);
	} while (got != 0 || ec->total + ec->foreign < c.delivered);
	return 0;
}

TA_CASE(test_clock_exact_expiry)
{
	const uint64_t tick = TICK_10MS;
	struct rte_event_timer *t = timers(1);
	struct tc_evcount ec;
	struct timer_adapter *a;
	uint64_t rem;

	TP_ASSERT(t != NULL && evcount(&ec, t, 1, false) == 0, "alloc");
	a = start_clock_adapter(tick, 1024);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(clock_step(a, &ec, CLK_BASE), 0, "clock at base");
	/* Due at base + 5 ticks (base is a whole number of ticks). */
	TP_ASSERT_EQ(arm1(a, t, 5), 1, "arm: %s", tc_errno_name(rte_errno));
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, t, &rem), 0, "rem");
	TP_ASSERT_EQ(rem, 5, "remaining ticks in clock time");
	/* Real time passing changes nothing. */
	tc_sleep_us(200 * 1000);
	TP_ASSERT_EQ(clock_step(a, &ec, CLK_BASE), 0, "same clock");
	TP_ASSERT_EQ(ec.total, 0, "fired while the clock stood still");
	TP_ASSERT_EQ(clock_step(a, &ec, CLK_BASE + 2 * tick + 1), 0, "step");
	TP_ASSERT_EQ(timer_adapter_remaining_ticks_get(a, t, &rem), 0, "rem");
	TP_ASSERT_EQ(rem, 3, "remaining ticks after 2 ticks and 1 ns");
	TP_ASSERT_EQ(clock_step(a, &ec, CLK_BASE + 5 * tick - 1), 0, "step");
	TP_ASSERT_EQ(ec.total, 0, "fired 1 ns before its deadline");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_ARMED, "still armed");
	TP_ASSERT_EQ(clock_step(a, &ec, CLK_BASE + 5 * tick), 0, "step");
	TP_ASSERT_EQ(ec.total, 1, "not fired at its deadline");
	TP_ASSERT_EQ(state(t), RTE_EVENT_TIMER_NOT_ARMED, "state");
	return TP_TEST_OK;
}

/*
 * Many timers, random timeouts, armed at random clock values: after each
 * random step of the clock, exactly the timers due (deadline rounded up to
 * a tick) at or before it have fired, each once.
 */
TA_CASE(test_clock_random_steps)
{
	const unsigned int n = 2000;
	const uint64_t tick = TICK_10MS;
	struct rte_event_timer *t = timers(n);
	struct rte_event_timer **p = ptrs(t, n);
	uint64_t *due = at_track(rte_zmalloc(NULL, n * sizeof(*due), 0));
	struct tc_evcount ec;
	struct timer_adapter *a;
	uint64_t clk = CLK_BASE + 3, fired, i, want;

	TP_ASSERT(t != NULL && p != NULL && due != NULL &&
		  evcount(&ec, t, n, false) == 0, "alloc");
	a = start_clock_adapter(tick, n);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(clock_step(a, &ec, clk), 0, "base");
	for (i = 0; i < n; i++) {
		/* Arm at a random clock value, in bursts of 50. */
		if (i % 50 == 0) {
			clk += rte_rand_max(tick);
			TP_ASSERT_EQ(timer_adapter_clock_set(a, clk), 0, "set");
		}
		t[i].timeout_ticks = 1 + rte_rand_max(200);
		/* Rounded up to a tick, as the adapter does. */
		due[i] = (clk + t[i].timeout_ticks * tick + tick - 1) / tick *
			tick;
		TP_ASSERT_EQ(timer_adapter_arm_burst(a, &p[i], 1), 1,
			     "arm %" PRIu64, i);
	}
	while (ec.total < n) {
		clk += rte_rand_max(5 * tick);
		TP_ASSERT_EQ(clock_step(a, &ec, clk), 0, "step");
		for (i = 0, fired = 0; i < n; i++) {
			want = due[i] <= clk;
			TP_ASSERT_EQ(ec.count[i], want, "timer %" PRIu64
				     " due at +%" PRIu64 " ns, clock +%"
				     PRIu64, i, (uint64_t)(due[i] - CLK_BASE),
				     (uint64_t)(clk - CLK_BASE));
			fired += want;
		}
		TP_ASSERT_EQ(ec.total, fired, "events");
	}
	TP_ASSERT_EQ(ec.foreign, 0, "foreign events");
	return TP_TEST_OK;
}

/* An older time is ignored and counted; the clock never goes back. */
TA_CASE(test_clock_backwards)
{
	struct rte_event_timer *t = timers(1);
	struct timer_adapter_clock c;
	struct tc_evcount ec;
	struct timer_adapter *a;

	TP_ASSERT(t != NULL && evcount(&ec, t, 1, false) == 0, "alloc");
	a = start_clock_adapter(TICK_10MS, 1024);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_clock_get(a, &c), 0, "get");
	TP_ASSERT_EQ(c.now_ns, 0, "starts at 0");
	TP_ASSERT_EQ(c.next_ns, UINT64_MAX, "nothing pending");
	TP_ASSERT_EQ(timer_adapter_clock_set(a, CLK_BASE), 0, "set");
	TP_ASSERT_EQ(arm1(a, t, 10), 1, "arm");
	TP_ASSERT_EQ(timer_adapter_clock_get(a, &c), 0, "get");
	/* No far ring on this clock: the hint is the deadline itself. */
	TP_ASSERT_EQ(c.next_ns, CLK_BASE + 10 * TICK_10MS, "next expiry");
	TP_ASSERT_EQ(timer_adapter_clock_set(a, CLK_BASE + 9 * TICK_10MS), 0,
		     "set");
	TP_ASSERT_EQ(timer_adapter_clock_set(a, CLK_BASE + 9 * TICK_10MS), 0,
		     "the same time again");
	TP_ASSERT_EQ(timer_adapter_clock_set(a, CLK_BASE + 9 * TICK_10MS - 1),
		     -ERANGE, "older time");
	TP_ASSERT_EQ(timer_adapter_clock_set(a, 0), -ERANGE, "0");
	TP_ASSERT_EQ(clock_settle(a, &c), 0, "settle");
	TP_ASSERT_EQ(c.now_ns, CLK_BASE + 9 * TICK_10MS, "clock went back");
	TP_ASSERT_EQ(c.backwards, 2, "older times counted");
	tc_sleep_us(100 * 1000);
	TP_ASSERT_EQ(tc_dequeue(&ec, 16), 0, "fired early");
	TP_ASSERT_EQ(clock_step(a, &ec, CLK_BASE + 10 * TICK_10MS), 0, "step");
	TP_ASSERT_EQ(ec.total, 1, "fired at its deadline");
	TP_ASSERT_EQ(timer_adapter_clock_get(a, &c), 0, "get");
	TP_ASSERT_EQ(c.next_ns, UINT64_MAX, "nothing pending");
	TP_ASSERT_EQ(c.delivered, 1, "delivered");
	return TP_TEST_OK;
}

/* The clock calls are refused on a TSC adapter and on bad arguments. */
TA_CASE(test_clock_refused)
{
	struct timer_adapter_clock c;
	struct timer_adapter *a;

	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_clock_set(a, 1), -EINVAL, "TSC adapter");
	TP_ASSERT_EQ(timer_adapter_clock_get(a, &c), -EINVAL, "TSC adapter");
	TP_ASSERT_EQ(timer_adapter_clock_set(NULL, 1), -EINVAL, "NULL");
	TP_ASSERT_EQ(timer_adapter_clock_get(NULL, &c), -EINVAL, "NULL");
	return TP_TEST_OK;
}

static const struct tp_test_case clock_cases[] = {
	{ "clock_exact_expiry", test_clock_exact_expiry },
	{ "clock_random_steps", test_clock_random_steps },
	{ "clock_backwards", test_clock_backwards },
	{ "clock_refused", test_clock_refused },
};

const struct tp_test_table at_clock_cases = TP_TEST_TABLE(clock_cases);
