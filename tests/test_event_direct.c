/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "event_direct": the event_direct driver (drivers/event_direct),
 * linked in as its static archive, seen only through DPDK's API. Each case
 * takes event_sw0 over with rte_vdev_init("event_direct0") and gives it
 * back with rte_vdev_uninit():
 * - takeover: caps, which adapter DPDK's create makes (ours only while
 *   the vdev is there), the port and service DPDK reports are ours;
 * - args: dev=NAME, unknown arguments, a device taken twice, no device;
 * - fast_path: rte_event_timer_arm_burst, _arm_tmo_tick_burst and
 *   _cancel_burst land in lib_timer_adapter (its accounting counts them)
 *   and every expiry event arrives once;
 * - telemetry: DPDK's /eventdev/ta_info and /eventdev/ta_stats report our
 *   adapter's figures, and our /timer_adapter/ commands list it, read
 *   from this process's own telemetry socket.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_event_timer_adapter.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include "timer_adapter.h"
#include "tp_test.h"
#include "test_common.h"

#define ED_NAME "event_direct0"
#define TICK_1MS TC_MS
#define NB_TIM 64

static struct rte_event_timer *tims;
static struct rte_event_timer **tp;

/* Create an rte adapter with id 0 on the test's DPDK port. */
static struct rte_event_timer_adapter *
rte_create(void)
{
	struct rte_event_timer_adapter_conf c;

	c = tc_conf_make(0, TICK_1MS, 10 * TC_SEC, 4096, 0);
	return rte_event_timer_adapter_create_ext(&c, tc_port_cb,
			(void *)(uintptr_t)TC_DPDK_PORT);
}

/* Create, map the service, start: an adapter ready to arm, or NULL. */
static struct rte_event_timer_adapter *
rte_start_new(void)
{
	struct rte_event_timer_adapter *a = rte_create();
	uint32_t svc;

	if (a == NULL)
		return NULL;
	if (rte_event_timer_adapter_service_id_get(a, &svc) != 0 ||
	    tc_service_map(svc) != 0 ||
	    rte_event_timer_adapter_start(a) != 0) {
		rte_event_timer_adapter_free(a);
		return NULL;
	}
	return a;
}

/* The vdev probed and an adapter started through it; NULL (vdev gone). */
static struct rte_event_timer_adapter *
ed_start_new(void)
{
	struct rte_event_timer_adapter *a;

	if (rte_vdev_init(ED_NAME, NULL) != 0)
		return NULL;
	a = rte_start_new();
	if (a == NULL)
		rte_vdev_uninit(ED_NAME);
	return a;
}

static void
rte_stop_free(struct rte_event_timer_adapter *a)
{
	rte_event_timer_adapter_stop(a);
	rte_event_timer_adapter_free(a);
	tc_quiesce(20);
}

static int
test_takeover(void)
{
	struct rte_event_timer_adapter_info info, ours_info;
	struct rte_event_timer_adapter *a;
	struct timer_adapter *ours;
	uint32_t caps = 0, svc = 0, ours_svc = 0;

	/* Without the driver: DPDK's adapter, none of ours. */
	a = rte_create();
	TP_ASSERT(a != NULL, "DPDK's create: %s", tc_errno_name(rte_errno));
	TP_ASSERT(timer_adapter_lookup(0) == NULL,
		  "ours created without the driver");
	TP_ASSERT_EQ(rte_event_timer_adapter_free(a), 0, "free");

	TP_ASSERT_EQ(rte_vdev_init(ED_NAME, NULL), 0, "vdev init");
	TP_ASSERT_EQ(rte_event_timer_adapter_caps_get(tc_env.evdev, &caps), 0,
		     "caps_get");
	TP_ASSERT(caps & RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC, "no PERIODIC");
	TP_ASSERT(!(caps & RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT),
		  "INTERNAL_PORT");
	a = rte_create();
	TP_ASSERT(a != NULL, "create via the driver: %s",
		  tc_errno_name(rte_errno));
	ours = timer_adapter_lookup(0);
	TP_ASSERT(ours != NULL, "DPDK's create made no adapter of ours");
	TP_ASSERT_EQ(rte_event_timer_adapter_get_info(a, &info), 0, "info");
	TP_ASSERT_EQ(timer_adapter_get_info(ours, &ours_info), 0, "our info");
	TP_ASSERT_EQ(info.event_dev_port_id, TC_DPDK_PORT, "rte port");
	TP_ASSERT_EQ(ours_info.event_dev_port_id, TC_DPDK_PORT,
		     "our adapter's port is not the one DPDK got");
	TP_ASSERT_EQ(rte_event_timer_adapter_service_id_get(a, &svc), 0,
		     "service_id_get");
	TP_ASSERT_EQ(timer_adapter_service_id_get(ours, &ours_svc), 0,
		     "our service_id_get");
	TP_ASSERT_EQ(svc, ours_svc, "DPDK reports another service");
	TP_ASSERT_EQ(rte_event_timer_adapter_free(a), 0, "free");
	TP_ASSERT(timer_adapter_lookup(0) == NULL, "ours outlives free");

	/* Given back: DPDK's adapter again. */
	TP_ASSERT_EQ(rte_vdev_uninit(ED_NAME), 0, "vdev uninit");
	a = rte_create();
	TP_ASSERT(a != NULL, "DPDK's create after uninit");
	TP_ASSERT(timer_adapter_lookup(0) == NULL,
		  "ours created after the driver was removed");
	TP_ASSERT_EQ(rte_event_timer_adapter_free(a), 0, "free");
	return TP_TEST_OK;
}

