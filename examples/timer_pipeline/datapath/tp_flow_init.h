/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_FLOW_INIT_H_
#define _TP_FLOW_INIT_H_

/*
 * A new flow's state from its first packet (tp_flow_init.c), set by the
 * RX lcore that claimed the flow's slot, before the flow is published.
 */

#include <stdint.h>

struct tp_ctx;
struct tp_lcore;
struct tp_flow;
struct tp_parsed;

/**
 * Initialise a flow this RX lcore just claimed (ref TP_REF_INIT) for its
 * first packet: key (rte_hash's copy at the flow's position), protocol,
 * initiator end, timeout class, ICMP type and code, creation times,
 * serial, tracing, and the timer's event template (flow_id from @p sig).
 * Counts the flow as live and created. No other lcore touches the entry
 * until it is published.
 *
 * @param pp   The first packet, parsed.
 * @param sig  The key's hash.
 * @param now  The packet's time (timer clock).
 */
void tp_flow_init(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		  const struct tp_parsed *pp, uint32_t sig, uint64_t now);

#endif /* _TP_FLOW_INIT_H_ */
