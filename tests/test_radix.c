/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Suite "radix": the tick index engine against a reference model (a sorted
 * array of distinct keys, each with the timers of its FIFO in order).
 * Pure C: the engine needs no EAL.
 */

#include <stdint.h>
#include <stdlib.h>

#include "ta_radix.h"
#include "tp_test.h"


/* A test timer: a link plus the key it was inserted under. */
struct radix_timer {
	struct ta_link link;
	uint64_t key;
};

struct radix_model {
	uint64_t *keys;		/* Sorted, distinct. */
	uint32_t *count;	/* Timers under each key. */
	uint32_t n;
	uint32_t cap;
};

static uint64_t radix_rng = 0x853c49e6748fea9bULL;
static unsigned int radix_fail_every;	/* Allocation fault injection. */
static unsigned int radix_alloc_calls;
static long radix_live_nodes;

static uint64_t
radix_rand(void)
{
	radix_rng ^= radix_rng << 13;
	radix_rng ^= radix_rng >> 7;
	radix_rng ^= radix_rng << 17;
	return radix_rng;
}

struct ta_radix_node *
ta_radix_node_alloc(void *arg, uint8_t level)
{
	(void)arg;
	radix_alloc_calls++;
	if (radix_fail_every != 0 && radix_alloc_calls % radix_fail_every == 0)
		return NULL;
	radix_live_nodes++;
	return malloc(TA_RADIX_NODE_SIZE(level));
}

void
ta_radix_node_free(void *arg, struct ta_radix_node *n)
{
	(void)arg;
	radix_live_nodes--;
	free(n);
}

static uint32_t
model_lower(const struct radix_model *m, uint64_t key)
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
model_add(struct radix_model *m, uint64_t key)
{
	uint32_t pos = model_lower(m, key);

	if (pos < m->n && m->keys[pos] == key) {
		m->count[pos]++;
		return;
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->keys = realloc(m->keys, m->cap * sizeof(*m->keys));
		m->count = realloc(m->count, m->cap * sizeof(*m->count));
		if (m->keys == NULL || m->count == NULL)
			abort();
	}
	memmove(&m->keys[pos + 1], &m->keys[pos], (m->n - pos) * sizeof(uint64_t));
	memmove(&m->count[pos + 1], &m->count[pos],
		(m->n - pos) * sizeof(uint32_t));
	m->keys[pos] = key;
	m->count[pos] = 1;
	m->n++;
}

static void
model_del(struct radix_model *m, uint32_t pos)
{
	memmove(&m->keys[pos], &m->keys[pos + 1],
		(m->n - pos - 1) * sizeof(uint64_t));
	memmove(&m->count[pos], &m->count[pos + 1],
		(m->n - pos - 1) * sizeof(uint32_t));
	m->n--;
}

/*
 * Insert one timer under key, through ta_radix_insert() or, every other time,
 * the slot/mark primitives; returns 0, or -1 on allocation failure.
 */
static int
radix_insert(struct ta_radix *radix, struct radix_model *m, uint64_t key)
{
	uint32_t pos = model_lower(m, key);
	int is_new = !(pos < m->n && m->keys[pos] == key);
	struct radix_timer *t = malloc(sizeof(*t));
	struct ta_link **slot;
	int ret;

	if (t == NULL)
		abort();
	t->key = key;
	if (radix_rand() & 1) {
		ret = ta_radix_insert(radix, key, &t->link);
		if (ret < 0) {
			free(t);
			return -1;
		}
		TP_ASSERT_EQ(ret, is_new, "insert reports a new key");
	} else {
		slot = ta_radix_slot(radix, key);
		if (slot == NULL) {
			free(t);
			return -1;
		}
		TP_ASSERT_EQ(*slot == NULL, is_new, "slot empty iff new key");
		ta_fifo_append(slot, &t->link);
		if (is_new)
			ta_radix_mark(radix, key);
	}
	model_add(m, key);
	return 0;
}

