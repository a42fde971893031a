/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Lcore roles (RX, worker, control) and the per-lcore loop. An lcore may
 * combine roles: on 2 CPUs, lcore 0 is main (control), RX and worker while
 * lcore 1 is the service lcore (event_sw scheduler + timer adapter). In a
 * run without service lcores, the main lcore's loop runs the services too
 * (setup/tp_service.h).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>

#include "tp_ctx.h"
#include "datapath/tp_flow_table.h"
#include "datapath/tp_control.h"
#include "records/tp_record.h"
#include "datapath/tp_lcore.h"
#include "datapath/tp_rx.h"
#include "datapath/tp_rx_hold.h"
#include "datapath/tp_worker.h"
#include "setup/tp_service.h"

#ifdef TP_STAGE_CYCLES
RTE_DEFINE_PER_LCORE(struct tp_stage_stats *, tp_stage_self);
#endif

/* Consecutive empty polls before --idle-sleep-us applies. */
#define TP_IDLE_SPIN 16

static bool
tp_lcore_is_app(unsigned int id)
{
	return rte_lcore_is_enabled(id) &&
		!rte_lcore_has_role(id, ROLE_SERVICE);
}

static int
tp_lcore_check_list(const bool *set, const char *opt)
{
	unsigned int id;

	for (id = 0; id < RTE_MAX_LCORE; id++) {
		if (set[id] && !tp_lcore_is_app(id)) {
			TP_LOG(ERR, "%s: lcore %u is not an application lcore "
			       "of this run (give it with -l, and not as a "
			       "service lcore with -s/-S; see --help)", opt, id);
			return -EINVAL;
		}
	}
	return 0;
}

/* Lcore roles. 8< */
int
tp_lcore_roles_setup(struct tp_ctx *ctx)
{
	const struct tp_config *cfg = ctx->cfg;
	const unsigned int main_id = rte_get_main_lcore();
	bool rx[RTE_MAX_LCORE] = { false }, wk[RTE_MAX_LCORE] = { false };
	unsigned int id, nb_wk = 0;
	uint8_t port = 0;
	int ret;

	ctx->main_lcore = main_id;
	ret = tp_lcore_check_list(cfg->rx_lcores, "--rx-lcores");
	if (ret == 0)
		ret = tp_lcore_check_list(cfg->worker_lcores,
					  "--worker-lcores");
	if (ret < 0)
		return ret;
	/* Default: RX on main; workers on the other application lcores,
	 * or on main too when it is alone.
	 */
	if (cfg->rx_lcores_set)
		memcpy(rx, cfg->rx_lcores, sizeof(rx));
	else
		rx[main_id] = true;
	if (cfg->worker_lcores_set) {
		memcpy(wk, cfg->worker_lcores, sizeof(wk));
	} else {
		RTE_LCORE_FOREACH(id)
			if (!rx[id] && tp_lcore_is_app(id))
				wk[id] = true;
		for (id = 0; id < RTE_MAX_LCORE; id++)
			nb_wk += wk[id];
		if (nb_wk == 0)
			memcpy(wk, rx, sizeof(wk));
	}
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		struct tp_lcore *lc = &ctx->lc[id];

		lc->roles = (rx[id] ? TP_ROLE_RX : 0) |
			(wk[id] ? TP_ROLE_WORKER : 0) |
			(id == main_id ? TP_ROLE_CONTROL : 0);
		ctx->nb_rx_lcores += rx[id];
		ctx->nb_worker_lcores += wk[id];
		if (rx[id] || wk[id])
			lc->ev_port = port++;
	}
	if (ctx->nb_worker_lcores == 0) {
		TP_LOG(ERR, "--worker-lcores is empty (see --help)");
		return -EINVAL;
	}
	/* auto: inline in drop and monitor modes, where nothing is
	 * forwarded. On the wall clock the workers then hold RX back while
	 * expiries run more than a tick and a quarter late (a timer fires
	 * up to a tick after its deadline; tp_rx_hold.h), as the
	 * event device's backpressure does on the event path; the capture
	 * clock moves only once the expiries before it are handled.
	 */
	ctx->inline_path = cfg->packet_path == TP_PATH_INLINE ||
		(cfg->packet_path == TP_PATH_AUTO &&
		 (cfg->fwd_mode == TP_FWD_DROP ||
		  cfg->fwd_mode == TP_FWD_MONITOR));
	if (ctx->inline_path && cfg->clock != TP_CLOCK_CAPTURE) {
		ctx->rx_hold.late = ctx->tick_cycles + ctx->tick_cycles / 4;
		ctx->rx_hold.hold = RTE_MAX(ctx->tick_cycles / 4, (uint64_t)1);
		tp_rx_hold_spread(&ctx->rx_hold, ctx->tick_cycles);
	}
	ctx->evd.adapter_port = port;
	ctx->evd.nb_ports = port + 1;
	return 0;
}
/* >8 End of lcore roles. */

