/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_TIME_H_
#define _TA_TIME_H_

/*
 * Time conversions of the library (pure functions, no lock). Nanoseconds
 * to and from timer cycles are the project's one saturating pair in
 * common/cycles.h (ns_to_cycles(), cycles_to_ns()); what is the adapter's
 * own is here: ticks to ns, and a TSC time to its tick.
 */

#include <stdint.h>

#include <rte_reciprocal.h>

#include "cycles.h"

/*
 * Timeout in ns of timeout_ticks ticks; 0 if it overflows 64 bits (callers
 * have already rejected timeout_ticks == 0, so 0 is unambiguous).
 */
static inline uint64_t
ta_ticks_to_ns(uint64_t timeout_ticks, uint64_t tick_ns)
{
	uint64_t ns;

	if (__builtin_mul_overflow(timeout_ticks, tick_ns, &ns))
		return 0;
	return ns;
}

/*
 * The tick of a TSC time, rounded up so that a timer never fires early:
 * div divides by cyc_per_tick, the cycles of a tick.
 */
static inline uint64_t
ta_tick_ceil(const struct rte_reciprocal_u64 *div, uint64_t cyc_per_tick,
	     uint64_t cycles)
{
	uint64_t q = rte_reciprocal_divide_u64(cycles, div);

	return q * cyc_per_tick < cycles ? q + 1 : q;
}

#endif /* _TA_TIME_H_ */
