/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * RX role: poll ethdev queues (paced by tp_replay.c under --replay-pace,
 * held to the capture clock by tp_clock.c), classify, find or create each
 * packet's flow (taking a reference on it), move its TCP timeout class,
 * and either enqueue the packet as a NEW event on the packet queue,
 * scheduled by flow, or (inline packet path: drop and monitor modes)
 * meter it into its flow and free it here (tp_meter.h).
 */

#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_eventdev.h>
#include <rte_hash.h>
#include <rte_mbuf_dyn.h>
#include <rte_prefetch.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>

#include "tp_ctx.h"
#include "records/tp_trace.h"
#include "datapath/tp_classify.h"
#include "datapath/tp_pkt.h"
#include "datapath/tp_rx.h"
#include "datapath/tp_rx_ahead.h"
#include "datapath/tp_meter.h"
#include "datapath/tp_parse.h"
#include "reports/tp_counters.h"
#include "setup/tp_clock.h"
#include "setup/tp_replay.h"

/*
 * How long RX retries an enqueue the event device refuses (RX port at its
 * new_event_threshold, or the scheduler not keeping up) before it drops
 * the rest of the burst as evdev_full: long enough to ride out a burst of
 * work, short enough that a stalled or much too slow worker stage cannot
 * hold RX (its other queues, its stop and its RCU reports) for long.
 *
 * Only time in which the pipeline could have drained counts (see
 * tp_rx_wait_expired()): the RX lcore's own CPU time (its worker role
 * spinning counts; being descheduled does not), and only while the
 * scheduler service runs (docs/sample_app.rst says why).
 *
 * The count starts TP_RX_ENQ_GRACE_US after the first refusal, by the
 * TSC: reading a thread's CPU time is a system call (about 0.4 us here),
 * and under a load the device only just keeps up with, nearly every
 * refusal is over within a few retries.
 */
#define TP_RX_ENQ_RETRY_MS 50
#define TP_RX_ENQ_GRACE_US 1000

/** What an RX lcore waited so far for the event device to take a burst. */
struct tp_rx_wait {
	uint64_t grace_end;	/**< TSC at which the count starts. */
	uint64_t waited_ns;	/**< Counted wait. */
	uint64_t last_ns;	/**< This thread's CPU time at the last try;
				 *   0 while in the grace period.
				 */
	uint64_t sched_calls;	/**< Scheduler service calls at the last try. */
};

static uint64_t
tp_rx_thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* Calls of the scheduler service so far (0 without one). */
static uint64_t
tp_rx_sched_calls(const struct tp_ctx *ctx)
{
	uint64_t calls = 0;

	if (ctx->evd.has_sched_service)
		rte_service_attr_get(ctx->evd.sched_service_id,
				     RTE_SERVICE_ATTR_CALL_COUNT, &calls);
	return calls;
}

static void
tp_rx_wait_start(struct tp_rx_wait *w)
{
	w->grace_end = rte_rdtsc() +
		rte_get_tsc_hz() / (1000000 / TP_RX_ENQ_GRACE_US);
	w->waited_ns = 0;
	w->last_ns = 0;
}

/*
 * After the grace period: count the time since the last try if this
 * lcore ran it (thread CPU time) and the scheduler service ran meanwhile
 * (its call count moved; a device without a service schedules in the
 * ports, so always).
 */
static bool
tp_rx_wait_expired(const struct tp_ctx *ctx, struct tp_rx_wait *w)
{
	uint64_t now, calls;

	if (w->last_ns == 0) {
		if (rte_rdtsc() < w->grace_end)
			return false;
		w->last_ns = tp_rx_thread_ns();
		w->sched_calls = tp_rx_sched_calls(ctx);
		return false;
	}
	now = tp_rx_thread_ns();
	calls = tp_rx_sched_calls(ctx);
	if (!ctx->evd.has_sched_service || calls != w->sched_calls)
		w->waited_ns += now - w->last_ns;
	w->last_ns = now;
	w->sched_calls = calls;
	return w->waited_ns >= (uint64_t)TP_RX_ENQ_RETRY_MS * 1000000;
}

/*
 * Drop packet events RX could not enqueue, counted under 'why'. Each
 * packet's reference on its flow goes. When the device is full, a flow
 * this very packet created ends at once as lack_of_resources (its record
 * counts the packets of other lcores that did get through, if any): left
 * live, it would arm a timer whose expiry event only adds to the load of
 * the full device. On a stop, the flush ends every flow anyway.
 */
