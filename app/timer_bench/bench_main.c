/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * timer_bench driver: EAL, options, event device, result table and JSON.
 *
 *   dpdk-timer_bench [EAL options] -- [--quick] [--reps N]
 *       [--adapters direct,rte,ring] [--tests arm,expiry,...]
 *       [--arm-n N] [--json FILE]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>
#include <rte_timer.h>
#include <rte_version.h>

#include "eal_init.h"
#include "bench.h"

/* Results: a flat list of samples; small enough for linear scans. */
struct bench_sample {
	char test[32];
	char adapter[16];
	char key[48];
	double value;
};

struct bench_series {
	char test[32];
	char adapter[16];
	char key[48];
	double *v;
	unsigned int n;
};

#define BENCH_MAX_SAMPLES 8192
#define BENCH_MAX_SERIES 64

/* Everything the tests recorded (ctx->results). */
struct bench_results {
	struct bench_sample samples[BENCH_MAX_SAMPLES];
	unsigned int nb_samples;
	struct bench_series series[BENCH_MAX_SERIES];
	unsigned int nb_series;
};

int
bench_results_init(struct bench_ctx *ctx)
{
	ctx->results = calloc(1, sizeof(*ctx->results));
	return ctx->results == NULL ? -ENOMEM : 0;
}

void
bench_results_free(struct bench_ctx *ctx)
{
	unsigned int i;

	if (ctx->results == NULL)
		return;
	for (i = 0; i < ctx->results->nb_series; i++)
		free(ctx->results->series[i].v);
	free(ctx->results);
	ctx->results = NULL;
}

/* xorshift64: reproducible timeouts from a fixed seed (ctx->rng). */
uint64_t
bench_rand(struct bench_ctx *ctx)
{
	ctx->rng ^= ctx->rng << 13;
	ctx->rng ^= ctx->rng >> 7;
	ctx->rng ^= ctx->rng << 17;
	return ctx->rng;
}

void
bench_result_add(struct bench_ctx *ctx, const char *test, const char *adapter,
		 const char *key, double value)
{
	struct bench_results *r = ctx->results;
	struct bench_sample *s;

	if (r->nb_samples == BENCH_MAX_SAMPLES)
		return;
	s = &r->samples[r->nb_samples++];
	snprintf(s->test, sizeof(s->test), "%s", test);
	snprintf(s->adapter, sizeof(s->adapter), "%s", adapter);
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->value = value;
}

static int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
bench_result_median(const struct bench_ctx *ctx, const char *test,
		    const char *adapter, const char *key, double *median,
		    unsigned int *n)
{
	const struct bench_results *r = ctx->results;
	double v[64];
	unsigned int i, k = 0;

	for (i = 0; i < r->nb_samples && k < RTE_DIM(v); i++) {
		const struct bench_sample *s = &r->samples[i];

		if (strcmp(s->test, test) == 0 &&
		    strcmp(s->adapter, adapter) == 0 &&
		    strcmp(s->key, key) == 0)
			v[k++] = s->value;
	}
	if (n != NULL)
		*n = k;
	if (k == 0)
		return -ENOENT;
	qsort(v, k, sizeof(v[0]), bench_cmp_double);
	*median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	return 0;
}

/* Distinct keys recorded for a test, in the order first recorded. */
unsigned int
bench_result_keys(const struct bench_ctx *ctx, const char *test,
		  char (*keys)[48], unsigned int max)
{
	const struct bench_results *r = ctx->results;
	unsigned int i, j, n = 0;

	for (i = 0; i < r->nb_samples && n < max; i++) {
		const struct bench_sample *s = &r->samples[i];

		if (strcmp(s->test, test) != 0)
			continue;
		for (j = 0; j < n; j++)
			if (strcmp(keys[j], s->key) == 0)
				break;
		if (j == n)
			snprintf(keys[n++], 48, "%s", s->key);
	}
	return n;
}

void
bench_result_series(struct bench_ctx *ctx, const char *test,
		    const char *adapter, const char *key, const double *v,
		    unsigned int n)
{
	struct bench_results *r = ctx->results;
	struct bench_series *s;

	if (r->nb_series == BENCH_MAX_SERIES)
		return;
	s = &r->series[r->nb_series];
	s->v = malloc(n * sizeof(*v));
	if (s->v == NULL)
		return;
	memcpy(s->v, v, n * sizeof(*v));
	s->n = n;
	snprintf(s->test, sizeof(s->test), "%s", test);
	snprintf(s->adapter, sizeof(s->adapter), "%s", adapter);
	snprintf(s->key, sizeof(s->key), "%s", key);
	r->nb_series++;
}

