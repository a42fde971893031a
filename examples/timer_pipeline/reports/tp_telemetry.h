/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_TELEMETRY_H_
#define _TP_TELEMETRY_H_

/*
 * The telemetry commands under /timer_pipeline/ (tp_telemetry.c). Their
 * handlers run on DPDK's telemetry thread and read the context under
 * tp_telemetry.c's lock.
 */

struct tp_ctx;

/** Register /timer_pipeline/stats, /timer_pipeline/flows and ipfix. */
int tp_telemetry_register(struct tp_ctx *ctx);

/** Forget the context in telemetry (before it is freed). */
void tp_telemetry_unregister(void);

#endif /* _TP_TELEMETRY_H_ */
