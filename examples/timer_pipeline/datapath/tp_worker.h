/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_WORKER_H_
#define _TP_WORKER_H_

/*
 * The worker role (tp_worker.c): dequeue packet and expiry events, meter
 * packets into their flows, end or re-arm flows on expiry, forward.
 * Runs on worker lcores; its state is the lcore's own.
 */

struct tp_ctx;
struct tp_lcore;

/** Dequeue and handle one burst; returns the events handled. */
unsigned int tp_worker_poll(struct tp_ctx *ctx, struct tp_lcore *lc);

/** Send what the lcore's TX buffers hold. */
void tp_worker_flush_tx(struct tp_ctx *ctx, struct tp_lcore *lc);

/** The worker role ends: release what it holds, quiesce its port. */
void tp_worker_stop(struct tp_ctx *ctx, struct tp_lcore *lc);

#endif /* _TP_WORKER_H_ */
