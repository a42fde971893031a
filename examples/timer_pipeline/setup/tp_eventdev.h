/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_EVENTDEV_H_
#define _TP_EVENTDEV_H_

/*
 * Event device setup. The steps are the same for every device; what
 * differs between a centralised scheduler (event_sw: a scheduler service
 * on a service lcore, priorities, ordered queues) and a distributed one
 * (event_dsw: scheduling inside enqueue/dequeue, idle ports must call
 * rte_event_maintain(), no ordered queues, no priorities) lives in an ops
 * table chosen from the device's capabilities, as in l2fwd-event.
 */

#include <stdint.h>

#include <rte_eventdev.h>

struct tp_ctx;

/* Event device ops. 8< */
struct tp_evdev_ops {
	const char *name;
	/** Refuse configurations that would stall (0 or -EINVAL, logged). */
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

/* tp_eventdev.c */
int tp_evdev_probe(struct tp_ctx *ctx);
int tp_evdev_setup(struct tp_ctx *ctx);
int tp_adapter_setup(struct tp_ctx *ctx);
int tp_evdev_start(struct tp_ctx *ctx);
void tp_evdev_stop(struct tp_ctx *ctx);
int tp_service_map(uint32_t service_id, const char *what);

#endif /* _TP_EVENTDEV_H_ */
