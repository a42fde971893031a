/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "secondary": a primary process owns the event device and the
 * adapter (and its service); secondary processes of the same DPDK instance
 * find the adapter with timer_adapter_lookup() and arm or cancel timers
 * that live in a memzone both processes map.
 *
 * One binary plays both roles. The primary re-executes itself with
 * --proc-type=secondary, the same --file-prefix and lcore 3 (an id the
 * primary does not use, so the secondary arms into its own per-lcore
 * list), "--" and a mode word. The secondary reports what it did per timer
 * in the memzone; the primary then checks every timer's outcome: the
 * events of armed, non-cancelled timers arrive exactly once, the others
 * never.
 *
 * Multi-process needs hugepages: without them this suite fails (it must not
 * pass vacuously on a machine that cannot run it).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_service.h>

#include "timer_adapter.h"
#include "ta_private.h"
#include "tp_test.h"
#include "test_common.h"

/* Exit status of a secondary whose rte_eal_init() failed. */
#define SEC_EAL_INIT_FAILED 3
/* Starts of a secondary that could not map the primary's memory. */
#define SEC_SPAWN_ATTEMPTS 5
#define SEC_MZ "tp_test_secondary"
#define SEC_ADAPTER_ID 5
#define SEC_N 1024
#define SEC_TICK (10 * TC_MS)
#define SEC_WAIT_MS 30000	/* a secondary must be done by then */

enum sec_mode {
	MODE_ARM_CANCEL,	/* arm (lcore 3 and a pthread), cancel some */
	MODE_CANCEL_PRIMARY,	/* cancel the even timers the primary armed */
	MODE_ARM_ONLY,		/* arm all with 300 ticks and exit */
	MODE_ARM_HANG,		/* arm all, then wait to be killed */
	MODE_DIE_LOCKED,	/* arm all, die holding its list's lock */
};

static const char * const mode_names[] = {
	[MODE_ARM_CANCEL] = "arm_cancel",
	[MODE_CANCEL_PRIMARY] = "cancel_primary",
	[MODE_ARM_ONLY] = "arm_only",
	[MODE_ARM_HANG] = "arm_hang",
	[MODE_DIE_LOCKED] = "die_locked",
};

/* Shared between the processes, in a memzone (hugepage memory). */
struct sec_shm {
	uint32_t n;
	volatile uint32_t armed_all;	/* secondary finished arming */
	int32_t errors;			/* problems seen by the secondary */
	char msg[160];			/* the first of them */
	uint8_t armed[SEC_N];		/* arm returned success */
	uint8_t cancel_ok[SEC_N];	/* cancel returned success */
	int32_t cancel_err[SEC_N];	/* rte_errno of a failed cancel */
	struct rte_event_timer tims[SEC_N] __rte_cache_aligned;
};

static struct sec_shm *shm;
static struct timer_adapter *adapter;
static char file_prefix[128] = "--file-prefix=rte";

/*
 * Secondary side.
 */

