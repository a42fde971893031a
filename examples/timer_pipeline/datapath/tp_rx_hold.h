/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RX_HOLD_H_
#define _TP_RX_HOLD_H_

/*
 * RX held back on the inline packet path, wall clock (ctx->rx_hold, set
 * up by tp_lcore.c). No packet crosses the event device there, so nothing
 * in it slows RX down when flows are created faster than they end. A
 * worker that handles an expiry more than 'late' after its deadline
 * (tp_flow_expired()) moves 'until' to 'hold' on; RX polls no port
 * before it (tp_lcore.c). 'late' is 0 where RX is never held. The workers
 * write 'until' and RX lcores read it, relaxed, no lock; times are the
 * flows' clock (the timer cycles on the wall clock). There too, RX is
 * paced by the record writer (tp_rx_pace_held()): each RX lcore keeps its
 * own pace and reads the ring's count and the writer's count, relaxed.
 * And for a while after a late expiry, each RX lcore spreads its new
 * flows over the ticks (tp_rx_spread_held()), on its own counts.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ring.h>

/* Records the record ring may hold before the writer paces RX. */
#define TP_RX_PACE_BACKLOG 2048

/*
 * RX's new flows spread over the ticks (tp_rx_spread_held()): a tick may
 * have at most the larger of the average's TP_RX_SPREAD_NUM /
 * TP_RX_SPREAD_DEN and the average's fading peak over
 * TP_RX_SPREAD_FLOOR, plus TP_RX_SPREAD_MIN. The average is over about
 * TP_RX_SPREAD_AVG ticks, the peak fades over about TP_RX_SPREAD_PEAK,
 * and the spread lasts TP_RX_SPREAD_TICKS after the last late expiry.
 */
#define TP_RX_SPREAD_NUM 5
#define TP_RX_SPREAD_DEN 4
#define TP_RX_SPREAD_FLOOR 2
#define TP_RX_SPREAD_MIN 64
#define TP_RX_SPREAD_AVG 32
#define TP_RX_SPREAD_PEAK 1024
#define TP_RX_SPREAD_TICKS 1024

struct tp_rx_hold {
	uint64_t late;		/**< Lateness that holds RX (0: never). */
	uint64_t hold;		/**< For how long. */
	uint64_t until;		/**< RX admits no packet before. */
	/* RX paced by the record writer (tp_rx_pace_held()); set once
	 * before the lcores start, where 'late' is set and some sink takes
	 * records.
	 */
	const struct rte_ring *records;	/**< The record ring (NULL: none). */
	const uint64_t *written;	/**< Records the writer took off it. */
	unsigned int backlog;		/**< Records it may hold unpaced. */
	unsigned int nb_rx;		/**< RX lcores sharing the pace. */
	/* RX's new flows spread (tp_rx_spread_held()); set with 'late'. */
	uint64_t tick;			/**< A tick (0: never spread). */
	uint64_t spread;		/**< It lasts past 'until'. */
};

/*
 * An RX lcore's pace (tp_rx_pace_held()), its own. Credit counts records
 * the writer took, nb_rx per new flow.
 */
struct tp_rx_pace {
	uint64_t written;	/**< The writer's count at the last look. */
	uint64_t created;	/**< This lcore's new flows at the last look. */
	int64_t credit;		/**< New flows it may create, times nb_rx. */
	bool on;		/**< The writer lags. */
};

/*
 * An RX lcore's spread of new flows over the ticks (tp_rx_spread_held()),
 * its own.
 */
struct tp_rx_spread {
	uint64_t start;		/**< This tick's start, timer cycles. */
	uint64_t created;	/**< The lcore's new flows at its start. */
	uint64_t avg;		/**< New flows a tick, times TP_RX_SPREAD_AVG. */
	uint64_t peak;		/**< Its peak, fading; as 'avg'. */
	uint64_t cap;		/**< New flows this tick may have, spread. */
};

/*
 * Worker: an expiry due at 'deadline' handled at 'now'. Late: hold RX
 * back. 'until' moves in steps of half a hold, so that the workers rarely
 * write the line RX reads.
 */
static __rte_always_inline void
tp_rx_hold_expiry(struct tp_rx_hold *h, uint64_t now, uint64_t deadline)
{
	uint64_t until;

	if (likely(h->late == 0 || now <= deadline + h->late))
		return;
	until = now + h->hold;
	if (until >= __atomic_load_n(&h->until, __ATOMIC_RELAXED) + h->hold / 2)
		__atomic_store_n(&h->until, until, __ATOMIC_RELAXED);
}

/*
 * RX paced by the record writer. While more than 'backlog' records wait
 * on the record ring, an RX lcore creates no more new flows than the
 * writer took records off it since (shared by the RX lcores): a sink
 * slower than the flows that end (a flow log on tmpfs while the kernel
 * takes fresh pages, 0.8M records/s on the development VM) sets the pace
 * of new flows at once. Held back by lateness alone, RX learned of it
 * only a timeout later, from the expiries of the flows it had let in
 * meanwhile: it let them in in bursts, the ring stayed half full and
 * expiries ran 30 to 40 ms late (docs/bench.rst, "Large tables and
 * churn"). Returns whether RX admits nothing now; 'created': the lcore's
 * new flows so far.
 */