static void
tp_rx_drop_events(struct tp_ctx *ctx, struct tp_lcore *lc,
		  struct rte_event *ev, uint16_t n, enum tp_drop why)
{
	struct tp_pkt_meta *meta;
	struct tp_flow *f;
	uint16_t i;

	for (i = 0; i < n; i++) {
		meta = tp_meta(&ctx->eth, ev[i].mbuf);
		if (meta->pos != TP_POS_NONE) {
			f = &ctx->ft.entries[meta->pos];
			/* Our reference keeps the entry ours until the put. */
			if (meta->created && why == TP_DROP_EVDEV_FULL)
				tp_flow_end(ctx, lc, f, TP_END_LACK);
			tp_flow_put(ctx, lc, f);
		}
		rte_pktmbuf_free(ev[i].mbuf);
	}
	lc->stats.drops[why] += n;
}

/* Enqueue a burst, retrying on backpressure for a bounded time. 8< */
static void
tp_rx_enqueue(struct tp_ctx *ctx, struct tp_lcore *lc, struct rte_event *ev,
	      uint16_t n, tp_rx_wait_hook_t wait_hook)
{
	const uint8_t dev = ctx->evd.dev_id;
	struct tp_rx_wait wait;
	enum tp_drop why;
	uint16_t sent;

	sent = TP_STAGE_RET(ENQUEUE, n,
			    rte_event_enqueue_new_burst(dev, lc->ev_port, ev,
							n));
	if (unlikely(sent < n))
		tp_rx_wait_start(&wait);
	while (unlikely(sent < n)) {
		lc->stats.ev_enq_retry++;
		/* A stop request ends RX: what is not in yet is dropped. */
		if (unlikely(tp_quit_signal != 0 ||
			     tp_phase(ctx) >= TP_PHASE_RX_STOP)) {
			why = TP_DROP_SHUTDOWN;
			goto drop;
		}
		if (tp_rx_wait_expired(ctx, &wait)) {
			/* Still full: drop the rest, go back to polling. */
			why = TP_DROP_EVDEV_FULL;
			goto drop;
		}
		/* Every packet of the burst holds its flow reference: no
		 * lookup result is in use, ended slots may be reclaimed.
		 */
		rte_rcu_qsbr_quiescent(ctx->ft.qsv, lc->rcu_id);
		/* Out of credits: the lcore's other roles run meanwhile
		 * (tp_rx_wait_hook_t).
		 */
		wait_hook(ctx, lc);
		sent += TP_STAGE_RET(ENQUEUE, 0,
				     rte_event_enqueue_new_burst(dev,
					lc->ev_port, ev + sent, n - sent));
	}
	lc->stats.ev_enq += n;
	return;
drop:
	lc->stats.ev_enq += sent;
	tp_rx_drop_events(ctx, lc, ev + sent, n - sent, why);
}
/* >8 End of enqueue with retry. */

static __rte_always_inline void
tp_rx_event(struct rte_event *ev, struct rte_mbuf *m, uint32_t flow_id,
	    uint8_t sched_type)
{
	ev->event = 0;
	ev->flow_id = flow_id & 0xfffff;
	ev->op = RTE_EVENT_OP_NEW;
	ev->event_type = RTE_EVENT_TYPE_ETHDEV;
	ev->sched_type = sched_type;
	ev->queue_id = TP_QUEUE_PKT;
	ev->priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
	ev->mbuf = m;
}

/* Per-burst work arrays. */
struct tp_rx_burst {
	struct tp_classified own[TP_MAX_BURST];	/* classified here */
	const struct tp_classified *c[TP_MAX_BURST];
	uint32_t sig[TP_MAX_BURST];
	const void *keys[TP_MAX_BURST];
	int32_t pos[TP_MAX_BURST];
	struct rte_event ev[TP_MAX_BURST];
	/* Inline path: packets metered and consumed, freed in one call. */
	struct rte_mbuf *gone[TP_MAX_BURST];
	uint16_t nb_gone;
};

/*
 * Classify (unless the read-ahead did: pre, one per packet), count and
 * bulk-lookup a burst.
 */