static void __rte_format_printf(1, 2)
sec_error(const char *fmt, ...)
{
	va_list ap;

	if (shm->errors++ != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(shm->msg, sizeof(shm->msg), fmt, ap);
	va_end(ap);
}

static void
sec_arm_range(struct timer_adapter *a, unsigned int from, unsigned int to,
	      uint64_t base_ticks)
{
	unsigned int i;

	for (i = from; i < to; i++) {
		struct rte_event_timer *t = &shm->tims[i];

		t->timeout_ticks = base_ticks + i % 8;
		if (timer_adapter_arm_burst(a, &t, 1) == 1)
			shm->armed[i] = 1;
		else
			sec_error("arm %u failed: errno %d", i, rte_errno);
	}
}

struct sec_thread_arg {
	struct timer_adapter *a;
	unsigned int from, to;
};

static void *
sec_thread(void *arg)
{
	struct sec_thread_arg *x = arg;

	sec_arm_range(x->a, x->from, x->to, 5);
	return NULL;
}

static void
sec_cancel(struct timer_adapter *a, unsigned int i)
{
	struct rte_event_timer *t = &shm->tims[i];

	if (timer_adapter_cancel_burst(a, &t, 1) == 1)
		shm->cancel_ok[i] = 1;
	else
		shm->cancel_err[i] = rte_errno;
}

static int
sec_checks(struct timer_adapter *a)
{
	struct rte_event_timer_adapter_info info;

	rte_errno = 0;
	if (timer_adapter_lookup(SEC_ADAPTER_ID + 1) != NULL ||
	    rte_errno != ENOENT)
		sec_error("lookup(unknown): errno %d", rte_errno);
	rte_errno = 0;
	if (timer_adapter_lookup(TIMER_ADAPTER_NUM_MAX) != NULL ||
	    rte_errno != EINVAL)
		sec_error("lookup(32): errno %d", rte_errno);
	if (timer_adapter_lookup(SEC_ADAPTER_ID) != a)
		sec_error("second lookup gave another handle");
	if (timer_adapter_get_info(a, &info) != 0 ||
	    info.min_resolution_ns != SEC_TICK ||
	    info.event_dev_port_id != TC_ADAPTER_PORT)
		sec_error("get_info: resolution %d port %d",
			  (int)info.min_resolution_ns,
			  info.event_dev_port_id);
	return 0;
}

/*
 * Mode arm_cancel: arm half from lcore 3 and half from a non-EAL thread,
 * cancel every third at once (must succeed), then some more around their
 * expiry (either outcome is fine). 0, or 1 if the thread did not start.
 */
static int
sec_mode_arm_cancel(struct timer_adapter *a, unsigned int n)
{
	struct sec_thread_arg x;
	pthread_t th;
	unsigned int i;

	x = (struct sec_thread_arg){ .a = a, .from = n / 2, .to = n };
	if (pthread_create(&th, NULL, sec_thread, &x) != 0) {
		sec_error("pthread_create failed");
		return 1;
	}
	sec_arm_range(a, 0, n / 2, 5);
	pthread_join(th, NULL);
	/* Every third at once: 50 ms before the first expiry. */
	for (i = 0; i < n; i += 3) {
		sec_cancel(a, i);
		if (!shm->cancel_ok[i])
			sec_error("cancel %u: errno %d", i, shm->cancel_err[i]);
	}
	rte_delay_us_sleep(60 * 1000);
	for (i = 1; i < n; i += 7)
		if (i % 3 != 0)
			sec_cancel(a, i);
	return 0;
}

/* Mode arm_hang: arm everything, then wait to be killed. */
static void
sec_mode_arm_hang(struct timer_adapter *a, unsigned int n)
{
	unsigned int i;

	sec_arm_range(a, 0, n, 30);
	__atomic_store_n(&shm->armed_all, 1, __ATOMIC_RELEASE);
	/* Wait for SIGKILL; give up after a minute. */
	for (i = 0; i < 600; i++)
		rte_delay_us_sleep(100 * 1000);
	sec_error("not killed");
}

/*
 * Mode die_locked: as if killed inside an arm call, its list's lock held:
 * the lock word of a holder is its pid (see ta_lock.h).
 */
static void
sec_mode_die_locked(struct timer_adapter *a, unsigned int n)
{
	sec_arm_range(a, 0, n, 30);
	__atomic_store_n(&a->lists[rte_lcore_id()].lock.locked,
			 (uint32_t)getpid(), __ATOMIC_RELEASE);
	__atomic_store_n(&shm->armed_all, 1, __ATOMIC_RELEASE);
	raise(SIGKILL);
}

static int
secondary_main(const char *mode)
{
	const struct rte_memzone *mz;
	struct timer_adapter *a;
	unsigned int i, n;

	mz = rte_memzone_lookup(SEC_MZ);
	if (mz == NULL) {
		printf("secondary: no memzone %s\n", SEC_MZ);
		return 2;
	}
	shm = mz->addr;
	n = shm->n;
	a = timer_adapter_lookup(SEC_ADAPTER_ID);
	if (a == NULL) {
		sec_error("lookup(%d): errno %d", SEC_ADAPTER_ID, rte_errno);
		return 1;
	}
	sec_checks(a);

	if (strcmp(mode, mode_names[MODE_ARM_CANCEL]) == 0) {
		if (sec_mode_arm_cancel(a, n) != 0)
			return 1;
	} else if (strcmp(mode, mode_names[MODE_CANCEL_PRIMARY]) == 0) {
		for (i = 0; i < n; i += 2) {
			sec_cancel(a, i);
			if (!shm->cancel_ok[i])
				sec_error("cancel %u: errno %d", i,
					  shm->cancel_err[i]);
		}
	} else if (strcmp(mode, mode_names[MODE_ARM_ONLY]) == 0) {
		sec_arm_range(a, 0, n, 300);
	} else if (strcmp(mode, mode_names[MODE_ARM_HANG]) == 0) {
		sec_mode_arm_hang(a, n);
	} else if (strcmp(mode, mode_names[MODE_DIE_LOCKED]) == 0) {
		sec_mode_die_locked(a, n);
	} else {
		printf("secondary: unknown mode %s\n", mode);
		return 2;
	}
	return shm->errors == 0 ? 0 : 1;
}

/*
 * Primary side.
 */

static void
shm_reset(unsigned int n)
{
	unsigned int i;

	memset(shm, 0, sizeof(*shm));
	shm->n = n;
	for (i = 0; i < n; i++)
		tc_timer_init(&shm->tims[i], TC_QUEUE_ATOMIC);
}

static pid_t
spawn_secondary(enum sec_mode mode)
{
	return tc_spawn_secondary(file_prefix, NULL, mode_names[mode]);
}

/*
 * Wait for the secondary (dequeueing into ec meanwhile); kill it after
 * SEC_WAIT_MS. Returns the wait status, or -1.
 */
static int
wait_secondary(pid_t pid, struct tc_evcount *ec)
{
	double t0 = tp_test_now_ms();
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0)
			return -1;
		if (tp_test_now_ms() - t0 > SEC_WAIT_MS) {
			printf("    secondary %d timed out: killed\n", pid);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		while (tc_dequeue(ec, 32) > 0)
			;
		tc_sleep_us(1000);
	}
}

