/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The RX callback of a port that reads a capture copy with wire-length
 * trailers (tp_rx_wire.h, tp_capture.h): each packet's wire length, in
 * its mbuf's dynamic field, before any reader of the queue sees it. It
 * writes only the packets of the burst it is given, so no lock.
 */

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "datapath/tp_parse.h"
#include "datapath/tp_rx_wire.h"
#include "setup/tp_capture.h"
#include "setup/tp_ports_types.h"

/*
 * Take the wire-length trailer off the end of a packet of a capture copy
 * (tp_capture.h): its last TP_CAPTURE_TRAILER_LEN bytes, which may span
 * the last two segments of a chain. Returns the wire length, or pkt_len
 * for a packet too short to hold one or whose chain does not add up
 * (left whole: the parser drops it as a bad chain).
 */
static uint32_t
tp_rx_wire_trailer_take(struct rte_mbuf *m)
{
	const uint32_t t = TP_CAPTURE_TRAILER_LEN;
	uint8_t buf[TP_CAPTURE_TRAILER_LEN];
	struct rte_mbuf *s, *last = NULL;
	const uint8_t *p;
	uint32_t keep, len = 0;
	uint16_t n;

	if (m->pkt_len < t || !tp_mbuf_consistent(m))
		return m->pkt_len;
	p = rte_pktmbuf_read(m, m->pkt_len - t, t, buf);
	if (p == NULL)
		return m->pkt_len;
	keep = m->pkt_len - t;
	/* Cut the chain at keep bytes: the segment holding its end keeps
	 * its part, later ones (the trailer's last bytes) are freed.
	 */
	for (s = m, n = 0; s != NULL; last = s, s = s->next, n++) {
		if (len + s->data_len >= keep)
			break;
		len += s->data_len;
	}
	if (s == NULL)
		s = last;
	s->data_len = (uint16_t)(keep - len);
	if (s->next != NULL) {
		rte_pktmbuf_free(s->next);
		s->next = NULL;
	}
	m->nb_segs = (uint16_t)(n + 1);
	m->pkt_len = keep;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		(uint32_t)p[3] << 24;
}

/*
 * RX callback on the queues of a port that reads a capture copy with
 * wire-length trailers (tp_ports.c): every packet of the burst gets its
 * wire length, from its trailer or, on a queue whose packets are whole
 * (arg: struct tp_wire_cb_arg), its pkt_len. It
 * runs inside rte_eth_rx_burst(), so every reader of the queue (RX, the
 * replay and clock stashes) sees packets as they were on the wire.
 */
uint16_t
tp_rx_wire_cb(uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	      uint16_t nb, uint16_t max, void *arg)
{
	const struct tp_wire_cb_arg *a = arg;
	uint16_t i;

	RTE_SET_USED(port);
	RTE_SET_USED(queue);
	RTE_SET_USED(max);
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t w = a->trailers ? tp_rx_wire_trailer_take(m) : m->pkt_len;

		*RTE_MBUF_DYNFIELD(m, a->wire_offset, uint32_t *) =
			RTE_MAX(w, m->pkt_len);
	}
	return nb;
}
