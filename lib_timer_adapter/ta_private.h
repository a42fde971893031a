/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_PRIVATE_H_
#define _TA_PRIVATE_H_

/*
 * Internal state of the direct-insertion timer adapter.
 *
 * One struct timer_adapter per adapter lives in a memzone named
 * "ta_data_<id>", so that secondary processes find it with lookup; every
 * pointer inside points to DPDK heap memory, mapped at the same address in
 * every process. Nothing here is part of the public API.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_eventdev.h>
#include <rte_event_timer_adapter.h>
#include <rte_log.h>
#include <rte_memzone.h>
#include <rte_pause.h>
#include <rte_reciprocal.h>
#include <rte_spinlock.h>

#include "ta_radix.h"
#include "timer_adapter.h"

extern int ta_logtype;
extern int ta_svc_logtype;

#define TA_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ta_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)
#define TA_SVC_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ta_svc_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/* Lists: one per lcore id, plus one shared by all non-EAL threads. */
#define TA_NB_LISTS (RTE_MAX_LCORE + 1)
#define TA_LIST_NON_EAL RTE_MAX_LCORE

/* Marks an allocated adapter; cleared before its memory is released. */
#define TA_MAGIC 0x7461646170746572ULL

/* Timer nodes and radix nodes are carved from heap chunks. */
#define TA_NODES_PER_CHUNK 512
#define TA_RADIX_LEAVES_PER_CHUNK 128
#define TA_RADIX_INNER_PER_CHUNK 16

/*
 * nb_timers is enforced with credits: a list takes them from the adapter
 * in batches and keeps at most two batches, so that arming and freeing
 * seldom touch the shared counter.
 */
#define TA_CREDIT_BATCH 64

/*
 * Service: events buffered before an enqueue, enqueue burst, work bound.
 * event_sw takes a burst only when the port holds credits for all of it,
 * and tops a port up by credit_quanta (32 by default) per attempt: larger
 * bursts fail every other attempt.
 */
#define TA_EVBUF_SIZE 256
#define TA_ENQ_BURST 32
#define TA_SVC_BUDGET 1024

/*
 * Far ring: timers due beyond the next span of ticks are parked, unsorted,
 * in a bucket per span (2^far_shift ticks), so that arming touches only the
 * bucket head and the last timer parked there, both cached. The service
 * moves a bucket into the radix index during the span before its own, a
 * share per tick (at least TA_FAR_BUDGET timers per list and visit, more
 * if needed to finish within half the ticks left), so that no visit holds
 * a list's lock or delays expiries for long. far_shift is chosen at create
 * so that TA_FAR_NB - 2 spans cover max_tmo_ns.
 */
#define TA_FAR_NB 256
#define TA_FAR_MASK (TA_FAR_NB - 1)
#define TA_FAR_MIN_SHIFT 6
#define TA_FAR_MAX_SHIFT 48
#define TA_FAR_BUDGET 32

/* ta_adapter::qsched values. */
#define TA_QS_KNOWN 0x80
#define TA_QS_ANY 0xff

/* Timers the service settles per hold of a list's lock. */
#define TA_SVC_HOLD 32

/*
 * List lock: test-and-set, unlocked by a plain release store. (On x86
 * rte_spinlock_unlock() is an xchg, a full barrier: one more per arm call
 * and per service batch, draining the store buffer each time.)
 *
 * The lock word holds the holder's process id, because lists are shared
 * with secondary processes: a process killed inside an arm or cancel call
 * would otherwise leave a lock that every later user spins on forever. A
 * waiter that has spun for a while checks whether the holder still exists;
 * if not, the lock is never taken and the list is declared dead.
 */
typedef struct {
	uint32_t locked;	/* 0, or the holder's pid. */
} ta_lock_t;

/* Spins between two checks of the holder (a few milliseconds). */
#define TA_LOCK_CHECK_SPINS (1u << 16)

/* This process's id (set at load and in a forked child). */
extern uint32_t ta_pid;

static inline uint32_t
ta_self_pid(void)
{
	return ta_pid;
}

/* Whether a lock's holder is a process that no longer exists. */
int ta_lock_holder_dead(uint32_t holder);

