/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The "ring" baseline: the software adapter design before DPDK 19.08.
 *
 * Producers do not touch any timer list: arm and cancel post a message to
 * one multi-producer ring; the service lcore drains the ring and applies
 * each message to its own single rte_timer list (lib/timer), then runs
 * that list and enqueues expiry events. It exists only so the bench can
 * show what direct insertion buys. Like the old design, a timer whose
 * event does not fit in the buffer is re-armed with a zero timeout.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>
#include <rte_service_component.h>
#include <rte_timer.h>

#include "bench.h"

#define RING_SIZE (1u << 21)
#define RING_DEQ 256
#define RING_BUF 4096
#define RING_OP_CANCEL ((uintptr_t)1)

struct ring_adapter {
	struct rte_ring *ring;
	struct rte_timer *tims;		/* One per bench timer. */
	struct rte_event_timer *base;
	uint64_t nb;
	uint32_t timer_data_id;
	uint32_t service_id;
	uint8_t dev;
	uint8_t port;
	uint64_t hz;
	struct rte_event_timer_adapter_conf conf;
	struct rte_event buf[RING_BUF];
	uint32_t nbuf;
	struct rte_event_timer_adapter_stats stats;
	uint64_t posted;		/* Messages posted (atomic). */
	uint64_t applied;		/* Messages applied by the service. */
	uint64_t last_tick;
	uint64_t cyc_per_tick;
	unsigned int service_lcore;	/* Owner of the rte_timer list. */
};

