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

#include <stdint.h>

#include <rte_ring.h>

#include "tp_flow.h"

struct tp_ctx;

/** Timer trace event kinds (--trace-timers). */
enum tp_trace_kind {
	TP_TRACE_ARM,		/**< Flow created, timer armed. */
	TP_TRACE_REFRESH,	/**< Cancel + re-arm (every-packet, FIN). */
	TP_TRACE_EXPIRE,	/**< Expiry event processed. */
	TP_TRACE_REARM,		/**< Re-armed for the time left. */
	TP_TRACE_CANCEL,	/**< Cancelled (flow ended early). */
	TP_TRACE_END,		/**< Flow ends (reason). */
	TP_TRACE_RECORD,	/**< Flow record written. */
};

/** One trace event. */
struct tp_trace_ev {
	uint64_t tsc;		/**< When. */
	uint64_t serial;	/**< Flow serial. */
	uint64_t arg;		/**< Ticks, or lateness in ns for expire. */
	uint32_t lcore;		/**< Which lcore. */
	uint8_t kind;		/**< enum tp_trace_kind. */
	uint8_t reason;		/**< End reason for END/RECORD. */
	uint16_t pad;
	struct tp_flow_key key;	/**< For ARM. */
	uint8_t init_lo;	/**< Initiator side of key. */
	uint8_t pad2[3];
};

/** Trace state (ring written by any lcore, drained by main). */
struct tp_trace {
	struct rte_ring *ring;	/**< tp_trace_ev, MP/SC; NULL: off. */
};

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
 * Main lcore: print queued events.
 *
 * @return Events printed.
 */
unsigned int tp_trace_drain(struct tp_ctx *ctx);

#endif /* _TP_TRACE_H_ */
