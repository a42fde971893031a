/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The measurements. Each run function measures one adapter once and
 * records named values; the report prints medians over repetitions side
 * by side, with ours/rte and ours/ring ratios.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "bench.h"

#define TICK_NS 10000ULL			/* 10 us */
#define MAX_TMO_NS (180ULL * 1000000000ULL)	/* 180 s */
#define BLOCK 256

static struct rte_event_timer *
bench_timers_alloc(uint64_t n, uint8_t queue)
{
	struct rte_event_timer *t;
	uint64_t i;

	t = rte_malloc("bench_timers", n * sizeof(*t), RTE_CACHE_LINE_SIZE);
	if (t == NULL) {
		printf("cannot allocate %" PRIu64 " timers\n", n);
		return NULL;
	}
	for (i = 0; i < n; i++)
		bench_timer_init(&t[i], queue);
	return t;
}

static struct rte_event_timer_adapter_conf
bench_conf(const struct bench_ctx *ctx, uint64_t nb_timers)
{
	struct rte_event_timer_adapter_conf c = {
		.event_dev_id = ctx->dev_id,
		.timer_adapter_id = 0,
		.socket_id = rte_socket_id(),
		.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK,
		.timer_tick_ns = TICK_NS,
		.max_tmo_ns = MAX_TMO_NS,
		.nb_timers = nb_timers,
		.flags = 0,
	};

	return c;
}

static uint64_t
bench_heap_bytes(void)
{
	struct rte_malloc_socket_stats st;

	if (rte_malloc_get_socket_stats(rte_socket_id(), &st) < 0)
		return 0;
	return st.heap_allocsz_bytes;
}

/* Timeout of one arm: random 60..120 s, or a constant 90 s. */
static inline uint64_t
bench_tmo(struct bench_ctx *ctx, int random)
{
	const uint64_t s = 1000000000ULL / TICK_NS;

	return random ? 60 * s + bench_rand(ctx) % (60 * s) : 90 * s;
}

/* Generic side-by-side table of every key recorded for a test. */
void
bench_report_table(struct bench_ctx *ctx, const char *test, const char *unit)
{
	const struct bench_opts *o = ctx->opts;
	char keys[128][48];
	unsigned int nb_keys, i, a;

	nb_keys = bench_result_keys(ctx, test, keys, RTE_DIM(keys));
	printf("%-34s", unit);
	for (a = 0; a < o->nb_adapters; a++)
		printf(" %12s", o->adapters[a]->name);
	printf("   ours/rte  ours/ring\n");
	for (i = 0; i < nb_keys; i++) {
		double v[BENCH_MAX_ADAPTERS], ours = -1, rte = -1, ring = -1;

		printf("%-34s", keys[i]);
		for (a = 0; a < o->nb_adapters; a++) {
			unsigned int n;

			if (bench_result_median(ctx, test, o->adapters[a]->name,
						keys[i], &v[a], &n) < 0) {
				printf(" %12s", "-");
				continue;
			}
			printf(" %12.4g", v[a]);
			if (o->adapters[a] == &tp_adapter_direct_ops)
				ours = v[a];
			else if (o->adapters[a] == &tp_adapter_rte_ops)
				rte = v[a];
			else
				ring = v[a];
		}
		if (ours >= 0 && rte > 0)
			printf("   %8.3f", ours / rte);
		else
			printf("   %8s", "-");
		if (ours >= 0 && ring > 0)
			printf("  %8.3f", ours / ring);
		printf("\n");
	}
}

/*
 * Arm (or cancel) p[0 .. n) in bursts of 32, as a busy producer would.
 * Returns 0, or -1 after saying what failed where.
 */
