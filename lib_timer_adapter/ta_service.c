/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The adapter's service: detach what is due, build events, enqueue them.
 *
 * Each call reads the clock once. When the tick advanced, every list whose
 * smallest key is due is cut under its lock: each due tick's whole FIFO is
 * spliced, in O(1), onto the service's FIFO. Then, without any list lock,
 * timers are taken from the FIFO's front, settled against cancel by one
 * compare-and-swap on their node, and their events built into a buffer
 * that is enqueued in bursts; this repeats while the event device accepts
 * events, for at most TA_SVC_BUDGET timers. What the device refuses stays
 * in the buffer and in the FIFO, in order, for the next call: nothing is
 * re-inserted, dropped or reordered by backpressure. Freed nodes go back to
 * their lists in one lock hold per list and call.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_prefetch.h>

#include "ta_private.h"
#include "ta_time.h"

static inline struct ta_node *
ta_node_of(struct ta_link *l)
{
	return container_of(l, struct ta_node, link);
}

/* The return slot of a list, listed for the end of the call. */
static inline struct ta_svc_return *
ta_ret_slot(struct ta_service *svc, uint16_t owner)
{
	struct ta_svc_return *r = &svc->ret[owner];

	if (!r->pending) {
		r->pending = 1;
		svc->touched[svc->nb_touched++] = owner;
	}
	return r;
}

static inline void
ta_ret_node(struct ta_service *svc, struct ta_node *node)
{
	struct ta_svc_return *r = ta_ret_slot(svc, node->owner);

	node->link.next = r->nodes;
	r->nodes = &node->link;
	r->nb_nodes++;
}

static void
ta_return_all(struct timer_adapter *adapter)
{
	struct ta_service *svc = &adapter->svc;
	uint16_t i;

	for (i = 0; i < svc->nb_touched; i++) {
		struct ta_svc_return *r = &svc->ret[svc->touched[i]];
		struct ta_list *list = &adapter->lists[svc->touched[i]];
		struct ta_link *l, *ln;

		rte_spinlock_lock(&list->lock);
		for (l = r->nodes; l != NULL; l = ln) {
			ln = l->next;
			ta_list_node_free(list, ta_node_of(l));
		}
		ta_credits_put(adapter, list, r->nb_nodes);
		rte_spinlock_unlock(&list->lock);
		r->nodes = NULL;
		r->nb_nodes = 0;
		r->pending = 0;
	}
	svc->nb_touched = 0;
}

/* Append a circular FIFO (no sentinel) at the tail of the service's. */
static inline void
ta_fifo_splice(struct ta_link *fifo, struct ta_link *head)
{
	struct ta_link *last = head->prev;

	last->next = fifo;
	head->prev = fifo->prev;
	fifo->prev->next = head;
	fifo->prev = last;
}

/* Move every due timer of every used list to the FIFO. */
static void
ta_collect(struct timer_adapter *adapter, uint64_t tick)
{
	struct ta_service *svc = &adapter->svc;
	uint32_t i, nb = __atomic_load_n(&adapter->nb_used, __ATOMIC_ACQUIRE);

	for (i = 0; i < nb; i++) {
		struct ta_list *list = &adapter->lists[adapter->used_idx[i]];
		uint64_t key;

		if (__atomic_load_n(&list->min_key, __ATOMIC_ACQUIRE) > tick)
			continue;
		rte_spinlock_lock(&list->lock);
		/* Far buckets whose time has come go into rx first. */
		if (unlikely(ta_far_move(list, tick) < 0) &&
		    svc->far_nomem++ == 0)
			TA_SVC_LOG(ERR, "adapter %u: no memory to index parked "
				   "timers of list %u; retrying (they will be "
				   "late)", adapter->id, list->index);
		for (key = ta_rx_next(&list->rx, 0); key <= tick;
		     key = ta_rx_next(&list->rx, key + 1))
			ta_fifo_splice(&svc->fifo, ta_rx_take(&list->rx, key));
		list->cut_tick = tick;
		__atomic_store_n(&list->min_key,
				 RTE_MIN(key, ta_far_hint(list)),
				 __ATOMIC_RELEASE);
		rte_spinlock_unlock(&list->lock);
	}
}

/*
 * Re-schedule a periodic timer that just fired, one period after its
 * previous deadline (no drift). Firings are rounded up to a tick and the
 * service may run late, so the next deadline may already be behind us:
 * that firing still happens, at the next tick. Only periods whose whole
 * window passed while we were behind (the next deadline after them is in
 * the past too) are skipped, each counted as a dropped firing.
 */
static void
ta_periodic_rearm(struct timer_adapter *adapter, struct ta_node *node,
		  struct rte_event_timer *evtim, uint64_t now)
{
	struct ta_service *svc = &adapter->svc;
	struct ta_list *list = &adapter->lists[node->owner];
	uint64_t period, next, key, q;