static int
test_args(void)
{
	TP_ASSERT(rte_vdev_init(ED_NAME, "dev=no_such_dev") < 0,
		  "unknown device accepted");
	TP_ASSERT(rte_vdev_init(ED_NAME, "bogus=1") < 0,
		  "unknown argument accepted");
	TP_ASSERT_EQ(rte_vdev_init(ED_NAME, "dev=event_sw0"), 0, "dev=");
	TP_ASSERT(rte_vdev_init("event_direct1", "dev=event_sw0") < 0,
		  "a device taken over twice");
	TP_ASSERT(rte_vdev_init("event_direct1", NULL) < 0,
		  "probe with no device left to take succeeded");
	TP_ASSERT_EQ(rte_vdev_uninit(ED_NAME), 0, "vdev uninit");
	return TP_TEST_OK;
}

/* Arm through DPDK's inline calls, collect, cancel; ours counts them. */
static int
fast_path_run(struct rte_event_timer_adapter *a, struct timer_adapter *ours)
{
	struct timer_adapter_accounting acct;
	struct tc_evcount ec;
	unsigned int i, bad = 0, first = 0;
	uint16_t n;

	for (i = 0; i < NB_TIM; i++) {
		tc_timer_init(&tims[i], TC_QUEUE_ATOMIC);
		tims[i].timeout_ticks = 5 + i % 8;
	}
	n = rte_event_timer_arm_burst(a, tp, NB_TIM / 2);
	TP_ASSERT_EQ(n, NB_TIM / 2, "arm_burst: %s", tc_errno_name(rte_errno));
	n = rte_event_timer_arm_tmo_tick_burst(a, tp + NB_TIM / 2, 10,
					       NB_TIM / 2);
	TP_ASSERT_EQ(n, NB_TIM / 2, "arm_tmo_tick_burst");
	TP_ASSERT_EQ(timer_adapter_accounting_get(ours, &acct), 0, "acct");
	TP_ASSERT_EQ(acct.armed, NB_TIM, "armed in lib_timer_adapter");
	TP_ASSERT_EQ(tc_evcount_init(&ec, tims, NB_TIM, false), 0, "evcount");
	tc_collect(&ec, NB_TIM, 3000, 50);
	bad = tc_evcount_mismatch(&ec, NULL, &first);
	tc_evcount_free(&ec);
	TP_ASSERT_EQ(bad, 0, "timers not fired exactly once (first %u)", first);

	for (i = 0; i < 8; i++) {
		tc_timer_init(&tims[i], TC_QUEUE_ATOMIC);
		tims[i].timeout_ticks = 5000;
	}
	TP_ASSERT_EQ(rte_event_timer_arm_burst(a, tp, 8), 8, "arm long");
	TP_ASSERT_EQ(rte_event_timer_cancel_burst(a, tp, 8), 8, "cancel");
	TP_ASSERT_EQ(timer_adapter_accounting_get(ours, &acct), 0, "acct");
	TP_ASSERT_EQ(acct.cancelled, 8, "cancelled in lib_timer_adapter");
	TP_ASSERT_EQ(acct.pending, 0, "pending");
	return TP_TEST_OK;
}