static __rte_always_inline int
bench_burst_all(const struct tp_adapter_ops *ops, void *h,
		struct rte_event_timer **p, uint64_t n, bool cancel,
		const char *what)
{
	uint64_t i = 0;

	while (i < n) {
		uint16_t k = RTE_MIN((uint64_t)32, n - i);
		uint16_t d = cancel ? ops->cancel_burst(h, &p[i], k) :
			ops->arm_burst(h, &p[i], k);

		i += d;
		if (likely(d == k))
			continue;
		/*
		 * The ring design's messages come from a pool of nb_timers
		 * (as 19.05): a cancel storm outruns its service. A producer
		 * waits for the service and retries.
		 */
		if (rte_errno == ENOSPC && ops->settle != NULL) {
			ops->settle(h);
			continue;
		}
		printf("%s: %s failed at %" PRIu64 ": %s\n", ops->name, what, i,
		       rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

/* Whatever did not arrive must not leak into the next run. */
static void
bench_cancel_armed(const struct tp_adapter_ops *ops, void *h,
		   struct rte_event_timer *t, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (t[i].state == RTE_EVENT_TIMER_ARMED) {
			struct rte_event_timer *x = &t[i];

			ops->cancel_burst(h, &x, 1);
		}
}

/* ---- arm / cancel cost with N outstanding ---- */

enum arm_variant { V_ARM1, V_ARM32, V_TMO32 };
#define ARM_NB_FIGURES 6	/* arm1, arm32, armtmo32 and their cancels. */

static uint64_t
arm_block(struct bench_ctx *ctx, const struct tp_adapter_ops *ops, void *h,
	  struct rte_event_timer **p, enum arm_variant v, int random)
{
	uint64_t t0, t1;
	unsigned int i;

	for (i = 0; i < BLOCK; i++)
		p[i]->timeout_ticks = bench_tmo(ctx, random);
	t0 = rte_rdtsc_precise();
	for (i = 0; i < BLOCK; ) {
		uint16_t n = v == V_ARM1 ? 1 : 32;
		uint16_t done = v == V_TMO32 ?
			ops->arm_tmo_tick_burst(h, &p[i], p[i]->timeout_ticks,
						n) :
			ops->arm_burst(h, &p[i], n);

		if (unlikely(done != n)) {
			printf("%s: arm failed: %s\n", ops->name,
			       rte_strerror(rte_errno));
			return UINT64_MAX;
		}
		i += n;
	}
	t1 = rte_rdtsc_precise();
	return t1 - t0;
}

static uint64_t
cancel_block(const struct tp_adapter_ops *ops, void *h,
	     struct rte_event_timer **p, uint16_t n)
{
	uint64_t t0, t1;
	unsigned int i;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < BLOCK; i += n)
		if (unlikely(ops->cancel_burst(h, &p[i], n) != n)) {
			printf("%s: cancel failed: %s\n", ops->name,
			       rte_strerror(rte_errno));
			return UINT64_MAX;
		}
	t1 = rte_rdtsc_precise();
	return t1 - t0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double
median_u64(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? (double)v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static void
arm_record(struct bench_ctx *ctx, const char *adapter, const char *op,
	   const char *shape, uint64_t n, double cyc_per_timer)
{
	char key[48];

	snprintf(key, sizeof(key), "%s_ns/%s/%" PRIu64, op, shape, n);
	bench_result_add(ctx, "arm", adapter, key,
			 bench_cyc_to_ns(ctx, cyc_per_timer));
}

/* One arm_run_one(): N outstanding timers plus a block of 256. */
struct arm_state {
	uint64_t n_out;			/* Timers kept outstanding. */
	int random;			/* Random or constant timeouts. */
	const char *shape;		/* "random" or "const". */
	unsigned int blocks;		/* Steady-state samples. */
	struct rte_event_timer *t;	/* n_out + BLOCK timers. */
	struct rte_event_timer **all;	/* &t[0 .. n_out). */
	uint64_t *s[ARM_NB_FIGURES];	/* Cycles per block, per figure. */
	uint64_t heap0, heap1;		/* Heap before and after create. */
	void *h;
};

static void
arm_state_free(struct arm_state *st)
{
	unsigned int k;

	for (k = 0; k < ARM_NB_FIGURES; k++)
		free(st->s[k]);
	free(st->all);
	rte_free(st->t);
}

static int
arm_state_alloc(struct bench_ctx *ctx, struct arm_state *st, uint64_t n_out,
		int random)
{
	unsigned int k;
	uint64_t i;

	memset(st, 0, sizeof(*st));
	st->n_out = n_out;
	st->random = random;
	st->shape = random ? "random" : "const";
	st->blocks = n_out >= 1000000 ? 40 : n_out >= 100000 ? 80 : 200;
	st->t = bench_timers_alloc(n_out + BLOCK, ctx->queue_id);
	st->all = malloc(n_out * sizeof(*st->all));
	for (k = 0; k < ARM_NB_FIGURES; k++)
		st->s[k] = malloc(st->blocks * sizeof(uint64_t));
	for (k = 0; k < ARM_NB_FIGURES && st->s[k] != NULL; k++)
		;
	if (st->t == NULL || st->all == NULL || k < ARM_NB_FIGURES) {
		printf("arm: out of memory for %" PRIu64 " timers\n", n_out);
		arm_state_free(st);
		return -1;
	}
	for (i = 0; i < n_out; i++)
		st->all[i] = &st->t[i];
	return 0;
}

/* Fill 0 -> N in bursts of 32, with this shape's timeouts; memory. */
static int
arm_fill(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	 struct arm_state *st)
{
	uint64_t t0, heap2, i;
	char key[48];

	for (i = 0; i < st->n_out; i++)
		st->t[i].timeout_ticks = bench_tmo(ctx, st->random);
	t0 = rte_rdtsc_precise();
	if (bench_burst_all(ops, st->h, st->all, st->n_out, false, "fill") < 0)
		return -1;
	bench_settle(ops, st->h);
	arm_record(ctx, ops->name, "fill", st->shape, st->n_out,
		   (double)(rte_rdtsc_precise() - t0) / st->n_out);
	heap2 = bench_heap_bytes();
	if (!st->random)
		return 0;
	snprintf(key, sizeof(key), "mem_per_timer_B/%" PRIu64, st->n_out);
	bench_result_add(ctx, "memory", ops->name, key,
			 (double)(heap2 - st->heap0) / st->n_out);
	snprintf(key, sizeof(key), "mem_at_create_B/%" PRIu64, st->n_out);
	bench_result_add(ctx, "memory", ops->name, key,
			 (double)(st->heap1 - st->heap0) / st->n_out);
	return 0;
}

/* Steady state: arm a block of 256, cancel it; N stays outstanding. */
static int
arm_steady(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	   struct arm_state *st)
{
	static const char *const names[ARM_NB_FIGURES] = {
		"arm1", "arm32", "armtmo32", "cancel1", "cancel32",
		"cancel32tmo" };
	struct rte_event_timer *p[BLOCK];
	unsigned int b, k;

	for (k = 0; k < BLOCK; k++)
		p[k] = &st->t[st->n_out + k];
	for (b = 0; b < st->blocks; b++) {
		for (k = 0; k < 3; k++) {
			uint64_t c1 = arm_block(ctx, ops, st->h, p,
						(enum arm_variant)k,
						st->random);
			uint64_t c2;

			bench_settle(ops, st->h);
			c2 = cancel_block(ops, st->h, p, k == V_ARM1 ? 1 : 32);
			bench_settle(ops, st->h);
			if (c1 == UINT64_MAX || c2 == UINT64_MAX)
				return -1;
			st->s[k][b] = c1;
			st->s[3 + k][b] = c2;
		}
	}
	for (k = 0; k < ARM_NB_FIGURES; k++)
		arm_record(ctx, ops->name, names[k], st->shape, st->n_out,
			   median_u64(st->s[k], st->blocks) / BLOCK);
	return 0;
}

/* Drain N -> 0 in bursts of 32. */
static int
arm_drain(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	  struct arm_state *st)
{
	uint64_t t0 = rte_rdtsc_precise();

	if (bench_burst_all(ops, st->h, st->all, st->n_out, true,
			    "drain") < 0)
		return -1;
	bench_settle(ops, st->h);
	arm_record(ctx, ops->name, "drain", st->shape, st->n_out,
		   (double)(rte_rdtsc_precise() - t0) / st->n_out);
	return 0;
}

static int
arm_run_one(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	    uint64_t n_out, int random)
{
	struct rte_event_timer_adapter_conf conf = bench_conf(ctx, n_out + 4096);
	struct arm_state st;
	int ret = -1;

	if (arm_state_alloc(ctx, &st, n_out, random) < 0)
		return -1;
	st.heap0 = bench_heap_bytes();
	if (bench_adapter_begin(ctx, ops, &conf, st.t, n_out + BLOCK,
				&st.h) < 0)
		goto out;
	st.heap1 = bench_heap_bytes();
	if (arm_fill(ctx, ops, &st) == 0 && arm_steady(ctx, ops, &st) == 0 &&
	    arm_drain(ctx, ops, &st) == 0)
		ret = 0;
	bench_adapter_end(ctx, ops, st.h);
out:
	arm_state_free(&st);
	return ret;
}

static int
arm_run(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	unsigned int rep)
{
	unsigned int i;
	int shape;

	RTE_SET_USED(rep);
	for (i = 0; i < ctx->opts->nb_arm_n; i++)
		for (shape = 1; shape >= 0; shape--)
			if (arm_run_one(ctx, ops, ctx->opts->arm_n[i], shape) < 0)
				return -1;
	return 0;
}

static void
arm_report(struct bench_ctx *ctx)
{
	bench_report_table(ctx, "arm", "ns per timer (median)");
	printf("\n");
	bench_report_table(ctx, "memory", "bytes per timer (median)");
}

/* ---- expiry throughput, with a fast or a slow consumer ---- */

struct expiry_result {
	uint64_t delivered;
	uint64_t first, last;	/* TSC of first and last event. */
	uint64_t dup;
	uint64_t foreign;	/* Events of an earlier run's timers. */
	double *bins;		/* Events per 10 ms, from window start. */
	unsigned int nb_bins;
};

/* Spin for cyc cycles: the work of a slow consumer. */
static inline void
bench_spin(uint64_t cyc)
{
	uint64_t until = rte_get_timer_cycles() + cyc;

	while (rte_get_timer_cycles() < until)
		rte_pause();
}

/* One expiry_core() run's buffers and its time line (TSC). */
struct expiry_state {
	uint64_t n;
	struct rte_event_timer *t, **p;
	uint8_t *seen;			/* Events per timer (duplicates). */
	uint64_t wstart;		/* First deadline. */
	uint64_t limit;			/* Give up consuming here. */
	uint64_t slow_cyc;		/* Consumer work per event. */
	void *h;
};

static void
expiry_state_free(struct expiry_state *st)
{
	free(st->p);
	free(st->seen);
	rte_free(st->t);
}

static int
expiry_state_alloc(struct bench_ctx *ctx, struct expiry_state *st,
		   uint64_t n, double limit_s, uint64_t window_ms,
		   struct expiry_result *res)
{
	uint64_t i;

	memset(st, 0, sizeof(*st));
	memset(res, 0, sizeof(*res));
	st->n = n;
	st->t = bench_timers_alloc(n, ctx->queue_id);
	st->p = malloc(n * sizeof(*st->p));
	st->seen = calloc(n, 1);
	res->nb_bins = (unsigned int)(limit_s * 100) + window_ms / 10 + 2;
	res->bins = calloc(res->nb_bins, sizeof(double));
	if (st->t == NULL || st->p == NULL || st->seen == NULL ||
	    res->bins == NULL) {
		expiry_state_free(st);
		free(res->bins);
		res->bins = NULL;
		return -1;
	}
	for (i = 0; i < n; i++)
		st->p[i] = &st->t[i];
	return 0;
}

/*
 * Arm every timer, due uniformly over window_ms after a lead time long
 * enough to arm everything first, even at 4 us per arm.
 */
static int
expiry_arm(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	   struct expiry_state *st, uint64_t window_ms, double limit_s)
{
	const uint64_t hz = ctx->hz;
	const uint64_t lead_ns = 1000000000ULL + st->n * 4000ULL;
	uint64_t i, start = rte_get_timer_cycles();

	for (i = 0; i < st->n; i++)
		st->t[i].timeout_ticks = (lead_ns + bench_rand(ctx) %
					  (window_ms * 1000000ULL)) / TICK_NS;
	if (bench_burst_all(ops, st->h, st->p, st->n, false, "arm") < 0)
		return -1;
	if (rte_get_timer_cycles() - start > lead_ns * hz / 1000000000ULL)
		printf("%s: warning: arming took longer than the lead time\n",
		       ops->name);
	st->wstart = start + lead_ns * hz / 1000000000ULL;
	st->limit = st->wstart + (uint64_t)((window_ms / 1e3 + limit_s) * hz);
	return 0;
}

/* Consume until every event arrived or the limit: counts and bins. */
static void
expiry_consume(struct bench_ctx *ctx, struct expiry_state *st,
	       struct expiry_result *res)
{
	struct rte_event ev[64];

	while (res->delivered < st->n && rte_get_timer_cycles() < st->limit) {
		uint16_t k = rte_event_dequeue_burst(ctx->dev_id,
				ctx->consumer_port[0], ev, RTE_DIM(ev), 0);
		uint64_t now = rte_get_timer_cycles();
		uint16_t own = 0;

		for (uint16_t j = 0; j < k; j++) {
			struct rte_event_timer *x = ev[j].event_ptr;
			uint64_t idx = x - st->t;

			if (idx >= st->n) {
				res->foreign++;
				continue;
			}
			own++;
			if (st->seen[idx]++ != 0)
				res->dup++;
			if (st->slow_cyc != 0)
				bench_spin(st->slow_cyc);
		}
		if (own != 0) {
			uint64_t bin = now > st->wstart ?
				(now - st->wstart) * 100 / ctx->hz : 0;

			if (res->first == 0)
				res->first = now;
			res->last = now;
			res->delivered += own;
			if (bin < res->nb_bins)
				res->bins[bin] += own;
		}
	}
}

/*
 * Arm n timers due uniformly over window_ms after a lead time, then
 * consume (spinning slow_ns per event) until all arrived or limit_s.
 * On success the caller frees res->bins.
 */
static int
expiry_core(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	    uint64_t n, uint64_t window_ms, unsigned int slow_ns,
	    double limit_s, struct expiry_result *res,
	    struct rte_event_timer_adapter_stats *stats)
{
	struct rte_event_timer_adapter_conf conf = bench_conf(ctx, n + 4096);
	struct expiry_state st;
	int ret = -1;

	if (expiry_state_alloc(ctx, &st, n, limit_s, window_ms, res) < 0)
		return -1;
	st.slow_cyc = slow_ns * ctx->hz / 1000000000ULL;
	if (bench_adapter_begin(ctx, ops, &conf, st.t, n, &st.h) < 0)
		goto out;
	if (expiry_arm(ctx, ops, &st, window_ms, limit_s) == 0) {
		expiry_consume(ctx, &st, res);
		if (res->foreign != 0)
			printf("%s: ignored %" PRIu64 " events of an earlier "
			       "run\n", ops->name, res->foreign);
		ops->stats_get(st.h, stats);
		ret = 0;
	}
	if (res->delivered < n)
		bench_cancel_armed(ops, st.h, st.t, n);
	bench_adapter_end(ctx, ops, st.h);
out:
	expiry_state_free(&st);
	if (ret < 0) {
		free(res->bins);
		res->bins = NULL;
	}
	return ret;
}

static int
expiry_run(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	   unsigned int rep)
{
	const uint64_t n = ctx->opts->expiry_timers;
	struct rte_event_timer_adapter_stats st;
	struct expiry_result r;
	double secs;

	RTE_SET_USED(rep);
	if (expiry_core(ctx, ops, n, ctx->opts->expiry_window_ms, 0,
			ctx->opts->quick ? 5.0 : 20.0, &r, &st) < 0)
		return -1;
	secs = r.last > r.first ? (double)(r.last - r.first) / ctx->hz : 0;
	bench_result_add(ctx, "expiry", ops->name, "delivered_frac",
			 (double)r.delivered / n);
	bench_result_add(ctx, "expiry", ops->name, "rate_Mev_s",
			 secs > 0 ? r.delivered / secs / 1e6 : 0);
	bench_result_add(ctx, "expiry", ops->name, "duplicates", r.dup);
	bench_result_add(ctx, "expiry", ops->name, "retries", st.evtim_retry_count);
	free(r.bins);
	return 0;
}

static void
expiry_report(struct bench_ctx *ctx)
{
	printf("%" PRIu64 " timers due over %" PRIu64 " ms, fast consumer\n",
	       ctx->opts->expiry_timers, ctx->opts->expiry_window_ms);
	bench_report_table(ctx, "expiry", "figure (median)");
}

static int
backpressure_run(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
		 unsigned int rep)
{
	const uint64_t n = ctx->opts->quick ? 50000 : 200000;
	const unsigned int slow = ctx->opts->slow_consumer_ns;
	const double limit = n * slow / 1e9 * 1.5 + 3.0;
	struct rte_event_timer_adapter_stats st;
	struct expiry_result r;
	double secs;

	if (expiry_core(ctx, ops, n, 50, slow, limit, &r, &st) < 0)
		return -1;
	secs = r.last > r.first ? (double)(r.last - r.first) / ctx->hz : 0;
	bench_result_add(ctx, "backpressure", ops->name, "delivered_frac",
			 (double)r.delivered / n);
	bench_result_add(ctx, "backpressure", ops->name, "rate_Mev_s",
			 secs > 0 ? r.delivered / secs / 1e6 : 0);
	bench_result_add(ctx, "backpressure", ops->name, "consumer_cap_Mev_s",
			 1e3 / slow);
	bench_result_add(ctx, "backpressure", ops->name, "undelivered",
			 n - r.delivered);
	bench_result_add(ctx, "backpressure", ops->name, "duplicates", r.dup);
	bench_result_add(ctx, "backpressure", ops->name, "retries",
			 st.evtim_retry_count);
	bench_result_add(ctx, "backpressure", ops->name, "drops",
			 st.evtim_drop_count + st.ev_inv_count);
	if (rep == 0)
		bench_result_series(ctx, "backpressure", ops->name,
				    "events_per_10ms", r.bins, r.nb_bins);
	free(r.bins);
	return 0;
}

static void
backpressure_report(struct bench_ctx *ctx)
{
	printf("timers due over 50 ms, consumer limited to %.2f Mev/s\n",
	       1e3 / ctx->opts->slow_consumer_ns);
	bench_report_table(ctx, "backpressure", "figure (median)");
}

/* ---- lateness at a steady expiry rate (20K timers/s) ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One lateness_run(): the timers and the deadline each should meet. */
struct lateness_state {
	uint64_t n;
	struct rte_event_timer *t, **p;
	uint64_t *deadline;		/* TSC, as the adapter sees it. */
	double *late;			/* Dequeue - deadline, ns. */
	uint64_t got;			/* Events received. */
	uint64_t foreign;		/* Events of an earlier run's timers. */
	void *h;
};

static void
lateness_state_free(struct lateness_state *st)
{
	free(st->p);
	free(st->deadline);
	free(st->late);
	rte_free(st->t);
}

static int
lateness_state_alloc(struct bench_ctx *ctx, struct lateness_state *st,
		     uint64_t n)
{
	uint64_t i;

	memset(st, 0, sizeof(*st));
	st->n = n;
	st->t = bench_timers_alloc(n, ctx->queue_id);
	st->p = malloc(n * sizeof(*st->p));
	st->deadline = malloc(n * sizeof(*st->deadline));
	st->late = malloc(n * sizeof(*st->late));
	if (st->t == NULL || st->p == NULL || st->deadline == NULL ||
	    st->late == NULL) {
		lateness_state_free(st);
		return -1;
	}
	for (i = 0; i < n; i++)
		st->p[i] = &st->t[i];
	return 0;
}

/* Arm one at a time, due 0.5 s + uniform over span_ns. */
static int
lateness_arm(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	     struct lateness_state *st, uint64_t span_ns)
{
	const uint64_t hz = ctx->hz;
	uint64_t i;

	for (i = 0; i < st->n; i++) {
		uint64_t ns = 500000000ULL + bench_rand(ctx) % span_ns;

		st->t[i].timeout_ticks = ns / TICK_NS;
		/* Deadline as the adapter sees it, read just before arming. */
		st->deadline[i] = rte_get_timer_cycles() +
			(st->t[i].timeout_ticks * TICK_NS) * (hz / 1000000) /
			1000;
		if (ops->arm_burst(st->h, &st->p[i], 1) != 1)
			return -1;
	}
	return 0;
}

static void
lateness_collect(struct bench_ctx *ctx, struct lateness_state *st,
		 uint64_t span_ns)
{
	const uint64_t hz = ctx->hz;
	uint64_t limit = rte_get_timer_cycles() +
		(span_ns / 1000000000ULL + 5) * hz;
	struct rte_event ev[64];

	while (st->got < st->n && rte_get_timer_cycles() < limit) {
		uint16_t k = rte_event_dequeue_burst(ctx->dev_id,
				ctx->consumer_port[0], ev, RTE_DIM(ev), 0);
		uint64_t now = rte_get_timer_cycles();

		for (uint16_t j = 0; j < k; j++) {
			uint64_t idx = (struct rte_event_timer *)
				ev[j].event_ptr - st->t;

			if (idx >= st->n) {
				st->foreign++;	/* An earlier run's. */
				continue;
			}
			st->late[st->got++] = ((double)now -
					       (double)st->deadline[idx]) *
				1e9 / hz;
		}
	}
}

/* Quantiles of what arrived; the full curve on the first repetition. */
static void
lateness_record(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
		struct lateness_state *st, unsigned int rep)
{
	const uint64_t got = st->got;
	double *late = st->late, q[1001];
	unsigned int i;

	if (got < st->n)
		printf("%s: only %" PRIu64 " of %" PRIu64 " events\n",
		       ops->name, got, st->n);
	if (st->foreign != 0)
		printf("%s: ignored %" PRIu64 " events of an earlier run\n",
		       ops->name, st->foreign);
	if (got == 0)
		return;
	qsort(late, got, sizeof(*late), cmp_double);
	bench_result_add(ctx, "lateness", ops->name, "p50_us",
			 late[got / 2] / 1e3);
	bench_result_add(ctx, "lateness", ops->name, "p99_us",
			 late[got * 99 / 100] / 1e3);
	bench_result_add(ctx, "lateness", ops->name, "p99.9_us",
			 late[got * 999 / 1000] / 1e3);
	bench_result_add(ctx, "lateness", ops->name, "max_us",
			 late[got - 1] / 1e3);
	bench_result_add(ctx, "lateness", ops->name, "min_us", late[0] / 1e3);
	bench_result_add(ctx, "lateness", ops->name, "delivered_frac",
			 (double)got / st->n);
	if (rep != 0)
		return;
	for (i = 0; i <= 1000; i++)
		q[i] = late[RTE_MIN(got - 1, got * i / 1000)] / 1e3;
	bench_result_series(ctx, "lateness", ops->name,
			    "quantiles_us_0_to_1000", q, 1001);
}

static int
lateness_run(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
	     unsigned int rep)
{
	const uint64_t n = ctx->opts->lateness_timers;
	const uint64_t span_ns = n * 50000ULL; /* 20K per second. */
	struct rte_event_timer_adapter_conf conf = bench_conf(ctx, n + 4096);
	struct lateness_state st;
	int ret = -1;

	if (lateness_state_alloc(ctx, &st, n) < 0)
		return -1;
	if (bench_adapter_begin(ctx, ops, &conf, st.t, n, &st.h) < 0)
		goto out;
	if (lateness_arm(ctx, ops, &st, span_ns) == 0) {
		lateness_collect(ctx, &st, span_ns);
		lateness_record(ctx, ops, &st, rep);
		ret = 0;
	}
	bench_cancel_armed(ops, st.h, st.t, n);
	bench_adapter_end(ctx, ops, st.h);
out:
	lateness_state_free(&st);
	return ret;
}

static void
lateness_report(struct bench_ctx *ctx)
{
	printf("%" PRIu64 " timers, 20K expiries/s, tick 10 us: dequeue time - "
	       "deadline\n", ctx->opts->lateness_timers);
	bench_report_table(ctx, "lateness", "microseconds (median of reps)");
}

/*
 * ---- overload: open loop, every timer armed at once, no flow control ----
 *
 * Not test-eventdev's producer test (that one is closed loop: see
 * bench_closed_loop.c). Here every lcore arms its share of n timers as
 * fast as it can while consuming, so far more than the event device's
 * 4096 events fall due together: it shows how a design behaves under
 * that backpressure (delivered fraction, time to deliver, capped), and
 * is no throughput comparison.
 */

struct pc_shared {
	struct bench_ctx *ctx;
	const struct tp_adapter_ops *ops;
	void *h;
	struct rte_event_timer *t;
	uint64_t n;
	int burst;
	uint64_t received;		/* Atomic. */
	uint64_t arm_cycles[BENCH_MAX_LCORES];
	uint64_t armed[BENCH_MAX_LCORES];
	uint64_t deadline;
};

static int
pc_worker(void *arg)
{
	struct pc_shared *sh = arg;
	unsigned int w, nw = sh->ctx->nb_workers;
	uint64_t i, lo, hi, cyc = 0;
	struct rte_event_timer *p[32];
	struct rte_event ev[64];

	for (w = 0; w < nw; w++)
		if (sh->ctx->worker_lcores[w] == rte_lcore_id())
			break;
	lo = sh->n * w / nw;
	hi = sh->n * (w + 1) / nw;
	/* 10 ms timers (1000 ticks of 10 us); test-eventdev's default is 10 us. */
	for (i = lo; ; ) {
		uint16_t k, d;

		if (i < hi) {
			uint64_t t0;

			k = sh->burst ? RTE_MIN((uint64_t)32, hi - i) : 1;
			for (d = 0; d < k; d++)
				p[d] = &sh->t[i + d];
			t0 = rte_rdtsc();
			d = sh->burst ?
				sh->ops->arm_tmo_tick_burst(sh->h, p, 1000, k) :
				sh->ops->arm_burst(sh->h, p, k);
			cyc += rte_rdtsc() - t0;
			i += d;
		}
		k = rte_event_dequeue_burst(sh->ctx->dev_id,
				sh->ctx->consumer_port[w], ev, RTE_DIM(ev), 0);
		if (k != 0)
			__atomic_fetch_add(&sh->received, k, __ATOMIC_RELAXED);
		if (__atomic_load_n(&sh->received, __ATOMIC_RELAXED) >= sh->n ||
		    rte_get_timer_cycles() > sh->deadline)
			break;
	}
	sh->arm_cycles[w] = cyc;
	sh->armed[w] = i - lo;
	return 0;
}

static int
pc_run(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
       unsigned int rep)
{
	const uint64_t n = ctx->opts->pc_timers;
	struct rte_event_timer_adapter_conf conf = bench_conf(ctx, n + 4096);
	struct pc_shared sh;
	unsigned int w;
	int burst;

	RTE_SET_USED(rep);
	for (burst = 0; burst <= 1; burst++) {
		uint64_t t0, t1, armed = 0, cyc = 0;
		char key[48];

		memset(&sh, 0, sizeof(sh));
		sh.ctx = ctx;
		sh.ops = ops;
		sh.n = n;
		sh.burst = burst;
		sh.t = bench_timers_alloc(n, ctx->queue_id);
		if (sh.t == NULL)
			return -1;
		for (uint64_t i = 0; i < n; i++)
			sh.t[i].timeout_ticks = 1000;
		if (bench_adapter_begin(ctx, ops, &conf, sh.t, n, &sh.h) < 0) {
			rte_free(sh.t);
			return -1;
		}
		t0 = rte_get_timer_cycles();
		/* A collapsing design must not hold the run for minutes. */
		sh.deadline = t0 + (ctx->opts->quick ? 3 : 20) * ctx->hz;
		for (w = 1; w < ctx->nb_workers; w++)
			rte_eal_remote_launch(pc_worker, &sh,
					      ctx->worker_lcores[w]);
		pc_worker(&sh);
		rte_eal_mp_wait_lcore();
		t1 = rte_get_timer_cycles();
		for (w = 0; w < ctx->nb_workers; w++) {
			armed += sh.armed[w];
			cyc += sh.arm_cycles[w];
		}
		snprintf(key, sizeof(key), "%s_delivered_frac",
			 burst ? "burst" : "plain");
		bench_result_add(ctx, "overload", ops->name, key,
				 (double)sh.received / n);
		/* Until the last event, or the cap for a design that stalls. */
		snprintf(key, sizeof(key), "%s_time_s", burst ? "burst" : "plain");
		bench_result_add(ctx, "overload", ops->name, key,
				 (double)(t1 - t0) / ctx->hz);
		snprintf(key, sizeof(key), "%s_arm_ns", burst ? "burst" : "plain");
		bench_result_add(ctx, "overload", ops->name, key,
				 armed ? bench_cyc_to_ns(ctx, (double)cyc / armed) : 0);
		bench_cancel_armed(ops, sh.h, sh.t, n);
		bench_adapter_end(ctx, ops, sh.h);
		rte_free(sh.t);
	}
	return 0;
}

static void
pc_report(struct bench_ctx *ctx)
{
	printf("%" PRIu64 " timers of 10 ms armed at once by %u lcore(s) that "
	       "also consume, capped at %u s: behaviour under backpressure, "
	       "not throughput\n", ctx->opts->pc_timers, ctx->nb_workers,
	       ctx->opts->quick ? 3 : 20);
	bench_report_table(ctx, "overload", "figure (median)");
}

const struct bench_test bench_tests[] = {
	{ "arm", "arm/cancel cost per timer with N outstanding; memory",
	  arm_run, arm_report },
	{ "expiry", "expiry throughput to a fast consumer", expiry_run,
	  expiry_report },
	{ "backpressure", "expiry delivered to a slow consumer",
	  backpressure_run, backpressure_report },
	{ "lateness", "expiry lateness at 20K timers/s", lateness_run,
	  lateness_report },
	{ "closedloop", "closed-loop producer/consumer (test-eventdev's timer "
	  "producers, 16K pool)", bench_closed_loop_run,
	  bench_closed_loop_report },
	{ "overload", "open loop: timers armed at once, no flow control "
	  "(backpressure behaviour, not a throughput test)", pc_run,
	  pc_report },
};

const unsigned int bench_nb_tests = RTE_DIM(bench_tests);
