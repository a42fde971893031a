/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_SLOTS_H_
#define _TP_SLOTS_H_

/*
 * The per-lcore statistics slots the data path writes (struct
 * tp_lcore_stats, in each struct tp_lcore) and the drop reasons they
 * count; tp_counters.h sums and names them. Locking: none. Each slot has
 * one writer, its lcore; readers load every word relaxed and sum.
 */

#include <stdint.h>

#include "datapath/tp_flow_types.h"

/** Packet drop reasons (names: tp_counters_drop_name()). */
enum tp_drop {
	TP_DROP_MALFORMED,	/**< Malformed, policy drop. */
	TP_DROP_TABLE_FULL,	/**< Full table, policy drop. */
	TP_DROP_FWD,		/**< --fwd-mode drop. */
	TP_DROP_TX,		/**< TX queue full. */
	TP_DROP_SHUTDOWN,	/**< RX stopped: enqueue abandoned, stash. */
	TP_DROP_EVDEV_FULL,	/**< Event device full past the RX retry. */
	TP_DROP_NOT_ETHER,	/**< No Ethernet frame can carry it. */
	TP_DROP_MAX
};

/** Latency histogram: bucket b holds lateness in [2^(b-1), 2^b) us. */
#define TP_LAT_BUCKETS 32

/**
 * Per-lcore counters: one writer (the lcore), read by anyone. Every
 * member is a uint64_t: tp_counters_sum() adds the slots word by word
 * (tp_counters.c checks the size at build time), and lat_max_ns is the
 * one word that is a maximum, not a sum.
 */
struct tp_lcore_stats {
	uint64_t rx_pkts;		/**< Packets received. */
	uint64_t rx_bytes;		/**< Bytes received. */
	uint64_t rx_ipv4;		/**< IPv4 packets. */
	uint64_t rx_ipv6;		/**< IPv6 packets. */
	uint64_t rx_non_ip;		/**< Non-IP (forwarded, no flow). */
	uint64_t rx_malformed;		/**< Malformed (by policy). */
	uint64_t rx_truncated;		/**< Shorter than the wire length. */
	uint64_t rx_oversize;		/**< Wire length over 65535. */
	uint64_t ev_enq;		/**< Packet events enqueued. */
	uint64_t ev_deq_pkt;		/**< Packet events processed. */
	uint64_t ev_enq_retry;		/**< Enqueue calls short of credit. */
	uint64_t tx_pkts;		/**< Packets handed to TX. */
	uint64_t monitored;		/**< Metered, not sent (monitor). */
	uint64_t drops[TP_DROP_MAX];	/**< Drops by reason. */
	uint64_t flows_created;		/**< Flows created. */
	uint64_t flows_ended[TP_END_MAX]; /**< Flows finalised by reason. */
	uint64_t flow_busy_retry;	/**< Lookups that met a dying flow. */
	uint64_t flows_ended_closed;	/**< Finalised in a closed table. */
	uint64_t tim_armed;		/**< First arms (flow creation). */
	uint64_t tim_rearmed;		/**< Later arms (refresh, re-arm). */
	uint64_t tim_expired;		/**< Expiry events processed. */
	uint64_t tim_cancelled;		/**< Successful cancels. */
	uint64_t tim_cancel_late;	/**< Cancels that lost to expiry. */
	uint64_t tim_arm_fail;		/**< Arms refused by the adapter. */
	uint64_t lat_max_ns;		/**< Largest expiry lateness. */
	uint64_t lat_hist[TP_LAT_BUCKETS]; /**< Lateness histogram. */
	uint64_t idle_polls;		/**< Polls that found nothing. */
	uint64_t rx_yield_polls;	/**< RX polls skipped for expiries. */
	uint64_t rx_held_polls;		/**< RX polls the workers held back. */
	uint64_t rx_paced_polls;	/**< RX polls the writer held back. */
	uint64_t rx_spread_polls;	/**< RX polls past a tick's share. */
} __rte_cache_aligned;

/** Record one expiry's lateness (ns after its deadline). */
static inline void
tp_stats_lateness(struct tp_lcore_stats *s, uint64_t late_ns)
{
	uint64_t us = late_ns / 1000;
	unsigned int b = us == 0 ? 0 : 64 - __builtin_clzll(us);

	if (b >= TP_LAT_BUCKETS)
		b = TP_LAT_BUCKETS - 1;
	s->lat_hist[b]++;
	if (late_ns > s->lat_max_ns)
		s->lat_max_ns = late_ns;
}

#endif /* _TP_SLOTS_H_ */
