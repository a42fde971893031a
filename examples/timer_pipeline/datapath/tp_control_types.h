/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CONTROL_TYPES_H_
#define _TP_CONTROL_TYPES_H_

/*
 * The control role's state (tp_control.h has the functions): the
 * shutdown phases and the control role's clocks. Written by the main
 * lcore only (tp_control.c; the phase itself is ctx->phase, read by
 * every lcore with acquire, tp_phase()). No lock.
 */

#include <stdbool.h>
#include <stdint.h>

/** Shutdown phases, advanced by the main lcore only. */
enum tp_phase {
	TP_PHASE_RUN,		/**< Normal operation. */
	TP_PHASE_RX_STOP,	/**< RX lcores stop polling. */
	TP_PHASE_FLUSH,		/**< Live flows forced to end; drain. */
	TP_PHASE_STOP,		/**< Every loop returns. */
};

/** The control role's clocks and the run's end (datapath/tp_control.c);
 * main lcore only.
 */
struct tp_ctl {
	uint64_t phase_tsc;		/**< When the phase last changed. */
	uint64_t stop_tsc;		/**< When the run was asked to stop. */
	uint64_t ctl_next_tsc;		/**< Next control tick. */
	uint64_t stop_check_tsc;	/**< Next check between ticks of
					 * whether the run is over.
					 */
	uint64_t stats_next_tsc;	/**< Next stats screen. */
	uint64_t rx_seen;		/**< RX total at the last tick. */
	uint64_t rx_change_tsc;		/**< When it last changed. */
	uint64_t rx_skips_seen;		/**< RX polls skipped (inline path:
					 * expiries first) at the last tick.
					 */
	const char *stop_reason;	/**< Why the run stopped. */
	bool aborted;			/**< Second signal or drain timeout. */
};

#endif /* _TP_CONTROL_TYPES_H_ */
