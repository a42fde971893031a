/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_IPFIX_TYPES_H_
#define _TP_IPFIX_TYPES_H_

/*
 * The IPFIX exporter's counters and what it is given to read the
 * pipeline's (tp_ipfix.h has the exporter's functions).
 */

#include <stdint.h>

struct tp_ctx;
struct tp_lcore_stats;

/** Exporter counters (telemetry, stats screen, exit summary). */
struct tp_ipfix_stats {
	uint64_t messages;	/**< IPFIX Messages sent. */
	uint64_t bytes;		/**< Their bytes. */
	uint64_t records;	/**< Flows sent (exported). */
	uint64_t data_records;	/**< Their data records (uni: 1 or 2 each). */
	uint64_t templates;	/**< Template (and options) sends. */
	uint64_t not_sent;	/**< Records counted as not sent. */
	uint64_t queue_full;	/**< Of those: the ring was full. */
	uint64_t reconnects;	/**< TCP connections after the first. */
	uint64_t submitted;	/**< Records handed to the exporter. */
	uint64_t window_us;	/**< First to last message with records. */
};

/**
 * The pipeline's counters, summed over the lcores' slots, for the
 * exporter's options record: given by whoever starts the exporter
 * (main.c gives tp_counters_sum()), so the exporter does not call the
 * reports that read it.
 */
typedef void (*tp_ipfix_sum_t)(const struct tp_ctx *ctx,
			       struct tp_lcore_stats *tot);

#endif /* _TP_IPFIX_TYPES_H_ */
