/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Pure-C suite of common/cycles.h, the one nanoseconds <-> cycles pair of
 * the library, the example and the benchmark: exact where the result
 * fits, no wrap where a naive ns * hz overflows, saturation where the
 * result itself does not fit in 64 bits.
 */

#include <stdint.h>

#include "cycles.h"
#include "tp_test.h"

#define GHZ(x) ((uint64_t)((x) * 1e9))

static int
test_exact(void)
{
	TP_ASSERT_EQ(ns_to_cycles(0, GHZ(2.1)), 0, "zero");
	TP_ASSERT_EQ(ns_to_cycles(1000000000, GHZ(2.1)), GHZ(2.1), "1 s");
	TP_ASSERT_EQ(ns_to_cycles(1, GHZ(3)), 3, "1 ns");
	TP_ASSERT_EQ(ns_to_cycles(1500000000, GHZ(2)), GHZ(3), "1.5 s");
	/* A fraction of a cycle is dropped, not rounded up. */
	TP_ASSERT_EQ(ns_to_cycles(1, 1000000), 0, "1 ns at 1 MHz");
	TP_ASSERT_EQ(cycles_to_ns(GHZ(2.1), GHZ(2.1)), 1000000000, "1 s");
	TP_ASSERT_EQ(cycles_to_ns(3, GHZ(3)), 1, "3 cycles");
	TP_ASSERT_EQ(cycles_to_ns(GHZ(4.5), GHZ(3)), 1500000000, "1.5 s");
	return TP_TEST_OK;
}

/* ns * hz overflows 64 bits beyond 8.8 s at 2.1 GHz; the result does not. */
static int
test_no_wrap(void)
{
	const uint64_t hour_ns = UINT64_C(3600) * 1000000000;
	const uint64_t year_ns = UINT64_C(365) * 86400 * 1000000000;

	TP_ASSERT_EQ(ns_to_cycles(hour_ns, GHZ(2.1)), UINT64_C(3600) *
		     GHZ(2.1), "one hour");
	TP_ASSERT_EQ(ns_to_cycles(year_ns + 7, GHZ(3)),
		     UINT64_C(365) * 86400 * GHZ(3) + 21, "a year and 7 ns");
	TP_ASSERT_EQ(cycles_to_ns(UINT64_C(365) * 86400 * GHZ(3) + 21,
				  GHZ(3)), year_ns + 7, "back");
	return TP_TEST_OK;
}

static int
test_saturates(void)
{
	/* 2^64 / 3e9 whole seconds, plus a remainder that pushes it over. */
	const uint64_t whole = UINT64_MAX / GHZ(3);
	const uint64_t edge = whole * 1000000000 + 999999999;

	TP_ASSERT(ns_to_cycles(UINT64_MAX, GHZ(3)) == UINT64_MAX,
		  "2^64 ns at 3 GHz");
	TP_ASSERT(ns_to_cycles((whole + 1) * 1000000000, GHZ(3)) ==
		  UINT64_MAX, "whole seconds alone overflow");
	TP_ASSERT(ns_to_cycles(edge, GHZ(3)) == UINT64_MAX,
		  "the remainder overflows");
	TP_ASSERT(ns_to_cycles(whole * 1000000000, GHZ(3)) == whole * GHZ(3),
		  "largest whole second that fits");
	TP_ASSERT(cycles_to_ns(UINT64_MAX, 1000) == UINT64_MAX,
		  "2^64 cycles at 1 kHz");
	TP_ASSERT(cycles_to_ns(UINT64_MAX, 1000000000) == UINT64_MAX,
		  "1 GHz: cycles are ns");
	return TP_TEST_OK;
}

static const struct tp_test_case cycles_cases[] = {
	{ "exact", test_exact },
	{ "no_wrap", test_no_wrap },
	{ "saturates", test_saturates },
};

TP_TEST_MAIN("cycles", cycles_cases)