/* Every timer: an event iff armed and not cancelled, exactly once. */
static int
check_outcomes(struct tc_evcount *ec, unsigned int n, uint64_t max_ms,
	       const struct timer_adapter_accounting *ac0)
{
	struct timer_adapter_accounting ac1;
	uint64_t want = 0, armed = 0, cancelled = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		armed += shm->armed[i];
		cancelled += shm->cancel_ok[i];
		want += shm->armed[i] && !shm->cancel_ok[i];
	}
	tc_collect(ec, want, max_ms, 300);
	printf("    %" PRIu64 " armed, %" PRIu64 " cancelled, %" PRIu64
	       " events\n", armed, cancelled, ec->total);
	TP_ASSERT_EQ(ec->foreign, 0, "foreign events");
	for (i = 0; i < n; i++) {
		uint32_t w = shm->armed[i] && !shm->cancel_ok[i];

		TP_ASSERT_EQ(ec->count[i], w,
			     "timer %u: armed %u, cancel %s, events", i,
			     shm->armed[i], shm->cancel_ok[i] ? "ok" :
			     tc_errno_name(shm->cancel_err[i]));
		if (shm->cancel_ok[i])
			TP_ASSERT_EQ(shm->tims[i].state,
				     RTE_EVENT_TIMER_CANCELED, "timer %u", i);
		else if (shm->armed[i])
			TP_ASSERT_EQ(shm->tims[i].state,
				     RTE_EVENT_TIMER_NOT_ARMED, "timer %u", i);
	}
	TP_ASSERT_EQ(timer_adapter_accounting_get(adapter, &ac1), 0, "acct");
	TP_ASSERT_EQ(ac1.armed - ac0->armed, armed, "accounting armed");
	TP_ASSERT_EQ(ac1.cancelled - ac0->cancelled, cancelled, "cancelled");
	TP_ASSERT_EQ(ac1.expired - ac0->expired, want, "expired");
	TP_ASSERT_EQ(ac1.pending, 0, "pending");
	return TP_TEST_OK;
}

static int
run_mode(enum sec_mode mode, struct tc_evcount *ec)
{
	unsigned int attempt;
	int status = -1;
	pid_t pid;

	/*
	 * A secondary must map the primary's memory at the same addresses;
	 * when something else (ASLR, ASan's shadow) already sits there, its
	 * EAL init fails before it touches anything: start it again.
	 */
	for (attempt = 0; attempt < SEC_SPAWN_ATTEMPTS; attempt++) {
		pid = spawn_secondary(mode);
		TP_ASSERT(pid > 0, "fork: %s", strerror(errno));
		status = wait_secondary(pid, ec);
		if (status == -1 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != SEC_EAL_INIT_FAILED)
			break;
		printf("    secondary could not map the shared memory, "
		       "starting it again\n");
	}
	TP_ASSERT(status != -1, "secondary did not finish");
	TP_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "secondary %s: status 0x%x, %d errors, first: %s",
		  mode_names[mode], status, shm->errors, shm->msg);
	return TP_TEST_OK;
}

