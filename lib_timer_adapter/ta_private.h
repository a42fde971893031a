/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_PRIVATE_H_
#define _TA_PRIVATE_H_

/*
 * Internal state of the direct-skiplist timer adapter.
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
#include <rte_reciprocal.h>
#include <rte_spinlock.h>

#include "ta_skiplist.h"
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

/* Nodes and buckets are carved from heap chunks of this many objects. */
#define TA_NODES_PER_CHUNK 512
#define TA_BUCKETS_PER_CHUNK 128

/*
 * Service: events buffered before an enqueue, enqueue burst, work bound.
 * event_sw takes a burst only when the port holds credits for all of it,
 * and tops a port up by credit_quanta (32 by default) per attempt: larger
 * bursts fail every other attempt.
 */
#define TA_EVBUF_SIZE 256
#define TA_ENQ_BURST 32
#define TA_SVC_BUDGET 1024

/* Low bit of ta_node::evtim: the service is firing a periodic timer. */
#define TA_NODE_FIRING ((uintptr_t)1)

/*
 * Internal node of one armed timer: 40 bytes, from its list's chunks.
 *
 * evtim is the arbitration word between cancel and expiry: it holds the
 * rte_event_timer while the timer is pending, and whoever swaps it to 0
 * (cancel or single-shot expiry) owns the outcome. The node is only freed
 * by a holder of its list's lock, and the pointer of a re-armed timer is
 * stored in a new node, so a stale compare-and-swap can never succeed.
 */
struct ta_node {
	struct ta_link link;		/* In its bucket, or in a free list. */
	uintptr_t evtim;		/* Arbitration word, see above. */
	struct ta_bucket *bucket;	/* Bucket holding the node. */
	uint32_t owner;			/* Index of its list. */
	uint32_t reserved;
};

/* Heap chunk header; chunks are released when the adapter is freed. */
struct ta_chunk {
	struct ta_chunk *next;
	size_t size;
};

/* Free objects of one list, protected by the list's lock. */
struct ta_pool {
	struct ta_link *free_nodes;			/* Singly linked. */
	struct ta_bucket *free_buckets[TA_SL_MAX_HEIGHT]; /* Per height. */
	struct ta_chunk *chunks;
	uint64_t nb_nodes;	/* Nodes carved from chunks. */
	uint64_t nb_buckets;	/* Buckets carved from chunks. */
	uint64_t mem_bytes;	/* Bytes of all chunks. */
};

/*
 * One per-lcore timer list. The lock serialises the owning lcore (arm),
 * cancellers on other lcores and the service (cut, free, periodic
 * re-insertion); the owning lcore is almost always the only user.
 */
struct ta_list {
	rte_spinlock_t lock;
	uint16_t index;
	uint8_t used;		/* Registered in the adapter's used table. */
	/*
	 * Smallest key in the skiplist, UINT64_MAX when empty: the service
	 * reads it without the lock to skip lists with nothing due.
	 */
	uint64_t min_key;
	struct ta_skiplist sl;
	struct ta_pool pool;
	uint64_t armed;		/* Accounting, written under the lock. */
	uint64_t cancelled;
	/* Memory of the head sentinel (a bucket of full height). */
	uint8_t head_mem[TA_BUCKET_SIZE(TA_SL_MAX_HEIGHT)]
		__rte_aligned(sizeof(void *));
} __rte_cache_aligned;

/* Per-list state of the service: nodes and buckets to give back. */
struct ta_svc_return {
	struct ta_link *nodes;		/* Singly linked via next. */
	struct ta_bucket *buckets;	/* Singly linked via lv[0].next. */
	uint32_t nb_nodes;
	uint8_t pending;		/* Listed in ta_service::touched. */
};

/* State written by the service lcore only. */
struct ta_service {
	uint64_t last_tick;
	uint8_t ticked;			/* last_tick is valid. */
	/* FIFO of detached buckets, chained through lv[0].next. */
	struct ta_bucket *fifo_head;
	struct ta_bucket *fifo_tail;
	uint64_t fifo_buckets;
	/* Events built but not yet accepted by the event device. */
	struct rte_event evbuf[TA_EVBUF_SIZE];
	uint16_t ev_head;
	uint16_t ev_count;
	uint16_t touched[TA_NB_LISTS];
	uint16_t nb_touched;
	struct ta_svc_return ret[TA_NB_LISTS];
	/* Counters: single writer, read with relaxed loads. */
	struct rte_event_timer_adapter_stats stats;
	uint64_t expired;		/* Single-shot timers expired. */
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
	struct rte_reciprocal_u64 tick_div; /* Divides by cyc_per_tick. */
	/*
	 * Written by every arm and cancel: kept off the read-mostly lines
	 * above, which the service lcore reads on every call, or each arm
	 * would pay a cross-core cache miss.
	 */
	int64_t nodes_in_use __rte_cache_aligned; /* Atomic, <= nb_timers. */
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
void ta_list_init(struct ta_list *list, uint16_t index, uint64_t seed);
void ta_list_release(struct ta_list *list);
struct ta_node *ta_list_node_alloc(struct ta_list *list);
void ta_list_node_free(struct ta_list *list, struct ta_node *node);
struct ta_bucket *ta_list_bucket_get(struct ta_list *list, uint64_t key);
void ta_list_bucket_free(struct ta_list *list, struct ta_bucket *b);
void ta_list_update_min(struct ta_list *list);
void ta_list_use(struct timer_adapter *adapter, struct ta_list *list);

/* ta_service.c */
int32_t ta_service_func(void *arg);

/* ta_telemetry.c */
struct timer_adapter *ta_adapter_get(uint16_t id);

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

#endif /* _TA_PRIVATE_H_ */
