/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * IPFIX exporter (built with libfixbuf; tp_ipfix_stub.c otherwise): the
 * ring between the record drain and the exporter, and what runs the
 * exporter (its work, tp_ipfix_run.c: encode with tp_ipfix_enc.h, send
 * over UDP/TCP or write a file). The option checks are in tp_ipfix_opts.c.
 *
 * A thread of its own runs it: not an lcore, it may wait in send() or
 * connect() (bounded by short timeouts) without delaying any packet,
 * timer or record drain. Where every CPU has an lcore, that thread would
 * take turns with a service lcore for its CPU; a UDP exporter (which
 * never waits on its collector) then runs as a service on that service
 * lcore instead, a burst per call. Only one of the two runs it.
 * Every record handed over ends up exactly once as sent or not sent:
 *   submitted == records + not_sent (queue full, collector down, send
 *   failed, or still queued when the exit deadline passed).
 */

#define _GNU_SOURCE		/* CPU_* */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>
#include <rte_service.h>
#include <rte_service_component.h>
#include <rte_thread.h>

#include "dpdk_compat.h"

#include "tp_ctx.h"
#include "setup/tp_option.h"
#include "setup/tp_service.h"
#include "records/tp_ipfix.h"
#include "records/tp_ipfix_enc.h"
#include "records/tp_ipfix_io.h"
#include "records/tp_ipfix_opts.h"
#include "records/tp_ipfix_run.h"
#include "records/tp_record_types.h"

static uint32_t
tp_ipfix_thread(void *arg)
{
	struct tp_ipfix *x = arg;
	unsigned int n;
	uint64_t now;

#ifdef TP_STAGE_CYCLES
	RTE_PER_LCORE(tp_stage_self) = &x->stages;
#endif
	/* The options record carries the launch time: wait for it. */
	while (__atomic_load_n(&x->ctx->start_ns, __ATOMIC_ACQUIRE) == 0 &&
	       !__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (x->as_service)
		return 0;	/* tp_ipfix_service_run() exports */
	tp_ipfix_run_open(x);
	for (;;) {
		n = tp_ipfix_run_round(x, &now);
		if (tp_ipfix_run_through(x, n, now))
			break;
		if (n == 0)
			usleep(1000);
	}
	tp_ipfix_run_finish(x);
	return 0;
}

/*
 * The exporter as a service: a round per call, so that the adapter's and
 * the scheduler's services on the same lcore run between its bursts, not
 * only when the kernel takes turns between it and the service lcore. Its
 * stages count as the service lcore's.
 */
static int32_t
tp_ipfix_service_run(void *arg)
{
	struct tp_ipfix *x = arg;
	unsigned int n;
	uint64_t now;

	if (__atomic_load_n(&x->done, __ATOMIC_RELAXED))
		return -EAGAIN;
#ifdef TP_STAGE_CYCLES
	if (unlikely(RTE_PER_LCORE(tp_stage_self) == NULL))
		RTE_PER_LCORE(tp_stage_self) =
			&x->ctx->lc[rte_lcore_id()].stages;
#endif
	if (!x->opened) {
		if (__atomic_load_n(&x->ctx->start_ns, __ATOMIC_ACQUIRE) == 0 &&
		    !__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE))
			return -EAGAIN;
		tp_ipfix_run_open(x);
		x->opened = true;
	}
	n = tp_ipfix_run_round(x, &now);
	if (tp_ipfix_run_through(x, n, now)) {
		tp_ipfix_run_finish(x);
		__atomic_store_n(&x->done, 1, __ATOMIC_RELEASE);
	}
	return n > 0 ? 0 : -EAGAIN;
}

