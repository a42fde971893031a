/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The IPFIX exporter's work, run by its thread or its service
 * (tp_ipfix.c), never both: take a burst of records off the ring, encode
 * them into messages (tp_ipfix_enc.h), send those (tp_ipfix_io.c), and the
 * exporter's timers (idle flush, TCP reconnect, UDP template refresh).
 * Only the one that runs the exporter writes its state; counters are
 * stored atomically.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rte_ring.h>
#include <rte_ring_elem.h>

#include "tp_ctx.h"
#include "records/tp_ipfix_enc.h"
#include "records/tp_ipfix_io.h"
#include "records/tp_ipfix_run.h"
#include "records/tp_record_types.h"
#include "reports/tp_slots.h"

/* The options record's values, from the pipeline's counters. */
static void
tp_ipfix_run_exstats(struct tp_ipfix *x, struct tp_ipfix_exstats *es)
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
tp_ipfix_run_templates(struct tp_ipfix *x)
{
	struct tp_ipfix_exstats es;

	if (x->fd < 0)
		return;
	tp_ipfix_io_send(x);		/* records first: own message */
	if (x->fd < 0)
		return;
	tp_ipfix_run_exstats(x, &es);
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
tp_ipfix_run_flow_of(struct tp_ipfix_flow *f, const struct tp_flow_record *r)
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
tp_ipfix_run_one(struct tp_ipfix *x, const struct tp_flow_record *r,
		    uint64_t now)
{
	struct tp_ipfix_flow f;
	unsigned int done = 0;
	int ret;

	if (x->fd < 0) {
		TP_IPFIX_ADD(x, not_sent, 1);
		return;
	}
	tp_ipfix_run_flow_of(&f, r);
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

/*
 * The exporter's timers: idle flush, TCP reconnect, UDP template refresh.
 * drained: the round found the queue empty.
 */
static void
tp_ipfix_run_tick(struct tp_ipfix *x, bool drained, uint64_t now)
{
	if (x->fd < 0 && x->tcp && now >= x->next_try_ms) {
		if (tp_ipfix_io_open(x)) {
			x->backoff_ms = TP_IPFIX_BACKOFF_MIN_MS;
			tp_ipfix_run_templates(x);
		} else {
			tp_ipfix_io_close(x, now);
		}
	}
	if (x->fd < 0)
		return;
	if (tp_ipfix_enc_pending(x->enc) > 0 && drained &&
	    (x->stop || now - x->last_add_ms >= TP_IPFIX_IDLE_FLUSH_MS))
		tp_ipfix_io_send(x);
	if (!x->tcp && !x->file && now >= x->next_refresh_ms)
		tp_ipfix_run_templates(x);
}

/* Exit: whatever is still queued past the deadline is not sent. */
void
tp_ipfix_run_abandon(struct tp_ipfix *x)
{
	struct tp_flow_record r[TP_IPFIX_BURST];
	unsigned int n;

	while ((n = rte_ring_sc_dequeue_burst_elem(x->ring, r, sizeof(r[0]),
						   TP_IPFIX_BURST, NULL)) > 0)
		TP_IPFIX_ADD(x, not_sent, n);
}

/* Open the transport, its templates first. */
void
tp_ipfix_run_open(struct tp_ipfix *x)
{
	if (tp_ipfix_io_open(x))
		tp_ipfix_run_templates(x);
	else if (x->tcp)
		tp_ipfix_io_close(x, tp_ipfix_io_now_ms());
}

/*
 * How many records a round takes. As a service, TP_IPFIX_ROUND while its
 * queue is at most half full: the adapter's and the scheduler's services
 * on the same lcore run between two rounds, and a round of TP_IPFIX_BURST
 * (about 17 us of encoding and sending on the development VM) held them
 * off long enough that a flood's expiries reached the workers 4 to 32 ms
 * late at p99 (docs/bench.rst, "Large tables and churn"). A fuller queue
 * takes whole bursts, so that the exporter keeps up rather than drop
 * records.
 */
static unsigned int
tp_ipfix_run_burst(const struct tp_ipfix *x)
{
	if (x->as_service &&
	    rte_ring_count(x->ring) <= rte_ring_get_capacity(x->ring) / 2)
		return TP_IPFIX_ROUND;
	return TP_IPFIX_BURST;
}

/* One round: a burst of records into messages, then the timers. */
unsigned int
tp_ipfix_run_round(struct tp_ipfix *x, uint64_t *now)
{
	struct tp_flow_record r[TP_IPFIX_BURST];
	const unsigned int burst = tp_ipfix_run_burst(x);
	unsigned int n, i;

	n = rte_ring_sc_dequeue_burst_elem(x->ring, r, sizeof(r[0]), burst,
					   NULL);
	*now = tp_ipfix_io_now_ms();
	for (i = 0; i < n; i++)
		TP_STAGE_RUN(ENCODE, 1, tp_ipfix_run_one(x, &r[i], *now));
	tp_ipfix_run_tick(x, n < burst, *now);
	return n;
}

/*
 * After a round of n records: whether the exporter is through, once it is
 * told to stop (its queue empty, or the exit deadline passed: what is
 * still queued is not sent).
 */
bool
tp_ipfix_run_through(struct tp_ipfix *x, unsigned int n, uint64_t now)
{
	if (!__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE))
		return false;
	if (n == 0 && rte_ring_empty(x->ring))
		return true;
	if (now < x->stop_deadline_ms)
		return false;
	tp_ipfix_run_abandon(x);
	return true;
}

/* The open message, the final options record; the transport closed. */
void
tp_ipfix_run_finish(struct tp_ipfix *x)
{
	tp_ipfix_io_send(x);
	tp_ipfix_run_templates(x);
	tp_ipfix_io_close(x, tp_ipfix_io_now_ms());
}
