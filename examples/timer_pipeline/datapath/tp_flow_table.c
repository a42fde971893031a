/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The flow table itself: its hash (lock-free lookups; one writer lcore or
 * several), its entries (one mapping, hugepage-backed when it can), the
 * RCU defer queue that returns a slot once no RX lcore can still hold it
 * (tp_flow_slot.c feeds and runs it), and the count of armed timers at
 * exit. Created and freed by main; slots are returned under
 * ft->reclaim_lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "tp_ctx.h"
#include "datapath/tp_flow.h"
#include "datapath/tp_flow_slot.h"
#include "datapath/tp_flow_table.h"

/* mmap()'s page size flag for 2-MB hugetlb pages (linux/mman.h). */
#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define TP_MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)

/* Least room for slots of ended flows (see tp_flow_room()). */
#define TP_ROOM_MIN 1024u
#define TP_ROOM_IN_FLIGHT 65536u

/*
 * rte_hash's buckets hold a power of two of keys, the entries rounded up.
 * Without the extendable buckets a cuckoo insert can fail before they are
 * full: the first failure came at 97.4 to 98.7 % of them (40-byte random
 * keys, 2^16 to 2^22 keys, 3 seeds each). The table holds at most --flows
 * live keys (ended flows' keys leave the buckets at once): the extendable
 * buckets, as large as the buckets again, are only made when --flows is
 * more than this share of them. Should an insert still fail, the packet
 * is a counted table_full drop.
 */
#define TP_HASH_FILL_PCT 90u

/*
 * Slots beyond --flows: an ended flow (no longer counted in nb_live) holds
 * its slot until its last reference is gone and an RCU grace period has
 * passed. References are held by packets and timer events in flight, so
 * the slots waiting are bounded by the mbufs and events, not by --flows:
 * the room is a quarter of --flows (as it always was) only up to twice
 * the events and mbufs (at least TP_ROOM_IN_FLIGHT, which covers the
 * default 8192-mbuf pool many times over). Were it ever short, a new flow
 * finds ENOSPC, reclaims and retries, and is then a counted table_full
 * drop, never a lost record.
 */
static uint32_t
tp_flow_room(const struct tp_config *cfg)
{
	uint64_t in_flight = 2 * ((uint64_t)cfg->nb_events + cfg->nb_mbufs);

	in_flight = RTE_MAX(in_flight, (uint64_t)TP_ROOM_IN_FLIGHT);
	return RTE_MAX((uint32_t)RTE_MIN((uint64_t)cfg->nb_flows / 4,
					 in_flight), TP_ROOM_MIN);
}

