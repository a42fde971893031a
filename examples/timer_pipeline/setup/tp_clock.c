/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * --clock capture (see tp_clock.h): the RX side that holds packets back
 * until the clock has settled at their time, and the step that moves the
 * clock (under ctx->clk.lock, taken with a try-lock by any RX lcore).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>
#include <rte_service.h>
#include <rte_spinlock.h>

#include "timer_adapter.h"
#include "setup/tp_clock.h"
#include "tp_ctx.h"
#include "datapath/tp_classify.h"
#include "datapath/tp_flow_table.h"
#include "datapath/tp_pkt.h"
#include "datapath/tp_rx_ahead.h"
#include "setup/tp_replay.h"

int
tp_clock_init(struct tp_ctx *ctx)
{
	struct tp_clock *clk = &ctx->clk;
	struct timer_adapter_clock c;
	unsigned int id, i;

	if (!clk->on)
		return 0;
	if (ctx->ta.ops->service_id_get(ctx->ta.h,
					&clk->adapter_service_id) != 0 ||
	    timer_adapter_clock_get(ctx->ta.h, &c) != 0) {
		TP_LOG(ERR, "--clock capture: the timer adapter has no "
		       "application clock");
		return -EINVAL;
	}
	rte_spinlock_init(&clk->lock);
	clk->parked_lcore = -1;
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		struct tp_lcore *lc = &ctx->lc[id];

		if ((lc->roles & (TP_ROLE_RX | TP_ROLE_WORKER)) == 0)
			continue;
		clk->lc[clk->nb_lc++] = lc;
		for (i = 0; i < lc->nb_rxq; i++)
			clk->q[clk->nb_q++] = &lc->rxq[i];
	}
	return 0;
}

/*
 * Whether every event the adapter delivered and every packet event RX
 * sent has been handled by a worker.
 */
static bool
tp_clock_handled(const struct tp_ctx *ctx, uint64_t delivered)
{
	const struct tp_clock *clk = &ctx->clk;
	uint64_t sent = 0, pkts = 0, tims = 0;
	unsigned int i;

	for (i = 0; i < clk->nb_lc; i++) {
		sent += __atomic_load_n(&clk->lc[i]->clk_sent,
					__ATOMIC_ACQUIRE);
		pkts += __atomic_load_n(&clk->lc[i]->clk_pkts,
					__ATOMIC_ACQUIRE);
		tims += __atomic_load_n(&clk->lc[i]->clk_tims,
					__ATOMIC_ACQUIRE);
	}
	return sent == pkts && tims == delivered;
}

/*
 * Where the input lets the clock go: the earliest time a queue still
 * holds back; once every queue has ended, UINT64_MAX (the clock runs on
 * through every deadline), or with --flush-at-eof the last packet's time.
 */
static uint64_t
tp_clock_target(const struct tp_ctx *ctx)
{
	const struct tp_clock *clk = &ctx->clk;
	uint64_t t = UINT64_MAX, last = 0, r;
	unsigned int i;

	for (i = 0; i < clk->nb_q; i++) {
		r = __atomic_load_n(&clk->q[i]->clk_ready, __ATOMIC_ACQUIRE);
		t = RTE_MIN(t, r);
		last = RTE_MAX(last, __atomic_load_n(&clk->q[i]->clk_last,
						     __ATOMIC_RELAXED));
	}
	if (t == UINT64_MAX && ctx->cfg->flush_at_eof)
		return last;
	return t;
}

/* Move the clock (clk.lock held). */
static void
tp_clock_move(struct tp_ctx *ctx, uint64_t to)
{
	struct tp_clock *clk = &ctx->clk;

	if (clk->base == 0)
		__atomic_store_n(&clk->base, to, __ATOMIC_RELAXED);
	/* Only we move it, forward: the adapter cannot refuse. */
	timer_adapter_clock_set(ctx->ta.h, to);
	__atomic_store_n(&clk->now, to, __ATOMIC_RELEASE);
	clk->steps++;
}

