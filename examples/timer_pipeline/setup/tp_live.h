/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_LIVE_H_
#define _TP_LIVE_H_

/*
 * Live input drivers (tp_live.c): which PMDs read a live interface, and
 * whether each counts the packets the kernel dropped before they reached
 * the PMD. State: struct tp_live (ctx->live), below, set once on the main
 * lcore before launch, read-only after; no lock.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The live drivers' blind spots: ports whose driver does not count the
 * kernel's drops in imissed, and why, for the first of them.
 */
struct tp_live {
	uint64_t drops_unknown;		/**< Such ports. */
	char drops_why[192];		/**< "port N: reason", first one. */
};

/** Whether a --vdev's devargs (e.g. "net_af_xdp0,iface=eth0") name a
 * driver that reads a live interface through its iface= argument.
 */
bool tp_live_vdev(const char *devargs);

/**
 * Find the ports among @p ports whose driver does not count the kernel's
 * drops in imissed (live->drops_unknown, and the reason in
 * live->drops_why), and log each. Call once the ports are probed.
 */
void tp_live_ports_check(struct tp_live *live, const uint16_t *ports,
			 uint16_t nb_ports);

#endif /* _TP_LIVE_H_ */
