/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "adapter", control path: create, free, start, stop, lookup, info,
 * service id and stats, with every error.
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
 * Control path.
 */

TA_CASE(test_create_errors)
{
	struct rte_event_timer_adapter_conf c;
	struct timer_adapter *a, *b;
	uint32_t nsvc = rte_service_get_count();
	void *port = (void *)(uintptr_t)TC_ADAPTER_PORT;

	c = tc_conf_make(0, TICK_10MS, MAX_TMO_180S, 4096, 0);

	rte_errno = 0;
	TP_ASSERT(timer_adapter_create_ext(NULL, tc_port_cb, port) == NULL,
		  "NULL conf accepted");
	TP_ASSERT_EQ(rte_errno, EINVAL, "NULL conf");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_create(NULL) == NULL, "NULL conf accepted");
	TP_ASSERT_EQ(rte_errno, EINVAL, "create(NULL)");

#define CREATE_FAILS(field, value, err) do {				\
	struct rte_event_timer_adapter_conf bad_ = c;			\
	bad_.field = (value);						\
	rte_errno = 0;							\
	TP_ASSERT(create(&bad_) == NULL, #field " = " #value " accepted"); \
	TP_ASSERT_EQ(rte_errno, err, #field " = " #value);		\
} while (0)
	CREATE_FAILS(event_dev_id, tc_env.evdev + 1, EINVAL);
	CREATE_FAILS(event_dev_id, 255, EINVAL);
	CREATE_FAILS(timer_tick_ns, 0, EINVAL);
	CREATE_FAILS(max_tmo_ns, TICK_10MS - 1, EINVAL);
	CREATE_FAILS(nb_timers, 0, EINVAL);
	CREATE_FAILS(timer_adapter_id, TIMER_ADAPTER_NUM_MAX, EINVAL);
	CREATE_FAILS(timer_adapter_id, UINT16_MAX, EINVAL);
#undef CREATE_FAILS

	rte_errno = 0;
	TP_ASSERT(timer_adapter_create_ext(&c, NULL, NULL) == NULL,
		  "NULL callback accepted");
	TP_ASSERT_EQ(rte_errno, EINVAL, "NULL callback");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_create_ext(&c, tc_port_cb_fail,
					   (void *)(uintptr_t)EIO) == NULL,
		  "failing callback accepted");
	TP_ASSERT_EQ(rte_errno, EIO, "callback returning -EIO");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_create_ext(&c, tc_port_cb_fail,
					   (void *)(uintptr_t)ENODEV) == NULL,
		  "failing callback accepted");
	TP_ASSERT_EQ(rte_errno, ENODEV, "callback returning -ENODEV");

	/* No failure may leave a service or the id behind. */
	TP_ASSERT_EQ(rte_service_get_count(), nsvc, "services leaked");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_lookup(0) == NULL, "failed create left id 0");
	TP_ASSERT_EQ(rte_errno, ENOENT, "lookup after failed creates");

	a = create(&c);
	TP_ASSERT(a != NULL, "create after failures: %s",
		  tc_errno_name(rte_errno));
	TP_ASSERT_EQ(rte_service_get_count(), nsvc + 1, "one service");
	rte_errno = 0;
	b = create(&c);
	TP_ASSERT(b == NULL, "duplicate id accepted");
	TP_ASSERT_EQ(rte_errno, EEXIST, "duplicate id");
	TP_ASSERT(timer_adapter_lookup(0) == a, "duplicate create broke id 0");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free");
	TP_ASSERT_EQ(rte_service_get_count(), nsvc, "service not released");
	return TP_TEST_OK;
}

