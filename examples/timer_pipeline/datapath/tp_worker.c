/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Worker role: dequeue events. Packet events update their flow's counters
 * (tp_meter.h), drop the packet's reference on the flow and are forwarded
 * l2fwd-style (or dropped, or freed in monitor mode); timer events age
 * their flow (tp_flow.c).
 */

#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>
#include <rte_eventdev.h>
#include <rte_tcp.h>

#include "setup/tp_clock.h"
#include "tp_ctx.h"
#include "datapath/tp_flow.h"
#include "datapath/tp_pkt.h"
#include "datapath/tp_worker.h"
#include "datapath/tp_meter.h"

/* l2fwd's MAC rewrite: destination 02:00:00:00:00:<port>, our source. */
static __rte_always_inline void
tp_worker_mac_update(struct tp_ctx *ctx, struct rte_mbuf *m, uint16_t dst)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	uint64_t *d = (uint64_t *)&eth->dst_addr;

	*d = 0x000000000002 + ((uint64_t)dst << 40);
	rte_ether_addr_copy(&ctx->eth.port_mac[dst], &eth->src_addr);
}

static __rte_always_inline void
tp_worker_fwd(struct tp_ctx *ctx, struct tp_lcore *lc, struct rte_mbuf *m)
{
	const struct tp_config *cfg = ctx->cfg;
	uint16_t dst;

	/* Drop and monitor modes: metered, not sent. */
	if (tp_meter_consume(ctx->cfg->fwd_mode, &lc->stats, m))
		return;
	dst = ctx->eth.dst_port[m->port];
	if (cfg->mac_updating && m->data_len >= RTE_ETHER_HDR_LEN)
		tp_worker_mac_update(ctx, m, dst);
	lc->stats.tx_pkts++;
	if (unlikely(ctx->eth.txq_shared[dst])) {
		rte_spinlock_lock(&ctx->eth.txq_lock[dst]);
		rte_eth_tx_buffer(dst, lc->txq[dst], lc->txb[dst], m);
		rte_spinlock_unlock(&ctx->eth.txq_lock[dst]);
	} else {
		rte_eth_tx_buffer(dst, lc->txq[dst], lc->txb[dst], m);
	}
}

void
tp_worker_flush_tx(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	uint16_t i, p;

	for (i = 0; i < ctx->eth.nb_ports; i++) {
		p = ctx->eth.ports[i];
		if (lc->txb[p] == NULL || lc->txb[p]->length == 0)
			continue;
		if (unlikely(ctx->eth.txq_shared[p])) {
			rte_spinlock_lock(&ctx->eth.txq_lock[p]);
			rte_eth_tx_buffer_flush(p, lc->txq[p], lc->txb[p]);
			rte_spinlock_unlock(&ctx->eth.txq_lock[p]);
		} else {
			rte_eth_tx_buffer_flush(p, lc->txq[p], lc->txb[p]);
		}
	}
}

