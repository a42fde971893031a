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

#define RX_DIM(a) (sizeof(a) / sizeof((a)[0]))

/* A test timer: a link plus the key it was inserted under. */
struct rx_timer {
	struct ta_link link;
	uint64_t key;
};

struct rx_model {
	uint64_t *keys;		/* Sorted, distinct. */
	uint32_t *count;	/* Timers under each key. */
	uint32_t n;
	uint32_t cap;
};

static uint64_t rx_rng = 0x853c49e6748fea9bULL;
static unsigned int rx_fail_every;	/* Allocation fault injection. */
static unsigned int rx_alloc_calls;
static long rx_live_nodes;

static uint64_t
rx_rand(void)
{
	rx_rng ^= rx_rng << 13;
	rx_rng ^= rx_rng >> 7;
	rx_rng ^= rx_rng << 17;
	return rx_rng;
}

struct ta_rx_node *
ta_rx_node_alloc(void *arg, uint8_t level)
{
	(void)arg;
	rx_alloc_calls++;
	if (rx_fail_every != 0 && rx_alloc_calls % rx_fail_every == 0)
		return NULL;
	rx_live_nodes++;
	return malloc(TA_RX_NODE_SIZE(level));
}

void
ta_rx_node_free(void *arg, struct ta_rx_node *n)
{
	(void)arg;
	rx_live_nodes--;
	free(n);
}

static uint32_t
model_lower(const struct rx_model *m, uint64_t key)
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
model_add(struct rx_model *m, uint64_t key)
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
model_del(struct rx_model *m, uint32_t pos)
{
	memmove(&m->keys[pos], &m->keys[pos + 1],
		(m->n - pos - 1) * sizeof(uint64_t));
	memmove(&m->count[pos], &m->count[pos + 1],
		(m->n - pos - 1) * sizeof(uint32_t));
	m->n--;
}

/*
 * Insert one timer under key, through ta_rx_insert() or, every other time,
 * the slot/mark primitives; returns 0, or -1 on allocation failure.
 */
static int
rx_insert(struct ta_radix *rx, struct rx_model *m, uint64_t key)
{
	uint32_t pos = model_lower(m, key);
	int is_new = !(pos < m->n && m->keys[pos] == key);
	struct rx_timer *t = malloc(sizeof(*t));
	struct ta_link **slot;
	int ret;

	if (t == NULL)
		abort();
	t->key = key;
	if (rx_rand() & 1) {
		ret = ta_rx_insert(rx, key, &t->link);
		if (ret < 0) {
			free(t);
			return -1;
		}
		TP_ASSERT_EQ(ret, is_new, "insert reports a new key");
	} else {
		slot = ta_rx_slot(rx, key);
		if (slot == NULL) {
			free(t);
			return -1;
		}
		TP_ASSERT_EQ(*slot == NULL, is_new, "slot empty iff new key");
		ta_fifo_append(slot, &t->link);
		if (is_new)
			ta_rx_mark(rx, key);
	}
	model_add(m, key);
	return 0;
}

/* Remove every timer of the key at model position pos. */
static int rx_take_key(struct ta_radix *rx, uint64_t key, uint32_t expect);

static int
rx_remove_key(struct ta_radix *rx, struct rx_model *m, uint32_t pos)
{
	if (rx_take_key(rx, m->keys[pos], m->count[pos]) != TP_TEST_OK)
		return TP_TEST_FAIL;
	model_del(m, pos);
	return TP_TEST_OK;
}

static int
rx_check_next(const struct ta_radix *rx, const struct rx_model *m,
	      uint64_t from)
{
	uint32_t pos = model_lower(m, from);
	uint64_t want = pos < m->n ? m->keys[pos] : UINT64_MAX;

	TP_ASSERT_EQ(ta_rx_next(rx, from), want, "next(%" PRIu64 ")", from);
	return TP_TEST_OK;
}

/* Walk every key with next() and compare with the model. */
static int
rx_check_all(const struct ta_radix *rx, const struct rx_model *m)
{
	uint64_t k = 0;
	uint32_t i;

	TP_ASSERT_EQ(rx->nb_keys, m->n, "key count");
	for (i = 0; i < m->n; i++) {
		k = ta_rx_next(rx, k);
		TP_ASSERT(k == m->keys[i], "key %u: %" PRIu64 " != %" PRIu64,
			  i, k, m->keys[i]);
		if (k == UINT64_MAX)
			break;
		k++;
	}
	if (m->n == 0 || m->keys[m->n - 1] != UINT64_MAX)
		TP_ASSERT_EQ(ta_rx_next(rx, k), UINT64_MAX, "no key after last");
	return TP_TEST_OK;
}

/*
 * Empty the FIFO of a key and delete it, checking its timers: one of three
 * ways, in turn (take the whole FIFO, remove timer by timer, or unlink
 * through the slot and clear).
 */
