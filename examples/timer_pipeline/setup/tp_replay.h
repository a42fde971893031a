/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_REPLAY_H_
#define _TP_REPLAY_H_

/*
 * Capture time: replay pace (--replay-pace: a capture's packets handed to
 * RX when their recorded time has come) and the record clock (the clock of
 * packet times in flows and records: the capture's own timestamps when
 * every port reads a capture, else the TSC). State: ctx->replay; its
 * mapping of capture time onto the TSC is set once, by the first packet
 * (atomics, any RX lcore); the rest is written before the launch.
 */

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "tp_ctx.h"

struct tp_lcore;

/**
 * Register the RX timestamp mbuf field, where net_pcap puts the capture
 * time (microseconds).
 *
 * @return 0, or a negative errno when --replay-pace needs it.
 */
int tp_replay_fields_register(struct tp_ctx *ctx);

/**
 * Choose the record clock (ctx->replay.cap_clock): capture time when every
 * port reads a capture (net_pcap without infinite_rx) or --replay-pace is
 * set, else the TSC. After the ports are probed, before the launch.
 */
void tp_replay_clock_init(struct tp_ctx *ctx);

/**
 * RX, --replay-pace: receive into the queue's stash and hand out the
 * packets whose time has come.
 *
 * @return Packets put in pkts.
 */
uint16_t tp_replay_fetch(struct tp_ctx *ctx, struct tp_lcore *lc,
			 struct tp_rxq *q, struct rte_mbuf **pkts,
			 uint16_t burst, uint64_t now);

/** Capture timestamp of a packet in ns, 0 if it has none. */
static __rte_always_inline uint64_t
tp_replay_cap_ns(const struct tp_ctx *ctx, const struct rte_mbuf *m)
{
	const struct tp_replay *rp = &ctx->replay;

	if (rp->ts_offset < 0 || (m->ol_flags & rp->ts_flag) == 0)
		return 0;
	return *RTE_MBUF_DYNFIELD(m, rp->ts_offset, const uint64_t *) *
		rp->ts_unit_ns;
}

/** Packet time in the record clock: capture ns or TSC ('now'). */
static __rte_always_inline uint64_t
tp_replay_ts(const struct tp_ctx *ctx, const struct rte_mbuf *m, uint64_t now)
{
	if (ctx->replay.cap_clock) {
		uint64_t ns = tp_replay_cap_ns(ctx, m);

		if (ns != 0)
			return ns;
		if (ctx->cfg->replay_pace)
			return ctx->start_ns;
		/* a capture read without its timestamps: wall clock */
		return ctx->start_ns + tp_cycles_to_ns(now - ctx->start_tsc,
						       ctx->hz);
	}
	return now;
}

/** A time in the record clock -> ns since the epoch (for the record). */
static inline uint64_t
tp_replay_ts_to_ns(const struct tp_ctx *ctx, uint64_t ts)
{
	if (ctx->replay.cap_clock)
		return ts;	/* capture time already */
	return ctx->start_ns + (ts > ctx->start_tsc ?
		tp_cycles_to_ns(ts - ctx->start_tsc, ctx->hz) : 0);
}

#endif /* _TP_REPLAY_H_ */
