/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Per-lcore timer lists: object pools and bucket lookup. Every function
 * here runs with the list's lock held, except ta_list_init/release (no
 * concurrent user) and ta_list_use (its own lock).
 */

#include <string.h>

#include <rte_malloc.h>

#include "ta_private.h"

void
ta_list_init(struct ta_list *list, uint16_t index, uint64_t seed)
{
	memset(list, 0, sizeof(*list));
	rte_spinlock_init(&list->lock);
	list->index = index;
	list->min_key = UINT64_MAX;
	ta_sl_init(&list->sl, (struct ta_bucket *)list->head_mem, seed);
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
}

/* Carve a heap chunk of nb objects of size bytes; returns the first one. */
static void *
ta_chunk_alloc(struct ta_list *list, size_t size, unsigned int nb)
{
	size_t bytes = RTE_ALIGN_CEIL(sizeof(struct ta_chunk), 64) + size * nb;
	struct ta_chunk *c;

	c = rte_malloc("ta_chunk", bytes, RTE_CACHE_LINE_SIZE);
	if (c == NULL)
		return NULL;
	c->size = bytes;
	c->next = list->pool.chunks;
	list->pool.chunks = c;
	list->pool.mem_bytes += bytes;
	return RTE_PTR_ADD(c, RTE_ALIGN_CEIL(sizeof(struct ta_chunk), 64));
}

struct ta_node *
ta_list_node_alloc(struct ta_list *list)
{
	struct ta_pool *pool = &list->pool;
	struct ta_link *l = pool->free_nodes;
	struct ta_node *nodes;
	unsigned int i;

	if (likely(l != NULL)) {
		pool->free_nodes = l->next;
		return (struct ta_node *)l;
	}
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
	pool->nb_nodes += TA_NODES_PER_CHUNK;
	nodes[0].owner = list->index;
	return &nodes[0];
}

void
ta_list_node_free(struct ta_list *list, struct ta_node *node)
{
	node->evtim = 0;
	node->link.next = list->pool.free_nodes;
	list->pool.free_nodes = &node->link;
}

static struct ta_bucket *
ta_list_bucket_alloc(struct ta_list *list, uint8_t height)
{
	struct ta_pool *pool = &list->pool;
	struct ta_bucket *b = pool->free_buckets[height - 1];
	const size_t size = TA_BUCKET_SIZE(height);
	unsigned int i;
	uint8_t *mem;

	if (likely(b != NULL)) {
		pool->free_buckets[height - 1] = b->lv[0].next;
		return b;
	}
	mem = ta_chunk_alloc(list, size, TA_BUCKETS_PER_CHUNK);
	if (mem == NULL)
		return NULL;
	for (i = 1; i < TA_BUCKETS_PER_CHUNK; i++) {
		b = (struct ta_bucket *)(mem + i * size);
		b->height = height;
		b->lv[0].next = i + 1 < TA_BUCKETS_PER_CHUNK ?
			(struct ta_bucket *)(mem + (i + 1) * size) : NULL;
	}
	pool->free_buckets[height - 1] = (struct ta_bucket *)(mem + size);
	pool->nb_buckets += TA_BUCKETS_PER_CHUNK;
	b = (struct ta_bucket *)mem;
	b->height = height;
	return b;
}

void
ta_list_bucket_free(struct ta_list *list, struct ta_bucket *b)
{
	uint8_t h = b->height;

	b->lv[0].next = list->pool.free_buckets[h - 1];
	list->pool.free_buckets[h - 1] = b;
}

void
ta_list_update_min(struct ta_list *list)
{
	const struct ta_bucket *first = ta_sl_first(&list->sl);

	__atomic_store_n(&list->min_key,
			 first != NULL ? first->key : UINT64_MAX,
			 __ATOMIC_RELEASE);
}

struct ta_bucket *
ta_list_bucket_get(struct ta_list *list, uint64_t key)
{
	struct ta_bucket *preds[TA_SL_MAX_HEIGHT];
	struct ta_bucket *b;

	b = ta_sl_find(&list->sl, key, preds);
	if (b != NULL)
		return b;
	b = ta_list_bucket_alloc(list, ta_sl_random_height(&list->sl));
	if (b == NULL) {
		/* A short bucket is always correct, only slower to skip. */
		b = ta_list_bucket_alloc(list, 1);
		if (b == NULL)
			return NULL;
	}
	b->key = key;
	b->owner = list->index;
	ta_bucket_init_timers(b);
	ta_sl_insert(&list->sl, b, preds);
	if (key < __atomic_load_n(&list->min_key, __ATOMIC_RELAXED))
		__atomic_store_n(&list->min_key, key, __ATOMIC_RELEASE);
	return b;
}

void
ta_list_use(struct timer_adapter *adapter, struct ta_list *list)
{
	uint32_t n;

	rte_spinlock_lock(&adapter->used_lock);
	if (list->used == 0) {
		n = adapter->nb_used;
		adapter->used_idx[n] = list->index;
		/* Publish the index before the count the service reads. */
		__atomic_store_n(&adapter->nb_used, n + 1, __ATOMIC_RELEASE);
		list->used = 1;
	}
	rte_spinlock_unlock(&adapter->used_lock);
}
