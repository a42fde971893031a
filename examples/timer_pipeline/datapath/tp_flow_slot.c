/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Ended flows' slots on their way back, and out again to new flows. Each
 * takes a grace-period token as it ends; TP_SLOT_BATCH at a time (or
 * fewer, at each reclaim) those past it go back at once and the rest go
 * on the RCU defer queue as one element under one token. The queue holds
 * as many batches as the table has room beyond --flows for slots, twice
 * over (the slots waiting are bounded by the packets and timer events in
 * flight, not by the table: tp_flow_room()). Should readers be slow to
 * report and more wait, a slot is parked in its own entry (its record is
 * written, the counters are free to hold a token and a link) and
 * returned once its grace period has passed: none is lost, and no lcore
 * waits (an RX lcore must not: the grace period may need its own
 * report). Returned, a position goes to the table's free positions, the
 * last freed first out again to an RX lcore's new flow (ft->lifo:
 * tp_flow_table.c, "Free positions"), or else to rte_hash. The way back
 * and the RX lcores' takes run under ft->reclaim_lock; what an RX lcore
 * took is its own.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "tp_ctx.h"
#include "datapath/tp_flow_slot.h"

/* One slot back to the free positions or rte_hash (under
 * ft->reclaim_lock).
 */
static void
tp_flow_slot_free_one(struct tp_flow_table *ft, uint32_t pos)
{
	struct tp_flow *f = &ft->entries[pos];

	/* DEAD with no reference left -> FREE. */
	RTE_ASSERT(tp_ref_is_dead(__atomic_load_n(&f->ref, __ATOMIC_RELAXED)) &&
		   (__atomic_load_n(&f->ref, __ATOMIC_RELAXED) &
		    TP_REF_COUNT_MASK) == 0);
	memset(f->pkts, 0, sizeof(f->pkts));	/* and the park link */
	memset(f->bytes, 0, sizeof(f->bytes));
	memset(f->tcp_flags, 0, sizeof(f->tcp_flags));
	ft->timers[pos].tim.state = RTE_EVENT_TIMER_NOT_ARMED;
	f->key = NULL;	/* the key slot goes back below */
	/* The entry must read FREE before the position can be handed out
	 * again by rte_hash_add_key_with_hash().
	 */
	__atomic_store_n(&f->ref, TP_REF_FREE, __ATOMIC_RELEASE);
	if (ft->lifo) {
		f->park_next = ft->free_head;
		ft->free_head = pos;
	} else {
		rte_hash_free_key_with_position(ft->h, pos);
	}
	ft->reclaimed++;
}

/* Give slots back: the defer queue calls this once no RX lcore can still
 * hold the positions from a lookup, n batches at e. Runs under
 * ft->reclaim_lock.
 */
void
tp_flow_slot_free(void *p, void *e, unsigned int n)
{
	struct tp_ctx *ctx = p;
	const uint32_t *pos = e;
	unsigned int i;

	for (i = 0; i < n * TP_SLOT_BATCH; i++)
		if (pos[i] != TP_POS_NONE)
			tp_flow_slot_free_one(&ctx->ft, pos[i]);
}

/* Return the parked slots whose grace period has passed (all: every
 * reader is offline). Oldest first: their tokens grow in that order.
 */
static void
tp_flow_slot_unpark(struct tp_ctx *ctx, bool all)
{
	struct tp_flow_table *ft = &ctx->ft;
	struct tp_flow *f;
	uint32_t pos;

	while ((pos = ft->park_head) != TP_POS_NONE) {
		f = &ft->entries[pos];
		if (!all && rte_rcu_qsbr_check(ft->qsv, f->park_token,
					       false) != 1)
			break;
		ft->park_head = f->park_next;
		tp_flow_slot_free_one(ft, pos);
	}
	if (ft->park_head == TP_POS_NONE)
		ft->park_tail = TP_POS_NONE;
}