/* Medians of every (test, adapter, key), plus the raw samples and series. */
void
bench_results_json(struct bench_ctx *ctx, FILE *f)
{
	const struct bench_results *r = ctx->results;
	unsigned int i, j;

	fprintf(f, "  \"medians\": [\n");
	for (i = 0; i < r->nb_samples; i++) {
		const struct bench_sample *s = &r->samples[i];
		double med;
		unsigned int n;
		int seen = 0;

		for (j = 0; j < i && !seen; j++)
			seen = strcmp(r->samples[j].test, s->test) == 0 &&
			       strcmp(r->samples[j].adapter, s->adapter) == 0 &&
			       strcmp(r->samples[j].key, s->key) == 0;
		if (seen)
			continue;
		bench_result_median(ctx, s->test, s->adapter, s->key, &med,
				    &n);
		fprintf(f, "%s    {\"test\": \"%s\", \"adapter\": \"%s\", "
			"\"key\": \"%s\", \"median\": %.6g, \"reps\": %u, "
			"\"values\": [", i == 0 ? "" : ",\n", s->test,
			s->adapter, s->key, med, n);
		/* Every repetition in run order: rep k of each adapter ran
		 * in the same round, so per-pair ratios can be taken.
		 */
		for (j = i, seen = 0; j < r->nb_samples; j++)
			if (strcmp(r->samples[j].test, s->test) == 0 &&
			    strcmp(r->samples[j].adapter, s->adapter) == 0 &&
			    strcmp(r->samples[j].key, s->key) == 0)
				fprintf(f, "%s%.6g", seen++ ? ", " : "",
					r->samples[j].value);
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n  \"series\": [\n");
	for (i = 0; i < r->nb_series; i++) {
		const struct bench_series *s = &r->series[i];

		fprintf(f, "%s    {\"test\": \"%s\", \"adapter\": \"%s\", "
			"\"key\": \"%s\", \"values\": [", i == 0 ? "" : ",\n",
			s->test, s->adapter, s->key);
		for (j = 0; j < s->n; j++)
			fprintf(f, "%s%.6g", j == 0 ? "" : ", ", s->v[j]);
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ]\n");
}

void
bench_timer_init(struct rte_event_timer *t, uint8_t queue)
{
	memset(t, 0, sizeof(*t));
	t->ev.op = RTE_EVENT_OP_NEW;
	t->ev.queue_id = queue;
	t->ev.sched_type = RTE_SCHED_TYPE_PARALLEL;
	t->ev.event_type = RTE_EVENT_TYPE_TIMER;
	t->ev.event_ptr = t;
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
}

/* Dequeue and discard events until none came for max_cycles. */
unsigned int
bench_drain(struct bench_ctx *ctx, uint64_t max_cycles)
{
	struct rte_event ev[64];
	uint64_t last = rte_get_timer_cycles();
	unsigned int total = 0;

	while (rte_get_timer_cycles() - last < max_cycles) {
		uint16_t n = rte_event_dequeue_burst(ctx->dev_id,
				ctx->consumer_port[0], ev, RTE_DIM(ev), 0);

		if (n != 0) {
			total += n;
			last = rte_get_timer_cycles();
		}
	}
	return total;
}

/* The service lcore the adapters' services run on. */
unsigned int
bench_adapter_lcore(const struct bench_ctx *ctx)
{
	return ctx->adapter_lcore;
}

/* The conf_cb of every adapter: the port the bench set up for it. */
int
bench_port_cb(uint16_t id __rte_unused, uint8_t dev_id __rte_unused,
	      uint8_t *port, void *arg)
{
	*port = ((const struct bench_create_arg *)arg)->port;
	return 0;
}

int
bench_adapter_begin(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
		    const struct rte_event_timer_adapter_conf *conf,
		    struct rte_event_timer *base, uint64_t nb, void **h)
{
	struct bench_create_arg arg = {
		.port = ctx->adapter_port,
		.base = base,
		.nb = nb,
		.service_lcore = ctx->adapter_lcore,
	};
	uint32_t sid;
	int ret;

	*h = ops->create_ext(conf, bench_port_cb, &arg);
	if (*h == NULL) {
		printf("%s: create failed: %s\n", ops->name,
		       rte_strerror(rte_errno));
		return -1;
	}
	if (ops->service_id_get(*h, &sid) == 0) {
		rte_service_map_lcore_set(sid, ctx->adapter_lcore, 1);
		rte_service_runstate_set(sid, 1);
	}
	ret = ops->start(*h);
	if (ret != 0) {
		printf("%s: start failed: %d\n", ops->name, ret);
		ops->free(*h);
		return -1;
	}
	return 0;
}

