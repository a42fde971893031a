/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_PRIVATE_H_
#define _TA_PRIVATE_H_

/*
 * The adapter: struct timer_adapter and the little that is the adapter's
 * own (logging, its validity check, the service's state). Nothing here is
 * part of the public API.
 *
 * One struct timer_adapter per adapter lives in a memzone named
 * "ta_data_<id>", so that secondary processes find it with lookup; every
 * pointer inside points to DPDK heap memory, mapped at the same address in
 * every process.
 *
 * Locks: each of lists[] is guarded by its own lock (ta_list.h, which
 * holds the list and its operations); used_lock guards the used table
 * (writers; the service reads nb_used with acquire); stats_lock guards
 * stats_base; svc is written by the service lcore only; credits is atomic;
 * clk (TIMER_ADAPTER_F_CLOCK) is atomic, written by timer_adapter_clock_set();
 * the rest is written at create and read-only after, except qsched
 * (relaxed atomics) and started (atomic).
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eventdev.h>
#include <rte_event_timer_adapter.h>
#include <rte_log.h>
#include <rte_memzone.h>
#include <rte_reciprocal.h>
#include <rte_spinlock.h>

#include "dpdk_compat.h"
#include "ta_list.h"
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
	/*
	 * TIMER_ADAPTER_F_CLOCK: the clock value of the last call that left
	 * nothing due undelivered (atomic, release after the enqueues).
	 */
	uint64_t clock_done;
} __rte_cache_aligned;

/*
 * The application's clock (TIMER_ADAPTER_F_CLOCK), on a line of its own:
 * the setter writes it often, arm and the service read it.
 */
struct ta_clock {
	uint64_t now;		/* Nanoseconds; atomic, only moves forward. */
	uint64_t backwards;	/* Older times given and ignored (atomic). */
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
	/*
	 * TIMER_ADAPTER_F_CLOCK: time comes from clk (ns, hz 1e9), not from
	 * the TSC. Read by every arm burst and service call, next to hz.
	 */
	uint8_t clock_mode;
	uint32_t service_id;
	uint32_t started;	/* Atomic; shared with secondaries. */
	uint64_t hz;		/* rte_get_timer_hz() of the creator. */
	uint64_t cyc_per_tick;	/* Rounded; >= 1. */
	uint8_t far_shift;	/* log2 of the ticks of a far span. */
	/*
	 * Schedule type of each event queue, looked up on first use and
	 * forgotten at start: 0 unknown, TA_QS_ANY an ALL_TYPES queue, else
	 * TA_QS_KNOWN | RTE_SCHED_TYPE_*. Indexed by an event's queue_id,
	 * any uint8_t: a device has at most RTE_EVENT_MAX_QUEUES_PER_DEV
	 * queues (255), and an id past them is looked up (and fails) but
	 * never read or written out of bounds.
	 */
	uint8_t qsched[UINT8_MAX + 1];
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
	struct ta_clock clk;
	struct ta_list lists[TA_NB_LISTS];
};

/* ta_service.c */
int32_t ta_service_func(void *arg);

/* ta_adapter.c, for telemetry */
struct timer_adapter *ta_adapter_get(uint16_t id);
void ta_table_hold(void);
void ta_table_release(void);

/*
 * The adapter's time, in its cycles: the TSC, or with
 * TIMER_ADAPTER_F_CLOCK the application's clock in ns. The arm loop is
 * specialised on the mode (one test per burst, ta_fastpath.c); the
 * service tests it once per call.
 */
static __rte_always_inline uint64_t
ta_now(const struct timer_adapter *adapter)
{
	if (unlikely(adapter->clock_mode))
		return __atomic_load_n(&adapter->clk.now, __ATOMIC_ACQUIRE);
	return rte_get_timer_cycles();
}

/* Whether a handle refers to a live adapter. */
static inline int
ta_valid(const struct timer_adapter *adapter)
{
	return adapter != NULL &&
		__atomic_load_n(&adapter->magic, __ATOMIC_ACQUIRE) == TA_MAGIC;
}

#endif /* _TA_PRIVATE_H_ */