/* Remove every timer of the key at model position pos. */
static int radix_take_key(struct ta_radix *radix, uint64_t key, uint32_t expect);

static int
radix_remove_key(struct ta_radix *radix, struct radix_model *m, uint32_t pos)
{
	if (radix_take_key(radix, m->keys[pos], m->count[pos]) != TP_TEST_OK)
		return TP_TEST_FAIL;
	model_del(m, pos);
	return TP_TEST_OK;
}

static int
radix_check_next(const struct ta_radix *radix, const struct radix_model *m,
		 uint64_t from)
{
	uint32_t pos = model_lower(m, from);
	uint64_t want = pos < m->n ? m->keys[pos] : UINT64_MAX;

	TP_ASSERT_EQ(ta_radix_next(radix, from), want, "next(%" PRIu64 ")", from);
	return TP_TEST_OK;
}

/* Walk every key with next() and compare with the model. */
static int
radix_check_all(const struct ta_radix *radix, const struct radix_model *m)
{
	uint64_t k = 0;
	uint32_t i;

	TP_ASSERT_EQ(radix->nb_keys, m->n, "key count");
	for (i = 0; i < m->n; i++) {
		k = ta_radix_next(radix, k);
		TP_ASSERT(k == m->keys[i], "key %u: %" PRIu64 " != %" PRIu64,
			  i, k, m->keys[i]);
		if (k == UINT64_MAX)
			break;
		k++;
	}
	if (m->n == 0 || m->keys[m->n - 1] != UINT64_MAX)
		TP_ASSERT_EQ(ta_radix_next(radix, k), UINT64_MAX, "no key after last");
	return TP_TEST_OK;
}

/*
 * Empty the FIFO of a key and delete it, checking its timers: one of three
 * ways, in turn (take the whole FIFO, remove timer by timer, or unlink
 * through the slot and clear).
 */
static int
radix_take_key(struct ta_radix *radix, uint64_t key, uint32_t expect)
{
	static unsigned int way;
	struct ta_link **slot = ta_radix_find(radix, key);
	uint32_t n = 0;

	TP_ASSERT(slot != NULL && *slot != NULL, "key %" PRIu64 " missing", key);
	switch (way++ % 3) {
	case 0: {
		struct ta_link *h = ta_radix_take(radix, key), *l = h;

		TP_ASSERT(h != NULL, "take");
		do {
			struct radix_timer *t = (struct radix_timer *)l;

			TP_ASSERT(t->key == key, "timer under the wrong key");
			l = l->next;
			free(t);
			n++;
		} while (l != h);
		break;
	}
	case 1:
		while (n + 1 < expect) {
			struct radix_timer *t = (struct radix_timer *)(*slot)->next;

			TP_ASSERT(t->key == key, "timer under the wrong key");
			TP_ASSERT_EQ(ta_radix_remove(radix, key, &t->link), 0,
				     "key kept while timers remain");
			free(t);
			n++;
		}
		{
			struct radix_timer *t = (struct radix_timer *)*slot;

			TP_ASSERT_EQ(ta_radix_remove(radix, key, &t->link), 1,
				     "key deleted with its last timer");
			free(t);
			n++;
		}
		break;
	default:
		while (*slot != NULL) {
			struct radix_timer *t = (struct radix_timer *)*slot;

			TP_ASSERT(t->key == key, "timer under the wrong key");
			ta_fifo_unlink(slot, &t->link);
			free(t);
			n++;
		}
		ta_radix_clear(radix, key);
		break;
	}
	TP_ASSERT_EQ(n, expect, "timers under key %" PRIu64, key);
	TP_ASSERT(ta_radix_find(radix, key) == NULL || *ta_radix_find(radix, key) == NULL,
		  "key still present");
	return TP_TEST_OK;
}

