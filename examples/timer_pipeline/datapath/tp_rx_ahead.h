/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RX_AHEAD_H_
#define _TP_RX_AHEAD_H_

/*
 * Read-ahead of a capture (tp_rx_ahead.c): under --clock capture, a
 * service on the service lcore reads the one RX queue's port, classifies
 * the packets, frees them and hands their classifications to the RX lcore
 * over a ring.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

struct tp_classified;
struct tp_ctx;
struct tp_rxq;

/** Classified packets the read-ahead ring holds. */
#define TP_RX_AHEAD_RING 1024u

/**
 * Whether a run reads its capture ahead: under --clock capture, on the
 * inline path (the record writer has a CPU of its own), with nb_rxq RX
 * queues in all, one, and a service lcore to read it.
 */
bool tp_rx_ahead_wanted(const struct tp_ctx *ctx, unsigned int nb_rxq);

/**
 * Whether the input behind q is over: its port has delivered every
 * record of its captures, or a poll found nothing while mbufs were there
 * to take (net_pcap returns nothing with mbufs to spare only at the end
 * of its file).
 *
 * @param burst  The poll's burst size.
 */
bool tp_rx_ahead_input_over(const struct tp_ctx *ctx, const struct tp_rxq *q,
			    uint16_t burst);

/**
 * Set up the read-ahead of queue q (sets q->ahead) and register its
 * service, not yet mapped or running.
 *
 * @return 0, or a negative errno (logged).
 */
int tp_rx_ahead_register(struct tp_ctx *ctx, struct tp_rxq *q);

/** The service id of q's read-ahead. */
uint32_t tp_rx_ahead_service_id(const struct tp_rxq *q);

/** Start q's read-ahead service (mapped to a service lcore first). */
int tp_rx_ahead_start(struct tp_rxq *q);

/**
 * RX lcore: up to n packets read ahead from q's port, oldest first, into
 * pkts (q->stash: the classifications follow it, see below). The service
 * freed them: each pkts[i] is NULL.
 */
uint16_t tp_rx_ahead_fetch(struct tp_rxq *q, struct rte_mbuf **pkts,
			   uint16_t n);

/**
 * RX lcore: the classifications of the packets of the last fetch, in
 * their order (element i is pkts[i]'s), valid until the next fetch.
 */
const struct tp_classified *tp_rx_ahead_classified(const struct tp_rxq *q);

/** RX lcore: the port has delivered everything, and q took it all. */
bool tp_rx_ahead_over(const struct tp_rxq *q);

/**
 * RX lcore, when RX stops: stop the service and wait out its last call;
 * then up to n packets it read that RX never took, per call (0 once none
 * is left), for the caller to count and free.
 */
uint16_t tp_rx_ahead_stop(struct tp_rxq *q, struct rte_mbuf **pkts,
			  uint16_t n);

/** Teardown: unregister the service, free the ring and what it holds. */
void tp_rx_ahead_free(struct tp_rxq *q);

#endif /* _TP_RX_AHEAD_H_ */
