/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * closedloop: the producer/consumer test of DPDK's test-eventdev
 * (perf_queue with --prod_type_timerdev and --prod_type_timerdev_burst),
 * the test the seed's claim about direct insertion came from.
 *
 * A pool of 16K timers (test-eventdev's --pool_sz default) is the only
 * source of timers: the producer takes 16 at a time (its BURST_SIZE) and
 * arms them, one call per timer (plain producer) or one call for all 16
 * (burst producer); workers dequeue the expiry events, 16 at a time (its
 * --wkr_deq_dep default), and put the timers back into the pool. So at most
 * 16K timers are outstanding and a slow design slows the producer down
 * instead of piling up work: the figure is the sustained expiry rate.
 *
 * Cases: test-eventdev's defaults, a 10 us expiry on a 1 us tick (its
 * --expiry_nsec and --timer_tick_nsec), and a 10 ms expiry on a 10 us
 * tick. Two differences from test-eventdev, both to keep every timer
 * accounted for: the pool is a ring of pointers into one array of timers
 * (the ring design indexes its rte_timers by position in that array), and
 * the burst producer re-arms what a burst call refused instead of
 * dropping it from the pool.
 *
 * Layout: one producer and at least one consumer. With a single
 * non-service lcore (2 CPUs: -l 0-1 -S 1) the main lcore produces and
 * consumes in turn; with more, the main lcore produces and the others
 * consume. The event device's scheduler runs on the first service lcore;
 * the adapter's service on the second one when there is one (test-
 * eventdev's layout), else next to the scheduler.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "bench.h"

#define CL_POOL 16384		/* test-eventdev's --pool_sz default */
#define CL_BURST 16		/* test-eventdev's BURST_SIZE */
#define CL_DEQ 16		/* test-eventdev's --wkr_deq_dep default */

struct cl_case {
	const char *name;
	uint64_t expiry_ns;
	uint64_t tick_ns;
};

static const struct cl_case cl_cases[] = {
	/* test-eventdev's defaults (--expiry_nsec, --timer_tick_nsec). */
	{ "exp10us_tick1us", 10000, 1000 },
	{ "exp10ms_tick10us", 10000000, 10000 },
};

struct cl_run {
	struct bench_ctx *ctx;
	const struct tp_adapter_ops *ops;
	void *h;
	struct rte_event_timer *t;	/* The pool's timers. */
	struct rte_ring *pool;		/* Free timers. */
	uint64_t tmo_ticks;
	int burst;
	uint64_t win_begin, win_end;	/* Measurement window (TSC). */
	uint64_t consumed;		/* Atomic: events consumed. */
	uint64_t at_begin, at_end;	/* consumed at the window's edges. */
	int stop;			/* Atomic. */
	uint64_t armed, arm_cycles, arm_retries; /* Producer's. */
	uint64_t armed_in_pool;		/* Delivered, state still armed. */
};

/*
 * Arm up to CL_BURST timers from the pool; returns how many. A refused
 * arm (the adapter out of timers) goes back to the pool and is retried on
 * a later pass: test-eventdev spins on it instead, which would deadlock
 * here when the same lcore must consume the expiries that free timers.
 */
static unsigned int
cl_produce(struct cl_run *r)
{
	struct rte_event_timer *p[CL_BURST];
	const struct tp_adapter_ops *ops = r->ops;
	unsigned int i, n;
	uint64_t t0;

	n = rte_ring_mc_dequeue_burst(r->pool, (void **)p, CL_BURST, NULL);
	if (n == 0)
		return 0;
	t0 = rte_rdtsc();
	if (r->burst) {
		i = ops->arm_tmo_tick_burst(r->h, p, r->tmo_ticks, n);
	} else {
		for (i = 0; i < n; i++) {
			p[i]->timeout_ticks = r->tmo_ticks;
			if (ops->arm_burst(r->h, &p[i], 1) != 1)
				break;
		}
	}
	r->arm_cycles += rte_rdtsc() - t0;
	r->armed += i;
	if (i < n) {
		r->arm_retries++;
		rte_ring_mp_enqueue_bulk(r->pool, (void **)&p[i], n - i, NULL);
	}
	return i;
}

