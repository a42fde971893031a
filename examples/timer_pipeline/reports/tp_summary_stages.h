/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_SUMMARY_STAGES_H_
#define _TP_SUMMARY_STAGES_H_

/* --summary-json's "stage_cycles" (tp_summary_stages.c). */

struct tp_counters;
struct tp_ctx;
struct tp_json;

/** Write "stage_cycles": an object, or null without -Dstage_cycles. */
void tp_summary_stages_write(struct tp_json *w, const struct tp_ctx *ctx,
			     const struct tp_counters *c);

#endif /* _TP_SUMMARY_STAGES_H_ */
