/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_METER_H_
#define _TP_METER_H_

/*
 * Metering a packet into its flow, and consuming a packet that is not
 * sent on: used by the worker for packet events, and by RX itself on the
 * inline packet path (--packet-path inline: drop and monitor modes, where
 * nothing is forwarded, so a packet need not cross the event device).
 *
 * The caller holds a reference on the flow (tp_flow.h); the counters are
 * its to write while it does, plainly when it is the only lcore that can
 * meter the flow ('excl'), atomically otherwise. No context: the
 * callers hand in the flow, the lcore's counters and the --fwd-mode.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "datapath/tp_flow_types.h"
#include "reports/tp_slots.h"
#include "setup/tp_config.h"

/** Count one packet (its direction, wire length, TCP flags, time) in. */
static __rte_always_inline void
tp_meter_count(struct tp_flow *f, uint8_t d, uint32_t len, uint8_t flags,
	       uint64_t ts, const bool excl)
{
	uint64_t last, first;

	if (excl) {
		f->pkts[d]++;
		f->bytes[d] += len;
		f->tcp_flags[d] |= flags;
		if (ts > f->last_ts[d])
			f->last_ts[d] = ts;
		if (d == 1 && ts < f->rev_first_ts)
			f->rev_first_ts = ts;
		return;
	}
	__atomic_fetch_add(&f->pkts[d], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&f->bytes[d], len, __ATOMIC_RELAXED);
	__atomic_fetch_or(&f->tcp_flags[d], flags, __ATOMIC_RELAXED);
	last = __atomic_load_n(&f->last_ts[d], __ATOMIC_RELAXED);
	while (ts > last &&
	       !__atomic_compare_exchange_n(&f->last_ts[d], &last, ts, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	first = d == 1 ? __atomic_load_n(&f->rev_first_ts, __ATOMIC_RELAXED) :
		0;
	while (ts < first &&
	       !__atomic_compare_exchange_n(&f->rev_first_ts, &first, ts, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/**
 * A packet that goes no further, counted as monitored (monitor mode) or
 * as a forwarding drop (drop mode); the caller frees it. True if the mode
 * is one of those; false (nothing counted) when the packet is to be sent.
 */
static __rte_always_inline bool
tp_meter_consumed(const enum tp_fwd_mode mode, struct tp_lcore_stats *st)
{
	if (mode == TP_FWD_DROP)
		st->drops[TP_DROP_FWD]++;
	else if (mode == TP_FWD_MONITOR)
		st->monitored++;
	else
		return false;
	return true;
}

/**
 * A packet that goes no further: freed, counted as monitored (monitor
 * mode) or as a forwarding drop (drop mode). True if the mode is one of
 * those; false (nothing done) when the packet is to be sent. mode:
 * --fwd-mode (ctx->cfg->fwd_mode).
 */
static __rte_always_inline bool
tp_meter_consume(const enum tp_fwd_mode mode, struct tp_lcore_stats *st,
		 struct rte_mbuf *m)
{
	if (!tp_meter_consumed(mode, st))
		return false;
	rte_pktmbuf_free(m);
	return true;
}

#endif /* _TP_METER_H_ */
