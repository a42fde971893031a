/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#include <string.h>

#include "ta_skiplist.h"

void
ta_sl_init(struct ta_skiplist *sl, struct ta_bucket *head, uint64_t seed)
{
	unsigned int l;

	memset(head, 0, TA_BUCKET_SIZE(TA_SL_MAX_HEIGHT));
	head->height = TA_SL_MAX_HEIGHT;
	ta_bucket_init_timers(head);
	for (l = 0; l < TA_SL_MAX_HEIGHT; l++) {
		head->lv[l].next = head;
		head->lv[l].prev = head;
	}
	sl->head = head;
	/* xorshift must not start at 0, or it stays there. */
	sl->rng = seed != 0 ? seed : 0x9e3779b97f4a7c15ULL;
	sl->nb_buckets = 0;
	sl->height = 1;
}

struct ta_bucket *
ta_sl_find(const struct ta_skiplist *sl, uint64_t key,
	   struct ta_bucket *preds[TA_SL_MAX_HEIGHT])
{
	struct ta_bucket *head = sl->head;
	struct ta_bucket *last = head->lv[0].prev;
	struct ta_bucket *x, *n;
	int l;

	/*
	 * Tail fast path: a key beyond the last one (the common case of
	 * constant timeouts) has every level's tail as predecessor.
	 */
	if (last == head || key > last->key) {
		for (l = 0; l < TA_SL_MAX_HEIGHT; l++)
			preds[l] = head->lv[l].prev;
		return NULL;
	}
	if (key == last->key)
		return last;

	x = head;
	for (l = TA_SL_MAX_HEIGHT - 1; l >= sl->height; l--)
		preds[l] = head;
	for (l = sl->height - 1; l >= 0; l--) {
		for (;;) {
			n = x->lv[l].next;
			if (n == head || n->key >= key)
				break;
			x = n;
		}
		preds[l] = x;
	}
	n = x->lv[0].next;
	return (n != head && n->key == key) ? n : NULL;
}

void
ta_sl_insert(struct ta_skiplist *sl, struct ta_bucket *b,
	     struct ta_bucket *const preds[TA_SL_MAX_HEIGHT])
{
	unsigned int l;

	for (l = 0; l < b->height; l++) {
		struct ta_bucket *p = preds[l];
		struct ta_bucket *n = p->lv[l].next;

		b->lv[l].prev = p;
		b->lv[l].next = n;
		p->lv[l].next = b;
		n->lv[l].prev = b;
	}
	if (b->height > sl->height)
		sl->height = b->height;
	b->detached = 0;
	sl->nb_buckets++;
}

void
ta_sl_remove(struct ta_skiplist *sl, struct ta_bucket *b)
{
	unsigned int l;

	for (l = 0; l < b->height; l++) {
		b->lv[l].prev->lv[l].next = b->lv[l].next;
		b->lv[l].next->lv[l].prev = b->lv[l].prev;
	}
	sl->nb_buckets--;
	/* Keep searches short: drop levels that became empty. */
	while (sl->height > 1 &&
	       sl->head->lv[sl->height - 1].next == sl->head)
		sl->height--;
}

uint32_t
ta_sl_cut(struct ta_skiplist *sl, uint64_t key, struct ta_bucket **first,
	  struct ta_bucket **last)
{
	struct ta_bucket *head = sl->head;
	struct ta_bucket *x = head, *n, *b, *old_first;
	uint32_t count = 0;
	int l;

	*first = NULL;
	*last = NULL;
	old_first = head->lv[0].next;
	if (old_first == head || old_first->key > key)
		return 0;

	/*
	 * On each level from the top, x advances to the last bucket with a
	 * key <= key; everything before x's successor on that level is cut.
	 */
	for (l = sl->height - 1; l >= 0; l--) {
		for (;;) {
			n = x->lv[l].next;
			if (n == head || n->key > key)
				break;
			x = n;
		}
		if (x != head) {
			head->lv[l].next = n;
			n->lv[l].prev = head;
		}
	}
	/*
	 * Level 0 still chains the cut buckets from the old first one to x;
	 * mark them so that cancel leaves their timers to the expiry path.
	 */
	for (b = old_first; ; b = b->lv[0].next) {
		b->detached = 1;
		count++;
		if (b == x)
			break;
	}
	*first = old_first;
	*last = x;
	x->lv[0].next = NULL;
	old_first->lv[0].prev = NULL;
	sl->nb_buckets -= count;
	while (sl->height > 1 &&
	       head->lv[sl->height - 1].next == head)
		sl->height--;
	return count;
}