TA_CASE(test_max_adapters)
{
	struct rte_event_timer_adapter_conf c;
	struct timer_adapter *a[TIMER_ADAPTER_NUM_MAX];
	uint32_t svc[TIMER_ADAPTER_NUM_MAX];
	uint32_t nsvc = rte_service_get_count();
	unsigned int i, j;

	for (i = 0; i < TIMER_ADAPTER_NUM_MAX; i++) {
		c = tc_conf_make(i, TICK_10MS, MAX_TMO_180S, 64, 0);
		a[i] = create(&c);
		TP_ASSERT(a[i] != NULL, "adapter %u: %s", i,
			  tc_errno_name(rte_errno));
		TP_ASSERT_EQ(timer_adapter_service_id_get(a[i], &svc[i]), 0,
			     "service id of %u", i);
		for (j = 0; j < i; j++) {
			TP_ASSERT(a[j] != a[i], "handles %u and %u", j, i);
			TP_ASSERT(svc[j] != svc[i], "services %u and %u", j, i);
		}
	}
	TP_ASSERT_EQ(rte_service_get_count(), nsvc + TIMER_ADAPTER_NUM_MAX,
		     "one service per adapter");
	c = tc_conf_make(TIMER_ADAPTER_NUM_MAX, TICK_10MS, MAX_TMO_180S, 64, 0);
	rte_errno = 0;
	TP_ASSERT(create(&c) == NULL, "33rd adapter created");
	TP_ASSERT_EQ(rte_errno, EINVAL, "id 32");
	for (i = 0; i < TIMER_ADAPTER_NUM_MAX; i++)
		TP_ASSERT(timer_adapter_lookup(i) == a[i], "lookup %u", i);
	for (i = 0; i < TIMER_ADAPTER_NUM_MAX; i++)
		TP_ASSERT_EQ(timer_adapter_free(a[i]), 0, "free %u", i);
	TP_ASSERT_EQ(rte_service_get_count(), nsvc, "services released");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_lookup(5) == NULL, "id 5 still there");
	TP_ASSERT_EQ(rte_errno, ENOENT, "lookup after free");
	return TP_TEST_OK;
}

TA_CASE(test_free_errors)
{
	struct timer_adapter *a;

	TP_ASSERT_EQ(timer_adapter_free(NULL), -EINVAL, "free(NULL)");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_free(a), -EBUSY, "free while started");
	TP_ASSERT(timer_adapter_lookup(0) == a, "refused free dropped it");
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free");
	TP_ASSERT_EQ(timer_adapter_free(a), -EINVAL, "free twice");
	return TP_TEST_OK;
}

TA_CASE(test_start_stop_errors)
{
	struct rte_event_timer_adapter_conf c;
	const uint32_t w = tc_env.worker_lcore;
	struct timer_adapter *a;
	uint32_t svc;

	c = tc_conf_make(0, TICK_10MS, MAX_TMO_180S, 1024, 0);
	a = create(&c);
	TP_ASSERT(a != NULL, "create");
	TP_ASSERT_EQ(timer_adapter_service_id_get(a, &svc), 0, "service id");
	TP_ASSERT_EQ(timer_adapter_start(NULL), -EINVAL, "start(NULL)");
	TP_ASSERT_EQ(timer_adapter_stop(NULL), -EINVAL, "stop(NULL)");
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop of a stopped adapter");
	TP_ASSERT_EQ(timer_adapter_start(a), -ENOENT, "service unmapped");

	/* Run by the application (mapped check off): runstate needed. */
	TP_ASSERT_EQ(rte_service_set_runstate_mapped_check(svc, 0), 0,
		     "mapped check off");
	TP_ASSERT_EQ(timer_adapter_start(a), -ENOENT, "runstate not set");
	TP_ASSERT_EQ(rte_service_runstate_set(svc, 1), 0, "runstate");
	TP_ASSERT_EQ(timer_adapter_start(a), 0, "start, app lcore");
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop, app lcore");
	TP_ASSERT_EQ(rte_service_set_runstate_mapped_check(svc, 1), 0,
		     "mapped check on");
	TP_ASSERT_EQ(timer_adapter_start(a), -ENOENT, "unmapped, check on");
	TP_ASSERT_EQ(rte_service_runstate_set(svc, 0), 0, "runstate off");

	/*
	 * Two service lcores: lcore 2 becomes one for the check only (it is
	 * never started, mapping needs no running lcore).
	 */
	TP_ASSERT_EQ(rte_service_lcore_add(w), 0, "lcore %u as service", w);
	TP_ASSERT_EQ(rte_service_map_lcore_set(svc, tc_env.svc_lcore, 1), 0,
		     "map 1");
	TP_ASSERT_EQ(rte_service_map_lcore_set(svc, w, 1), 0, "map 2");
	TP_ASSERT_EQ(timer_adapter_start(a), -ENOTSUP, "two lcores mapped");
	TP_ASSERT_EQ(rte_service_map_lcore_set(svc, w, 0), 0, "unmap 2");
	TP_ASSERT_EQ(rte_service_lcore_del(w), 0, "lcore %u back", w);

	TP_ASSERT_EQ(rte_service_runstate_set(svc, 1), 0, "runstate");
	TP_ASSERT_EQ(timer_adapter_start(a), 0, "start");
	TP_ASSERT_EQ(timer_adapter_start(a), -EALREADY, "start twice");
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop");
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop twice");
	TP_ASSERT_EQ(timer_adapter_start(a), 0, "restart");
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free");
	return TP_TEST_OK;
}

