/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include "test_common.h"
#include "tp_test.h"

struct tc_env tc_env;

int
tc_eal_init(int argc, char **argv, const char **filter)
{
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("rte_eal_init failed: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	argc -= ret;
	argv += ret;
	/*
	 * What follows "--" (consumed by the EAL) is an optional filter,
	 * else TP_TEST_FILTER.
	 */
	*filter = tp_test_filter(argc, argv);

	tc_env.svc_lcore = 1;
	tc_env.worker_lcore = 2;
	if (rte_lcore_id() != 0 ||
	    rte_lcore_has_role(tc_env.svc_lcore, ROLE_SERVICE) != 1 ||
	    !rte_lcore_is_enabled(tc_env.worker_lcore) ||
	    rte_lcore_has_role(tc_env.worker_lcore, ROLE_RTE) != 1) {
		printf("expected main lcore 0, service lcore 1 and worker "
		       "lcore 2: run with --lcores='0@0,1@1,2@0' -S 1\n");
		return -1;
	}
	return 0;
}

static int
tc_setup_ports(uint8_t dev)
{
	struct rte_event_port_conf pconf;
	unsigned int p;
	int ret;

	for (p = 0; p < TC_NB_PORTS; p++) {
		ret = rte_event_port_default_conf_get(dev, p, &pconf);
		if (ret < 0)
			return ret;
		/*
		 * Let every port use the whole in-flight budget: the tests
		 * measure the adapter's backpressure handling, not a
		 * per-port threshold.
		 */
		pconf.new_event_threshold = TC_EVENTS_LIMIT;
		if (p == TC_TEST_PORT)
			pconf.dequeue_depth = 32;
		ret = rte_event_port_setup(dev, p, &pconf);
		if (ret < 0)
			return ret;
	}
	/* Only the test port is linked: adapters enqueue, never dequeue. */
	ret = rte_event_port_link(dev, TC_TEST_PORT, NULL, NULL, 0);
	return ret == TC_NB_QUEUES ? 0 : -EIO;
}

int
tc_eventdev_setup(void)
{
	struct rte_event_dev_config conf;
	struct rte_event_queue_conf qconf;
	struct rte_event_dev_info info;
	int dev, ret;

	dev = rte_event_dev_get_dev_id("event_sw0");
	if (dev < 0) {
		printf("no event_sw0 device (--vdev=event_sw0)\n");
		return -1;
	}
	tc_env.evdev = dev;
	ret = rte_event_dev_info_get(dev, &info);
	if (ret < 0)
		return ret;

	memset(&conf, 0, sizeof(conf));
	conf.dequeue_timeout_ns = info.min_dequeue_timeout_ns;
	conf.nb_events_limit = TC_EVENTS_LIMIT;
	conf.nb_event_queues = TC_NB_QUEUES;
	conf.nb_event_ports = TC_NB_PORTS;
	conf.nb_event_queue_flows = info.max_event_queue_flows;
	conf.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	conf.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	ret = rte_event_dev_configure(dev, &conf);
	if (ret < 0) {
		printf("rte_event_dev_configure: %d\n", ret);
		return ret;
	}

	ret = rte_event_queue_default_conf_get(dev, 0, &qconf);
	if (ret < 0)
		return ret;
	qconf.schedule_type = RTE_SCHED_TYPE_ATOMIC;
	qconf.event_queue_cfg = 0;
	ret = rte_event_queue_setup(dev, TC_QUEUE_ATOMIC, &qconf);
	if (ret < 0)
		return ret;
	qconf.schedule_type = RTE_SCHED_TYPE_PARALLEL;
	ret = rte_event_queue_setup(dev, TC_QUEUE_PARALLEL, &qconf);
	if (ret < 0)
		return ret;

	ret = tc_setup_ports(dev);
	if (ret < 0) {
		printf("event port setup: %d\n", ret);
		return ret;
	}

	/* event_sw schedules in a service: run it on the service lcore. */
	ret = rte_event_dev_service_id_get(dev, &tc_env.sw_service_id);
	if (ret < 0)
		return ret;
	ret = tc_service_map(tc_env.sw_service_id);
	if (ret < 0)
		return ret;
	ret = rte_service_lcore_start(tc_env.svc_lcore);
	if (ret < 0 && ret != -EALREADY)
		return ret;

	ret = rte_event_dev_start(dev);
	if (ret < 0) {
		printf("rte_event_dev_start: %d\n", ret);
		return ret;
	}
	return 0;
}

void
tc_eventdev_teardown(void)
{
	rte_event_dev_stop(tc_env.evdev);
	rte_service_lcore_stop(tc_env.svc_lcore);
	rte_event_dev_close(tc_env.evdev);
}

int
tc_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
	   void *conf_arg)
{
	RTE_SET_USED(id);
	RTE_SET_USED(event_dev_id);
	*event_port_id = (uint8_t)(uintptr_t)conf_arg;
	return 0;
}

