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
 *
 * Here: the adapter, its per-lcore timer lists and the service's state,
 * and the inline list operations of the fast path (lock with dead-list
 * check, link/unlink, the service's hint min_key, credits). A list's parts
 * have homes of their own: its lock (ta_lock.h), its object pool
 * (ta_pool.h) of timer nodes (ta_node.h), its radix index (ta_radix.h)
 * and its far ring (ta_far.h).
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_eventdev.h>
#include <rte_event_timer_adapter.h>
#include <rte_log.h>
#include <rte_memzone.h>
#include <rte_reciprocal.h>
#include <rte_spinlock.h>

#include "dpdk_compat.h"
#include "ta_far.h"
#include "ta_lock.h"
#include "ta_node.h"
#include "ta_pool.h"
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

/* timer_adapter::qsched values (schedule type of a queue, cached). */
#define TA_QS_KNOWN 0x80
#define TA_QS_ANY 0xff

/* Timers the service settles per hold of a list's lock. */
#define TA_SVC_HOLD 32

/*
 * One per-lcore timer list. The lock serialises the owning lcore (arm),
 * cancellers on other lcores and the service (collect, free, periodic
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
	struct ta_far far;	/* Timers due beyond the next span. */
	struct ta_pool pool;
	uint64_t armed;		/* Accounting, written under the lock. */
	uint64_t cancelled;
	/*
	 * First tick at which the service must visit the list: the smallest
	 * key in the radix index or the start of the span before the next
	 * far bucket to move, UINT64_MAX when there is nothing. It may be
	 * early, never late. The service reads it without the lock, every
	 * tick, to skip lists with nothing to do; on a line of its own so
	 * that reading it does not steal the lock's line. Written only by
	 * ta_list_min_update().
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
int ta_list_use(struct timer_adapter *adapter, struct ta_list *list);
void ta_list_declare_dead(struct timer_adapter *adapter, struct ta_list *list);
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

/* How a change moved a list's earliest key, for ta_list_min_update(). */
enum ta_min_change {
	/* A key or far visit at tick t was added: the hint may only drop. */
	TA_MIN_ADDED,
	/* t is now the radix index's smallest key (UINT64_MAX: none). */
	TA_MIN_EXACT,
};

/*
 * The one writer of list->min_key, the service's hint (see struct
 * ta_list); the lock is held. After an addition the hint drops to t if t
 * is earlier, in O(1); after a removal that may have raised the earliest
 * key the caller passes the index's smallest key and the hint becomes the
 * earlier of it and the far ring's next visit.
 */
static inline void
ta_list_min_update(struct ta_list *list, uint64_t t, enum ta_min_change how)
{
	if (how == TA_MIN_ADDED) {
		if (t >= list->min_key)
			return;
	} else {
		t = RTE_MIN(t, ta_far_next_visit(&list->far,
						 list->collected_tick));
	}
	__atomic_store_n(&list->min_key, t, __ATOMIC_RELEASE);
}

/*
 * Link a node (key set) into its list's radix index; the lock is held. 0,
 * or -1 without memory.
 */
static inline int
ta_list_radix_link(struct ta_list *list, struct ta_node *node)
{
	int ret = ta_radix_insert(&list->radix, node->key, &node->link);

	if (unlikely(ret < 0))
		return -1;
	node->parked = 0;
	if (ret == 1)
		ta_list_min_update(list, node->key, TA_MIN_ADDED);
	return 0;
}

/*
 * Link a node (key set) into its list: parked in its far bucket if it is
 * due beyond the next span, else in the radix index; the lock is held.
 * now_tick is the current tick, or 0 if the caller does not know it. 0, or
 * -1 without memory.
 */
static inline int
ta_list_link(struct ta_list *list, struct ta_node *node, uint64_t now_tick)
{
	uint64_t visit;

	if (ta_far_park(&list->far, node, now_tick, &visit)) {
		ta_list_min_update(list, visit, TA_MIN_ADDED);
		return 0;
	}
	return ta_list_radix_link(list, node);
}

/*
 * Unlink a node that is still in its list (its key is beyond the last
 * collected tick); the lock is held.
 */
static inline void
ta_list_unlink(struct ta_list *list, struct ta_node *node)
{
	/* A parked timer's visit tick stays: a stale early hint is valid. */
	if (node->parked)
		ta_far_unpark(&list->far, node);
	else if (ta_radix_remove(&list->radix, node->key, &node->link) == 1 &&
		 node->key == list->min_key)
		ta_list_min_update(list, ta_radix_next(&list->radix, 0),
				   TA_MIN_EXACT);
}

/*
 * Credits of a list (see TA_CREDIT_BATCH); its lock is held. Up to n of
 * nb_timers for this list's next arms: how many it got.
 */
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

#endif /* _TA_PRIVATE_H_ */
