/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The return of ended flows' slots (datapath/tp_flow_slot.c), run by
 * pipeline/e2e.sh: the flow table of the pipeline and an RCU reader that
 * reports when told. Slots that ended before a report come back at the
 * next reclaim, those after it do not. Then one and a half times the
 * defer queue's room of slots end with no report, so that batches fill
 * the queue and the rest are parked: none may come back before the
 * reader reports, and after its reports every one must, each once, and
 * the table must take as many keys again. First, the table must have
 * found where rte_hash keeps each position's key (tp_flow_table_key()),
 * and left no probe key behind. Last, the table hands out its positions
 * itself: slots that come back go out again last first, rte_hash's ring
 * back at its start after each add, and filling the table takes every
 * free position once.
 * Prints "flow_slots: N passed, N failed" and exits non-zero on a failure.
 *
 * Usage: flow_slots EAL-ARGS (one lcore, no hugepages is enough).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_hash.h>
#include <rte_lcore.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "tp_ctx.h"
#include "datapath/tp_flow_slot.h"
#include "datapath/tp_flow_table.h"
#include "tp_check.h"

int tp_logtype;

static struct tp_config cfg;
static struct tp_ctx ctx;

/* A key of its own for each i. */
static void
key_of(struct tp_flow_key *k, uint32_t i)
{
	memset(k, 0, sizeof(*k));
	memcpy(k, &i, sizeof(i));
	k->proto = 17;
}

/* The main lcore, the table's one writer. */
static struct tp_lcore *
writer(void)
{
	return &ctx.lc[rte_get_main_lcore()];
}

/* Add key i as RX does: its position, or a negative errno. */
static int32_t
add_key(uint32_t i)
{
	struct tp_flow_key k;

	key_of(&k, i);
	return tp_flow_slot_add(&ctx, writer(), &k,
				rte_hash_hash(ctx.ft.h, &k));
}

/* Key i's flow ended, with no reference left (what tp_flow_finalise()
 * sees): its key leaves the table and its slot is deferred.
 */
static int
end_key(uint32_t i, uint32_t pos)
{
	struct tp_flow_key k;

	key_of(&k, i);
	ctx.ft.entries[pos].ref = (uint32_t)TP_END_IDLE << TP_REF_REASON_SHIFT;
	if (rte_hash_del_key(ctx.ft.h, &k) < 0)
		return -1;
	tp_flow_slot_defer(&ctx, pos);
	return 0;
}

/*
 * Where the table says each position's key is, for n keys added: where
 * rte_hash says, holding that key. The slots come back (no reader yet).
 */
static void
check_key_store(uint32_t n)
{
	struct tp_flow_table *ft = &ctx.ft;
	uint32_t i, same = 0;
	struct tp_flow_key k;
	void *asked;
	int32_t p;

	CHECK(ft->key_stride != 0, "rte_hash's key store not found");
	CHECK(rte_hash_count(ft->h) == 0 || ft->lifo,
	      "%d keys in the new table", rte_hash_count(ft->h));
	for (i = 0; i < n; i++) {
		key_of(&k, i);
		p = add_key(i);
		if (p < 0)
			break;
		same += rte_hash_get_key_with_position(ft->h, p, &asked) == 0 &&
			tp_flow_table_key(ft, (uint32_t)p) == asked &&
			memcmp(asked, &k, sizeof(k)) == 0;
		if (end_key(i, (uint32_t)p) < 0)
			break;
	}
	CHECK(same == n, "%u of %u keys where rte_hash keeps them", same, n);
	tp_flow_slot_reclaim(&ctx);
	CHECK(ft->reclaimed == n, "%" PRIu64 " of %u slots back",
	      ft->reclaimed, n);
	ft->reclaimed = 0;
}

/* Add n keys and end their flows at once: n slots deferred. */
static int
add_and_end(uint32_t n, uint32_t *pos)
{
	uint32_t i;
	int32_t p;

	for (i = 0; i < n; i++) {
		p = add_key(i);
		if (p < 0)
			return -1;
		pos[i] = (uint32_t)p;
		if (end_key(i, pos[i]) < 0)
			return -1;
	}
	return 0;
}

/* Keys left live by check_last_first(). */
static uint32_t kept;

/*
 * With no reader holding slots back: five slots come back and go out
 * again last first (before any never taken), once the lcore has used the
 * positions it took before. Keys from base on; those added stay live.
 */
static void
check_last_first(uint32_t base)
{
	struct tp_flow_table *ft = &ctx.ft;
	uint32_t q[5], i, live, order = 0;
	int32_t p;

	CHECK(ft->lifo, "the table does not hand out its positions");
	for (i = 0; i < RTE_DIM(q); i++) {
		p = add_key(base + i);
		if (p < 0 || end_key(base + i, (uint32_t)p) < 0)
			break;
		q[i] = (uint32_t)p;
	}
	CHECK(i == RTE_DIM(q), "5 keys added and ended");
	live = RTE_DIM(q);
	while (writer()->slot_n > 0 && add_key(base + live) >= 0)
		live++;
	tp_flow_slot_reclaim(&ctx);
	for (i = 0; i < RTE_DIM(q); i++) {
		p = add_key(base + live + i);
		order += p >= 0 && (uint32_t)p == q[RTE_DIM(q) - 1 - i];
	}
	CHECK(order == RTE_DIM(q), "%u of 5 freed positions went out again "
	      "last first", order);
	/* One writer: rte_hash's ring back at its start after each add. */
	CHECK(ft->free_ring != NULL && ft->free_ring->prod.head == 0 &&
	      rte_ring_empty(ft->free_ring),
	      "rte_hash's ring not at its start after an add");
	/* Those drained from the lcore's hand and the five added again. */
	kept += live;
}