/* Register the service and map it to a service lcore. */
static int
tp_ipfix_service_start(struct tp_ipfix *x)
{
	unsigned int l;
	int ret;

	ret = tp_service_register(&x->service_id, tp_ipfix_service_run, x,
				  "IPFIX exporter", "tp_ipfix_exporter");
	if (ret < 0)
		return ret;
	x->as_service = true;
	ret = rte_service_component_runstate_set(x->service_id, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(x->service_id, 1);
	if (ret == 0)
		ret = tp_service_map(x->service_id, "IPFIX exporter");
	if (ret < 0) {
		rte_service_component_unregister(x->service_id);
		x->as_service = false;
		return ret;
	}
	for (l = 0; l < RTE_MAX_LCORE; l++)
		if (rte_lcore_has_role(l, ROLE_SERVICE) &&
		    rte_service_map_lcore_get(x->service_id, l) == 1)
			x->service_lcore = l;
	return 0;
}

/*
 * Stop the service once it is through (bounded: past the exit deadline
 * this thread ends the export itself, e.g. when its lcore had stopped).
 */
static void
tp_ipfix_service_stop(struct tp_ipfix *x)
{
	const uint64_t end = x->stop_deadline_ms + TP_IPFIX_IO_MS;

	while (!__atomic_load_n(&x->done, __ATOMIC_ACQUIRE) &&
	       tp_ipfix_io_now_ms() < end)
		usleep(1000);
	rte_service_runstate_set(x->service_id, 0);
	rte_service_component_runstate_set(x->service_id, 0);
	while (rte_service_may_be_active(x->service_id) == 1)
		rte_pause();
	if (!__atomic_load_n(&x->done, __ATOMIC_ACQUIRE)) {
		TP_LOG(WARNING, "IPFIX exporter service did not finish: "
		       "ending the export here");
		if (!x->opened)
			tp_ipfix_run_open(x);
		tp_ipfix_run_abandon(x);
		tp_ipfix_run_finish(x);
	}
	rte_service_component_unregister(x->service_id);
}

static int
tp_ipfix_alloc(struct tp_ctx *ctx, struct tp_ipfix *x)
{
	const struct tp_config *cfg = ctx->cfg;
	const char *why = NULL;
	char err[160];

	x->ctx = ctx;
	x->fd = -1;
	x->sink.fd = -1;
	x->file = cfg->ipfix_file[0] != '\0';
	x->tcp = !x->file && cfg->ipfix_transport == TP_IPFIX_TCP;
	x->backoff_ms = TP_IPFIX_BACKOFF_MIN_MS;
	if (!x->file && tp_ipfix_opts_resolve(cfg, &x->addr, &x->addrlen,
					 &why) < 0) {
		TP_LOG(ERR, "--ipfix '%s': %s", cfg->ipfix_collector, why);
		return -EINVAL;
	}
	x->ring = rte_ring_create_elem("tp_ipfix",
				       sizeof(struct tp_flow_record),
				       cfg->ipfix_queue, rte_socket_id(),
				       RING_F_SP_ENQ | RING_F_SC_DEQ |
				       RING_F_EXACT_SZ);
	if (x->ring == NULL) {
		TP_LOG(ERR, "cannot create the IPFIX ring: %s",
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	x->enc = tp_ipfix_enc_create(cfg->ipfix_domain, x->tcp || x->file ?
				     TP_IPFIX_STREAM_MTU : TP_IPFIX_UDP_MTU,
				     cfg->ipfix_flows == TP_IPFIX_UNI,
				     err, sizeof(err));
	if (x->enc == NULL) {
		TP_LOG(ERR, "IPFIX encoder: %s", err);
		return -EINVAL;
	}
	return 0;
}

static void
tp_ipfix_free(struct tp_ctx *ctx)
{
	struct tp_ipfix *x = ctx->ipfix;

	if (x == NULL)
		return;
	tp_ipfix_enc_free(x->enc);
	rte_ring_free(x->ring);
	rte_free(x);
	ctx->ipfix = NULL;
}

/*
 * Where the thread runs. EAL puts control threads on the CPUs no lcore
 * uses; when every CPU has an lcore it falls back to the main lcore's,
 * which also walks the table in the forced end and feeds this thread, so
 * the two take turns. The service lcores' CPUs are the better home then
 * (docs/ipfix.rst): true when the thread moved there.
 */
static bool
tp_ipfix_place(struct tp_ipfix *x)
{
	rte_cpuset_t cur, main_cpus, svc, c;
	unsigned int id;

	main_cpus = rte_lcore_cpuset(rte_get_main_lcore());
	if (rte_thread_get_affinity_by_id(x->thread, &cur) != 0 ||
	    !CPU_EQUAL(&cur, &main_cpus))
		return false;	/* EAL found a CPU without an lcore */
	CPU_ZERO(&svc);
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		if (!rte_lcore_has_role(id, ROLE_SERVICE))
			continue;
		c = rte_lcore_cpuset(id);
		CPU_OR(&svc, &svc, &c);
	}
	return CPU_COUNT(&svc) > 0 &&
		rte_thread_set_affinity_by_id(x->thread, &svc) == 0;
}

int
tp_ipfix_start(struct tp_ctx *ctx, tp_ipfix_sum_t sum)
{
	struct tp_ipfix *x;
	int ret;

	if (!tp_ipfix_opts_enabled(ctx->cfg))
		return 0;
	x = rte_zmalloc("tp_ipfix", sizeof(*x), RTE_CACHE_LINE_SIZE);
	if (x == NULL)
		return -ENOMEM;
	ctx->ipfix = x;
	x->sum = sum;
	x->wait_room = ctx->cfg->ipfix_queue_full == TP_IPFIX_FULL_WAIT ||
		(ctx->cfg->ipfix_queue_full == TP_IPFIX_FULL_AUTO &&
		 ctx->input.input_ends);
	ret = tp_ipfix_alloc(ctx, x);
	/* A control thread: on the CPUs no lcore uses (EAL's choice; the
	 * main lcore's when every CPU has an lcore), never an lcore itself.
	 */
	if (ret == 0) {
		ret = compat_ctrl_thread_create(&x->thread, "tp-ipfix",
						tp_ipfix_thread, x);
		if (ret != 0)
			TP_LOG(ERR, "cannot start the IPFIX thread: %s",
			       strerror(-ret));
	}
	if (ret != 0) {
		tp_ipfix_free(ctx);
		return ret;
	}
	x->thread_started = true;
	/* UDP never waits on its collector: there, the service lcore runs
	 * the exporter itself rather than share its CPU with the thread.
	 */
	if (!tp_ipfix_place(x))
		return 0;
	if (!x->tcp && !x->file) {
		ret = tp_ipfix_service_start(x);
		if (ret == 0)
			return 0;	/* tp_service_map() said where */
		TP_LOG(WARNING, "IPFIX exporter service not started (%s): "
		       "the thread exports", strerror(-ret));
	}
	TP_LOG(INFO, "IPFIX thread: every CPU has an lcore; it runs beside "
	       "the service lcores");
	return 0;
}

/*
 * --ipfix-queue-full wait: a record that finds the queue full waits for
 * room, yielding the CPU (the exporter thread may share it). Nothing
 * upstream is lost meanwhile on a capture: the lcore handing records over
 * (and with it its RX) is held up, and the rest of the pipeline meets
 * backpressure. A wait the thread does not end within TP_IPFIX_WAIT_MS
 * (it takes records at least every TP_IPFIX_IO_MS, collector up or down)
 * turns waiting off for the rest of the run, with a warning: from then
 * on such records are counted as not sent. So does a signal: the exit
 * keeps its time budget (tp_control_flush() bounds the forced end).
 */
static bool
tp_ipfix_wait_room(struct tp_ipfix *x, const struct tp_flow_record *r)
{
	const uint64_t end = rte_get_tsc_cycles() +
		rte_get_tsc_hz() / 1000 * TP_IPFIX_WAIT_MS;

	while (!x->stop && tp_quit_signal == 0) {
		/* On the exporter service's own lcore (the record writer
		 * service's), the service cannot run meanwhile: run it
		 * here. The two take turns, each moving at most 64 records
		 * a call, and the queue holds at least 64, so the writer
		 * should not find it full there; if it does, the lcore does
		 * not wait on itself.
		 */
		if (x->as_service && rte_lcore_id() == x->service_lcore)
			tp_ipfix_service_run(x);
		else
			sched_yield();
		if (rte_ring_sp_enqueue_elem(x->ring, (void *)(uintptr_t)r,
					     sizeof(*r)) == 0)
			return true;
		if (rte_get_tsc_cycles() >= end) {
			x->wait_room = false;
			TP_LOG(WARNING, "IPFIX exporter: no room in its queue "
			       "for %u ms; records that find it full are now "
			       "counted as not sent", TP_IPFIX_WAIT_MS);
			break;
		}
	}
	return false;
}

void
tp_ipfix_submit(struct tp_ipfix *x, const struct tp_flow_record *r)
{
	__atomic_store_n(&x->st.submitted, x->st.submitted + 1,
			 __ATOMIC_RELAXED);
	if (x->stop ||
	    (rte_ring_sp_enqueue_elem(x->ring, (void *)(uintptr_t)r,
				      sizeof(*r)) != 0 &&
	     (!x->wait_room || tp_quit_signal != 0 ||
	      !tp_ipfix_wait_room(x, r))))
		__atomic_store_n(&x->st.queue_full, x->st.queue_full + 1,
				 __ATOMIC_RELAXED);
}

uint32_t
tp_ipfix_room(const struct tp_ipfix *x)
{
	if (x == NULL || x->ring == NULL)
		return UINT32_MAX;
	return x->stop ? 0 : rte_ring_free_count(x->ring);
}

void
tp_ipfix_stop(struct tp_ipfix *x)
{
	if (x == NULL || !x->thread_started)
		return;
	x->stop_deadline_ms = tp_ipfix_io_now_ms() + TP_IPFIX_EXIT_MS;
	__atomic_store_n(&x->stop, 1, __ATOMIC_RELEASE);
	rte_thread_join(x->thread, NULL);
	x->thread_started = false;
	if (x->as_service)
		tp_ipfix_service_stop(x);
	/* The counters stay readable for the summary and the check. */
	tp_ipfix_enc_free(x->enc);
	x->enc = NULL;
	rte_ring_free(x->ring);
	x->ring = NULL;
}

void
tp_ipfix_release(struct tp_ctx *ctx)
{
	tp_ipfix_stop(ctx->ipfix);
	tp_ipfix_free(ctx);
}

#ifdef TP_STAGE_CYCLES
const struct tp_stage_stats *
tp_ipfix_stages(const struct tp_ipfix *x)
{
	/* A service's stages are its service lcore's. */
	return x != NULL && !x->as_service ? &x->stages : NULL;
}
#endif

bool
tp_ipfix_stats_get(const struct tp_ipfix *x, struct tp_ipfix_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (x == NULL)
		return false;
	s->messages = __atomic_load_n(&x->st.messages, __ATOMIC_RELAXED);
	s->bytes = __atomic_load_n(&x->st.bytes, __ATOMIC_RELAXED);
	s->records = __atomic_load_n(&x->st.records, __ATOMIC_RELAXED);
	s->data_records = __atomic_load_n(&x->st.data_records,
					  __ATOMIC_RELAXED);
	s->templates = __atomic_load_n(&x->st.templates, __ATOMIC_RELAXED);
	s->queue_full = __atomic_load_n(&x->st.queue_full, __ATOMIC_RELAXED);
	s->not_sent = __atomic_load_n(&x->st.not_sent, __ATOMIC_RELAXED) +
		s->queue_full;
	s->reconnects = __atomic_load_n(&x->st.reconnects, __ATOMIC_RELAXED);
	s->submitted = __atomic_load_n(&x->st.submitted, __ATOMIC_RELAXED);
	s->window_us = __atomic_load_n(&x->st.window_us, __ATOMIC_RELAXED);
	return true;
}