static int
rx_take_key(struct ta_radix *rx, uint64_t key, uint32_t expect)
{
	static unsigned int way;
	struct ta_link **slot = ta_rx_find(rx, key);
	uint32_t n = 0;

	TP_ASSERT(slot != NULL && *slot != NULL, "key %" PRIu64 " missing", key);
	switch (way++ % 3) {
	case 0: {
		struct ta_link *h = ta_rx_take(rx, key), *l = h;

		TP_ASSERT(h != NULL, "take");
		do {
			struct rx_timer *t = (struct rx_timer *)l;

			TP_ASSERT(t->key == key, "timer under the wrong key");
			l = l->next;
			free(t);
			n++;
		} while (l != h);
		break;
	}
	case 1:
		while (n + 1 < expect) {
			struct rx_timer *t = (struct rx_timer *)(*slot)->next;

			TP_ASSERT(t->key == key, "timer under the wrong key");
			TP_ASSERT_EQ(ta_rx_remove(rx, key, &t->link), 0,
				     "key kept while timers remain");
			free(t);
			n++;
		}
		{
			struct rx_timer *t = (struct rx_timer *)*slot;

			TP_ASSERT_EQ(ta_rx_remove(rx, key, &t->link), 1,
				     "key deleted with its last timer");
			free(t);
			n++;
		}
		break;
	default:
		while (*slot != NULL) {
			struct rx_timer *t = (struct rx_timer *)*slot;

			TP_ASSERT(t->key == key, "timer under the wrong key");
			ta_fifo_unlink(slot, &t->link);
			free(t);
			n++;
		}
		ta_rx_clear(rx, key);
		break;
	}
	TP_ASSERT_EQ(n, expect, "timers under key %" PRIu64, key);
	TP_ASSERT(ta_rx_find(rx, key) == NULL || *ta_rx_find(rx, key) == NULL,
		  "key still present");
	return TP_TEST_OK;
}

