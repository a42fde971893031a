/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Read-ahead of a capture under --clock capture. Reading the port is a
 * quarter of an ageing run's time on the RX lcore (net_pcap: libpcap's
 * read and the copy into mbufs, 108 ns a packet on the long capture of
 * docs/bench.rst), while the service lcore, with only the record writer
 * on it, idles most of the run. A DPDK service there reads the queue's
 * port and puts the packets on a ring, which the RX lcore takes from where
 * it would have polled the port (tp_clock_fetch()). The service also
 * classifies the packets (tp_classify.h: parse, flow key, hash signature,
 * with the capture time and wire length RX reads of a packet itself) and
 * frees them: only the classifications ride on the ring, and RX only
 * looks their keys up. On the inline path RX needs nothing more of a
 * packet, and an mbuf that crossed to the RX lcore cost both CPUs its
 * cache lines each time round (the long capture of docs/bench.rst, a VM
 * whose two vCPUs were 180 ns apart: 1.85-1.94 s against 1.28-1.31 s).
 * Used for one RX queue on the inline path, where the record writer has
 * a CPU of its own (main.c).
 *
 * When RX finds the ring empty (the service lcore busy writing records),
 * it runs an iteration of the service itself (tp_service_help()) rather
 * than wait.
 *
 * Locking: the ring has one producer, the service (on the service lcore,
 * or on the RX lcore lending a hand: DPDK's service lock lets one in at a
 * time), and one consumer, the RX lcore, which alone uses cl[]. go is
 * set by the RX lcore at its first fetch (the ports start after the
 * services), eof by the service once the port has delivered everything,
 * after its last enqueue (release; read with acquire). The service's
 * runstate is set by itself (at eof, on its service lcore) and by the RX
 * lcore (tp_rx_ahead_stop(), which then waits until no service lcore
 * runs it; the RX lcore itself is then not inside).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_prefetch.h>
#include <rte_ring.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "tp_ctx.h"
#include "datapath/tp_classify.h"
#include "datapath/tp_rx_ahead.h"
#include "setup/tp_replay.h"
#include "setup/tp_service.h"

/* The service's sleep while it waits with nothing else running here. */
#define TP_RX_AHEAD_IDLE_US 100
/* How long stopping waits for the service's last call. */
#define TP_RX_AHEAD_STOP_MS 1000

/** One queue's read-ahead (q->ahead). */
struct tp_rx_ahead {
	struct rte_ring *ring;		/**< Bursts read, not yet taken. */
	struct tp_ctx *ctx;
	struct tp_rxq *q;
	uint32_t service_id;
	uint32_t go;			/**< RX has started (atomic). */
	uint32_t eof;			/**< Port delivered all (atomic). */
	/** RX lcore: the last bursts taken, in q->stash's order. */
	struct tp_classified cl[TP_MAX_BURST];
};

bool
tp_rx_ahead_wanted(const struct tp_ctx *ctx, unsigned int nb_rxq)
{
	return ctx->clk.on && ctx->inline_path && nb_rxq == 1 &&
		rte_service_lcore_count() > 0;
}

bool
tp_rx_ahead_input_over(const struct tp_ctx *ctx, const struct tp_rxq *q,
		       uint16_t burst)
{
	struct rte_eth_stats es;

	if (rte_eth_stats_get(q->port, &es) == 0 &&
	    es.ipackets + es.rx_nombuf + es.ierrors >=
	    ctx->eth.port_eof_pkts[q->port])
		return true;
	return rte_mempool_avail_count(ctx->eth.pool) >= 2u * burst +
		RTE_MEMPOOL_CACHE_MAX_SIZE;
}

/* With nothing to do: sleep if no other service runs on this lcore. */
static void
tp_rx_ahead_idle(const struct tp_rx_ahead *ra)
{
	if (tp_service_may_sleep(ra->service_id))
		rte_delay_us_sleep(TP_RX_AHEAD_IDLE_US);
}

/* Nothing more to read: on the service lcore, stop holding a CPU that
 * another service of ours (the record writer) would otherwise spin
 * beside.
 */
