/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Per-scheduler event device ops: centralised (event_sw) and distributed
 * (event_dsw). Chosen in tp_evdev_probe() from
 * RTE_EVENT_DEV_CAP_DISTRIBUTED_SCHED.
 */

#include <errno.h>

#include <rte_eventdev.h>
#include <rte_service.h>

#include "tp_ctx.h"
#include "setup/tp_evdev_ops.h"
#include "setup/tp_service.h"

/*
 * Both kinds: maintain calls when the device is not maintenance free
 * (event_dsw buffers per port: idle ports must call it), and the timer
 * queue's priority (highest only when asked for and the device has queue
 * priorities). False when the highest was asked for and is not there.
 */
static bool
tp_adjust_common(struct tp_ctx *ctx, const struct rte_event_dev_info *info)
{
	struct tp_evdev *evd = &ctx->evd;

	evd->need_maintain = (info->event_dev_cap &
			      RTE_EVENT_DEV_CAP_MAINTENANCE_FREE) == 0;
	evd->timer_prio = RTE_EVENT_DEV_PRIORITY_NORMAL;
	if (!ctx->cfg->timer_prio_high)
		return true;
	if ((info->event_dev_cap & RTE_EVENT_DEV_CAP_QUEUE_QOS) == 0)
		return false;
	evd->timer_prio = RTE_EVENT_DEV_PRIORITY_HIGHEST;
	return true;
}

static void
tp_central_adjust(struct tp_ctx *ctx, const struct rte_event_dev_info *info)
{
	if (!tp_adjust_common(ctx, info))
		TP_LOG(INFO, "%s has no queue priorities: timer queue at "
		       "normal priority", info->driver_name);
}

static int
tp_central_service_setup(struct tp_ctx *ctx)
{
	struct tp_evdev *evd = &ctx->evd;
	int ret;

	if (rte_event_dev_service_id_get(evd->dev_id,
					 &evd->sched_service_id) != 0)
		return 0;	/* this device schedules without a service */
	evd->has_sched_service = true;
	ret = tp_service_map(evd->sched_service_id, "event scheduler");
	if (ret < 0)
		return ret;
	/* Its call count tells RX whether it runs (tp_rx.c). */
	rte_service_set_stats_enable(evd->sched_service_id, 1);
	return rte_service_runstate_set(evd->sched_service_id, 1);
}

const struct tp_evdev_ops tp_evdev_centralised_ops = {
	.name = "centralised",
	.adjust = tp_central_adjust,
	.service_setup = tp_central_service_setup,
};

static int
tp_distrib_check(struct tp_ctx *ctx, const struct rte_event_dev_info *info)
{
	/* 22.11 has no capability bit for ordered queues (23.11 adds
	 * RTE_EVENT_DEV_CAP_ORDERED); event_dsw, the distributed device we
	 * know, has none.
	 */
	if (ctx->cfg->sched_type == RTE_SCHED_TYPE_ORDERED) {
		TP_LOG(ERR, "%s has no ordered queues: use --eventq-sched "
		       "atomic or parallel (see --help)", info->driver_name);
		return -EINVAL;
	}
	return 0;
}

static void
tp_distrib_adjust(struct tp_ctx *ctx, const struct rte_event_dev_info *info)
{
	tp_adjust_common(ctx, info);	/* silently normal without QoS */
}

static int
tp_distrib_service_setup(struct tp_ctx *ctx)
{
	RTE_SET_USED(ctx);
	return 0;	/* scheduling happens in enqueue and dequeue */
}

const struct tp_evdev_ops tp_evdev_distributed_ops = {
	.name = "distributed",
	.check = tp_distrib_check,
	.adjust = tp_distrib_adjust,
	.service_setup = tp_distrib_service_setup,
};
