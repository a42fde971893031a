/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _CYCLES_H_
#define _CYCLES_H_

/*
 * Overflow-safe conversions between nanoseconds and timer cycles, the one
 * copy used by the library, the example and the benchmark (header-only:
 * the library's arm path converts a timeout per call).
 *
 * A naive ns * hz / 1e9 overflows 64 bits beyond 2^64 / hz ns (about 8.8 s
 * at 2.1 GHz): DPDK 22.11.0's adapter fired long timers early that way.
 * Splitting whole seconds from the remainder keeps every intermediate
 * below 1e9 * hz, which fits for any clock below 18 GHz; a result beyond
 * 64 bits saturates at UINT64_MAX instead of wrapping.
 */

#include <stdint.h>

#define CYCLES_NS_PER_S UINT64_C(1000000000)

/*
 * x * mul / div, saturating at UINT64_MAX: whole multiples of div and the
 * remainder are scaled apart, so that no intermediate exceeds div * mul.
 * Inlined with a constant div (ns_to_cycles()), it has no division by a
 * variable: the library runs that on every arm.
 */
static inline __attribute__((always_inline)) uint64_t
cycles_muldiv_sat(uint64_t x, uint64_t mul, uint64_t div)
{
	uint64_t whole, frac;

	if (__builtin_mul_overflow(x / div, mul, &whole))
		return UINT64_MAX;
	frac = (x % div) * mul / div;
	if (__builtin_add_overflow(whole, frac, &whole))
		return UINT64_MAX;
	return whole;
}

/* Cycles of a clock of hz Hz in ns nanoseconds, saturating at UINT64_MAX. */
static inline uint64_t
ns_to_cycles(uint64_t ns, uint64_t hz)
{
	return cycles_muldiv_sat(ns, hz, CYCLES_NS_PER_S);
}

/* Nanoseconds in cyc cycles of a clock of hz Hz, saturating. */
static inline uint64_t
cycles_to_ns(uint64_t cyc, uint64_t hz)
{
	return cycles_muldiv_sat(cyc, CYCLES_NS_PER_S, hz);
}

#endif /* _CYCLES_H_ */