/* A stopped adapter keeps its timers; they expire once restarted. */
TA_CASE(test_stop_keeps_timers)
{
	struct rte_event_timer *t = timers(8);
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i, bad;

	TP_ASSERT(t != NULL && evcount(&ec, t, 8, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	for (i = 0; i < 8; i++)
		TP_ASSERT_EQ(arm1(a, &t[i], 3), 1, "arm %u", i);
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop");
	tc_collect(&ec, 0, 200, 200);
	TP_ASSERT_EQ(ec.total, 0, "events while stopped");
	for (i = 0; i < 8; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_ARMED, "%u", i);
	TP_ASSERT_EQ(timer_adapter_start(a), 0, "restart");
	tc_collect(&ec, 8, 2000, 100);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0,
		     "timer %u: %u events", bad,
		     bad < 8 ? ec.count[bad] : 0);
	for (i = 0; i < 8; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_NOT_ARMED,
			     "timer %u", i);
	return TP_TEST_OK;
}

/* free forgets armed timers: they stay ARMED and never fire. */
TA_CASE(test_free_forgets_timers)
{
	struct rte_event_timer *t = timers(8);
	struct rte_event_timer **p = ptrs(t, 8);
	struct timer_adapter_accounting ac;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i;

	TP_ASSERT(t != NULL && p != NULL, "alloc");
	TP_ASSERT(evcount(&ec, t, 8, false) == 0, "alloc");
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "start");
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, p, 5, 8), 8, "arm");
	TP_ASSERT_EQ(timer_adapter_stop(a), 0, "stop");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free with armed timers");
	for (i = 0; i < 8; i++)
		TP_ASSERT_EQ(state(&t[i]), RTE_EVENT_TIMER_ARMED, "timer %u", i);

	/* A new adapter with the same id knows nothing of them. */
	a = start_adapter(TICK_10MS, MAX_TMO_180S, 1024, 0);
	TP_ASSERT(a != NULL, "restart");
	TP_ASSERT_EQ(acct(a, &ac), 0, "accounting");
	TP_ASSERT(ac.armed == 0 && ac.pending == 0, "inherited timers");
	tc_collect(&ec, 0, 300, 300);
	TP_ASSERT_EQ(ec.total, 0, "a forgotten timer fired");
	for (i = 0; i < 8; i++)
		t[i].state = RTE_EVENT_TIMER_NOT_ARMED;
	TP_ASSERT_EQ(timer_adapter_arm_tmo_tick_burst(a, p, 2, 8), 8, "arm");
	tc_collect(&ec, 8, 2000, 100);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &i), 0, "timer %u", i);
	return TP_TEST_OK;
}

TA_CASE(test_lookup)
{
	struct rte_event_timer_adapter_conf c;
	struct timer_adapter *a;

	rte_errno = 0;
	TP_ASSERT(timer_adapter_lookup(7) == NULL, "unknown id found");
	TP_ASSERT_EQ(rte_errno, ENOENT, "unknown id");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_lookup(TIMER_ADAPTER_NUM_MAX) == NULL,
		  "id 32 found");
	TP_ASSERT_EQ(rte_errno, EINVAL, "id 32");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_lookup(UINT16_MAX) == NULL, "id 65535 found");
	TP_ASSERT_EQ(rte_errno, EINVAL, "id 65535");

	c = tc_conf_make(7, TICK_10MS, MAX_TMO_180S, 1024, 0);
	a = create(&c);
	TP_ASSERT(a != NULL, "create");
	TP_ASSERT(timer_adapter_lookup(7) == a, "lookup gives another handle");
	TP_ASSERT(timer_adapter_lookup(7) == a, "second lookup differs");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free");
	rte_errno = 0;
	TP_ASSERT(timer_adapter_lookup(7) == NULL, "freed id found");
	TP_ASSERT_EQ(rte_errno, ENOENT, "freed id");
	return TP_TEST_OK;
}

