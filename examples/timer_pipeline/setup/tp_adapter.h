/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_ADAPTER_H_
#define _TP_ADAPTER_H_

/* The event timer adapter's setup (tp_adapter.c). */

struct tp_ctx;

/** Create the adapter (ours or DPDK's) and map its service. */
int tp_adapter_setup(struct tp_ctx *ctx);

#endif /* _TP_ADAPTER_H_ */