static int
tp_lcore_txb(struct tp_ctx *ctx, struct tp_lcore *lc, unsigned int w)
{
	const uint16_t burst = ctx->cfg->burst;
	uint16_t i, p;

	for (i = 0; i < ctx->eth.nb_ports; i++) {
		p = ctx->eth.ports[i];
		lc->txq[p] = (uint16_t)(w % ctx->eth.nb_txq[p]);
		lc->txb[p] = rte_zmalloc_socket("tp_txb",
						RTE_ETH_TX_BUFFER_SIZE(burst),
						RTE_CACHE_LINE_SIZE,
						rte_eth_dev_socket_id(p));
		if (lc->txb[p] == NULL)
			return -ENOMEM;
		rte_eth_tx_buffer_init(lc->txb[p], burst);
		rte_eth_tx_buffer_set_err_callback(lc->txb[p],
				rte_eth_tx_buffer_count_callback,
				&lc->stats.drops[TP_DROP_TX]);
	}
	return 0;
}

/* After the ports: spread RX queues over RX lcores, TX queues over workers. */
int
tp_lcore_queues_setup(struct tp_ctx *ctx)
{
	unsigned int rx_ids[RTE_MAX_LCORE], nb_rx = 0, id, k = 0, w = 0;
	uint16_t i, p, q;
	struct tp_lcore *lc;
	int ret;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		if (ctx->lc[id].roles & TP_ROLE_RX)
			rx_ids[nb_rx++] = id;
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		p = ctx->eth.ports[i];
		for (q = 0; q < ctx->eth.nb_rxq[p]; q++) {
			lc = &ctx->lc[rx_ids[k++ % nb_rx]];
			if (lc->nb_rxq == TP_MAX_RXQ_PER_LCORE) {
				TP_LOG(ERR, "more than %u RX queues per lcore",
				       TP_MAX_RXQ_PER_LCORE);
				return -EINVAL;
			}
			lc->rxq[lc->nb_rxq].port = p;
			lc->rxq[lc->nb_rxq].queue = q;
			lc->nb_rxq++;
		}
	}
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		lc = &ctx->lc[id];
		if ((lc->roles & TP_ROLE_RX) && lc->nb_rxq == 0)
			TP_LOG(WARNING, "RX lcore %u has no queue to poll", id);
		if (lc->roles & TP_ROLE_RX) {
			lc->rcu_id = id;
			ret = tp_flow_table_rcu_register(ctx, id);
			if (ret < 0)
				return ret;
		}
		if (lc->roles & TP_ROLE_WORKER) {
			ret = tp_lcore_txb(ctx, lc, w++);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

void
tp_lcore_queues_free(struct tp_ctx *ctx)
{
	unsigned int id;
	uint16_t p;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
			rte_free(ctx->lc[id].txb[p]);
			ctx->lc[id].txb[p] = NULL;
		}
}

void
tp_lcore_roles_print(const struct tp_ctx *ctx)
{
	unsigned int id, i;

	printf("Lcores (service lcores run the scheduler, the adapter and the "
	       "record writer):\n");
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		const struct tp_lcore *lc = &ctx->lc[id];

		if (rte_lcore_has_role(id, ROLE_SERVICE)) {
			printf("  lcore %-3u service (%d services)\n", id,
			       rte_service_lcore_count_services(id));
			continue;
		}
		if (lc->roles == 0)
			continue;
		printf("  lcore %-3u%s%s%s", id,
		       lc->roles & TP_ROLE_CONTROL ? " main" : "",
		       lc->roles & TP_ROLE_RX ? " rx" : "",
		       lc->roles & TP_ROLE_WORKER ? " worker" : "");
		if (lc->roles & (TP_ROLE_RX | TP_ROLE_WORKER))
			printf(" (event port %u)", lc->ev_port);
		for (i = 0; i < lc->nb_rxq; i++)
			printf(" p%uq%u", lc->rxq[i].port, lc->rxq[i].queue);
		printf("\n");
	}
}

