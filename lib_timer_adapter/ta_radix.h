/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_RADIX_H_
#define _TA_RADIX_H_

/**
 * @file
 * Radix index of expiry ticks: the ordered structure of one timer list.
 *
 * A 64-ary radix tree over the absolute tick number. Leaves hold, per tick,
 * a pointer to the FIFO of timers that expire in that tick (a circular
 * doubly linked list of struct ta_link); every node keeps a bitmap of its
 * non-empty children, so that finding the next due tick is a few ctz per
 * level. The tree grows a level at the top when a key beyond its reach
 * arrives and frees nodes that become empty.
 *
 * Why not a comparison structure: with random deadlines almost every timer
 * has a tick of its own, so a skiplist or tree over ticks is as deep as the
 * number of timers, and every level of a search is a cache miss at a
 * million timers. Here an insert walks a fixed path whose upper nodes are
 * shared by all keys and stay cached: about one miss (the leaf) per insert,
 * whatever the number of timers.
 *
 * The engine locks nothing (the caller serialises access) and allocates
 * through ta_radix_node_alloc()/ta_radix_node_free(), which its user defines:
 * link-time functions rather than pointers, because the index lives in
 * shared memory and function addresses differ between processes.
 */

#include <stdint.h>

/*
 * Interior nodes have 64 children; leaves cover only 8 ticks. Sparse
 * ticks (random deadlines at a fine tick) leave most leaf slots empty, so
 * small leaves keep the memory per timer low: 80 bytes per leaf instead of
 * 528, for one more level on the path (upper levels stay cached).
 */
#define TA_RADIX_BITS 6
#define TA_RADIX_FANOUT (1u << TA_RADIX_BITS)
#define TA_RADIX_LEAF_BITS 3
#define TA_RADIX_LEAF_FANOUT (1u << TA_RADIX_LEAF_BITS)
/* 3 + 11 * 6 bits: 12 levels cover every 64-bit key. */
#define TA_RADIX_MAX_LEVELS 12

/** Link of a timer in its tick's FIFO (or in a free list). */
struct ta_link {
	struct ta_link *next;
	struct ta_link *prev;
};

/**
 * A radix node. Leaves (level 0) have TA_RADIX_LEAF_FANOUT slots, each the
 * head of a tick's FIFO; interior nodes have TA_RADIX_FANOUT children.
 */
struct ta_radix_node {
	uint64_t bitmap;	/**< Bit i: slot[i] is non-empty. */
	uint8_t level;		/**< 0 for leaves. */
	uint8_t reserved[7];
	void *slot[];		/**< TA_RADIX_LEAF_FANOUT or TA_RADIX_FANOUT. */
};

/** Bytes of a node of the given level. */
#define TA_RADIX_NODE_SIZE(level) (sizeof(struct ta_radix_node) + sizeof(void *) * \
	((level) == 0 ? TA_RADIX_LEAF_FANOUT : TA_RADIX_FANOUT))

/**
 * Allocate a node of TA_RADIX_NODE_SIZE(level) bytes (contents undefined) for
 * the index owned by arg.
 */
struct ta_radix_node *ta_radix_node_alloc(void *arg, uint8_t level);
/** Give back a node (its level field is intact) of the index owned by arg. */
void ta_radix_node_free(void *arg, struct ta_radix_node *n);

/** The index of one list. */
struct ta_radix {
	struct ta_radix_node *root;	/**< NULL while empty. */
	uint8_t levels;			/**< Height of root + 1. */
	uint64_t nb_keys;		/**< Non-empty ticks. */
	uint64_t nb_nodes;		/**< Radix nodes in the tree. */
	void *arg;			/**< Passed to the allocator. */
};

/** Initialise an empty index; arg is passed to the node allocator. */
void ta_radix_init(struct ta_radix *radix, void *arg);

/**
 * Slot of a key, creating the path to it.
 *
 * @return
 *   Address of the key's FIFO head pointer (NULL inside when the tick has
 *   no timer yet), or NULL if a node could not be allocated. After storing
 *   a first timer into an empty slot, call ta_radix_mark().
 */
struct ta_link **ta_radix_slot(struct ta_radix *radix, uint64_t key);

/** Record that key's slot became non-empty (sets the bitmaps above it). */
void ta_radix_mark(struct ta_radix *radix, uint64_t key);

/** Slot of an existing key, or NULL if its path does not exist. */
struct ta_link **ta_radix_find(const struct ta_radix *radix, uint64_t key);

/**
 * Record that key's slot became empty: clears the bitmaps and frees the
 * nodes left without any key. The caller has stored NULL in the slot.
 */
void ta_radix_clear(struct ta_radix *radix, uint64_t key);

/**
 * Append a timer link to key's FIFO, creating the key if needed.
 *
 * @return
 *   1 if the key is new, 0 if it already had timers, -1 if a node could
 *   not be allocated (nothing changed then).
 */
int ta_radix_insert(struct ta_radix *radix, uint64_t key, struct ta_link *l);

/**
 * Unlink a timer link from key's FIFO, deleting the key if it empties.
 *
 * @return
 *   1 if the key was deleted, 0 if timers remain, -1 if there is no key.
 */
int ta_radix_remove(struct ta_radix *radix, uint64_t key, struct ta_link *l);

/**
 * Delete a key and hand over its whole FIFO.
 *
 * @return
 *   The FIFO's head (a circular list), or NULL if there is no such key.
 */
struct ta_link *ta_radix_take(struct ta_radix *radix, uint64_t key);

/**
 * Smallest non-empty key >= from.
 *
 * @return
 *   The key, or UINT64_MAX if there is none.
 */
uint64_t ta_radix_next(const struct ta_radix *radix, uint64_t from);

/** Append a timer link at the tail of the FIFO whose head is *head. */
static inline void
ta_fifo_append(struct ta_link **head, struct ta_link *l)
{
	struct ta_link *h = *head;

	if (h == NULL) {
		l->next = l;
		l->prev = l;
		*head = l;
		return;
	}
	l->next = h;
	l->prev = h->prev;
	h->prev->next = l;
	h->prev = l;
}

/**
 * Unlink a timer link from the FIFO whose head is *head.
 *
 * @return
 *   1 if the FIFO became empty (*head is then NULL), else 0.
 */
static inline int
ta_fifo_unlink(struct ta_link **head, struct ta_link *l)
{
	if (l->next == l) {
		*head = NULL;
		return 1;
	}
	l->prev->next = l->next;
	l->next->prev = l->prev;
	if (*head == l)
		*head = l->next;
	return 0;
}

#endif /* _TA_RADIX_H_ */