/* Free 2-MB pages in the kernel's pool (0 if it cannot tell). */
static uint64_t
tp_flow_huge_free(void)
{
	unsigned long long n = 0;
	FILE *f;

	f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages",
		  "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/*
 * An array on 2-MB hugetlb pages, when EAL runs on hugepages itself (not
 * --no-huge) and the pool keeps at least as many free beside it for
 * DPDK's allocations still to come (the event device, the adapter, the
 * mbufs; rte_hash's are made). Pages of the pool stay the pool's between
 * runs: a virtual machine that hands the guest memory it has not used
 * for a while slowly (docs/bench.rst, "Ageing a capture") gives them at
 * full speed, where transparent hugepages go back to the kernel at exit.
 * The mapping reserves its pages up front: no fault can fail later.
 */
static void *
tp_flow_entries_map_huge(struct tp_flow_table *ft, unsigned int i,
			 size_t len)
{
	const size_t huge = RTE_PGSIZE_2M;
	void *p;

	len = RTE_ALIGN_CEIL(len, huge);
	if (!rte_eal_has_hugepages() ||
	    2 * (len / huge) > tp_flow_huge_free())
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		 MAP_ANONYMOUS | MAP_HUGETLB | TP_MAP_HUGE_2MB, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	ft->map[i] = p;
	ft->map_len[i] = len;
	ft->map_huge[i] = true;
	return p;
}

/*
 * The entries and their timers (two arrays, 'i' 0 and 1): anonymous
 * memory of this process, on 2-MB hugetlb pages where EAL runs on
 * hugepages and the pool has room (above), else on transparent 2-MB
 * pages where the kernel gives them (madvise), rather than DPDK's heap.
 * The kernel hands out zeroed pages as they are first touched, so a table
 * of millions of flows is ready at once, and unmapping it at exit costs
 * nothing (DPDK's heap zeroes what it frees). The entries are this
 * process's alone: timers hold pointers to them, which only the adapter's
 * service in this process follows.
 */
static void *
tp_flow_entries_map(struct tp_flow_table *ft, unsigned int i, size_t size)
{
	const size_t huge = RTE_PGSIZE_2M;
	size_t len = (size_t)ft->nb_entries * size;
	uintptr_t start;
	void *p;

	p = tp_flow_entries_map_huge(ft, i, len);
	if (p != NULL)
		return p;
	/* Room to start on a 2-MB boundary, where a huge page can go. */
	len = RTE_ALIGN_CEIL(len, huge) + huge;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	ft->map[i] = p;
	ft->map_len[i] = len;
	start = RTE_ALIGN_CEIL((uintptr_t)p, huge);
	/* Only a hint: 4-KB pages work too. */
	(void)madvise((void *)start, len - (start - (uintptr_t)p),
		      MADV_HUGEPAGE);
	return (void *)start;
}

/*
 * rte_hash's writers: RX lcores add keys; workers, RX lcores and the
 * control lcore delete them and free their positions (tp_flow_slot.c).
 * When one lcore holds all those roles (two CPUs: lcore 0 is the main,
 * RX and worker lcore), the table has a single writer: no writer lock
 * around each add and delete, no per-lcore caches of free positions.
 * Its readers (a capture's read-ahead, looking keys up on the service
 * lcore) stay lock-free either way.
 */
static bool
tp_flow_table_one_writer(const struct tp_ctx *ctx)
{
	unsigned int id, n = 0;

	RTE_LCORE_FOREACH(id)
		n += (ctx->lc[id].roles & TP_ROLES_FLOWS) != 0;
	return n == 1;
}

/*
 * Where rte_hash keeps each position's key. A new flow's entry points at
 * its key there, and rte_hash_get_key_with_position() checks the key it
 * gives by looking it up again: a hash and a bucket search, 40 to 55 ns
 * of each new flow's insert on lcore 0 (the SYN scan of docs/bench.rst,
 * a stage build). Its key store is one array of equal entries, made with
 * the table and never moved: from the keys of three probe positions, the
 * base and stride, checked on the third; where they do not fit, each new
 * flow asks rte_hash (tp_flow_table_key()). The probes leave the table
 * empty.
 */
static void
tp_flow_table_key_layout(struct tp_flow_table *ft)
{
	struct tp_flow_key k[3];
	uintptr_t a[3], stride = 0;
	unsigned int i, n, got = 0;
	int32_t pos[3];
	void *p;

	memset(k, 0xff, sizeof(k));
	for (n = 0; n < RTE_DIM(k); n++) {
		k[n].port[0] = (uint16_t)n;
		pos[n] = rte_hash_add_key(ft->h, &k[n]);
		if (pos[n] < 0)
			break;
		if (rte_hash_get_key_with_position(ft->h, pos[n], &p) != 0) {
			n++;	/* added: removed below */
			break;
		}
		a[n] = (uintptr_t)p;
		got++;
	}
	if (got == RTE_DIM(k) && pos[1] > pos[0] && a[1] > a[0] &&
	    (a[1] - a[0]) % (uintptr_t)(pos[1] - pos[0]) == 0) {
		stride = (a[1] - a[0]) / (uintptr_t)(pos[1] - pos[0]);
		if (stride >= sizeof(struct tp_flow_key) &&
		    a[0] >= (uintptr_t)pos[0] * stride &&
		    a[2] == a[0] + (uintptr_t)(pos[2] - pos[0]) * stride) {
			ft->key_base = a[0] - (uintptr_t)pos[0] * stride;
			ft->key_stride = stride;
		}
	}
	for (i = 0; i < n; i++) {
		if (rte_hash_del_key(ft->h, &k[i]) >= 0)
			rte_hash_free_key_with_position(ft->h, pos[i]);
	}
	if (ft->key_stride == 0)
		TP_LOG(DEBUG, "flow table: rte_hash's key store layout not "
		       "found; each new flow asks rte_hash for its key");
}

/* Give every position taken from rte_hash's ring back to rte_hash. */
static void
tp_flow_table_lifo_undo(struct tp_flow_table *ft)
{
	uint32_t pos;

	while ((pos = ft->free_head) != TP_POS_NONE) {
		ft->free_head = ft->entries[pos].park_next;
		ft->entries[pos].park_next = 0;
		rte_hash_free_key_with_position(ft->h, (int32_t)pos);
	}
	for (; ft->fresh_next < ft->fresh_end; ft->fresh_next++)
		rte_hash_free_key_with_position(ft->h,
						(int32_t)ft->fresh_next);
}

/*
 * Free positions, last freed first. rte_hash hands out the free positions
 * in its ring, first freed first: in a table of 12M positions holding up
 * to 10M flows, each new flow took the slot freed longest ago, its entry,
 * timer, key and bucket cold in every cache and TLB (docs/bench.rst,
 * "IPFIX at 10M flows"). So the table takes every position out of that
 * ring here, found by the name rte_hash gives it ("HT_" and the table's),
 * and keeps them itself: those never taken as a range, those freed in a
 * list through their entries, the last first (tp_flow_slot.c). Before
 * each add the adding lcore hands rte_hash one back, which the add then
 * takes (tp_flow_slot_add()). The ring holds key indices, each a
 * position + 1 (rte_hash_free_key_with_position() puts them back so);
 * it was filled in order at creation, and the key store probes' few went
 * back at its end: a range and a short list. With one writer lcore, the
 * ring is that lcore's alone and holds at most the position handed: put
 * back at its start after each add (rte_ring_reset()), it stays in one
 * cache line rather than walk its 2^k slots, whose pages past the first
 * fill were never touched (26 MB at 10M flows). With extendable buckets,
 * rte_hash returns an emptied bucket with the position freed after it,
 * which may then wait long in the list: those tables leave the positions
 * to rte_hash, as does one whose ring is not found or not as expected.
 */
static void
tp_flow_table_lifo(struct tp_flow_table *ft, const char *name, bool ext,
		   bool one_writer)
{
	const uint32_t top = ft->nb_entries;
	char ring_name[RTE_RING_NAMESIZE];
	uint32_t idx[2048], pos, n, i;
	uint32_t next = 0, end = 0, head = TP_POS_NONE;
	struct rte_ring *r;
	bool ok = true;

	ft->lifo = false;
	ft->free_ring = NULL;
	ft->free_head = TP_POS_NONE;
	ft->fresh_next = 0;
	ft->fresh_end = 0;
	if (ext)
		return;
	snprintf(ring_name, sizeof(ring_name), "HT_%s", name);
	r = rte_ring_lookup(ring_name);
	if (r == NULL) {
		TP_LOG(DEBUG, "flow table: rte_hash's ring of free positions "
		       "not found; rte_hash hands them out");
		return;
	}
	while (ok && (n = rte_ring_dequeue_burst_elem(r, idx, sizeof(idx[0]),
						      RTE_DIM(idx), NULL))) {
		/* The run in order, the common case, first. */
		i = 0;
		if (end > next || (end == 0 && idx[0] != 0)) {
			if (end == 0)
				next = end = idx[0] - 1;
			while (i < n && idx[i] == end + 1 && idx[i] < top)
				end++, i++;
		}
		for (; i < n; i++) {
			if (idx[i] == 0 || idx[i] >= top) {
				/* Not a key index: back as it came. */
				ok = false;
				rte_ring_enqueue_bulk_elem(r, idx + i,
							   sizeof(idx[0]),
							   n - i, NULL);
				break;
			}
			pos = idx[i] - 1;
			ft->entries[pos].park_next = head;
			head = pos;
		}
	}
	ft->free_head = head;
	ft->fresh_next = next;
	ft->fresh_end = end;
	if (!ok) {
		TP_LOG(DEBUG, "flow table: rte_hash's ring of free positions "
		       "not as expected; rte_hash hands them out");
		tp_flow_table_lifo_undo(ft);
		ft->free_head = TP_POS_NONE;
		ft->fresh_next = 0;
		ft->fresh_end = 0;
		return;
	}
	ft->lifo = true;
	if (one_writer)
		ft->free_ring = r;
}

/* Flow table setup. 8< */
int
tp_flow_table_create(struct tp_ctx *ctx, const struct tp_flow_ops *ops)
{
	struct tp_flow_table *ft = &ctx->ft;
	const uint32_t cap = ctx->cfg->nb_flows;
	struct rte_hash_parameters hp = {
		.name = "tp_flows",
		/* Room for flows that ended but wait for a grace period. */
		.entries = cap + tp_flow_room(ctx->cfg),
		.key_len = sizeof(struct tp_flow_key),
		.hash_func = rte_hash_crc,
		.hash_func_init_val = 0,
		.socket_id = (int)rte_socket_id(),
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	struct rte_rcu_qsbr_dq_parameters dqp = { 0 };
	unsigned int i;
	size_t sz;

	/* The reference word: count, reason and INIT never overlap, and
	 * every end reason fits its field.
	 */
	RTE_BUILD_BUG_ON((TP_REF_COUNT_MASK & TP_REF_REASON_MASK) != 0);
	RTE_BUILD_BUG_ON((TP_REF_INIT & (TP_REF_COUNT_MASK |
					 TP_REF_REASON_MASK)) != 0);
	RTE_BUILD_BUG_ON(TP_END_MAX - 1 >
			 TP_REF_REASON_MASK >> TP_REF_REASON_SHIFT);
	/* rte_hash_crc() reads the key 8 bytes at a time, no tail. */
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_key) % 8 != 0);
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_key) != 40);
	/* 104 bytes of state, and the timer's line (docs/sample_app.rst),
	 * whose last 16 bytes are the timer's spare ones (user_meta).
	 */
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow) != 104);
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_timer) != RTE_CACHE_LINE_SIZE);
	RTE_BUILD_BUG_ON(offsetof(struct rte_event_timer, user_meta) >
			 offsetof(struct tp_flow_timer, last_tsc));

	ft->ops = ops;
	ft->capacity = cap;
	if (!tp_flow_table_one_writer(ctx))
		hp.extra_flag |= RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD;
	if ((uint64_t)cap * 100 >
	    (uint64_t)rte_align32pow2(hp.entries) * TP_HASH_FILL_PCT)
		hp.extra_flag |= RTE_HASH_EXTRA_FLAGS_EXT_TABLE;
	ft->h = rte_hash_create(&hp);
	if (ft->h == NULL) {
		TP_LOG(ERR, "cannot create the flow table (%u flows): %s",
		       cap, rte_strerror(rte_errno));
		return -rte_errno;
	}
	/* Positions go up to rte_hash_max_key_id() (with several writers,
	 * the per-lcore caches).
	 */
	ft->nb_entries = (uint32_t)rte_hash_max_key_id(ft->h) + 1;
	tp_flow_table_key_layout(ft);
	ft->entries = tp_flow_entries_map(ft, 0, sizeof(struct tp_flow));
	ft->timers = tp_flow_entries_map(ft, 1, sizeof(struct tp_flow_timer));
	if (ft->entries == NULL || ft->timers == NULL)
		goto nomem;
	/* Zeroed memory is a free entry: ref TP_REF_FREE, an unlocked
	 * tim_lock, a timer NOT_ARMED. Nothing else to write (but the link
	 * of the few free positions listed here).
	 */
	RTE_BUILD_BUG_ON(TP_REF_FREE != 0);
	RTE_BUILD_BUG_ON(RTE_EVENT_TIMER_NOT_ARMED != 0);
	tp_flow_table_lifo(ft, hp.name,
			   hp.extra_flag & RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
			   !(hp.extra_flag &
			     RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD));
	for (i = 0; i < RTE_DIM(ctx->lc); i++) {
		ctx->lc[i].slot_fed = TP_POS_NONE;
		ctx->lc[i].slot_n = 0;
	}
	sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	ft->qsv = rte_zmalloc_socket("tp_flow_rcu", sz, RTE_CACHE_LINE_SIZE,
				     rte_socket_id());
	if (ft->qsv == NULL || rte_rcu_qsbr_init(ft->qsv, RTE_MAX_LCORE) != 0)
		goto nomem;
	dqp.name = "tp_flow_dq";
	/* Ended slots wait here, in batches: as many as the room beyond
	 * --flows (and the slots rte_hash's lcore caches may hold) twice
	 * over, for the batches sent part full, not the whole table; more
	 * are parked (tp_flow_slot.c).
	 */
	ft->dq_size = 2 * ((ft->nb_entries - cap + TP_SLOT_BATCH - 1) /
			   TP_SLOT_BATCH);
	ft->dq_count = 0;
	ft->batch_n = 0;
	ft->park_head = TP_POS_NONE;
	ft->park_tail = TP_POS_NONE;
	dqp.size = ft->dq_size;
	dqp.esize = sizeof(ft->batch);
	dqp.trigger_reclaim_limit = 1;
	dqp.max_reclaim_size = 8;
	dqp.free_fn = tp_flow_slot_free;
	dqp.p = ctx;
	dqp.v = ft->qsv;
	ft->dq = rte_rcu_qsbr_dq_create(&dqp);
	if (ft->dq == NULL)
		goto nomem;
	rte_spinlock_init(&ft->reclaim_lock);
	TP_LOG(INFO, "flow table: %u flows, %u slots of %zu bytes%s, "
	       "freed slots reused %s, %s, on %s",
	       cap, ft->nb_entries,
	       sizeof(struct tp_flow) + sizeof(struct tp_flow_timer),
	       hp.extra_flag & RTE_HASH_EXTRA_FLAGS_EXT_TABLE ?
	       ", extendable buckets" : "",
	       ft->lifo ? "last first" : "first first",
	       hp.extra_flag & RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD ?
	       "several writer lcores" : "one writer lcore",
	       ft->map_huge[0] && ft->map_huge[1] ? "2-MB hugepages" :
	       ft->map_huge[0] || ft->map_huge[1] ?
	       "2-MB hugepages (entries or timers) and transparent hugepages" :
	       "transparent hugepages where the kernel gives them");
	return 0;
