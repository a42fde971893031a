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

/* Cycles of a clock of hz Hz in ns nanoseconds, saturating at UINT64_MAX. */
static inline uint64_t
ns_to_cycles(uint64_t ns, uint64_t hz)
{
	uint64_t whole = ns / CYCLES_NS_PER_S, cyc, frac;

	/* No division by a variable: the library runs this on every arm. */
	if (__builtin_mul_overflow(whole, hz, &cyc))
		return UINT64_MAX;
	frac = (ns % CYCLES_NS_PER_S) * hz / CYCLES_NS_PER_S;
	if (__builtin_add_overflow(cyc, frac, &cyc))
		return UINT64_MAX;
	return cyc;
}

/* Nanoseconds in cyc cycles of a clock of hz Hz, saturating. */
static inline uint64_t
cycles_to_ns(uint64_t cyc, uint64_t hz)
{
	uint64_t whole = cyc / hz, ns, frac;

	if (__builtin_mul_overflow(whole, CYCLES_NS_PER_S, &ns))
		return UINT64_MAX;
	frac = (cyc % hz) * CYCLES_NS_PER_S / hz;
	if (__builtin_add_overflow(ns, frac, &ns))
		return UINT64_MAX;
	return ns;
}

#endif /* _CYCLES_H_ */
