/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_TIME_H_
#define _TA_TIME_H_

/*
 * Time conversions of the library. Nanoseconds to and from timer cycles
 * are the project's one saturating pair in common/cycles.h
 * (ns_to_cycles(), cycles_to_ns()); what is the adapter's own is here.
 */

#include <stdint.h>

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

#endif /* _TA_TIME_H_ */
