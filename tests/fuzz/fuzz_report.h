/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _FUZZ_REPORT_H_
#define _FUZZ_REPORT_H_

/*
 * Where a fuzz target says which promise broke: a copy of stderr taken in
 * LLVMFuzzerInitialize(), before libFuzzer's -close_fd_mask=3 silences the
 * code under test (whose own error lines would fill the log), so the
 * "fuzz: ..." line still reaches the log. One target is one thread.
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static FILE *tp_fuzz_report_f;

/** Take the copy of stderr (call from LLVMFuzzerInitialize()). */
static inline void
tp_fuzz_report_init(void)
{
	int fd = dup(2);

	tp_fuzz_report_f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (tp_fuzz_report_f != NULL)
		setvbuf(tp_fuzz_report_f, NULL, _IONBF, 0);
}

/** Print "fuzz: <message>" and abort(): a broken promise. */
#define TP_FUZZ_FAIL(...) do { \
		FILE *tp_fuzz_o_ = tp_fuzz_report_f != NULL ? \
			tp_fuzz_report_f : stderr; \
		fprintf(tp_fuzz_o_, "fuzz: " __VA_ARGS__); \
		fprintf(tp_fuzz_o_, "\n"); \
		abort(); \
	} while (0)

#endif /* _FUZZ_REPORT_H_ */
