/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_FLOW_H_
#define _TP_FLOW_H_

/*
 * Flow table, flow entries and their life cycle.
 *
 * Entries live in one rte_zmalloc'ed array indexed by the key position that
 * rte_hash returns, so two RX lcores adding the same new key get the same
 * entry. Each entry embeds its rte_event_timer.
 *
 * The life of an entry is one 32-bit word, 'ref' (see docs/sample_app.rst,
 * "Flow life cycle and concurrency"):
 *   0              FREE: no flow uses the slot.
 *   TP_REF_INIT    claimed by the RX lcore that creates the flow.
 *   count          LIVE: count = 1 for the timer (armed, or its expiry event
 *                  in flight) + 1 per packet event in flight.
 *   reason | count DEAD (ending): the end reason is set, no new references
 *                  can be taken; the holder of the last reference writes
 *                  the flow record and returns the slot after an RCU grace
 *                  period.
 */

#include "datapath/tp_flow_types.h"

/** Name of an end reason ("idle_timeout", ...), "?" if out of range. */
const char *tp_flow_end_reason_name(unsigned int reason);

/**
 * RX: take a reference on a packet's flow, creating the flow when its key
 * is new. A flow this call creates is claimed (ref TP_REF_INIT) and
 * initialised, but neither armed nor published: the caller fills in what
 * only it knows (packet time, port) and calls tp_flow_arm_later(). Other
 * RX lcores wait for it meanwhile; this one arms its pending flows first
 * when it meets one of them again.
 *
 * @param pp       The parsed packet (key, sender end, TCP flags, ICMP).
 * @param sig      The key's hash.
 * @param pos      The key's position from the bulk lookup (< 0: absent).
 * @param now      TSC of the burst.
 * @param created  Set when this call created the flow.
 * @return the flow, holding one more reference; NULL when the table is
 *   full (counted as a table_full drop).
 */
struct tp_flow *tp_flow_get_or_create(struct tp_ctx *ctx,
				      struct tp_lcore *lc,
				      const struct tp_parsed *pp,
				      uint32_t sig, int32_t pos, uint64_t now,
				      bool *created);

/**
 * RX: a flow tp_flow_get_or_create() created (at TSC @p now) gets its
 * first timer with the burst's others: tp_flow_arm_pending() arms them in
 * one call to the adapter. Until then the flow is this lcore's alone.
 */
void tp_flow_arm_later(struct tp_lcore *lc, struct tp_flow *f, uint64_t now);

/**
 * RX, at the end of a burst (before its packet events go): arm the first
 * timers of the flows tp_flow_arm_later() queued, and publish each flow:
 * two references, the timer's and the packet's. A flow whose arm fails
 * ends at once (lack of resources) with only the packet's reference left.
 * On the inline path the packet was metered already and its reference
 * goes here too.
 */
void tp_flow_arm_pending(struct tp_ctx *ctx, struct tp_lcore *lc);
void tp_flow_refresh(struct tp_ctx *ctx, struct tp_lcore *lc,
		     struct tp_flow *f, uint64_t now);
void tp_flow_shorten(struct tp_ctx *ctx, struct tp_lcore *lc,
		     struct tp_flow *f, uint64_t now);
/**
 * RX: a TCP packet of a live flow (not the one that created it) moves its
 * timeout class: SYN -> established when the responder speaks, anything
 * -> closing on FIN or RST, which brings the deadline in.
 */
void tp_flow_tcp(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		 uint8_t dir, uint8_t tcp_flags, uint64_t now);
void tp_flow_put(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f);
/**
 * Worker, before handling n expiry events of flows f[]: their keys' hash
 * signatures into sig[], for tp_flow_expired(), and their table buckets
 * loaded (needless once the table is closed: tp_flow_table_close()).
 */
void tp_flow_expiries_prepare(struct tp_ctx *ctx, struct tp_flow *const *f,
			      unsigned int n, uint32_t *sig);
/** Worker: f's expiry event; sig: its key's (tp_flow_expiries_prepare()). */
void tp_flow_expired(struct tp_ctx *ctx, struct tp_lcore *lc,
		     struct tp_flow *f, uint64_t now, uint32_t sig);
bool tp_flow_end(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		 enum tp_end_reason reason);
/** Shutdown: end up to max more live flows of positions below top (the
 * table's tp_flow_table_top()); returns the positions left to visit.
 */
uint32_t tp_flow_force_end(struct tp_ctx *ctx, struct tp_lcore *lc,
			   uint32_t max, uint32_t top);
/** Return the slots whose grace period passed. */
void tp_flow_reclaim(struct tp_ctx *ctx);

#endif /* _TP_FLOW_H_ */
