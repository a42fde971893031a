/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The adapter's service: detach what is due, build events, enqueue them.
 *
 * Each call reads the clock once (the TSC, or the application's clock
 * with TIMER_ADAPTER_F_CLOCK). When the tick advanced, every list whose
 * hint (min_key) is due is collected under its lock: far buckets whose
 * time has come are moved into its radix index (ta_far.c), then each due
 * tick's whole FIFO is spliced, in O(1), onto the service's FIFO. Then
 * timers are taken from the FIFO's front and settled against cancel under
 * their list's lock (one hold per run of up to TA_SVC_HOLD timers of a
 * list), and their events built into a buffer that is enqueued in bursts;
 * this repeats while the event device accepts events, for at most
 * TA_SVC_BUDGET timers. What the device refuses stays in the buffer and in
 * the FIFO, in order, for the next call: nothing is re-inserted, dropped
 * or reordered by backpressure. Settled nodes go straight back to their
 * list's pool, under the same hold.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_prefetch.h>

#include "ta_private.h"
#include "ta_state.h"
#include "ta_time.h"

/*
 * A tick's run is late when it starts at least 1/TA_LATE_FRACTION of a
 * tick after the tick began (ta_service_func()).
 */
#define TA_LATE_FRACTION 64

/*
 * Move every due timer of every used list to the FIFO. late_now: 0, or
 * the time of a run late into its tick (ta_list_collect()).
 */
static void
ta_collect(struct timer_adapter *adapter, uint64_t tick, uint64_t late_now)
{
	uint32_t i, nb = __atomic_load_n(&adapter->nb_used, __ATOMIC_ACQUIRE);
	const uint64_t upto = late_now != 0 ? tick + 1 : tick;

	for (i = 0; i < nb; i++) {
		struct ta_list *list = &adapter->lists[adapter->used_idx[i]];

		if (__atomic_load_n(&list->min_key, __ATOMIC_ACQUIRE) > upto ||
		    ta_list_lock(adapter, list) < 0)
			continue;
		if (unlikely(ta_list_collect(list, tick, late_now,
					     &adapter->svc.fifo) < 0) &&
		    adapter->svc.far_nomem++ == 0)
			TA_SVC_LOG(ERR, "adapter %u: no memory to index parked "
				   "timers of list %u; retrying (they will be "
				   "late)", adapter->id, list->index);
		ta_list_unlock(list);
	}
}

/*
 * Re-schedule a periodic timer that just fired, one period after its
 * previous deadline (no drift); its list's lock is held. Firings are
 * rounded up to a tick and the service may run late, so the next deadline
 * may already be behind us: that firing still happens, at the next tick.
 * Only periods whose whole window passed while we were behind (the next
 * deadline after them is in the past too) are skipped, each counted as a
 * dropped firing.
 */
static void
ta_periodic_rearm(struct timer_adapter *adapter, struct ta_list *list,
		  struct ta_node *node, struct rte_event_timer *evtim,
		  uint64_t now)
{
	struct ta_service *svc = &adapter->svc;
	uint64_t period, next, key;

	period = ns_to_cycles(evtim->timeout_ticks *
				 adapter->conf.timer_tick_ns, adapter->hz);
	next = evtim->impl_opaque[1] + period;
	if (next + period <= now) {
		uint64_t k = (now - next) / period;

		next += k * period;
		ta_counter_add(&svc->stats.evtim_drop_count, k);
	}
	key = ta_tick_ceil(&adapter->tick_div, adapter->cyc_per_tick, next);
	/* A key at or before the last collected tick would stay forever. */
	if (key <= svc->last_tick)
		key = svc->last_tick + 1;
	evtim->impl_opaque[1] = next;

	node->key = key;
	if (likely(ta_list_radix_link(list, node) == 0))
		return;
	/* Out of memory: the timer cannot go on; end it visibly. */
	TA_SVC_LOG(ERR, "adapter %u: no memory to re-arm a periodic timer",
		   adapter->id);
	node->evtim = 0;
	ta_counter_add(&svc->stats.evtim_drop_count, 1);
	ta_counter_add(&svc->expired, 1);
	ta_state_set(evtim, RTE_EVENT_TIMER_ERROR);
	ta_list_node_free(adapter, list, node);
}

/*
 * Settle one detached node: a cancelled one (evtim cleared by the
 * canceller) is freed, any other becomes an event. list is the node's
 * list, its lock held, or NULL for a dead list: nobody can take that lock
 * any more, so nobody else touches the node; its event is still delivered
 * (it was due), a periodic timer ends there and the node is not returned
 * to the dead list's pool.
 */
static inline void
ta_expire_node(struct timer_adapter *adapter, struct ta_list *list,
	       struct ta_node *node, uint64_t now)
{
	struct ta_service *svc = &adapter->svc;
	struct rte_event_timer *evtim = (struct rte_event_timer *)node->evtim;

	if (evtim != NULL) {
		svc->evbuf[svc->ev_head + svc->ev_count] = evtim->ev;
		svc->ev_count++;
		ta_counter_add(&svc->stats.evtim_exp_count, 1);
		if (adapter->periodic && list != NULL) {
			ta_periodic_rearm(adapter, list, node, evtim, now);
			return;
		}
		node->evtim = 0;
		ta_counter_add(&svc->expired, 1);
		/* The event is copied: the application may re-arm from now. */
		ta_state_set(evtim, RTE_EVENT_TIMER_NOT_ARMED);
	}
	if (list != NULL)
		ta_list_node_free(adapter, list, node);
}

/* Prefetch distances, in nodes ahead of the one settled. */
#define TA_PF_NODE 4
#define TA_PF_TIMER 2

