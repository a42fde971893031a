/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CHECK_H_
#define _TP_CHECK_H_

/*
 * The checks of the pipeline's C tests run by pipeline/e2e.sh
 * (flow_slots.c, rx_pace.c, record_line.c): each CHECK counts as passed
 * or failed, printing the failed ones with their line, and
 * tp_check_report() prints the result line e2e.sh reads, "NAME: N
 * passed, N failed". One test program per translation unit, so the
 * counts are its own.
 */

#include <stdio.h>

static unsigned int tp_check_passed, tp_check_failed;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		tp_check_passed++;					\
	} else {							\
		tp_check_failed++;					\
		printf("FAIL line %d: ", __LINE__);			\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

/* Print the result line; the program's exit status: 0 if none failed. */
static inline int
tp_check_report(const char *name)
{
	printf("%s: %u passed, %u failed\n", name, tp_check_passed,
	       tp_check_failed);
	return tp_check_failed == 0 ? 0 : 1;
}

#endif /* _TP_CHECK_H_ */
