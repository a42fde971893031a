/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * A new flow's state, set up by the RX lcore that claimed its slot in
 * tp_flow_get_or_create() (tp_flow.c): its key from rte_hash's store, its
 * timeout class from the first packet, its serial and whether it is
 * traced, and its timer's event template. No lock: until the flow is
 * published (tp_flow_arm_pending()) no other lcore touches the entry.
 */

#include <netinet/in.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_tcp.h>

#include "tp_ctx.h"
#include "datapath/tp_flow_init.h"
#include "datapath/tp_parse.h"

static uint8_t
tp_flow_initial_class(uint8_t proto, uint8_t tcp_flags)
{
	switch (proto) {
	case IPPROTO_TCP:
		if (tcp_flags & (RTE_TCP_FIN_FLAG | RTE_TCP_RST_FLAG))
			return TP_TMO_TCP_CLOSING;
		if ((tcp_flags & (RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG)) ==
		    RTE_TCP_SYN_FLAG)
			return TP_TMO_TCP_SYN;
		return TP_TMO_TCP_EST;
	case IPPROTO_UDP:
		return TP_TMO_UDP;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return TP_TMO_ICMP;
	default:
		return TP_TMO_OTHER;
	}
}

/* Does --trace-flow select a flow with this key (either end)? */
static bool
tp_flow_selected(const struct tp_flow_sel *sel, const struct tp_flow_key *k)
{
	unsigned int e;

	if (sel->text[0] == '\0')
		return false;
	for (e = 0; e < 2; e++) {
		if (sel->ipver != 0 && (sel->ipver != tp_key_ipver(k) ||
		    memcmp(sel->addr, tp_key_addr(k, e),
			   sel->ipver == 4 ? 4 : 16)))
			continue;
		if (sel->port != 0 && sel->port != rte_be_to_cpu_16(k->port[e]))
			continue;
		return true;
	}
	return false;
}

/* The flow's state, from its first packet. 8< */
void
tp_flow_init(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
	     const struct tp_parsed *pp, uint32_t sig, uint64_t now)
{
	struct tp_flow_timer *tl = tp_flow_tl(&ctx->ft, f);
	struct rte_event *ev = &tl->tim.ev;
	uint8_t cls = tp_flow_initial_class(pp->key.proto, pp->tcp_flags);
	const uint32_t pos = tp_flow_pos(&ctx->ft, f);

	/* The key rte_hash stored when it gave us the position: ours until
	 * tp_flow_slot_free() frees the position.
	 */
	f->key = tp_flow_table_key(&ctx->ft, pos);
	/* The walks at the end stop above it (tp_flow_table_top()). */
	if (pos >= lc->pos_top)
		lc->pos_top = pos + 1;
	f->proto = pp->key.proto;
	f->init_lo = pp->lo_is_src;
	f->tmo_class = cls;
	tl->first_tsc = now;
	tl->last_tsc = now;
	f->icmp_tc = pp->icmp_tc;
	f->serial = __atomic_fetch_add(&ctx->ft.next_serial, 1,
				       __ATOMIC_RELAXED);
	f->traced = f->serial < ctx->cfg->trace_timers ||
		tp_flow_selected(&ctx->cfg->trace_flow, &pp->key);
	/* Timer event template. 8< */
	ev->event = 0;
	ev->op = RTE_EVENT_OP_NEW;
	ev->queue_id = TP_QUEUE_TIMER;
	ev->sched_type = RTE_SCHED_TYPE_ATOMIC;
	ev->event_type = RTE_EVENT_TYPE_TIMER;
	ev->priority = ctx->evd.timer_prio;
	ev->flow_id = sig & 0xfffff;
	ev->event_ptr = &tl->tim;
	tl->tim.state = RTE_EVENT_TIMER_NOT_ARMED;
	/* >8 End of timer event template. */
	__atomic_fetch_add(&ctx->ft.nb_live, 1, __ATOMIC_RELAXED);
	lc->stats.flows_created++;
}
/* >8 End of the flow's state from its first packet. */
