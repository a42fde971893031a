/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "skiplist": the tick-bucket skiplist engine against a reference
 * model (a sorted array of distinct keys, each with a count of timers).
 * Pure C: the engine needs no EAL.
 */

#include <stdint.h>
#include <stdlib.h>

#include "ta_skiplist.h"
#include "tp_test.h"

#define SL_DIM(a) (sizeof(a) / sizeof((a)[0]))

/* A bucket plus the timers it holds, allocated with malloc. */
struct sl_test_bucket {
	struct ta_bucket *b;
	uint32_t nb_timers;
};

/* Reference model: sorted distinct keys, with the engine's bucket. */
struct sl_model {
	uint64_t *keys;
	struct ta_bucket **buckets;
	uint32_t n;
	uint32_t cap;
};

static uint64_t sl_rng = 88172645463325252ULL;

static uint64_t
sl_rand(void)
{
	sl_rng ^= sl_rng << 13;
	sl_rng ^= sl_rng >> 7;
	sl_rng ^= sl_rng << 17;
	return sl_rng;
}

static struct ta_bucket *
sl_bucket_new(uint64_t key, uint8_t height)
{
	struct ta_bucket *b = calloc(1, TA_BUCKET_SIZE(height));

	if (b == NULL)
		abort();
	b->key = key;
	b->height = height;
	ta_bucket_init_timers(b);
	return b;
}

/* Index of the first model key >= key. */
static uint32_t
sl_model_lower(const struct sl_model *m, uint64_t key)
{
	uint32_t lo = 0, hi = m->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
sl_model_insert(struct sl_model *m, uint32_t pos, uint64_t key,
		struct ta_bucket *b)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->keys = realloc(m->keys, m->cap * sizeof(*m->keys));
		m->buckets = realloc(m->buckets, m->cap * sizeof(*m->buckets));
		if (m->keys == NULL || m->buckets == NULL)
			abort();
	}
	memmove(&m->keys[pos + 1], &m->keys[pos],
		(m->n - pos) * sizeof(*m->keys));
	memmove(&m->buckets[pos + 1], &m->buckets[pos],
		(m->n - pos) * sizeof(*m->buckets));
	m->keys[pos] = key;
	m->buckets[pos] = b;
	m->n++;
}

static void
sl_model_erase(struct sl_model *m, uint32_t pos, uint32_t count)
{
	memmove(&m->keys[pos], &m->keys[pos + count],
		(m->n - pos - count) * sizeof(*m->keys));
	memmove(&m->buckets[pos], &m->buckets[pos + count],
		(m->n - pos - count) * sizeof(*m->buckets));
	m->n -= count;
}

static void
sl_model_free(struct sl_model *m)
{
	uint32_t i;

	for (i = 0; i < m->n; i++)
		free(m->buckets[i]);
	free(m->keys);
	free(m->buckets);
	memset(m, 0, sizeof(*m));
}

/* Insert key (find-or-insert as the adapter does); returns the bucket. */
static struct ta_bucket *
sl_get(struct ta_skiplist *sl, struct sl_model *m, uint64_t key)
{
	struct ta_bucket *preds[TA_SL_MAX_HEIGHT];
	struct ta_bucket *b = ta_sl_find(sl, key, preds);
	uint32_t pos = sl_model_lower(m, key);

	if (b != NULL)
		return b;
	b = sl_bucket_new(key, ta_sl_random_height(sl));
	ta_sl_insert(sl, b, preds);
	sl_model_insert(m, pos, key, b);
	return b;
}