static unsigned int
cl_consume(struct cl_run *r, uint8_t port)
{
	struct rte_event ev[CL_DEQ];
	void *back[CL_DEQ];
	uint16_t k, j;

	k = rte_event_dequeue_burst(r->ctx->dev_id, port, ev, CL_DEQ, 0);
	if (k == 0)
		return 0;
	for (j = 0; j < k; j++)
		back[j] = ev[j].event_ptr;
	rte_ring_mp_enqueue_bulk(r->pool, back, k, NULL);
	__atomic_fetch_add(&r->consumed, k, __ATOMIC_RELAXED);
	return k;
}

/* Main lcore: the producer (and consumer when alone); owns the window. */
static void
cl_main_loop(struct cl_run *r)
{
	const int alone = r->ctx->nb_workers == 1;
	int begun = 0;

	for (;;) {
		uint64_t now = rte_get_timer_cycles();

		if (!begun && now >= r->win_begin) {
			r->at_begin = __atomic_load_n(&r->consumed,
						      __ATOMIC_RELAXED);
			begun = 1;
		}
		if (now >= r->win_end) {
			r->at_end = __atomic_load_n(&r->consumed,
						    __ATOMIC_RELAXED);
			__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		cl_produce(r);
		if (alone)
			cl_consume(r, r->ctx->consumer_port[0]);
	}
}

static int
cl_worker(void *arg)
{
	struct cl_run *r = arg;
	unsigned int w;

	for (w = 1; w < r->ctx->nb_workers; w++)
		if (r->ctx->worker_lcores[w] == rte_lcore_id())
			break;
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
		cl_consume(r, r->ctx->consumer_port[w]);
	return 0;
}

/*
 * After the window: consume until every timer is back in the pool (2 s
 * at most), then count the timers neither back nor armed: expired but
 * not delivered within those 2 s, lost, or (negative) delivered twice.
 * 0 when the design keeps up. Timers back in the pool whose state still
 * reads armed (an adapter that marks a timer armed after its expiry
 * already ran) are counted apart; what is armed and out is cancelled.
 */
static int64_t
cl_drain(struct cl_run *r)
{
	const uint64_t end = rte_get_timer_cycles() + 2 * r->ctx->hz;
	uint8_t *inpool = calloc(CL_POOL, 1);
	void **all = malloc(CL_POOL * 2 * sizeof(*all));
	uint64_t armed = 0;
	unsigned int i, w, n;

	while (rte_ring_count(r->pool) < CL_POOL &&
	       rte_get_timer_cycles() < end)
		for (w = 0; w < r->ctx->nb_workers; w++)
			cl_consume(r, r->ctx->consumer_port[w]);
	if (inpool == NULL || all == NULL) {
		free(inpool);
		free(all);
		return INT64_MAX;
	}
	/* Nobody else runs now: look at the pool's content. */
	n = rte_ring_dequeue_burst(r->pool, all, CL_POOL * 2, NULL);
	for (i = 0; i < n; i++) {
		uint64_t idx = (struct rte_event_timer *)all[i] - r->t;

		if (idx < CL_POOL)
			inpool[idx] = 1;
	}
	rte_ring_enqueue_bulk(r->pool, all, n, NULL);
	for (i = 0; i < CL_POOL; i++) {
		struct rte_event_timer *x = &r->t[i];

		if (x->state != RTE_EVENT_TIMER_ARMED)
			continue;
		if (inpool[i]) {
			r->armed_in_pool++;
			continue;
		}
		armed++;
		r->ops->cancel_burst(r->h, &x, 1);
	}
	if (r->ops->settle != NULL)
		r->ops->settle(r->h);
	free(inpool);
	free(all);
	return (int64_t)CL_POOL - (int64_t)(n + armed);
}

static int
cl_setup(struct cl_run *r, const struct cl_case *c)
{
	struct rte_event_timer_adapter_conf conf = {
		.event_dev_id = r->ctx->dev_id,
		.timer_adapter_id = 0,
		.socket_id = rte_socket_id(),
		.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK,
		.timer_tick_ns = c->tick_ns,
		/* test-eventdev: --max_tmo_nsec, 10 x its default expiry. */
		.max_tmo_ns = c->expiry_ns * 10,
		.nb_timers = CL_POOL,
		/* As test-eventdev with one producer. */
		.flags = RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES |
			 RTE_EVENT_TIMER_ADAPTER_F_SP_PUT,
	};
	char name[RTE_RING_NAMESIZE];
	unsigned int i;

	r->t = rte_malloc("bench_cl_timers", CL_POOL * sizeof(*r->t),
			  RTE_CACHE_LINE_SIZE);
	snprintf(name, sizeof(name), "bench_cl_%p", (void *)r);
	r->pool = rte_ring_create(name, CL_POOL * 2, rte_socket_id(), 0);
	if (r->t == NULL || r->pool == NULL)
		return -ENOMEM;
	for (i = 0; i < CL_POOL; i++) {
		struct rte_event_timer *x = &r->t[i];

		bench_timer_init(x, r->ctx->queue_id);
		rte_ring_enqueue(r->pool, x);
	}
	r->tmo_ticks = RTE_MAX(c->expiry_ns / c->tick_ns, (uint64_t)1);
	return bench_adapter_begin(r->ctx, r->ops, &conf, r->t, CL_POOL,
				   &r->h);
}

static void
cl_record(struct bench_ctx *ctx, const struct cl_run *r,
	  const struct cl_case *c, double secs, int64_t undelivered)
{
	const char *prod = r->burst ? "burst" : "plain";
	char key[48];

	snprintf(key, sizeof(key), "%s/%s_Mev_s", c->name, prod);
	bench_result_add(ctx, "closedloop", r->ops->name, key,
			 (r->at_end - r->at_begin) / secs / 1e6);
	snprintf(key, sizeof(key), "%s/%s_arm_ns", c->name, prod);
	bench_result_add(ctx, "closedloop", r->ops->name, key,
			 r->armed ? bench_cyc_to_ns(ctx, (double)r->arm_cycles /
						    r->armed) : 0);
	snprintf(key, sizeof(key), "%s/%s_arm_retries", c->name, prod);
	bench_result_add(ctx, "closedloop", r->ops->name, key, r->arm_retries);
	snprintf(key, sizeof(key), "%s/%s_undelivered", c->name, prod);
	bench_result_add(ctx, "closedloop", r->ops->name, key, undelivered);
	snprintf(key, sizeof(key), "%s/%s_armed_after_delivery", c->name,
		 prod);
	bench_result_add(ctx, "closedloop", r->ops->name, key,
			 r->armed_in_pool);
}

static int
cl_run_one(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	   const struct cl_case *c, int burst)
{
	const double warm_s = ctx->opts->quick ? 0.1 : 0.3;
	const double secs = ctx->opts->quick ? 0.5 : 2.0;
	struct cl_run *r;
	int64_t undelivered;
	unsigned int w;
	uint64_t now;
	int ret = -1;

	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -1;
	r->ctx = ctx;
	r->ops = ops;
	r->burst = burst;
	if (cl_setup(r, c) < 0) {
		printf("%s: closed loop %s: setup failed\n", ops->name,
		       c->name);
		goto out;
	}
	now = rte_get_timer_cycles();
	r->win_begin = now + (uint64_t)(warm_s * ctx->hz);
	r->win_end = r->win_begin + (uint64_t)(secs * ctx->hz);
	for (w = 1; w < ctx->nb_workers; w++)
		rte_eal_remote_launch(cl_worker, r, ctx->worker_lcores[w]);
	cl_main_loop(r);
	rte_eal_mp_wait_lcore();
	undelivered = cl_drain(r);
	cl_record(ctx, r, c, secs, undelivered);
	bench_adapter_end(ctx, ops, r->h);
	ret = 0;
out:
	rte_ring_free(r->pool);
	rte_free(r->t);
	free(r);
	return ret;
}

int
bench_closed_loop_run(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
		      unsigned int rep)
{
	unsigned int c;
	int burst;

	RTE_SET_USED(rep);
	for (c = 0; c < RTE_DIM(cl_cases); c++)
		for (burst = 0; burst <= 1; burst++)
			if (cl_run_one(ctx, ops, &cl_cases[c], burst) < 0)
				return -1;
	return 0;
}

void
bench_closed_loop_report(struct bench_ctx *ctx)
{
	unsigned int w;

	printf("pool of %u timers re-armed as consumed (test-eventdev's "
	       "timer producers); producer lcore %u, consumer lcore(s)",
	       CL_POOL, ctx->worker_lcores[0]);
	for (w = ctx->nb_workers > 1 ? 1 : 0; w < ctx->nb_workers; w++)
		printf(" %u", ctx->worker_lcores[w]);
	printf("; scheduler on service lcore %u, adapter on %u\n",
	       ctx->service_lcore, bench_adapter_lcore(ctx));
	bench_report_table(ctx, "closedloop", "figure (median)");
}
