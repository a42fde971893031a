/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Telemetry: /timer_adapter/list, /timer_adapter/info,<id> and
 * /timer_adapter/stats,<id>. Handlers run on the telemetry control thread
 * and only read, holding the handle table's lock (ta_table_hold()) while
 * they read an adapter.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include <rte_telemetry.h>

#include "dpdk_compat.h"

#include "ta_private.h"

/* Parse a decimal adapter id; -1 when params is not one. */
static int
ta_tel_parse_id(const char *params)
{
	unsigned long v;
	char *end;

	if (params == NULL || !isdigit((unsigned char)params[0]))
		return -1;
	errno = 0;
	v = strtoul(params, &end, 10);
	if (errno != 0 || *end != '\0' || v >= TIMER_ADAPTER_NUM_MAX)
		return -1;
	return (int)v;
}

static int
ta_tel_list(const char *cmd __rte_unused, const char *params __rte_unused,
	    struct rte_tel_data *d)
{
	unsigned int i;

	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	ta_table_hold();
	for (i = 0; i < TIMER_ADAPTER_NUM_MAX; i++)
		if (ta_adapter_get(i) != NULL)
			rte_tel_data_add_array_int(d, i);
	ta_table_release();
	return 0;
}

/*
 * The adapter named by params with the adapter table held (the caller
 * releases it), or NULL with the table released.
 */
static const struct timer_adapter *
ta_tel_hold(const char *params)
{
	const struct timer_adapter *a;
	int id = ta_tel_parse_id(params);

	if (id < 0)
		return NULL;
	ta_table_hold();
	a = ta_adapter_get(id);
	if (a == NULL)
		ta_table_release();
	return a;
}

static int
ta_tel_info(const char *cmd __rte_unused, const char *params,
	    struct rte_tel_data *d)
{
	const struct timer_adapter *a = ta_tel_hold(params);

	if (a == NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	compat_tel_dict_uint(d, "timer_adapter_id", a->id);
	compat_tel_dict_uint(d, "event_dev_id", a->conf.event_dev_id);
	compat_tel_dict_uint(d, "event_port_id", a->port_id);
	compat_tel_dict_uint(d, "timer_tick_ns", a->conf.timer_tick_ns);
	compat_tel_dict_uint(d, "max_tmo_ns", a->conf.max_tmo_ns);
	compat_tel_dict_uint(d, "nb_timers", a->conf.nb_timers);
	compat_tel_dict_uint(d, "flags", a->conf.flags);
	compat_tel_dict_uint(d, "cycles_per_tick", a->cyc_per_tick);
	compat_tel_dict_uint(d, "service_id", a->service_id);
	compat_tel_dict_uint(d, "started",
				  __atomic_load_n(&a->started,
						  __ATOMIC_RELAXED));
	compat_tel_dict_uint(d, "lists_used",
				  __atomic_load_n(&a->nb_used,
						  __ATOMIC_RELAXED));
	compat_tel_dict_uint(d, "far_span_ticks",
				  UINT64_C(1) << a->far_shift);
	ta_table_release();
	return 0;
}

static int
ta_tel_stats(const char *cmd __rte_unused, const char *params,
	     struct rte_tel_data *d)
{
	struct rte_event_timer_adapter_stats s;
	struct timer_adapter_accounting acct;
	const struct timer_adapter *a = ta_tel_hold(params);

	if (a == NULL)
		return -EINVAL;
	if (timer_adapter_stats_get(a, &s) < 0 ||
	    timer_adapter_accounting_get(a, &acct) < 0) {
		ta_table_release();
		return -EINVAL;
	}
	ta_table_release();
	rte_tel_data_start_dict(d);
	compat_tel_dict_uint(d, "evtim_exp_count", s.evtim_exp_count);
	compat_tel_dict_uint(d, "ev_enq_count", s.ev_enq_count);
	compat_tel_dict_uint(d, "ev_inv_count", s.ev_inv_count);
	compat_tel_dict_uint(d, "evtim_retry_count", s.evtim_retry_count);
	compat_tel_dict_uint(d, "adapter_tick_count",
				  s.adapter_tick_count);
	compat_tel_dict_uint(d, "evtim_drop_count", s.evtim_drop_count);
	compat_tel_dict_uint(d, "timers_armed", acct.armed);
	compat_tel_dict_uint(d, "timers_expired", acct.expired);
	compat_tel_dict_uint(d, "timers_cancelled", acct.cancelled);
	compat_tel_dict_uint(d, "timers_pending", acct.pending);
	compat_tel_dict_uint(d, "timers_parked", acct.parked);
	compat_tel_dict_uint(d, "mem_bytes", acct.mem_bytes);
	return 0;
}

RTE_INIT(ta_telemetry_init)
{
	static const struct {
		const char *name;
		telemetry_cb fn;
		const char *help;
	} cmds[] = {
		{ "/timer_adapter/list", ta_tel_list,
		  "Returns the ids of the lib_timer_adapter adapters." },
		{ "/timer_adapter/info", ta_tel_info,
		  "Returns a timer adapter's configuration. Parameters: int adapter_id" },
		{ "/timer_adapter/stats", ta_tel_stats,
		  "Returns a timer adapter's statistics. Parameters: int adapter_id" },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(cmds); i++)
		if (rte_telemetry_register_cmd(cmds[i].name, cmds[i].fn,
					       cmds[i].help) != 0)
			TA_LOG(ERR, "cannot register telemetry command %s",
			       cmds[i].name);
}