static int
test_fast_path(void)
{
	struct rte_event_timer_adapter *a;
	int ret;

	a = ed_start_new();
	TP_ASSERT(a != NULL, "vdev init, create and start via the driver");
	ret = fast_path_run(a, timer_adapter_lookup(0));
	rte_stop_free(a);
	TP_ASSERT_EQ(rte_vdev_uninit(ED_NAME), 0, "vdev uninit");
	return ret;
}

/* One telemetry command on this process's socket; reply in buf. */
static int
tel_query(const char *cmd, char *buf, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	ssize_t n;
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    recv(fd, buf, len - 1, 0) <= 0 || /* the greeting */
	    send(fd, cmd, strlen(cmd), 0) < 0 ||
	    (n = recv(fd, buf, len - 1, 0)) <= 0) {
		close(fd);
		return -EIO;
	}
	buf[n] = '\0';
	close(fd);
	return 0;
}

/* Whether the reply holds "key":value. */
static bool
tel_has(const char *reply, const char *key, uint64_t value)
{
	char want[96];

	snprintf(want, sizeof(want), "\"%s\":%" PRIu64, key, value);
	return strstr(reply, want) != NULL;
}

static int
tel_check(struct timer_adapter *ours)
{
	struct rte_event_timer_adapter_stats st;
	char buf[4096];

	TP_ASSERT_EQ(timer_adapter_stats_get(ours, &st), 0, "our stats");
	TP_ASSERT(st.evtim_exp_count == NB_TIM, "expired %" PRIu64,
		  st.evtim_exp_count);
	TP_ASSERT_EQ(tel_query("/eventdev/ta_stats,0", buf, sizeof(buf)), 0,
		     "telemetry socket");
	TP_ASSERT(tel_has(buf, "evtim_exp_count", st.evtim_exp_count) &&
		  tel_has(buf, "ev_enq_count", st.ev_enq_count) &&
		  tel_has(buf, "adapter_tick_count", st.adapter_tick_count),
		  "ta_stats not ours: %s", buf);
	TP_ASSERT_EQ(tel_query("/eventdev/ta_info,0", buf, sizeof(buf)), 0,
		     "ta_info");
	TP_ASSERT(tel_has(buf, "min_resolution_ns", TICK_1MS) &&
		  tel_has(buf, "max_tmo_ns", 10 * TC_SEC),
		  "ta_info: %s", buf);
	TP_ASSERT_EQ(tel_query("/timer_adapter/list", buf, sizeof(buf)), 0,
		     "list");
	TP_ASSERT(strstr(buf, "[0]") != NULL, "our list: %s", buf);
	TP_ASSERT_EQ(tel_query("/timer_adapter/stats,0", buf, sizeof(buf)), 0,
		     "our stats command");
	TP_ASSERT(tel_has(buf, "evtim_exp_count", st.evtim_exp_count),
		  "our stats: %s", buf);
	return TP_TEST_OK;
}

static int
test_telemetry(void)
{
	struct rte_event_timer_adapter *a;
	struct timer_adapter *ours;
	int ret;

	a = ed_start_new();
	TP_ASSERT(a != NULL, "vdev init, create and start via the driver");
	ours = timer_adapter_lookup(0);
	ret = fast_path_run(a, ours);
	/* Stopped: adapter_tick_count no longer moves between the reads. */
	if (ret == TP_TEST_OK && rte_event_timer_adapter_stop(a) != 0)
		ret = TP_TEST_FAIL;
	if (ret == TP_TEST_OK)
		ret = tel_check(ours);
	rte_event_timer_adapter_free(a);
	tc_quiesce(20);
	TP_ASSERT_EQ(rte_vdev_uninit(ED_NAME), 0, "vdev uninit");
	return ret;
}

static const struct tp_test_case cases[] = {
	{ "takeover", test_takeover },
	{ "args", test_args },
	{ "fast_path", test_fast_path },
	{ "telemetry", test_telemetry },
};

static int
timers_setup(void)
{
	tims = tc_timers_alloc(NB_TIM);
	tp = tims == NULL ? NULL : tc_timer_ptrs(tims, NB_TIM);
	return tp == NULL ? -1 : 0;
}

static void
timers_teardown(void)
{
	rte_free(tp);
	rte_free(tims);
}

int
main(int argc, char **argv)
{
	static const struct tp_test_table table = TP_TEST_TABLE(cases);

	return tc_suite_main("event_direct", &table, 1, argc, argv,
			     timers_setup, timers_teardown);
}