int
tc_port_cb_fail(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
		void *conf_arg)
{
	RTE_SET_USED(id);
	RTE_SET_USED(event_dev_id);
	RTE_SET_USED(event_port_id);
	return -(int)(uintptr_t)conf_arg;
}

int
tc_service_map(uint32_t service_id)
{
	int ret;

	ret = rte_service_map_lcore_set(service_id, tc_env.svc_lcore, 1);
	if (ret < 0)
		return ret;
	return rte_service_runstate_set(service_id, 1);
}

void
tc_timer_init(struct rte_event_timer *t, uint8_t queue_id)
{
	memset(t, 0, sizeof(*t));
	t->ev.op = RTE_EVENT_OP_NEW;
	t->ev.queue_id = queue_id;
	t->ev.sched_type = queue_id == TC_QUEUE_ATOMIC ?
		RTE_SCHED_TYPE_ATOMIC : RTE_SCHED_TYPE_PARALLEL;
	t->ev.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
	t->ev.event_type = RTE_EVENT_TYPE_TIMER;
	t->ev.event_ptr = t;
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
}

struct rte_event_timer *
tc_timers_alloc(unsigned int n)
{
	struct rte_event_timer *tims;
	unsigned int i;

	/* rte_malloc memory, so that a secondary process could reach it. */
	tims = rte_zmalloc("tc_timers", sizeof(*tims) * n,
			   RTE_CACHE_LINE_SIZE);
	if (tims == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		tc_timer_init(&tims[i], TC_QUEUE_ATOMIC);
	return tims;
}

struct rte_event_timer **
tc_timer_ptrs(struct rte_event_timer *tims, unsigned int n)
{
	struct rte_event_timer **p;
	unsigned int i;

	p = rte_malloc("tc_timer_ptrs", sizeof(*p) * n, 0);
	if (p == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		p[i] = &tims[i];
	return p;
}

int
tc_evcount_init(struct tc_evcount *c, struct rte_event_timer *base,
		unsigned int n, bool with_tsc)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	c->n = n;
	c->count = rte_zmalloc("tc_evcount", sizeof(*c->count) * n, 0);
	if (c->count == NULL)
		return -ENOMEM;
	if (with_tsc) {
		c->first_tsc = rte_zmalloc("tc_evtsc",
					   sizeof(*c->first_tsc) * n, 0);
		if (c->first_tsc == NULL) {
			rte_free(c->count);
			return -ENOMEM;
		}
	}
	return 0;
}

void
tc_evcount_reset(struct tc_evcount *c)
{
	memset(c->count, 0, sizeof(*c->count) * c->n);
	if (c->first_tsc != NULL)
		memset(c->first_tsc, 0, sizeof(*c->first_tsc) * c->n);
	c->total = 0;
	c->foreign = 0;
	c->bad_type = 0;
}

void
tc_evcount_free(struct tc_evcount *c)
{
	rte_free(c->count);
	rte_free(c->first_tsc);
	memset(c, 0, sizeof(*c));
}

unsigned int
tc_dequeue(struct tc_evcount *c, unsigned int max)
{
	struct rte_event evs[32];
	unsigned int i, nb;
	uint64_t now;

	nb = rte_event_dequeue_burst(tc_env.evdev, TC_TEST_PORT, evs,
				     RTE_MIN(max, RTE_DIM(evs)), 0);
	if (nb == 0)
		return 0;
	now = rte_get_timer_cycles();
	for (i = 0; i < nb; i++) {
		uintptr_t p = (uintptr_t)evs[i].event_ptr;
		uintptr_t b = (uintptr_t)c->base;
		size_t idx;

		if (evs[i].event_type != RTE_EVENT_TYPE_TIMER)
			c->bad_type++;
		if (c->base == NULL || p < b ||
		    (p - b) % sizeof(struct rte_event_timer) != 0 ||
		    (p - b) / sizeof(struct rte_event_timer) >= c->n) {
			c->foreign++;
			continue;
		}
		idx = (p - b) / sizeof(struct rte_event_timer);
		if (c->count[idx]++ == 0 && c->first_tsc != NULL)
			c->first_tsc[idx] = now;
		c->total++;
	}
	return nb;
}

uint64_t
tc_collect(struct tc_evcount *c, uint64_t expect, uint32_t max_ms,
	   uint32_t quiet_ms)
{
	const uint64_t hz = rte_get_timer_hz();
	uint64_t start = rte_get_timer_cycles();
	uint64_t last = start, seen = 0, now;
	unsigned int nb;

	for (;;) {
		nb = tc_dequeue(c, 32);
		now = rte_get_timer_cycles();
		if (nb > 0) {
			seen += nb;
			last = now;
			continue;
		}
		if (now - start >= max_ms * hz / 1000)
			break;
		if (c->total + c->foreign >= expect &&
		    now - last >= quiet_ms * hz / 1000)
			break;
		/*
		 * Sleep a little when idle: lcore 2 may share this CPU, and
		 * a few tens of microseconds are far below any tolerance.
		 */
		tc_sleep_us(20);
	}
	return seen;
}

uint64_t
tc_quiesce(uint32_t quiet_ms)
{
	struct tc_evcount c;

	memset(&c, 0, sizeof(c));
	return tc_collect(&c, 0, 10 * 1000, quiet_ms);
}

unsigned int
tc_evcount_mismatch(const struct tc_evcount *c, const uint8_t *want,
		    unsigned int *first_bad)
{
	unsigned int i, bad = 0;

	*first_bad = UINT32_MAX;
	for (i = 0; i < c->n; i++) {
		uint32_t w = want == NULL ? 1 : want[i];

		if (c->count[i] != w) {
			if (bad++ == 0)
				*first_bad = i;
		}
	}
	return bad;
}

uint64_t
tc_cyc_to_ns(uint64_t cycles)
{
	const uint64_t hz = rte_get_timer_hz();

	/* Whole seconds first, so that the product cannot overflow. */
	return cycles / hz * TC_SEC + (cycles % hz) * TC_SEC / hz;
}

uint64_t
tc_now_ns(void)
{
	return tc_cyc_to_ns(rte_get_timer_cycles());
}

void
tc_sleep_us(unsigned int us)
{
	struct timespec ts;

	ts.tv_sec = us / 1000000;
	ts.tv_nsec = (us % 1000000) * 1000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int
tc_wait_lcore(unsigned int lcore, uint32_t max_ms)
{
	double t0 = 0;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
	while (rte_eal_get_lcore_state(lcore) == RUNNING) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 - t0 > max_ms)
			return -ETIMEDOUT;
		tc_sleep_us(200);
	}
	return rte_eal_wait_lcore(lcore);
}