/*
 * One case of the shared timers: reset them, let before() act as the
 * primary (when not NULL), run a secondary in mode, let after() act once
 * it exited (when not NULL), then check every timer's outcome within
 * max_ms.
 */
static int
sec_case(enum sec_mode mode, int (*before)(void), int (*after)(void),
	 uint32_t max_ms)
{
	struct timer_adapter_accounting ac0;
	struct tc_evcount ec;
	int rc;

	TP_ASSERT(tc_evcount_init(&ec, shm->tims, SEC_N, false) == 0, "alloc");
	shm_reset(SEC_N);
	TP_ASSERT_EQ(timer_adapter_accounting_get(adapter, &ac0), 0, "acct");
	rc = before == NULL ? TP_TEST_OK : before();
	if (rc == TP_TEST_OK)
		rc = run_mode(mode, &ec);
	if (rc == TP_TEST_OK && after != NULL)
		rc = after();
	if (rc == TP_TEST_OK)
		rc = check_outcomes(&ec, SEC_N, max_ms, &ac0);
	tc_evcount_free(&ec);
	return rc;
}

static int
test_secondary_arm_cancel(void)
{
	return sec_case(MODE_ARM_CANCEL, NULL, NULL, 5000);
}

/* The primary arms every timer with 300 ticks. */
static int
primary_arms(void)
{
	struct rte_event_timer *t;
	unsigned int i;

	for (i = 0; i < SEC_N; i++) {
		t = &shm->tims[i];
		t->timeout_ticks = 300;
		shm->armed[i] = timer_adapter_arm_burst(adapter, &t, 1);
		TP_ASSERT_EQ(shm->armed[i], 1, "arm %u", i);
	}
	return TP_TEST_OK;
}

/* The primary arms, a secondary cancels half of them. */
static int
test_secondary_cancels_primary(void)
{
	return sec_case(MODE_CANCEL_PRIMARY, primary_arms, NULL, 6000);
}

/* The primary cancels the odd timers, parked by a secondary. */
static int
primary_cancels_odd(void)
{
	struct timer_adapter_accounting ac;
	struct rte_event_timer *t;
	unsigned int i;

	/* 3 s is beyond the next 1.28 s span: parked, far ring. */
	TP_ASSERT_EQ(timer_adapter_accounting_get(adapter, &ac), 0, "acct");
	printf("    %" PRIu64 " timers parked by the secondary\n", ac.parked);
	TP_ASSERT(ac.parked > 0, "the secondary parked nothing");
	for (i = 1; i < SEC_N; i += 2) {
		t = &shm->tims[i];
		shm->cancel_ok[i] = timer_adapter_cancel_burst(adapter, &t, 1);
		if (!shm->cancel_ok[i])
			shm->cancel_err[i] = rte_errno;
		TP_ASSERT_EQ(shm->cancel_ok[i], 1, "cancel %u: %s", i,
			     tc_errno_name(rte_errno));
	}
	return TP_TEST_OK;
}

/* A secondary arms and exits; the primary cancels half of its timers. */
static int
test_secondary_arms_primary_cancels(void)
{
	return sec_case(MODE_ARM_ONLY, NULL, primary_cancels_odd, 6000);
}

