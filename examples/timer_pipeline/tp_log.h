/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_LOG_H_
#define _TP_LOG_H_

/*
 * The pipeline's log: one dynamic logtype (user.timer_pipeline,
 * registered in main.c) and the macro every file logs with.
 */

#include <rte_log.h>

extern int tp_logtype;

/* Log with the function name; messages never end in a newline. */
#define TP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, tp_logtype, "TIMER_PIPELINE: %s(): " fmt \
		"\n", __func__, ##__VA_ARGS__)

#endif /* _TP_LOG_H_ */
