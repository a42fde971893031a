/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_LIVE_H_
#define _TP_LIVE_H_

/*
 * Live input drivers (tp_live.c): which PMDs read a live interface, and
 * whether each counts the packets the kernel dropped before they reached
 * the PMD. Set once on the main lcore before launch, read-only after.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_ctx;

/** Whether a --vdev's devargs (e.g. "net_af_xdp0,iface=eth0") name a
 * driver that reads a live interface through its iface= argument.
 */
bool tp_live_vdev(const char *devargs);

/**
 * Find the ports whose driver does not count the kernel's drops in
 * imissed (ctx->input.live_drops_unknown, and the reason in
 * ctx->input.live_drops_why), and log each. Call once the ports are probed.
 */
void tp_live_ports_check(struct tp_ctx *ctx);

#endif /* _TP_LIVE_H_ */