/*
 * Move what the clock has made due on to the workers here and now: one
 * iteration of the adapter's service (expiry) and of the scheduler's, on
 * this lcore. Without it, each move to a timer's tick waited for the
 * service lcore to come round to both, a round trip between the CPUs per
 * tick with timers.
 *
 * On the inline packet path only timer events cross the event device,
 * and timers expire only when the clock moves: the clock then takes both
 * services off the service lcore while it runs (tp_clock_take()), so that
 * the two CPUs never contend for them (DPDK's execute lock made a move
 * wait for the service lcore's iteration, or for its next time slice),
 * and gives them back when RX stops (tp_clock_release()). Otherwise the
 * service lcore runs them too, and an iteration it is inside is skipped
 * here.
 */
static void
tp_clock_services_here(const struct tp_ctx *ctx)
{
	rte_service_run_iter_on_app_lcore(ctx->clk.adapter_service_id, 1);
	if (ctx->evd.has_sched_service)
		rte_service_run_iter_on_app_lcore(ctx->evd.sched_service_id,
						  1);
}

/* Unmap a service from its service lcore, remembering which (lock held). */
static void
tp_clock_take_one(struct tp_clock *clk, uint32_t id)
{
	unsigned int ids[RTE_MAX_LCORE];
	int n, i;

	n = rte_service_lcore_list(ids, RTE_DIM(ids));
	for (i = 0; i < n; i++) {
		if (rte_service_map_lcore_get(id, ids[i]) != 1)
			continue;
		if (rte_service_map_lcore_set(id, ids[i], 0) == 0) {
			clk->own_id[clk->nb_own] = id;
			clk->own_lcore[clk->nb_own] = ids[i];
			clk->nb_own++;
		}
		return;
	}
}

/* At the first move, inline packet path: the services become the clock's. */
static void
tp_clock_take(struct tp_ctx *ctx)
{
	struct tp_clock *clk = &ctx->clk;

	clk->own_taken = true;
	if (!ctx->inline_path)
		return;
	tp_clock_take_one(clk, clk->adapter_service_id);
	if (ctx->evd.has_sched_service)
		tp_clock_take_one(clk, ctx->evd.sched_service_id);
	if (clk->nb_own == 0)
		return;
	TP_LOG(INFO, "capture clock: the lcore moving it runs the adapter's "
	       "and the scheduler's services until RX stops");
	/* A service lcore left with nothing to run would spin for nothing:
	 * it stops (its CPU is free for the kernel and other programs)
	 * until the services go back.
	 */
	if (rte_service_lcore_count_services(clk->own_lcore[0]) == 0 &&
	    rte_service_lcore_stop(clk->own_lcore[0]) == 0)
		clk->parked_lcore = (int32_t)clk->own_lcore[0];
}

void
tp_clock_release(struct tp_ctx *ctx)
{
	struct tp_clock *clk = &ctx->clk;
	unsigned int i;

	if (!clk->on)
		return;
	rte_spinlock_lock(&clk->lock);
	for (i = 0; i < clk->nb_own; i++)
		if (rte_service_map_lcore_set(clk->own_id[i],
					      clk->own_lcore[i], 1) != 0)
			TP_LOG(ERR, "service %u not given back to lcore %u",
			       clk->own_id[i], clk->own_lcore[i]);
	clk->nb_own = 0;
	if (clk->parked_lcore >= 0 &&
	    rte_service_lcore_start((uint32_t)clk->parked_lcore) != 0)
		TP_LOG(ERR, "service lcore %d not restarted",
		       clk->parked_lcore);
	clk->parked_lcore = -1;
	/* No taking after the release. */
	clk->own_taken = true;
	rte_spinlock_unlock(&clk->lock);
}

/*
 * One step (clk.lock held): once the clock has settled where it is, move
 * it to the target, or to the tick of the first timer due before. A move
 * past no deadline settles at once, without the service: nothing can fire
 * on the way. After a move to a timer's tick, the clock settles once the
 * service has run there and the workers have handled what it delivered.
 */
