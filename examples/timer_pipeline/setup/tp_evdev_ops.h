/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_EVDEV_OPS_H_
#define _TP_EVDEV_OPS_H_

/*
 * What differs between a centralised scheduler (event_sw) and a
 * distributed one (event_dsw): an ops table each (tp_evdev_ops.c),
 * chosen by tp_evdev_probe() from the device's capabilities. Const.
 */

#include <rte_eventdev.h>

struct tp_ctx;

/* Event device ops. 8< */
struct tp_evdev_ops {
	const char *name;
	/** Refuse configurations that would stall (0 or -EINVAL, logged);
	 *  NULL: none would. */
	int (*check)(struct tp_ctx *ctx, const struct rte_event_dev_info *info);
	/** Fill device-specific fields of ctx->evd (priorities, maintain). */
	void (*adjust)(struct tp_ctx *ctx,
		       const struct rte_event_dev_info *info);
	/** Map and start the device's own services, if any. */
	int (*service_setup)(struct tp_ctx *ctx);
};
/* >8 End of event device ops. */

extern const struct tp_evdev_ops tp_evdev_centralised_ops;
extern const struct tp_evdev_ops tp_evdev_distributed_ops;

#endif /* _TP_EVDEV_OPS_H_ */
