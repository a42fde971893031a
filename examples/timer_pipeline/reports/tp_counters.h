/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_COUNTERS_H_
#define _TP_COUNTERS_H_

/*
 * The counters: the per-lcore slots the data path writes, their sums, and
 * the one counter table every report is made from (the stats screen,
 * --stats-json, --summary-json, telemetry /timer_pipeline/{stats,flows,
 * ipfix} and the counter reference in docs/reference.rst).
 *
 * Locking: none. Each struct tp_lcore_stats has one writer, its lcore;
 * readers (main, the telemetry thread) load every word relaxed and sum.
 * A struct tp_counters is a reader's own snapshot, on its stack.
 *
 * Adding a counter: its field in struct tp_counters (with the value set in
 * tp_counters_read() or tp_counters_from_slots(), or a new slot in struct
 * tp_lcore_stats copied there) and its row in TP_COUNTER_TABLE
 * (tp_counters.c). Every report, and the docs, then have it.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "datapath/tp_flow_types.h"
#include "reports/tp_slots.h"

struct tp_ctx;

/** Flow end reasons the counters report: every reason but "live". */
#define TP_ENDED_NB (TP_END_MAX - TP_END_IDLE)

/**
 * Every reported value, as the table names it: one uint64_t (or array of
 * them) per row of TP_COUNTER_TABLE, in the table's order (tp_counters.c
 * checks at build time that the rows cover the struct word for word).
 */
struct tp_counters {
	/* rx */
	uint64_t rx_pkts;		/**< Packets received. */
	uint64_t rx_bytes;		/**< Bytes received. */
	uint64_t rx_ipv4;		/**< IPv4 packets. */
	uint64_t rx_ipv6;		/**< IPv6 packets. */
	uint64_t rx_non_ip;		/**< Not IP. */
	uint64_t rx_malformed;		/**< Malformed. */
	uint64_t rx_truncated;		/**< Shorter than the wire length. */
	uint64_t rx_oversize;		/**< Wire length over 65535. */
	/* tx */
	uint64_t forwarded;		/**< Sent (handed to TX, not dropped). */
	uint64_t monitored;		/**< Metered, not sent (monitor mode). */
	uint64_t dropped;		/**< Dropped, every reason. */
	uint64_t drop[TP_DROP_MAX];	/**< Dropped, by reason. */
	/* flows */
	uint64_t flows_active;		/**< Created less ended. */
	uint64_t flows_created;		/**< Flows created. */
	uint64_t flows_ended;		/**< Flows ended, every reason. */
	uint64_t ended[TP_ENDED_NB];	/**< By reason, from TP_END_IDLE. */
	uint64_t flow_busy_retries;	/**< Lookups that met a dying flow. */
	uint64_t flows_ended_closed;	/**< Ended once the table closed. */
	uint64_t flows_in_table;	/**< The table's live count. */
	uint64_t flows_capacity;	/**< Its limit (--flows). */
	/* timers */
	uint64_t timers_armed;		/**< Every arm. */
	uint64_t timers_armed_first;	/**< First arms (flow creation). */
	uint64_t timers_rearmed;	/**< Later arms. */
	uint64_t timers_expired;	/**< Expiry events handled. */
	uint64_t timers_cancelled;	/**< Successful cancels. */
	uint64_t timers_late_cancels;	/**< Cancels that lost to expiry. */
	uint64_t timers_arm_failures;	/**< Arms refused. */
	/* lateness */
	uint64_t lateness_p50_us;	/**< Median bucket's upper bound. */
	uint64_t lateness_p99_us;	/**< p99 bucket's upper bound. */
	uint64_t lateness_max_us;	/**< Largest lateness. */
	uint64_t tick_us;		/**< The adapter's tick. */
	uint64_t lateness_hist_log2_us[TP_LAT_BUCKETS]; /**< Histogram. */
	/* events */
	uint64_t events_enqueued;	/**< Packet events enqueued. */
	uint64_t events_in_flight;	/**< Enqueued, not yet handled. */
	uint64_t enqueue_retries;	/**< Enqueues short of credit. */
	uint64_t adapter_expiries;	/**< Expiry events the adapter built. */
	uint64_t adapter_retries;	/**< Its enqueue retries. */
	uint64_t idle_polls;		/**< Polls that found nothing. */
	uint64_t rx_yield_polls;	/**< RX polls skipped for expiries. */
	uint64_t rx_held_polls;		/**< RX polls the workers held back. */
	uint64_t rx_paced_polls;	/**< RX polls the writer held back. */
	uint64_t rx_spread_polls;	/**< RX polls past a tick's share. */
	/* ports */
	uint64_t port_ipackets;		/**< rte_eth_stats, summed. */
	uint64_t port_imissed;		/**< Idem. */
	uint64_t port_rx_nombuf;	/**< Idem. */
	uint64_t port_ierrors;		/**< Idem. */
	uint64_t port_opackets;		/**< Idem. */
	uint64_t port_oerrors;		/**< Idem. */
	uint64_t port_tx_pcap_short;	/**< Bytes tx_pcap files lack. */
	uint64_t port_drops_unknown;	/**< Ports: kernel drops not counted. */
	/* mbufs */
	uint64_t mbufs_pool;		/**< Pool size. */
	uint64_t mbufs_in_use;		/**< Taken from it. */
	/* records */
	uint64_t records_written;	/**< Flow records in the flow log. */
	uint64_t records_not_written;	/**< Lost to the flow log. */
	uint64_t record_ring_waits;	/**< Record ring full: waits. */
	uint64_t record_lines_early;	/**< Lines formatted by producers. */
	uint64_t stats_json_failed;	/**< --stats-json lines lost. */
	/* ipfix (only with --ipfix or --ipfix-file) */
	uint64_t ipfix_messages;	/**< IPFIX Messages sent. */
	uint64_t ipfix_exported;	/**< Flow records sent. */
	uint64_t ipfix_data_records;	/**< Data records sent. */
	uint64_t ipfix_bytes;		/**< Their bytes. */
	uint64_t ipfix_templates;	/**< Template sends. */
	uint64_t ipfix_not_sent;	/**< Records counted as not sent. */
	uint64_t ipfix_queue_full;	/**< Of those: the ring was full. */
	uint64_t ipfix_reconnects;	/**< TCP connections after the first. */
	uint64_t ipfix_window_us;	/**< First to last record message. */
};

