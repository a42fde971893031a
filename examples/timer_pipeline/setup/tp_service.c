/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Service lcores: our services (the record writer, a capture's
 * read-ahead, the IPFIX exporter) registered; a service (those and the
 * event scheduler, the timer adapter) mapped to the service lcore running
 * the fewest, at setup on the main lcore, or, in a run without service
 * lcores, listed for the main lcore to run in its loop (the list is
 * written at setup and read by the main lcore alone); whether a
 * service shares its lcore with a running one (any lcore, read only);
 * and an lcore waiting for a service's work running it itself.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_service.h>

#include "tp_ctx.h"
#include "setup/tp_service.h"

/* Above DPDK's service table (RTE_SERVICE_NUM_MAX, 64, not exported). */
#define TP_SERVICE_ID_LIMIT 1024u
/* The most services the main lcore runs itself: ours and DPDK's. */
#define TP_SERVICE_HERE_MAX 8u

/* Without service lcores: the services the main lcore runs. */
static struct {
	uint32_t ids[TP_SERVICE_HERE_MAX];
	unsigned int nb;
} tp_service_here;

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

/*
 * No service lcore: the main lcore runs the service in its loop
 * (tp_service_run_here()). Its runstate no longer waits for a mapped
 * service lcore (DPDK's check, which the event device's and the timer
 * adapter's start obey).
 */
static int
tp_service_map_here(uint32_t service_id, const char *what)
{
	int ret;

	if (tp_service_here.nb == TP_SERVICE_HERE_MAX) {
		TP_LOG(ERR, "the %s needs a service lcore: add -S <list> to "
		       "the EAL options, e.g. -l 0-1 -S 1 (see --help)", what);
		return -ENOSPC;
	}
	ret = rte_service_set_runstate_mapped_check(service_id, 0);
	if (ret < 0) {
		TP_LOG(ERR, "cannot run the %s on the main lcore: %s", what,
		       strerror(-ret));
		return ret;
	}
	tp_service_here.ids[tp_service_here.nb++] = service_id;
	TP_LOG(INFO, "%s (service %u) runs on the main lcore %u (no service "
	       "lcore)", what, service_id, rte_get_main_lcore());
	return 0;
}

/* Map a service to the service lcore running the fewest services. 8< */
int
tp_service_map(uint32_t service_id, const char *what)
{
	uint32_t lcores[RTE_MAX_LCORE], best = RTE_MAX_LCORE;
	int32_t n, i, load, best_load = INT32_MAX;
	int ret;

	n = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	if (n <= 0)
		return tp_service_map_here(service_id, what);
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

bool
tp_service_here_any(void)
{
	return tp_service_here.nb != 0;
}

bool
tp_service_here_has(uint32_t service_id)
{
	unsigned int i;

	for (i = 0; i < tp_service_here.nb; i++)
		if (tp_service_here.ids[i] == service_id)
			return true;
	return false;
}

/* One iteration of each listed service, on the main lcore. 8< */
void
tp_service_run_here(void)
{
	unsigned int i;

	RTE_ASSERT(rte_lcore_id() == rte_get_main_lcore());
	for (i = 0; i < tp_service_here.nb; i++)
		rte_service_run_iter_on_app_lcore(tp_service_here.ids[i], 1);
}
/* >8 End of running the services here. */

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

/* Whether this thread is a service lcore. */
static bool
tp_service_lcore_here(void)
{
	const unsigned int lcore = rte_lcore_id();

	return lcore < RTE_MAX_LCORE &&
		rte_lcore_has_role(lcore, ROLE_SERVICE) > 0;
}

bool
tp_service_may_sleep(uint32_t self_id)
{
	return tp_service_lcore_here() &&
		!tp_service_others_running(self_id, rte_lcore_id());
}

bool
tp_service_shares_lcore(uint32_t self_id)
{
	return tp_service_lcore_here() &&
		tp_service_others_running(self_id, rte_lcore_id());
}

/* An lcore waiting for a service's work runs it. 8< */
bool
tp_service_help(uint32_t service_id)
{
	RTE_ASSERT(rte_lcore_id() < RTE_MAX_LCORE &&
		   rte_lcore_has_role(rte_lcore_id(), ROLE_SERVICE) == 0);
	return rte_service_run_iter_on_app_lcore(service_id, 1) == 0;
}
/* >8 End of lending a hand. */