static int
check_info(const struct rte_event_timer_adapter_conf *c)
{
	struct rte_event_timer_adapter_info info;
	struct timer_adapter *a;

	a = create(c);
	TP_ASSERT(a != NULL, "create");
	memset(&info, 0xa5, sizeof(info));
	TP_ASSERT_EQ(timer_adapter_get_info(a, &info), 0, "get_info");
	TP_ASSERT_EQ(info.min_resolution_ns, c->timer_tick_ns, "resolution");
	TP_ASSERT_EQ(info.max_tmo_ns, c->max_tmo_ns, "max_tmo_ns");
	TP_ASSERT_EQ(info.caps, RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC, "caps");
	TP_ASSERT_EQ(info.caps, TIMER_ADAPTER_CAPS, "caps macro");
	TP_ASSERT_EQ(info.event_dev_port_id, TC_ADAPTER_PORT, "port");
	TP_ASSERT_EQ(info.conf.event_dev_id, c->event_dev_id, "conf dev");
	TP_ASSERT_EQ(info.conf.timer_adapter_id, c->timer_adapter_id, "id");
	TP_ASSERT_EQ(info.conf.socket_id, c->socket_id, "socket");
	TP_ASSERT_EQ(info.conf.clk_src, c->clk_src, "clk_src");
	TP_ASSERT_EQ(info.conf.timer_tick_ns, c->timer_tick_ns, "tick");
	TP_ASSERT_EQ(info.conf.max_tmo_ns, c->max_tmo_ns, "max");
	TP_ASSERT_EQ(info.conf.nb_timers, c->nb_timers, "nb_timers");
	TP_ASSERT_EQ(info.conf.flags, c->flags, "flags");
	TP_ASSERT_EQ(timer_adapter_get_info(a, NULL), -EINVAL, "NULL info");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free");
	return TP_TEST_OK;
}

TA_CASE(test_get_info)
{
	struct rte_event_timer_adapter_info info;
	struct rte_event_timer_adapter_conf c;

	TP_ASSERT_EQ(timer_adapter_get_info(NULL, &info), -EINVAL, "NULL");
	c = tc_conf_make(3, TICK_10MS, MAX_TMO_180S, 4096, 0);
	if (check_info(&c) != TP_TEST_OK)
		return TP_TEST_FAIL;
	c = tc_conf_make(4, 250 * 1000, 7 * TC_SEC, 100,
		      RTE_EVENT_TIMER_ADAPTER_F_PERIODIC |
		      RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES);
	return check_info(&c);
}

TA_CASE(test_service_id)
{
	struct rte_event_timer_adapter_conf c;
	struct timer_adapter *a;
	uint32_t svc = UINT32_MAX, by_name = UINT32_MAX;
	const char *name;

	c = tc_conf_make(3, TICK_10MS, MAX_TMO_180S, 1024, 0);
	a = create(&c);
	TP_ASSERT(a != NULL, "create");
	TP_ASSERT_EQ(timer_adapter_service_id_get(a, &svc), 0, "service id");
	TP_ASSERT_EQ(rte_service_get_by_name("ta_svc_3", &by_name), 0,
		     "no service named ta_svc_3");
	TP_ASSERT_EQ(by_name, svc, "service id");
	name = rte_service_get_name(svc);
	TP_ASSERT(name != NULL && strcmp(name, "ta_svc_3") == 0,
		  "service name '%s', want ta_svc_3", name ? name : "(null)");
	/* As DPDK's call on the DPDK built against: -EINVAL from 23.03. */
	TP_ASSERT_EQ(timer_adapter_service_id_get(a, NULL),
		     COMPAT_DPDK_SERVICE_ID_NULL_EINVAL ? -EINVAL : 0,
		     "NULL out");
	TP_ASSERT_EQ(timer_adapter_service_id_get(NULL, &svc), -EINVAL,
		     "NULL adapter");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free");
	return TP_TEST_OK;
}