const char *
tc_errno_name(int err)
{
	static RTE_DEFINE_PER_LCORE(char, buf[16]);

	switch (err) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EALREADY: return "EALREADY";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case ENOSPC: return "ENOSPC";
	case ENOMEM: return "ENOMEM";
	case ENOTSUP: return "ENOTSUP";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case EPERM: return "EPERM";
	case EIO: return "EIO";
	case ESRCH: return "ESRCH";
	case ERANGE: return "ERANGE";
	default:
		snprintf(RTE_PER_LCORE(buf), sizeof(RTE_PER_LCORE(buf)),
			 "errno%d", err);
		return RTE_PER_LCORE(buf);
	}
}

struct rte_event_timer_adapter_conf
tc_conf_make(uint16_t id, uint64_t tick_ns, uint64_t max_tmo_ns,
	     uint64_t nb_timers, uint64_t flags)
{
	struct rte_event_timer_adapter_conf c;

	memset(&c, 0, sizeof(c));
	c.event_dev_id = tc_env.evdev;
	c.timer_adapter_id = id;
	c.socket_id = rte_socket_id();
	c.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK;
	c.timer_tick_ns = tick_ns;
	c.max_tmo_ns = max_tmo_ns;
	c.nb_timers = nb_timers;
	c.flags = flags;
	return c;
}

