/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_STATS_SCREEN_H_
#define _TP_STATS_SCREEN_H_

/*
 * The stats screen (tp_stats_screen.c), printed from the counter table
 * (tp_counters.h) by the main lcore; no lock (the slots need none).
 */

#include <stdbool.h>

struct tp_ctx;

/** Print the stats screen (final: the exit summary). */
void tp_stats_screen_print(const struct tp_ctx *ctx, bool final);

#endif /* _TP_STATS_SCREEN_H_ */