void
bench_adapter_end(struct bench_ctx *ctx, const struct tp_adapter_ops *ops,
		  void *h)
{
	uint32_t sid;

	ops->stop(h);
	if (ops->service_id_get(h, &sid) == 0) {
		rte_service_runstate_set(sid, 0);
		rte_service_map_lcore_set(sid, ctx->adapter_lcore, 0);
	}
	ops->free(h);
	/* Nothing may leak into the next run. */
	bench_drain(ctx, ctx->hz / 50);
}

static int
bench_evdev_setup(struct bench_ctx *ctx)
{
	struct rte_event_dev_config dc = { 0 };
	struct rte_event_queue_conf qc;
	struct rte_event_port_conf pc;
	struct rte_event_dev_info info;
	unsigned int i;
	int ret;

	if (rte_event_dev_count() == 0) {
		printf("no event device: pass --vdev=event_sw0\n");
		return -ENODEV;
	}
	ctx->dev_id = 0;
	rte_event_dev_info_get(ctx->dev_id, &info);
	dc.nb_event_queues = 1;
	dc.nb_event_ports = ctx->nb_workers + 1;
	dc.nb_events_limit = RTE_MIN(info.max_num_events, 4096);
	dc.nb_event_queue_flows = info.max_event_queue_flows;
	dc.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	dc.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	dc.dequeue_timeout_ns = info.min_dequeue_timeout_ns;
	if (rte_event_dev_configure(ctx->dev_id, &dc) < 0)
		return -EINVAL;
	rte_event_queue_default_conf_get(ctx->dev_id, 0, &qc);
	qc.schedule_type = RTE_SCHED_TYPE_PARALLEL;
	if (rte_event_queue_setup(ctx->dev_id, 0, &qc) < 0)
		return -EINVAL;
	ctx->queue_id = 0;
	for (i = 0; i <= ctx->nb_workers; i++) {
		rte_event_port_default_conf_get(ctx->dev_id, i, &pc);
		pc.dequeue_depth = RTE_MIN(128u, info.max_event_port_dequeue_depth);
		pc.enqueue_depth = RTE_MIN(128u, info.max_event_port_enqueue_depth);
		/* The adapter's port may fill the device, consumers do not. */
		pc.new_event_threshold = dc.nb_events_limit;
		if (rte_event_port_setup(ctx->dev_id, i, &pc) < 0)
			return -EINVAL;
		if (i < ctx->nb_workers) {
			ctx->consumer_port[i] = i;
			if (rte_event_port_link(ctx->dev_id, i, &ctx->queue_id,
						NULL, 1) != 1)
				return -EINVAL;
		}
	}
	ctx->adapter_port = ctx->nb_workers;
	if (rte_event_dev_service_id_get(ctx->dev_id,
					 &ctx->evdev_service_id) == 0) {
		rte_service_map_lcore_set(ctx->evdev_service_id,
					  ctx->service_lcore, 1);
		rte_service_runstate_set(ctx->evdev_service_id, 1);
	}
	ret = rte_service_lcore_start(ctx->service_lcore);
	if (ret < 0 && ret != -EALREADY)
		printf("warning: service lcore %u did not start\n",
		       ctx->service_lcore);
	ret = rte_service_lcore_start(ctx->adapter_lcore);
	if (ret < 0 && ret != -EALREADY)
		printf("warning: service lcore %u did not start\n",
		       ctx->adapter_lcore);
	return rte_event_dev_start(ctx->dev_id);
}

static void
bench_usage(const char *prg)
{
	printf("%s [EAL options] -- [options]\n"
	       "  --quick              short run (CI smoke test; < 2 minutes)\n"
	       "  --reps N             repetitions per figure (default 3)\n"
	       "  --adapters LIST      direct,rte,ring (default all)\n"
	       "  --arm-n N            the arm test at N outstanding timers only\n"
	       "                       (default 1K, 100K and 1M; --quick 1K, 100K)\n"
	       "  --tests LIST         comma list of tests (default all):\n",
	       prg);
	for (unsigned int i = 0; i < bench_nb_tests; i++)
		printf("                         %-10s %s\n", bench_tests[i].name,
		       bench_tests[i].desc);
	printf("  --json FILE          write every figure and the conditions\n"
	       "  --help               this text\n"
	       "EAL: one service lcore (-S), e.g. -l 0-1 -S 1 --vdev=event_sw0\n");
}