static void
tp_clock_step(struct tp_ctx *ctx)
{
	struct tp_clock *clk = &ctx->clk;
	struct timer_adapter_clock c;
	uint64_t target, next;

	if (timer_adapter_clock_get(ctx->ta.h, &c) != 0)
		return;
	if ((clk->fire_pending && c.done_ns < clk->now) ||
	    !tp_clock_handled(ctx, c.delivered)) {
		tp_clock_services_here(ctx);
		return;
	}
	clk->fire_pending = false;
	__atomic_store_n(&clk->settled, clk->now, __ATOMIC_RELEASE);
	target = tp_clock_target(ctx);
	/* Every queue's input is over, each RX lcore past its last lookup
	 * (it said so after): before the clock runs on through every
	 * deadline, the table closes.
	 */
	if (target == UINT64_MAX && !tp_flow_table_closed(&ctx->ft))
		tp_flow_table_close(ctx);
	if (target <= clk->now)
		return;
	/* The hint, read after the handled counts: re-arms are in it. */
	if (timer_adapter_clock_get(ctx->ta.h, &c) != 0)
		return;
	if (c.next_ns == UINT64_MAX && target == UINT64_MAX)
		return;			/* input over, no timer left */
	next = RTE_MAX(c.next_ns, clk->now + 1);
	if (next > target) {
		tp_clock_move(ctx, target);
		__atomic_store_n(&clk->settled, target, __ATOMIC_RELEASE);
		return;
	}
	tp_clock_move(ctx, next);
	clk->fire_pending = true;
	clk->fire_steps++;
	tp_clock_services_here(ctx);
}

/* Try to move the clock; whoever holds the lock is doing it already. */
static void
tp_clock_pump(struct tp_ctx *ctx)
{
	if (!rte_spinlock_trylock(&ctx->clk.lock))
		return;
	if (unlikely(!ctx->clk.own_taken))
		tp_clock_take(ctx);
	TP_STAGE_RUN(CLOCK, 1, tp_clock_step(ctx));
	rte_spinlock_unlock(&ctx->clk.lock);
}

/*
 * The capture time of the queue's stashed packet i: as the read-ahead
 * noted it (it may have freed the packet: tp_classify.h), or the mbuf's.
 */
static __rte_always_inline uint64_t
tp_clock_stash_ns(const struct tp_ctx *ctx, const struct tp_rxq *q,
		  uint16_t i)
{
	if (q->ahead != NULL)
		return tp_rx_ahead_classified(q)[i].ts;
	return tp_replay_cap_ns(&ctx->replay, q->stash[i]);
}

/*
 * Which packets may share one move of the clock: those whose times give
 * the same expiry tick to a timer armed at them and cross no tick where a
 * timer could fire. The adapter's deadline tick is ceil(time / tick) plus
 * the timeout's ticks, and timers due at tick k fire when the clock
 * reaches k * tick, before packets of that very time. So times in
 * (k * tick, (k + 1) * tick) form one class, and a time of exactly
 * k * tick a class of its own.
 */
static __rte_always_inline uint64_t
tp_clock_class(const struct tp_ctx *ctx, uint64_t ns)
{
	const uint64_t tick = ctx->tick_cycles;	/* ns on this clock */

	return 2 * (ns / tick) + (ns % tick != 0);
}

/*
 * The time the queue may let the clock go to for its next packet at ts:
 * the newest time of the stashed packets that follow it in ts's class.
 * The clock moves there in one step (or first to a timer's tick at or
 * before ts, as for a single packet), and the whole run of packets is
 * handed out together: each is handled at its own time (tp_rx_poll()),
 * and the adapter, whose clock is then at the run's end, gives a timer
 * armed for any of them the tick it would have given at the packet's
 * own time.
 */
static uint64_t
tp_clock_batch_end(const struct tp_ctx *ctx, const struct tp_rxq *q,
		   uint64_t ts)
{
	const uint64_t cls = tp_clock_class(ctx, ts);
	uint64_t end = ts, t;
	uint16_t i;

	for (i = q->stash_head + 1; i < q->stash_nb; i++) {
		t = tp_clock_stash_ns(ctx, q, i);
		if (t < ts || tp_clock_class(ctx, t) != cls)
			break;
		end = t;
	}
	return end;
}