/* A secondary killed with SIGKILL after arming: its timers still fire. */
static int
test_secondary_killed(void)
{
	struct timer_adapter_accounting ac0;
	struct tc_evcount ec;
	double t0;
	int status, rc = TP_TEST_FAIL;
	unsigned int attempt;
	pid_t pid, ended = 0;

	TP_ASSERT(tc_evcount_init(&ec, shm->tims, SEC_N, false) == 0, "alloc");
	shm_reset(SEC_N);
	TP_ASSERT_EQ(timer_adapter_accounting_get(adapter, &ac0), 0, "acct");
	for (attempt = 0; ; attempt++) {
		pid = spawn_secondary(MODE_ARM_HANG);
		if (pid <= 0) {
			printf("    fork failed\n");
			goto out;
		}
		t0 = tp_test_now_ms();
		status = 0;
		while (!__atomic_load_n(&shm->armed_all, __ATOMIC_ACQUIRE) &&
		       tp_test_now_ms() - t0 < SEC_WAIT_MS &&
		       (ended = waitpid(pid, &status, WNOHANG)) == 0)
			tc_sleep_us(1000);
		/* As in run_mode(): EAL could not map; nothing was armed. */
		if (ended == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == SEC_EAL_INIT_FAILED &&
		    attempt + 1 < SEC_SPAWN_ATTEMPTS) {
			ended = 0;
			continue;
		}
		break;
	}
	if (ended == pid) {
		printf("    secondary ended on its own: 0x%x (%d errors: %s)\n",
		       status, shm->errors, shm->msg);
		goto out;
	}
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid || !WIFSIGNALED(status) ||
	    WTERMSIG(status) != SIGKILL) {
		printf("    secondary ended on its own: 0x%x (%d errors: %s)\n",
		       status, shm->errors, shm->msg);
		goto out;
	}
	if (!shm->armed_all || shm->errors != 0) {
		printf("    secondary did not arm: %d errors: %s\n",
		       shm->errors, shm->msg);
		goto out;
	}
	rc = check_outcomes(&ec, SEC_N, 5000, &ac0);
out:
	tc_evcount_free(&ec);
	return rc;
}

/*
 * A secondary killed while it holds its list's lock: no caller may hang on
 * that lock. The service skips the list (logged), cancelling one of its
 * timers fails with EINVAL instead of spinning, the primary's own timers
 * still expire exactly once, and nothing of the dead list fires.
 */
static int
test_secondary_dies_holding_lock(void)
{
	const unsigned int n = 16;
	struct rte_event_timer *own = tc_timers_alloc(n), *t;
	struct rte_event_timer_adapter_stats st0, st1;
	struct tc_evcount ec;
	int status, rc = TP_TEST_FAIL;
	unsigned int i, attempt, bad;
	double t0;
	pid_t pid;

	TP_ASSERT(own != NULL, "alloc");
	TP_ASSERT(tc_evcount_init(&ec, own, n, false) == 0, "alloc");
	shm_reset(SEC_N);
	for (attempt = 0; ; attempt++) {
		pid = spawn_secondary(MODE_DIE_LOCKED);
		if (pid <= 0 || waitpid(pid, &status, 0) != pid) {
			printf("    spawn/wait failed\n");
			goto out;
		}
		if (WIFEXITED(status) &&
		    WEXITSTATUS(status) == SEC_EAL_INIT_FAILED &&
		    attempt + 1 < SEC_SPAWN_ATTEMPTS)
			continue;
		break;
	}
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL ||
	    !shm->armed_all || shm->errors != 0) {
		printf("    secondary: status 0x%x, %d errors: %s\n", status,
		       shm->errors, shm->msg);
		goto out;
	}
	TP_ASSERT_EQ(timer_adapter_stats_get(adapter, &st0), 0, "stats");
	for (i = 0; i < n; i++) {
		t = &own[i];
		t->timeout_ticks = 20;
		TP_ASSERT_EQ(timer_adapter_arm_burst(adapter, &t, 1), 1,
			     "arm own %u: %s", i, tc_errno_name(rte_errno));
	}
	/* A bounded wait for the dead holder to be noticed, not a hang. */
	t = &shm->tims[0];
	t0 = tp_test_now_ms();
	TP_ASSERT_EQ(timer_adapter_cancel_burst(adapter, &t, 1), 0,
		     "cancel in the dead list");
	TP_ASSERT_EQ(rte_errno, EINVAL, "errno %s", tc_errno_name(rte_errno));
	printf("    cancel in the dead list failed after %.1f ms\n",
	       tp_test_now_ms() - t0);
	TP_ASSERT(tp_test_now_ms() - t0 < 2000, "cancel took %.0f ms",
		  tp_test_now_ms() - t0);
	/* The secondary's timers were due after 300 ms: wait past that. */
	tc_collect(&ec, n, 3000, 800);
	TP_ASSERT_EQ(tc_evcount_mismatch(&ec, NULL, &bad), 0, "own timer %u",
		     bad);
	TP_ASSERT_EQ(ec.foreign, 0, "events from the dead list's timers");
	TP_ASSERT_EQ(timer_adapter_stats_get(adapter, &st1), 0, "stats");
	TP_ASSERT(st1.adapter_tick_count > st0.adapter_tick_count,
		  "the service stopped ticking");
	rc = TP_TEST_OK;
