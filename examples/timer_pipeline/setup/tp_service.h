/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_SERVICE_H_
#define _TP_SERVICE_H_

/* Service lcores (tp_service.c): at setup, and the main lcore's own. */

#include <stdbool.h>
#include <stdint.h>

#include <rte_service_component.h>

/**
 * Register a service of ours, run by one lcore at a time: name (printf
 * style, up to RTE_SERVICE_NAME_MAX), callback and its argument; what
 * names it in the log of a failure.
 *
 * @return 0 with its id in *id, or a negative errno (logged).
 */
int tp_service_register(uint32_t *id, rte_service_func cb, void *arg,
			const char *what, const char *name_fmt, ...)
	__rte_format_printf(5, 6);

/**
 * Map a service to the service lcore running the fewest services and
 * start it there; what names it in the logs. In a run without service
 * lcores, the main lcore runs it instead (tp_service_run_here()).
 *
 * @return 0, or a negative errno (logged).
 */
int tp_service_map(uint32_t service_id, const char *what);

/** Whether the main lcore runs services (the run has no service lcore). */
bool tp_service_here_any(void);

/** Whether the main lcore runs service_id (tp_service_run_here()). */
bool tp_service_here_has(uint32_t service_id);

/**
 * One iteration of each service the main lcore runs, serialised against
 * any other caller; on the main lcore only.
 */
void tp_service_run_here(void);

/**
 * Whether a service other than self_id that is mapped to lcore is
 * running.
 */
bool tp_service_others_running(uint32_t self_id, uint32_t lcore);

/**
 * Whether a service of ours with nothing to do may sleep: only on a
 * service lcore (never on an lcore lending a hand, tp_service_help()),
 * and only when no other running service is mapped there, so that it
 * never holds another one off.
 */
bool tp_service_may_sleep(uint32_t self_id);

/**
 * Whether this is a service lcore on which a running service other than
 * self_id is mapped (a service of ours that has finished stops itself
 * there rather than take turns with it for nothing).
 */
bool tp_service_shares_lcore(uint32_t self_id);

/**
 * Lend a hand: one iteration of a service of ours on this lcore, which
 * waits for that service's work (a ring it fills or drains), rather than
 * spin while the service lcore is busy with other services. Serialised
 * with the service lcore by DPDK's lock for a service run by one lcore
 * at a time; an EAL lcore that is not a service lcore only.
 * @return true if the iteration ran here, false if another lcore was
 *   inside the service (or it is stopped).
 */
bool tp_service_help(uint32_t service_id);

#endif /* _TP_SERVICE_H_ */