/* Return what the queue can, and learn its real count (ft->dq_count only
 * ever overstates it: the queue's enqueue reclaims too, unseen).
 */
static void
tp_flow_slot_dq_reclaim(struct tp_flow_table *ft)
{
	unsigned int pending = 0;

	if (rte_rcu_qsbr_dq_reclaim(ft->dq, ft->dq_size, NULL, &pending,
				    NULL) == 0)
		ft->dq_count = pending;
}

/*
 * How many of the batch's first slots are past their grace period: their
 * tokens grow along the batch, so a prefix, found from its two ends and
 * then by halves.
 */
static unsigned int
tp_flow_slot_passed(const struct tp_flow_table *ft)
{
	unsigned int lo = 0, hi = ft->batch_n, mid;

	if (rte_rcu_qsbr_check(ft->qsv, ft->batch_tok[hi - 1], false) == 1)
		return hi;
	hi--;			/* the last has not passed */
	while (lo < hi) {	/* [0, lo) passed, [hi, n) not */
		mid = lo + (hi - lo) / 2;
		if (rte_rcu_qsbr_check(ft->qsv, ft->batch_tok[mid],
				       false) == 1)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The batch of ended slots, full or not: those past their grace period
 * back to rte_hash at once, the others onto the defer queue under one
 * token; when the queue is full, each of those waits in its entry, after
 * the others parked, under that token.
 */
static void
tp_flow_slot_flush(struct tp_ctx *ctx)
{
	struct tp_flow_table *ft = &ctx->ft;
	unsigned int i, done;
	uint64_t token;
	uint32_t pos;

	if (ft->batch_n == 0)
		return;
	done = tp_flow_slot_passed(ft);
	for (i = 0; i < done; i++)
		tp_flow_slot_free_one(ft, ft->batch[i]);
	if (done == ft->batch_n) {
		ft->batch_n = 0;
		return;
	}
	/* The rest to the front, the tail padded. */
	memmove(ft->batch, ft->batch + done,
		(ft->batch_n - done) * sizeof(ft->batch[0]));
	for (i = ft->batch_n - done; i < TP_SLOT_BATCH; i++)
		ft->batch[i] = TP_POS_NONE;
	ft->batch_n = 0;
	if (ft->dq_count >= ft->dq_size)
		tp_flow_slot_dq_reclaim(ft);
	if (ft->dq_count < ft->dq_size) {
		/* There is room: the enqueue does not fail. */
		if (rte_rcu_qsbr_dq_enqueue(ft->dq, ft->batch) == 0) {
			ft->dq_count++;
			return;
		}
		TP_LOG(ERR, "slots not queued for reclaim: %s; parked",
		       rte_strerror(rte_errno));
	}
	token = rte_rcu_qsbr_start(ft->qsv);
	for (i = 0; i < TP_SLOT_BATCH; i++) {
		pos = ft->batch[i];
		if (pos == TP_POS_NONE)
			continue;
		ft->entries[pos].park_token = token;
		ft->entries[pos].park_next = TP_POS_NONE;
		if (ft->park_tail != TP_POS_NONE)
			ft->entries[ft->park_tail].park_next = pos;
		else
			ft->park_head = pos;
		ft->park_tail = pos;
		ft->parked++;
	}
}

/* An ended flow's slot waits for a grace period. 8< */
void
tp_flow_slot_defer(struct tp_ctx *ctx, uint32_t pos)
{
	struct tp_flow_table *ft = &ctx->ft;

	rte_spinlock_lock(&ft->reclaim_lock);
	/* The slot's own token: its key left the hash before it. */
	ft->batch_tok[ft->batch_n] = rte_rcu_qsbr_start(ft->qsv);
	ft->batch[ft->batch_n++] = pos;
	if (ft->batch_n == TP_SLOT_BATCH) {
		if (ft->park_head != TP_POS_NONE)
			tp_flow_slot_unpark(ctx, false);
		tp_flow_slot_flush(ctx);
	}
	rte_spinlock_unlock(&ft->reclaim_lock);
}
/* >8 End of an ended flow's slot waits. */

void
tp_flow_slot_reclaim(struct tp_ctx *ctx)
{
	struct tp_flow_table *ft = &ctx->ft;

	rte_spinlock_lock(&ft->reclaim_lock);
	tp_flow_slot_flush(ctx);
	tp_flow_slot_dq_reclaim(ft);
	tp_flow_slot_unpark(ctx, false);
	rte_spinlock_unlock(&ft->reclaim_lock);
}

void
tp_flow_slot_release(struct tp_ctx *ctx)
{
	struct tp_flow_table *ft = &ctx->ft;

	rte_spinlock_lock(&ft->reclaim_lock);
	while (ft->batch_n > 0)
		tp_flow_slot_free_one(ft, ft->batch[--ft->batch_n]);
	tp_flow_slot_unpark(ctx, true);
	rte_spinlock_unlock(&ft->reclaim_lock);
	if (ft->parked != 0)
		TP_LOG(INFO, "flow table: %" PRIu64 " slots waited outside "
		       "the full defer queue", ft->parked);
}

/*
 * Up to TP_SLOT_TAKE free positions for lc's next new flows: the last
 * freed first, then those never taken, lowest first; the first to use
 * last in lc->slot. How many.
 */
static uint32_t
tp_flow_slot_take(struct tp_flow_table *ft, struct tp_lcore *lc)
{
	uint32_t use[TP_SLOT_TAKE], pos, n = 0, i;

	rte_spinlock_lock(&ft->reclaim_lock);
	while (n < TP_SLOT_TAKE && (pos = ft->free_head) != TP_POS_NONE) {
		ft->free_head = ft->entries[pos].park_next;
		use[n++] = pos;
	}
	while (n < TP_SLOT_TAKE && ft->fresh_next < ft->fresh_end) {
		use[n++] = ft->fresh_next;
		__atomic_store_n(&ft->fresh_next, ft->fresh_next + 1,
				 __ATOMIC_RELAXED);
	}
	rte_spinlock_unlock(&ft->reclaim_lock);
	for (i = 0; i < n; i++)
		lc->slot[n - 1 - i] = use[i];
	lc->slot_n = n;
	return n;
}

/*
 * Hand rte_hash the position lc's next add is to take, unless one is
 * handed already: into rte_hash's ring of free positions, which holds
 * nothing else (one writer lcore), or into the lcore's own cache, whose
 * top the add takes (several). None when there is no free position.
 */
static void
tp_flow_slot_feed(struct tp_flow_table *ft, struct tp_lcore *lc)
{
	uint32_t pos;
	int ret;

	if (lc->slot_fed != TP_POS_NONE ||
	    (lc->slot_n == 0 && tp_flow_slot_take(ft, lc) == 0))
		return;
	pos = lc->slot[--lc->slot_n];
	ft->entries[pos].park_next = 0;	/* pkts[1] again */
	ret = rte_hash_free_key_with_position(ft->h, (int32_t)pos);
	RTE_VERIFY(ret == 0);
	lc->slot_fed = pos;
}

/* RX: add a key at a free position. */
int32_t
tp_flow_slot_add(struct tp_ctx *ctx, struct tp_lcore *lc,
		 const struct tp_flow_key *key, hash_sig_t sig)
{
	struct tp_flow_table *ft = &ctx->ft;
	int32_t pos;

	if (ft->lifo)
		tp_flow_slot_feed(ft, lc);
	pos = rte_hash_add_key_with_hash(ft->h, key, sig);
	/* Taken, or still handed (the key was there, or did not fit). */
	if (pos >= 0 && (uint32_t)pos == lc->slot_fed) {
		lc->slot_fed = TP_POS_NONE;
		/* One writer: the ring is empty and this lcore's alone. */
		if (ft->free_ring != NULL)
			rte_ring_reset(ft->free_ring);
	}
	return pos;
}