static void
ring_expire_cb(struct rte_timer *tim)
{
	struct rte_event_timer *evtim = tim->arg;
	struct ring_adapter *ra = (struct ring_adapter *)(uintptr_t)
		evtim->impl_opaque[0];
	uint32_t lcore = rte_lcore_id();
	int expected = RTE_EVENT_TIMER_ARMED;

	if (ra->nbuf == RING_BUF) {
		/* No room: try again at the next tick, as the old design. */
		rte_timer_alt_reset(ra->timer_data_id, tim, 0, SINGLE, lcore,
				    NULL, evtim);
		ra->stats.evtim_retry_count++;
		return;
	}
	if (!__atomic_compare_exchange_n((int *)&evtim->state, &expected,
					 RTE_EVENT_TIMER_NOT_ARMED, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return; /* Cancelled: the cancel message is on its way. */
	ra->buf[ra->nbuf++] = evtim->ev;
	ra->stats.evtim_exp_count++;
}

static void
ring_flush(struct ring_adapter *ra)
{
	uint32_t sent = 0;

	while (sent < ra->nbuf) {
		uint16_t n = RTE_MIN(ra->nbuf - sent, 32u);
		uint16_t k = rte_event_enqueue_burst(ra->dev, ra->port,
						     &ra->buf[sent], n);

		sent += k;
		if (k < n)
			break;
	}
	if (sent != 0) {
		memmove(ra->buf, &ra->buf[sent],
			(ra->nbuf - sent) * sizeof(ra->buf[0]));
		ra->nbuf -= sent;
		ra->stats.ev_enq_count += sent;
	}
}

static void
ring_apply(struct ring_adapter *ra, uintptr_t msg, uint64_t now)
{
	struct rte_event_timer *evtim =
		(struct rte_event_timer *)(msg & ~RING_OP_CANCEL);
	struct rte_timer *tim = &ra->tims[evtim - ra->base];
	uint64_t deadline;

	if (msg & RING_OP_CANCEL) {
		rte_timer_alt_stop(ra->timer_data_id, tim);
		return;
	}
	if (__atomic_load_n(&evtim->state, __ATOMIC_ACQUIRE) !=
	    RTE_EVENT_TIMER_ARMED)
		return; /* Cancelled before we saw it. */
	deadline = evtim->impl_opaque[1];
	rte_timer_alt_reset(ra->timer_data_id, tim,
			    deadline > now ? deadline - now : 0, SINGLE,
			    rte_lcore_id(), NULL, evtim);
}

static int32_t
ring_service(void *arg)
{
	struct ring_adapter *ra = arg;
	void *msgs[RING_DEQ];
	unsigned int i, n, lcore = rte_lcore_id();
	uint64_t now = rte_get_timer_cycles();

	n = rte_ring_sc_dequeue_burst(ra->ring, msgs, RING_DEQ, NULL);
	for (i = 0; i < n; i++)
		ring_apply(ra, (uintptr_t)msgs[i], now);
	if (n != 0)
		__atomic_store_n(&ra->applied, ra->applied + n,
				 __ATOMIC_RELEASE);
	if (now / ra->cyc_per_tick != ra->last_tick) {
		ra->last_tick = now / ra->cyc_per_tick;
		ra->stats.adapter_tick_count++;
		rte_timer_alt_manage(ra->timer_data_id, &lcore, 1,
				     ring_expire_cb);
	}
	ring_flush(ra);
	return 0;
}

/* conf_arg is the bench's struct bench_create_arg (see bench.h). */
static void *
ring_create_ext(const struct rte_event_timer_adapter_conf *conf,
		rte_event_timer_adapter_port_conf_cb_t conf_cb, void *conf_arg)
{
	const struct bench_create_arg *arg = conf_arg;
	struct rte_service_spec spec = { .name = "bench_ring_svc" };
	struct ring_adapter *ra;
	char name[32];

	ra = rte_zmalloc("bench_ring", sizeof(*ra), RTE_CACHE_LINE_SIZE);
	if (ra == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(name, sizeof(name), "bench_ring_%p", (void *)ra);
	ra->ring = rte_ring_create(name, RING_SIZE, SOCKET_ID_ANY,
				   RING_F_SC_DEQ);
	ra->tims = rte_zmalloc("bench_ring_tims", sizeof(*ra->tims) * arg->nb,
			       RTE_CACHE_LINE_SIZE);
	if (ra->ring == NULL || ra->tims == NULL ||
	    conf_cb(conf->timer_adapter_id, conf->event_dev_id, &ra->port,
		    conf_arg) != 0 ||
	    rte_timer_data_alloc(&ra->timer_data_id) != 0)
		goto fail;
	for (uint64_t i = 0; i < arg->nb; i++)
		rte_timer_init(&ra->tims[i]);
	ra->base = arg->base;
	ra->nb = arg->nb;
	ra->dev = conf->event_dev_id;
	ra->conf = *conf;
	ra->hz = rte_get_timer_hz();
	ra->service_lcore = arg->service_lcore;
	ra->cyc_per_tick = RTE_MAX(conf->timer_tick_ns * ra->hz / 1000000000ULL,
				   (uint64_t)1);
	spec.callback = ring_service;
	spec.callback_userdata = ra;
	if (rte_service_component_register(&spec, &ra->service_id) != 0)
		goto fail;
	return ra;
fail:
	rte_ring_free(ra->ring);
	rte_free(ra->tims);
	rte_free(ra);
	rte_errno = ENOMEM;
	return NULL;
}

static int
ring_start(void *h)
{
	struct ring_adapter *ra = h;

	return rte_service_component_runstate_set(ra->service_id, 1);
}

static int
ring_stop(void *h)
{
	struct ring_adapter *ra = h;

	rte_service_component_runstate_set(ra->service_id, 0);
	while (rte_service_may_be_active(ra->service_id) == 1)
		rte_pause();
	return 0;
}

static int
ring_free(void *h)
{
	struct ring_adapter *ra = h;

	rte_service_component_unregister(ra->service_id);
	/*
	 * Timers still pending point into ra->tims: take them off the list
	 * before that memory goes (the timer data may be reused next run).
	 */
	rte_timer_stop_all(ra->timer_data_id, &ra->service_lcore, 1, NULL,
			   NULL);
	rte_timer_data_dealloc(ra->timer_data_id);
	rte_ring_free(ra->ring);
	rte_free(ra->tims);
	rte_free(ra);
	return 0;
}

static int
ring_service_id(void *h, uint32_t *id)
{
	*id = ((struct ring_adapter *)h)->service_id;
	return 0;
}

static int
ring_check(const struct ring_adapter *ra, struct rte_event_timer *t)
{
	uint64_t ns;

	if (t->state == RTE_EVENT_TIMER_ARMED)
		return EALREADY;
	if (t->timeout_ticks == 0) {
		t->state = RTE_EVENT_TIMER_ERROR_TOOEARLY;
		return EINVAL;
	}
	if (__builtin_mul_overflow(t->timeout_ticks, ra->conf.timer_tick_ns,
				   &ns) || ns > ra->conf.max_tmo_ns) {
		t->state = RTE_EVENT_TIMER_ERROR_TOOLATE;
		return EINVAL;
	}
	return 0;
}

static uint16_t
ring_arm(void *h, struct rte_event_timer **t, uint16_t n)
{
	struct ring_adapter *ra = h;
	uint64_t now = rte_get_timer_cycles();
	uint16_t i, sent;
	int err = 0;

	for (i = 0; i < n; i++) {
		uint64_t ns = t[i]->timeout_ticks * ra->conf.timer_tick_ns;

		err = ring_check(ra, t[i]);
		if (err != 0)
			break;
		t[i]->impl_opaque[0] = (uintptr_t)ra;
		t[i]->impl_opaque[1] = now + (ns / 1000000000ULL) * ra->hz +
			(ns % 1000000000ULL) * ra->hz / 1000000000ULL;
		__atomic_store_n(&t[i]->state, RTE_EVENT_TIMER_ARMED,
				 __ATOMIC_RELEASE);
	}
	sent = rte_ring_mp_enqueue_burst(ra->ring, (void **)t, i, NULL);
	if (sent < i) {
		for (uint16_t k = sent; k < i; k++)
			t[k]->state = RTE_EVENT_TIMER_NOT_ARMED;
		err = ENOSPC;
	}
	__atomic_fetch_add(&ra->posted, sent, __ATOMIC_RELAXED);
	if (err != 0)
		rte_errno = err;
	return sent;
}

static uint16_t
ring_arm_tmo(void *h, struct rte_event_timer **t, uint64_t tmo, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++)
		t[i]->timeout_ticks = tmo;
	return ring_arm(h, t, n);
}

static uint16_t
ring_cancel(void *h, struct rte_event_timer **t, uint16_t n)
{
	struct ring_adapter *ra = h;
	void *msgs[64];
	uint16_t i, done = 0;

	while (done < n) {
		uint16_t k = RTE_MIN(n - done, 64);

		for (i = 0; i < k; i++) {
			int expected = RTE_EVENT_TIMER_ARMED;

			if (!__atomic_compare_exchange_n((int *)&t[done + i]->state,
					&expected, RTE_EVENT_TIMER_CANCELED, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				rte_errno = expected == RTE_EVENT_TIMER_CANCELED ?
					EALREADY : EINVAL;
				break;
			}
			msgs[i] = (void *)((uintptr_t)t[done + i] |
					   RING_OP_CANCEL);
		}
		/* A cancel must reach the service: wait for room. */
		for (uint16_t s = 0; s < i; )
			s += rte_ring_mp_enqueue_burst(ra->ring, &msgs[s], i - s,
						       NULL);
		__atomic_fetch_add(&ra->posted, i, __ATOMIC_RELAXED);
		done += i;
		if (i < k)
			break;
	}
	return done;
}

static int
ring_stats(void *h, struct rte_event_timer_adapter_stats *s)
{
	*s = ((struct ring_adapter *)h)->stats;
	return 0;
}

static void
ring_settle(void *h)
{
	struct ring_adapter *ra = h;

	while (__atomic_load_n(&ra->applied, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(&ra->posted, __ATOMIC_RELAXED))
		rte_pause();
}

const struct tp_adapter_ops bench_ring_ops = {
	.name = "ring",
	.create_ext = ring_create_ext,
	.start = ring_start,
	.stop = ring_stop,
	.free = ring_free,
	.service_id_get = ring_service_id,
	.stats_get = ring_stats,
	.arm_burst = ring_arm,
	.arm_tmo_tick_burst = ring_arm_tmo,
	.cancel_burst = ring_cancel,
	.settle = ring_settle,
};
