/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CONTROL_H_
#define _TP_CONTROL_H_

/*
 * The control role (tp_control.c), on the main lcore only: records,
 * traces, slot reclaim, the stats screen and the shutdown phases. Its
 * state (the phases, struct tp_ctl: ctx->ctl) is in tp_control_types.h.
 */

#include <stdint.h>

struct tp_ctx;
struct tp_lcore;

/** One control tick when due (every 10 ms); now: TSC. */
void tp_control_poll(struct tp_ctx *ctx, struct tp_lcore *lc, uint64_t now);

#endif /* _TP_CONTROL_H_ */