/* Full structural check of every level against the model. */
static int
sl_check(const struct ta_skiplist *sl, const struct sl_model *m)
{
	const struct ta_bucket *head = sl->head;
	uint32_t i, l;

	TP_ASSERT_EQ(sl->nb_buckets, m->n, "bucket count");
	/* Level 0 holds exactly the model's keys in order, both ways. */
	{
		const struct ta_bucket *b = head->lv[0].next;

		for (i = 0; i < m->n; i++, b = b->lv[0].next) {
			TP_ASSERT(b != head, "level 0 too short at %u", i);
			TP_ASSERT(b == m->buckets[i], "bucket %u differs", i);
			TP_ASSERT(b->lv[0].next->lv[0].prev == b,
				  "prev link broken at %u", i);
			TP_ASSERT(!b->detached, "live bucket marked detached");
		}
		TP_ASSERT(b == head, "level 0 too long");
	}
	/* Higher levels are ordered sublists of the buckets that tall. */
	for (l = 1; l < TA_SL_MAX_HEIGHT; l++) {
		const struct ta_bucket *b = head->lv[l].next;
		uint32_t j = 0, walked = 0, tall;

		for (; b != head; b = b->lv[l].next, walked++) {
			while (j < m->n && m->buckets[j] != b)
				j++;
			TP_ASSERT(j < m->n, "level %u out of order", l);
			TP_ASSERT(b->height > l, "bucket too short for level %u", l);
			TP_ASSERT(b->lv[l].next->lv[l].prev == b,
				  "level %u prev broken", l);
			j++;
		}
		/* Ordered, tall enough and as many as the model: the same. */
		for (i = 0, tall = 0; i < m->n; i++)
			tall += m->buckets[i]->height > l;
		TP_ASSERT_EQ(walked, tall, "level %u bucket count", l);
	}
	if (m->n > 0) {
		TP_ASSERT(ta_sl_first(sl) == m->buckets[0], "first");
		TP_ASSERT(ta_sl_last(sl) == m->buckets[m->n - 1], "last");
	} else {
		TP_ASSERT(ta_sl_first(sl) == NULL && ta_sl_last(sl) == NULL,
			  "empty list has a first bucket");
	}
	return TP_TEST_OK;
}

static int
sl_new(struct ta_skiplist *sl, uint64_t seed)
{
	struct ta_bucket *head = malloc(TA_BUCKET_SIZE(TA_SL_MAX_HEIGHT));

	if (head == NULL)
		return -1;
	ta_sl_init(sl, head, seed);
	return 0;
}

static int
test_empty(void)
{
	struct ta_skiplist sl;
	struct sl_model m = { 0 };
	struct ta_bucket *preds[TA_SL_MAX_HEIGHT], *f, *l;

	TP_ASSERT(sl_new(&sl, 1) == 0, "alloc");
	TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK, "empty structure");
	TP_ASSERT(ta_sl_find(&sl, 5, preds) == NULL, "find in empty");
	TP_ASSERT_EQ(ta_sl_cut(&sl, UINT64_MAX, &f, &l), 0, "cut empty");
	TP_ASSERT(f == NULL && l == NULL, "cut outputs");
	free(sl.head);
	return TP_TEST_OK;
}

/* Equal keys share one bucket; timers keep FIFO order inside it. */
static int
test_equal_keys(void)
{
	struct ta_link links[8];
	struct ta_skiplist sl;
	struct sl_model m = { 0 };
	struct ta_bucket *b, *b2;
	struct ta_link *x;
	unsigned int i;

	TP_ASSERT(sl_new(&sl, 2) == 0, "alloc");
	b = sl_get(&sl, &m, 100);
	for (i = 0; i < 8; i++) {
		b2 = sl_get(&sl, &m, 100);
		TP_ASSERT(b2 == b, "equal key made a second bucket");
		ta_bucket_append(b2, &links[i]);
	}
	TP_ASSERT_EQ(m.n, 1, "one distinct key");
	for (i = 0, x = b->timers.next; x != &b->timers; x = x->next, i++)
		TP_ASSERT(x == &links[i], "FIFO order at %u", i);
	TP_ASSERT_EQ(i, 8, "timers in bucket");
	/* Unlink from the middle, head and tail. */
	ta_link_unlink(&links[3]);
	ta_link_unlink(&links[0]);
	ta_link_unlink(&links[7]);
	for (i = 0, x = b->timers.next; x != &b->timers; x = x->next)
		i++;
	TP_ASSERT_EQ(i, 5, "after unlinks");
	TP_ASSERT(b->timers.next == &links[1] && b->timers.prev == &links[6],
		  "ends after unlinks");
	TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK, "structure");
	sl_model_free(&m);
	free(sl.head);
	return TP_TEST_OK;
}