	period = ta_ns_to_cycles(evtim->timeout_ticks *
				 adapter->conf.timer_tick_ns, adapter->hz);
	next = evtim->impl_opaque[1] + period;
	if (next + period <= now) {
		uint64_t k = (now - next) / period;

		next += k * period;
		ta_counter_add(&svc->stats.evtim_drop_count, k);
	}
	q = rte_reciprocal_divide_u64(next, &adapter->tick_div);
	key = q * adapter->cyc_per_tick < next ? q + 1 : q;
	/* Keys at or before the last cut would never be cut again. */
	if (key <= svc->last_tick)
		key = svc->last_tick + 1;
	evtim->impl_opaque[1] = next;

	rte_spinlock_lock(&list->lock);
	node->key = key;
	node->far = 0;
	switch (ta_rx_insert(&list->rx, key, &node->link)) {
	case 1:
		if (key < list->min_key)
			__atomic_store_n(&list->min_key, key, __ATOMIC_RELEASE);
		/* FALLTHROUGH */
	case 0:
		/* Cancellable again from here on. */
		__atomic_store_n(&node->evtim, (uintptr_t)evtim,
				 __ATOMIC_RELEASE);
		rte_spinlock_unlock(&list->lock);
		return;
	default:
		break;
	}
	/* Out of memory: the timer cannot go on; end it visibly. */
	rte_spinlock_unlock(&list->lock);
	TA_SVC_LOG(ERR, "adapter %u: no memory to re-arm a periodic timer",
		   adapter->id);
	node->evtim = 0;
	ta_counter_add(&svc->stats.evtim_drop_count, 1);
	ta_counter_add(&svc->expired, 1);
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_ERROR,
			 __ATOMIC_RELEASE);
	ta_ret_node(svc, node);
}

/* Settle one detached node; returns 1 if it produced an event. */
static inline int
ta_expire_node(struct timer_adapter *adapter, struct ta_node *node,
	       uint64_t now)
{
	struct ta_service *svc = &adapter->svc;
	uintptr_t word = __atomic_load_n(&node->evtim, __ATOMIC_ACQUIRE);
	struct rte_event_timer *evtim = (struct rte_event_timer *)word;
	uintptr_t to = adapter->periodic ? word | TA_NODE_FIRING : 0;

	/* 0: cancelled while waiting here; the canceller left it to us. */
	if (word == 0 ||
	    !__atomic_compare_exchange_n(&node->evtim, &word, to, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		ta_ret_node(svc, node);
		return 0;
	}
	svc->evbuf[svc->ev_head + svc->ev_count] = evtim->ev;
	svc->ev_count++;
	ta_counter_add(&svc->stats.evtim_exp_count, 1);
	if (adapter->periodic) {
		ta_periodic_rearm(adapter, node, evtim, now);
		return 1;
	}
	ta_counter_add(&svc->expired, 1);
	/* The event is copied: the application may re-arm from now on. */
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_NOT_ARMED,
			 __ATOMIC_RELEASE);
	ta_ret_node(svc, node);
	return 1;
}

/* Build events from the FIFO front while there is room and budget. */
static unsigned int
ta_fill(struct timer_adapter *adapter, unsigned int *budget, uint64_t now)
{
	struct ta_service *svc = &adapter->svc;
	unsigned int done = 0;

	if (svc->ev_head + svc->ev_count == TA_EVBUF_SIZE && svc->ev_head != 0) {
		memmove(svc->evbuf, &svc->evbuf[svc->ev_head],
			svc->ev_count * sizeof(svc->evbuf[0]));
		svc->ev_head = 0;
	}
	while (*budget > 0 && svc->fifo.next != &svc->fifo &&
	       svc->ev_head + svc->ev_count < TA_EVBUF_SIZE) {
		struct ta_link *l = svc->fifo.next;
		struct ta_link *n1 = l->next;

		/*
		 * Two-stage prefetch: the node after next, and the timer of
		 * the next node (fetched one step ago).
		 */
		if (n1 != &svc->fifo) {
			rte_prefetch0(n1->next);
			rte_prefetch0((void *)(ta_node_of(n1)->evtim &
					       ~TA_NODE_FIRING));
		}
		svc->fifo.next = n1;
		n1->prev = &svc->fifo;
		(*budget)--;
		done++;
		ta_expire_node(adapter, ta_node_of(l), now);
	}
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
	const uint64_t now = rte_get_timer_cycles();
	const uint64_t tick = rte_reciprocal_divide_u64(now, &adapter->tick_div);
	unsigned int budget = TA_SVC_BUDGET, filled, sent, work = 0;

	if (!svc->ticked || tick > svc->last_tick) {
		svc->ticked = 1;
		svc->last_tick = tick;
		ta_counter_add(&svc->stats.adapter_tick_count, 1);
		ta_collect(adapter, tick);
	}
	/* Keep going while the device takes events and work remains. */
	do {
		filled = ta_fill(adapter, &budget, now);
		sent = ta_flush(adapter);
		work += filled + sent;
	} while (sent != 0 && budget > 0 &&
		 (svc->fifo.next != &svc->fifo || svc->ev_count != 0));
	ta_return_all(adapter);
	if (adapter->maintain)
		rte_event_maintain(adapter->conf.event_dev_id, adapter->port_id,
				   0);
	return work != 0 ? 0 : -EAGAIN;
}
