/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * --stats-json: one line of counters per stats period, the last one at
 * exit, from the counter table (tp_counters.h). Main lcore only; the file
 * is ctx->sj's.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "reports/tp_counters.h"
#include "reports/tp_json.h"
#include "reports/tp_stats_json.h"
#include "records/tp_output.h"
#include "tp_ctx.h"

/* A --stats-json line lost: counted, the first one logged. */
static void
tp_stats_json_lost(struct tp_ctx *ctx, bool final)
{
	__atomic_store_n(&ctx->sj.failed_lines,
			 ctx->sj.failed_lines + 1, __ATOMIC_RELAXED);
	if (!ctx->sj.warned)
		TP_LOG(WARNING, "--stats-json '%s': a line could not be "
		       "written%s%s; counting the lines lost "
		       "(stats_json_failed), the run goes on",
		       ctx->cfg->stats_json, errno != 0 ? ": " : "",
		       errno != 0 ? strerror(errno) : "");
	ctx->sj.warned = true;
	if (final)
		ctx->sj.closed = true;
}

/*
 * --stats-json: every counter as one JSON object per line, for
 * tools/plot_run.py, after "t_s" (seconds since launch) and "final".
 * Counters are cumulative since the start; the lateness histogram too, so
 * a reader takes percentiles per interval from the difference of two
 * lines. Opened at the first period. A diagnostic file: a line that
 * cannot be written is counted (stats_json_failed), the first failure is
 * logged, and the run goes on.
 */
void
tp_stats_json_write(struct tp_ctx *ctx, bool final)
{
	struct tp_counters c;
	struct tp_json w;
	bool ipfix;

	if (ctx->cfg->stats_json[0] == '\0' || ctx->sj.closed)
		return;
	if (ctx->sj.file == NULL && !ctx->sj.failed) {
		ctx->sj.file = tp_output_fopen("--stats-json",
						  ctx->cfg->stats_json);
		ctx->sj.failed = ctx->sj.file == NULL;
	}
	if (ctx->sj.file == NULL) {	/* could not be opened: logged */
		tp_stats_json_lost(ctx, final);
		return;
	}
	w.f = ctx->sj.file;
	w.sep = "";
	ipfix = tp_counters_read(ctx, &c, NULL);
	fputc('{', w.f);
	tp_json_key(&w, "t_s");
	fprintf(w.f, "%.3f", (double)tp_cycles_to_ns(rte_get_timer_cycles() -
		ctx->start_tsc, ctx->hz) / 1e9);
	tp_json_bool(&w, "final", final);
	tp_json_counters(&w, &c, ipfix);
	fputs("}\n", w.f);
	if ((fflush(w.f) != 0) | ferror(w.f)) {
		clearerr(w.f);
		tp_stats_json_lost(ctx, false);
	}
	if (final) {
		if (fclose(w.f) != 0)
			tp_stats_json_lost(ctx, false);
		ctx->sj.file = NULL;
		ctx->sj.closed = true;	/* nothing after the last */
	}
}
