/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_LCORE_H_
#define _TP_LCORE_H_

/*
 * Lcore roles and loops: RX (tp_rx.c), worker (tp_worker.c) and control
 * (main lcore: records, stats, shutdown phases), combined per lcore.
 */

#include <stdbool.h>
#include <stdint.h>

#include "tp_ctx.h"

/** Our mbuf dynamic field. */
static inline struct tp_pkt_meta *
tp_meta(const struct tp_ctx *ctx, struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, ctx->eth.meta_offset, struct tp_pkt_meta *);
}

/**
 * The packet's length on the wire: its pkt_len, or more for a record cut
 * by its capture's snapshot length or an oversize one (set at RX).
 */
static inline uint32_t *
tp_wire_len(const struct tp_ctx *ctx, struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, ctx->eth.wire_offset, uint32_t *);
}

/** Current shutdown phase. */
static inline uint32_t
tp_phase(const struct tp_ctx *ctx)
{
	return __atomic_load_n(&ctx->phase, __ATOMIC_ACQUIRE);
}

/* tp_lcore.c */
int tp_lcore_roles_setup(struct tp_ctx *ctx);
int tp_lcore_queues_setup(struct tp_ctx *ctx);
void tp_lcore_queues_free(struct tp_ctx *ctx);
void tp_lcore_roles_print(const struct tp_ctx *ctx);
int tp_lcore_launch_one(void *arg);

/* tp_rx.c */
unsigned int tp_rx_poll(struct tp_ctx *ctx, struct tp_lcore *lc,
			bool also_worker);
void tp_rx_stop(struct tp_ctx *ctx, struct tp_lcore *lc);
uint16_t tp_rx_wire_cb(uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
		       uint16_t nb, uint16_t max, void *arg);

/* tp_worker.c */
unsigned int tp_worker_poll(struct tp_ctx *ctx, struct tp_lcore *lc);
void tp_worker_flush_tx(struct tp_ctx *ctx, struct tp_lcore *lc);
void tp_worker_stop(struct tp_ctx *ctx, struct tp_lcore *lc);

/* tp_control.c */
void tp_control_poll(struct tp_ctx *ctx, struct tp_lcore *lc, uint64_t now);

#endif /* _TP_LCORE_H_ */
