/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_LCORE_H_
#define _TP_LCORE_H_

/*
 * Lcore roles and the loop that runs them (tp_lcore.c): RX (tp_rx.h),
 * worker (tp_worker.h) and control (tp_control.h), combined per lcore.
 * Per-lcore state (struct tp_lcore, struct tp_rxq: ctx->lc[]) is in
 * tp_lcore_types.h.
 */

#include <stdbool.h>
#include <stdint.h>

struct tp_ctx;

int tp_lcore_roles_setup(struct tp_ctx *ctx);
int tp_lcore_queues_setup(struct tp_ctx *ctx);
void tp_lcore_queues_free(struct tp_ctx *ctx);
void tp_lcore_roles_print(const struct tp_ctx *ctx);
int tp_lcore_launch_one(void *arg);

#endif /* _TP_LCORE_H_ */
