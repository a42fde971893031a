/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _BENCH_H_
#define _BENCH_H_

/*
 * timer_bench: the three timer adapter designs side by side.
 *
 * Every test runs every selected adapter through the same code path, one
 * adapter at a time, repetitions interleaved (rep 1: a, b, c; rep 2: ...),
 * and reports medians. Adapters plug in through struct tp_adapter_ops;
 * tests through struct bench_test, both in tables, so adding either never
 * touches the driver.
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>

#include "adapter_ops.h"
#include "dpdk_compat.h"

#define BENCH_MAX_ADAPTERS 3
#define BENCH_MAX_LCORES 16

struct bench_ctx;
struct bench_results;

/*
 * Adapters plug in through the project's one ops table (common/
 * adapter_ops.h): tp_adapter_direct_ops, tp_adapter_rte_ops and the
 * bench's own bench_ring_ops. Every create_ext gets a struct
 * bench_create_arg as conf_arg: its port through bench_port_cb, and the
 * ring design the lcore that owns its rte_timer list.
 */
struct bench_create_arg {
	uint8_t port;			/* Port the adapter enqueues on. */
	struct rte_event_timer *base;	/* Timers live in [base, base + nb). */
	uint64_t nb;
	unsigned int service_lcore;	/* The lcore running the service. */
};

extern const struct tp_adapter_ops bench_ring_ops;

int bench_port_cb(uint16_t id, uint8_t dev_id, uint8_t *port, void *arg);

/* Options (immutable after parsing). */
struct bench_opts {
	int quick;
	unsigned int reps;
	const char *json_path;
	const char *tests;		/* Comma list, NULL = all. */
	const struct tp_adapter_ops *adapters[BENCH_MAX_ADAPTERS];
	unsigned int nb_adapters;
	uint64_t arm_n[4];		/* Outstanding counts for arm costs. */
	unsigned int nb_arm_n;
	uint64_t expiry_timers;
	uint64_t expiry_window_ms;
	uint64_t lateness_timers;
	uint64_t pc_timers;		/* Producer/consumer test size. */
	unsigned int slow_consumer_ns;	/* Backpressure test. */
};

/* Shared run-time state. */
struct bench_ctx {
	const struct bench_opts *opts;
	uint8_t dev_id;
	uint8_t queue_id;
	uint8_t consumer_port[BENCH_MAX_LCORES]; /* By worker index. */
	unsigned int worker_lcores[BENCH_MAX_LCORES];
	unsigned int nb_workers;	/* Non-service lcores, main included. */
	uint8_t adapter_port;		/* Port the adapters enqueue on. */
	unsigned int service_lcore;	/* Scheduler's service lcore. */
	unsigned int adapter_lcore;	/* Adapters': a second one, if any. */
	uint32_t evdev_service_id;
	uint64_t hz;
	uint64_t rng;			/* bench_rand() state. */
	struct bench_results *results;	/* bench_result_*() store. */
};

/* A test: run one adapter once; fill results via bench_result_*(). */
struct bench_test {
	const char *name;
	const char *desc;
	int (*run)(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
		   unsigned int rep);
	void (*report)(struct bench_ctx *ctx);
};

extern const struct bench_test bench_tests[];
extern const unsigned int bench_nb_tests;

/* Event device and service helpers (bench_main.c). */
int bench_adapter_begin(struct bench_ctx *ctx,
			const struct tp_adapter_ops *ops,
			const struct rte_event_timer_adapter_conf *conf,
			struct rte_event_timer *base, uint64_t nb, void **h);
void bench_adapter_end(struct bench_ctx *ctx,
		       const struct tp_adapter_ops *ops, void *h);
unsigned int bench_drain(struct bench_ctx *ctx, uint64_t max_cycles);
unsigned int bench_adapter_lcore(const struct bench_ctx *ctx);

/* Side-by-side table of every key a test recorded (bench_tests.c). */
void bench_report_table(struct bench_ctx *ctx, const char *test,
			const char *unit);

/* The closed-loop producer/consumer test (bench_closed_loop.c). */
int bench_closed_loop_run(struct bench_ctx *ctx,
			  const struct tp_adapter_ops *ops, unsigned int rep);
void bench_closed_loop_report(struct bench_ctx *ctx);

/* Results: named values per (test, adapter, key), medians over reps. */
int bench_results_init(struct bench_ctx *ctx);
void bench_results_free(struct bench_ctx *ctx);
void bench_result_add(struct bench_ctx *ctx, const char *test,
		      const char *adapter, const char *key, double value);
int bench_result_median(const struct bench_ctx *ctx, const char *test,
			const char *adapter, const char *key, double *median,
			unsigned int *n);
void bench_result_series(struct bench_ctx *ctx, const char *test,
			 const char *adapter, const char *key,
			 const double *v, unsigned int n);
unsigned int bench_result_keys(const struct bench_ctx *ctx, const char *test,
			       char (*keys)[48], unsigned int max);
void bench_results_json(struct bench_ctx *ctx, FILE *f);

/* Timer helpers. */
void bench_timer_init(struct rte_event_timer *t, uint8_t queue);
uint64_t bench_rand(struct bench_ctx *ctx);

/* Wait until arms and cancels reached the service (ring only). */
static inline void
bench_settle(const struct tp_adapter_ops *ops, void *h)
{
	if (ops->settle != NULL)
		ops->settle(h);
}

static inline double
bench_cyc_to_ns(const struct bench_ctx *ctx, double cyc)
{
	return cyc * 1e9 / (double)ctx->hz;
}

#endif /* _BENCH_H_ */
