/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#include <string.h>

#include "ta_radix.h"

/* Position of a level's digit in a key. */
static inline unsigned int
rx_shift(unsigned int level)
{
	return level == 0 ? 0 : TA_RX_LEAF_BITS + TA_RX_BITS * (level - 1);
}

static inline unsigned int
rx_idx(uint64_t key, unsigned int level)
{
	return level == 0 ? key & (TA_RX_LEAF_FANOUT - 1) :
		(key >> rx_shift(level)) & (TA_RX_FANOUT - 1);
}

/* Whether a tree of this many levels reaches key. */
static inline int
rx_reaches(unsigned int levels, uint64_t key)
{
	unsigned int bits = rx_shift(levels);

	return bits >= 64 || (key >> bits) == 0;
}

void
ta_rx_init(struct ta_radix *rx, void *arg)
{
	memset(rx, 0, sizeof(*rx));
	rx->arg = arg;
}

static struct ta_rx_node *
rx_new(struct ta_radix *rx, uint8_t level)
{
	struct ta_rx_node *n = ta_rx_node_alloc(rx->arg, level);

	if (n == NULL)
		return NULL;
	memset(n, 0, TA_RX_NODE_SIZE(level));
	n->level = level;
	rx->nb_nodes++;
	return n;
}

static void
rx_del(struct ta_radix *rx, struct ta_rx_node *n)
{
	rx->nb_nodes--;
	ta_rx_node_free(rx->arg, n);
}

/*
 * Slot of key, creating its path; path[level] receives the nodes on it.
 */
static struct ta_link **
rx_slot_path(struct ta_radix *rx, uint64_t key,
	     struct ta_rx_node *path[TA_RX_MAX_LEVELS])
{
	/* Levels of the nodes to create, in the order they are used. */
	uint8_t want[2 * TA_RX_MAX_LEVELS];
	struct ta_rx_node *fresh[2 * TA_RX_MAX_LEVELS];
	unsigned int levels, need = 0, used = 0, lvl, i;
	struct ta_rx_node *n;

	/*
	 * List the nodes missing on the way to the key and allocate them all
	 * first: a failure then leaves the tree exactly as it was.
	 */
	fresh[0] = NULL; /* Silences a false maybe-uninitialized warning. */
	levels = rx->root == NULL ? 1 : rx->levels;
	while (!rx_reaches(levels, key))
		levels++;
	if (rx->root == NULL) {
		for (lvl = levels; lvl-- > 0; )
			want[need++] = lvl;
	} else if (levels > rx->levels) {
		/*
		 * New levels on top; levels is minimal, so the key's digit at
		 * the new top is not 0 and its path shares nothing below it.
		 */
		for (lvl = rx->levels; lvl < levels; lvl++)
			want[need++] = lvl;
		for (lvl = levels - 1; lvl-- > 0; )
			want[need++] = lvl;
	} else {
		n = rx->root;
		for (lvl = levels - 1; lvl > 0; lvl--) {
			n = n->slot[rx_idx(key, lvl)];
			if (n == NULL) {
				while (lvl-- > 0)
					want[need++] = lvl;
				break;
			}
		}
	}
	for (i = 0; i < need; i++) {
		fresh[i] = rx_new(rx, want[i]);
		if (fresh[i] == NULL) {
			while (i > 0)
				rx_del(rx, fresh[--i]);
			return NULL;
		}
	}
	if (rx->root == NULL) {
		rx->root = fresh[used++];
		rx->levels = levels;
	}
	/* Grow at the top; the old root becomes child 0. */
	while (rx->levels < levels) {
		struct ta_rx_node *top = fresh[used++];

		top->slot[0] = rx->root;
		top->bitmap = rx->root->bitmap != 0 ? 1 : 0;
		rx->root = top;
		rx->levels++;
	}
	n = rx->root;
	for (lvl = rx->levels - 1; lvl > 0; lvl--) {
		unsigned int idx = rx_idx(key, lvl);

		path[lvl] = n;
		if (n->slot[idx] == NULL)
			n->slot[idx] = fresh[used++];
		n = n->slot[idx];
	}
	path[0] = n;
	return (struct ta_link **)&n->slot[rx_idx(key, 0)];
}

struct ta_link **
ta_rx_slot(struct ta_radix *rx, uint64_t key)
{
	struct ta_rx_node *path[TA_RX_MAX_LEVELS];

	return rx_slot_path(rx, key, path);
}

/* Fill path[level] with the nodes on key's path; returns 0 if complete. */
static int
rx_path(const struct ta_radix *rx, uint64_t key,
	struct ta_rx_node *path[TA_RX_MAX_LEVELS])
{
	struct ta_rx_node *n = rx->root;
	int lvl;

	if (n == NULL || !rx_reaches(rx->levels, key))
		return -1;
	for (lvl = rx->levels - 1; lvl >= 0; lvl--) {
		path[lvl] = n;
		if (lvl > 0) {
			n = n->slot[rx_idx(key, lvl)];
			if (n == NULL)
				return -1;
		}
	}
	return 0;
}