/* Cut every key <= t, as the service does; checks the order. */
static int
radix_cut(struct ta_radix *radix, struct radix_model *m, uint64_t t)
{
	uint64_t k = 0;
	uint32_t i = 0;

	for (;;) {
		k = ta_radix_next(radix, k);
		if (k == UINT64_MAX || k > t)
			break;
		TP_ASSERT(i < m->n && m->keys[i] == k,
			  "cut out of order at %" PRIu64, k);
		if (radix_take_key(radix, k, m->count[i]) != TP_TEST_OK)
			return TP_TEST_FAIL;
		i++;
		if (k == UINT64_MAX)
			break;
		k++;
	}
	if (i > 0) {
		memmove(m->keys, &m->keys[i], (m->n - i) * sizeof(uint64_t));
		memmove(m->count, &m->count[i], (m->n - i) * sizeof(uint32_t));
		m->n -= i;
	}
	TP_ASSERT(m->n == 0 || m->keys[0] > t, "cut left a due key");
	return TP_TEST_OK;
}

static void
radix_model_free(struct radix_model *m)
{
	free(m->keys);
	free(m->count);
	memset(m, 0, sizeof(*m));
}

static int
radix_drain(struct ta_radix *radix, struct radix_model *m)
{
	while (m->n > 0)
		if (radix_remove_key(radix, m, m->n - 1) != TP_TEST_OK)
			return TP_TEST_FAIL;
	TP_ASSERT(radix->root == NULL, "root left after draining");
	TP_ASSERT_EQ(radix->nb_nodes, 0, "nodes left after draining");
	TP_ASSERT_EQ(radix_live_nodes, 0, "nodes leaked");
	return TP_TEST_OK;
}

static int
test_empty(void)
{
	struct ta_radix radix;

	ta_radix_init(&radix, NULL);
	TP_ASSERT_EQ(ta_radix_next(&radix, 0), UINT64_MAX, "next in empty");
	TP_ASSERT(ta_radix_find(&radix, 42) == NULL, "find in empty");
	TP_ASSERT_EQ(radix.nb_nodes, 0, "nodes");
	return TP_TEST_OK;
}

/* Equal keys share one FIFO, in order; unlink from head, middle, tail. */
static int
test_equal_keys_fifo(void)
{
	struct radix_timer t[6];
	struct ta_radix radix;
	struct ta_link **slot, *l;
	unsigned int i;

	ta_radix_init(&radix, NULL);
	for (i = 0; i < 6; i++) {
		slot = ta_radix_slot(&radix, 777);
		TP_ASSERT(slot != NULL, "slot");
		if (*slot == NULL) {
			ta_fifo_append(slot, &t[i].link);
			ta_radix_mark(&radix, 777);
		} else {
			ta_fifo_append(slot, &t[i].link);
		}
	}
	TP_ASSERT_EQ(radix.nb_keys, 1, "one distinct key");
	slot = ta_radix_find(&radix, 777);
	for (i = 0, l = *slot; i < 6; i++, l = l->next)
		TP_ASSERT(l == &t[i].link, "order at %u", i);
	TP_ASSERT(l == *slot, "circular");
	TP_ASSERT_EQ(ta_fifo_unlink(slot, &t[0].link), 0, "head");
	TP_ASSERT(*slot == &t[1].link, "new head");
	TP_ASSERT_EQ(ta_fifo_unlink(slot, &t[3].link), 0, "middle");
	TP_ASSERT_EQ(ta_fifo_unlink(slot, &t[5].link), 0, "tail");
	TP_ASSERT((*slot)->prev == &t[4].link, "tail after unlink");
	TP_ASSERT_EQ(ta_fifo_unlink(slot, &t[1].link), 0, "1");
	TP_ASSERT_EQ(ta_fifo_unlink(slot, &t[2].link), 0, "2");
	TP_ASSERT_EQ(ta_fifo_unlink(slot, &t[4].link), 1, "last");
	TP_ASSERT(*slot == NULL, "empty");
	ta_radix_clear(&radix, 777);
	TP_ASSERT(radix.root == NULL && radix.nb_nodes == 0, "tree freed");
	return TP_TEST_OK;
}