/*
 * Collect the firings of n periodic timers of 100 ms armed just now:
 * returns the most firings of one timer 1.05 s after arming (11 or more
 * means a timer fired early), and in *lo the fewest once every timer has
 * fired 10 times or 1.5 s have passed. Waiting for the tenth firing
 * rather than reading counts at a fixed 1.05 s keeps a host that
 * deschedules the service for a while from failing the case; a timer that
 * skipped periods or fired a period late still misses 10 by 1.5 s.
 */
unsigned int
tc_periodic_collect(struct tc_evcount *ec, unsigned int n, unsigned int *lo)
{
	const uint64_t t0 = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	unsigned int i, hi = UINT32_MAX;

	*lo = 0;
	for (;;) {
		uint64_t now = rte_get_timer_cycles();

		if (hi == UINT32_MAX && now >= t0 + hz * 105 / 100) {
			hi = 0;
			for (i = 0; i < n; i++)
				hi = RTE_MAX(hi, ec->count[i]);
		}
		if (hi != UINT32_MAX || now >= t0 + hz * 3 / 2) {
			*lo = UINT32_MAX;
			for (i = 0; i < n; i++)
				*lo = RTE_MIN(*lo, ec->count[i]);
			if (*lo >= 10 || now >= t0 + hz * 3 / 2)
				return hi;
		}
		if (tc_dequeue(ec, 32) == 0)
			tc_sleep_us(20);
	}
}

int
tc_suite_main(const char *suite, const struct tp_test_table *tables,
	      unsigned int nb_tables, int argc, char **argv,
	      int (*setup)(void), void (*teardown)(void))
{
	const char *filter;
	int failed;

	if (tc_eal_init(argc, argv, &filter) < 0 || tc_eventdev_setup() < 0 ||
	    (setup != NULL && setup() < 0)) {
		printf("RESULT %s: 0 passed, 1 failed\n", suite);
		return 1;
	}
	failed = tp_test_run_tables(suite, tables, nb_tables, filter);
	if (teardown != NULL)
		teardown();
	tc_eventdev_teardown();
	rte_eal_cleanup();
	return failed == 0 ? 0 : 1;
}

pid_t
tc_spawn_secondary(const char *file_prefix, const char *const *eal_extra,
		   const char *app)
{
	char exe[4096];
	char *args[16];
	ssize_t len;
	pid_t pid;
	int n = 0;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	args[n++] = exe;
	args[n++] = (char *)(uintptr_t)"--proc-type=secondary";
	args[n++] = (char *)(uintptr_t)file_prefix;
	args[n++] = (char *)(uintptr_t)"--lcores=3@0";
	args[n++] = (char *)(uintptr_t)"--no-pci";
	args[n++] = (char *)(uintptr_t)"--log-level=lib.eal:warning";
	while (eal_extra != NULL && *eal_extra != NULL && n < 12)
		args[n++] = (char *)(uintptr_t)*eal_extra++;
	if (app != NULL) {
		args[n++] = (char *)(uintptr_t)"--";
		args[n++] = (char *)(uintptr_t)app;
	}
	args[n] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(exe, args);
		_exit(127);
	}
	return pid;
}
