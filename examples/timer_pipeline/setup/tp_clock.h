/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CLOCK_H_
#define _TP_CLOCK_H_

/*
 * --clock capture: flows age on the capture's own timestamps, read as fast
 * as the pipeline takes them, with the records of a paced replay.
 *
 * The direct adapter runs on an application clock (TIMER_ADAPTER_F_CLOCK)
 * that only this file moves. Each RX queue holds back a packet until the
 * clock has "settled" at the packet's time: every timer due at or before
 * it has fired and been handled by a worker, and every packet event before
 * it has been counted. Each queue publishes the time of the packet it
 * holds back (clk_ready); the clock moves to the earliest of them, or
 * first to the tick of the next timer due before that (one step per tick
 * with timers, waiting for their events to be handled), so no timer fires
 * before a packet that could still refresh it, and none fires later than a
 * packet that it should have preceded. At the end of input the clock runs
 * on to the last deadline (to the last packet's time with --flush-at-eof).
 *
 * State: struct tp_clock (ctx->clk, tp_clock_types.h). clk.now and
 * clk.settled are moved by whichever RX lcore holds clk.lock (a try-lock:
 * the others go on with their work); the queues' and lcores' published
 * values are single-writer atomics. The setup, fetch and control calls
 * take the context (they also drive the adapter, the event device's
 * scheduler and read the ports); the inline calls of the data path take
 * the clock's state alone.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "datapath/tp_lcore_types.h"
#include "setup/tp_clock_types.h"

struct tp_ctx;

/**
 * Set up --clock capture after the lcores' queues: checks the adapter and
 * lists the queues and lcores to watch. Nothing to do with --clock wall.
 *
 * @return 0, or -EINVAL (logged) if the adapter cannot run on it.
 */
int tp_clock_init(struct tp_ctx *ctx);

/**
 * RX, --clock capture: receive into the queue's stash and hand out the
 * packets whose time the clock has settled at; moves the clock.
 *
 * @return Packets put in pkts.
 */
uint16_t tp_clock_fetch(struct tp_ctx *ctx, struct tp_lcore *lc,
			struct tp_rxq *q, struct rte_mbuf **pkts,
			uint16_t burst);

/**
 * Control, --clock capture: whether the clock has gone as far as the
 * input takes it (every queue ended; with --flush-at-eof, settled at the
 * last packet's time). Always true with --clock wall.
 */
bool tp_clock_at_end(struct tp_ctx *ctx);

/**
 * Control, --clock capture, once RX has stopped (and at teardown): give
 * the services the clock ran itself back to their service lcores, so that
 * expiry events still on their way drain. Safe to call more than once.
 */
void tp_clock_release(struct tp_ctx *ctx);

/** After the run, --clock capture: log how the clock moved. */
void tp_clock_report(const struct tp_ctx *ctx);

/** The flows' time now: the TSC, or the capture clock. */
static __rte_always_inline uint64_t
tp_clock_now(const struct tp_clock *clk)
{
	if (clk->on)
		return __atomic_load_n(&clk->now, __ATOMIC_ACQUIRE);
	return rte_get_timer_cycles();
}

/** Worker, --clock capture: publish what this lcore has handled. */
static __rte_always_inline void
tp_clock_worker_done(const struct tp_clock *clk, struct tp_lcore *lc)
{
	if (!clk->on)
		return;
	__atomic_store_n(&lc->clk_pkts, lc->stats.ev_deq_pkt, __ATOMIC_RELEASE);
	__atomic_store_n(&lc->clk_tims, lc->stats.tim_expired,
			 __ATOMIC_RELEASE);
}

/** RX, --clock capture: publish the packet events this lcore sent. */
static __rte_always_inline void
tp_clock_rx_done(const struct tp_clock *clk, struct tp_lcore *lc)
{
	if (clk->on)
		__atomic_store_n(&lc->clk_sent, lc->stats.ev_enq,
				 __ATOMIC_RELEASE);
}

#endif /* _TP_CLOCK_H_ */
