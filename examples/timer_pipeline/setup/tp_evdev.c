/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Event device setup: probe, configure (clamped to the device's limits),
 * queues, ports, start and stop.
 *
 * Layout: two queues (packets, scheduled by flow with --eventq-sched; timer
 * expiries, atomic, at the highest priority where the device has queue
 * priorities), one port per lcore with an RX and/or worker role, and one
 * port for the timer adapter. RX ports get a lower new_event_threshold than
 * the adapter's port, so a packet flood cannot take the credits expiry
 * events need.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_service.h>

#include "tp_ctx.h"
#include "setup/tp_clock.h"
#include "setup/tp_evdev.h"
#include "setup/tp_evdev_ops.h"

/* Credits an event_sw port may keep: two quanta of 32 and a burst. */
#define TP_SW_CREDITS_PER_PORT 96

/* Reorder window of an ordered packet queue. */
#define TP_ORDER_SEQUENCES 1024

int
tp_evdev_probe(struct tp_ctx *ctx)
{
	struct rte_event_dev_info info;
	struct tp_evdev *evd = &ctx->evd;
	int ret;

	if (rte_event_dev_count() == 0) {
		TP_LOG(ERR, "no event device: add --vdev=event_sw0 (or "
		       "event_dsw0) to the EAL options (see --help)");
		return -EINVAL;
	}
	evd->dev_id = 0;
	ret = rte_event_dev_info_get(evd->dev_id, &info);
	if (ret < 0)
		return ret;
	evd->dev_cap = info.event_dev_cap;
	/* Capabilities choose the ops, as in l2fwd-event. */
	evd->ops = (info.event_dev_cap & RTE_EVENT_DEV_CAP_DISTRIBUTED_SCHED) ?
		&tp_evdev_distributed_ops : &tp_evdev_centralised_ops;
	ret = evd->ops->check != NULL ? evd->ops->check(ctx, &info) : 0;
	if (ret < 0)
		return ret;
	/* Without a service lcore the main lcore runs the services
	 * (tp_service.h); DPDK's adapter starts only on a service lcore.
	 */
	if (rte_service_lcore_count() == 0 &&
	    ctx->cfg->adapter == TP_ADAPTER_RTE) {
		TP_LOG(ERR, "DPDK's timer adapter (--timer-adapter rte) runs "
		       "only on a service lcore: add one with the EAL option "
		       "-S <list>, e.g. -l 0-1 -S 1 (see --help)");
		return -EINVAL;
	}
	evd->ops->adjust(ctx, &info);
	TP_LOG(INFO, "event device %u: %s, %s scheduling", evd->dev_id,
	       info.driver_name, evd->ops->name);
	return 0;
}

static uint32_t
tp_clamp(uint32_t want, uint32_t max, const char *what)
{
	if (max != 0 && want > max) {
		TP_LOG(INFO, "%s %u clamped to the device limit %u", what, want,
		       max);
		return max;
	}
	return want;
}

/* Device configuration, clamped to its limits. 8< */
static int
tp_evdev_configure(struct tp_ctx *ctx, const struct rte_event_dev_info *info)
{
	struct tp_evdev *evd = &ctx->evd;
	struct rte_event_dev_config c;
	uint32_t deq;
	int ret;

	memset(&c, 0, sizeof(c));
	c.nb_event_queues = TP_NB_QUEUES;
	c.nb_event_ports = evd->nb_ports;
	c.nb_events_limit = tp_clamp(ctx->cfg->nb_events, info->max_num_events,
				     "--events");
	/*
	 * event_sw hands credits to ports in quanta of 32 and lets a port
	 * keep up to two quanta plus a burst: with fewer events than the
	 * ports can hold together, the adapter's port may find none left and
	 * expiry events would wait forever. Raise the limit to what the ports
	 * can hold (the default credit_quanta devarg is assumed).
	 */
	if (strstr(info->driver_name, "sw") != NULL) {
		int32_t need = evd->nb_ports * TP_SW_CREDITS_PER_PORT;

		if (c.nb_events_limit < need &&
		    (info->max_num_events <= 0 ||
		     need <= info->max_num_events)) {
			TP_LOG(WARNING, "--events %d raised to %d: %s ports "
			       "keep up to %u credits each, fewer events could "
			       "starve the timer adapter's port",
			       c.nb_events_limit, need, info->driver_name,
			       TP_SW_CREDITS_PER_PORT);
			c.nb_events_limit = need;
		}
	}
	c.nb_event_queue_flows = tp_clamp(1024 * 1024,
					  info->max_event_queue_flows,
					  "flows per queue");
	c.nb_event_port_dequeue_depth =
		tp_clamp(ctx->cfg->burst, info->max_event_port_dequeue_depth,
			 "dequeue depth");
	deq = c.nb_event_port_dequeue_depth;
	/*
	 * On the inline path only expiries cross the device, and a worker
	 * port holds what one scheduler call hands it (event_sw: its port's
	 * dequeue_depth, 16 by default): a flood's expiries then waited for
	 * the scheduler's next turn on the service lcore every 16 events.
	 * There, ports take the device's deepest; the dequeue burst stays.
	 */
	if (ctx->inline_path && info->max_event_port_dequeue_depth >
	    c.nb_event_port_dequeue_depth) {
		evd->cq_depth = (uint16_t)RTE_MIN(
			info->max_event_port_dequeue_depth, UINT16_MAX);
		c.nb_event_port_dequeue_depth = evd->cq_depth;
	}
	c.nb_event_port_enqueue_depth =
		tp_clamp(TP_MAX_BURST, info->max_event_port_enqueue_depth,
			 "enqueue depth");
	c.dequeue_timeout_ns = info->min_dequeue_timeout_ns;
	if (c.nb_event_ports > info->max_event_ports) {
		TP_LOG(ERR, "%u event ports needed (one per RX/worker lcore + "
		       "the adapter), %s has %u", c.nb_event_ports,
		       info->driver_name, info->max_event_ports);
		return -EINVAL;
	}
	ret = rte_event_dev_configure(evd->dev_id, &c);
	if (ret < 0) {
		TP_LOG(ERR, "cannot configure event device: %s",
		       strerror(-ret));
		return ret;
	}
	ctx->done.evd_configured = true;
	evd->nb_events = c.nb_events_limit;
	evd->rx_threshold = RTE_MAX(evd->nb_events *
				    ctx->cfg->rx_threshold_pct / 100, 1u);
	evd->deq_depth = (uint16_t)deq;
	return 0;
}
/* >8 End of device configuration. */

/* One event queue from the device's defaults; order_seq 0: the default. */
static int
tp_evdev_queue(struct tp_ctx *ctx, uint8_t id, uint8_t sched, uint8_t prio,
	       uint32_t order_seq, const char *name)
{
	struct rte_event_queue_conf q;
	int ret;

	ret = rte_event_queue_default_conf_get(ctx->evd.dev_id, id, &q);
	if (ret < 0)
		return ret;
	q.schedule_type = sched;
	q.priority = prio;
	q.event_queue_cfg = 0;
	if (order_seq != 0)
		q.nb_atomic_order_sequences = order_seq;
	ret = rte_event_queue_setup(ctx->evd.dev_id, id, &q);
	if (ret < 0)
		TP_LOG(ERR, "%s queue setup failed: %s", name, strerror(-ret));
	return ret;
}

static int
tp_evdev_queues(struct tp_ctx *ctx)
{
	int ret;

	/* event_sw's default reorder window is 1 sequence: too small for
	 * an ordered queue to make progress. l2fwd-event uses 1024 too.
	 */
	ret = tp_evdev_queue(ctx, TP_QUEUE_PKT, ctx->cfg->sched_type,
			     RTE_EVENT_DEV_PRIORITY_NORMAL, TP_ORDER_SEQUENCES,
			     "packet");
	if (ret < 0)
		return ret;
	/* Timer expiries: atomic per flow, the template's sched_type. */
	return tp_evdev_queue(ctx, TP_QUEUE_TIMER, RTE_SCHED_TYPE_ATOMIC,
			      ctx->evd.timer_prio, 0, "timer");
}

int
tp_evdev_port(struct tp_ctx *ctx, uint8_t port, uint32_t threshold,
	      bool link)
{
	const uint8_t queues[TP_NB_QUEUES] = { TP_QUEUE_PKT, TP_QUEUE_TIMER };
	struct tp_evdev *evd = &ctx->evd;
	struct rte_event_port_conf pc;
	int ret;

	ret = rte_event_port_default_conf_get(evd->dev_id, port, &pc);
	if (ret < 0)
		return ret;
	pc.new_event_threshold = RTE_MIN((uint32_t)pc.new_event_threshold,
					 threshold);
	pc.dequeue_depth = evd->cq_depth != 0 ? evd->cq_depth :
		RTE_MIN(pc.dequeue_depth, (uint16_t)evd->deq_depth);
	pc.enqueue_depth = RTE_MIN(pc.enqueue_depth, (uint16_t)TP_MAX_BURST);
	pc.event_port_cfg = 0;
	ret = rte_event_port_setup(evd->dev_id, port, &pc);
	if (ret < 0) {
		TP_LOG(ERR, "event port %u setup failed: %s", port,
		       strerror(-ret));
		return ret;
	}
	if (!link)
		return 0;
	ret = rte_event_port_link(evd->dev_id, port, queues, NULL,
				  TP_NB_QUEUES);
	if (ret != TP_NB_QUEUES) {
		TP_LOG(ERR, "cannot link event port %u", port);
		return -EIO;
	}
	return 0;
}

/* Ports: one per lcore with a role, then the adapter's (its callback). */
int
tp_evdev_setup(struct tp_ctx *ctx)
{
	struct rte_event_dev_info info;
	struct tp_evdev *evd = &ctx->evd;
	struct tp_lcore *lc;
	unsigned int id;
	uint32_t thr;
	int ret;

	ret = rte_event_dev_info_get(evd->dev_id, &info);
	if (ret < 0)
		return ret;
	ret = tp_evdev_configure(ctx, &info);
	if (ret < 0)
		return ret;
	ret = tp_evdev_queues(ctx);
	if (ret < 0)
		return ret;
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		lc = &ctx->lc[id];
		if ((lc->roles & (TP_ROLE_RX | TP_ROLE_WORKER)) == 0)
			continue;
		/* RX ports stop below the adapter's share of credits. */
		thr = (lc->roles & TP_ROLE_RX) ? evd->rx_threshold :
			evd->nb_events;
		ret = tp_evdev_port(ctx, lc->ev_port, thr,
				    (lc->roles & TP_ROLE_WORKER) != 0);
		if (ret < 0)
			return ret;
	}
	TP_LOG(INFO, "%u events, RX ports stop at %u, dequeue depth %u, "
	       "timer queue at %s priority", evd->nb_events, evd->rx_threshold,
	       evd->deq_depth, evd->timer_prio ==
	       RTE_EVENT_DEV_PRIORITY_HIGHEST ? "highest" : "normal");
	return 0;
}