/* Nothing to do: keep a distributed device's port alive, back off. */
static __rte_always_inline void
tp_lcore_idle(struct tp_ctx *ctx, struct tp_lcore *lc, unsigned int *idle,
	      const uint32_t roles)
{
	lc->stats.idle_polls++;
	if (ctx->evd.need_maintain && (roles & TP_ROLE_WORKER) == 0)
		rte_event_maintain(ctx->evd.dev_id, lc->ev_port, 0);
	if (ctx->cfg->idle_sleep_us != 0 && ++*idle >= TP_IDLE_SPIN)
		rte_delay_us_sleep(ctx->cfg->idle_sleep_us);
}

/* While RX waits on the main lcore: the control role keeps its ticks,
 * and without service lcores the services run (none otherwise).
 */
static void
tp_lcore_wait_main(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	if (lc->roles & TP_ROLE_CONTROL) {
		tp_control_poll(ctx, lc, rte_get_timer_cycles());
		tp_service_run_here();
	}
}

/*
 * RX's wait on a full event device (tp_rx_wait_hook_t): out of credits,
 * on a combined lcore our own worker role must drain the port or nobody
 * will; on the main lcore, the control role keeps its ticks.
 */
static void
tp_lcore_rx_wait(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	rte_pause();
	tp_lcore_wait_main(ctx, lc);
}

static void
tp_lcore_rx_wait_worker(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	tp_worker_poll(ctx, lc);
	tp_lcore_wait_main(ctx, lc);
}

/* Whether the workers hold RX back (the inline path, wall clock). */
static __rte_always_inline bool
tp_lcore_rx_held(const struct tp_ctx *ctx)
{
	return unlikely(ctx->rx_hold.late != 0) &&
		tp_rx_hold_on(&ctx->rx_hold, rte_get_timer_cycles());
}

/* Whether the record writer paces RX now (the inline path, wall clock). */
static __rte_always_inline bool
tp_lcore_rx_paced(const struct tp_ctx *ctx, struct tp_lcore *lc)
{
	return unlikely(ctx->rx_hold.records != NULL) &&
		tp_rx_pace_held(&ctx->rx_hold, &lc->pace,
				lc->stats.flows_created);
}

/* Whether RX has made its share of new flows this tick (the inline path,
 * wall clock, for a while after a late expiry).
 */
static __rte_always_inline bool
tp_lcore_rx_spread(const struct tp_ctx *ctx, struct tp_lcore *lc)
{
	return unlikely(ctx->rx_hold.tick != 0) &&
		tp_rx_spread_held(&ctx->rx_hold, &lc->spread,
				  rte_get_timer_cycles(),
				  lc->stats.flows_created);
}

