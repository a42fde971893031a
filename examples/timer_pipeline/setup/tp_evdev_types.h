/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_EVDEV_TYPES_H_
#define _TP_EVDEV_TYPES_H_

/*
 * The event device's state (tp_evdev.h has the functions): its queues
 * and struct tp_evdev (ctx->evd), filled by tp_evdev.c on the main lcore
 * before the launch and read-only after. No lock.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_eventdev.h>

struct tp_evdev_ops;

/* Event queues: packets, then timer expiries. */
#define TP_QUEUE_PKT 0
#define TP_QUEUE_TIMER 1
#define TP_NB_QUEUES 2

/** Event device resources. */
struct tp_evdev {
	uint8_t dev_id;			/**< Event device. */
	uint8_t nb_ports;		/**< Ports set up (lcores + adapter). */
	uint8_t adapter_port;		/**< Port the timer adapter uses. */
	uint16_t deq_depth;		/**< Dequeue burst. */
	uint16_t cq_depth;		/**< Ports' dequeue_depth (0: the
					 *   driver's default, up to deq_depth).
					 */
	uint32_t nb_events;		/**< nb_events_limit configured. */
	uint32_t rx_threshold;		/**< RX ports' new_event_threshold. */
	uint32_t dev_cap;		/**< event_dev_cap. */
	uint8_t timer_prio;		/**< Timer queue priority used. */
	bool need_maintain;		/**< Idle ports call rte_event_maintain. */
	bool has_sched_service;		/**< Centralised scheduler. */
	uint32_t sched_service_id;	/**< Its service id. */
	const struct tp_evdev_ops *ops;	/**< Centralised or distributed. */
	struct rte_event_port_conf port_conf; /**< Worker port conf. */
};

#endif /* _TP_EVDEV_TYPES_H_ */
