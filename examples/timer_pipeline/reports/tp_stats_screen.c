/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The stats screen (-T S, and the summary at exit), printed from the
 * counter table: one line per group, each counter as "label value"; the
 * per-lcore table has a column per row flagged TP_CTR_LCORE. Runs on the
 * main lcore; reads the slots without locks (tp_slots.h).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "reports/tp_counters.h"
#include "tp_ctx.h"
#include "reports/tp_stats_screen.h"

/* Width of a per-lcore column: its name, at least 10. */
static int
tp_screen_col_width(const struct tp_counter *row)
{
	return RTE_MAX((int)strlen(row->name), 10);
}

static void
tp_screen_lcores(const struct tp_ctx *ctx)
{
	const struct tp_counter *row;
	struct tp_counters c;
	unsigned int id, i;
	char role[16];

	printf("  lcore role     ");
	for (i = 0; i < tp_counters_rows; i++) {
		row = &tp_counters_table[i];
		if (row->flags & TP_CTR_LCORE)
			printf(" %*s", tp_screen_col_width(row), row->name);
	}
	printf("\n");
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		const struct tp_lcore *lc = &ctx->lc[id];

		if ((lc->roles & (TP_ROLE_RX | TP_ROLE_WORKER)) == 0)
			continue;
		snprintf(role, sizeof(role), "%s%s%s",
			 lc->roles & TP_ROLE_RX ? "rx" : "",
			 (lc->roles & TP_ROLE_RX) &&
			 (lc->roles & TP_ROLE_WORKER) ? "+" : "",
			 lc->roles & TP_ROLE_WORKER ? "worker" : "");
		tp_counters_from_slots(&lc->stats, &c);
		printf("  %5u %-9s", id, role);
		for (i = 0; i < tp_counters_rows; i++) {
			row = &tp_counters_table[i];
			if (row->flags & TP_CTR_LCORE)
				printf(" %*" PRIu64, tp_screen_col_width(row),
				       tp_counter_value(&c, row, 0));
		}
		printf("\n");
	}
}

/* One group's line: "label value" per counter; a named array follows a
 * colon, "element value" each; lists (the histogram) are not shown.
 */
static void
tp_screen_group(const struct tp_counters *c, enum tp_counter_group g)
{
	const struct tp_counter *row;
	unsigned int i, e;

	printf("  %-8s", tp_counters_group_name[g]);
	for (i = 0; i < tp_counters_rows; i++) {
		row = &tp_counters_table[i];
		if (row->group != g)
			continue;
		if (row->n == 1) {	/* no label: not on the screen */
			if (row->label[0] != '\0')
				printf(" %s %" PRIu64, row->label,
				       tp_counter_value(c, row, 0));
			continue;
		}
		if (row->elem == NULL)
			continue;
		printf(":");
		for (e = 0; e < row->n; e++)
			printf(" %s %" PRIu64, row->elem(e),
			       tp_counter_value(c, row, e));
	}
	printf("\n");
}

/* The stats screen. 8< */
void
tp_stats_screen_print(const struct tp_ctx *ctx, bool final)
{
	struct tp_counters c;
	unsigned int g;
	bool ipfix;
	uint64_t el;

	ipfix = tp_counters_read(ctx, &c, NULL);
	el = tp_cycles_to_ns(rte_get_timer_cycles() - ctx->start_tsc, ctx->hz);
	printf("\n=== timer_pipeline %s, %" PRIu64 ".%01" PRIu64 " s, %s adapter"
	       ", %s refresh, %s clock ===\n", final ? "summary" : "stats",
	       el / 1000000000, el / 100000000 % 10, ctx->ta.ops->name,
	       ctx->cfg->refresh == TP_REFRESH_LAZY ? "lazy" : "every-packet",
	       ctx->clk.on ? "capture" : "wall");
	tp_screen_lcores(ctx);
	for (g = 0; g < TP_GRP_MAX; g++) {
		if (g != TP_GRP_IPFIX || ipfix)
			tp_screen_group(&c, g);
		/* The ports' imissed is no count where a driver does not
		 * count the kernel's drops: say so under the ports' line.
		 */
		if (g == TP_GRP_PORTS && ctx->live.drops_unknown > 0)
			printf("  %-8s input drops unknown (imissed is no "
			       "full count): %s\n", "", ctx->live.drops_why);
	}
	fflush(stdout);
}
/* >8 End of the stats screen. */
