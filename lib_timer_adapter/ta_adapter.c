/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Adapter lifecycle: create, free, start, stop, lookup, info, stats and
 * accounting, and this process's table of known handles. Locks: the
 * table's ta_table_lock (below); stats_lock for the statistics baseline;
 * the control calls are otherwise not thread-safe against each other (as
 * DPDK's), and read the lists' counters with relaxed loads.
 */

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "ta_private.h"
#include "ta_time.h"

RTE_LOG_REGISTER(ta_logtype, lib.timer_adapter, NOTICE);
RTE_LOG_REGISTER(ta_svc_logtype, lib.timer_adapter.svc, NOTICE);

#define TA_MZ_FMT "ta_data_%u"
#define TA_SVC_FMT "ta_svc_%u"

/*
 * Handles known to this process. Shared memory holds the adapters; this
 * table only saves a memzone lookup per call and is filled by create and
 * lookup.
 */
static struct timer_adapter *ta_table[TIMER_ADAPTER_NUM_MAX];

/*
 * Held while this process publishes or withdraws a table entry and frees
 * an adapter, and by telemetry handlers while they read one, so that a
 * telemetry reply never reads an adapter this process is freeing.
 */
static rte_spinlock_t ta_table_lock = RTE_SPINLOCK_INITIALIZER;

void
ta_table_hold(void)
{
	rte_spinlock_lock(&ta_table_lock);
}

void
ta_table_release(void)
{
	rte_spinlock_unlock(&ta_table_lock);
}

/*
 * The live adapter of an id known to this process, or NULL. Read-only: a
 * stale entry (the adapter was freed by another process) is replaced by
 * the next create or lookup.
 */
struct timer_adapter *
ta_adapter_get(uint16_t id)
{
	struct timer_adapter *a;

	if (id >= TIMER_ADAPTER_NUM_MAX)
		return NULL;
	a = __atomic_load_n(&ta_table[id], __ATOMIC_ACQUIRE);
	return a != NULL && ta_valid(a) ? a : NULL;
}

static void
ta_table_set(uint16_t id, struct timer_adapter *a)
{
	ta_table_hold();
	__atomic_store_n(&ta_table[id], a, __ATOMIC_RELEASE);
	ta_table_release();
}

/*
 * Default port configuration: add one port to the device. DPDK keeps the
 * device's current configuration in a driver-only structure, so the
 * limits are rebuilt from the device's maxima (see timer_adapter.h).
 */
static int
ta_default_port_conf_cb(uint16_t id, uint8_t dev_id, uint8_t *port_id,
			void *conf_arg)
{
	struct rte_event_port_conf *pconf = conf_arg, def_conf;
	struct rte_event_dev_config dev_conf;
	struct rte_event_dev_info info;
	uint32_t nb_ports, nb_queues, started, cfg, q;
	uint8_t nb_single_link = 0;
	int ret;

	ret = rte_event_dev_info_get(dev_id, &info);
	if (ret < 0)
		return ret;
	if (rte_event_dev_attr_get(dev_id, RTE_EVENT_DEV_ATTR_PORT_COUNT,
				   &nb_ports) < 0 ||
	    rte_event_dev_attr_get(dev_id, RTE_EVENT_DEV_ATTR_QUEUE_COUNT,
				   &nb_queues) < 0 ||
	    rte_event_dev_attr_get(dev_id, RTE_EVENT_DEV_ATTR_STARTED,
				   &started) < 0)
		return -EINVAL;
	/* The single-link port/queue pairs the device has: its queues that
	 * are single-link (the count DPDK keeps in its configuration).
	 */
	for (q = 0; q < nb_queues; q++)
		if (rte_event_queue_attr_get(dev_id, q,
					     RTE_EVENT_QUEUE_ATTR_EVENT_QUEUE_CFG,
					     &cfg) == 0 &&
		    (cfg & RTE_EVENT_QUEUE_CFG_SINGLE_LINK))
			nb_single_link++;
	/* From DPDK 23.03 a single-link adapter port counts as one more. */
	if (COMPAT_DPDK_PORT_SINGLE_LINK_COUNT && pconf != NULL &&
	    (pconf->event_port_cfg & RTE_EVENT_PORT_CFG_SINGLE_LINK))
		nb_single_link++;
	if (started)
		rte_event_dev_stop(dev_id);

	memset(&dev_conf, 0, sizeof(dev_conf));
	dev_conf.dequeue_timeout_ns = info.min_dequeue_timeout_ns;
	dev_conf.nb_events_limit = info.max_num_events;
	dev_conf.nb_event_queues = nb_queues;
	dev_conf.nb_event_ports = nb_ports + 1;
	dev_conf.nb_event_queue_flows = info.max_event_queue_flows;
	dev_conf.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	dev_conf.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	dev_conf.nb_single_link_event_port_queues = nb_single_link;
	ret = rte_event_dev_configure(dev_id, &dev_conf);
	if (ret < 0) {
		TA_LOG(ERR, "adapter %u: cannot reconfigure event device %u: %d",
		       id, dev_id, ret);
		if (started && rte_event_dev_start(dev_id) < 0)
			return -EIO;
		return ret;
	}
	if (pconf == NULL) {
		rte_event_port_default_conf_get(dev_id, nb_ports, &def_conf);
		pconf = &def_conf;
	}
	ret = rte_event_port_setup(dev_id, nb_ports, pconf);
	if (ret < 0) {
		TA_LOG(ERR, "adapter %u: cannot set up port %u: %d", id,
		       nb_ports, ret);
		return ret;
	}
	*port_id = nb_ports;
	if (started) {
		ret = rte_event_dev_start(dev_id);
		if (ret < 0)
			return -EIO;
	}
	return 0;
}

static int
ta_conf_check(const struct rte_event_timer_adapter_conf *conf)
{
	struct rte_event_dev_info info;

	if (conf == NULL ||
	    rte_event_dev_info_get(conf->event_dev_id, &info) != 0 ||
	    conf->timer_adapter_id >= TIMER_ADAPTER_NUM_MAX)
		return -EINVAL;
	if (conf->timer_tick_ns == 0 || conf->nb_timers == 0 ||
	    conf->max_tmo_ns < conf->timer_tick_ns)
		return -EINVAL;
	if (conf->nb_timers > (uint64_t)INT64_MAX)
		return -EINVAL;
	return 0;
}

static int
ta_service_register(struct timer_adapter *adapter)
{
	struct rte_service_spec spec;
	int ret;

	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), TA_SVC_FMT, adapter->id);
	spec.callback = ta_service_func;
	spec.callback_userdata = adapter;
	spec.socket_id = adapter->conf.socket_id;
	/* Not MT safe: one lcore runs it, which start() enforces. */
	spec.capabilities = 0;
	ret = rte_service_component_register(&spec, &adapter->service_id);
	if (ret < 0)
		return ret;
	adapter->service_registered = 1;
	rte_service_component_runstate_set(adapter->service_id, 0);
	return 0;
}

