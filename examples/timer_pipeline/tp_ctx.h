/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CTX_H_
#define _TP_CTX_H_

/*
 * The application context: one struct, allocated in main() and passed to
 * what needs more than its own module's state. It embeds each module's
 * state, defined next to the module with who writes it and what guards
 * it:
 *   eth, input  setup/tp_ports_types.h   read-only after launch (but the
 *                                        shared TX queues' locks)
 *   live        setup/tp_live.h          read-only after launch
 *   replay      setup/tp_replay.h        atomics (the first packet's time)
 *   clk         setup/tp_clock_types.h   atomics, clk.lock (try-lock)
 *   evd         setup/tp_evdev_types.h   read-only after launch
 *   lc[]        datapath/tp_lcore_types.h  each lcore its own
 *   ctl, phase  datapath/tp_control_types.h  main lcore (phase: atomic)
 *   sj          reports/tp_stats_json_types.h  main lcore
 * It keeps what ties them together: the configuration, the clocks'
 * rates, the phase and the launch time. Module headers do not include
 * this file (they declare struct tp_ctx where a call takes it).
 */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_eventdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "adapter_ops.h"
#include "tp_log.h"
#include "cycles.h"
#include "datapath/tp_control_types.h"
#include "datapath/tp_flow_types.h"
#include "datapath/tp_lcore_types.h"
#include "datapath/tp_rx_hold.h"
#include "datapath/tp_stages.h"
#include "records/tp_record_types.h"
#include "records/tp_trace_types.h"
#include "reports/tp_slots.h"
#include "reports/tp_stats_json_types.h"
#include "setup/tp_clock_types.h"
#include "setup/tp_config.h"
#include "setup/tp_evdev_types.h"
#include "setup/tp_live.h"
#include "setup/tp_ports_types.h"
#include "setup/tp_replay.h"

/**
 * Quit flag, 1 = graceful stop, 2+ = at once. One of the two mutable
 * globals; the other is the context pointer the telemetry handlers read
 * (tp_telemetry.c: 22.11's handlers take no argument). Everything else is
 * reached through struct tp_ctx.
 */
extern volatile sig_atomic_t tp_quit_signal;

/** Setup progress, for teardown (main). */
struct tp_setup_done {
	bool evd_configured;		/**< rte_event_dev_configure() done. */
	bool evd_started;		/**< rte_event_dev_start() done. */
	bool adapter_started;		/**< Adapter started. */
	bool telemetry;			/**< Telemetry commands registered. */
};

/** The application context: what ties the modules together. */
struct tp_ctx {
	const struct tp_config *cfg;	/**< Parsed configuration. */
	struct tp_eth eth;		/**< Ports and mbufs. */
	struct tp_input input;		/**< What the captures hold. */
	struct tp_live live;		/**< Live drivers' blind spots. */
	struct tp_replay replay;	/**< Replay pace state. */
	struct tp_clock clk;		/**< --clock capture state. */
	/* Eventdev and adapter. */
	struct tp_evdev evd;		/**< Event device. */
	struct tp_adapter ta;		/**< Timer adapter. */
	uint64_t tick_cycles;		/**< Flow clock cycles per tick. */
	uint64_t tmo_cycles[TP_TMO_MAX]; /**< Timeouts in those cycles. */
	uint64_t hz;			/**< rte_get_timer_hz(). */
	/** Rate of the flows' clock: hz, or 1e9 under --clock capture,
	 * whose clock counts capture nanoseconds (tick_cycles and
	 * tmo_cycles are in its units).
	 */
	uint64_t flow_hz;
	/* Flows and records. */
	struct tp_flow_table ft;	/**< Flow table. */
	struct tp_records rec;		/**< Record ring and sinks. */
	struct tp_ipfix *ipfix;		/**< IPFIX exporter, NULL = off. */
	struct tp_trace trace;		/**< Timer trace ring. */
	/* Lcores. */
	unsigned int main_lcore;	/**< Runs the control role. */
	unsigned int nb_rx_lcores;	/**< RX lcores. */
	unsigned int nb_worker_lcores;	/**< Worker lcores. */
	/** Packets are metered by RX, not sent as events (--packet-path). */
	bool inline_path;
	struct tp_rx_hold rx_hold;	/**< Inline path: RX held back. */
	struct tp_lcore lc[RTE_MAX_LCORE]; /**< Per-lcore state. */
	/* Control (main lcore). */
	volatile uint32_t phase;	/**< enum tp_phase. */
	uint64_t start_tsc;		/**< TSC at launch. */
	uint64_t start_ns;		/**< CLOCK_REALTIME at launch. */
	uint64_t flush_walk;		/**< Next entry the forced end visits. */
	struct tp_ctl ctl;		/**< The control role's clocks. */
	struct tp_stats_json sj;	/**< --stats-json. */
	uint64_t tx_pcap_short;		/**< tp_ports_tx_pcap_short() at exit. */
	struct tp_setup_done done;	/**< Setup progress, for teardown. */
};

/** Convert nanoseconds to TSC cycles (common/cycles.h: saturating). */
static inline uint64_t
tp_ns_to_cycles(uint64_t ns, uint64_t hz)
{
	return ns_to_cycles(ns, hz);
}

/** Convert TSC cycles to nanoseconds (common/cycles.h: saturating). */
static inline uint64_t
tp_cycles_to_ns(uint64_t cyc, uint64_t hz)
{
	return cycles_to_ns(cyc, hz);
}

/** Current shutdown phase. */
static inline uint32_t
tp_phase(const struct tp_ctx *ctx)
{
	return __atomic_load_n(&ctx->phase, __ATOMIC_ACQUIRE);
}

#endif /* _TP_CTX_H_ */
