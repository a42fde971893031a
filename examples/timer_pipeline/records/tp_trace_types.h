/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_TRACE_TYPES_H_
#define _TP_TRACE_TYPES_H_

/*
 * Timer trace events and the trace ring (tp_trace.h has the functions):
 * any lcore queues, the main lcore prints.
 */

#include <stdint.h>

#include <rte_ring.h>

#include "datapath/tp_flow_types.h"

/** Timer trace event kinds (--trace-timers): the flow's steps, then RX's. */
enum tp_trace_kind {
	TP_TRACE_ARM = TP_FLOW_STEP_ARM,	/**< Flow created, timer armed. */
	TP_TRACE_REFRESH = TP_FLOW_STEP_REFRESH, /**< Cancel + re-arm. */
	TP_TRACE_EXPIRE = TP_FLOW_STEP_EXPIRE,	/**< Expiry event processed. */
	TP_TRACE_REARM = TP_FLOW_STEP_REARM,	/**< Re-armed for the time left. */
	TP_TRACE_CANCEL = TP_FLOW_STEP_CANCEL,	/**< Cancelled (ended early). */
	TP_TRACE_END = TP_FLOW_STEP_END,	/**< Flow ends (reason). */
	TP_TRACE_RECORD = TP_FLOW_STEP_RECORD,	/**< Flow record written. */
	TP_TRACE_PACKET = TP_FLOW_STEP_MAX,	/**< RX: a packet of a live flow. */
};

/** One trace event. */
struct tp_trace_ev {
	uint64_t tsc;		/**< When. */
	uint64_t serial;	/**< Flow serial. */
	uint64_t arg;		/**< Ticks, or lateness in ns for expire. */
	uint32_t lcore;		/**< Which lcore. */
	uint8_t kind;		/**< enum tp_trace_kind. */
	uint8_t reason;		/**< End reason; PACKET: its direction. */
	uint8_t tcp_flags;	/**< PACKET: the packet's TCP flags. */
	uint8_t pad;
	uint64_t due_tsc;	/**< The timer's deadline (arm, refresh,
				 * re-arm, packet).
				 */
	uint64_t idle_tsc;	/**< PACKET: the flow's new idle deadline. */
	struct tp_flow_key key;	/**< For ARM. */
	uint8_t init_lo;	/**< Initiator side of key. */
	uint8_t pad2[3];
};

/** Trace state (ring written by any lcore, drained by main). */
struct tp_trace {
	struct rte_ring *ring;	/**< tp_trace_ev, MP/SC; NULL: off. */
};

#endif /* _TP_TRACE_TYPES_H_ */