/* Removing the head bucket repeatedly drains in key order. */
static int
test_remove_head(void)
{
	struct ta_skiplist sl;
	struct sl_model m = { 0 };
	unsigned int i;

	TP_ASSERT(sl_new(&sl, 3) == 0, "alloc");
	for (i = 0; i < 2000; i++)
		sl_get(&sl, &m, sl_rand() % 5000);
	while (m.n > 0) {
		struct ta_bucket *f = ta_sl_first(&sl);

		TP_ASSERT(f == m.buckets[0], "first is the smallest key");
		ta_sl_remove(&sl, f);
		sl_model_erase(&m, 0, 1);
		free(f);
		if (m.n % 97 == 0)
			TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK, "structure");
	}
	TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK, "empty at end");
	TP_ASSERT_EQ(sl.height, 1, "height shrinks back");
	free(sl.head);
	return TP_TEST_OK;
}

/* Cut every key <= k and compare the detached chain with the model. */
static int
sl_cut_check(struct ta_skiplist *sl, struct sl_model *m, uint64_t k)
{
	struct ta_bucket *first, *last, *b;
	uint32_t n = sl_model_lower(m, k + 1), got, i;

	if (k == UINT64_MAX)
		n = m->n;
	got = ta_sl_cut(sl, k, &first, &last);
	TP_ASSERT_EQ(got, n, "cut count at key %" PRIu64, k);
	if (n == 0) {
		TP_ASSERT(first == NULL && last == NULL, "empty cut outputs");
		return TP_TEST_OK;
	}
	TP_ASSERT(first == m->buckets[0] && last == m->buckets[n - 1],
		  "cut ends");
	for (i = 0, b = first; b != NULL; b = b->lv[0].next, i++) {
		TP_ASSERT(i < n, "chain too long");
		TP_ASSERT(b == m->buckets[i], "chain order at %u", i);
		TP_ASSERT(b->detached, "cut bucket not marked");
		TP_ASSERT(b->key <= k, "cut bucket key above the cut");
	}
	TP_ASSERT_EQ(i, n, "chain length");
	for (i = 0; i < n; i++)
		free(m->buckets[i]);
	sl_model_erase(m, 0, n);
	return sl_check(sl, m);
}

static int
test_cut(void)
{
	struct ta_skiplist sl;
	struct sl_model m = { 0 };
	unsigned int i;

	TP_ASSERT(sl_new(&sl, 4) == 0, "alloc");
	TP_ASSERT(sl_cut_check(&sl, &m, 10) == TP_TEST_OK, "empty");
	for (i = 0; i < 3000; i++)
		sl_get(&sl, &m, 1000 + sl_rand() % 100000);
	/* Below every key: nothing. Exactly the first key: one bucket. */
	TP_ASSERT(sl_cut_check(&sl, &m, 999) == TP_TEST_OK, "below all");
	TP_ASSERT(sl_cut_check(&sl, &m, m.keys[0]) == TP_TEST_OK, "first");
	for (i = 0; i < 50 && m.n > 0; i++)
		TP_ASSERT(sl_cut_check(&sl, &m, m.keys[0] + sl_rand() % 4000)
			  == TP_TEST_OK, "prefix %u", i);
	/* Keys inserted after a cut land after the cut point again. */
	for (i = 0; i < 500; i++)
		sl_get(&sl, &m, 200000 + sl_rand() % 1000);
	TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK, "refill");
	TP_ASSERT(sl_cut_check(&sl, &m, UINT64_MAX) == TP_TEST_OK, "all");
	TP_ASSERT_EQ(m.n, 0, "empty after full cut");
	free(sl.head);
	return TP_TEST_OK;
}