out:
	tc_evcount_free(&ec);
	rte_free(own);
	return rc;
}

static const struct tp_test_case cases[] = {
	{ "secondary_arm_cancel", test_secondary_arm_cancel },
	{ "secondary_cancels_primary", test_secondary_cancels_primary },
	{ "secondary_arms_primary_cancels",
	  test_secondary_arms_primary_cancels },
	{ "secondary_killed", test_secondary_killed },
	/* Last: it leaves a list of the adapter dead. */
	{ "secondary_dies_holding_lock", test_secondary_dies_holding_lock },
};

static int
primary_setup(void)
{
	struct rte_event_timer_adapter_conf c;
	const struct rte_memzone *mz;
	uint32_t svc;

	if (!rte_eal_has_hugepages()) {
		printf("the secondary suite needs hugepages (no --no-huge)\n");
		return -1;
	}
	mz = rte_memzone_reserve(SEC_MZ, sizeof(struct sec_shm),
				 rte_socket_id(), 0);
	if (mz == NULL) {
		printf("memzone: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	shm = mz->addr;
	memset(&c, 0, sizeof(c));
	c.event_dev_id = tc_env.evdev;
	c.timer_adapter_id = SEC_ADAPTER_ID;
	c.socket_id = rte_socket_id();
	c.timer_tick_ns = SEC_TICK;
	c.max_tmo_ns = 180 * TC_SEC;
	c.nb_timers = 8192;
	adapter = timer_adapter_create_ext(&c, tc_port_cb,
					   (void *)(uintptr_t)TC_ADAPTER_PORT);
	if (adapter == NULL) {
		printf("create: %s\n", tc_errno_name(rte_errno));
		return -1;
	}
	if (timer_adapter_service_id_get(adapter, &svc) != 0 ||
	    tc_service_map(svc) != 0 || timer_adapter_start(adapter) != 0) {
		printf("cannot start the adapter\n");
		return -1;
	}
	return 0;
}

/* After the cases. */
static void
primary_teardown(void)
{
	timer_adapter_stop(adapter);
	timer_adapter_free(adapter);
}

int
main(int argc, char **argv)
{
	static const struct tp_test_table table = TP_TEST_TABLE(cases);
	bool secondary = false, no_shared = false;
	int i, ret;

	/* Before rte_eal_init(), whose getopt may reorder argv. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--proc-type=secondary") == 0)
			secondary = true;
		else if (strcmp(argv[i], "--in-memory") == 0 ||
			 strcmp(argv[i], "--no-shconf") == 0 ||
			 strcmp(argv[i], "--no-huge") == 0)
			no_shared = true;
		else if (strncmp(argv[i], "--file-prefix=", 14) == 0)
			snprintf(file_prefix, sizeof(file_prefix), "%s",
				 argv[i]);
		else if (strcmp(argv[i], "--file-prefix") == 0 &&
			 i + 1 < argc)
			snprintf(file_prefix, sizeof(file_prefix),
				 "--file-prefix=%s", argv[i + 1]);
	}

	if (secondary) {
		ret = rte_eal_init(argc, argv);
		if (ret < 0) {
			printf("secondary: rte_eal_init: %s\n",
			       rte_strerror(rte_errno));
			return SEC_EAL_INIT_FAILED;
		}
		/*
		 * No rte_eal_cleanup(): in a secondary it removes the vdevs,
		 * and event_sw's remove would try to close the primary's
		 * event device.
		 */
		return secondary_main(ret + 1 < argc ? argv[ret + 1] : "");
	}

	if (no_shared) {
		printf("the secondary suite needs hugepages shared between "
		       "processes: no --no-huge, --in-memory or --no-shconf\n");
		printf("RESULT secondary: 0 passed, 1 failed\n");
		return 1;
	}
	return tc_suite_main("secondary", &table, 1, argc, argv,
			     primary_setup, primary_teardown);
}
