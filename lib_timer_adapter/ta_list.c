/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Per-lcore timer lists (struct ta_list in ta_list.h), the parts that are
 * not inline: setting a list up and releasing it, registering it with the
 * adapter on first use (which gives it its far ring's buckets), declaring
 * it dead when a process died holding its lock, its share of nb_timers
 * (credits, taken from and given back to the adapter in batches), and the
 * service's collection of its due timers.
 *
 * Locks: ta_credits_*() and ta_list_collect() run with the list's lock
 * held; ta_list_init() and ta_list_release() have no concurrent user;
 * ta_list_use() takes the adapter's used_lock and then the list's lock;
 * ta_list_declare_dead() is atomic. The adapter's fields used here
 * (credits, the used table, its id for logs) are reached through
 * ta_private.h; nothing here calls the fast path or the service.
 */

#include <stddef.h>
#include <string.h>

#include <rte_malloc.h>

#include "ta_private.h"

void
ta_list_declare_dead(struct timer_adapter *adapter, struct ta_list *list)
{
	if (__atomic_exchange_n(&list->dead, 1, __ATOMIC_RELAXED) != 0)
		return;
	TA_LOG(ERR, "adapter %u: list %u: a process died holding its lock "
	       "(inside an arm or cancel call); its timers can no longer "
	       "expire or be cancelled", adapter->id, list->index);
}

void
ta_list_init(struct ta_list *list, uint16_t index, uint8_t far_shift)
{
	/* The lock opens the list's first line; min_key has a line of its
	 * own (see struct ta_list), and lists[] never share a line.
	 */
	RTE_BUILD_BUG_ON(offsetof(struct ta_list, lock) != 0);
	RTE_BUILD_BUG_ON(offsetof(struct ta_list, min_key) <
			 RTE_CACHE_LINE_SIZE);
	RTE_BUILD_BUG_ON(offsetof(struct ta_list, min_key) %
			 RTE_CACHE_LINE_SIZE);
	RTE_BUILD_BUG_ON(sizeof(struct ta_list) % RTE_CACHE_LINE_SIZE);
	/* List indexes fit list->index, used_idx[] and node->owner. */
	RTE_BUILD_BUG_ON(TA_NB_LISTS - 1 > UINT16_MAX);
	/* ta_credits_get() grants up to a burst (uint16_t) at a time. */
	RTE_BUILD_BUG_ON(2 * TA_CREDIT_BATCH > UINT16_MAX);
	memset(list, 0, sizeof(*list));
	list->lock.locked = 0;
	list->index = index;
	ta_radix_init(&list->radix, &list->pool);
	ta_far_init(&list->far, far_shift);
	ta_list_min_update(list, UINT64_MAX, TA_MIN_EXACT);
}

void
ta_list_release(struct ta_list *list)
{
	ta_pool_release(&list->pool);
	ta_far_release(&list->far);
}

int
ta_list_use(struct timer_adapter *adapter, struct ta_list *list)
{
	int ret = 0;
	uint32_t n;

	rte_spinlock_lock(&adapter->used_lock);
	if (list->used == 0) {
		/*
		 * Without a far ring the list still works, every timer in
		 * the radix index. An adapter on the application's clock
		 * has none: its hint (min_key) is then the earliest deadline
		 * itself, not a far visit, so that timer_adapter_clock_get()
		 * tells the application where the next expiry is, and a
		 * clock that jumps visits nothing on the way.
		 */
		struct ta_far_ring *ring = adapter->clock_mode ? NULL :
			ta_far_ring_alloc(adapter->conf.socket_id);

		if (ta_list_lock(adapter, list) < 0) {
			rte_free(ring);
			ret = -1;
			goto out;
		}
		list->far.ring = ring;
		if (ring != NULL)
			ta_pool_account(&list->pool, sizeof(*ring));
		ta_list_unlock(list);
		n = adapter->nb_used;
		adapter->used_idx[n] = list->index;
		/* Publish the index before the count the service reads. */
		__atomic_store_n(&adapter->nb_used, n + 1, __ATOMIC_RELEASE);
		list->used = 1;
	}
out:
	rte_spinlock_unlock(&adapter->used_lock);
	return ret;
}

uint16_t
ta_credits_refill(struct timer_adapter *adapter, struct ta_list *list,
		  uint16_t n)
{
	int64_t want = n - list->credits + TA_CREDIT_BATCH;
	int64_t avail = __atomic_load_n(&adapter->credits, __ATOMIC_RELAXED);
	int64_t take;

	do {
		take = RTE_MIN(want, avail);
		if (take <= 0)
			break;
	} while (!__atomic_compare_exchange_n(&adapter->credits, &avail,
					      avail - take, 0,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	if (take > 0)
		list->credits += take;
	return (uint16_t)RTE_MIN((int64_t)n, list->credits);
}

void
ta_credits_spill(struct timer_adapter *adapter, struct ta_list *list)
{
	int64_t give = list->credits - TA_CREDIT_BATCH;

	list->credits -= give;
	__atomic_fetch_add(&adapter->credits, give, __ATOMIC_RELAXED);
}

/* Append a circular FIFO (no sentinel) at the tail of the service's. */
static inline void
ta_fifo_splice(struct ta_link *fifo, struct ta_link *head)
{
	struct ta_link *last = head->prev;

	last->next = fifo;
	head->prev = fifo->prev;
	fifo->prev->next = head;
	fifo->prev = last;
}

/*
 * A run late into tick: the timers of the next tick (key) whose deadline
 * is at or before now go to the FIFO's tail too, as DPDK's adapter fires
 * every timer whose deadline has passed when its service ticks. Their key
 * becomes tick, the collected tick, so that cancel leaves them to the
 * service (ta_list_cancel()). The bucket is walked in full; the others
 * stay in it, in order.
 */
static void
ta_list_collect_late(struct ta_list *list, uint64_t key, uint64_t tick,
		     uint64_t now, struct ta_link *fifo)
{
	struct ta_link **slot = ta_radix_find(&list->radix, key);
	struct ta_link *l, *last;

	if (slot == NULL || *slot == NULL)
		return;
	l = *slot;
	last = l->prev;
	for (;;) {
		struct ta_link *next = l->next;
		const int end = l == last;
		struct ta_node *node = ta_node_of(l);
		const struct rte_event_timer *evtim =
			(const struct rte_event_timer *)node->evtim;

		if (evtim != NULL && evtim->impl_opaque[1] <= now) {
			const int empty = ta_fifo_unlink(slot, l);

			node->key = tick;
			l->next = fifo;
			l->prev = fifo->prev;
			fifo->prev->next = l;
			fifo->prev = l;
			if (empty) {
				ta_radix_clear(&list->radix, key);
				return;
			}
		}
		if (end)
			return;
		l = next;
	}
}

int
ta_list_collect(struct ta_list *list, uint64_t tick, uint64_t late_now,
		struct ta_link *fifo)
{
	struct ta_radix *radix = &list->radix;
	uint64_t key;
	int ret;

	/* Far buckets whose time has come go into the radix index first. */
	ret = ta_far_move(&list->far, radix, tick);
	for (key = ta_radix_next(radix, 0); key <= tick;
	     key = ta_radix_next(radix, key + 1))
		ta_fifo_splice(fifo, ta_radix_take(radix, key));
	if (late_now != 0 && key == tick + 1) {
		ta_list_collect_late(list, key, tick, late_now, fifo);
		key = ta_radix_next(radix, key);
	}
	list->collected_tick = tick;
	ta_list_min_update(list, key, TA_MIN_EXACT);
	return ret;
}