nomem:
	TP_LOG(ERR, "out of memory for %u flow entries", ft->nb_entries);
	tp_flow_table_free(ctx);
	return -ENOMEM;
}
/* >8 End of flow table setup. */

void
tp_flow_table_free(struct tp_ctx *ctx)
{
	struct tp_flow_table *ft = &ctx->ft;
	unsigned int i;

	if (ft->dq != NULL) {
		/* Every reader is offline by now: this reclaims them all. */
		tp_flow_slot_release(ctx);
		rte_spinlock_lock(&ft->reclaim_lock);
		rte_rcu_qsbr_dq_delete(ft->dq);
		rte_spinlock_unlock(&ft->reclaim_lock);
		ft->dq = NULL;
	}
	rte_free(ft->qsv);
	ft->qsv = NULL;
	for (i = 0; i < RTE_DIM(ft->map); i++) {
		if (ft->map[i] != NULL)
			munmap(ft->map[i], ft->map_len[i]);
		ft->map[i] = NULL;
		ft->map_huge[i] = false;
	}
	ft->entries = NULL;
	ft->timers = NULL;
	rte_hash_free(ft->h);
	ft->h = NULL;
}

int
tp_flow_table_rcu_register(struct tp_ctx *ctx, unsigned int lcore_id)
{
	return rte_rcu_qsbr_thread_register(ctx->ft.qsv, lcore_id);
}