static uint16_t
tp_rx_classify(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_rx_burst *b,
	       struct rte_mbuf **pkts, uint16_t n,
	       const struct tp_classified *pre)
{
	const struct tp_classified *c;
	uint16_t i, k, nf = 0;

	for (i = 0; i < n; i++) {
		if (pre != NULL) {
			c = &pre[i];
			RTE_ASSERT(c->m == pkts[i]);
		} else {
			if (i + 1 < n)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1],
							       void *));
			tp_classify(&ctx->eth, ctx->ft.h, pkts[i], &b->own[i]);
			c = &b->own[i];
		}
		b->c[i] = c;
		if (unlikely(c->wire != c->len)) {
			/* Only a port's RX callback sets it apart. */
			lc->stats.rx_truncated++;
			lc->stats.rx_oversize += c->wire > TP_CAPTURE_MAX_CAPLEN;
		}
		lc->stats.rx_bytes += c->wire;
		if (c->cls != TP_PKT_FLOW)
			continue;
		if (c->parsed.ipver == 4)
			lc->stats.rx_ipv4++;
		else
			lc->stats.rx_ipv6++;
		b->sig[nf] = c->sig;
		b->keys[nf] = &c->parsed.key;
		nf++;
	}
	/* rte_hash takes at most RTE_HASH_LOOKUP_BULK_MAX (64) keys a call
	 * and refuses more, leaving the positions unset: --burst goes to
	 * TP_MAX_BURST (128).
	 */
	for (i = 0; i < nf; i += k) {
		k = RTE_MIN((uint16_t)(nf - i),
			    (uint16_t)RTE_HASH_LOOKUP_BULK_MAX);
		rte_hash_lookup_with_hash_bulk(ctx->ft.h, &b->keys[i],
					       &b->sig[i], k, &b->pos[i]);
	}
	return nf;
}

/*
 * Inline path (drop and monitor modes): a packet that goes no further,
 * counted now and freed with the burst's others (rte_pktmbuf_free_bulk:
 * one call a burst rather than one a packet).
 */
static __rte_always_inline void
tp_rx_consume(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_rx_burst *b,
	      struct rte_mbuf *m)
{
	const bool consumed = tp_meter_consumed(ctx->cfg->fwd_mode,
						&lc->stats);

	/* The inline path exists only in those modes (tp_lcore.c). */
	RTE_ASSERT(consumed);
	RTE_SET_USED(consumed);
	if (m != NULL)		/* not freed by the read-ahead already */
		b->gone[b->nb_gone++] = m;
}

/*
 * A packet's capture time (0 for none) and its wire length as metered:
 * from its mbuf, or what the read-ahead noted of it when it freed it (m
 * NULL, tp_classify.h).
 */
static __rte_always_inline uint64_t
tp_rx_cap_ns(const struct tp_replay *rp, const struct rte_mbuf *m,
	     const struct tp_classified *c)
{
	return m != NULL ? tp_replay_cap_ns(rp, m) : c->ts;
}

static __rte_always_inline uint32_t
tp_rx_meter_wire(const struct tp_eth *eth, struct rte_mbuf *m,
		 const struct tp_classified *c)
{
	return m != NULL ? *tp_wire_len(eth, m) : c->meter_wire;
}

/*
 * Attach one IP packet to its flow. True when the packet is to go on as
 * an event; false when it was dropped (table full) or, on the inline
 * packet path, metered and consumed here.
 */