/* Keys at the ends of the range and growth from 1 to 11 levels. */
static int
test_extreme_keys(void)
{
	static const uint64_t keys[] = {
		0, 1, 63, 64, 4095, 4096, 1ULL << 30, (1ULL << 36) - 1,
		1ULL << 59, (1ULL << 60) + 5, UINT64_MAX - 1, UINT64_MAX,
	};
	struct radix_model m = { 0 };
	struct ta_radix radix;
	unsigned int i;

	ta_radix_init(&radix, NULL);
	for (i = 0; i < TP_TEST_DIM(keys); i++) {
		TP_ASSERT(radix_insert(&radix, &m, keys[i]) == 0, "insert");
		TP_ASSERT(radix_check_all(&radix, &m) == TP_TEST_OK, "after %u", i);
	}
	TP_ASSERT_EQ(radix.levels, TA_RADIX_MAX_LEVELS, "full height");
	for (i = 0; i < TP_TEST_DIM(keys); i++) {
		TP_ASSERT(radix_check_next(&radix, &m, keys[i]) == TP_TEST_OK, "at");
		if (keys[i] != UINT64_MAX)
			TP_ASSERT(radix_check_next(&radix, &m, keys[i] + 1) ==
				  TP_TEST_OK, "after");
	}
	/* Remove from the middle out, checking as we go. */
	while (m.n > 0) {
		TP_ASSERT(radix_remove_key(&radix, &m, m.n / 2) == TP_TEST_OK, "rm");
		TP_ASSERT(radix_check_all(&radix, &m) == TP_TEST_OK, "after rm");
	}
	TP_ASSERT(radix_drain(&radix, &m) == TP_TEST_OK, "drain");
	radix_model_free(&m);
	return TP_TEST_OK;
}

/* Random insert / remove / next / cut mix around a moving "now". */
static int
radix_random_run(unsigned int ops, uint64_t horizon, uint64_t start)
{
	struct radix_model m = { 0 };
	struct ta_radix radix;
	uint64_t now = start;
	unsigned int i;

	ta_radix_init(&radix, NULL);
	for (i = 0; i < ops; i++) {
		unsigned int op = radix_rand() % 100;

		if (op < 55) {
			uint64_t key = now + 1 + radix_rand() % horizon;

			if (op < 10 && m.n > 0)	/* Equal keys. */
				key = m.keys[radix_rand() % m.n];
			TP_ASSERT(radix_insert(&radix, &m, key) == 0, "insert");
		} else if (op < 80) {
			if (m.n > 0 && radix_remove_key(&radix, &m, radix_rand() % m.n)
				       != TP_TEST_OK)
				return TP_TEST_FAIL;
		} else if (op < 95) {
			if (radix_check_next(&radix, &m, now + radix_rand() % (horizon + 2))
			    != TP_TEST_OK)
				return TP_TEST_FAIL;
		} else {
			now += radix_rand() % (horizon / 4 + 1);
			if (radix_cut(&radix, &m, now) != TP_TEST_OK)
				return TP_TEST_FAIL;
		}
		TP_ASSERT_EQ(radix.nb_keys, m.n, "key count after op %u", i);
	}
	TP_ASSERT(radix_check_all(&radix, &m) == TP_TEST_OK, "final");
	TP_ASSERT(radix_drain(&radix, &m) == TP_TEST_OK, "drain");
	radix_model_free(&m);
	return TP_TEST_OK;
}

static int
test_random_dense(void)
{
	unsigned int run;

	for (run = 0; run < 20; run++)
		TP_ASSERT(radix_random_run(3000, 200, run * 1000) == TP_TEST_OK,
			  "run %u", run);
	return TP_TEST_OK;
}

static int
test_random_sparse(void)
{
	/* Ticks of 10 us with deadlines up to 180 s, an uptime of days. */
	return radix_random_run(60000, 18000000, 30000000000ULL);
}

