/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RECORD_LINE_H_
#define _TP_RECORD_LINE_H_

/*
 * A flow record as one line of the flow log (tp_record_line.c): JSON
 * lines or CSV, the fields in one order, defined once.
 */

#include <stddef.h>

#include "records/tp_record_types.h"
#include "setup/tp_config.h"

/** The longest line: JSON, with two IPv6 addresses. */
#define TP_LOG_LINE_MAX 640

/**
 * The CSV header line (the field names, comma-separated, then a newline)
 * into @p out of @p len bytes.
 *
 * @return its length, or 0 if it does not fit.
 */
size_t tp_record_line_csv_header(char *out, size_t len);

/**
 * Record @p r as one line of format @p fmt, newline included, into
 * @p out of @p len bytes, at least TP_LOG_LINE_MAX (which holds the
 * longest line there can be).
 *
 * @return the line's length, or -1 if @p len is under TP_LOG_LINE_MAX.
 */
int tp_record_line_format(char *out, size_t len, enum tp_log_format fmt,
			  const struct tp_flow_record *r);

#endif /* _TP_RECORD_LINE_H_ */