/*
 * Build events from the FIFO front while there is room and budget. Runs
 * of timers of one list are settled under one hold of its lock (at most
 * TA_SVC_HOLD, so that its lcore is not kept from arming for long).
 */
static unsigned int
ta_fill(struct timer_adapter *adapter, unsigned int *budget, uint64_t now)
{
	struct ta_service *svc = &adapter->svc;
	struct ta_link *const end = &svc->fifo;
	struct ta_link *pf_node, *pf_timer;
	struct ta_list *locked = NULL;
	unsigned int done = 0, held = 0, i;

	if (svc->ev_head + svc->ev_count == TA_EVBUF_SIZE && svc->ev_head != 0) {
		memmove(svc->evbuf, &svc->evbuf[svc->ev_head],
			svc->ev_count * sizeof(svc->evbuf[0]));
		svc->ev_head = 0;
	}
	/*
	 * Two cursors run ahead: one prefetches nodes, the one behind it the
	 * timers those nodes point to (written when settled). Nodes between
	 * the front and the cursors were prefetched on earlier steps.
	 */
	pf_timer = svc->fifo.next;
	for (i = 0; i < TA_PF_TIMER && pf_timer != end; i++)
		pf_timer = pf_timer->next;
	pf_node = pf_timer;
	for (i = TA_PF_TIMER; i < TA_PF_NODE && pf_node != end; i++)
		pf_node = pf_node->next;
	while (*budget > 0 && svc->fifo.next != end &&
	       svc->ev_head + svc->ev_count < TA_EVBUF_SIZE) {
		struct ta_link *l = svc->fifo.next;
		struct ta_node *node = ta_node_of(l);
		struct ta_list *list = &adapter->lists[node->owner];

		if (pf_node != end) {
			rte_prefetch0(pf_node);
			pf_node = pf_node->next;
		}
		if (pf_timer != end) {
			__builtin_prefetch((void *)__atomic_load_n(
				&ta_node_of(pf_timer)->evtim,
				__ATOMIC_RELAXED), 1, 3);
			pf_timer = pf_timer->next;
		}
		if (list != locked || held == TA_SVC_HOLD) {
			if (locked != NULL)
				ta_list_unlock(locked);
			held = 0;
			locked = ta_list_lock(adapter, list) == 0 ? list : NULL;
		}
		held++;
		svc->fifo.next = l->next;
		l->next->prev = end;
		(*budget)--;
		done++;
		ta_expire_node(adapter, locked, node, now);
	}
	if (locked != NULL)
		ta_list_unlock(locked);
	return done;
}

/* Enqueue buffered events; returns how many the device accepted. */
static unsigned int
ta_flush(struct timer_adapter *adapter)
{
	struct ta_service *svc = &adapter->svc;
	const uint8_t dev = adapter->conf.event_dev_id;
	unsigned int total = 0;

	while (svc->ev_count > 0) {
		uint16_t n = RTE_MIN(svc->ev_count, (uint16_t)TA_ENQ_BURST);
		uint16_t sent;

		rte_errno = 0;
		sent = rte_event_enqueue_burst(dev, adapter->port_id,
					       &svc->evbuf[svc->ev_head], n);
		svc->ev_head += sent;
		svc->ev_count -= sent;
		total += sent;
		if (sent == n)
			continue;
		if (rte_errno == EINVAL) {
			/* The device will never take this event: count it. */
			svc->ev_head++;
			svc->ev_count--;
			ta_counter_add(&svc->stats.ev_inv_count, 1);
			continue;
		}
		/* Backpressure: keep the rest, in order, for a later try. */
		ta_counter_add(&svc->stats.evtim_retry_count, 1);
		break;
	}
	if (svc->ev_count == 0)
		svc->ev_head = 0;
	ta_counter_add(&svc->stats.ev_enq_count, total);
	return total;
}

int32_t
ta_service_func(void *arg)
{
	struct timer_adapter *adapter = arg;
	struct ta_service *svc = &adapter->svc;
	const uint64_t now = ta_now(adapter);
	const uint64_t tick = rte_reciprocal_divide_u64(now, &adapter->tick_div);
	unsigned int budget = TA_SVC_BUDGET, filled, sent, work = 0;

	if (!svc->ticked || tick > svc->last_tick) {
		/*
		 * A run late into its tick (by TA_LATE_FRACTION of a tick or
		 * more: a descheduled or overloaded service lcore) also fires
		 * the next tick's timers whose deadline has passed, as DPDK's
		 * adapter does; on time, the next tick's bucket is not walked.
		 * Not with the application's clock, whose ticks are exact.
		 */
		const uint64_t late = now - tick * adapter->cyc_per_tick;
		const uint64_t late_now = !adapter->clock_mode &&
			late >= adapter->cyc_per_tick / TA_LATE_FRACTION ?
			now : 0;

		svc->ticked = 1;
		svc->last_tick = tick;
		ta_counter_add(&svc->stats.adapter_tick_count, 1);
		ta_collect(adapter, tick, late_now);
	}
	/* Keep going while the device takes events and work remains. */
	do {
		filled = ta_fill(adapter, &budget, now);
		sent = ta_flush(adapter);
		work += filled + sent;
	} while (sent != 0 && budget > 0 &&
		 (svc->fifo.next != &svc->fifo || svc->ev_count != 0));
	/* Application clock: everything due at 'now' is with the device. */
	if (unlikely(adapter->clock_mode) && svc->fifo.next == &svc->fifo &&
	    svc->ev_count == 0)
		__atomic_store_n(&svc->clock_done, now, __ATOMIC_RELEASE);
	if (adapter->maintain)
		rte_event_maintain(adapter->conf.event_dev_id, adapter->port_id,
				   0);
	return work != 0 ? 0 : -EAGAIN;
}