static void
ta_init_state(struct timer_adapter *adapter,
	      const struct rte_event_timer_adapter_conf *conf)
{
	unsigned int i;

	/* qsched[] holds TA_QS_KNOWN | a schedule type, or TA_QS_ANY. */
	RTE_BUILD_BUG_ON(RTE_SCHED_TYPE_ORDERED >= TA_QS_KNOWN);
	RTE_BUILD_BUG_ON(RTE_SCHED_TYPE_ATOMIC >= TA_QS_KNOWN);
	RTE_BUILD_BUG_ON(RTE_SCHED_TYPE_PARALLEL >= TA_QS_KNOWN);
	RTE_BUILD_BUG_ON((TA_QS_KNOWN | RTE_SCHED_TYPE_PARALLEL) == TA_QS_ANY);
	RTE_BUILD_BUG_ON(RTE_DIM(adapter->qsched) <= UINT8_MAX);
	/* Cancel finds the node and remaining_ticks the deadline there. */
	RTE_BUILD_BUG_ON(sizeof(uintptr_t) >
			 sizeof(((struct rte_event_timer *)0)->impl_opaque[0]));
	RTE_BUILD_BUG_ON(RTE_DIM(((struct rte_event_timer *)0)->impl_opaque) <
			 2);
	/* The event buffer's indexes are uint16_t; bursts fit the buffer. */
	RTE_BUILD_BUG_ON(TA_EVBUF_SIZE > UINT16_MAX);
	RTE_BUILD_BUG_ON(TA_ENQ_BURST > TA_EVBUF_SIZE);
	/*
	 * The memzone is cache-line aligned: so are the lists and the
	 * fields kept on lines of their own.
	 */
	RTE_BUILD_BUG_ON(offsetof(struct timer_adapter, credits) %
			 RTE_CACHE_LINE_SIZE);
	RTE_BUILD_BUG_ON(offsetof(struct timer_adapter, lists) %
			 RTE_CACHE_LINE_SIZE);

	adapter->conf = *conf;
	adapter->id = conf->timer_adapter_id;
	adapter->periodic =
		!!(conf->flags & RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	/* The application's clock counts nanoseconds: a 1 GHz clock. */
	adapter->clock_mode = !!(conf->flags & TIMER_ADAPTER_F_CLOCK);
	adapter->hz = adapter->clock_mode ? CYCLES_NS_PER_S :
		rte_get_timer_hz();
	adapter->cyc_per_tick =
		RTE_MAX(ns_to_cycles(conf->timer_tick_ns, adapter->hz),
			(uint64_t)1);
	adapter->tick_div = rte_reciprocal_value_u64(adapter->cyc_per_tick);
	adapter->far_shift = ta_far_shift_for(conf->max_tmo_ns,
					      conf->timer_tick_ns);
	adapter->credits = (int64_t)conf->nb_timers;
	rte_spinlock_init(&adapter->used_lock);
	rte_spinlock_init(&adapter->stats_lock);
	adapter->svc.fifo.next = &adapter->svc.fifo;
	adapter->svc.fifo.prev = &adapter->svc.fifo;
	for (i = 0; i < TA_NB_LISTS; i++)
		ta_list_init(&adapter->lists[i], i, adapter->far_shift);
}

/*
 * What create checks before reserving anything: 0, or -EINVAL (bad
 * configuration or no callback), -EEXIST (this process knows the id) or
 * the event device's error.
 */
static int
ta_create_check(const struct rte_event_timer_adapter_conf *conf,
		rte_event_timer_adapter_port_conf_cb_t conf_cb)
{
	uint32_t caps = 0;
	int ret;

	ret = ta_conf_check(conf);
	if (ret == 0 && conf_cb == NULL)
		ret = -EINVAL;
	if (ret != 0)
		return ret;
	if (ta_adapter_get(conf->timer_adapter_id) != NULL)
		return -EEXIST;
	ret = rte_event_timer_adapter_caps_get(conf->event_dev_id, &caps);
	return ret < 0 ? ret : 0;
}

struct timer_adapter *
timer_adapter_create_ext(const struct rte_event_timer_adapter_conf *conf,
			 rte_event_timer_adapter_port_conf_cb_t conf_cb,
			 void *conf_arg)
{
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	struct timer_adapter *adapter;
	struct rte_event_dev_info info;
	int ret;

	ret = ta_create_check(conf, conf_cb);
	if (ret != 0) {
		rte_errno = -ret;
		return NULL;
	}
	snprintf(name, sizeof(name), TA_MZ_FMT, conf->timer_adapter_id);
	mz = rte_memzone_reserve_aligned(name, sizeof(*adapter),
					 conf->socket_id, 0,
					 RTE_CACHE_LINE_SIZE);
	if (mz == NULL)
		return NULL; /* rte_errno: EEXIST (another process), ENOMEM. */
	adapter = mz->addr;
	memset(adapter, 0, sizeof(*adapter));
	adapter->mz = mz;
	ta_init_state(adapter, conf);

	ret = conf_cb(conf->timer_adapter_id, conf->event_dev_id,
		      &adapter->port_id, conf_arg);
	if (ret < 0) {
		TA_LOG(ERR, "adapter %u: port configuration failed: %d",
		       adapter->id, ret);
		goto fail_mz;
	}
	if (rte_event_dev_info_get(conf->event_dev_id, &info) == 0)
		adapter->maintain = !(info.event_dev_cap &
				      RTE_EVENT_DEV_CAP_MAINTENANCE_FREE);
	ret = ta_service_register(adapter);
	if (ret < 0) {
		TA_LOG(ERR, "adapter %u: service registration failed: %d",
		       adapter->id, ret);
		goto fail_mz;
	}
	__atomic_store_n(&adapter->magic, TA_MAGIC, __ATOMIC_RELEASE);
	ta_table_set(adapter->id, adapter);
	TA_LOG(DEBUG, "adapter %u: port %u, tick %" PRIu64 " ns = %" PRIu64
	       " cycles, service %u", adapter->id, adapter->port_id,
	       conf->timer_tick_ns, adapter->cyc_per_tick, adapter->service_id);
	return adapter;

fail_mz:
	rte_memzone_free(mz);
	rte_errno = -ret;
	return NULL;
}

struct timer_adapter *
timer_adapter_create(const struct rte_event_timer_adapter_conf *conf)
{
	return timer_adapter_create_ext(conf, ta_default_port_conf_cb, NULL);
}

int
timer_adapter_free(struct timer_adapter *adapter)
{
	unsigned int i;

	if (!ta_valid(adapter))
		return -EINVAL;
	if (__atomic_load_n(&adapter->started, __ATOMIC_ACQUIRE))
		return -EBUSY;
	/* As in DPDK, undelivered expiries die with the adapter: say so. */
	if (adapter->svc.ev_count != 0 ||
	    adapter->svc.fifo.next != &adapter->svc.fifo)
		TA_LOG(WARNING, "adapter %u: freed with expiries not delivered "
		       "(%u events buffered, expired timers %s)", adapter->id,
		       adapter->svc.ev_count,
		       adapter->svc.fifo.next != &adapter->svc.fifo ?
		       "waiting" : "none");
	if (adapter->service_registered) {
		rte_service_component_unregister(adapter->service_id);
		adapter->service_registered = 0;
	}
	ta_table_hold();
	__atomic_store_n(&adapter->magic, 0, __ATOMIC_RELEASE);
	if (adapter->id < TIMER_ADAPTER_NUM_MAX)
		__atomic_store_n(&ta_table[adapter->id], NULL,
				 __ATOMIC_RELEASE);
	ta_table_release();
	for (i = 0; i < TA_NB_LISTS; i++)
		ta_list_release(&adapter->lists[i]);
	rte_memzone_free(adapter->mz);
	return 0;
}

/* Number of service lcores the service is mapped to. */
static int
ta_mapped_lcores(uint32_t service_id)
{
	uint32_t lcores[RTE_MAX_LCORE];
	int i, n, count = 0;

	n = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	for (i = 0; i < n; i++)
		if (rte_service_map_lcore_get(service_id, lcores[i]) == 1)
			count++;
	return count;
}

int
timer_adapter_start(const struct timer_adapter *cadapter)
{
	struct timer_adapter *adapter = (struct timer_adapter *)(uintptr_t)cadapter;
	int mapped;

	if (!ta_valid(adapter))
		return -EINVAL;
	if (__atomic_load_n(&adapter->started, __ATOMIC_ACQUIRE))
		return -EALREADY;
	if (!adapter->service_registered)
		return -ESRCH;
	mapped = ta_mapped_lcores(adapter->service_id);
	if (mapped > 1)
		return -ENOTSUP;
	rte_service_component_runstate_set(adapter->service_id, 1);
	/* Mapped to no service lcore, the service may still run where the
	 * application runs it (rte_service_run_iter_on_app_lcore()), once
	 * it has turned DPDK's mapped check off: the runstate then reads
	 * running without a mapped lcore.
	 */
	if (mapped == 0 && rte_service_runstate_get(adapter->service_id) != 1) {
		rte_service_component_runstate_set(adapter->service_id, 0);
		return -ENOENT;
	}
	/* Queues may have been set up again while we were stopped. */
	memset(adapter->qsched, 0, sizeof(adapter->qsched));
	__atomic_store_n(&adapter->started, 1, __ATOMIC_RELEASE);
	return 0;
}

int
timer_adapter_stop(const struct timer_adapter *cadapter)
{
	struct timer_adapter *adapter = (struct timer_adapter *)(uintptr_t)cadapter;

	if (!ta_valid(adapter))
		return -EINVAL;
	if (!__atomic_load_n(&adapter->started, __ATOMIC_ACQUIRE)) {
		TA_LOG(ERR, "adapter %u is not started", adapter->id);
		return 0;
	}
	rte_service_component_runstate_set(adapter->service_id, 0);
	/* The service may be inside a call: wait until it has left. */
	while (rte_service_may_be_active(adapter->service_id) == 1)
		rte_pause();
	__atomic_store_n(&adapter->started, 0, __ATOMIC_RELEASE);
	return 0;
}

struct timer_adapter *
timer_adapter_lookup(uint16_t adapter_id)
{
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	struct timer_adapter *adapter;

	if (adapter_id >= TIMER_ADAPTER_NUM_MAX) {
		rte_errno = EINVAL;
		return NULL;
	}
	adapter = ta_adapter_get(adapter_id);
	if (adapter != NULL)
		return adapter;
	snprintf(name, sizeof(name), TA_MZ_FMT, adapter_id);
	mz = rte_memzone_lookup(name);
	if (mz == NULL || !ta_valid(mz->addr)) {
		rte_errno = ENOENT;
		return NULL;
	}
	ta_table_set(adapter_id, mz->addr);
	return mz->addr;
}

int
timer_adapter_get_info(const struct timer_adapter *adapter,
		       struct rte_event_timer_adapter_info *info)
{
	if (!ta_valid(adapter) || info == NULL)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->min_resolution_ns = adapter->conf.timer_tick_ns;
	info->max_tmo_ns = adapter->conf.max_tmo_ns;
	info->conf = adapter->conf;
	info->caps = TIMER_ADAPTER_CAPS;
	info->event_dev_port_id = adapter->port_id;
	return 0;
}

int
timer_adapter_service_id_get(const struct timer_adapter *adapter,
			     uint32_t *service_id)
{
	if (!ta_valid(adapter))
		return -EINVAL;
	/* DPDK 23.03 and later refuse a NULL service_id; 22.11 ignores it. */
	if (COMPAT_DPDK_SERVICE_ID_NULL_EINVAL && service_id == NULL)
		return -EINVAL;
	if (!adapter->service_registered)
		return -ESRCH;
	if (service_id != NULL)
		*service_id = adapter->service_id;
	return 0;
}

/* Current raw counters (relaxed reads of single-writer values). */
static void
ta_stats_raw(const struct timer_adapter *adapter,
	     struct rte_event_timer_adapter_stats *s)
{
	const struct rte_event_timer_adapter_stats *c = &adapter->svc.stats;

	s->evtim_exp_count = __atomic_load_n(&c->evtim_exp_count,
					     __ATOMIC_RELAXED);
	s->ev_enq_count = __atomic_load_n(&c->ev_enq_count, __ATOMIC_RELAXED);
	s->ev_inv_count = __atomic_load_n(&c->ev_inv_count, __ATOMIC_RELAXED);
	s->evtim_retry_count = __atomic_load_n(&c->evtim_retry_count,
					       __ATOMIC_RELAXED);
	s->adapter_tick_count = __atomic_load_n(&c->adapter_tick_count,
						__ATOMIC_RELAXED);
	s->evtim_drop_count = __atomic_load_n(&c->evtim_drop_count,
					      __ATOMIC_RELAXED);
}

int
timer_adapter_stats_get(const struct timer_adapter *cadapter,
			struct rte_event_timer_adapter_stats *stats)
{
	struct timer_adapter *adapter = (struct timer_adapter *)(uintptr_t)cadapter;
	const struct rte_event_timer_adapter_stats *b;
	struct rte_event_timer_adapter_stats raw;

	if (!ta_valid(adapter) || stats == NULL)
		return -EINVAL;
	b = &adapter->stats_base;
	/*
	 * The service only ever increments its counters; reset moves a
	 * baseline instead of writing them, so it cannot race the service.
	 */
	rte_spinlock_lock(&adapter->stats_lock);
	ta_stats_raw(adapter, &raw);
	stats->evtim_exp_count = raw.evtim_exp_count - b->evtim_exp_count;
	stats->ev_enq_count = raw.ev_enq_count - b->ev_enq_count;
	stats->ev_inv_count = raw.ev_inv_count - b->ev_inv_count;
	stats->evtim_retry_count = raw.evtim_retry_count - b->evtim_retry_count;
	stats->adapter_tick_count = raw.adapter_tick_count -
		b->adapter_tick_count;
	stats->evtim_drop_count = raw.evtim_drop_count - b->evtim_drop_count;
	rte_spinlock_unlock(&adapter->stats_lock);
	return 0;
}

int
timer_adapter_stats_reset(struct timer_adapter *adapter)
{
	if (!ta_valid(adapter))
		return -EINVAL;
	rte_spinlock_lock(&adapter->stats_lock);
	ta_stats_raw(adapter, &adapter->stats_base);
	rte_spinlock_unlock(&adapter->stats_lock);
	return 0;
}

int
timer_adapter_accounting_get(const struct timer_adapter *adapter,
			     struct timer_adapter_accounting *acct)
{
	uint32_t i, nb;

	if (!ta_valid(adapter) || acct == NULL)
		return -EINVAL;
	memset(acct, 0, sizeof(*acct));
	nb = __atomic_load_n(&adapter->nb_used, __ATOMIC_ACQUIRE);
	for (i = 0; i < nb; i++) {
		const struct ta_list *l = &adapter->lists[adapter->used_idx[i]];

		acct->armed += __atomic_load_n(&l->armed, __ATOMIC_RELAXED);
		acct->cancelled += __atomic_load_n(&l->cancelled,
						   __ATOMIC_RELAXED);
		acct->nodes += __atomic_load_n(&l->pool.nb_nodes,
					       __ATOMIC_RELAXED);
		acct->index_nodes += __atomic_load_n(&l->pool.nb_radix_nodes,
						     __ATOMIC_RELAXED);
		acct->mem_bytes += __atomic_load_n(&l->pool.mem_bytes,
						   __ATOMIC_RELAXED);
		acct->parked += ta_far_parked(&l->far);
	}
	acct->expired = __atomic_load_n(&adapter->svc.expired,
					__ATOMIC_RELAXED);
	acct->pending = acct->armed - acct->expired - acct->cancelled;
	return 0;
}
