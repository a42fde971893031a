/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RX_H_
#define _TP_RX_H_

/*
 * The RX role (tp_rx.c): poll a queue, classify each packet into its
 * flow and enqueue it to the event device (or meter it in place on the
 * inline path). Runs on RX lcores; its state is the lcore's own.
 */

#include <stdint.h>

struct tp_ctx;
struct tp_lcore;

/**
 * What RX runs while it waits for a full event device to take a burst,
 * once per retry: whatever else this lcore does that drains the device
 * (its worker role) or must not stall (the control role). The lcore loop
 * (tp_lcore.c) gives it; it must not call back into RX.
 */
typedef void (*tp_rx_wait_hook_t)(struct tp_ctx *ctx, struct tp_lcore *lc);

/** Poll the lcore's next RX queue; returns the packets received. */
unsigned int tp_rx_poll(struct tp_ctx *ctx, struct tp_lcore *lc,
			tp_rx_wait_hook_t wait);

/** The RX role ends: drop what is stashed, leave the RCU reader set. */
void tp_rx_stop(struct tp_ctx *ctx, struct tp_lcore *lc);

#endif /* _TP_RX_H_ */
