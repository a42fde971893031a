/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Radix index of expiry ticks (see ta_radix.h): the engine. It locks
 * nothing (its user serialises access: a list's index runs under the
 * list's lock) and calls only its node allocator.
 */

#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "ta_radix.h"

/*
 * Layout the engine relies on. _Static_assert, not RTE_BUILD_BUG_ON: the
 * engine builds without DPDK (tests/test_radix.c).
 */
/* A node's bitmap has a bit per slot. */
_Static_assert(TA_RADIX_FANOUT <= sizeof(uint64_t) * CHAR_BIT,
	       "a radix node's bitmap must cover its slots");
_Static_assert(TA_RADIX_LEAF_FANOUT <= TA_RADIX_FANOUT,
	       "leaves are not wider than interior nodes");
/* TA_RADIX_MAX_LEVELS levels reach every 64-bit key. */
_Static_assert(TA_RADIX_LEAF_BITS + (TA_RADIX_MAX_LEVELS - 1) *
	       TA_RADIX_BITS >= 64, "the radix levels must cover 64 bits");
/* Slots start right after the header, pointer-aligned. */
_Static_assert(sizeof(struct ta_radix_node) == 16 &&
	       offsetof(struct ta_radix_node, slot) == 16,
	       "a radix node's header is 16 bytes");
/* Sizes documented in ta_radix.h: 80 bytes per leaf, 528 per interior. */
_Static_assert(TA_RADIX_NODE_SIZE(0) == 80 && TA_RADIX_NODE_SIZE(1) == 528,
	       "radix node sizes");

/* Position of a level's digit in a key. */
static inline unsigned int
radix_shift(unsigned int level)
{
	return level == 0 ? 0 : TA_RADIX_LEAF_BITS + TA_RADIX_BITS * (level - 1);
}

static inline unsigned int
radix_idx(uint64_t key, unsigned int level)
{
	return level == 0 ? key & (TA_RADIX_LEAF_FANOUT - 1) :
		(key >> radix_shift(level)) & (TA_RADIX_FANOUT - 1);
}

/* Whether a tree of this many levels reaches key. */
static inline int
radix_reaches(unsigned int levels, uint64_t key)
{
	unsigned int bits = radix_shift(levels);

	return bits >= 64 || (key >> bits) == 0;
}

void
ta_radix_init(struct ta_radix *radix, void *arg)
{
	memset(radix, 0, sizeof(*radix));
	radix->arg = arg;
}

static struct ta_radix_node *
radix_new(struct ta_radix *radix, uint8_t level)
{
	struct ta_radix_node *n = ta_radix_node_alloc(radix->arg, level);

	if (n == NULL)
		return NULL;
	memset(n, 0, TA_RADIX_NODE_SIZE(level));
	n->level = level;
	radix->nb_nodes++;
	return n;
}

static void
radix_del(struct ta_radix *radix, struct ta_radix_node *n)
{
	radix->nb_nodes--;
	ta_radix_node_free(radix->arg, n);
}

/*
 * The nodes missing on the way to key, by level, in the order the path
 * uses them (new top levels first, then downwards), into want[]; *levels
 * receives the height the tree needs. Returns how many are missing.
 */
static unsigned int
radix_missing(const struct ta_radix *radix, uint64_t key,
	      unsigned int *levels, uint8_t want[2 * TA_RADIX_MAX_LEVELS])
{
	const struct ta_radix_node *n;
	unsigned int need = 0, lvl, h;

	h = radix->root == NULL ? 1 : radix->levels;
	while (!radix_reaches(h, key))
		h++;
	*levels = h;
	if (radix->root == NULL) {
		for (lvl = h; lvl-- > 0; )
			want[need++] = lvl;
	} else if (h > radix->levels) {
		/*
		 * New levels on top; h is minimal, so the key's digit at the
		 * new top is not 0 and its path shares nothing below it.
		 */
		for (lvl = radix->levels; lvl < h; lvl++)
			want[need++] = lvl;
		for (lvl = h - 1; lvl-- > 0; )
			want[need++] = lvl;
	} else {
		n = radix->root;
		for (lvl = h - 1; lvl > 0; lvl--) {
			n = n->slot[radix_idx(key, lvl)];
			if (n == NULL) {
				while (lvl-- > 0)
					want[need++] = lvl;
				break;
			}
		}
	}
	return need;
}

/*
 * Slot of key, creating its path; path[level] receives the nodes on it.
 */
static struct ta_link **
radix_slot_path(struct ta_radix *radix, uint64_t key,
		struct ta_radix_node *path[TA_RADIX_MAX_LEVELS])
{
	/* Levels of the nodes to create, in the order they are used. */
	uint8_t want[2 * TA_RADIX_MAX_LEVELS];
	struct ta_radix_node *fresh[2 * TA_RADIX_MAX_LEVELS];
	unsigned int levels, need, used = 0, lvl, i;
	struct ta_radix_node *n;

	/*
	 * List the nodes missing on the way to the key and allocate them all
	 * first: a failure then leaves the tree exactly as it was.
	 */
	fresh[0] = NULL; /* Silences a false maybe-uninitialized warning. */
	need = radix_missing(radix, key, &levels, want);
	for (i = 0; i < need; i++) {
		fresh[i] = radix_new(radix, want[i]);
		if (fresh[i] == NULL) {
			while (i > 0)
				radix_del(radix, fresh[--i]);
			return NULL;
		}
	}
	if (radix->root == NULL) {
		radix->root = fresh[used++];
		radix->levels = levels;
	}
	/* Grow at the top; the old root becomes child 0. */
	while (radix->levels < levels) {
		struct ta_radix_node *top = fresh[used++];

		top->slot[0] = radix->root;
		top->bitmap = radix->root->bitmap != 0 ? 1 : 0;
		radix->root = top;
		radix->levels++;
	}
	n = radix->root;
	for (lvl = radix->levels - 1; lvl > 0; lvl--) {
		unsigned int idx = radix_idx(key, lvl);

		path[lvl] = n;
		if (n->slot[idx] == NULL)
			n->slot[idx] = fresh[used++];
		n = n->slot[idx];
	}
	path[0] = n;
	return (struct ta_link **)&n->slot[radix_idx(key, 0)];
}

struct ta_link **
ta_radix_slot(struct ta_radix *radix, uint64_t key)
{
	struct ta_radix_node *path[TA_RADIX_MAX_LEVELS];

	return radix_slot_path(radix, key, path);
}

/* Fill path[level] with the nodes on key's path; returns 0 if complete. */
static int
radix_path(const struct ta_radix *radix, uint64_t key,
	   struct ta_radix_node *path[TA_RADIX_MAX_LEVELS])
{
	struct ta_radix_node *n = radix->root;
	int lvl;

	if (n == NULL || !radix_reaches(radix->levels, key))
		return -1;
	for (lvl = radix->levels - 1; lvl >= 0; lvl--) {
		path[lvl] = n;
		if (lvl > 0) {
			n = n->slot[radix_idx(key, lvl)];
			if (n == NULL)
				return -1;
		}
	}
	return 0;
}

/* Set key's bits up its path, stopping where they were already set. */
static void
radix_mark_path(struct ta_radix *radix, uint64_t key,
		struct ta_radix_node *const path[TA_RADIX_MAX_LEVELS])
{
	unsigned int lvl;

	radix->nb_keys++;
	for (lvl = 0; lvl < radix->levels; lvl++) {
		uint64_t bit = 1ULL << radix_idx(key, lvl);

		if (path[lvl]->bitmap & bit)
			break;
		path[lvl]->bitmap |= bit;
		/* Above a node that was already non-empty, all is set. */
		if (path[lvl]->bitmap != bit)
			break;
	}
}

void
ta_radix_mark(struct ta_radix *radix, uint64_t key)
{
	struct ta_radix_node *path[TA_RADIX_MAX_LEVELS];

	if (radix_path(radix, key, path) == 0)
		radix_mark_path(radix, key, path);
}

struct ta_link **
ta_radix_find(const struct ta_radix *radix, uint64_t key)
{
	struct ta_radix_node *path[TA_RADIX_MAX_LEVELS];

	if (radix_path(radix, key, path) != 0)
		return NULL;
	return (struct ta_link **)&path[0]->slot[radix_idx(key, 0)];
}

/* Clear key's bits up its path and free the nodes left empty. */
static void
radix_clear_path(struct ta_radix *radix, uint64_t key,
		 struct ta_radix_node *const path[TA_RADIX_MAX_LEVELS])
{
	unsigned int lvl;

	radix->nb_keys--;
	for (lvl = 0; lvl < radix->levels; lvl++) {
		struct ta_radix_node *n = path[lvl];

		n->bitmap &= ~(1ULL << radix_idx(key, lvl));
		if (n->bitmap != 0)
			return;
		/* n holds no key any more: unhook and free it. */
		if (lvl + 1 < radix->levels)
			path[lvl + 1]->slot[radix_idx(key, lvl + 1)] = NULL;
		else
			radix->root = NULL;
		radix_del(radix, n);
	}
	radix->levels = 0;
}

void
ta_radix_clear(struct ta_radix *radix, uint64_t key)
{
	struct ta_radix_node *path[TA_RADIX_MAX_LEVELS];

	if (radix_path(radix, key, path) == 0)
		radix_clear_path(radix, key, path);
}

int
ta_radix_insert(struct ta_radix *radix, uint64_t key, struct ta_link *l)
{
	struct ta_radix_node *path[TA_RADIX_MAX_LEVELS];
	struct ta_link **slot = radix_slot_path(radix, key, path);

	if (slot == NULL)
		return -1;
	if (*slot != NULL) {
		ta_fifo_append(slot, l);
		return 0;
	}
	ta_fifo_append(slot, l);
	radix_mark_path(radix, key, path);
	return 1;
}

int
ta_radix_remove(struct ta_radix *radix, uint64_t key, struct ta_link *l)
{
	struct ta_radix_node *path[TA_RADIX_MAX_LEVELS];
	struct ta_link **slot;

	if (radix_path(radix, key, path) != 0)
		return -1;
	slot = (struct ta_link **)&path[0]->slot[radix_idx(key, 0)];
	if (!ta_fifo_unlink(slot, l))
		return 0;
	radix_clear_path(radix, key, path);
	return 1;
}

struct ta_link *
ta_radix_take(struct ta_radix *radix, uint64_t key)
{
	struct ta_radix_node *path[TA_RADIX_MAX_LEVELS];
	struct ta_link **slot, *head;

	if (radix_path(radix, key, path) != 0)
		return NULL;
	slot = (struct ta_link **)&path[0]->slot[radix_idx(key, 0)];
	head = *slot;
	if (head == NULL)
		return NULL;
	*slot = NULL;
	radix_clear_path(radix, key, path);
	return head;
}

static uint64_t
radix_next_in(const struct ta_radix_node *n, unsigned int lvl, uint64_t base,
	      uint64_t from)
{
	const unsigned int shift = radix_shift(lvl);
	uint64_t f = from > base ? from : base;
	uint64_t bm = n->bitmap & (~0ULL << radix_idx(f, lvl));

	while (bm != 0) {
		unsigned int i = __builtin_ctzll(bm);
		uint64_t kbase = base | ((uint64_t)i << shift);
		uint64_t r;

		if (lvl == 0)
			return kbase;
		r = radix_next_in(n->slot[i], lvl - 1, kbase, f > kbase ? f : kbase);
		if (r != UINT64_MAX)
			return r;
		bm &= bm - 1;
	}
	return UINT64_MAX;
}

uint64_t
ta_radix_next(const struct ta_radix *radix, uint64_t from)
{
	if (radix->root == NULL || !radix_reaches(radix->levels, from))
		return UINT64_MAX;
	return radix_next_in(radix->root, radix->levels - 1, 0, from);
}
