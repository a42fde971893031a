/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_SERVICE_H_
#define _TP_SERVICE_H_

/* Service lcores (tp_service.c), at setup. */

#include <stdint.h>

/**
 * Map a service to the service lcore running the fewest services and
 * start it there; what names it in the logs.
 *
 * @return 0, or a negative errno (logged).
 */
int tp_service_map(uint32_t service_id, const char *what);

#endif /* _TP_SERVICE_H_ */
