/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_SKIPLIST_H_
#define _TA_SKIPLIST_H_

/**
 * @file
 * Skiplist of tick buckets: the ordered structure of one timer list.
 *
 * Every bucket holds the timers that expire in one tick (its key), as a
 * circular doubly linked FIFO of struct ta_link; the skiplist orders the
 * distinct keys. Each level of the skiplist is a circular doubly linked list
 * through the head sentinel, which buys three O(height) operations that a
 * classic singly linked skiplist must search for:
 * - appending a key greater than the last one (constant timeouts produce
 *   almost only such keys): the predecessors are the level tails;
 * - removing a bucket that became empty after a cancel;
 * - detaching every bucket up to a key (the expired prefix) in one cut.
 *
 * The engine allocates nothing and locks nothing: the caller provides the
 * memory of every bucket and serialises access.
 */

#include <stddef.h>
#include <stdint.h>

/** Highest bucket height; with p = 1/4 it suits up to ~4^12 buckets. */
#define TA_SL_MAX_HEIGHT 12

/** Link of a timer node in its bucket (or of a free node in a free list). */
struct ta_link {
	struct ta_link *next;
	struct ta_link *prev;
};

struct ta_bucket;

/** One level of a bucket: its neighbours on that level. */
struct ta_bucket_level {
	struct ta_bucket *next;
	struct ta_bucket *prev;
};

/** All timers of one expiry tick. */
struct ta_bucket {
	struct ta_link timers;	/**< Sentinel of the FIFO of timer nodes. */
	uint64_t key;		/**< Expiry tick. */
	uint8_t height;		/**< Levels in lv[], 1 .. TA_SL_MAX_HEIGHT. */
	uint8_t detached;	/**< Cut from the skiplist, owned by expiry. */
	uint16_t owner;		/**< Index of the timer list it belongs to. */
	uint32_t reserved;
	struct ta_bucket_level lv[]; /**< Per-level links, height entries. */
};

/** Bytes of a bucket of the given height. */
#define TA_BUCKET_SIZE(h) \
	(sizeof(struct ta_bucket) + (size_t)(h) * sizeof(struct ta_bucket_level))

/** A skiplist; head points to a caller-provided bucket of full height. */
struct ta_skiplist {
	struct ta_bucket *head;	/**< Sentinel, height TA_SL_MAX_HEIGHT. */
	uint64_t rng;		/**< xorshift64 state for bucket heights. */
	uint32_t nb_buckets;	/**< Buckets linked (not counting head). */
	uint8_t height;		/**< Highest level in use + 1 (>= 1). */
};

/**
 * Initialise an empty skiplist.
 *
 * @param sl
 *   The skiplist.
 * @param head
 *   Memory of TA_BUCKET_SIZE(TA_SL_MAX_HEIGHT) bytes for the sentinel.
 * @param seed
 *   Seed of the height generator (any value).
 */
void ta_sl_init(struct ta_skiplist *sl, struct ta_bucket *head, uint64_t seed);

/** Draw the height of a new bucket (geometric, p = 1/4). */
static inline uint8_t
ta_sl_random_height(struct ta_skiplist *sl)
{
	uint64_t x = sl->rng;
	uint8_t h = 1;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	sl->rng = x;
	/* Two random bits per level: continue with probability 1/4. */
	while (h < TA_SL_MAX_HEIGHT && (x & 3) == 0) {
		h++;
		x >>= 2;
	}
	return h;
}

/** First bucket (smallest key), or NULL if the skiplist is empty. */
static inline struct ta_bucket *
ta_sl_first(const struct ta_skiplist *sl)
{
	struct ta_bucket *b = sl->head->lv[0].next;

	return b == sl->head ? NULL : b;
}

/** Last bucket (largest key), or NULL if the skiplist is empty. */
static inline struct ta_bucket *
ta_sl_last(const struct ta_skiplist *sl)
{
	struct ta_bucket *b = sl->head->lv[0].prev;

	return b == sl->head ? NULL : b;
}

/** Next bucket in key order, or NULL after the last one. */
static inline struct ta_bucket *
ta_sl_next(const struct ta_skiplist *sl, const struct ta_bucket *b)
{
	struct ta_bucket *n = b->lv[0].next;

	return n == sl->head ? NULL : n;
}

/**
 * Find the bucket of a key.
 *
 * @param sl
 *   The skiplist.
 * @param key
 *   Key to find.
 * @param preds
 *   Filled, for every level, with the last bucket (or the head) whose key
 *   is smaller than key: what ta_sl_insert() needs if key is absent.
 * @return
 *   The bucket with that key, or NULL.
 */
struct ta_bucket *ta_sl_find(const struct ta_skiplist *sl, uint64_t key,
			     struct ta_bucket *preds[TA_SL_MAX_HEIGHT]);

/**
 * Link a new bucket after a ta_sl_find() of its key that returned NULL.
 *
 * @param sl
 *   The skiplist.
 * @param b
 *   The bucket; key and height must be set.
 * @param preds
 *   The predecessors filled by ta_sl_find().
 */
void ta_sl_insert(struct ta_skiplist *sl, struct ta_bucket *b,
		  struct ta_bucket *const preds[TA_SL_MAX_HEIGHT]);

/** Unlink a bucket from every level, in O(height). */
void ta_sl_remove(struct ta_skiplist *sl, struct ta_bucket *b);

/**
 * Detach every bucket whose key is <= key.
 *
 * The detached buckets stay chained through lv[0] in key order, from *first
 * to *last (last->lv[0].next is set to NULL); their other levels are stale.
 *
 * @return
 *   Number of buckets detached (0: first and last are set to NULL).
 */
uint32_t ta_sl_cut(struct ta_skiplist *sl, uint64_t key,
		   struct ta_bucket **first, struct ta_bucket **last);

/** Initialise a bucket's timer FIFO. */
static inline void
ta_bucket_init_timers(struct ta_bucket *b)
{
	b->timers.next = &b->timers;
	b->timers.prev = &b->timers;
}

/** Whether a bucket holds no timer. */
static inline int
ta_bucket_empty(const struct ta_bucket *b)
{
	return b->timers.next == &b->timers;
}

/** Append a timer link at the tail of a bucket's FIFO. */
static inline void
ta_bucket_append(struct ta_bucket *b, struct ta_link *l)
{
	struct ta_link *tail = b->timers.prev;

	l->next = &b->timers;
	l->prev = tail;
	tail->next = l;
	b->timers.prev = l;
}

/** Unlink a timer link from whatever bucket FIFO holds it. */
static inline void
ta_link_unlink(struct ta_link *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
}

#endif /* _TA_SKIPLIST_H_ */
