/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Object pool of one timer list (see ta_pool.h): heap chunks, timer nodes
 * and the radix index's node allocator. Lock: the list's, held by every
 * caller except ta_pool_release() (no other user).
 */

#include <rte_common.h>
#include <rte_malloc.h>

#include "ta_pool.h"

/* Carve a heap chunk of nb objects of size bytes; returns the first one. */
static void *
ta_chunk_alloc(struct ta_pool *pool, size_t size, unsigned int nb)
{
	const size_t hdr = RTE_ALIGN_CEIL(sizeof(struct ta_chunk), 64);
	struct ta_chunk *c;

	c = rte_malloc("ta_chunk", hdr + size * nb, RTE_CACHE_LINE_SIZE);
	if (c == NULL)
		return NULL;
	c->size = hdr + size * nb;
	c->next = pool->chunks;
	pool->chunks = c;
	ta_pool_account(pool, c->size);
	return RTE_PTR_ADD(c, hdr);
}

struct ta_node *
ta_pool_node_carve(struct ta_pool *pool, uint32_t owner)
{
	struct ta_node *nodes;
	unsigned int i;

	/* A timer node is 40 bytes (ta_node.h): 64 of them per 40 lines. */
	RTE_BUILD_BUG_ON(sizeof(struct ta_node) != 40);
	RTE_BUILD_BUG_ON(sizeof(struct ta_link) != 2 * sizeof(void *));
	/* Objects follow a chunk header of whole cache lines. */
	RTE_BUILD_BUG_ON(sizeof(struct ta_chunk) > RTE_CACHE_LINE_SIZE);
	RTE_BUILD_BUG_ON(sizeof(struct ta_node) % __alignof__(struct ta_node));

	nodes = ta_chunk_alloc(pool, sizeof(*nodes), TA_NODES_PER_CHUNK);
	if (nodes == NULL)
		return NULL;
	/* Keep node 0 for the caller, chain the others as free. */
	for (i = 1; i < TA_NODES_PER_CHUNK; i++) {
		nodes[i].owner = owner;
		nodes[i].link.next = i + 1 < TA_NODES_PER_CHUNK ?
			&nodes[i + 1].link : NULL;
	}
	pool->free_nodes = &nodes[1].link;
	__atomic_store_n(&pool->nb_nodes, pool->nb_nodes + TA_NODES_PER_CHUNK,
			 __ATOMIC_RELAXED);
	nodes[0].owner = owner;
	return &nodes[0];
}

/* Radix node allocator of a list's index (arg is the list's pool). */
struct ta_radix_node *
ta_radix_node_alloc(void *arg, uint8_t level)
{
	struct ta_pool *pool = arg;
	const unsigned int kind = level == 0 ? 0 : 1;
	const unsigned int per_chunk = kind == 0 ? TA_RADIX_LEAVES_PER_CHUNK :
		TA_RADIX_INNER_PER_CHUNK;
	const size_t size = TA_RADIX_NODE_SIZE(level);
	struct ta_radix_node *n = pool->free_radix_nodes[kind];
	uint8_t *mem;
	unsigned int i;

	/* Carved back to back: each node stays pointer-aligned. */
	RTE_BUILD_BUG_ON(TA_RADIX_NODE_SIZE(0) %
			 __alignof__(struct ta_radix_node));
	RTE_BUILD_BUG_ON(TA_RADIX_NODE_SIZE(1) %
			 __alignof__(struct ta_radix_node));

	if (likely(n != NULL)) {
		pool->free_radix_nodes[kind] = n->slot[0];
		return n;
	}
	mem = ta_chunk_alloc(pool, size, per_chunk);
	if (mem == NULL)
		return NULL;
	for (i = 1; i < per_chunk; i++) {
		n = (struct ta_radix_node *)(mem + i * size);
		n->level = level;
		n->slot[0] = i + 1 < per_chunk ? mem + (i + 1) * size : NULL;
	}
	pool->free_radix_nodes[kind] = (struct ta_radix_node *)(mem + size);
	__atomic_store_n(&pool->nb_radix_nodes,
			 pool->nb_radix_nodes + per_chunk, __ATOMIC_RELAXED);
	return (struct ta_radix_node *)mem;
}

void
ta_radix_node_free(void *arg, struct ta_radix_node *n)
{
	struct ta_pool *pool = arg;
	const unsigned int kind = n->level == 0 ? 0 : 1;

	n->slot[0] = pool->free_radix_nodes[kind];
	pool->free_radix_nodes[kind] = n;
}

void
ta_pool_release(struct ta_pool *pool)
{
	struct ta_chunk *c = pool->chunks, *next;

	while (c != NULL) {
		next = c->next;
		rte_free(c);
		c = next;
	}
	pool->chunks = NULL;
}
