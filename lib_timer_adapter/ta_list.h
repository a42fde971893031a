/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_LIST_H_
#define _TA_LIST_H_

/*
 * One per-lcore timer list: its struct and the operations the arm, cancel
 * and expiry paths perform on it, inline where the fast path needs them
 * (the rest is in ta_list.c).
 *
 * Lock: the list's own lock (ta_lock.h) guards everything in the list. It
 * serialises the owning lcore (arm), cancellers on other lcores and the
 * service (collect, free, periodic re-insertion); the owning lcore is
 * almost always its only user. Every function here runs with it held,
 * except ta_list_lock() itself, ta_list_init() and ta_list_release() (no
 * concurrent user) and ta_list_use() (see ta_list.c).
 *
 * Layering: the fast path (ta_fastpath.c) and the service (ta_service.c)
 * call this file; it calls down into the list's parts and nothing calls
 * back up: its lock (ta_lock.h), its far ring (ta_far.h), its radix index
 * (ta_radix.h) and its object pool of timer nodes (ta_pool.h, which the
 * radix index also allocates from). The adapter's shared credit counter
 * is reached only through the out-of-line ta_credits_refill() and
 * ta_credits_spill().
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "ta_far.h"
#include "ta_lock.h"
#include "ta_node.h"
#include "ta_pool.h"
#include "ta_radix.h"

struct timer_adapter;

/*
 * nb_timers is enforced with credits: a list takes them from the adapter
 * in batches and keeps at most two batches, so that arming and freeing
 * seldom touch the shared counter.
 */
#define TA_CREDIT_BATCH 64

struct ta_list {
	ta_lock_t lock;
	uint16_t index;
	uint8_t used;		/* Registered in the adapter's used table. */
	/*
	 * A process died holding the lock: nobody may take it again. The
	 * list's timers can no longer expire or be cancelled.
	 */
	uint8_t dead;
	/*
	 * Last tick the service collected: every key <= collected_tick has
	 * been moved to the service's FIFO, every key still in the radix
	 * index is greater (new keys are always in the future).
	 */
	uint64_t collected_tick;
	int64_t credits;	/* Share of nb_timers held by this list. */
	struct ta_radix radix;
	struct ta_far far;	/* Timers due beyond the next span. */
	struct ta_pool pool;
	uint64_t armed;		/* Accounting, written under the lock. */
	uint64_t cancelled;
	/*
	 * First tick at which the service must visit the list: the smallest
	 * key in the radix index or the start of the span before the next
	 * far bucket to move, UINT64_MAX when there is nothing. It may be
	 * early, never late. The service reads it without the lock, every
	 * tick, to skip lists with nothing to do; on a line of its own so
	 * that reading it does not steal the lock's line. Written only by
	 * ta_list_min_update().
	 */
	uint64_t min_key __rte_cache_aligned;
} __rte_cache_aligned;

/* ta_list.c */
void ta_list_init(struct ta_list *list, uint16_t index, uint8_t far_shift);
void ta_list_release(struct ta_list *list);
int ta_list_use(struct timer_adapter *adapter, struct ta_list *list);
void ta_list_declare_dead(struct timer_adapter *adapter, struct ta_list *list);
uint16_t ta_credits_refill(struct timer_adapter *adapter, struct ta_list *list,
			   uint16_t n);
void ta_credits_spill(struct timer_adapter *adapter, struct ta_list *list);
/*
 * Move the list's due timers (keys <= tick) to the tail of the service's
 * FIFO, far buckets whose time has come first. late_now: 0, or the time
 * (TSC) of a run late into its tick, which also moves the timers of tick
 * + 1 in the index whose deadline is at or before it. 0, or -ENOMEM if
 * parked timers could not be indexed (retried at the next tick: late,
 * not lost).
 */
int ta_list_collect(struct ta_list *list, uint64_t tick, uint64_t late_now,
		    struct ta_link *fifo);

/*
 * Single-writer counter update (a list's accounting under its lock, the
 * service's statistics), readable without tearing.
 */
static inline void
ta_counter_add(uint64_t *c, uint64_t v)
{
	__atomic_store_n(c, *c + v, __ATOMIC_RELAXED);
}

/*
 * Take a list's lock: 0, or -1 if the list is dead (declared so now if a
 * holder is found to have died).
 */
static inline int
ta_list_lock(struct timer_adapter *adapter, struct ta_list *list)
{
	if (likely(!list->dead) && likely(ta_lock(&list->lock) == 0))
		return 0;
	ta_list_declare_dead(adapter, list);
	return -1;
}

/* Release a list's lock. */
static inline void
ta_list_unlock(struct ta_list *list)
{
	ta_unlock(&list->lock);
}

/* How a change moved a list's earliest key, for ta_list_min_update(). */
enum ta_min_change {
	/* A key or far visit at tick t was added: the hint may only drop. */
	TA_MIN_ADDED,
	/* t is now the radix index's smallest key (UINT64_MAX: none). */
	TA_MIN_EXACT,
};