static __rte_always_inline bool
tp_rx_flow(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_rx_burst *b,
	   struct rte_mbuf *m, const struct tp_classified *c, uint32_t sig,
	   int32_t pos, uint64_t now)
{
	const struct tp_parsed *pp = &c->parsed;
	const struct tp_replay *rp = &ctx->replay;
	uint64_t ts = tp_replay_ts_of(rp, rp->cap_clock ?
				      tp_rx_cap_ns(rp, m, c) : 0, now,
				      ctx->cfg->replay_pace, ctx->start_ns,
				      ctx->start_tsc, ctx->hz);
	struct tp_pkt_meta *meta;
	struct tp_flow *f;
	bool created;

	TP_STAGE_BEGIN_IF(pos < 0, INSERT);
	f = tp_flow_get_or_create(ctx, lc, pp, sig, pos, now, &created);
	TP_STAGE_END_IF(pos < 0, 1);
	if (f == NULL) {
		rte_pktmbuf_free(m);	/* table full, counted */
		return false;
	}
	if (created) {
		/* For the record; written before the flow is published. */
		f->first_ts = ts;
		f->last_ts[0] = ts;
		f->last_ts[1] = 0;
		f->rev_first_ts = UINT64_MAX;
		f->in_port = m != NULL ? m->port : c->port;
		tp_flow_arm_later(lc, f, now);
	} else {
		if (unlikely(f->traced))
			tp_trace_packet(ctx, f, tp_flow_dir(f, pp->lo_is_src),
					pp->tcp_flags,
					tp_rx_meter_wire(&ctx->eth, m, c), now);
		/* every-packet refresh, except for the packet that created
		 * the flow
		 */
		if (ctx->cfg->refresh == TP_REFRESH_EVERY_PACKET)
			tp_flow_refresh(ctx, lc, f, now);
		if (f->proto == IPPROTO_TCP)
			tp_flow_tcp(ctx, lc, f, tp_flow_dir(f, pp->lo_is_src),
				    pp->tcp_flags, now);
	}
	if (ctx->inline_path) {
		/* Metered here; the packet goes no further. */
		tp_meter_count(f, tp_flow_dir(f, pp->lo_is_src),
			       tp_rx_meter_wire(&ctx->eth, m, c),
			       pp->tcp_flags, ts, ctx->nb_rx_lcores == 1);
		/* A new flow's reference goes as it is published. */
		if (!created)
			tp_flow_put(ctx, lc, f);
		tp_rx_consume(ctx, lc, b, m);
		return false;
	}
	/* Off the inline path there is no read-ahead: m is there. */
	RTE_ASSERT(m != NULL);
	meta = tp_meta(&ctx->eth, m);
	meta->pos = tp_flow_pos(&ctx->ft, f);
	meta->dir = tp_flow_dir(f, pp->lo_is_src);
	meta->tcp_flags = pp->tcp_flags;
	meta->created = created;
	meta->ts = ts;
	return true;
}

/*
 * A burst from queue q, by the input mode chosen at setup: held back to
 * the capture's pace (--replay-pace, tp_replay.c), held back until the
 * flows' clock settles (--clock capture, tp_clock.c; *pnow: that clock),
 * or as the port delivers it.
 */
static __rte_always_inline uint16_t
tp_rx_fetch(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_rxq *q,
	    struct rte_mbuf **pkts, uint64_t now, uint64_t *pnow)
{
	const struct tp_config *cfg = ctx->cfg;
	uint16_t n;

	if (cfg->replay_pace)
		return tp_replay_fetch(&ctx->replay, lc, q, pkts, cfg->burst,
				       now, cfg->replay_speed, ctx->hz);
	if (ctx->clk.on) {
		*pnow = tp_clock_now(&ctx->clk);
		return tp_clock_fetch(ctx, lc, q, pkts, cfg->burst);
	}
	TP_STAGE_BEGIN(RX_READ);
	n = rte_eth_rx_burst(q->port, q->queue, pkts, cfg->burst);
	TP_STAGE_END(n);
	return n;
}

/*
 * A packet's time: the poll's, or under --clock capture its capture
 * time, so that a run of packets handed out at once is handled each at
 * its own time (tp_clock.c), never before the one before it.
 */
static __rte_always_inline uint64_t
tp_rx_pkt_time(const struct tp_clock *clk, const struct tp_replay *rp,
	       const struct rte_mbuf *m, const struct tp_classified *c,
	       uint64_t now, uint64_t *pnow)
{
	if (!clk->on)
		return now;
	*pnow = RTE_MAX(*pnow, tp_rx_cap_ns(rp, m, c));
	return *pnow;
}