/* Take the lock: 0, or -1 if it is held by a process that died. */
static inline int
ta_lock(ta_lock_t *l)
{
	const uint32_t self = ta_self_pid();
	uint32_t spins = 0, holder = 0;

	while (!__atomic_compare_exchange_n(&l->locked, &holder, self, 0,
					    __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		do {
			rte_pause();
			if (unlikely(++spins % TA_LOCK_CHECK_SPINS == 0) &&
			    ta_lock_holder_dead(holder))
				return -1;
			holder = __atomic_load_n(&l->locked, __ATOMIC_RELAXED);
		} while (holder != 0);
	}
	return 0;
}

static inline void
ta_unlock(ta_lock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/*
 * Internal node of one armed timer: 40 bytes, from its list's chunks.
 *
 * evtim holds the rte_event_timer while the timer is pending; whoever
 * clears it (cancel, or the service settling an expiry) owns the outcome.
 * Both do so holding the list's lock, as does everything that frees or
 * re-links a node, and the pointer of a re-armed timer is stored in a new
 * node: a canceller that finds another value knows the service won.
 */
struct ta_node {
	struct ta_link link;	/* In its tick's FIFO, the expiry FIFO or free. */
	uintptr_t evtim;	/* Arbitration word, see above. */
	uint64_t key;		/* Expiry tick. */
	uint32_t owner;		/* Index of its list. */
	uint32_t parked;	/* 1: parked in a far bucket, 0: in the radix index. */
};

/* Far buckets of one list (heap, allocated when the list is first used). */
struct ta_far {
	struct ta_link *bucket[TA_FAR_NB];	/* Circular FIFOs. */
	uint32_t count[TA_FAR_NB];		/* Timers per bucket. */
	uint64_t nb;				/* Timers parked. */
};

/* Heap chunk header; chunks are released when the adapter is freed. */
struct ta_chunk {
	struct ta_chunk *next;
	size_t size;
};

/* Free objects of one list, protected by the list's lock. */
struct ta_pool {
	struct ta_link *free_nodes;		/* Singly linked. */
	/* Free radix leaves [0] and interior nodes [1], linked via slot[0]. */
	struct ta_radix_node *free_radix_nodes[2];
	struct ta_chunk *chunks;
	uint64_t nb_nodes;	/* Timer nodes carved from chunks. */
	uint64_t nb_radix_nodes;	/* Radix nodes carved from chunks. */
	uint64_t mem_bytes;	/* Bytes of all chunks. */
};

/*
 * One per-lcore timer list. The lock serialises the owning lcore (arm),
 * cancellers on other lcores and the service (cut, free, periodic
 * re-insertion); the owning lcore is almost always the only user.
 */
struct ta_list {
	ta_lock_t lock;
	uint16_t index;
	uint8_t used;		/* Registered in the adapter's used table. */
	/*
	 * A process died holding the lock: nobody may take it again. The
	 * list's timers can no longer expire or be cancelled.
	 */
	uint8_t dead;
	/*
	 * Last tick the service collected: every key <= collected_tick has
	 * been moved to the service's FIFO, every key still in the radix
	 * index is greater (new keys are always in the future).
	 */
	uint64_t collected_tick;
	int64_t credits;	/* Share of nb_timers held by this list. */
	struct ta_radix radix;
	/*
	 * Far ring (NULL if it could not be allocated: every timer then goes
	 * to the radix index). far_moved_span is the last span whose bucket
	 * the service has moved into the radix index: spans <= far_moved_span
	 * have empty buckets; a timer is parked only in a span in
	 * (far_moved_span, far_moved_span + TA_FAR_NB).
	 */
	struct ta_far *far;
	uint64_t far_moved_span;
	uint8_t far_shift;
	struct ta_pool pool;
	uint64_t armed;		/* Accounting, written under the lock. */
	uint64_t cancelled;
	/*
	 * First tick at which the service must visit the list: the smallest
	 * key in the radix index or the start of the span before the next
	 * far bucket to move, UINT64_MAX when there is nothing. It may be
	 * early, never late. The service reads it without the lock, every
	 * tick, to skip lists with nothing to do; on a line of its own so
	 * that reading it does not steal the lock's line.
	 */
	uint64_t min_key __rte_cache_aligned;
} __rte_cache_aligned;

/* State written by the service lcore only. */
struct ta_service {
	uint64_t last_tick;
	uint8_t ticked;			/* last_tick is valid. */
	/* Expired timers not yet turned into events, in expiry order. */
	struct ta_link fifo;
	/* Events built but not yet accepted by the event device. */
	struct rte_event evbuf[TA_EVBUF_SIZE];
	uint16_t ev_head;
	uint16_t ev_count;
	/* Counters: single writer, read with relaxed loads. */
	struct rte_event_timer_adapter_stats stats;
	uint64_t expired;		/* Single-shot timers expired. */
	uint64_t far_nomem;		/* Far moves that ran out of memory. */
} __rte_cache_aligned;

struct timer_adapter {
	uint64_t magic;
	const struct rte_memzone *mz;
	struct rte_event_timer_adapter_conf conf;
	uint16_t id;
	uint8_t port_id;
	uint8_t periodic;
	uint8_t maintain;	/* The device needs rte_event_maintain(). */
	uint8_t service_registered;
	uint32_t service_id;
	uint32_t started;	/* Atomic; shared with secondaries. */
	uint64_t hz;		/* rte_get_timer_hz() of the creator. */
	uint64_t cyc_per_tick;	/* Rounded; >= 1. */
	uint8_t far_shift;	/* log2 of the ticks of a far span. */
	/*
	 * Schedule type of each event queue, looked up on first use and
	 * forgotten at start: 0 unknown, TA_QS_ANY an ALL_TYPES queue, else
	 * TA_QS_KNOWN | RTE_SCHED_TYPE_*.
	 */
	uint8_t qsched[RTE_EVENT_MAX_QUEUES_PER_DEV];
	struct rte_reciprocal_u64 tick_div; /* Divides by cyc_per_tick. */
	/*
	 * Credits not held by any list (atomic). Kept off the read-mostly
	 * lines above, which the service lcore reads on every call.
	 */
	int64_t credits __rte_cache_aligned;
	/* Lists that were ever armed, for the service to walk. */
	rte_spinlock_t used_lock __rte_cache_aligned;
	uint32_t nb_used;	/* Atomic (release after used_idx[]). */
	uint16_t used_idx[TA_NB_LISTS];
	/* Statistics baseline for stats_reset (control path only). */
	rte_spinlock_t stats_lock __rte_cache_aligned;
	struct rte_event_timer_adapter_stats stats_base;
	struct ta_service svc;
	struct ta_list lists[TA_NB_LISTS];
};

/* ta_list.c */
void ta_list_init(struct ta_list *list, uint16_t index, uint8_t far_shift);
void ta_list_release(struct ta_list *list);
struct ta_node *ta_list_node_alloc_chunk(struct ta_list *list);
void ta_list_update_min(struct ta_list *list);
int ta_list_use(struct timer_adapter *adapter, struct ta_list *list);
void ta_list_declare_dead(struct timer_adapter *adapter, struct ta_list *list);
int ta_far_move(struct ta_list *list, uint64_t tick);
uint64_t ta_far_hint(const struct ta_list *list);
uint16_t ta_credits_refill(struct timer_adapter *adapter, struct ta_list *list,
			   uint16_t n);
void ta_credits_spill(struct timer_adapter *adapter, struct ta_list *list);

/* ta_service.c */
int32_t ta_service_func(void *arg);

/* ta_adapter.c, for telemetry */
struct timer_adapter *ta_adapter_get(uint16_t id);
void ta_table_hold(void);
void ta_table_release(void);

/* Whether a handle refers to a live adapter. */
static inline int
ta_valid(const struct timer_adapter *adapter)
{
	return adapter != NULL &&
		__atomic_load_n(&adapter->magic, __ATOMIC_ACQUIRE) == TA_MAGIC;
}

/* Single-writer counter update, readable without tearing. */
static inline void
ta_counter_add(uint64_t *c, uint64_t v)
{
	__atomic_store_n(c, *c + v, __ATOMIC_RELAXED);
}

/* The tick of a TSC time, rounded up: a timer never fires early. */
static inline uint64_t
ta_tick_ceil(const struct timer_adapter *adapter, uint64_t cycles)
{
	uint64_t q = rte_reciprocal_divide_u64(cycles, &adapter->tick_div);

	return q * adapter->cyc_per_tick < cycles ? q + 1 : q;
}

/*
 * Take a list's lock: 0, or -1 if the list is dead (declared so now if a
 * holder is found to have died).
 */
static inline int
ta_list_lock(struct timer_adapter *adapter, struct ta_list *list)
{
	if (likely(!list->dead) && likely(ta_lock(&list->lock) == 0))
		return 0;
	ta_list_declare_dead(adapter, list);
	return -1;
}

/*
 * Link a node (key set) into its list's radix index, lowering the
 * service's hint if needed; the lock is held. 0, or -1 without memory.
 */
static inline int
ta_list_radix_link(struct ta_list *list, struct ta_node *node)
{
	int ret = ta_radix_insert(&list->radix, node->key, &node->link);

	if (unlikely(ret < 0))
		return -1;
	node->parked = 0;
	if (ret == 1 && node->key < list->min_key)
		__atomic_store_n(&list->min_key, node->key, __ATOMIC_RELEASE);
	return 0;
}

/* Node pool and credits of a list; its lock is held. */
static inline struct ta_node *
ta_list_node_alloc(struct ta_list *list)
{
	struct ta_link *l = list->pool.free_nodes;

	if (likely(l != NULL)) {
		list->pool.free_nodes = l->next;
		return container_of(l, struct ta_node, link);
	}
	return ta_list_node_alloc_chunk(list);
}

static inline void
ta_list_node_free(struct ta_list *list, struct ta_node *node)
{
	node->evtim = 0;
	node->link.next = list->pool.free_nodes;
	list->pool.free_nodes = &node->link;
}

/* Up to n of nb_timers for this list's next arms: how many it got. */
static inline uint16_t
ta_credits_get(struct timer_adapter *adapter, struct ta_list *list,
	       uint16_t n)
{
	if (likely(list->credits >= n))
		return n;
	return ta_credits_refill(adapter, list, n);
}

/* Give back n; a list keeps at most two batches. */
static inline void
ta_credits_put(struct timer_adapter *adapter, struct ta_list *list,
	       uint64_t n)
{
	list->credits += n;
	if (unlikely(list->credits > 2 * TA_CREDIT_BATCH))
		ta_credits_spill(adapter, list);
}

/*
 * Park a timer whose key (set) is due beyond the next span in its far
 * bucket; the list's lock is held. now_tick is the current tick, or 0 if
 * the caller does not know it. Returns 1 if parked, 0 if the timer belongs
 * in the radix index (near, beyond the ring, or no ring).
 */
static inline int
ta_far_park(struct ta_list *list, struct ta_node *node, uint64_t now_tick)
{
	struct ta_far *far = list->far;
	const uint64_t span = node->key >> list->far_shift;
	uint64_t visit;

	if (unlikely(far == NULL))
		return 0;
	/*
	 * With nothing parked the service may not have visited for long:
	 * bring far_moved_span to the present (any value is valid for empty
	 * buckets) so that near timers are not parked.
	 */
	if (unlikely(far->nb == 0) && now_tick != 0 &&
	    (now_tick >> list->far_shift) + 1 > list->far_moved_span)
		list->far_moved_span = (now_tick >> list->far_shift) + 1;
	if (span <= list->far_moved_span || span - list->far_moved_span >= TA_FAR_NB)
		return 0;
	ta_fifo_append(&far->bucket[span & TA_FAR_MASK], &node->link);
	far->count[span & TA_FAR_MASK]++;
	__atomic_store_n(&far->nb, far->nb + 1, __ATOMIC_RELAXED);
	node->parked = 1;
	/* The service moves the bucket during the span before. */
	visit = (span - 1) << list->far_shift;
	if (visit < list->min_key)
		__atomic_store_n(&list->min_key, visit, __ATOMIC_RELEASE);
	return 1;
}

/* Take a parked timer out of its far bucket; the list's lock is held. */
static inline void
ta_far_unpark(struct ta_list *list, struct ta_node *node)
{
	struct ta_far *far = list->far;
	const unsigned int b = (node->key >> list->far_shift) & TA_FAR_MASK;

	ta_fifo_unlink(&far->bucket[b], &node->link);
	far->count[b]--;
	__atomic_store_n(&far->nb, far->nb - 1, __ATOMIC_RELAXED);
	node->parked = 0;
}

#endif /* _TA_PRIVATE_H_ */