/* The lcore loop, specialised on its roles. 8< */
static __rte_always_inline int
tp_lcore_loop(struct tp_ctx *ctx, struct tp_lcore *lc, const uint32_t roles)
{
	const bool control = (lc->roles & TP_ROLE_CONTROL) != 0;
	const bool svc = control && tp_service_here_any();
	bool rx_on = (roles & TP_ROLE_RX) != 0;
	unsigned int work, wk, idle = 0;
	bool wk_busy = false;
	uint32_t phase;

	if (rx_on)
		rte_rcu_qsbr_thread_online(ctx->ft.qsv, lc->rcu_id);
	for (;;) {
		phase = tp_phase(ctx);
		if (phase >= TP_PHASE_STOP)
			break;
		work = 0;
		if (rx_on && phase >= TP_PHASE_RX_STOP) {
			tp_rx_stop(ctx, lc);
			rx_on = false;
		}
		/* On the inline path, expiries come first: while the worker
		 * role finds timer events, or the workers found them late,
		 * RX admits no new flow, so that ending flows keeps up with
		 * creating them and their lateness stays bounded (packets
		 * would otherwise meet no backpressure at all: none crosses
		 * the event device). Nor while the record writer lags and
		 * has not taken as many records as RX made new flows. Nor,
		 * for a while after a late expiry, once RX has made its
		 * share of new flows this tick.
		 */
		if (rx_on && wk_busy)
			lc->stats.rx_yield_polls++;
		else if (rx_on && tp_lcore_rx_held(ctx))
			lc->stats.rx_held_polls++;
		else if (rx_on && tp_lcore_rx_paced(ctx, lc))
			lc->stats.rx_paced_polls++;
		else if (rx_on && tp_lcore_rx_spread(ctx, lc))
			lc->stats.rx_spread_polls++;
		else if (rx_on)
			work += tp_rx_poll(ctx, lc,
					   (roles & TP_ROLE_WORKER) != 0 ?
					   tp_lcore_rx_wait_worker :
					   tp_lcore_rx_wait);
		if (roles & TP_ROLE_WORKER) {
			wk = tp_worker_poll(ctx, lc);
			wk_busy = ctx->inline_path && rx_on && wk != 0;
			work += wk;
		}
		__atomic_store_n(&lc->phase_ack, phase, __ATOMIC_RELEASE);
		if (control)
			tp_control_poll(ctx, lc, rte_get_timer_cycles());
		/* No service lcore: the scheduler, the adapter and our
		 * services run here, once a pass; their work shows up in
		 * the worker role's next poll.
		 */
		if (svc)
			tp_service_run_here();
		/* The records of the flows this pass ended, in one burst. */
		tp_record_flush(ctx, lc);
		if (work != 0)
			idle = 0;
		else
			tp_lcore_idle(ctx, lc, &idle, roles);
	}
	if (rx_on)
		tp_rx_stop(ctx, lc);
	if (roles & TP_ROLE_WORKER)
		tp_worker_stop(ctx, lc);
	tp_record_flush(ctx, lc);
	return 0;
}
/* >8 End of the lcore loop. */

static __rte_noinline int
tp_lcore_rx(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	return tp_lcore_loop(ctx, lc, TP_ROLE_RX);
}

static __rte_noinline int
tp_lcore_worker(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	return tp_lcore_loop(ctx, lc, TP_ROLE_WORKER);
}

static __rte_noinline int
tp_lcore_rx_worker(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	return tp_lcore_loop(ctx, lc, TP_ROLE_RX | TP_ROLE_WORKER);
}

/*
 * Main lcore without a pipeline role: control duties, sleeping between;
 * without service lcores, the services between them (sleeping only as
 * --idle-sleep-us says).
 */
static int
tp_lcore_control(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	const bool svc = tp_service_here_any();
	const uint32_t us = svc ? ctx->cfg->idle_sleep_us : 1000;

	while (tp_phase(ctx) < TP_PHASE_STOP) {
		tp_control_poll(ctx, lc, rte_get_timer_cycles());
		if (svc)
			tp_service_run_here();
		tp_record_flush(ctx, lc);
		if (us != 0)
			rte_delay_us_sleep(us);
	}
	return 0;
}

/* rte_eal_mp_remote_launch() entry: pick the loop for this lcore's roles. */
int
tp_lcore_launch_one(void *arg)
{
	typedef int (*tp_loop_t)(struct tp_ctx *ctx, struct tp_lcore *lc);
	static const tp_loop_t loops[4] = {
		[0] = NULL,
		[TP_ROLE_RX] = tp_lcore_rx,
		[TP_ROLE_WORKER] = tp_lcore_worker,
		[TP_ROLE_RX | TP_ROLE_WORKER] = tp_lcore_rx_worker,
	};
	struct tp_ctx *ctx = arg;
	struct tp_lcore *lc = &ctx->lc[rte_lcore_id()];
	tp_loop_t loop = loops[lc->roles & (TP_ROLE_RX | TP_ROLE_WORKER)];

#ifdef TP_STAGE_CYCLES
	RTE_PER_LCORE(tp_stage_self) = &lc->stages;
#endif

	if (loop != NULL)
		return loop(ctx, lc);
	if (lc->roles & TP_ROLE_CONTROL)
		return tp_lcore_control(ctx, lc);
	return 0;
}
