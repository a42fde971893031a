/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Telemetry: /timer_pipeline/stats (every counter), /timer_pipeline/flows
 * (the flows and records groups) and /timer_pipeline/ipfix (the exporter's
 * group), each a dict of the counter table's keys. One handler serves the
 * three, by command name. The handlers run on DPDK's telemetry thread and
 * read the context under tp_tel_lock (below); the slots they sum need no
 * lock (tp_slots.h).
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_spinlock.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"

#include "reports/tp_counters.h"
#include "tp_ctx.h"
#include "reports/tp_telemetry.h"

/*
 * The context the telemetry handlers read: the second mutable global, next
 * to tp_quit_signal (tp_ctx.h). DPDK 22.11's telemetry handlers take no
 * user argument; 24.11's rte_telemetry_register_cmd_arg() can pass one,
 * but DPDK has no call to unregister a command, so a handler may run
 * after the context it was given is freed: the context lives shorter than
 * the process, hence this guarded pointer on every version. Set once by
 * tp_telemetry_register() before the commands exist; cleared by
 * tp_telemetry_unregister() before the context is freed. The lock
 * makes the clear wait for a handler that is reading the context (the
 * telemetry thread runs beside main).
 */
static const struct tp_ctx *tp_tel_ctx;
static rte_spinlock_t tp_tel_lock = RTE_SPINLOCK_INITIALIZER;

/* The commands. Names: letters, digits, '_' and '/' only, or registration
 * fails.
 */
static const struct {
	const char *cmd;
	unsigned int groups;	/* counter groups it returns */
	const char *help;
} tp_tel_cmds[] = {
	{ "/timer_pipeline/stats", TP_GRP_ALL,
	  "Pipeline counters (the stats screen's), uptime_ms" },
	{ "/timer_pipeline/flows", TP_GRP_BIT(TP_GRP_FLOWS) |
	  TP_GRP_BIT(TP_GRP_RECORDS),
	  "Flows: active, created, ended by reason, records written" },
	{ "/timer_pipeline/ipfix", TP_GRP_BIT(TP_GRP_IPFIX),
	  "IPFIX export: enabled, messages, records, bytes, templates, "
	  "not sent, reconnects" },
};

/* A key of the counter table into the reply dict. */
static void
tp_tel_put(void *arg, const char *key, const uint64_t *v, unsigned int n)
{
	struct rte_tel_data *d = arg, *list;
	unsigned int i;

	if (n == 0) {
		compat_tel_dict_uint(d, key, *v);
		return;
	}
	list = rte_tel_data_alloc();
	if (list == NULL)
		return;
	rte_tel_data_start_array(list, COMPAT_TEL_UINT_VAL);
	for (i = 0; i < n; i++)
		compat_tel_array_uint(list, v[i]);
	if (rte_tel_data_add_dict_container(d, key, list, 0) != 0)
		rte_tel_data_free(list);
}

/*
 * The reply: the groups' counters. /timer_pipeline/ipfix says whether the
 * exporter is on ("enabled") and gives its counters either way; the other
 * commands leave them out while it is off. /timer_pipeline/stats adds the
 * time since launch.
 */
static int
tp_tel_reply(const struct tp_ctx *ctx, unsigned int cmd,
	     struct rte_tel_data *d)
{
	const unsigned int want = tp_tel_cmds[cmd].groups;
	unsigned int groups = want;
	struct tp_counters c;
	bool ipfix;

	ipfix = tp_counters_read(ctx, &c, NULL);
	rte_tel_data_start_dict(d);
	if (want == TP_GRP_BIT(TP_GRP_IPFIX))
		compat_tel_dict_uint(d, "enabled", ipfix);
	else if (!ipfix)
		groups &= ~TP_GRP_BIT(TP_GRP_IPFIX);
	tp_counters_each(&c, groups, tp_tel_put, d);
	if (want == TP_GRP_ALL)
		compat_tel_dict_uint(d, "uptime_ms", tp_cycles_to_ns(
			rte_get_timer_cycles() - ctx->start_tsc, ctx->hz) /
			1000000);
	return 0;
}

static int
tp_tel_handler(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i;
	int ret = -EINVAL;

	if (params != NULL && *params != '\0')
		return -EINVAL;
	for (i = 0; i < RTE_DIM(tp_tel_cmds); i++)
		if (strcmp(cmd, tp_tel_cmds[i].cmd) == 0)
			break;
	if (i == RTE_DIM(tp_tel_cmds))
		return -EINVAL;
	rte_spinlock_lock(&tp_tel_lock);
	if (tp_tel_ctx != NULL)
		ret = tp_tel_reply(tp_tel_ctx, i, d);
	rte_spinlock_unlock(&tp_tel_lock);
	return ret;
}

/* Telemetry registration. 8< */
int
tp_telemetry_register(struct tp_ctx *ctx)
{
	unsigned int i;
	int ret = 0;

	rte_spinlock_lock(&tp_tel_lock);
	tp_tel_ctx = ctx;
	rte_spinlock_unlock(&tp_tel_lock);
	for (i = 0; i < RTE_DIM(tp_tel_cmds) && ret == 0; i++)
		ret = rte_telemetry_register_cmd(tp_tel_cmds[i].cmd,
						 tp_tel_handler,
						 tp_tel_cmds[i].help);
	if (ret < 0) {
		TP_LOG(ERR, "telemetry registration failed: %s",
		       strerror(-ret));
		return ret;
	}
	ctx->done.telemetry = true;
	return 0;
}
/* >8 End of telemetry registration. */

void
tp_telemetry_unregister(void)
{
	/* 22.11 cannot unregister commands: make them fail from now on. */
	rte_spinlock_lock(&tp_tel_lock);
	tp_tel_ctx = NULL;
	rte_spinlock_unlock(&tp_tel_lock);
}
