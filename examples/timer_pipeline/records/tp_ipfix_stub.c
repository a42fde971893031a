/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The exporter's functions in a build without libfixbuf (meson builds this
 * file instead of tp_ipfix.c): tp_ipfix_opts_check() refuses --ipfix and
 * --ipfix-file there, so nothing is ever exported. No state, no lock.
 */

#include <string.h>

#include <rte_common.h>

#include "records/tp_ipfix.h"

int
tp_ipfix_start(struct tp_ctx *ctx, tp_ipfix_sum_t sum)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(sum);
	return 0;
}

void
tp_ipfix_submit(struct tp_ipfix *x, const struct tp_flow_record *r)
{
	RTE_SET_USED(x);
	RTE_SET_USED(r);
}

uint32_t
tp_ipfix_room(const struct tp_ipfix *x)
{
	RTE_SET_USED(x);
	return UINT32_MAX;
}

void
tp_ipfix_stop(struct tp_ipfix *x)
{
	RTE_SET_USED(x);
}

void
tp_ipfix_release(struct tp_ctx *ctx)
{
	RTE_SET_USED(ctx);
}

#ifdef TP_STAGE_CYCLES
const struct tp_stage_stats *
tp_ipfix_stages(const struct tp_ipfix *x)
{
	RTE_SET_USED(x);
	return NULL;
}
#endif

bool
tp_ipfix_stats_get(const struct tp_ipfix *x, struct tp_ipfix_stats *s)
{
	RTE_SET_USED(x);
	memset(s, 0, sizeof(*s));
	return false;
}
