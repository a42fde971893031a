/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Per-lcore timer lists: object pools and nb_timers credits, the far
 * ring's buckets, dead lists (the lock itself is in ta_lock.[ch]). Every
 * function here runs with the list's lock held, except ta_list_init and
 * ta_list_release (no concurrent user) and ta_list_use (its own lock).
 */

#include <string.h>

#include <rte_malloc.h>
#include <rte_prefetch.h>

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

/* Carve a heap chunk of nb objects of size bytes; returns the first one. */
static void *
ta_chunk_alloc(struct ta_list *list, size_t size, unsigned int nb)
{
	const size_t hdr = RTE_ALIGN_CEIL(sizeof(struct ta_chunk), 64);
	struct ta_chunk *c;

	c = rte_malloc("ta_chunk", hdr + size * nb, RTE_CACHE_LINE_SIZE);
	if (c == NULL)
		return NULL;
	c->size = hdr + size * nb;
	c->next = list->pool.chunks;
	list->pool.chunks = c;
	__atomic_store_n(&list->pool.mem_bytes, list->pool.mem_bytes + c->size,
			 __ATOMIC_RELAXED);
	return RTE_PTR_ADD(c, hdr);
}

/* Radix node allocator of a list's index (arg is the list). */
struct ta_radix_node *
ta_radix_node_alloc(void *arg, uint8_t level)
{
	struct ta_list *list = arg;
	struct ta_pool *pool = &list->pool;
	const unsigned int kind = level == 0 ? 0 : 1;
	const unsigned int per_chunk = kind == 0 ? TA_RADIX_LEAVES_PER_CHUNK :
		TA_RADIX_INNER_PER_CHUNK;
	const size_t size = TA_RADIX_NODE_SIZE(level);
	struct ta_radix_node *n = pool->free_radix_nodes[kind];
	uint8_t *mem;
	unsigned int i;

	if (likely(n != NULL)) {
		pool->free_radix_nodes[kind] = n->slot[0];
		return n;
	}
	mem = ta_chunk_alloc(list, size, per_chunk);
	if (mem == NULL)
		return NULL;
	for (i = 1; i < per_chunk; i++) {
		n = (struct ta_radix_node *)(mem + i * size);
		n->level = level;
		n->slot[0] = i + 1 < per_chunk ? mem + (i + 1) * size : NULL;
	}
	pool->free_radix_nodes[kind] = (struct ta_radix_node *)(mem + size);
	__atomic_store_n(&pool->nb_radix_nodes, pool->nb_radix_nodes + per_chunk,
			 __ATOMIC_RELAXED);
	return (struct ta_radix_node *)mem;
}

void
ta_radix_node_free(void *arg, struct ta_radix_node *n)
{
	struct ta_list *list = arg;
	const unsigned int kind = n->level == 0 ? 0 : 1;

	n->slot[0] = list->pool.free_radix_nodes[kind];
	list->pool.free_radix_nodes[kind] = n;
}

void
ta_list_init(struct ta_list *list, uint16_t index, uint8_t far_shift)
{
	memset(list, 0, sizeof(*list));
	list->lock.locked = 0;
	list->index = index;
	ta_far_init(&list->far, far_shift);
	ta_list_min_update(list, UINT64_MAX, TA_MIN_EXACT);
	ta_radix_init(&list->radix, list);
}

void
ta_list_release(struct ta_list *list)
{
	struct ta_chunk *c = list->pool.chunks, *next;

	while (c != NULL) {
		next = c->next;
		rte_free(c);
		c = next;
	}
	list->pool.chunks = NULL;
	ta_far_release(&list->far);
}

struct ta_node *
ta_list_node_alloc_chunk(struct ta_list *list)
{
	struct ta_pool *pool = &list->pool;
	struct ta_node *nodes;
	unsigned int i;

	nodes = ta_chunk_alloc(list, sizeof(*nodes), TA_NODES_PER_CHUNK);
	if (nodes == NULL)
		return NULL;
	/* Keep node 0 for the caller, chain the others as free. */
	for (i = 1; i < TA_NODES_PER_CHUNK; i++) {
		nodes[i].owner = list->index;
		nodes[i].link.next = i + 1 < TA_NODES_PER_CHUNK ?
			&nodes[i + 1].link : NULL;
	}
	pool->free_nodes = &nodes[1].link;
	__atomic_store_n(&pool->nb_nodes, pool->nb_nodes + TA_NODES_PER_CHUNK,
			 __ATOMIC_RELAXED);
	nodes[0].owner = list->index;
	return &nodes[0];
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
			__atomic_store_n(&list->pool.mem_bytes,
					 list->pool.mem_bytes + sizeof(*ring),
					 __ATOMIC_RELAXED);
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