/* Set key's bits up its path, stopping where they were already set. */
static void
rx_mark_path(struct ta_radix *rx, uint64_t key,
	     struct ta_rx_node *const path[TA_RX_MAX_LEVELS])
{
	unsigned int lvl;

	rx->nb_keys++;
	for (lvl = 0; lvl < rx->levels; lvl++) {
		uint64_t bit = 1ULL << rx_idx(key, lvl);

		if (path[lvl]->bitmap & bit)
			break;
		path[lvl]->bitmap |= bit;
		/* Above a node that was already non-empty, all is set. */
		if (path[lvl]->bitmap != bit)
			break;
	}
}

void
ta_rx_mark(struct ta_radix *rx, uint64_t key)
{
	struct ta_rx_node *path[TA_RX_MAX_LEVELS];

	if (rx_path(rx, key, path) == 0)
		rx_mark_path(rx, key, path);
}

struct ta_link **
ta_rx_find(const struct ta_radix *rx, uint64_t key)
{
	struct ta_rx_node *path[TA_RX_MAX_LEVELS];

	if (rx_path(rx, key, path) != 0)
		return NULL;
	return (struct ta_link **)&path[0]->slot[rx_idx(key, 0)];
}

/* Clear key's bits up its path and free the nodes left empty. */
static void
rx_clear_path(struct ta_radix *rx, uint64_t key,
	      struct ta_rx_node *const path[TA_RX_MAX_LEVELS])
{
	unsigned int lvl;

	rx->nb_keys--;
	for (lvl = 0; lvl < rx->levels; lvl++) {
		struct ta_rx_node *n = path[lvl];

		n->bitmap &= ~(1ULL << rx_idx(key, lvl));
		if (n->bitmap != 0)
			return;
		/* n holds no key any more: unhook and free it. */
		if (lvl + 1 < rx->levels)
			path[lvl + 1]->slot[rx_idx(key, lvl + 1)] = NULL;
		else
			rx->root = NULL;
		rx_del(rx, n);
	}
	rx->levels = 0;
}

void
ta_rx_clear(struct ta_radix *rx, uint64_t key)
{
	struct ta_rx_node *path[TA_RX_MAX_LEVELS];

	if (rx_path(rx, key, path) == 0)
		rx_clear_path(rx, key, path);
}

int
ta_rx_insert(struct ta_radix *rx, uint64_t key, struct ta_link *l)
{
	struct ta_rx_node *path[TA_RX_MAX_LEVELS];
	struct ta_link **slot = rx_slot_path(rx, key, path);

	if (slot == NULL)
		return -1;
	if (*slot != NULL) {
		ta_fifo_append(slot, l);
		return 0;
	}
	ta_fifo_append(slot, l);
	rx_mark_path(rx, key, path);
	return 1;
}

int
ta_rx_remove(struct ta_radix *rx, uint64_t key, struct ta_link *l)
{
	struct ta_rx_node *path[TA_RX_MAX_LEVELS];
	struct ta_link **slot;

	if (rx_path(rx, key, path) != 0)
		return -1;
	slot = (struct ta_link **)&path[0]->slot[rx_idx(key, 0)];
	if (!ta_fifo_unlink(slot, l))
		return 0;
	rx_clear_path(rx, key, path);
	return 1;
}

struct ta_link *
ta_rx_take(struct ta_radix *rx, uint64_t key)
{
	struct ta_rx_node *path[TA_RX_MAX_LEVELS];
	struct ta_link **slot, *head;

	if (rx_path(rx, key, path) != 0)
		return NULL;
	slot = (struct ta_link **)&path[0]->slot[rx_idx(key, 0)];
	head = *slot;
	if (head == NULL)
		return NULL;
	*slot = NULL;
	rx_clear_path(rx, key, path);
	return head;
}

static uint64_t
rx_next_in(const struct ta_rx_node *n, unsigned int lvl, uint64_t base,
	   uint64_t from)
{
	const unsigned int shift = rx_shift(lvl);
	uint64_t f = from > base ? from : base;
	uint64_t bm = n->bitmap & (~0ULL << rx_idx(f, lvl));

	while (bm != 0) {
		unsigned int i = __builtin_ctzll(bm);
		uint64_t kbase = base | ((uint64_t)i << shift);
		uint64_t r;

		if (lvl == 0)
			return kbase;
		r = rx_next_in(n->slot[i], lvl - 1, kbase, f > kbase ? f : kbase);
		if (r != UINT64_MAX)
			return r;
		bm &= bm - 1;
	}
	return UINT64_MAX;
}

uint64_t
ta_rx_next(const struct ta_radix *rx, uint64_t from)
{
	if (rx->root == NULL || !rx_reaches(rx->levels, from))
		return UINT64_MAX;
	return rx_next_in(rx->root, rx->levels - 1, 0, from);
}
