/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TEST_COMMON_H_
#define _TEST_COMMON_H_

/*
 * Event device and EAL helpers shared by the DPDK-based suites
 * (adapter, differential, secondary).
 *
 * Every suite runs with the layout of tests/meson.build (eal_args):
 *     --lcores='0@0,1@1,2@0' -S 1 --vdev=event_sw0 --no-pci
 * lcore 0 is the main lcore (arms timers, dequeues events), lcore 1 the
 * only service lcore (event_sw's scheduler and the adapters' services) and
 * lcore 2 a worker that shares CPU 0 with main: whenever lcore 2 works, main
 * sleeps instead of spinning (tc_wait_lcore()).
 *
 * The event device is event_sw with queue 0 ATOMIC and queue 1 PARALLEL;
 * port 0 is linked to both and dequeued by the test; ports 1 and 2 are set up
 * before the device starts and handed to adapters by tc_port_cb() (a port
 * cannot be set up on a started device, so the callback returns a ready
 * port instead of configuring one).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>

#include "dpdk_compat.h"

#define TC_QUEUE_ATOMIC 0	/**< Queue 0: RTE_SCHED_TYPE_ATOMIC. */
#define TC_QUEUE_PARALLEL 1	/**< Queue 1: RTE_SCHED_TYPE_PARALLEL. */
#define TC_NB_QUEUES 2
#define TC_TEST_PORT 0		/**< Port dequeued by the tests. */
#define TC_ADAPTER_PORT 1	/**< Port of our adapter. */
#define TC_DPDK_PORT 2		/**< Port of DPDK's adapter (differential). */
#define TC_NB_PORTS 3
#define TC_EVENTS_LIMIT 4096	/**< event_sw's in-flight limit. */

#define TC_MS 1000000ULL	/**< Nanoseconds per millisecond. */
#define TC_SEC 1000000000ULL	/**< Nanoseconds per second. */

/** Lcores and device ids every suite uses. */
struct tc_env {
	uint8_t evdev;		/**< event_sw0's device id. */
	uint32_t svc_lcore;	/**< The service lcore (1). */
	uint32_t worker_lcore;	/**< The worker lcore sharing CPU 0 (2). */
	uint32_t sw_service_id;	/**< event_sw's scheduler service. */
};

extern struct tc_env tc_env;

struct tp_test_table;

/**
 * The main() of a DPDK suite: initialise the EAL (tc_eal_init()) and the
 * event device, call setup (when not NULL), run the tables' cases, call
 * teardown (when not NULL) and close the event device and the EAL. A
 * failed set-up prints "RESULT <suite>: 0 passed, 1 failed".
 * Returns main()'s exit status: 0 iff every case passed.
 */
int tc_suite_main(const char *suite, const struct tp_test_table *tables,
		  unsigned int nb_tables, int argc, char **argv,
		  int (*setup)(void), void (*teardown)(void));

/**
 * Initialise the EAL and check the lcore layout. argv after "--" may hold a
 * case-name filter, returned in *filter (else TP_TEST_FILTER, NULL when
 * neither is set).
 * Returns 0 or -1 (a message has been printed).
 */
int tc_eal_init(int argc, char **argv, const char **filter);

/** Configure, link and start event_sw and its scheduler service. */
int tc_eventdev_setup(void);

/** Stop and close the event device, stop the service lcore. */
void tc_eventdev_teardown(void);

/**
 * Port configuration callback for create_ext: conf_arg carries the
 * (already set up) port id as an uintptr_t.
 */
int tc_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
	       void *conf_arg);

/** A callback that fails with -(int)(uintptr_t)conf_arg. */
int tc_port_cb_fail(uint16_t id, uint8_t event_dev_id,
		    uint8_t *event_port_id, void *conf_arg);

/** Map a service to the service lcore and let it run. Returns 0 or <0. */
int tc_service_map(uint32_t service_id);

