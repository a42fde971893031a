/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_STATS_JSON_H_
#define _TP_STATS_JSON_H_

/*
 * --stats-json (tp_stats_json.c), written by the main lcore only. Its
 * state (struct tp_stats_json: ctx->sj) is in tp_stats_json_types.h; the
 * call takes the context, since each line is the whole counter table
 * (tp_counters_read()).
 */

#include <stdbool.h>

struct tp_ctx;

/** --stats-json: append one line of totals (final: the last, closes). */
void tp_stats_json_write(struct tp_ctx *ctx, bool final);

#endif /* _TP_STATS_JSON_H_ */