/* Every input is over and every RX lcore past its last lookup. 8< */
void
tp_flow_table_close(struct tp_ctx *ctx)
{
	/* From here on no key is looked up or added: an ended flow's key
	 * and slot stay where they are, for the table's free at exit. Its
	 * delete (a cold bucket) and its grace period (a token, the defer
	 * queue) were a third of the worker's cost per flow ended at the
	 * end of a capture, when every flow still live ends at once.
	 */
	__atomic_store_n(&ctx->ft.closed, 1, __ATOMIC_RELEASE);
}
/* >8 End of every input over. */

/*
 * Above every position a flow ever took: the walks at the end (the forced
 * end, the exit check) stop there. The positions above it were never
 * written, and reading them would fault in pages of the mapping only to
 * find zeros: 18 ms at exit of a 10-packet capture with --flows 1100000.
 */
uint32_t
tp_flow_table_top(const struct tp_ctx *ctx)
{
	uint32_t top = 0;
	unsigned int id;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		top = RTE_MAX(top, ctx->lc[id].pos_top);
	return RTE_MIN(top, ctx->ft.nb_entries);
}

/* Timers still armed (for the exit check, with every lcore stopped). */
uint64_t
tp_flow_table_count_timers(const struct tp_ctx *ctx)
{
	const struct tp_flow_table *ft = &ctx->ft;
	const uint32_t top = tp_flow_table_top(ctx);
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < top; i++)
		if (ft->timers[i].tim.state == RTE_EVENT_TIMER_ARMED)
			n++;
	return n;
}
