/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The "ring" baseline: DPDK 19.05's software event timer adapter design,
 * rebuilt for the bench (the design DPDK 19.08 replaced by direct
 * insertion into per-lcore rte_timer lists).
 *
 * Producers never touch a timer list. Each arm or cancel takes a message
 * from a message mempool (sized for nb_timers, with per-lcore caches) and
 * enqueues it, one rte_ring enqueue per timer, on one multi-producer ring,
 * after checking the timeout range and the destination queue's scheduling
 * type (one rte_event_queue_attr_get per timer). Producers announce
 * themselves in a producer count and wait while the service runs the
 * timer list. The service drains the ring for as long as a producer is
 * active or messages remain, applies each message to its one rte_timer
 * list (an ARM message carries the rte_timer and lives until expiry or
 * cancel; the deadline starts when the service applies it), then, once
 * per tick, runs the list and flushes the expiry events. An event that
 * does not fit in the 4096-event buffer is retried at the next tick by
 * re-arming its rte_timer with a zero timeout.
 *
 * Where it differs from 19.05, and why:
 *  - timer state changes are atomic (compare-and-swap on cancel and at
 *    expiry, ARMED set before the enqueue): with 19.05's plain stores a
 *    10 us timer could expire before its producer marked it armed, and a
 *    cancel crossing an expiry freed a message twice;
 *  - the rte_timer list is the adapter's own (rte_timer_alt_*), not the
 *    default one, so it never meets DPDK 22.11's adapter in one process;
 *  - 19.05 refused ticks under 100 us (SW_MIN_INTERVAL); this one takes
 *    any tick, so test-eventdev's default 1 us tick runs at all;
 *  - settle() (the bench's wait for applied messages) has no 19.05
 *    counterpart; it is called outside every timed region.
 */

#include <errno.h>
#include <stdio.h>
#include <sys/queue.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_service_component.h>
#include <rte_timer.h>

#include "bench.h"

#define RING_DEQ 32		/* Messages per dequeue (19.05: NB_OBJS). */
#define RING_BUF 4096		/* Expiry event buffer (19.05's size). */
#define RING_BATCH 32		/* Flush once this many are buffered. */
#define RING_CHUNK 32		/* Messages taken per mempool get. */

enum ring_msg_type { RING_MSG_ARM, RING_MSG_CANCEL };

struct ring_msg {
	enum ring_msg_type type;
	struct rte_event_timer *evtim;
	struct rte_timer tim;		/* ARM: the timer, until it ends. */
	TAILQ_ENTRY(ring_msg) next;	/* ARM: on the armed list. */
};

TAILQ_HEAD(ring_msg_list, ring_msg);

struct ring_adapter {
	struct rte_ring *ring;
	struct rte_mempool *msg_pool;
	struct ring_msg_list armed;	/* Service only. */
	uint32_t timer_data_id;
	uint32_t service_id;
	uint8_t dev;
	uint8_t port;
	uint64_t hz;
	uint64_t cyc_per_tick;
	uint64_t next_tick;
	struct rte_event_timer_adapter_conf conf;
	struct rte_event buf[RING_BUF];	/* Circular. */
	uint32_t buf_head, buf_count;
	struct rte_event_timer_adapter_stats stats;
	int16_t producers;		/* Atomic: producers posting. */
	int phase;			/* Atomic: 1 applying, 2 managing. */
	uint64_t posted;		/* Atomic: messages posted. */
	uint64_t applied;		/* Atomic: messages applied. */
	unsigned int service_lcore;	/* Owner of the rte_timer list. */
};

static void
ring_flush(struct ring_adapter *ra)
{
	while (ra->buf_count != 0) {
		uint32_t tail = (ra->buf_head + RING_BUF - ra->buf_count) %
			RING_BUF;
		uint16_t n = RTE_MIN(RTE_MIN(ra->buf_count, RING_BUF - tail),
				     (uint32_t)RING_BATCH);
		uint16_t k = rte_event_enqueue_burst(ra->dev, ra->port,
						     &ra->buf[tail], n);

		ra->buf_count -= k;
		ra->stats.ev_enq_count += k;
		if (k < n)
			break;
	}
}

static void
ring_expire_cb(struct rte_timer *tim)
{
	struct ring_msg *m = container_of(tim, struct ring_msg, tim);
	struct rte_event_timer *evtim = m->evtim;
	struct ring_adapter *ra = (struct ring_adapter *)(uintptr_t)
		evtim->impl_opaque[1];
	enum rte_event_timer_state expected = RTE_EVENT_TIMER_ARMED;

	if (ra->buf_count == RING_BUF) {
		/* No room: try again at the next tick, as 19.05. */
		rte_timer_alt_reset(ra->timer_data_id, tim, 0, SINGLE,
				    rte_lcore_id(), NULL, evtim);
		ra->stats.evtim_retry_count++;
		return;
	}
	if (!compat_timer_state_cas(evtim, &expected,
					 RTE_EVENT_TIMER_NOT_ARMED,
					 COMPAT_ACQ_REL, COMPAT_ACQUIRE))
		return; /* Cancelled: its message frees this one. */
	TAILQ_REMOVE(&ra->armed, m, next);
	rte_mempool_put(ra->msg_pool, m);
	ra->buf[ra->buf_head] = evtim->ev;
	ra->buf_head = (ra->buf_head + 1) % RING_BUF;
	ra->buf_count++;
	ra->stats.evtim_exp_count++;
	if (ra->buf_count >= RING_BATCH)
		ring_flush(ra);
}

static void
ring_apply(struct ring_adapter *ra, struct ring_msg *m, unsigned int lcore)
{
	struct rte_event_timer *evtim = m->evtim;
	struct ring_msg *am;
	uint64_t ns;

	if (m->type == RING_MSG_CANCEL) {
		am = (struct ring_msg *)(uintptr_t)evtim->impl_opaque[0];
		rte_timer_alt_stop(ra->timer_data_id, &am->tim);
		TAILQ_REMOVE(&ra->armed, am, next);
		rte_mempool_put(ra->msg_pool, am);
		rte_mempool_put(ra->msg_pool, m);
		return;
	}
	/* The deadline counts from now, when the service applies it. */
	ns = evtim->timeout_ticks * ra->conf.timer_tick_ns;
	rte_timer_init(&m->tim);
	evtim->impl_opaque[0] = (uintptr_t)m;
	evtim->impl_opaque[1] = (uintptr_t)ra;
	TAILQ_INSERT_TAIL(&ra->armed, m, next);
	rte_timer_alt_reset(ra->timer_data_id, &m->tim,
			    (ns / 1000000000ULL) * ra->hz +
			    (ns % 1000000000ULL) * ra->hz / 1000000000ULL,
			    SINGLE, lcore, NULL, evtim);
}

static int32_t
ring_service(void *arg)
{
	struct ring_adapter *ra = arg;
	struct ring_msg *msgs[RING_DEQ];
	unsigned int i, n, lcore = rte_lcore_id();
	uint64_t now;

	__atomic_store_n(&ra->phase, 1, __ATOMIC_SEQ_CST);
	/* Drain while anyone is posting, as 19.05. */
	while (__atomic_load_n(&ra->producers, __ATOMIC_SEQ_CST) > 0 ||
	       !rte_ring_empty(ra->ring)) {
		n = rte_ring_sc_dequeue_burst(ra->ring, (void **)msgs,
					      RING_DEQ, NULL);
		for (i = 0; i < n; i++)
			ring_apply(ra, msgs[i], lcore);
		if (n != 0)
			__atomic_fetch_add(&ra->applied, n, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&ra->phase, 2, __ATOMIC_SEQ_CST);
	now = rte_get_timer_cycles();
	if (now >= ra->next_tick) {
		ra->next_tick = now - now % ra->cyc_per_tick + ra->cyc_per_tick;
		rte_timer_alt_manage(ra->timer_data_id, &lcore, 1,
				     ring_expire_cb);
		ring_flush(ra);
		ra->stats.adapter_tick_count++;
	}
	__atomic_store_n(&ra->phase, 0, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Largest power-of-two mempool cache that the pool's slack (its power-of-
 * two size less what was asked for) covers on every lcore, as 19.05.
 */
static unsigned int
ring_cache_size(uint64_t requested, uint64_t actual)
{
	unsigned int size = 0, next = 1;

	while ((uint64_t)RTE_MAX_LCORE * next < actual - requested &&
	       next < RTE_MEMPOOL_CACHE_MAX_SIZE && next <= actual * 2 / 3) {
		size = next;
		next *= 2;
	}
	return size;
}

/* conf_arg is the bench's struct bench_create_arg (see bench.h). */
static void *
ring_create_ext(const struct rte_event_timer_adapter_conf *conf,
		rte_event_timer_adapter_port_conf_cb_t conf_cb, void *conf_arg)
{
	const struct bench_create_arg *arg = conf_arg;
	struct rte_service_spec spec = { .name = "bench_ring_svc" };
	uint64_t nb = rte_align64pow2(RTE_MAX(conf->nb_timers, (uint64_t)64));
	struct ring_adapter *ra;
	char name[RTE_RING_NAMESIZE];

	ra = rte_zmalloc("bench_ring", sizeof(*ra), RTE_CACHE_LINE_SIZE);
	if (ra == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/* Short names: the pool's ring and memzones add prefixes. */
	snprintf(name, sizeof(name), "brr_%p", (void *)ra);
	ra->ring = rte_ring_create(name, nb, SOCKET_ID_ANY, RING_F_SC_DEQ);
	snprintf(name, sizeof(name), "brm_%p", (void *)ra);
	ra->msg_pool = rte_mempool_create(name, nb - 1, sizeof(struct ring_msg),
					  ring_cache_size(conf->nb_timers, nb),
					  0, NULL, NULL, NULL, NULL,
					  SOCKET_ID_ANY, 0);
	if (ra->ring == NULL || ra->msg_pool == NULL ||
	    conf_cb(conf->timer_adapter_id, conf->event_dev_id, &ra->port,
		    conf_arg) != 0 ||
	    rte_timer_data_alloc(&ra->timer_data_id) != 0)
		goto fail;
	TAILQ_INIT(&ra->armed);
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
	rte_mempool_free(ra->msg_pool);
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
	while (rte_service_may_be_active(ra->service_id) == 1 ||
	       __atomic_load_n(&ra->phase, __ATOMIC_ACQUIRE) != 0)
		rte_pause();
	return 0;
}

static int
ring_free(void *h)
{
	struct ring_adapter *ra = h;
	struct ring_msg *m;

	rte_service_component_unregister(ra->service_id);
	/* Timers still pending live in the messages about to go. */
	while ((m = TAILQ_FIRST(&ra->armed)) != NULL) {
		rte_timer_alt_stop(ra->timer_data_id, &m->tim);
		TAILQ_REMOVE(&ra->armed, m, next);
	}
	rte_timer_data_dealloc(ra->timer_data_id);
	rte_ring_free(ra->ring);
	rte_mempool_free(ra->msg_pool);
	rte_free(ra);
	return 0;
}

static int
ring_service_id(void *h, uint32_t *id)
{
	*id = ((struct ring_adapter *)h)->service_id;
	return 0;
}

/* 19.05's per-timer checks: state, timeout range, destination queue. */
static int
ring_check(const struct ring_adapter *ra, struct rte_event_timer *t)
{
	uint32_t sched;
	uint64_t ns;
	int ret;

	if (t->state == RTE_EVENT_TIMER_ARMED)
		return EALREADY;
	if (t->state != RTE_EVENT_TIMER_NOT_ARMED &&
	    t->state != RTE_EVENT_TIMER_CANCELED)
		return EINVAL;
	if (__builtin_mul_overflow(t->timeout_ticks, ra->conf.timer_tick_ns,
				   &ns) || ns > ra->conf.max_tmo_ns) {
		t->state = RTE_EVENT_TIMER_ERROR_TOOLATE;
		return EINVAL;
	}
	if (ns < ra->conf.timer_tick_ns) {
		t->state = RTE_EVENT_TIMER_ERROR_TOOEARLY;
		return EINVAL;
	}
	ret = rte_event_queue_attr_get(ra->dev, t->ev.queue_id,
				       RTE_EVENT_QUEUE_ATTR_SCHEDULE_TYPE,
				       &sched);
	if ((ret < 0 && ret != -EOVERFLOW) ||
	    (ret == 0 && t->ev.sched_type != sched)) {
		t->state = RTE_EVENT_TIMER_ERROR;
		return EINVAL;
	}
	return 0;
}

/* Post up to RING_CHUNK messages of one type; returns how many. */
static uint16_t
ring_post(struct ring_adapter *ra, struct rte_event_timer **t, uint16_t n,
	  enum ring_msg_type type)
{
	struct ring_msg *m[RING_CHUNK];
	uint16_t i;
	int err = 0;

	if (rte_mempool_get_bulk(ra->msg_pool, (void **)m, n) < 0) {
		rte_errno = ENOSPC;
		return 0;
	}
	__atomic_fetch_add(&ra->producers, 1, __ATOMIC_SEQ_CST);
	/* Timer states must not change under the running list. */
	while (__atomic_load_n(&ra->phase, __ATOMIC_SEQ_CST) == 2)
		rte_pause();
	for (i = 0; i < n; i++) {
		enum rte_event_timer_state expected = RTE_EVENT_TIMER_ARMED;

		if (type == RING_MSG_ARM) {
			err = ring_check(ra, t[i]);
			if (err != 0)
				break;
			compat_timer_state_store(t[i], RTE_EVENT_TIMER_ARMED,
					 COMPAT_RELEASE);
		} else if (!compat_timer_state_cas(t[i],
				&expected, RTE_EVENT_TIMER_CANCELED,
				COMPAT_ACQ_REL, COMPAT_ACQUIRE)) {
			err = expected == RTE_EVENT_TIMER_CANCELED ?
				EALREADY : EINVAL;
			break;
		}
		m[i]->type = type;
		m[i]->evtim = t[i];
		if (rte_ring_mp_enqueue(ra->ring, m[i]) != 0) {
			t[i]->state = type == RING_MSG_ARM ?
				RTE_EVENT_TIMER_NOT_ARMED :
				RTE_EVENT_TIMER_ARMED;
			err = ENOSPC;
			break;
		}
	}
	__atomic_fetch_add(&ra->posted, i, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&ra->producers, 1, __ATOMIC_SEQ_CST);
	if (i < n)
		rte_mempool_put_bulk(ra->msg_pool, (void **)&m[i], n - i);
	if (err != 0)
		rte_errno = err;
	return i;
}

static uint16_t
ring_burst(struct ring_adapter *ra, struct rte_event_timer **t, uint16_t n,
	   enum ring_msg_type type)
{
	uint16_t done = 0;

	while (done < n) {
		uint16_t k = RTE_MIN(n - done, RING_CHUNK);
		uint16_t d = ring_post(ra, &t[done], k, type);

		done += d;
		if (d < k)
			break;
	}
	return done;
}

static uint16_t
ring_arm(void *h, struct rte_event_timer **t, uint16_t n)
{
	return ring_burst(h, t, n, RING_MSG_ARM);
}

static uint16_t
ring_arm_tmo(void *h, struct rte_event_timer **t, uint64_t tmo, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++)
		t[i]->timeout_ticks = tmo;
	return ring_burst(h, t, n, RING_MSG_ARM);
}

static uint16_t
ring_cancel(void *h, struct rte_event_timer **t, uint16_t n)
{
	return ring_burst(h, t, n, RING_MSG_CANCEL);
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
