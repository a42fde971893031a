/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_LCORE_TYPES_H_
#define _TP_LCORE_TYPES_H_

/*
 * Per-lcore state (tp_lcore.h has the functions): an lcore's roles, the
 * RX queues it polls (with their replay-pace stash and --clock capture
 * marks), its TX buffers and counters. Set up by the main lcore before
 * the launch (tp_lcore.c), then written by its own lcore only; the
 * --clock capture marks (clk_*) are single-writer atomics that other RX
 * lcores read (setup/tp_clock.c), and phase_ack is read by the main lcore.
 * No lock.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "datapath/tp_flow_types.h"
#include "datapath/tp_rx_hold.h"
#include "datapath/tp_stages.h"
#include "reports/tp_slots.h"

/* Roles of an lcore. */
#define TP_ROLE_RX (1u << 0)
#define TP_ROLE_WORKER (1u << 1)
#define TP_ROLE_CONTROL (1u << 2)	/* main: stats, records, shutdown */
/* The roles that create, end or free flows: the flow table's writers,
 * and the producers of flow records.
 */
#define TP_ROLES_FLOWS (TP_ROLE_RX | TP_ROLE_WORKER | TP_ROLE_CONTROL)

#define TP_MAX_RXQ_PER_LCORE 16
#define TP_MAX_BURST 128

/** An RX queue polled by an lcore, with its replay-pace stash. */
struct tp_rxq {
	uint16_t port;			/**< Ethdev port. */
	uint16_t queue;			/**< RX queue. */
	uint16_t stash_head;		/**< Next packet of the stash. */
	uint16_t stash_nb;		/**< Packets in the stash. */
	struct rte_mbuf *stash[TP_MAX_BURST]; /**< Received, not yet due. */
	/** --clock capture (tp_clock.h): the oldest time this queue may
	 * still deliver (atomic; UINT64_MAX once its input has ended).
	 */
	uint64_t clk_ready;
	uint64_t clk_last;		/**< Newest time delivered (atomic). */
	/** --clock capture: the port read ahead (tp_rx_ahead.h), or NULL. */
	struct tp_rx_ahead *ahead;
};

/** Per-lcore state, cache aligned, written by its own lcore only. */
struct tp_lcore {
	uint32_t roles;			/**< TP_ROLE_* bits. */
	uint8_t ev_port;		/**< Event port (RX and/or worker). */
	uint16_t nb_rxq;		/**< RX queues polled. */
	uint16_t rxq_next;		/**< Round robin over rxq[]. */
	uint32_t rcu_id;		/**< RCU reader id (RX lcores). */
	struct tp_rxq rxq[TP_MAX_RXQ_PER_LCORE]; /**< Polled queues. */
	uint16_t txq[RTE_MAX_ETHPORTS];	/**< TX queue per port. */
	struct rte_eth_dev_tx_buffer *txb[RTE_MAX_ETHPORTS]; /**< TX buffer. */
	uint32_t evict_cursor;		/**< Eviction sampling position. */
	uint32_t pos_top;		/**< RX: above every position this
					 * lcore initialised a flow at (the
					 * walks at the end stop at the
					 * highest: tp_flow_table_top()).
					 */
	/* RX, when the table hands out its positions (ft->lifo): the
	 * free positions taken for this lcore's next new flows, the next
	 * last, and the one handed to rte_hash for its next add
	 * (TP_POS_NONE: none), which that add takes (tp_flow_slot_add()).
	 */
	uint32_t slot_fed;
	uint32_t slot_n;
	uint32_t slot[TP_SLOT_TAKE];
	uint16_t nb_held;		/**< Events of the last dequeue. */
	uint32_t stashed;		/**< Replay: packets not yet due. */
	struct tp_rx_pace pace;		/**< RX paced by the record writer. */
	struct tp_rx_spread spread;	/**< RX's new flows spread. */
	/* RX: flows created this burst, their first timers not yet armed
	 * (tp_flow_arm_later(), tp_flow_arm_pending()).
	 */
	uint16_t nb_arm;
	struct tp_flow *arm_f[TP_MAX_BURST];
	uint64_t arm_now[TP_MAX_BURST];
	/* --clock capture (tp_clock.h), published with release. */
	uint64_t clk_sent;		/**< RX: packet events enqueued. */
	uint64_t clk_pkts;		/**< Worker: packet events done. */
	uint64_t clk_tims;		/**< Worker: expiry events done. */
	volatile uint32_t phase_ack;	/**< Last phase this lcore saw. */
	struct tp_lcore_stats stats;	/**< Counters. */
#ifdef TP_STAGE_CYCLES
	struct tp_stage_stats stages;	/**< Stage cycles (tp_stages.h). */
#endif
} __rte_cache_aligned;

#endif /* _TP_LCORE_TYPES_H_ */
