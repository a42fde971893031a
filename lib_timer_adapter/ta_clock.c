/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The application's clock (TIMER_ADAPTER_F_CLOCK): setting it, and
 * reading where the adapter stands on it. No lock: the clock is one
 * atomic word that only moves forward (CAS), the counter of older times
 * an atomic add; the service's progress and the lists' hints are read
 * with acquire loads (see ta_private.h and ta_list.h).
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "ta_private.h"

int
timer_adapter_clock_set(struct timer_adapter *adapter, uint64_t ns)
{
	uint64_t old;

	if (!ta_valid(adapter) || !adapter->clock_mode)
		return -EINVAL;
	old = __atomic_load_n(&adapter->clk.now, __ATOMIC_RELAXED);
	do {
		if (ns < old) {
			__atomic_fetch_add(&adapter->clk.backwards, 1,
					   __ATOMIC_RELAXED);
			return -ERANGE;
		}
		if (ns == old)
			return 0;
		/* Release: what the caller did before is seen with the time. */
	} while (!__atomic_compare_exchange_n(&adapter->clk.now, &old, ns,
					      false, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	return 0;
}

/* Earliest tick at which some list may have a timer due (a hint). */
static uint64_t
ta_clock_next_tick(const struct timer_adapter *adapter)
{
	uint32_t i, nb = __atomic_load_n(&adapter->nb_used, __ATOMIC_ACQUIRE);
	uint64_t min = UINT64_MAX, k;

	for (i = 0; i < nb; i++) {
		k = __atomic_load_n(&adapter->lists[adapter->used_idx[i]].min_key,
				    __ATOMIC_ACQUIRE);
		if (k < min)
			min = k;
	}
	return min;
}

int
timer_adapter_clock_get(const struct timer_adapter *adapter,
			struct timer_adapter_clock *clk)
{
	uint64_t tick, ns;

	if (!ta_valid(adapter) || !adapter->clock_mode || clk == NULL)
		return -EINVAL;
	memset(clk, 0, sizeof(*clk));
	clk->now_ns = __atomic_load_n(&adapter->clk.now, __ATOMIC_ACQUIRE);
	/* done before delivered: the count covers what done promises. */
	clk->done_ns = __atomic_load_n(&adapter->svc.clock_done,
				       __ATOMIC_ACQUIRE);
	clk->delivered = __atomic_load_n(&adapter->svc.stats.ev_enq_count,
					 __ATOMIC_RELAXED) +
		__atomic_load_n(&adapter->svc.stats.ev_inv_count,
				__ATOMIC_RELAXED);
	clk->backwards = __atomic_load_n(&adapter->clk.backwards,
					 __ATOMIC_RELAXED);
	tick = ta_clock_next_tick(adapter);
	/* cyc_per_tick is timer_tick_ns here (a 1 GHz clock). */
	if (tick == UINT64_MAX ||
	    __builtin_mul_overflow(tick, adapter->cyc_per_tick, &ns))
		ns = UINT64_MAX;
	clk->next_ns = ns;
	return 0;
}
