/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_TRACE_H_
#define _TP_TRACE_H_

/*
 * Timer traces (--trace-timers N): the life of the first N flows' timers,
 * event by event. Lcores queue events on an MP/SC ring; the main lcore
 * prints them. Traces are for learning, not accounting: a full ring drops
 * the event.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

#include <rte_ring.h>

#include "datapath/tp_flow.h"
#include "records/tp_trace_types.h"

struct tp_ctx;

/**
 * Create the trace ring when --trace-timers is set.
 *
 * @return 0, or -ENOMEM (logged).
 */
int tp_trace_init(struct tp_ctx *ctx);

/** Print what is queued, free the ring. Idempotent. */
void tp_trace_free(struct tp_ctx *ctx);

/** Queue one event for flow @p f (any lcore); dropped if the ring is full. */
void tp_trace_push(struct tp_ctx *ctx, const struct tp_flow *f,
		   enum tp_trace_kind kind, uint64_t arg, uint8_t reason);

/**
 * RX: a packet of traced flow @p f arrived (not the one that created it):
 * its direction, TCP flags and length (arg), the idle deadline it moves
 * the flow to, and when the timer is due.
 */
void tp_trace_packet(struct tp_ctx *ctx, const struct tp_flow *f,
		     uint8_t dir, uint8_t tcp_flags, uint32_t len,
		     uint64_t now);

/**
 * Main lcore: print queued events.
 *
 * @return Events printed.
 */
unsigned int tp_trace_drain(struct tp_ctx *ctx);

#endif /* _TP_TRACE_H_ */