static int
bench_parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return (errno != 0 || *end != '\0' || end == s || *v > max) ? -1 : 0;
}

static int
bench_parse_adapters(struct bench_opts *o, const char *list)
{
	char buf[128], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", list);
	o->nb_adapters = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct tp_adapter_ops *ops =
			strcmp(tok, "direct") == 0 ? &tp_adapter_direct_ops :
			strcmp(tok, "rte") == 0 ? &tp_adapter_rte_ops :
			strcmp(tok, "ring") == 0 ? &bench_ring_ops : NULL;

		if (ops == NULL || o->nb_adapters == BENCH_MAX_ADAPTERS) {
			printf("unknown or repeated adapter '%s'\n", tok);
			return -1;
		}
		o->adapters[o->nb_adapters++] = ops;
	}
	return o->nb_adapters == 0 ? -1 : 0;
}

/* Test sizes, full and --quick (the whole run under two minutes). */
static void
bench_opts_sizes(struct bench_opts *o)
{
	static const struct {
		uint64_t arm_n[3];
		unsigned int nb_arm_n;
		uint64_t expiry_timers, expiry_window_ms;
		uint64_t lateness_timers, pc_timers;
	} sizes[2] = {
		{ { 1000, 100000, 1000000 }, 3, 1000000, 500, 100000, 1000000 },
		{ { 1000, 100000, 0 }, 2, 200000, 100, 20000, 100000 },
	};
	const unsigned int q = o->quick ? 1 : 0;

	memcpy(o->arm_n, sizes[q].arm_n, sizeof(sizes[q].arm_n));
	o->nb_arm_n = sizes[q].nb_arm_n;
	o->expiry_timers = sizes[q].expiry_timers;
	o->expiry_window_ms = sizes[q].expiry_window_ms;
	o->lateness_timers = sizes[q].lateness_timers;
	o->pc_timers = sizes[q].pc_timers;
	o->slow_consumer_ns = 2000;
}

