/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_REPLAY_H_
#define _TP_REPLAY_H_

/*
 * Capture time: replay pace (--replay-pace: a capture's packets handed to
 * RX when their recorded time has come) and the record clock (the clock of
 * packet times in flows and records: the capture's own timestamps when
 * every port reads a capture, else the TSC). State: struct tp_replay
 * (ctx->replay), below, handed in by pointer with what else a function
 * needs; no function here sees the context. Its mapping of capture time
 * onto the TSC is set once, by the first packet (atomics, any RX lcore);
 * the rest is written before the launch. No lock.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "cycles.h"

struct tp_lcore;
struct tp_rxq;

/** Replay pace and the record clock: ctx->replay. */
struct tp_replay {
	bool cap_clock;			/**< Record clock: capture time (ns). */
	uint64_t base_cap_ns;		/**< First capture timestamp, 0 = unset. */
	uint64_t base_tsc;		/**< TSC when it was delivered. */
	int ts_offset;			/**< Timestamp dynfield, -1 = none. */
	uint64_t ts_flag;		/**< Its ol_flags bit. */
	uint64_t ts_unit_ns;		/**< Nanoseconds per dynfield unit. */
};


/**
 * Register the RX timestamp mbuf field, where net_pcap puts the capture
 * time (microseconds).
 *
 * @param needed The run cannot go without it (--replay-pace,
 *   --clock capture).
 * @return 0, or a negative errno when it is needed.
 */
int tp_replay_fields_register(struct tp_replay *rp, bool needed);

/**
 * Choose the record clock (rp->cap_clock): capture time when every port
 * of @p ports reads a capture (net_pcap without infinite_rx) or @p pace
 * (--replay-pace) is set, else the TSC. After the ports are probed,
 * before the launch.
 */
void tp_replay_clock_init(struct tp_replay *rp, bool pace,
			  const uint16_t *ports, uint16_t nb_ports);

/**
 * RX, --replay-pace: receive into the queue's stash and hand out the
 * packets whose time has come (now: TSC; @p speed: --replay-speed;
 * @p hz: TSC rate).
 *
 * @return Packets put in pkts.
 */
uint16_t tp_replay_fetch(struct tp_replay *rp, struct tp_lcore *lc,
			 struct tp_rxq *q, struct rte_mbuf **pkts,
			 uint16_t burst, uint64_t now, uint32_t speed,
			 uint64_t hz);

/** Capture timestamp of a packet in ns, 0 if it has none. */
static __rte_always_inline uint64_t
tp_replay_cap_ns(const struct tp_replay *rp, const struct rte_mbuf *m)
{
	if (rp->ts_offset < 0 || (m->ol_flags & rp->ts_flag) == 0)
		return 0;
	return *RTE_MBUF_DYNFIELD(m, rp->ts_offset, const uint64_t *) *
		rp->ts_unit_ns;
}

/**
 * Packet time in the record clock: capture ns or TSC ('now'). @p ns:
 * the packet's capture time (tp_replay_cap_ns(), 0 for none); @p pace:
 * --replay-pace; @p start_ns, @p start_tsc: the launch (ctx->start_ns,
 * ctx->start_tsc); @p hz: TSC rate.
 */
static __rte_always_inline uint64_t
tp_replay_ts_of(const struct tp_replay *rp, uint64_t ns, uint64_t now,
		bool pace, uint64_t start_ns, uint64_t start_tsc, uint64_t hz)
{
	if (rp->cap_clock) {
		if (ns != 0)
			return ns;
		if (pace)
			return start_ns;
		/* a capture read without its timestamps: wall clock */
		return start_ns + cycles_to_ns(now - start_tsc, hz);
	}
	return now;
}

/** tp_replay_ts_of() of packet m's capture time. */
static __rte_always_inline uint64_t
tp_replay_ts(const struct tp_replay *rp, const struct rte_mbuf *m,
	     uint64_t now, bool pace, uint64_t start_ns, uint64_t start_tsc,
	     uint64_t hz)
{
	return tp_replay_ts_of(rp, rp->cap_clock ? tp_replay_cap_ns(rp, m) : 0,
			       now, pace, start_ns, start_tsc, hz);
}

/** A time in the record clock -> ns since the epoch (for the record);
 * the launch and the TSC rate as in tp_replay_ts().
 */
static inline uint64_t
tp_replay_ts_to_ns(const struct tp_replay *rp, uint64_t ts,
		   uint64_t start_ns, uint64_t start_tsc, uint64_t hz)
{
	if (rp->cap_clock)
		return ts;	/* capture time already */
	return start_ns + (ts > start_tsc ?
		cycles_to_ns(ts - start_tsc, hz) : 0);
}

#endif /* _TP_REPLAY_H_ */