/* Allocation failures leave the tree as it was; nothing leaks. */
static int
test_alloc_failure(void)
{
	struct radix_model m = { 0 };
	struct ta_radix radix;
	unsigned int i, failed = 0;

	ta_radix_init(&radix, NULL);
	radix_fail_every = 3;
	for (i = 0; i < 5000; i++) {
		uint64_t key = radix_rand() % (1ULL << (6 + radix_rand() % 50));

		if (radix_insert(&radix, &m, key) != 0)
			failed++;
		if (i % 250 == 0)
			TP_ASSERT(radix_check_all(&radix, &m) == TP_TEST_OK,
				  "after %u", i);
	}
	radix_fail_every = 0;
	TP_ASSERT(failed > 100, "only %u injected failures", failed);
	TP_ASSERT_EQ(radix.nb_nodes, radix_live_nodes, "node count");
	TP_ASSERT(radix_check_all(&radix, &m) == TP_TEST_OK, "final");
	TP_ASSERT(radix_drain(&radix, &m) == TP_TEST_OK, "drain");
	radix_model_free(&m);
	return TP_TEST_OK;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Large N: 300,000 timers with random deadlines, then cut in steps. The
 * model is built by sorting once (inserting into a sorted array one by one
 * would be quadratic).
 */
static int
test_large(void)
{
	const uint64_t now = 8600000000ULL; /* One day of 10-us ticks. */
	const unsigned int n = 300000;
	struct radix_model m = { 0 };
	struct ta_radix radix;
	uint64_t t, *keys = malloc(n * sizeof(*keys));
	unsigned int i;

	TP_ASSERT(keys != NULL, "alloc");
	ta_radix_init(&radix, NULL);
	for (i = 0; i < n; i++) {
		struct ta_link **slot;
		struct radix_timer *tm = malloc(sizeof(*tm));

		keys[i] = now + 1 + radix_rand() % 6000000;
		slot = ta_radix_slot(&radix, keys[i]);
		TP_ASSERT(slot != NULL && tm != NULL, "insert");
		tm->key = keys[i];
		if (*slot == NULL) {
			ta_fifo_append(slot, &tm->link);
			ta_radix_mark(&radix, keys[i]);
		} else {
			ta_fifo_append(slot, &tm->link);
		}
	}
	qsort(keys, n, sizeof(*keys), cmp_u64);
	m.keys = malloc(n * sizeof(*m.keys));
	m.count = malloc(n * sizeof(*m.count));
	TP_ASSERT(m.keys != NULL && m.count != NULL, "alloc");
	for (i = 0; i < n; i++) {
		if (m.n > 0 && m.keys[m.n - 1] == keys[i]) {
			m.count[m.n - 1]++;
			continue;
		}
		m.keys[m.n] = keys[i];
		m.count[m.n++] = 1;
	}
	m.cap = n;
	free(keys);
	TP_ASSERT(radix_check_all(&radix, &m) == TP_TEST_OK, "structure");
	/* Cuts remove from the front: keep the model's front O(1). */
	for (t = now; m.n > 0; t += 750000)
		TP_ASSERT(radix_cut(&radix, &m, t) == TP_TEST_OK, "cut %" PRIu64, t);
	TP_ASSERT(radix.root == NULL && radix_live_nodes == 0, "tree freed");
	radix_model_free(&m);
	return TP_TEST_OK;
}

static const struct tp_test_case radix_cases[] = {
	{ "empty", test_empty },
	{ "equal_keys_share_fifo", test_equal_keys_fifo },
	{ "extreme_keys_and_growth", test_extreme_keys },
	{ "random_ops_dense_keys", test_random_dense },
	{ "random_ops_sparse_keys", test_random_sparse },
	{ "alloc_failure_no_leak", test_alloc_failure },
	{ "large_n_300k_cut", test_large },
};

TP_TEST_MAIN("radix", radix_cases)
