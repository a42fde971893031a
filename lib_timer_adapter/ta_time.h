/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_TIME_H_
#define _TA_TIME_H_

/*
 * Overflow-safe conversions between nanoseconds and timer cycles.
 *
 * A naive ns * hz / 1e9 overflows 64 bits beyond 2^64 / hz ns (about 8.8 s
 * at 2.1 GHz): DPDK 22.11.0's adapter fired long timers early that way.
 * Splitting whole seconds from the remainder keeps every intermediate
 * below 1e9 * hz, which fits for any clock below 18 GHz.
 */

#include <stdint.h>

#define TA_NS_PER_S 1000000000ULL

/* Cycles of a clock of hz Hz in ns nanoseconds, saturating at UINT64_MAX. */
static inline uint64_t
ta_ns_to_cycles(uint64_t ns, uint64_t hz)
{
	uint64_t whole = (ns / TA_NS_PER_S), cyc;

	/* No division by a variable: this runs on every arm. */
	if (__builtin_mul_overflow(whole, hz, &cyc))
		return UINT64_MAX;
	return cyc + (ns % TA_NS_PER_S) * hz / TA_NS_PER_S;
}

/* Nanoseconds in cyc cycles of a clock of hz Hz, saturating. */
static inline uint64_t
ta_cycles_to_ns(uint64_t cyc, uint64_t hz)
{
	uint64_t whole = cyc / hz, ns;

	if (whole > UINT64_MAX / TA_NS_PER_S)
		return UINT64_MAX;
	ns = whole * TA_NS_PER_S;
	return ns + (cyc % hz) * TA_NS_PER_S / hz;
}

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
