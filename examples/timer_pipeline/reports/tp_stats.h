/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_STATS_H_
#define _TP_STATS_H_

/*
 * The reports made from the counter table (tp_counters.h): the stats
 * screen (tp_stats_screen.c), --stats-json, --summary-json and the
 * exactly-once check (tp_summary.c), and telemetry (tp_telemetry.c).
 * Main calls them and they take no lock: the slots need none
 * (tp_counters.h); telemetry's handlers, on DPDK's telemetry thread, read
 * the context under tp_telemetry.c's lock.
 */

#include <stdbool.h>

#include "tp_ctx.h"

/** Print the stats screen (final: the exit summary). */
void tp_stats_print(const struct tp_ctx *ctx, bool final);

/** --stats-json: append one line of totals (final: the last, closes). */
void tp_stats_json_write(struct tp_ctx *ctx, bool final);

/** Register /timer_pipeline/stats, /timer_pipeline/flows and ipfix. */
int tp_stats_telemetry_register(struct tp_ctx *ctx);

/** Forget the context in telemetry (before it is freed). */
void tp_stats_telemetry_unregister(void);

/**
 * Exactly-once check at exit, per sink, and --summary-json.
 *
 * @return the run's exit status: EXIT_SUCCESS when it holds;
 *   EXIT_FAILURE when it does not, or --summary-json cannot be written;
 *   TP_EXIT_LOST when it holds but a record file or tx_pcap lost data.
 */
int tp_stats_check(struct tp_ctx *ctx);

#endif /* _TP_STATS_H_ */
