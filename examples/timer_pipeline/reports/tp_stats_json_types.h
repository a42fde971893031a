/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_STATS_JSON_TYPES_H_
#define _TP_STATS_JSON_TYPES_H_

/*
 * --stats-json's state (tp_stats_json.h has the function): the file and
 * its failures. Written by the main lcore only (tp_stats_json.c);
 * failed_lines is also read, relaxed, by the counter table
 * (tp_counters.c) for the telemetry. No lock.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/** The --stats-json file: ctx->sj. */
struct tp_stats_json {
	FILE *file;			/**< Opened at first use. */
	bool failed;			/**< Could not open it. */
	bool closed;			/**< The final line is done. */
	bool warned;			/**< A write failure was logged. */
	uint64_t failed_lines;		/**< Lines not written. */
};

#endif /* _TP_STATS_JSON_TYPES_H_ */