/* The table fills: every free position taken once, none twice. Keys
 * from base on.
 */
static void
check_fill(uint32_t base)
{
	struct tp_flow_table *ft = &ctx.ft;
	uint32_t i, added = 0, twice = 0;
	uint8_t *seen;
	int32_t p;

	seen = calloc(ft->nb_entries, 1);
	if (seen == NULL)
		return;
	for (i = 0; (p = add_key(base + i)) >= 0; i++) {
		twice += seen[p]++ != 0;
		added++;
	}
	CHECK(p == -ENOSPC, "the full table said %d, want -ENOSPC", p);
	CHECK(twice == 0, "%u positions taken twice", twice);
	/* One writer, no lcore cache: entries - 1 positions
	 * (rte_hash_max_key_id()), each now holding a key.
	 */
	CHECK(kept + added == ft->nb_entries - 1,
	      "%u keys in a table of %u positions", kept + added,
	      ft->nb_entries - 1);
	free(seen);
}

int
main(int argc, char **argv)
{
	const unsigned int reader = 1;	/* an RCU reader id, not an lcore */
	struct tp_flow_table *ft = &ctx.ft;
	struct tp_flow_ops ops = { 0 };
	uint32_t *pos, n, i, free_refs;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "flow_slots: EAL init failed\n");
		return 2;
	}
	tp_logtype = RTE_LOGTYPE_USER1;
	cfg.nb_flows = 4096;
	cfg.nb_events = 256;
	cfg.nb_mbufs = 256;
	ctx.cfg = &cfg;
	/* One lcore writes (two CPUs' layout): no rte_hash lcore caches, so
	 * the table has fewer positions than the queue's batches would
	 * take with them.
	 */
	ctx.lc[rte_get_main_lcore()].roles = TP_ROLE_RX | TP_ROLE_WORKER |
		TP_ROLE_CONTROL;
	if (tp_flow_table_create(&ctx, &ops) < 0) {
		fprintf(stderr, "flow_slots: no flow table\n");
		return 2;
	}
	check_key_store(1000);
	check_last_first(1u << 20);
	ft->reclaimed = 0;
	/* A reader online that has not reported yet. */
	if (rte_rcu_qsbr_thread_register(ft->qsv, reader) != 0) {
		fprintf(stderr, "flow_slots: no RCU reader\n");
		return 2;
	}
	rte_rcu_qsbr_thread_online(ft->qsv, reader);
	/* Ten slots end and the reader reports; five more end: at the
	 * reclaim the ten are past their grace period and come back at once
	 * (the batch was not full), the five wait for the next report.
	 */
	pos = calloc(ft->nb_entries, sizeof(*pos));
	if (pos == NULL)
		return 2;
	CHECK(add_and_end(10, pos) == 0, "10 keys added and ended");
	rte_rcu_qsbr_quiescent(ft->qsv, reader);
	CHECK(add_and_end(5, pos + 10) == 0, "5 keys added and ended");
	tp_flow_slot_reclaim(&ctx);
	CHECK(ft->reclaimed == 10, "%" PRIu64 " slots back, want the 10 "
	      "ended before the report", ft->reclaimed);
	rte_rcu_qsbr_quiescent(ft->qsv, reader);
	tp_flow_slot_reclaim(&ctx);
	CHECK(ft->reclaimed == 15, "%" PRIu64 " slots back, want 15",
	      ft->reclaimed);
	ft->reclaimed = 0;
	/* One and a half times the slots the queue's batches hold (sized
	 * twice the room), less one: the last batch goes part full.
	 */
	n = 3 * ft->dq_size / 2 * TP_SLOT_BATCH - 1;
	if (n > ft->nb_entries) {
		fprintf(stderr, "flow_slots: %u slots to end, %u in the "
			"table\n", n, ft->nb_entries);
		return 2;
	}
	CHECK(add_and_end(n, pos) == 0, "%u keys added and ended", n);
	tp_flow_slot_reclaim(&ctx);
	CHECK(ft->reclaimed == 0, "%" PRIu64 " slots back before the "
	      "reader reported", ft->reclaimed);
	CHECK(ft->parked > 0, "no slot parked with the queue full "
	      "(%u batches)", ft->dq_size);
	/* Two reports: the part-full batch was sent at the last reclaim,
	 * under a token after the first report.
	 */
	rte_rcu_qsbr_quiescent(ft->qsv, reader);
	tp_flow_slot_reclaim(&ctx);
	rte_rcu_qsbr_quiescent(ft->qsv, reader);
	tp_flow_slot_reclaim(&ctx);
	CHECK(ft->reclaimed == n, "%" PRIu64 " of %u slots back",
	      ft->reclaimed, n);
	for (i = 0, free_refs = 0; i < n; i++)
		free_refs += ft->entries[pos[i]].ref == TP_REF_FREE;
	CHECK(free_refs == n, "%u of %u entries read FREE", free_refs, n);
	/* The positions are free again: as many keys fit. */
	CHECK(add_and_end(n, pos) == 0, "%u keys added again", n);
	rte_rcu_qsbr_thread_offline(ft->qsv, reader);
	rte_rcu_qsbr_thread_unregister(ft->qsv, reader);
	tp_flow_slot_reclaim(&ctx);
	check_last_first(2u << 20);
	check_fill(3u << 20);
	tp_flow_table_free(&ctx);
	free(pos);
	ret = tp_check_report("flow_slots");
	rte_eal_cleanup();
	return ret;
}