/** Screen lines, in print order: each counter belongs to one. */
enum tp_counter_group {
	TP_GRP_RX,
	TP_GRP_TX,
	TP_GRP_FLOWS,
	TP_GRP_TIMERS,
	TP_GRP_LATENESS,
	TP_GRP_EVENTS,
	TP_GRP_PORTS,
	TP_GRP_MBUFS,
	TP_GRP_RECORDS,
	TP_GRP_IPFIX,		/**< Reported only while the exporter is on. */
	TP_GRP_MAX
};

/** Row flag: a column of the stats screen's per-lcore table. */
#define TP_CTR_LCORE (1u << 0)

/** One row of the counter table. */
struct tp_counter {
	const char *name;	/**< Key in JSON and telemetry; field name. */
	size_t off;		/**< offsetof(struct tp_counters, field). */
	unsigned int n;		/**< 1, or the array's length. */
	/** An array's element names (key: name_element), NULL: a list. */
	const char *(*elem)(unsigned int i);
	enum tp_counter_group group; /**< Screen line. */
	const char *label;	/**< Screen label ("" for a named array). */
	unsigned int flags;	/**< TP_CTR_* bits. */
	const char *unit;	/**< What it counts. */
	const char *desc;	/**< What it is. */
	const char *how;	/**< How to read it. */
};

/** The counter table, TP_COUNTER_TABLE in tp_counters.c. */
extern const struct tp_counter tp_counters_table[];
/** Its rows. */
extern const unsigned int tp_counters_rows;
/** Screen line names, "rx" ... "ipfix". */
extern const char *const tp_counters_group_name[TP_GRP_MAX];

/** The value of a table row (element i of an array). */
static inline uint64_t
tp_counter_value(const struct tp_counters *c, const struct tp_counter *row,
		 unsigned int i)
{
	return ((const uint64_t *)((const char *)c + row->off))[i];
}

/** Name of drop reason r ("malformed", ...), "?" if out of range. */
const char *tp_counters_drop_name(unsigned int r);

/** Sum every lcore's counters into *tot. */
void tp_counters_sum(const struct tp_ctx *ctx, struct tp_lcore_stats *tot);

/** Flows ended, every reason, of summed (or one lcore's) slots. */
uint64_t tp_counters_ended(const struct tp_lcore_stats *t);

/** Upper bound of the lateness percentile p (0-100), in us. */
uint64_t tp_counters_lat_pct(const struct tp_lcore_stats *tot, unsigned int p);

/**
 * The values that come from slots alone (one lcore's, or their sum): every
 * other value of *c is zeroed. The per-lcore table of the screen uses it.
 */
void tp_counters_from_slots(const struct tp_lcore_stats *t,
			    struct tp_counters *c);

/**
 * Every value: the lcores' sum, the ports, the adapter, the pool, the
 * records and the exporter. Returns whether the exporter is on (the
 * TP_GRP_IPFIX rows are reported only then); *slots gets the sum if not
 * NULL.
 */
bool tp_counters_read(const struct tp_ctx *ctx, struct tp_counters *c,
		      struct tp_lcore_stats *slots);

/** Bit of group g in a mask of groups. */
#define TP_GRP_BIT(g) (1u << (g))
/** Every group. */
#define TP_GRP_ALL (TP_GRP_BIT(TP_GRP_MAX) - 1)

/**
 * What tp_counters_each() hands a report for each key: n == 0, one number
 * (*v); n > 0, a list of n numbers (the lateness histogram).
 */
typedef void (*tp_counter_fn)(void *arg, const char *key, const uint64_t *v,
			      unsigned int n);

/**
 * Call fn for every key of the rows in the groups of mask groups, in table
 * order: a row's name, or one "name_element" key per element of a named
 * array (drop_malformed, ended_idle_timeout).
 */
void tp_counters_each(const struct tp_counters *c, unsigned int groups,
		      tp_counter_fn fn, void *arg);

/** Print the counter reference as reStructuredText (docs/counters.inc). */
void tp_counters_print_rst(void);

#endif /* _TP_COUNTERS_H_ */