/*
 * The one writer of list->min_key, the service's hint (see struct
 * ta_list). After an addition the hint drops to t if t is earlier, in
 * O(1); after a removal that may have raised the earliest key the caller
 * passes the index's smallest key and the hint becomes the earlier of it
 * and the far ring's next visit.
 */
static inline void
ta_list_min_update(struct ta_list *list, uint64_t t, enum ta_min_change how)
{
	if (how == TA_MIN_ADDED) {
		if (t >= list->min_key)
			return;
	} else {
		t = RTE_MIN(t, ta_far_next_visit(&list->far,
						 list->collected_tick));
	}
	__atomic_store_n(&list->min_key, t, __ATOMIC_RELEASE);
}

/*
 * Credits of a list (see TA_CREDIT_BATCH). Up to n of nb_timers for this
 * list's next arms: how many it got. The arm call then reports how many
 * it used with ta_list_armed().
 */
static inline uint16_t
ta_credits_get(struct timer_adapter *adapter, struct ta_list *list,
	       uint16_t n)
{
	if (likely(list->credits >= n))
		return n;
	return ta_credits_refill(adapter, list, n);
}

/* n timers were armed: they use n of the credits ta_credits_get() granted. */
static inline void
ta_list_armed(struct ta_list *list, uint16_t n)
{
	list->credits -= n;
	ta_counter_add(&list->armed, n);
}

/* Give back n; a list keeps at most two batches. */
static inline void
ta_credits_put(struct timer_adapter *adapter, struct ta_list *list,
	       uint64_t n)
{
	list->credits += n;
	if (unlikely(list->credits > 2 * TA_CREDIT_BATCH))
		ta_credits_spill(adapter, list);
}

/*
 * Whether ta_list_add() wants the current tick (now_tick): only a list
 * whose far ring has nothing parked does.
 */
static inline int
ta_list_wants_now(const struct ta_list *list)
{
	return ta_far_wants_now(&list->far);
}

/*
 * Link a node (key set) into the list's radix index. 0, or -1 without
 * memory.
 */
static inline int
ta_list_radix_link(struct ta_list *list, struct ta_node *node)
{
	int ret = ta_radix_insert(&list->radix, node->key, &node->link);

	if (unlikely(ret < 0))
		return -1;
	node->parked = 0;
	if (ret == 1)
		ta_list_min_update(list, node->key, TA_MIN_ADDED);
	return 0;
}

/*
 * A new pending timer in the list: a node from the list's pool, with key
 * and evtim set, parked in its far bucket if it is due beyond the next
 * span, else in the radix index. now_tick is the current tick, or 0 if the
 * caller does not know it. The node, or NULL without memory (nothing
 * changed then).
 */
static inline struct ta_node *
ta_list_add(struct ta_list *list, uint64_t key, uintptr_t evtim,
	    uint64_t now_tick)
{
	struct ta_node *node = ta_pool_node_get(&list->pool, list->index);
	uint64_t visit;

	if (unlikely(node == NULL))
		return NULL;
	node->key = key;
	node->evtim = evtim;
	if (ta_far_park(&list->far, node, now_tick, &visit)) {
		ta_list_min_update(list, visit, TA_MIN_ADDED);
		return node;
	}
	if (unlikely(ta_list_radix_link(list, node) < 0)) {
		ta_pool_node_put(&list->pool, node);
		return NULL;
	}
	return node;
}

/*
 * Give a settled node back to the list's pool, and its credit: the node
 * is no longer linked anywhere.
 */
static inline void
ta_list_node_free(struct timer_adapter *adapter, struct ta_list *list,
		  struct ta_node *node)
{
	ta_pool_node_put(&list->pool, node);
	ta_credits_put(adapter, list, 1);
}

/*
 * Cancel the pending timer of a node (the canceller found its own timer
 * in node->evtim): the canceller now owns the outcome. A key the service
 * has collected is in the service's FIFO: the node stays there and the
 * service frees it. Otherwise it is unlinked and freed now.
 */
static inline void
ta_list_cancel(struct timer_adapter *adapter, struct ta_list *list,
	       struct ta_node *node)
{
	node->evtim = 0;
	ta_counter_add(&list->cancelled, 1);
	if (node->key <= list->collected_tick)
		return;
	/* A parked timer's visit tick stays: a stale early hint is valid. */
	if (node->parked)
		ta_far_unpark(&list->far, node);
	else if (ta_radix_remove(&list->radix, node->key, &node->link) == 1 &&
		 node->key == list->min_key)
		ta_list_min_update(list, ta_radix_next(&list->radix, 0),
				   TA_MIN_EXACT);
	ta_list_node_free(adapter, list, node);
}

#endif /* _TA_LIST_H_ */
