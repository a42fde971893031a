/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_EVDEV_H_
#define _TP_EVDEV_H_

/*
 * Event device setup. The steps are the same for every device; what
 * differs between a centralised scheduler (event_sw: a scheduler service
 * on a service lcore, priorities, ordered queues) and a distributed one
 * (event_dsw: scheduling inside enqueue/dequeue, idle ports must call
 * rte_event_maintain(), no ordered queues, no priorities) lives in an ops
 * table chosen from the device's capabilities, as in l2fwd-event. Its
 * state (struct tp_evdev: ctx->evd) and queues are in tp_evdev_types.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_eventdev.h>

struct tp_ctx;

int tp_evdev_probe(struct tp_ctx *ctx);
int tp_evdev_setup(struct tp_ctx *ctx);
int tp_evdev_start(struct tp_ctx *ctx);
void tp_evdev_stop(struct tp_ctx *ctx);

/** Set up event port @p port with the RX new_event_threshold given,
 * linked to the queues when @p link. 0 or a negative errno (logged).
 */
int tp_evdev_port(struct tp_ctx *ctx, uint8_t port, uint32_t threshold,
		  bool link);

#endif /* _TP_EVDEV_H_ */
