/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_TEST_H_
#define _TP_TEST_H_

/*
 * A minimal test harness shared by every suite in tests/.
 *
 * A suite is one or more arrays of struct tp_test_case (struct
 * tp_test_table) run by tp_test_run_tables(). Each case returns TP_TEST_OK
 * or TP_TEST_FAIL (the TP_ASSERT* macros return TP_TEST_FAIL with a message
 * naming the file, line and values). The runner prints one line per case
 * and closes with
 *     RESULT <suite>: N passed, N failed
 * which tests/run_tests.sh adds up across suites. A pure-C suite ends with
 * TP_TEST_MAIN(); the DPDK suites call tc_suite_main() (test_common.h).
 *
 * Cases are selected by a filter (a substring of their names): the suite's
 * first argument, else the TP_TEST_FILTER environment variable.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TP_TEST_OK 0
#define TP_TEST_FAIL (-1)

struct tp_test_case {
	const char *name;	/**< Case name, printed in results. */
	int (*fn)(void);	/**< Returns TP_TEST_OK or TP_TEST_FAIL. */
};

/** An array of cases: a suite may be built from several. */
struct tp_test_table {
	const struct tp_test_case *cases;	/**< The cases, in order. */
	unsigned int nb_cases;			/**< Number of cases. */
};

/** Number of elements of an array. */
#define TP_TEST_DIM(a) (sizeof(a) / sizeof((a)[0]))

/** The table of an array of cases. */
#define TP_TEST_TABLE(a) { (a), TP_TEST_DIM(a) }

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
 * Run the cases of the tables, in order, whose name contains filter (all
 * when filter is NULL or empty). Returns the number of failed cases.
 */
static inline int
tp_test_run_tables(const char *suite, const struct tp_test_table *tables,
		   unsigned int nb_tables, const char *filter)
{
	unsigned int i, t, passed = 0, failed = 0;

	if (filter != NULL && filter[0] == '\0')
		filter = NULL;
	for (t = 0; t < nb_tables; t++) {
		const struct tp_test_case *cases = tables[t].cases;

		for (i = 0; i < tables[t].nb_cases; i++) {
			double t0;
			int rc;

			if (filter != NULL &&
			    strstr(cases[i].name, filter) == NULL)
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
	}
	printf("RESULT %s: %u passed, %u failed\n", suite, passed, failed);
	fflush(stdout);
	return failed;
}

/* Run one array of cases (tp_test_run_tables()). */
static inline int
tp_test_run(const char *suite, const struct tp_test_case *cases,
	    unsigned int nb_cases, const char *filter)
{
	const struct tp_test_table table = { cases, nb_cases };

	return tp_test_run_tables(suite, &table, 1, filter);
}

/* The case filter of a command line (argv[1]), else TP_TEST_FILTER. */
static inline const char *
tp_test_filter(int argc, char **argv)
{
	return argc > 1 ? argv[1] : getenv("TP_TEST_FILTER");
}

/*
 * The main() of a pure-C suite: run the array cases of suite name with the
 * command line's filter; exit status 0 iff every case passed.
 */
#define TP_TEST_MAIN(name, cases)					\
	int								\
	main(int argc, char **argv)					\
	{								\
		return tp_test_run(name, cases, TP_TEST_DIM(cases),	\
				   tp_test_filter(argc, argv)) == 0 ?	\
			EXIT_SUCCESS : EXIT_FAILURE;			\
	}

#endif /* _TP_TEST_H_ */