TA_CASE(test_stats_args)
{
	struct rte_event_timer_adapter_conf c;
	struct rte_event_timer_adapter_stats s;
	struct timer_adapter_accounting ac;
	struct timer_adapter *a;

	c = tc_conf_make(0, TICK_10MS, MAX_TMO_180S, 1024, 0);
	a = create(&c);
	TP_ASSERT(a != NULL, "create");
	memset(&s, 0xa5, sizeof(s));
	TP_ASSERT_EQ(timer_adapter_stats_get(a, &s), 0, "stats_get");
	TP_ASSERT(s.evtim_exp_count == 0 && s.ev_enq_count == 0 &&
		  s.ev_inv_count == 0 && s.evtim_retry_count == 0 &&
		  s.adapter_tick_count == 0 && s.evtim_drop_count == 0,
		  "fresh adapter has non-zero stats");
	TP_ASSERT_EQ(timer_adapter_stats_get(a, NULL), -EINVAL, "NULL stats");
	TP_ASSERT_EQ(timer_adapter_stats_get(NULL, &s), -EINVAL, "NULL");
	TP_ASSERT_EQ(timer_adapter_stats_reset(NULL), -EINVAL, "reset(NULL)");
	TP_ASSERT_EQ(timer_adapter_stats_reset(a), 0, "reset");
	memset(&ac, 0xa5, sizeof(ac));
	TP_ASSERT_EQ(timer_adapter_accounting_get(a, &ac), 0, "accounting");
	TP_ASSERT(ac.armed == 0 && ac.expired == 0 && ac.cancelled == 0 &&
		  ac.pending == 0, "fresh accounting not zero");
	TP_ASSERT_EQ(timer_adapter_accounting_get(a, NULL), -EINVAL, "NULL");
	TP_ASSERT_EQ(timer_adapter_accounting_get(NULL, &ac), -EINVAL,
		     "NULL adapter");
	TP_ASSERT_EQ(timer_adapter_free(a), 0, "free");
	return TP_TEST_OK;
}

static const struct tp_test_case lifecycle_cases[] = {
	{ "create_errors", test_create_errors },
	{ "max_adapters", test_max_adapters },
	{ "free_errors", test_free_errors },
	{ "start_stop_errors", test_start_stop_errors },
	{ "stop_keeps_timers", test_stop_keeps_timers },
	{ "free_forgets_timers", test_free_forgets_timers },
	{ "lookup", test_lookup },
	{ "get_info", test_get_info },
	{ "service_id", test_service_id },
	{ "stats_args", test_stats_args },
};

const struct tp_test_table at_lifecycle_cases = TP_TEST_TABLE(lifecycle_cases);

/*
 * timer_adapter_create() adds a port to the configured, started device and
 * restarts it. Runs last: it reconfigures the device the other cases use.
 */
TA_CASE(test_default_create)
{
	struct rte_event_timer_adapter_info info;
	struct rte_event_timer_adapter_conf c;
	struct rte_event_timer *t = timers(4);
	uint32_t ports0, ports1, started, svc;
	struct timer_adapter *a;
	struct tc_evcount ec;
	unsigned int i, bad;

	TP_ASSERT(t != NULL && evcount(&ec, t, 4, false) == 0, "alloc");
	TP_ASSERT_EQ(rte_event_dev_attr_get(tc_env.evdev,
		     RTE_EVENT_DEV_ATTR_PORT_COUNT, &ports0), 0, "ports");
	c = tc_conf_make(9, TICK_10MS, MAX_TMO_180S, 1024, 0);
	a = timer_adapter_create(&c);
	TP_ASSERT(a != NULL, "create: %s", tc_errno_name(rte_errno));
	TP_ASSERT_EQ(rte_event_dev_attr_get(tc_env.evdev,
		     RTE_EVENT_DEV_ATTR_PORT_COUNT, &ports1), 0, "ports");
	TP_ASSERT_EQ(ports1, ports0 + 1, "one port added");
	TP_ASSERT_EQ(rte_event_dev_attr_get(tc_env.evdev,
		     RTE_EVENT_DEV_ATTR_STARTED, &started), 0, "started");
	TP_ASSERT_EQ(started, 1, "device not restarted");
	TP_ASSERT_EQ(timer_adapter_get_info(a, &info), 0, "info");
	TP_ASSERT_EQ(info.event_dev_port_id, ports0, "adapter's port");

	/* The reconfigured device still delivers to the test port. */
	TP_ASSERT_EQ(timer_adapter_service_id_get(a, &svc), 0, "service");
	TP_ASSERT_EQ(tc_service_map(svc), 0, "map");
	TP_ASSERT_EQ(timer_adapter_start(a), 0, "start");
	for (i = 0; i < 4; i++)
		TP_ASSERT_EQ(arm1(a, &t[i], 2), 1, "arm %u", i);
	tc_collect(&ec, 4, 2000, 100);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0, "timer %u", bad);
	return TP_TEST_OK;
}

static const struct tp_test_case reconfigure_cases[] = {
	{ "default_create", test_default_create },
};

/* Last (test_adapter.c): it reconfigures the event device. */
const struct tp_test_table at_reconfigure_cases =
	TP_TEST_TABLE(reconfigure_cases);