/* RX, --clock capture. 8< */
uint16_t
tp_clock_fetch(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_rxq *q,
	       struct rte_mbuf **pkts, uint16_t burst)
{
	const uint32_t before = q->stash_nb - q->stash_head;
	uint64_t settled, ts, ready;
	uint16_t n = 0;

	if (q->stash_head == q->stash_nb) {
		q->stash_head = 0;
		/* From the read-ahead, as many as it reads at once: each
		 * stash costs a move of the clock at least (a scan's packets
		 * each have a time of their own), and its packets were read
		 * from the port at that burst already.
		 */
		TP_STAGE_BEGIN(RX_READ);
		q->stash_nb = q->ahead != NULL ?
			tp_rx_ahead_fetch(q, q->stash, TP_MAX_BURST) :
			rte_eth_rx_burst(q->port, q->queue, q->stash, burst);
		TP_STAGE_END(q->stash_nb);
		if (q->stash_nb == 0) {
			if (q->clk_ready != UINT64_MAX &&
			    (q->ahead != NULL ? tp_rx_ahead_over(q) :
			     tp_rx_ahead_input_over(ctx, q, burst)))
				__atomic_store_n(&q->clk_ready, UINT64_MAX,
						 __ATOMIC_RELEASE);
			tp_clock_pump(ctx);
			return 0;
		}
	}
	settled = __atomic_load_n(&ctx->clk.settled, __ATOMIC_ACQUIRE);
	while (q->stash_head < q->stash_nb) {
		struct rte_mbuf *m = q->stash[q->stash_head];

		ts = tp_clock_stash_ns(ctx, q, q->stash_head);
		if (ts > settled) {
			/* Those handed out go first: they are older. */
			if (n > 0)
				break;
			ready = tp_clock_batch_end(ctx, q, ts);
			if (ready > q->clk_ready)
				__atomic_store_n(&q->clk_ready, ready,
						 __ATOMIC_RELEASE);
			tp_clock_pump(ctx);
			settled = __atomic_load_n(&ctx->clk.settled,
						  __ATOMIC_ACQUIRE);
			if (ts > settled)
				break;
		}
		if (ts > q->clk_last)
			__atomic_store_n(&q->clk_last, ts, __ATOMIC_RELAXED);
		pkts[n++] = m;
		q->stash_head++;
	}
	/* Read by the control role: the input is not over yet. */
	__atomic_store_n(&lc->stashed, lc->stashed + (q->stash_nb -
			 q->stash_head) - before, __ATOMIC_RELAXED);
	return n;
}
/* >8 End of RX, --clock capture. */

void
tp_clock_report(const struct tp_ctx *ctx)
{
	const struct tp_clock *clk = &ctx->clk;
	struct timer_adapter_clock c;

	if (!clk->on || timer_adapter_clock_get(ctx->ta.h, &c) != 0)
		return;
	TP_LOG(INFO, "capture clock: %" PRIu64 " ms of capture time in %"
	       PRIu64 " moves, %" PRIu64 " of them to a timer's tick; %"
	       PRIu64 " older times refused by the adapter",
	       c.now_ns > clk->base ? (c.now_ns - clk->base) / 1000000 : 0,
	       clk->steps, clk->fire_steps, c.backwards);
}

bool
tp_clock_at_end(struct tp_ctx *ctx)
{
	const struct tp_clock *clk = &ctx->clk;
	unsigned int i;

	if (!clk->on)
		return true;
	for (i = 0; i < clk->nb_q; i++)
		if (__atomic_load_n(&clk->q[i]->clk_ready, __ATOMIC_ACQUIRE) !=
		    UINT64_MAX)
			return false;
	if (!ctx->cfg->flush_at_eof)
		return true;
	return __atomic_load_n(&clk->settled, __ATOMIC_ACQUIRE) >=
		tp_clock_target(ctx);
}