int
tp_evdev_start(struct tp_ctx *ctx)
{
	int ret;

	ret = ctx->evd.ops->service_setup(ctx);
	if (ret < 0)
		return ret;
	ret = rte_event_dev_start(ctx->evd.dev_id);
	if (ret < 0) {
		TP_LOG(ERR, "cannot start the event device: %s",
		       strerror(-ret));
		return ret;
	}
	ctx->done.evd_started = true;
	ret = ctx->ta.ops->start(ctx->ta.h);
	if (ret < 0) {
		TP_LOG(ERR, "cannot start the timer adapter: %s",
		       strerror(-ret));
		return ret;
	}
	ctx->done.adapter_started = true;
	return 0;
}

/* Teardown: adapter (stop waits for its service), then the device. */
void
tp_evdev_stop(struct tp_ctx *ctx)
{
	int ret;

	if (ctx->done.adapter_started) {
		ctx->ta.ops->stop(ctx->ta.h);
		ctx->done.adapter_started = false;
	}
	if (ctx->ta.ops != NULL && ctx->ta.h != NULL) {
		ret = ctx->ta.ops->free(ctx->ta.h);
		if (ret < 0)
			TP_LOG(ERR, "timer adapter free: %s", strerror(-ret));
		else
			ctx->ta.h = NULL;
	}
	if (ctx->evd.has_sched_service)
		rte_service_runstate_set(ctx->evd.sched_service_id, 0);
	if (ctx->done.evd_started) {
		rte_event_dev_stop(ctx->evd.dev_id);
		ctx->done.evd_started = false;
	}
	if (ctx->done.evd_configured) {
		rte_event_dev_close(ctx->evd.dev_id);
		ctx->done.evd_configured = false;
	}
}
