/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_SUMMARY_LAYOUT_H_
#define _TP_SUMMARY_LAYOUT_H_

/* --summary-json's "layout" (tp_summary_layout.c). */

struct tp_ctx;
struct tp_json;

/** Write the "layout" object (docs/summary-json.rst). */
void tp_summary_layout_write(struct tp_json *w, const struct tp_ctx *ctx);

/** An lcore's roles, as a list of words under "roles". */
void tp_summary_layout_roles(struct tp_json *w, const struct tp_ctx *ctx,
			     unsigned int id);

#endif /* _TP_SUMMARY_LAYOUT_H_ */
