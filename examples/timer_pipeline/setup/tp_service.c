/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Service lcores: our services (the record writer, a capture's
 * read-ahead, the IPFIX exporter) registered; a service (those and the
 * event scheduler, the timer adapter) mapped to the service lcore running
 * the fewest, at setup on the main lcore; and whether a service shares
 * its lcore with a running one (any lcore, read only).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_service.h>

#include "tp_ctx.h"
#include "setup/tp_service.h"

/* Above DPDK's service table (RTE_SERVICE_NUM_MAX, 64, not exported). */
#define TP_SERVICE_ID_LIMIT 1024u

int
tp_service_register(uint32_t *id, rte_service_func cb, void *arg,
		    const char *what, const char *name_fmt, ...)
{
	struct rte_service_spec spec;
	va_list ap;
	int ret;

	memset(&spec, 0, sizeof(spec));
	va_start(ap, name_fmt);
	vsnprintf(spec.name, sizeof(spec.name), name_fmt, ap);
	va_end(ap);
	spec.callback = cb;
	spec.callback_userdata = arg;
	spec.socket_id = (int)rte_socket_id();
	spec.capabilities = 0;	/* one lcore runs it at a time */
	ret = rte_service_component_register(&spec, id);
	if (ret < 0)
		TP_LOG(ERR, "cannot register the %s service: %s", what,
		       strerror(-ret));
	return ret;
}

/* Map a service to the service lcore running the fewest services. 8< */
int
tp_service_map(uint32_t service_id, const char *what)
{
	uint32_t lcores[RTE_MAX_LCORE], best = RTE_MAX_LCORE;
	int32_t n, i, load, best_load = INT32_MAX;
	int ret;

	n = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	if (n <= 0) {
		TP_LOG(ERR, "the %s needs a service lcore: add -S <list> to "
		       "the EAL options, e.g. -l 0-1 -S 1 (see --help)", what);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		load = rte_service_lcore_count_services(lcores[i]);
		if (load >= 0 && load < best_load) {
			best_load = load;
			best = lcores[i];
		}
	}
	ret = rte_service_map_lcore_set(service_id, best, 1);
	if (ret < 0) {
		TP_LOG(ERR, "cannot map the %s to lcore %u: %s", what, best,
		       strerror(-ret));
		return ret;
	}
	ret = rte_service_lcore_start(best);
	if (ret < 0 && ret != -EALREADY) {
		TP_LOG(ERR, "cannot start service lcore %u: %s", best,
		       strerror(-ret));
		return ret;
	}
	TP_LOG(INFO, "%s (service %u) runs on service lcore %u", what,
	       service_id, best);
	return 0;
}
/* >8 End of mapping a service. */

/* Whether another service mapped to this lcore is running. 8< */
bool
tp_service_others_running(uint32_t self_id, uint32_t lcore)
{
	const uint32_t n = rte_service_get_count();
	uint32_t id, seen;

	/* Ids are not dense once a service has gone: the n registered
	 * ones are found by name.
	 */
	for (id = 0, seen = 0; seen < n && id < TP_SERVICE_ID_LIMIT; id++) {
		if (rte_service_get_name(id) == NULL)
			continue;
		seen++;
		if (id != self_id &&
		    rte_service_map_lcore_get(id, lcore) == 1 &&
		    rte_service_runstate_get(id) == 1)
			return true;
	}
	return false;
}
/* >8 End of whether another service runs. */
