/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "event_direct_secondary": a secondary process arms and cancels
 * through DPDK's API over the event_direct driver. The primary takes
 * event_sw0 over (rte_vdev_init("event_direct0")), creates an adapter with
 * rte_event_timer_adapter_create_ext() and re-executes itself with
 * --proc-type=secondary and the same --file-prefix. The secondary, which
 * has the driver too (this binary links it), probes the primary's vdevs,
 * so event_direct0 takes event_sw0 over in the secondary as well; it
 * attaches with rte_event_timer_adapter_lookup(), arms SEC_N timers that
 * live in a memzone with rte_event_timer_arm_burst() and cancels every
 * fourth with rte_event_timer_cancel_burst(). The primary then checks that
 * the armed, uncancelled timers' events arrive exactly once and the
 * cancelled ones never, and that our library counted the arms and cancels
 * (so they did not go to DPDK's software adapter).
 *
 * Needs hugepages shared between processes (tests/meson.build runs it
 * without --no-huge).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_event_timer_adapter.h>
#include <rte_memzone.h>
#include <rte_service.h>

#include "timer_adapter.h"
#include "tp_test.h"
#include "test_common.h"

#define SEC_MZ "tp_test_ed_secondary"
#define SEC_N 256
#define SEC_ID 3

/* Shared with the secondary: the timers and what it did. */
struct sec_shm {
	struct rte_event_timer tims[SEC_N];
	unsigned int armed;
	unsigned int cancelled;
	int lookup_ok;
};

static char file_prefix[128] = "--file-prefix=rte";

/* The secondary: attach through DPDK's API, arm, cancel every fourth. */
static int
secondary_main(void)
{
	const struct rte_memzone *mz = rte_memzone_lookup(SEC_MZ);
	struct rte_event_timer *p[SEC_N / 4];
	struct rte_event_timer_adapter *a;
	struct sec_shm *shm;
	unsigned int i, k = 0;

	if (mz == NULL)
		return 2;
	shm = mz->addr;
	a = rte_event_timer_adapter_lookup(SEC_ID);
	if (a == NULL)
		return 3;
	shm->lookup_ok = 1;
	for (i = 0; i < SEC_N; i++) {
		struct rte_event_timer *t = &shm->tims[i];

		shm->armed += rte_event_timer_arm_burst(a, &t, 1);
		if (i % 4 == 0)
			p[k++] = t;
	}
	shm->cancelled = rte_event_timer_cancel_burst(a, p, k);
	return 0;
}

static pid_t
spawn_secondary(void)
{
	return tc_spawn_secondary(file_prefix, NULL, NULL);
}

static int
sec_check(struct rte_event_timer_adapter *a, struct sec_shm *shm)
{
	struct timer_adapter_accounting acct;
	unsigned int i, first = 0, bad;
	struct tc_evcount ec;
	uint8_t want[SEC_N];
	int status = -1;
	pid_t pid;

	for (i = 0; i < SEC_N; i++) {
		tc_timer_init(&shm->tims[i], TC_QUEUE_ATOMIC);
		shm->tims[i].timeout_ticks = 20 + i % 16;
		want[i] = i % 4 == 0 ? 0 : 1;
	}
	pid = spawn_secondary();
	TP_ASSERT(pid > 0, "fork");
	TP_ASSERT_EQ(tc_evcount_init(&ec, shm->tims, SEC_N, false), 0, "ec");
	/* Its timers expire 20 to 36 ms after it arms them: dequeue. */
	while (waitpid(pid, &status, WNOHANG) == 0)
		tc_dequeue(&ec, 64);
	tc_collect(&ec, SEC_N - SEC_N / 4, 3000, 100);
	bad = tc_evcount_mismatch(&ec, want, &first);
	tc_evcount_free(&ec);
	TP_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "secondary failed: status %d", status);
	TP_ASSERT(shm->lookup_ok, "secondary's lookup");
	TP_ASSERT_EQ(shm->armed, SEC_N, "armed by the secondary");
	TP_ASSERT_EQ(shm->cancelled, SEC_N / 4, "cancelled by the secondary");
	TP_ASSERT_EQ(bad, 0, "events not as armed and cancelled (first %u)",
		     first);
	TP_ASSERT_EQ(timer_adapter_accounting_get(timer_adapter_lookup(SEC_ID),
						  &acct), 0, "acct");
	TP_ASSERT(acct.armed == SEC_N && acct.cancelled == SEC_N / 4,
		  "lib_timer_adapter counted %u armed, %u cancelled",
		  (unsigned int)acct.armed, (unsigned int)acct.cancelled);
	RTE_SET_USED(a);
	return TP_TEST_OK;
}

static int
test_secondary_arms(void)
{
	struct rte_event_timer_adapter_conf c;
	struct rte_event_timer_adapter *a;
	const struct rte_memzone *mz;
	uint32_t svc;
	int ret = TP_TEST_FAIL;

	TP_ASSERT_EQ(rte_vdev_init("event_direct0", NULL), 0, "vdev init");
	mz = rte_memzone_reserve(SEC_MZ, sizeof(struct sec_shm),
				 rte_socket_id(), 0);
	c = tc_conf_make(SEC_ID, TC_MS, 10 * TC_SEC, 4096, 0);
	a = rte_event_timer_adapter_create_ext(&c, tc_port_cb,
			(void *)(uintptr_t)TC_DPDK_PORT);
	if (mz != NULL && a != NULL &&
	    rte_event_timer_adapter_service_id_get(a, &svc) == 0 &&
	    tc_service_map(svc) == 0 &&
	    rte_event_timer_adapter_start(a) == 0) {
		memset(mz->addr, 0, sizeof(struct sec_shm));
		ret = sec_check(a, mz->addr);
	} else {
		printf("    set-up failed: memzone %p adapter %p (%s)\n",
		       (const void *)mz, (void *)a, tc_errno_name(rte_errno));
	}
	if (a != NULL) {
		rte_event_timer_adapter_stop(a);
		rte_event_timer_adapter_free(a);
	}
	tc_quiesce(20);
	rte_memzone_free(mz);
	if (rte_vdev_uninit("event_direct0") != 0)
		ret = TP_TEST_FAIL;
	return ret;
}

static const struct tp_test_case cases[] = {
	{ "secondary_arms", test_secondary_arms },
};

int
main(int argc, char **argv)
{
	static const struct tp_test_table table = TP_TEST_TABLE(cases);
	int i;

	/* Before rte_eal_init(), whose getopt may reorder argv. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--proc-type=secondary") == 0) {
			if (rte_eal_init(argc, argv) < 0)
				return 4;
			/* No rte_eal_cleanup(): it would remove the vdevs. */
			return secondary_main();
		}
		if (strncmp(argv[i], "--file-prefix=", 14) == 0)
			snprintf(file_prefix, sizeof(file_prefix), "%s",
				 argv[i]);
	}
	return tc_suite_main("event_direct_secondary", &table, 1, argc, argv,
			     NULL, NULL);
}
