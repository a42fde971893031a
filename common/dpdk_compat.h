/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _DPDK_COMPAT_H_
#define _DPDK_COMPAT_H_

/*
 * Every difference between the DPDK versions the project builds on
 * (Debian's 22.11, 23.11, 24.11, 25.11 and 26.07), each in one place
 * behind an RTE_VERSION check, so that no other file has an #if on the
 * DPDK version. Header-only; used by the library, the example, the
 * benchmark and the tests alike.
 *
 * - Telemetry: rte_tel_data_add_{dict,array}_u64 became _uint in 23.03,
 *   deprecated in 23.11, removed in 25.11.
 * - Control threads: rte_ctrl_thread_create (pthread_t, void * function)
 *   was removed in 23.11; rte_thread_create_control (rte_thread_t,
 *   uint32_t function) replaces it.
 * - The timer state: RTE_ATOMIC(enum rte_event_timer_state) from 23.11
 *   (a _Atomic type when DPDK is built with -Denable_stdatomic=true):
 *   compat_timer_state_*() use rte_atomic_*_explicit where DPDK has them.
 * - The adapter's semantics that changed after 22.11 and that the
 *   library mirrors (COMPAT_DPDK_* below; docs/differences.rst).
 *
 * Two differences need no #if and are handled where they bite. From
 * 24.11 struct rte_ipv6_hdr holds struct rte_ipv6_addr and is 2-byte
 * aligned: the pipeline reads the header as bytes at offsetof() its
 * fields (tp_parse.h), the same on every version. DPDK 26.07's
 * rte_net_get_ptype() reports a single 802.1Q tag as QinQ (it ORs
 * RTE_PTYPE_L2_ETHER_VLAN into RTE_PTYPE_L2_ETHER), so the pipeline counts
 * VLAN tags from l2_len on every version (tp_parse.h).
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <rte_version.h>
#include <rte_event_timer_adapter.h>
#include <rte_ip.h>
#include <rte_telemetry.h>
#include <rte_thread.h>

#define COMPAT_DPDK_AT_LEAST(y, m) (RTE_VERSION >= RTE_VERSION_NUM(y, m, 0, 0))

/* ---- telemetry ---------------------------------------------------------- */

#if COMPAT_DPDK_AT_LEAST(23, 3)
#define COMPAT_TEL_UINT_VAL RTE_TEL_UINT_VAL
#define compat_tel_dict_uint rte_tel_data_add_dict_uint
#define compat_tel_array_uint rte_tel_data_add_array_uint
#else
#define COMPAT_TEL_UINT_VAL RTE_TEL_U64_VAL
#define compat_tel_dict_uint rte_tel_data_add_dict_u64
#define compat_tel_array_uint rte_tel_data_add_array_u64
#endif

/* ---- control threads ---------------------------------------------------- */

/*
 * Start a control thread (on the CPUs no lcore uses, as EAL places them)
 * running fn(arg); 0 or a negative errno. Join it with rte_thread_join();
 * rte_thread_{get,set}_affinity_by_id() work on it on every version.
 */
#if COMPAT_DPDK_AT_LEAST(23, 11)
static inline int
compat_ctrl_thread_create(rte_thread_t *t, const char *name,
			  uint32_t (*fn)(void *), void *arg)
{
	return -abs(rte_thread_create_control(t, name, fn, arg));
}
#else
#include <pthread.h>

/* 22.11's control threads run void *(*)(void *): a trampoline. */
struct compat_ctrl_call {
	uint32_t (*fn)(void *);
	void *arg;
};

static inline void *
compat_ctrl_trampoline(void *p)
{
	struct compat_ctrl_call c = *(struct compat_ctrl_call *)p;

	free(p);
	return (void *)(uintptr_t)c.fn(c.arg);
}

