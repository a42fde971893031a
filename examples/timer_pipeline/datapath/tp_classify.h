/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CLASSIFY_H_
#define _TP_CLASSIFY_H_

/*
 * A received packet's classification: its wire length, the parse into a
 * flow key (tp_parse.h; a non-Ethernet capture's packet gets its Ethernet
 * header first) and the key's hash signature. RX does it for every packet
 * it reads (tp_rx.c), except those of the capture read-ahead, which
 * classifies them before it hands them over (tp_rx_ahead.c): there the RX
 * lcore only looks their keys up. What it writes is the packet's own (its
 * mbuf and the result), so no lock.
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_hash.h>
#include <rte_mbuf.h>

#include "datapath/tp_parse.h"
#include "datapath/tp_pkt.h"
#include "setup/tp_ports_types.h"

/**
 * A packet and its classification. The capture read-ahead
 * (tp_rx_ahead.c) also notes what RX reads of the packet itself (ts,
 * meter_wire, port) and frees it: on the inline path RX needs no more of
 * it, and its mbuf then never leaves the lcore that read it (m is NULL).
 */
struct tp_classified {
	struct rte_mbuf *m;		/**< The packet, or NULL (above). */
	struct tp_parsed parsed;	/**< Key and fields (TP_PKT_FLOW). */
	uint64_t ts;			/**< Read-ahead: capture ns, 0 none. */
	uint32_t sig;			/**< Key's signature (TP_PKT_FLOW). */
	uint32_t wire;			/**< Wire length as received. */
	uint32_t len;			/**< pkt_len as received. */
	uint32_t meter_wire;		/**< Read-ahead: final tp_wire_len(). */
	uint16_t port;			/**< Read-ahead: m->port. */
	uint8_t cls;			/**< enum tp_pkt_class. */
};

/**
 * Classify m, which came in on a port of eth, for the flow table h: sets
 * its wire length (pkt_len unless its port's RX callback set it) and
 * fills c. The counters are the caller's (c->wire and c->len are the
 * packet's before an Ethernet header was made for it).
 */
static __rte_always_inline void
tp_classify(const struct tp_eth *eth, const struct rte_hash *h,
	    struct rte_mbuf *m, struct tp_classified *c)
{
	uint32_t *wire = tp_wire_len(eth, m);
	const int lt = eth->port_linktype[m->port];

	if (!eth->port_wire_cb[m->port])
		*wire = m->pkt_len;
	c->m = m;
	c->wire = *wire;
	c->len = m->pkt_len;
	if (unlikely(lt != TP_DLT_EN10MB)) {
		c->cls = tp_parse_to_ether(m, lt, &eth->port_mac[m->port],
				&eth->port_mac[eth->dst_port[m->port]]);
		if (c->cls != TP_PKT_FLOW)
			return;
		/* The wire length of the Ethernet frame it now is. */
		*wire = *wire - c->len + m->pkt_len;
	}
	c->cls = tp_parse(m, *wire, &c->parsed);
	if (c->cls == TP_PKT_FLOW)
		c->sig = rte_hash_hash(h, &c->parsed.key);
}

#endif /* _TP_CLASSIFY_H_ */
