/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * IPFIX exporter (built with libfixbuf; tp_ipfix_stub.c otherwise): the
 * ring between the main lcore's record drain and the exporter thread, and
 * the thread itself (encode with tp_ipfix_enc.h, send over UDP/TCP or
 * write a file). The option checks are in tp_ipfix_opts.c.
 *
 * The thread is not an lcore: it may wait in send() or connect() (bounded
 * by short timeouts) without delaying any packet, timer or record drain.
 * Every record handed over ends up exactly once as sent or not sent:
 *   submitted == records + not_sent (queue full, collector down, send
 *   failed, or still queued when the exit deadline passed).
 */

#define _GNU_SOURCE		/* CPU_* */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>
#include <rte_thread.h>

#include "dpdk_compat.h"

#include "tp_ctx.h"
#include "setup/tp_option.h"
#include "records/tp_ipfix.h"
#include "records/tp_ipfix_enc.h"
#include "records/tp_ipfix_io.h"
#include "records/tp_ipfix_opts.h"
#include "records/tp_output.h"
#include "records/tp_sink.h"
#include "records/tp_record_types.h"
#include "reports/tp_slots.h"

/* The options record's values, from the pipeline's counters. */
static void
tp_ipfix_exstats(struct tp_ipfix *x, struct tp_ipfix_exstats *es)
{
	const struct tp_ctx *ctx = x->ctx;
	const struct tp_config *cfg = ctx->cfg;
	struct tp_lcore_stats t;
	uint64_t idle = 0;
	unsigned int i;

	x->sum(ctx, &t);
	for (i = 0; i < TP_TMO_ACTIVE; i++)
		idle = RTE_MAX(idle, cfg->tmo_ns[i]);
	memset(es, 0, sizeof(*es));
	es->process_id = (uint32_t)getpid();
	es->observed = t.flows_created;
	es->ignored = t.rx_non_ip + t.rx_malformed +
		t.drops[TP_DROP_TABLE_FULL];
	es->not_sent = __atomic_load_n(&x->st.not_sent, __ATOMIC_RELAXED) +
		__atomic_load_n(&x->st.queue_full, __ATOMIC_RELAXED);
	es->init_ms = ctx->start_ns / 1000000;
	es->idle_s = (uint16_t)RTE_MIN(idle / 1000000000, (uint64_t)65535);
	es->active_s = (uint16_t)RTE_MIN(cfg->tmo_ns[TP_TMO_ACTIVE] /
					 1000000000, (uint64_t)65535);
}

/* Templates and the options record, in a message of their own. */
static void
tp_ipfix_send_templates(struct tp_ipfix *x)
{
	struct tp_ipfix_exstats es;

	if (x->fd < 0)
		return;
	tp_ipfix_io_send(x);		/* records first: own message */
	if (x->fd < 0)
		return;
	tp_ipfix_exstats(x, &es);
	if (tp_ipfix_enc_templates(x->enc, &es) < 0) {
		TP_LOG(ERR, "IPFIX templates: %s",
		       tp_ipfix_enc_error(x->enc));
		return;
	}
	if (tp_ipfix_io_send(x))
		TP_IPFIX_ADD(x, templates, 1);
	x->next_refresh_ms = tp_ipfix_io_now_ms() +
		x->ctx->cfg->ipfix_tmpl_refresh_ns / 1000000;
}

static void
tp_ipfix_flow_of(struct tp_ipfix_flow *f, const struct tp_flow_record *r)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->src, r->src_addr, sizeof(f->src));
	memcpy(f->dst, r->dst_addr, sizeof(f->dst));
	f->start_ms = r->first_ns / 1000000;
	f->end_ms = r->last_ns / 1000000;
	f->dir_start_ms[0] = r->dir_first_ns[0] / 1000000;
	f->dir_end_ms[0] = r->dir_last_ns[0] / 1000000;
	f->dir_start_ms[1] = r->dir_first_ns[1] / 1000000;
	f->dir_end_ms[1] = r->dir_last_ns[1] / 1000000;
	f->octets[0] = r->bytes[0];
	f->octets[1] = r->bytes[1];
	f->packets[0] = r->pkts[0];
	f->packets[1] = r->pkts[1];
	f->in_if = r->in_port;
	f->sport = r->src_port;
	f->dport = r->dst_port;
	f->vlan = r->vlan[0];
	f->icmp_tc = r->icmp_type_code;
	f->ipver = r->ipver;
	f->proto = r->proto;
	f->tcp_flags[0] = r->tcp_flags[0];
	f->tcp_flags[1] = r->tcp_flags[1];
	f->end_reason = r->end_reason;
}

/*
 * One flow: its record (or, --ipfix-flows uni, its records) into the open
 * message, or counted as not sent.
 */