static int
bench_parse_args(struct bench_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "reps", required_argument, NULL, 'r' },
		{ "adapters", required_argument, NULL, 'a' },
		{ "tests", required_argument, NULL, 't' },
		{ "json", required_argument, NULL, 'j' },
		{ "arm-n", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v, arm_n = 0;
	int c;

	memset(o, 0, sizeof(*o));
	o->reps = 3;
	o->adapters[0] = &tp_adapter_direct_ops;
	o->adapters[1] = &tp_adapter_rte_ops;
	o->adapters[2] = &bench_ring_ops;
	o->nb_adapters = 3;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			o->quick = 1;
			break;
		case 'r':
			if (bench_parse_uint(optarg, 64, &v) < 0 || v == 0) {
				printf("--reps: expected 1..64\n");
				return -1;
			}
			o->reps = v;
			break;
		case 'a':
			if (bench_parse_adapters(o, optarg) < 0)
				return -1;
			break;
		case 't':
			o->tests = optarg;
			break;
		case 'j':
			o->json_path = optarg;
			break;
		case 'n':
			if (bench_parse_uint(optarg, 100000000, &v) < 0 ||
			    v == 0) {
				printf("--arm-n: expected 1..100000000\n");
				return -1;
			}
			arm_n = v;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc) {
		printf("unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	bench_opts_sizes(o);
	if (arm_n != 0) {
		o->arm_n[0] = arm_n;
		o->nb_arm_n = 1;
	}
	return 0;
}

static int
bench_test_selected(const struct bench_opts *o, const char *name)
{
	const char *p = o->tests;
	size_t len = strlen(name);

	if (p == NULL)
		return 1;
	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return 1;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

static void
bench_json_conditions(const struct bench_ctx *ctx, FILE *f)
{
	struct utsname u;
	char cpu[128] = "unknown", line[256];
	FILE *ci = fopen("/proc/cpuinfo", "r");
	unsigned int i;

	while (ci != NULL && fgets(line, sizeof(line), ci) != NULL)
		if (strncmp(line, "model name", 10) == 0) {
			char *p = strchr(line, ':');

			if (p != NULL) {
				snprintf(cpu, sizeof(cpu), "%s", p + 2);
				cpu[strcspn(cpu, "\n\"\\")] = '\0';
			}
			break;
		}
	if (ci != NULL)
		fclose(ci);
	uname(&u);
	fprintf(f, "  \"conditions\": {\"cpu\": \"%s\", \"cpus\": %ld, "
		"\"tsc_hz\": %" PRIu64 ", \"dpdk\": \"%s\", \"kernel\": \"%s\", "
		"\"hugepages\": %s, \"lcores\": %u, \"service_lcore\": %u, "
		"\"adapter_lcore\": %u, \"workers\": [", cpu,
		sysconf(_SC_NPROCESSORS_ONLN), ctx->hz, rte_version(), u.release,
		rte_eal_has_hugepages() ? "true" : "false", rte_lcore_count(),
		ctx->service_lcore, ctx->adapter_lcore);
	for (i = 0; i < ctx->nb_workers; i++)
		fprintf(f, "%s%u", i ? ", " : "", ctx->worker_lcores[i]);
	fprintf(f, "], \"quick\": %s, \"reps\": %u},\n",
		ctx->opts->quick ? "true" : "false", ctx->opts->reps);
}

/* Each selected test, adapters interleaved inside each repetition. */
static void
bench_run_tests(struct bench_ctx *ctx)
{
	const struct bench_opts *opts = ctx->opts;
	unsigned int t, r, a;

	for (t = 0; t < bench_nb_tests; t++) {
		const struct bench_test *bt = &bench_tests[t];

		if (!bench_test_selected(opts, bt->name))
			continue;
		printf("\n== %s: %s\n", bt->name, bt->desc);
		fflush(stdout);
		for (r = 0; r < opts->reps; r++)
			for (a = 0; a < opts->nb_adapters; a++)
				if (bt->run(ctx, opts->adapters[a], r) < 0)
					printf("%s/%s rep %u failed\n", bt->name,
					       opts->adapters[a]->name, r);
		bt->report(ctx);
		fflush(stdout);
	}
}

/* Every figure and the conditions they were measured in. */
static void
bench_json_write(struct bench_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		printf("cannot write %s\n", path);
		return;
	}
	fprintf(f, "{\n");
	bench_json_conditions(ctx, f);
	bench_results_json(ctx, f);
	fprintf(f, "}\n");
	fclose(f);
	printf("\nwrote %s\n", path);
}

int
main(int argc, char **argv)
{
	struct bench_opts opts;
	struct bench_ctx ctx = { 0 };
	unsigned int lcore;
	uint32_t slist[RTE_MAX_LCORE];
	int ret;

	/* A bad EAL option: one line and exit status 2 (eal_init.h). */
	tp_eal_exit_register("timer_bench", 2);
	ret = tp_eal_init(argc, argv);
	if (ret == -EINVAL)
		return 2;
	if (ret < 0)
		rte_exit(2, "EAL initialisation failed\n");
	argc -= ret;
	argv += ret;
	if (bench_parse_args(&opts, argc, argv) < 0) {
		bench_usage(argv[0]);
		rte_eal_cleanup();
		return 2;
	}
	ctx.opts = &opts;
	ctx.hz = rte_get_timer_hz();
	ctx.rng = 0x2545f4914f6cdd1dULL;
	ret = rte_service_lcore_list(slist, RTE_DIM(slist));
	if (ret < 1) {
		printf("timer_bench needs one service lcore (EAL -S), "
		       "e.g. -l 0-1 -S 1\n");
		rte_eal_cleanup();
		return 2;
	}
	if (bench_results_init(&ctx) < 0)
		rte_exit(1, "cannot allocate the result store\n");
	ctx.service_lcore = slist[0];
	/* A second service lcore runs the adapters' services. */
	ctx.adapter_lcore = slist[ret > 1 ? 1 : 0];
	ctx.worker_lcores[ctx.nb_workers++] = rte_get_main_lcore();
	RTE_LCORE_FOREACH_WORKER(lcore)
		if (ctx.nb_workers < BENCH_MAX_LCORES)
			ctx.worker_lcores[ctx.nb_workers++] = lcore;
	rte_timer_subsystem_init();
	if (bench_evdev_setup(&ctx) < 0)
		rte_exit(1, "event device setup failed\n");

	printf("timer_bench: %s mode, %u reps, TSC %.3f GHz, %s, "
	       "service lcore %u, %u worker lcore(s)\n",
	       opts.quick ? "quick" : "full", opts.reps, ctx.hz / 1e9,
	       rte_eal_has_hugepages() ? "hugepages" : "4K pages",
	       ctx.service_lcore, ctx.nb_workers);
	bench_run_tests(&ctx);
	if (opts.json_path != NULL)
		bench_json_write(&ctx, opts.json_path);
	rte_event_dev_stop(ctx.dev_id);
	rte_event_dev_close(ctx.dev_id);
	bench_results_free(&ctx);
	rte_eal_cleanup();
	return 0;
}
