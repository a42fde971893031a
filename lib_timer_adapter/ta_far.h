/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_FAR_H_
#define _TA_FAR_H_

/*
 * Far ring of one timer list.
 *
 * Timers due beyond the next span of ticks are parked, unsorted, in a
 * bucket per span (2^shift ticks), so that arming touches only the bucket
 * head and the last timer parked there, both cached. The service moves a
 * bucket into the list's radix index during the span before its own, a
 * share per tick (at least TA_FAR_BUDGET timers per list and visit, more
 * if needed to finish within half the ticks left), so that no visit holds
 * a list's lock or delays expiries for long. The shift is chosen at create
 * so that TA_FAR_NB - 2 spans cover max_tmo_ns.
 *
 * The list owns the ring and the hint that tells the service when to visit
 * (ta_far_next_visit() and ta_far_park()'s visit tick feed it). Everything
 * here runs with the list's lock held, except ta_far_parked() (a relaxed
 * read for accounting) and the create/release functions (no other user).
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "ta_node.h"
#include "ta_radix.h"

#define TA_FAR_NB 256
#define TA_FAR_MASK (TA_FAR_NB - 1)
#define TA_FAR_MIN_SHIFT 6
#define TA_FAR_MAX_SHIFT 48
#define TA_FAR_BUDGET 32

/* Buckets of one ring (heap, allocated when its list is first used). */
struct ta_far_ring {
	struct ta_link *bucket[TA_FAR_NB];	/* Circular FIFOs. */
	uint32_t count[TA_FAR_NB];		/* Timers per bucket. */
	uint64_t nb;				/* Timers parked. */
};

/* The far ring of one list, inside the list. */
struct ta_far {
	/*
	 * NULL if it could not be allocated: every timer then goes to the
	 * radix index.
	 */
	struct ta_far_ring *ring;
	/*
	 * Last span whose bucket the service has moved into the radix index:
	 * spans <= moved_span have empty buckets; a timer is parked only in a
	 * span in (moved_span, moved_span + TA_FAR_NB).
	 */
	uint64_t moved_span;
	uint8_t shift;		/* log2 of the ticks of a span. */
};

/* The span shift of an adapter: TA_FAR_NB - 2 spans cover max_tmo_ns. */
uint8_t ta_far_shift_for(uint64_t max_tmo_ns, uint64_t tick_ns);

/* An empty ring without buckets yet. */
void ta_far_init(struct ta_far *far, uint8_t shift);

/* Buckets for a ring on a socket, or NULL without memory. */
struct ta_far_ring *ta_far_ring_alloc(int socket_id);

/* Free a ring's buckets. */
void ta_far_release(struct ta_far *far);

/*
 * Move into the radix index the buckets whose time has come at tick (a
 * share of the next one, the whole of any already due). 0, or -ENOMEM:
 * what could not be indexed stays parked and is retried at the next tick
 * (late, not lost).
 */
int ta_far_move(struct ta_far *far, struct ta_radix *radix, uint64_t tick);

/* Timers parked (relaxed: readable without the list's lock). */
static inline uint64_t
ta_far_parked(const struct ta_far *far)
{
	return far->ring == NULL ? 0 :
		__atomic_load_n(&far->ring->nb, __ATOMIC_RELAXED);
}

/*
 * Whether ta_far_park() wants the current tick: only a ring with nothing
 * parked does, because then the service may not have visited for long.
 */
static inline int
ta_far_wants_now(const struct ta_far *far)
{
	return far->ring != NULL && far->ring->nb == 0;
}

/*
 * First tick at which the service must visit the ring, UINT64_MAX when
 * nothing is parked. collected_tick is the list's last collected tick.
 */
static inline uint64_t
ta_far_next_visit(const struct ta_far *far, uint64_t collected_tick)
{
	uint64_t f;

	if (far->ring == NULL || far->ring->nb == 0)
		return UINT64_MAX;
	/* Entering span moved_span, the service moves bucket moved_span + 1. */
	f = far->moved_span << far->shift;
	/* A move the budget cut short goes on at the next tick. */
	return f > collected_tick ? f : collected_tick + 1;
}

/*
 * Park a timer whose key (set) is due beyond the next span in its bucket.
 * now_tick is the current tick, or 0 if the caller does not know it.
 * Returns 1 if parked, with *visit set to the tick at which the service
 * must move its bucket; 0 if the timer belongs in the radix index (near,
 * beyond the ring, or no ring).
 */
static inline int
ta_far_park(struct ta_far *far, struct ta_node *node, uint64_t now_tick,
	    uint64_t *visit)
{
	struct ta_far_ring *ring = far->ring;
	const uint64_t span = node->key >> far->shift;

	if (unlikely(ring == NULL))
		return 0;
	/*
	 * With nothing parked the service may not have visited for long:
	 * bring moved_span to the present (any value is valid for empty
	 * buckets) so that near timers are not parked.
	 */
	if (unlikely(ring->nb == 0) && now_tick != 0 &&
	    (now_tick >> far->shift) + 1 > far->moved_span)
		far->moved_span = (now_tick >> far->shift) + 1;
	if (span <= far->moved_span || span - far->moved_span >= TA_FAR_NB)
		return 0;
	ta_fifo_append(&ring->bucket[span & TA_FAR_MASK], &node->link);
	ring->count[span & TA_FAR_MASK]++;
	__atomic_store_n(&ring->nb, ring->nb + 1, __ATOMIC_RELAXED);
	node->parked = 1;
	/* The service moves the bucket during the span before. */
	*visit = (span - 1) << far->shift;
	return 1;
}

/* Take a parked timer out of its bucket. */
static inline void
ta_far_unpark(struct ta_far *far, struct ta_node *node)
{
	struct ta_far_ring *ring = far->ring;
	const unsigned int b = (node->key >> far->shift) & TA_FAR_MASK;

	ta_fifo_unlink(&ring->bucket[b], &node->link);
	ring->count[b]--;
	__atomic_store_n(&ring->nb, ring->nb - 1, __ATOMIC_RELAXED);
	node->parked = 0;
}

#endif /* _TA_FAR_H_ */