static void
tp_ipfix_export_one(struct tp_ipfix *x, const struct tp_flow_record *r,
		    uint64_t now)
{
	struct tp_ipfix_flow f;
	unsigned int done = 0;
	int ret;

	if (x->fd < 0) {
		TP_IPFIX_ADD(x, not_sent, 1);
		return;
	}
	tp_ipfix_flow_of(&f, r);
	if (tp_ipfix_enc_pending(x->enc) == 0)
		x->last_add_ms = now;
	ret = tp_ipfix_enc_add(x->enc, &f, &done);
	if (ret == -EAGAIN) {
		if (!tp_ipfix_io_send(x) && x->fd < 0) {
			TP_IPFIX_ADD(x, not_sent, 1);
			return;
		}
		x->last_add_ms = now;
		ret = tp_ipfix_enc_add(x->enc, &f, &done);
	}
	if (ret != 0) {
		TP_IPFIX_ADD(x, not_sent, 1);
		TP_LOG(WARNING, "IPFIX record not encoded: %s",
		       tp_ipfix_enc_error(x->enc));
	}
}

/* Timers of the thread: idle flush, TCP reconnect, UDP template refresh. */
static void
tp_ipfix_tick(struct tp_ipfix *x, unsigned int drained, uint64_t now)
{
	if (x->fd < 0 && x->tcp && now >= x->next_try_ms) {
		if (tp_ipfix_io_open(x)) {
			x->backoff_ms = TP_IPFIX_BACKOFF_MIN_MS;
			tp_ipfix_send_templates(x);
		} else {
			tp_ipfix_io_close(x, now);
		}
	}
	if (x->fd < 0)
		return;
	if (tp_ipfix_enc_pending(x->enc) > 0 && drained < TP_IPFIX_BURST &&
	    (x->stop || now - x->last_add_ms >= TP_IPFIX_IDLE_FLUSH_MS))
		tp_ipfix_io_send(x);
	if (!x->tcp && !x->file && now >= x->next_refresh_ms)
		tp_ipfix_send_templates(x);
}

/* Exit: whatever is still queued past the deadline is not sent. */
static void
tp_ipfix_abandon(struct tp_ipfix *x)
{
	struct tp_flow_record r[TP_IPFIX_BURST];
	unsigned int n;

	while ((n = rte_ring_sc_dequeue_burst_elem(x->ring, r, sizeof(r[0]),
						   TP_IPFIX_BURST, NULL)) > 0)
		TP_IPFIX_ADD(x, not_sent, n);
}

static uint32_t
tp_ipfix_thread(void *arg)
{
	struct tp_flow_record r[TP_IPFIX_BURST];
	struct tp_ipfix *x = arg;
	unsigned int n, i;
	uint64_t now;

#ifdef TP_STAGE_CYCLES
	RTE_PER_LCORE(tp_stage_self) = &x->stages;
#endif
	/* The options record carries the launch time: wait for it. */
	while (__atomic_load_n(&x->ctx->start_ns, __ATOMIC_ACQUIRE) == 0 &&
	       !__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (tp_ipfix_io_open(x))
		tp_ipfix_send_templates(x);
	else if (x->tcp)
		tp_ipfix_io_close(x, tp_ipfix_io_now_ms());
	for (;;) {
		n = rte_ring_sc_dequeue_burst_elem(x->ring, r, sizeof(r[0]),
						   TP_IPFIX_BURST, NULL);
		now = tp_ipfix_io_now_ms();
		for (i = 0; i < n; i++)
			TP_STAGE_RUN(ENCODE, 1,
				     tp_ipfix_export_one(x, &r[i], now));
		tp_ipfix_tick(x, n, now);
		if (__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
			if (n == 0 && rte_ring_empty(x->ring))
				break;
			if (now >= x->stop_deadline_ms) {
				tp_ipfix_abandon(x);
				break;
			}
		}
		if (n == 0)
			usleep(1000);
	}
	tp_ipfix_io_send(x);
	tp_ipfix_send_templates(x);	/* final options record */
	tp_ipfix_io_close(x, tp_ipfix_io_now_ms());
	return 0;
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
 * (docs/ipfix.rst).
 */
static void
tp_ipfix_place(struct tp_ipfix *x)
{
	rte_cpuset_t cur, main_cpus, svc, c;
	unsigned int id;

	main_cpus = rte_lcore_cpuset(rte_get_main_lcore());
	if (rte_thread_get_affinity_by_id(x->thread, &cur) != 0 ||
	    !CPU_EQUAL(&cur, &main_cpus))
		return;		/* EAL found a CPU without an lcore */
	CPU_ZERO(&svc);
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		if (!rte_lcore_has_role(id, ROLE_SERVICE))
			continue;
		c = rte_lcore_cpuset(id);
		CPU_OR(&svc, &svc, &c);
	}
	if (CPU_COUNT(&svc) == 0 ||
	    rte_thread_set_affinity_by_id(x->thread, &svc) != 0)
		return;
	TP_LOG(INFO, "IPFIX thread: every CPU has an lcore; it runs beside "
	       "the service lcores");
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
	tp_ipfix_place(x);
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
	return x != NULL ? &x->stages : NULL;
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