static inline int
compat_ctrl_thread_create(rte_thread_t *t, const char *name,
			  uint32_t (*fn)(void *), void *arg)
{
	struct compat_ctrl_call *c = malloc(sizeof(*c));
	pthread_t pt;
	int ret;

	if (c == NULL)
		return -ENOMEM;
	c->fn = fn;
	c->arg = arg;
	ret = rte_ctrl_thread_create(&pt, name, NULL, compat_ctrl_trampoline,
				     c);
	if (ret != 0) {
		free(c);
		return -abs(ret);
	}
	/* 22.11's rte_thread_t on Linux is the pthread_t (rte_thread_self). */
	t->opaque_id = (uintptr_t)pt;
	return 0;
}
#endif

/* ---- the timer state ---------------------------------------------------- */

/*
 * DPDK 23.11 declares rte_event_timer.state RTE_ATOMIC(); the
 * rte_atomic_*_explicit calls and rte_memory_order_* work on it whether or
 * not DPDK was built with stdatomic. 22.11 has neither: GCC builtins.
 */
#if COMPAT_DPDK_AT_LEAST(23, 11)
#include <rte_stdatomic.h>
#define COMPAT_RELAXED rte_memory_order_relaxed
#define COMPAT_ACQUIRE rte_memory_order_acquire
#define COMPAT_RELEASE rte_memory_order_release
#define COMPAT_ACQ_REL rte_memory_order_acq_rel
#define compat_timer_state_load(t, mo) \
	rte_atomic_load_explicit(&(t)->state, mo)
#define compat_timer_state_store(t, v, mo) \
	rte_atomic_store_explicit(&(t)->state, v, mo)
/* Compare-and-swap of the state: true when it was *expected, now v. */
#define compat_timer_state_cas(t, expected, v, ok, fail) \
	rte_atomic_compare_exchange_strong_explicit(&(t)->state, expected, \
						    v, ok, fail)
#else
#define COMPAT_RELAXED __ATOMIC_RELAXED
#define COMPAT_ACQUIRE __ATOMIC_ACQUIRE
#define COMPAT_RELEASE __ATOMIC_RELEASE
#define COMPAT_ACQ_REL __ATOMIC_ACQ_REL
#define compat_timer_state_load(t, mo) __atomic_load_n(&(t)->state, mo)
#define compat_timer_state_store(t, v, mo) \
	__atomic_store_n(&(t)->state, v, mo)
#define compat_timer_state_cas(t, expected, v, ok, fail) \
	__atomic_compare_exchange_n(&(t)->state, expected, v, 0, ok, fail)
#endif

/* ---- adapter semantics that follow DPDK ----------------------------------- */

/*
 * rte_event_timer_adapter_service_id_get(a, NULL): -EINVAL from 23.03
 * (22.11 writes nothing and returns 0, or -ESRCH without a service). The
 * library's timer_adapter_service_id_get() follows.
 */
#define COMPAT_DPDK_SERVICE_ID_NULL_EINVAL COMPAT_DPDK_AT_LEAST(23, 3)

/*
 * The default port callback counts a single-link port in
 * nb_single_link_event_port_queues from 23.03.
 */
#define COMPAT_DPDK_PORT_SINGLE_LINK_COUNT COMPAT_DPDK_AT_LEAST(23, 3)

/*
 * rte_event_timer_remaining_ticks_get() exists from 23.03 (experimental):
 * called through this wrapper, which answers -ENOTSUP before, as DPDK
 * does for an adapter without the op.
 */
#define COMPAT_DPDK_HAS_REMAINING_TICKS COMPAT_DPDK_AT_LEAST(23, 3)

static inline int
compat_rte_event_timer_remaining_ticks_get(
	const struct rte_event_timer_adapter *adapter,
	const struct rte_event_timer *evtim, uint64_t *ticks_remaining)
{
#if COMPAT_DPDK_HAS_REMAINING_TICKS
	return rte_event_timer_remaining_ticks_get(adapter, evtim,
						   ticks_remaining);
#else
	RTE_SET_USED(adapter);
	RTE_SET_USED(evtim);
	RTE_SET_USED(ticks_remaining);
	return -ENOTSUP;
#endif
}

#endif /* _DPDK_COMPAT_H_ */
