/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_TEST_H_
#define _TP_TEST_H_

/*
 * A minimal test harness shared by every suite in tests/.
 *
 * A suite is an array of struct tp_test_case run by tp_test_run(). Each case
 * returns TP_TEST_OK or TP_TEST_FAIL (the TP_ASSERT* macros return
 * TP_TEST_FAIL with a message naming the file, line and values). The runner
 * prints one line per case and closes with
 *     RESULT <suite>: N passed, N failed
 * which tests/run_tests.sh adds up across suites.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define TP_TEST_OK 0
#define TP_TEST_FAIL (-1)

struct tp_test_case {
	const char *name;	/**< Case name, printed in results. */
	int (*fn)(void);	/**< Returns TP_TEST_OK or TP_TEST_FAIL. */
};

#define TP_ASSERT(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		printf("    %s:%d: assertion '%s' failed: " fmt "\n",	\
		       __FILE__, __LINE__, #cond, ##__VA_ARGS__);	\
		fflush(stdout);						\
		return TP_TEST_FAIL;					\
	}								\
} while (0)

#define TP_ASSERT_EQ(a, b, fmt, ...) do {				\
	long long tp_a_ = (long long)(a), tp_b_ = (long long)(b);	\
	if (tp_a_ != tp_b_) {						\
		printf("    %s:%d: %s == %s failed (%lld != %lld): " fmt "\n", \
		       __FILE__, __LINE__, #a, #b, tp_a_, tp_b_,	\
		       ##__VA_ARGS__);					\
		fflush(stdout);						\
		return TP_TEST_FAIL;					\
	}								\
} while (0)

static inline double
tp_test_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Run the cases whose name contains filter (all when filter is NULL).
 * Returns the number of failed cases.
 */
static inline int
tp_test_run(const char *suite, const struct tp_test_case *cases,
	    unsigned int nb_cases, const char *filter)
{
	unsigned int i, passed = 0, failed = 0;

	for (i = 0; i < nb_cases; i++) {
		double t0;
		int rc;

		if (filter != NULL && strstr(cases[i].name, filter) == NULL)
			continue;
		printf("[ RUN  ] %s.%s\n", suite, cases[i].name);
		fflush(stdout);
		t0 = tp_test_now_ms();
		rc = cases[i].fn();
		printf("[ %s ] %s.%s (%.0f ms)\n",
		       rc == TP_TEST_OK ? "PASS" : "FAIL", suite,
		       cases[i].name, tp_test_now_ms() - t0);
		fflush(stdout);
		if (rc == TP_TEST_OK)
			passed++;
		else
			failed++;
	}
	printf("RESULT %s: %u passed, %u failed\n", suite, passed, failed);
	fflush(stdout);
	return failed;
}

#endif /* _TP_TEST_H_ */
