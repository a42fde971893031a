/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter" (test_adapter.h): main() and the helpers every case file
 * shares that keep state. Main lcore only, one case at a time: no lock.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include "test_adapter.h"

/* rte_service's RTE_SERVICE_NUM_MAX, which is not exported. */
#define SERVICE_ID_SPACE 64

volatile bool at_worker_abort;

/* Allocations of the running case, released by the case wrapper. */
static void *tracked[32];
static unsigned int nb_tracked;

void *
at_track(void *p)
{
	if (p != NULL && nb_tracked < RTE_DIM(tracked))
		tracked[nb_tracked++] = p;
	return p;
}

int
at_case_cleanup(void)
{
	int rc = TP_TEST_OK;
	unsigned int i;
	uint16_t id;

	at_worker_abort = true;
	if (tc_wait_lcore(tc_env.worker_lcore, 30000) == -ETIMEDOUT) {
		printf("    cleanup: lcore %u still running\n",
		       tc_env.worker_lcore);
		rc = TP_TEST_FAIL;
	}
	at_worker_abort = false;
	/* A case that failed half-way may have left lcore 2 a service lcore. */
	if (rte_lcore_has_role(tc_env.worker_lcore, ROLE_SERVICE) == 1) {
		rte_service_lcore_stop(tc_env.worker_lcore);
		/* Service ids have holes: try the whole id space. */
		for (i = 0; i < SERVICE_ID_SPACE; i++)
			rte_service_map_lcore_set(i, tc_env.worker_lcore, 0);
		rte_service_lcore_del(tc_env.worker_lcore);
	}
	for (id = 0; id < TIMER_ADAPTER_NUM_MAX; id++) {
		struct timer_adapter *a = timer_adapter_lookup(id);

		if (a == NULL)
			continue;
		timer_adapter_stop(a);
		if (timer_adapter_free(a) != 0) {
			printf("    cleanup: cannot free adapter %u\n", id);
			rc = TP_TEST_FAIL;
		}
	}
	tc_quiesce(20);
	for (i = 0; i < nb_tracked; i++)
		rte_free(tracked[i]);
	nb_tracked = 0;
	return rc;
}

/*
 * A host that deschedules the service for a few tens of ms (another busy
 * process on a 2-CPU machine) delays every timer due in that window, so the
 * worst case alone says more about the host than about the adapter. A
 * systematic fault (a far bucket moved a span late, a list skipped for a
 * while) delays a large share of the timers instead, so the check bounds
 * the share late by more than 20 ms (at most a tenth) and the worst case
 * (1 s: not delivered at the right visit at all).
 */
int
at_check_lateness(uint64_t worst_late, unsigned int nb_late,
		  unsigned int n)
{
	const uint64_t hz = rte_get_timer_hz();

	printf("    worst lateness %.3f ms, %u of %u timers over 20 ms\n",
	       (double)tc_cyc_to_ns(worst_late) / 1e6, nb_late, n);
	TP_ASSERT(nb_late <= n / 10, "%u of %u timers more than 20 ms late",
		  nb_late, n);
	TP_ASSERT(worst_late <= hz, "a timer was %.3f ms late",
		  (double)tc_cyc_to_ns(worst_late) / 1e6);
	return TP_TEST_OK;
}

/* lcore function: cancel (or arm) the timers of a struct xcancel_arg. */
static int
xcancel_worker(void *arg)
{
	struct xcancel_arg *x = arg;
	unsigned int i;

	x->done = 0;
	if (x->arm) {
		for (i = 0; i < x->nb_single; i++)
			x->done += arm1(x->a, x->p[i], 20);
		return 0;
	}
	for (i = 0; i < x->nb_single; i++)
		x->done += cancel1(x->a, x->p[i]);
	for (i = 0; i < x->nb_burst; i += 16)
		x->done += timer_adapter_cancel_burst(x->a,
					&x->p[x->nb_single + i], 16);
	return 0;
}

int
at_xcancel_remote(struct xcancel_arg *x)
{
	TP_ASSERT_EQ(rte_eal_remote_launch(xcancel_worker, x,
					   tc_env.worker_lcore), 0, "launch");
	TP_ASSERT_EQ(tc_wait_lcore(tc_env.worker_lcore, 10000), 0, "worker");
	return TP_TEST_OK;
}

int
main(int argc, char **argv)
{
	const struct tp_test_table tables[] = {
		at_lifecycle_cases,
		at_arm_cases,
		at_expiry_cases,
		at_periodic_cases,
		at_cancel_cases,
		at_concurrency_cases,
		at_far_ring_cases,
		at_clock_cases,
		at_reconfigure_cases,
	};

	return tc_suite_main("adapter", tables, RTE_DIM(tables), argc, argv,
			     NULL, NULL);
}