static void
tp_rx_ahead_retire(const struct tp_rx_ahead *ra)
{
	if (tp_service_shares_lcore(ra->service_id))
		rte_service_runstate_set(ra->service_id, 0);
}

/* The service: one burst from the port onto the ring per call. 8< */
static int32_t
tp_rx_ahead_run(void *arg)
{
	struct tp_rx_ahead *ra = arg;
	/* The largest burst, not --burst: one call, one ring enqueue and
	 * one service round per 128 packets (the long capture of
	 * docs/bench.rst: 2.29-2.34 s against 2.37-2.45 s with 32).
	 */
	const uint16_t burst = TP_MAX_BURST;
	struct rte_mbuf *pkts[TP_MAX_BURST];
	struct tp_classified cl[TP_MAX_BURST];
	struct tp_ctx *ctx = ra->ctx;
	uint16_t n, i;

#ifdef TP_STAGE_CYCLES
	/* Its reads count as the service lcore's. */
	if (unlikely(RTE_PER_LCORE(tp_stage_self) == NULL))
		RTE_PER_LCORE(tp_stage_self) =
			&ra->ctx->lc[rte_lcore_id()].stages;
#endif
	if (!__atomic_load_n(&ra->go, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&ra->eof, __ATOMIC_RELAXED)) {
		/* RX may have met the end, lending a hand. */
		if (__atomic_load_n(&ra->eof, __ATOMIC_RELAXED))
			tp_rx_ahead_retire(ra);
		tp_rx_ahead_idle(ra);
		return -EAGAIN;
	}
	if (rte_ring_free_count(ra->ring) < burst)
		return -EAGAIN;		/* RX is behind: it will catch up */
	TP_STAGE_BEGIN(RX_READ);
	n = rte_eth_rx_burst(ra->q->port, ra->q->queue, pkts, burst);
	TP_STAGE_END(n);
	if (n > 0) {
		/* Classified here, with what RX reads of a packet itself, and
		 * freed: the mbufs never leave this lcore's cache.
		 */
		TP_STAGE_BEGIN(PARSE);
		for (i = 0; i < n; i++) {
			if (i + 1 < n)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1],
							       void *));
			tp_classify(&ctx->eth, ctx->ft.h, pkts[i], &cl[i]);
			cl[i].m = NULL;
			cl[i].ts = tp_replay_cap_ns(&ctx->replay, pkts[i]);
			cl[i].meter_wire = *tp_wire_len(&ctx->eth, pkts[i]);
			cl[i].port = pkts[i]->port;
		}
		TP_STAGE_END(n);
		rte_pktmbuf_free_bulk(pkts, n);
		/* Room for a burst was there; only we enqueue. */
		rte_ring_sp_enqueue_bulk_elem(ra->ring, cl, sizeof(cl[0]), n,
					      NULL);
		return 0;
	}
	if (!tp_rx_ahead_input_over(ctx, ra->q, burst))
		return -EAGAIN;
	__atomic_store_n(&ra->eof, 1, __ATOMIC_RELEASE);
	tp_rx_ahead_retire(ra);
	return 0;
}
/* >8 End of the read-ahead service. */

/* Stop the service and wait (bounded) until no lcore is inside it. */
static void
tp_rx_ahead_halt(struct tp_rx_ahead *ra)
{
	uint64_t end = rte_get_timer_cycles() +
		rte_get_timer_hz() / 1000 * TP_RX_AHEAD_STOP_MS;

	rte_service_runstate_set(ra->service_id, 0);
	while (rte_service_may_be_active(ra->service_id) == 1 &&
	       rte_get_timer_cycles() < end)
		rte_pause();
}

