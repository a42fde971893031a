/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_POOL_H_
#define _TA_POOL_H_

/*
 * Object pool of one timer list: its timer nodes (ta_node.h) and the
 * nodes of its radix index, carved from heap chunks and recycled through
 * free lists. Chunks are released only when the adapter is freed. Every
 * function here runs with the list's lock held, except ta_pool_release()
 * (no other user). The radix index allocates through ta_radix_node_alloc()
 * and ta_radix_node_free(), defined in ta_pool.c with the pool as argument.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>

#include "ta_node.h"
#include "ta_radix.h"

/* Objects carved per chunk. */
#define TA_NODES_PER_CHUNK 512
#define TA_RADIX_LEAVES_PER_CHUNK 128
#define TA_RADIX_INNER_PER_CHUNK 16

/* Heap chunk header. */
struct ta_chunk {
	struct ta_chunk *next;
	size_t size;
};

/* Free objects of one list. */
struct ta_pool {
	struct ta_link *free_nodes;		/* Singly linked. */
	/* Free radix leaves [0] and interior nodes [1], linked via slot[0]. */
	struct ta_radix_node *free_radix_nodes[2];
	struct ta_chunk *chunks;
	/* Accounting, read by timer_adapter_accounting_get(). */
	uint64_t nb_nodes;	/* Timer nodes carved from chunks. */
	uint64_t nb_radix_nodes;	/* Radix nodes carved from chunks. */
	uint64_t mem_bytes;	/* Bytes of all chunks and of the far ring. */
};

/*
 * Carve a chunk of timer nodes owned by list owner: one is returned, the
 * others go to the free list. NULL without memory.
 */
struct ta_node *ta_pool_node_carve(struct ta_pool *pool, uint32_t owner);

/* Free every chunk. */
void ta_pool_release(struct ta_pool *pool);

/* Count bytes held for the list outside the chunks (its far ring). */
static inline void
ta_pool_account(struct ta_pool *pool, size_t bytes)
{
	__atomic_store_n(&pool->mem_bytes, pool->mem_bytes + bytes,
			 __ATOMIC_RELAXED);
}

/* A free timer node of list owner, or NULL without memory. */
static inline struct ta_node *
ta_pool_node_get(struct ta_pool *pool, uint32_t owner)
{
	struct ta_link *l = pool->free_nodes;

	if (likely(l != NULL)) {
		pool->free_nodes = l->next;
		return ta_node_of(l);
	}
	return ta_pool_node_carve(pool, owner);
}

/* Give a timer node back (its owner field stays right). */
static inline void
ta_pool_node_put(struct ta_pool *pool, struct ta_node *node)
{
	node->evtim = 0;
	node->link.next = pool->free_nodes;
	pool->free_nodes = &node->link;
}

#endif /* _TA_POOL_H_ */
