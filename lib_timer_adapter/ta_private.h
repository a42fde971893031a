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
#define TA_LEAVES_PER_CHUNK 128
#define TA_RNODES_PER_CHUNK 16

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
	struct ta_link link;	/* In its tick's FIFO, the expiry FIFO or free. */
	uintptr_t evtim;	/* Arbitration word, see above. */
	uint64_t key;		/* Expiry tick. */
	uint32_t owner;		/* Index of its list. */
	uint32_t reserved;
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
	struct ta_rx_node *free_rnodes[2];
	struct ta_chunk *chunks;
	uint64_t nb_nodes;	/* Timer nodes carved from chunks. */
	uint64_t nb_rnodes;	/* Radix nodes carved from chunks. */
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
	 * Every key <= cut_tick has been moved to the service's FIFO, every
	 * key still in rx is greater (new keys are always in the future).
	 */
	uint64_t cut_tick;
	int64_t credits;	/* Share of nb_timers held by this list. */
	struct ta_radix rx;
	struct ta_pool pool;
	uint64_t armed;		/* Accounting, written under the lock. */
	uint64_t cancelled;
	/*
	 * Smallest key in rx, UINT64_MAX when empty: the service reads it
	 * without the lock, every tick, to skip lists with nothing due; on a
	 * line of its own so that reading it does not steal the lock's line.
	 */
	uint64_t min_key __rte_cache_aligned;
} __rte_cache_aligned;

/* Per-list state of the service: nodes to give back at the end of a call. */
struct ta_svc_return {
	struct ta_link *nodes;		/* Singly linked via next. */
	uint32_t nb_nodes;
	uint8_t pending;		/* Listed in ta_service::touched. */
};

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
void ta_list_init(struct ta_list *list, uint16_t index);
void ta_list_release(struct ta_list *list);
struct ta_node *ta_list_node_alloc(struct ta_list *list);
void ta_list_node_free(struct ta_list *list, struct ta_node *node);
void ta_list_update_min(struct ta_list *list);
void ta_list_use(struct timer_adapter *adapter, struct ta_list *list);
uint16_t ta_credits_get(struct timer_adapter *adapter, struct ta_list *list,
			uint16_t n);
void ta_credits_put(struct timer_adapter *adapter, struct ta_list *list,
		    uint64_t n);

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