int
tp_rx_ahead_register(struct tp_ctx *ctx, struct tp_rxq *q)
{
	struct tp_rx_ahead *ra;
	char name[RTE_RING_NAMESIZE];
	int ret;

	ra = rte_zmalloc("tp_rx_ahead", sizeof(*ra), RTE_CACHE_LINE_SIZE);
	snprintf(name, sizeof(name), "tp_ahead_%u_%u", q->port, q->queue);
	if (ra != NULL)
		ra->ring = rte_ring_create_elem(name,
					sizeof(struct tp_classified),
					TP_RX_AHEAD_RING, (int)rte_socket_id(),
					RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (ra == NULL || ra->ring == NULL) {
		TP_LOG(ERR, "cannot allocate the read-ahead of port %u: %s",
		       q->port, rte_strerror(rte_errno));
		rte_free(ra);
		return -ENOMEM;
	}
	ra->ctx = ctx;
	ra->q = q;
	ret = tp_service_register(&ra->service_id, tp_rx_ahead_run, ra,
				  "read-ahead", "tp_rx_ahead_%u", q->port);
	if (ret < 0) {
		rte_ring_free(ra->ring);
		rte_free(ra);
		return ret;
	}
	q->ahead = ra;
	return 0;
}

uint32_t
tp_rx_ahead_service_id(const struct tp_rxq *q)
{
	return q->ahead->service_id;
}

int
tp_rx_ahead_start(struct tp_rxq *q)
{
	int ret;

	ret = rte_service_component_runstate_set(q->ahead->service_id, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(q->ahead->service_id, 1);
	if (ret < 0)
		TP_LOG(ERR, "cannot start the read-ahead service: %s",
		       strerror(-ret));
	return ret;
}

/* Up to n packets from the ring into pkts, their classifications to cl. */
static uint16_t
tp_rx_ahead_take(struct tp_rx_ahead *ra, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	n = (uint16_t)rte_ring_sc_dequeue_burst_elem(ra->ring, ra->cl,
			sizeof(ra->cl[0]), RTE_MIN(n, TP_MAX_BURST), NULL);
	for (i = 0; i < n; i++)
		pkts[i] = ra->cl[i].m;
	return n;
}

/*
 * RX takes what the service read; with the ring empty (the service lcore
 * busy with the record writer or the end of the capture), it reads the
 * next burst itself through the service (serialised with the service
 * lcore, so the port and the ring keep one reader and one producer, and
 * the packets their order) rather than wait. 8<
 */
uint16_t
tp_rx_ahead_fetch(struct tp_rxq *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct tp_rx_ahead *ra = q->ahead;
	uint16_t got;

	if (unlikely(!ra->go))
		__atomic_store_n(&ra->go, 1, __ATOMIC_RELEASE);
	got = tp_rx_ahead_take(ra, pkts, n);
	if (got == 0 && !__atomic_load_n(&ra->eof, __ATOMIC_ACQUIRE) &&
	    tp_service_help(ra->service_id))
		got = tp_rx_ahead_take(ra, pkts, n);
	return got;
}
/* >8 End of RX taking the read-ahead. */

const struct tp_classified *
tp_rx_ahead_classified(const struct tp_rxq *q)
{
	return q->ahead->cl;
}

bool
tp_rx_ahead_over(const struct tp_rxq *q)
{
	const struct tp_rx_ahead *ra = q->ahead;

	return __atomic_load_n(&ra->eof, __ATOMIC_ACQUIRE) &&
		rte_ring_empty(ra->ring);
}

uint16_t
tp_rx_ahead_stop(struct tp_rxq *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct tp_rx_ahead *ra = q->ahead;

	if (ra == NULL)
		return 0;
	if (rte_service_runstate_get(ra->service_id) == 1)
		tp_rx_ahead_halt(ra);
	return tp_rx_ahead_take(ra, pkts, n);
}

void
tp_rx_ahead_free(struct tp_rxq *q)
{
	struct tp_rx_ahead *ra = q->ahead;
	struct tp_classified c;

	if (ra == NULL)
		return;
	tp_rx_ahead_halt(ra);
	rte_service_component_runstate_set(ra->service_id, 0);
	rte_service_component_unregister(ra->service_id);
	while (rte_ring_sc_dequeue_elem(ra->ring, &c, sizeof(c)) == 0)
		rte_pktmbuf_free(c.m);
	rte_ring_free(ra->ring);
	rte_free(ra);
	q->ahead = NULL;
}