static __rte_always_inline bool
tp_rx_pace_held(const struct tp_rx_hold *h, struct tp_rx_pace *p,
		uint64_t created)
{
	uint64_t written;

	if (rte_ring_count(h->records) <= h->backlog) {
		p->on = false;
		return false;
	}
	written = __atomic_load_n(h->written, __ATOMIC_RELAXED);
	if (!p->on) {
		p->on = true;
		p->credit = 0;
	} else {
		p->credit += (int64_t)(written - p->written) -
			(int64_t)(created - p->created) * h->nb_rx;
		p->credit = RTE_MIN(p->credit,
				    (int64_t)h->backlog * h->nb_rx);
	}
	p->written = written;
	p->created = created;
	return p->credit <= 0;
}

/* Pace RX by the writer of 'records' (see tp_rx_pace_held()). */
static inline void
tp_rx_hold_pace(struct tp_rx_hold *h, const struct rte_ring *records,
		const uint64_t *written, unsigned int backlog,
		unsigned int nb_rx)
{
	h->written = written;
	h->backlog = backlog;
	h->nb_rx = RTE_MAX(nb_rx, 1u);
	h->records = records;
}

/*
 * RX's new flows spread over the ticks. RX admits no packet while the
 * workers find expiries or run late (tp_lcore.c), so under a flood it
 * makes its new flows in bursts, when the workers are idle. Their
 * expiries come due a timeout later in the same bursts, each more than
 * the workers end in a tick: they run late and hold RX back again, and
 * the waves keep their shape (the floods' p99 of 8 to 16 ms in
 * docs/bench.rst, "Where the floods' late expiries come from"). So for
 * TP_RX_SPREAD_TICKS after the last late expiry, a tick may have no more
 * new flows than the recent average's TP_RX_SPREAD_NUM / TP_RX_SPREAD_DEN
 * plus TP_RX_SPREAD_MIN, and the rest wait for the next tick. The cap
 * follows what RX made lately, so it shapes the rate rather than cut it:
 * capped every tick, the average and the cap still grow by about
 * (NUM / DEN - 1) / TP_RX_SPREAD_AVG a tick. Where late expiries hold RX
 * back for a while (tp_rx_hold_on()) its average falls; the cap stays
 * at least the average's fading peak over TP_RX_SPREAD_FLOOR, so that
 * once they stop RX is back to half its best rate at once. The average
 * counts every tick, spread or not; a tick RX did not look at counts the
 * flows made over its length. Returns whether RX admits nothing now;
 * 'now': the timer cycles, 'created': the lcore's new flows so far.
 */
static __rte_always_inline bool
tp_rx_spread_held(const struct tp_rx_hold *h, struct tp_rx_spread *s,
		  uint64_t now, uint64_t created)
{
	uint64_t until;

	if (unlikely(now - s->start >= h->tick)) {
		uint64_t k = (now - s->start) / h->tick;
		uint64_t n = (created - s->created) / k;

		/* k ticks of n new flows each (8 peaks' worth at most: the
		 * rest changes nothing).
		 */
		for (k = RTE_MIN(k, 8ull * TP_RX_SPREAD_PEAK); k > 0; k--) {
			s->avg = s->avg - s->avg / TP_RX_SPREAD_AVG + n;
			s->peak -= (s->peak + TP_RX_SPREAD_PEAK - 1) /
				TP_RX_SPREAD_PEAK;
		}
		s->peak = RTE_MAX(s->peak, s->avg);
		s->cap = RTE_MAX(s->avg * TP_RX_SPREAD_NUM / TP_RX_SPREAD_DEN,
				 s->peak / TP_RX_SPREAD_FLOOR) /
			TP_RX_SPREAD_AVG + TP_RX_SPREAD_MIN;
		s->start = now;
		s->created = created;
	}
	until = __atomic_load_n(&h->until, __ATOMIC_RELAXED);
	return until != 0 && now < until + h->spread &&
		created - s->created >= s->cap;
}

/* Spread RX's new flows on 'tick' (see tp_rx_spread_held()). */
static inline void
tp_rx_hold_spread(struct tp_rx_hold *h, uint64_t tick)
{
	h->tick = tick;
	h->spread = tick * TP_RX_SPREAD_TICKS;
}

/* RX: whether it is held back at 'now' ('until' stays 0 if late is). */
static __rte_always_inline bool
tp_rx_hold_on(const struct tp_rx_hold *h, uint64_t now)
{
	return now < __atomic_load_n(&h->until, __ATOMIC_RELAXED);
}

#endif /* _TP_RX_HOLD_H_ */