/* Random insert / remove / cut mix, checked against the model. */
static int
sl_random_run(unsigned int ops, uint64_t key_range, unsigned int check_every)
{
	struct ta_skiplist sl;
	struct sl_model m = { 0 };
	uint64_t base = 0;
	unsigned int i;

	TP_ASSERT(sl_new(&sl, sl_rand()) == 0, "alloc");
	for (i = 0; i < ops; i++) {
		unsigned int op = sl_rand() % 100;

		if (op < 60) {
			/* Mostly ahead of the cut point, sometimes the tail. */
			uint64_t key = op < 15 && m.n > 0 ?
				m.keys[m.n - 1] + sl_rand() % 3 :
				base + 1 + sl_rand() % key_range;
			struct ta_bucket *b = sl_get(&sl, &m, key);
			uint32_t pos = sl_model_lower(&m, key);

			TP_ASSERT(b->key == key, "bucket key");
			TP_ASSERT(pos < m.n && m.buckets[pos] == b,
				  "model bucket");
		} else if (op < 90) {
			uint32_t pos;

			if (m.n == 0)
				continue;
			pos = sl_rand() % m.n;
			ta_sl_remove(&sl, m.buckets[pos]);
			free(m.buckets[pos]);
			sl_model_erase(&m, pos, 1);
		} else {
			base += sl_rand() % (key_range / 8 + 1);
			if (sl_cut_check(&sl, &m, base) != TP_TEST_OK)
				return TP_TEST_FAIL;
		}
		if (check_every != 0 && i % check_every == 0)
			TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK,
				  "structure after op %u", i);
	}
	TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK, "final structure");
	sl_model_free(&m);
	free(sl.head);
	return TP_TEST_OK;
}

static int
test_random_small(void)
{
	unsigned int seed;

	/* Dense keys: many equal-key hits and heavy churn. */
	for (seed = 0; seed < 20; seed++)
		TP_ASSERT(sl_random_run(3000, 64, 37) == TP_TEST_OK,
			  "run %u", seed);
	return TP_TEST_OK;
}

static int
test_random_sparse(void)
{
	return sl_random_run(50000, 1000000, 4999);
}

/* Large N: 200,000 random keys, then drain by cuts. */
static int
test_large(void)
{
	struct ta_skiplist sl;
	struct sl_model m = { 0 };
	unsigned int i;
	uint64_t k;

	TP_ASSERT(sl_new(&sl, 99) == 0, "alloc");
	for (i = 0; i < 200000; i++)
		sl_get(&sl, &m, sl_rand() % 100000000);
	TP_ASSERT(sl_check(&sl, &m) == TP_TEST_OK, "structure");
	TP_ASSERT(sl.height >= 6, "height %u too low for %u buckets",
		  sl.height, m.n);
	for (k = 0; m.n > 0; k += 25000000)
		TP_ASSERT(sl_cut_check(&sl, &m, k) == TP_TEST_OK, "cut %" PRIu64,
			  k);
	free(sl.head);
	return TP_TEST_OK;
}

/* Heights follow p = 1/4: about 3/4 of buckets have height 1. */
static int
test_heights(void)
{
	struct ta_skiplist sl;
	unsigned int i, count[TA_SL_MAX_HEIGHT + 1] = { 0 };

	sl.rng = 12345;
	for (i = 0; i < 100000; i++) {
		uint8_t h = ta_sl_random_height(&sl);

		TP_ASSERT(h >= 1 && h <= TA_SL_MAX_HEIGHT, "height %u", h);
		count[h]++;
	}
	TP_ASSERT(count[1] > 72000 && count[1] < 78000, "h=1: %u", count[1]);
	TP_ASSERT(count[2] > 17000 && count[2] < 20500, "h=2: %u", count[2]);
	return TP_TEST_OK;
}

static const struct tp_test_case skiplist_cases[] = {
	{ "empty", test_empty },
	{ "equal_keys_share_bucket_fifo", test_equal_keys },
	{ "remove_head_in_order", test_remove_head },
	{ "cut_expired_prefix", test_cut },
	{ "random_ops_dense_keys", test_random_small },
	{ "random_ops_sparse_keys", test_random_sparse },
	{ "large_n_200k", test_large },
	{ "height_distribution", test_heights },
};

int
main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;

	return tp_test_run("skiplist", skiplist_cases,
			   SL_DIM(skiplist_cases), filter) != 0;
}