/* Cut every key <= t, as the service does; checks the order. */
static int
rx_cut(struct ta_radix *rx, struct rx_model *m, uint64_t t)
{
	uint64_t k = 0;
	uint32_t i = 0;

	for (;;) {
		k = ta_rx_next(rx, k);
		if (k == UINT64_MAX || k > t)
			break;
		TP_ASSERT(i < m->n && m->keys[i] == k,
			  "cut out of order at %" PRIu64, k);
		if (rx_take_key(rx, k, m->count[i]) != TP_TEST_OK)
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
rx_model_free(struct rx_model *m)
{
	free(m->keys);
	free(m->count);
	memset(m, 0, sizeof(*m));
}

static int
rx_drain(struct ta_radix *rx, struct rx_model *m)
{
	while (m->n > 0)
		if (rx_remove_key(rx, m, m->n - 1) != TP_TEST_OK)
			return TP_TEST_FAIL;
	TP_ASSERT(rx->root == NULL, "root left after draining");
	TP_ASSERT_EQ(rx->nb_nodes, 0, "nodes left after draining");
	TP_ASSERT_EQ(rx_live_nodes, 0, "nodes leaked");
	return TP_TEST_OK;
}

static int
test_empty(void)
{
	struct ta_radix rx;

	ta_rx_init(&rx, NULL);
	TP_ASSERT_EQ(ta_rx_next(&rx, 0), UINT64_MAX, "next in empty");
	TP_ASSERT(ta_rx_find(&rx, 42) == NULL, "find in empty");
	TP_ASSERT_EQ(rx.nb_nodes, 0, "nodes");
	return TP_TEST_OK;
}

/* Equal keys share one FIFO, in order; unlink from head, middle, tail. */
static int
test_equal_keys_fifo(void)
{
	struct rx_timer t[6];
	struct ta_radix rx;
	struct ta_link **slot, *l;
	unsigned int i;

	ta_rx_init(&rx, NULL);
	for (i = 0; i < 6; i++) {
		slot = ta_rx_slot(&rx, 777);
		TP_ASSERT(slot != NULL, "slot");
		if (*slot == NULL) {
			ta_fifo_append(slot, &t[i].link);
			ta_rx_mark(&rx, 777);
		} else {
			ta_fifo_append(slot, &t[i].link);
		}
	}
	TP_ASSERT_EQ(rx.nb_keys, 1, "one distinct key");
	slot = ta_rx_find(&rx, 777);
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
	ta_rx_clear(&rx, 777);
	TP_ASSERT(rx.root == NULL && rx.nb_nodes == 0, "tree freed");
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
	struct rx_model m = { 0 };
	struct ta_radix rx;
	unsigned int i;

	ta_rx_init(&rx, NULL);
	for (i = 0; i < RX_DIM(keys); i++) {
		TP_ASSERT(rx_insert(&rx, &m, keys[i]) == 0, "insert");
		TP_ASSERT(rx_check_all(&rx, &m) == TP_TEST_OK, "after %u", i);
	}
	TP_ASSERT_EQ(rx.levels, TA_RX_MAX_LEVELS, "full height");
	for (i = 0; i < RX_DIM(keys); i++) {
		TP_ASSERT(rx_check_next(&rx, &m, keys[i]) == TP_TEST_OK, "at");
		if (keys[i] != UINT64_MAX)
			TP_ASSERT(rx_check_next(&rx, &m, keys[i] + 1) ==
				  TP_TEST_OK, "after");
	}
	/* Remove from the middle out, checking as we go. */
	while (m.n > 0) {
		TP_ASSERT(rx_remove_key(&rx, &m, m.n / 2) == TP_TEST_OK, "rm");
		TP_ASSERT(rx_check_all(&rx, &m) == TP_TEST_OK, "after rm");
	}
	TP_ASSERT(rx_drain(&rx, &m) == TP_TEST_OK, "drain");
	rx_model_free(&m);
	return TP_TEST_OK;
}

/* Random insert / remove / next / cut mix around a moving "now". */
static int
rx_random_run(unsigned int ops, uint64_t horizon, uint64_t start)
{
	struct rx_model m = { 0 };
	struct ta_radix rx;
	uint64_t now = start;
	unsigned int i;

	ta_rx_init(&rx, NULL);
	for (i = 0; i < ops; i++) {
		unsigned int op = rx_rand() % 100;

		if (op < 55) {
			uint64_t key = now + 1 + rx_rand() % horizon;

			if (op < 10 && m.n > 0)	/* Equal keys. */
				key = m.keys[rx_rand() % m.n];
			TP_ASSERT(rx_insert(&rx, &m, key) == 0, "insert");
		} else if (op < 80) {
			if (m.n > 0 && rx_remove_key(&rx, &m, rx_rand() % m.n)
				       != TP_TEST_OK)
				return TP_TEST_FAIL;
		} else if (op < 95) {
			if (rx_check_next(&rx, &m, now + rx_rand() % (horizon + 2))
			    != TP_TEST_OK)
				return TP_TEST_FAIL;
		} else {
			now += rx_rand() % (horizon / 4 + 1);
			if (rx_cut(&rx, &m, now) != TP_TEST_OK)
				return TP_TEST_FAIL;
		}
		TP_ASSERT_EQ(rx.nb_keys, m.n, "key count after op %u", i);
	}
	TP_ASSERT(rx_check_all(&rx, &m) == TP_TEST_OK, "final");
	TP_ASSERT(rx_drain(&rx, &m) == TP_TEST_OK, "drain");
	rx_model_free(&m);
	return TP_TEST_OK;
}

static int
test_random_dense(void)
{
	unsigned int run;

	for (run = 0; run < 20; run++)
		TP_ASSERT(rx_random_run(3000, 200, run * 1000) == TP_TEST_OK,
			  "run %u", run);
	return TP_TEST_OK;
}

static int
test_random_sparse(void)
{
	/* Ticks of 10 us with deadlines up to 180 s, an uptime of days. */
	return rx_random_run(60000, 18000000, 30000000000ULL);
}

/* Allocation failures leave the tree as it was; nothing leaks. */
static int
test_alloc_failure(void)
{
	struct rx_model m = { 0 };
	struct ta_radix rx;
	unsigned int i, failed = 0;

	ta_rx_init(&rx, NULL);
	rx_fail_every = 3;
	for (i = 0; i < 5000; i++) {
		uint64_t key = rx_rand() % (1ULL << (6 + rx_rand() % 50));

		if (rx_insert(&rx, &m, key) != 0)
			failed++;
		if (i % 250 == 0)
			TP_ASSERT(rx_check_all(&rx, &m) == TP_TEST_OK,
				  "after %u", i);
	}
	rx_fail_every = 0;
	TP_ASSERT(failed > 100, "only %u injected failures", failed);
	TP_ASSERT_EQ(rx.nb_nodes, rx_live_nodes, "node count");
	TP_ASSERT(rx_check_all(&rx, &m) == TP_TEST_OK, "final");
	TP_ASSERT(rx_drain(&rx, &m) == TP_TEST_OK, "drain");
	rx_model_free(&m);
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
	struct rx_model m = { 0 };
	struct ta_radix rx;
	uint64_t t, *keys = malloc(n * sizeof(*keys));
	unsigned int i;

	TP_ASSERT(keys != NULL, "alloc");
	ta_rx_init(&rx, NULL);
	for (i = 0; i < n; i++) {
		struct ta_link **slot;
		struct rx_timer *tm = malloc(sizeof(*tm));

		keys[i] = now + 1 + rx_rand() % 6000000;
		slot = ta_rx_slot(&rx, keys[i]);
		TP_ASSERT(slot != NULL && tm != NULL, "insert");
		tm->key = keys[i];
		if (*slot == NULL) {
			ta_fifo_append(slot, &tm->link);
			ta_rx_mark(&rx, keys[i]);
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
	TP_ASSERT(rx_check_all(&rx, &m) == TP_TEST_OK, "structure");
	/* Cuts remove from the front: keep the model's front O(1). */
	for (t = now; m.n > 0; t += 750000)
		TP_ASSERT(rx_cut(&rx, &m, t) == TP_TEST_OK, "cut %" PRIu64, t);
	TP_ASSERT(rx.root == NULL && rx_live_nodes == 0, "tree freed");
	rx_model_free(&m);
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

int
main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;

	return tp_test_run("radix", radix_cases, RX_DIM(radix_cases),
			   filter) != 0;
}
