/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PKT_H_
#define _TP_PKT_H_

/*
 * A packet's metadata: what RX writes into two mbuf dynamic fields (the
 * flow entry, direction, flags and time; the length on the wire) for the
 * worker that meters it. Written by the RX lcore that received the packet
 * before it is enqueued, read by the worker after the dequeue: the event
 * device orders the two, no lock. The fields' offsets are the ports'
 * (struct tp_eth: ctx->eth, setup/tp_ports_types.h).
 */

#include <stdint.h>

#include <rte_mbuf.h>

#include "setup/tp_ports_types.h"

/** Per-packet metadata, an mbuf dynamic field written by RX. */
struct tp_pkt_meta {
	uint32_t pos;		/**< Flow entry, TP_POS_NONE: none. */
	uint8_t dir;		/**< 0: from the initiator, 1: reply. */
	uint8_t tcp_flags;	/**< TCP flags of this packet. */
	uint8_t created;	/**< This packet created the flow (RX only). */
	uint8_t pad;
	uint64_t ts;		/**< Packet time (record clock units). */
};

/** Our mbuf dynamic field (eth: ctx->eth). */
static inline struct tp_pkt_meta *
tp_meta(const struct tp_eth *eth, struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, eth->meta_offset, struct tp_pkt_meta *);
}

/**
 * The packet's length on the wire: its pkt_len, or more for a record cut
 * by its capture's snapshot length or an oversize one (set at RX; eth:
 * ctx->eth).
 */
static inline uint32_t *
tp_wire_len(const struct tp_eth *eth, struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, eth->wire_offset, uint32_t *);
}

#endif /* _TP_PKT_H_ */