/* One dequeued burst. 8< */
static __rte_always_inline void
tp_worker_burst(struct tp_ctx *ctx, struct tp_lcore *lc, struct rte_event *ev,
		uint16_t n, const bool excl)
{
	const uint64_t now = tp_clock_now(&ctx->clk);
	struct tp_flow *tf[TP_MAX_BURST];
	uint32_t sig[TP_MAX_BURST];
	struct tp_pkt_meta *meta;
	unsigned int nt = 0, t = 0;
	struct rte_mbuf *m;
	struct tp_flow *f;
	uint16_t i;

	/* Expiries touch cold flows (entry, key, hash bucket): start
	 * loading every entry and key of the burst before the first, then
	 * the buckets (none once the table is closed: no key leaves it).
	 */
	for (i = 0; i < n; i++) {
		if (ev[i].queue_id != TP_QUEUE_TIMER)
			continue;
		f = tp_flow_from_timer(&ctx->ft, ev[i].event_ptr);
		rte_prefetch0(f);
		rte_prefetch0(RTE_PTR_ADD(f, RTE_CACHE_LINE_SIZE));
		rte_prefetch0(RTE_PTR_ADD(f, sizeof(*f) - 1));
		tf[nt++] = f;
	}
	for (i = 0; i < nt; i++)
		rte_prefetch0(tf[i]->key);
	if (nt > 0 && !tp_flow_table_closed(&ctx->ft))
		TP_STAGE_RUN(FLOW_END, 0,
			     tp_flow_expiries_prepare(ctx, tf, nt, sig));
	for (i = 0; i < n; i++) {
		if (ev[i].queue_id == TP_QUEUE_TIMER) {
			TP_STAGE_RUN(FLOW_END, 1, tp_flow_expired(ctx, lc,
					tf[t], now, sig[t]));
			t++;
			continue;
		}
		m = ev[i].mbuf;
		meta = tp_meta(&ctx->eth, m);
		lc->stats.ev_deq_pkt++;
		if (meta->pos != TP_POS_NONE) {
			f = &ctx->ft.entries[meta->pos];
			tp_meter_count(f, meta->dir, *tp_wire_len(&ctx->eth, m),
				       meta->tcp_flags, meta->ts, excl);
			/* Counters first, then the reference (release) for
			 * the finaliser.
			 */
			tp_flow_put(ctx, lc, f);
		}
		tp_worker_fwd(ctx, lc, m);
	}
	tp_worker_flush_tx(ctx, lc);
}
/* >8 End of one dequeued burst. */

static __rte_noinline void
tp_worker_burst_atomic(struct tp_ctx *ctx, struct tp_lcore *lc,
		       struct rte_event *ev, uint16_t n)
{
	tp_worker_burst(ctx, lc, ev, n, true);
}

static __rte_noinline void
tp_worker_burst_shared(struct tp_ctx *ctx, struct tp_lcore *lc,
		       struct rte_event *ev, uint16_t n)
{
	tp_worker_burst(ctx, lc, ev, n, false);
}

/* Worker role: one dequeue. Returns the number of events handled. */
unsigned int
tp_worker_poll(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	struct rte_event ev[TP_MAX_BURST];
	uint16_t n;

	n = rte_event_dequeue_burst(ctx->evd.dev_id, lc->ev_port, ev,
				    ctx->evd.deq_depth, 0);
	lc->nb_held = n;	/* released implicitly by the next dequeue */
	if (n == 0)
		return 0;
	TP_STAGE_BEGIN(WORKER);
	if (ctx->cfg->sched_type == RTE_SCHED_TYPE_ATOMIC)
		tp_worker_burst_atomic(ctx, lc, ev, n);
	else
		tp_worker_burst_shared(ctx, lc, ev, n);
	TP_STAGE_END(n);
	tp_clock_worker_done(&ctx->clk, lc);
	/* --fault-worker-delay-us (testing aid): a slow worker, so the event
	 * device fills up and RX and the adapter meet backpressure.
	 */
	if (unlikely(ctx->cfg->fault_worker_delay_us != 0))
		rte_delay_us_block(ctx->cfg->fault_worker_delay_us);
	return n;
}

static void
tp_worker_quiesce_cb(uint8_t dev_id, struct rte_event ev, void *arg)
{
	RTE_SET_USED(dev_id);
	RTE_SET_USED(arg);
	/* Only packets can be left in a port: timers were all settled. */
	if (ev.queue_id == TP_QUEUE_PKT)
		rte_pktmbuf_free(ev.mbuf);
}

/* Worker role ends: release what the last dequeue holds, quiesce. */
void
tp_worker_stop(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	struct rte_event ev[TP_MAX_BURST];
	uint16_t i;

	tp_worker_flush_tx(ctx, lc);
	if (lc->nb_held > 0) {
		memset(ev, 0, sizeof(ev[0]) * lc->nb_held);
		for (i = 0; i < lc->nb_held; i++)
			ev[i].op = RTE_EVENT_OP_RELEASE;
		rte_event_enqueue_burst(ctx->evd.dev_id, lc->ev_port, ev,
					lc->nb_held);
	}
	lc->nb_held = 0;
	rte_event_port_quiesce(ctx->evd.dev_id, lc->ev_port,
			       tp_worker_quiesce_cb, ctx);
}

