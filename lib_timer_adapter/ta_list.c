/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Per-lcore timer lists (struct ta_list in ta_private.h): setting a list
 * up and releasing it, registering it with the adapter on first use
 * (which gives it its far ring's buckets), declaring it dead when a
 * process died holding its lock, and its share of nb_timers (credits,
 * taken from and given back to the adapter in batches). The list's parts
 * live elsewhere: the lock in ta_lock.h, the object pool in ta_pool.[ch],
 * the radix index in ta_radix.[ch], the far ring in ta_far.[ch]; linking,
 * unlinking and the service's hint (min_key) are inline in ta_private.h.
 *
 * ta_credits_*() run with the list's lock held; ta_list_init() and
 * ta_list_release() have no concurrent user; ta_list_use() takes the
 * adapter's used_lock and then the list's lock; ta_list_declare_dead() is
 * atomic.
 */

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
		 * the radix index.
		 */
		struct ta_far_ring *ring =
			ta_far_ring_alloc(adapter->conf.socket_id);

		if (ta_list_lock(adapter, list) < 0) {
			rte_free(ring);
			ret = -1;
			goto out;
		}
		list->far.ring = ring;
		if (ring != NULL)
			ta_pool_account(&list->pool, sizeof(*ring));
		ta_unlock(&list->lock);
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