/* RX role: one queue per call. 8< */
unsigned int
tp_rx_poll(struct tp_ctx *ctx, struct tp_lcore *lc, tp_rx_wait_hook_t wait)
{
	const struct tp_config *cfg = ctx->cfg;
	struct rte_mbuf *pkts[TP_MAX_BURST];
	const struct tp_classified *pre = NULL;
	struct tp_rx_burst b;
	struct tp_rxq *q;
	uint16_t n, nf, i, j, k = 0;
	uint64_t now, pnow = 0;

	if (lc->nb_rxq == 0)
		return 0;
	q = &lc->rxq[lc->rxq_next];
	lc->rxq_next = lc->rxq_next + 1 == lc->nb_rxq ? 0 : lc->rxq_next + 1;
	now = rte_get_timer_cycles();
	n = tp_rx_fetch(ctx, lc, q, pkts, now, &pnow);
	if (n == 0) {
		rte_rcu_qsbr_quiescent(ctx->ft.qsv, lc->rcu_id);
		return 0;
	}
	lc->stats.rx_pkts += n;
	/* Read ahead: the n packets are the stash's last handed out. */
	if (q->ahead != NULL)
		pre = tp_rx_ahead_classified(q) + (q->stash_head - n);
	nf = TP_STAGE_RET(PARSE, n, tp_rx_classify(ctx, lc, &b, pkts, n, pre));
	b.nb_gone = 0;
	for (i = 0, j = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t cls = b.c[i]->cls;

		now = tp_rx_pkt_time(&ctx->clk, &ctx->replay, m, b.c[i], now,
				     &pnow);
		if (cls == TP_PKT_FLOW) {
			if (!tp_rx_flow(ctx, lc, &b, m, b.c[i], b.sig[j],
					b.pos[j], now)) {
				j++;
				continue;
			}
			tp_rx_event(&b.ev[k++], m, b.sig[j], cfg->sched_type);
			j++;
			continue;
		}
		if (unlikely(cls == TP_PKT_NOT_ETHER)) {
			/* Not Ethernet, and no header to make it so. */
			lc->stats.rx_non_ip++;
			lc->stats.drops[TP_DROP_NOT_ETHER]++;
			rte_pktmbuf_free(m);
			continue;
		}
		if (cls == TP_PKT_MALFORMED || cls == TP_PKT_BAD_CHAIN) {
			lc->stats.rx_malformed++;
			/* A chain that does not add up is never forwarded:
			 * the TX driver would walk past its end.
			 */
			if (cfg->malformed == TP_MALFORMED_DROP ||
			    cls == TP_PKT_BAD_CHAIN) {
				lc->stats.drops[TP_DROP_MALFORMED]++;
				rte_pktmbuf_free(m);
				continue;
			}
		} else {
			lc->stats.rx_non_ip++;
		}
		if (ctx->inline_path) {
			tp_rx_consume(ctx, lc, &b, m);
			continue;
		}
		RTE_ASSERT(m != NULL);
		tp_meta(&ctx->eth, m)->pos = TP_POS_NONE;
		tp_rx_event(&b.ev[k++], m, m->port, cfg->sched_type);
	}
	RTE_SET_USED(nf);
	/* The new flows' timers, before their packet events go. */
	tp_flow_arm_pending(ctx, lc);
	if (b.nb_gone > 0)
		rte_pktmbuf_free_bulk(b.gone, b.nb_gone);
	if (k > 0)
		tp_rx_enqueue(ctx, lc, b.ev, k, wait);
	tp_clock_rx_done(&ctx->clk, lc);
	/* Every flow we touched holds a reference now: we are quiescent. */
	rte_rcu_qsbr_quiescent(ctx->ft.qsv, lc->rcu_id);
	return n;
}
/* >8 End of RX role. */

/* RX role ends: stashed packets (received, not yet due) and those read
 * ahead are counted as received and dropped ("shutdown"); leave the RCU
 * reader set.
 */
void
tp_rx_stop(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	struct rte_mbuf *m;
	uint16_t i;

	for (i = 0; i < lc->nb_rxq; i++) {
		struct tp_rxq *q = &lc->rxq[i];

		do {
			while (q->stash_head < q->stash_nb) {
				m = q->stash[q->stash_head];
				lc->stats.rx_pkts++;
				if (m == NULL)	/* freed by the read-ahead */
					lc->stats.rx_bytes +=
						tp_rx_ahead_classified(q)
						[q->stash_head].wire;
				else
					lc->stats.rx_bytes +=
						ctx->eth.port_wire_cb[m->port] ?
						*tp_wire_len(&ctx->eth, m) :
						m->pkt_len;
				q->stash_head++;
				lc->stats.drops[TP_DROP_SHUTDOWN]++;
				rte_pktmbuf_free(m);
			}
			/* Those read ahead, the service stopped first. */
			q->stash_head = 0;
			q->stash_nb = tp_rx_ahead_stop(q, q->stash,
						       TP_MAX_BURST);
		} while (q->stash_nb > 0);
	}
	__atomic_store_n(&lc->stashed, 0, __ATOMIC_RELAXED);
	rte_rcu_qsbr_thread_offline(ctx->ft.qsv, lc->rcu_id);
}
