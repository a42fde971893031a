/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TEST_ADAPTER_H_
#define _TEST_ADAPTER_H_

/*
 * Suite "adapter": the behaviour of timer_adapter.h, one case per rule,
 * asserting exact return values, rte_errno values and timer states, plus
 * timing (never early), load and exactly-once checks.
 *
 * The cases are grouped in files, each with its table of cases
 * (at_<group>_cases): test_adapter_lifecycle.c, _arm.c, _expiry.c,
 * _periodic.c, _cancel.c, _concurrency.c, _far_ring.c and _clock.c.
 * test_adapter.c
 * holds main(), which runs the tables in that order and
 * at_reconfigure_cases last, and the helpers below that keep state (the
 * running case's allocations, the workers' abort flag). Everything here
 * runs on the main lcore, one case at a time: no lock.
 *
 * Every case leaves the process clean through its wrapper (TA_CASE): any
 * adapter still allocated is stopped and freed, lcore 2 is waited for and
 * pending events are drained, so that one failing case cannot make the
 * following ones fail.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_errno.h>

#include "timer_adapter.h"
#include "tp_test.h"
#include "test_common.h"

#define TICK_10MS (10 * TC_MS)
#define TICK_100MS (100 * TC_MS)
#define MAX_TMO_180S (180 * TC_SEC)
#define NB_TIMERS 40960

/** Cleared by the case wrapper; worker loops give up when it is set. */
extern volatile bool at_worker_abort;

/** Keep p (may be NULL) to be rte_free()d after the running case. */
void *at_track(void *p);

/**
 * After each case: wait for lcore 2, free every adapter, drain the events,
 * free what at_track() kept. Returns TP_TEST_OK or TP_TEST_FAIL.
 */
int at_case_cleanup(void);

/** Declares case fn: its body fn_body() runs, then the cleanup. */
#define TA_CASE(fn)							\
	static int fn##_body(void);					\
	static int							\
	fn(void)							\
	{								\
		int rc_ = fn##_body();					\
		if (at_case_cleanup() != TP_TEST_OK)			\
			rc_ = TP_TEST_FAIL;				\
		return rc_;						\
	}								\
	static int							\
	fn##_body(void)

/**
 * Lateness check shared by the many-timer expiry cases (expiry, far ring):
 * at most a tenth of n timers more than 20 ms late, none more than 1 s.
 */
int at_check_lateness(uint64_t worst_late, unsigned int nb_late,
		      unsigned int n);

/** Work of at_xcancel_remote() on the worker lcore. */
struct xcancel_arg {
	struct timer_adapter *a;
	struct rte_event_timer **p;
	unsigned int nb_single;	/**< cancelled one by one */
	unsigned int nb_burst;	/**< then in bursts of 16 */
	bool arm;		/**< arm (20 ticks) instead of cancelling */
	unsigned int done;	/**< timers armed or cancelled */
};

/**
 * On the worker lcore: cancel x->nb_single timers of x->p one by one, then
 * x->nb_burst in bursts of 16 (or arm x->nb_single of them when x->arm),
 * and wait for it. x->done: timers cancelled or armed. Returns TP_TEST_OK
 * or TP_TEST_FAIL (the lcore could not be launched or did not finish).
 */
int at_xcancel_remote(struct xcancel_arg *x);

/* n timers for the running case (rte_malloc). */
static inline struct rte_event_timer *
timers(unsigned int n)
{
	return at_track(tc_timers_alloc(n));
}

/* Pointers to n timers, for the running case. */
static inline struct rte_event_timer **
ptrs(struct rte_event_timer *tims, unsigned int n)
{
	return at_track(tc_timer_ptrs(tims, n));
}

/* Per-timer event counts, for the running case. */
static inline int
evcount(struct tc_evcount *c, struct rte_event_timer *base, unsigned int n,
	bool with_tsc)
{
	if (tc_evcount_init(c, base, n, with_tsc) < 0)
		return -1;
	at_track(c->count);
	at_track(c->first_tsc);
	return 0;
}

static inline struct timer_adapter *
create(const struct rte_event_timer_adapter_conf *c)
{
	return timer_adapter_create_ext(c, tc_port_cb,
					(void *)(uintptr_t)TC_ADAPTER_PORT);
}

/* Create, map the service to the service lcore and start. */
static inline struct timer_adapter *
start_conf(const struct rte_event_timer_adapter_conf *c)
{
	struct timer_adapter *a;
	uint32_t svc;
	int ret;

	a = create(c);
	if (a == NULL) {
		printf("    create failed: %s\n", tc_errno_name(rte_errno));
		return NULL;
	}
	ret = timer_adapter_service_id_get(a, &svc);
	if (ret == 0)
		ret = tc_service_map(svc);
	if (ret == 0)
		ret = timer_adapter_start(a);
	if (ret != 0) {
		printf("    start failed: %d\n", ret);
		return NULL;
	}
	return a;
}

static inline struct timer_adapter *
start_adapter(uint64_t tick_ns, uint64_t max_tmo_ns, uint64_t nb_timers,
	      uint64_t flags)
{
	struct rte_event_timer_adapter_conf c;

	c = tc_conf_make(0, tick_ns, max_tmo_ns, nb_timers, flags);
	return start_conf(&c);
}

static inline int
state(const struct rte_event_timer *t)
{
	return compat_timer_state_load(t, COMPAT_ACQUIRE);
}

static inline uint16_t
arm1(struct timer_adapter *a, struct rte_event_timer *t, uint64_t ticks)
{
	t->timeout_ticks = ticks;
	return timer_adapter_arm_burst(a, &t, 1);
}

static inline uint16_t
cancel1(struct timer_adapter *a, struct rte_event_timer *t)
{
	return timer_adapter_cancel_burst(a, &t, 1);
}

static inline uint64_t
ms_to_cyc(uint64_t ms)
{
	return ms * rte_get_timer_hz() / 1000;
}

/* Read the accounting, failing loudly if the call itself fails. */
static inline int
acct(struct timer_adapter *a, struct timer_adapter_accounting *ac)
{
	int ret = timer_adapter_accounting_get(a, ac);

	if (ret != 0)
		printf("    timer_adapter_accounting_get: %d\n", ret);
	return ret;
}

/* The tables of cases, one per file, in the order main() runs them. */
extern const struct tp_test_table at_lifecycle_cases;
extern const struct tp_test_table at_arm_cases;
extern const struct tp_test_table at_clock_cases;
extern const struct tp_test_table at_expiry_cases;
extern const struct tp_test_table at_periodic_cases;
extern const struct tp_test_table at_cancel_cases;
extern const struct tp_test_table at_concurrency_cases;
extern const struct tp_test_table at_far_ring_cases;
extern const struct tp_test_table at_reconfigure_cases;

#endif /* _TEST_ADAPTER_H_ */
