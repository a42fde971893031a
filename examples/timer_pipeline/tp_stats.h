/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_STATS_H_
#define _TP_STATS_H_

/*
 * Statistics: per-lcore single-writer slots summed by readers (the stats
 * screen, telemetry, the final summary and the exactly-once check).
 */

#include <stdbool.h>
#include <stdint.h>

#include "tp_ctx.h"

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

/** Sum every lcore's counters into *tot. */
void tp_stats_sum(const struct tp_ctx *ctx, struct tp_lcore_stats *tot);

/** Upper bound of the lateness percentile p (0-100), in us. */
uint64_t tp_stats_lat_pct(const struct tp_lcore_stats *tot, unsigned int p);

/** Print the stats screen (final: the exit summary). */
void tp_stats_print(const struct tp_ctx *ctx, bool final);

/** --stats-json: append one line of totals (final: the last, closes). */
void tp_stats_json_write(struct tp_ctx *ctx, bool final);

/** Register /timer_pipeline/stats and /timer_pipeline/flows. */
int tp_stats_telemetry_register(struct tp_ctx *ctx);

/** Forget the context in telemetry (before it is freed). */
void tp_stats_telemetry_unregister(void);

/** Exactly-once check at exit: 0 when it holds, -1 (logged) if not. */
int tp_stats_check(struct tp_ctx *ctx);

#endif /* _TP_STATS_H_ */