/** Fill a timer with the standard template (event_ptr = the timer). */
void tc_timer_init(struct rte_event_timer *t, uint8_t queue_id);

/** rte_zmalloc an array of n timers initialised for queue 0. */
struct rte_event_timer *tc_timers_alloc(unsigned int n);

/** An array of n pointers to tims[0..n-1] (rte_malloc). */
struct rte_event_timer **tc_timer_ptrs(struct rte_event_timer *tims,
				       unsigned int n);

/** Per-timer event counts for an array of timers. */
struct tc_evcount {
	struct rte_event_timer *base;	/**< First timer of the array. */
	unsigned int n;			/**< Number of timers. */
	uint32_t *count;		/**< Events per timer index. */
	uint64_t *first_tsc;		/**< TSC of each timer's first event. */
	uint64_t total;			/**< Events matched to a timer. */
	uint64_t foreign;		/**< event_ptr outside the array. */
	uint64_t bad_type;		/**< Events of another event_type. */
};

/** Allocate per-timer counters (with_tsc: also first-event times). */
int tc_evcount_init(struct tc_evcount *c, struct rte_event_timer *base,
		    unsigned int n, bool with_tsc);
void tc_evcount_reset(struct tc_evcount *c);
void tc_evcount_free(struct tc_evcount *c);

/** Dequeue one burst (up to max events) into c; returns events seen. */
unsigned int tc_dequeue(struct tc_evcount *c, unsigned int max);

/**
 * Dequeue until c->total + c->foreign >= expect and then nothing arrives for
 * quiet_ms, or until max_ms passed. Returns the events seen in this call.
 */
uint64_t tc_collect(struct tc_evcount *c, uint64_t expect, uint32_t max_ms,
		    uint32_t quiet_ms);

/** Dequeue and drop events until none arrived for quiet_ms. */
uint64_t tc_quiesce(uint32_t quiet_ms);

/** Number of timers in c whose count is not exactly want[i] (or 1). */
unsigned int tc_evcount_mismatch(const struct tc_evcount *c,
				 const uint8_t *want, unsigned int *first_bad);

/** Nanoseconds since an arbitrary epoch (the timer TSC). */
uint64_t tc_now_ns(void);

/** Convert TSC cycles to nanoseconds. */
uint64_t tc_cyc_to_ns(uint64_t cycles);

/** Sleep (never spin) for us microseconds. */
void tc_sleep_us(unsigned int us);

/**
 * Wait for a launched lcore while sleeping (main shares its CPU with the
 * worker lcore, so rte_eal_wait_lcore()'s spin would steal its time).
 * Returns the lcore function's return value, or -ETIMEDOUT after max_ms.
 */
int tc_wait_lcore(unsigned int lcore, uint32_t max_ms);

/** Short name of an errno value ("EINVAL"), or its number. */
const char *tc_errno_name(int err);

/* An adapter configuration on the suite's event device. */
struct rte_event_timer_adapter_conf
tc_conf_make(uint16_t id, uint64_t tick_ns, uint64_t max_tmo_ns,
	     uint64_t nb_timers, uint64_t flags);

/*
 * Dequeue the firings of n periodic timers of 100 ms armed just now until
 * each has fired 10 times or 1.5 s have passed: returns the most firings of
 * one timer at 1.05 s, and in *lo the fewest at the end.
 */
unsigned int tc_periodic_collect(struct tc_evcount *ec, unsigned int n,
				 unsigned int *lo);

/*
 * Start this very program again as a DPDK secondary process on lcore 3
 * (CPU 0): --proc-type=secondary, the primary's file_prefix argument
 * ("--file-prefix=..."), the given extra EAL arguments and, after "--",
 * the application argument app (none if NULL). Returns the child's pid,
 * or -1.
 */
pid_t tc_spawn_secondary(const char *file_prefix, const char *const *eal_extra,
			 const char *app);

#endif /* _TEST_COMMON_H_ */
