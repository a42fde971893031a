/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Parsers of option values (tp_option_parse.c). Each returns 0, or
 * -EINVAL (not of the form) or -ERANGE (out of range).
 */

#ifndef _TP_OPTION_PARSE_H_
#define _TP_OPTION_PARSE_H_

#include <stdbool.h>
#include <stdint.h>

#include "setup/tp_config.h"

/** Digits only, in @p base (10 or 16). */
int tp_option_parse_u64(const char *s, int base, uint64_t *out);

/** "<digits>[.<digits>][unit]", unit ns, us, ms, s (default), m or h. */
int tp_option_parse_duration(const char *s, uint64_t *ns);

/** A flow selector: an address, a port, or ADDR:PORT (--trace-flow). */
int tp_option_parse_flowsel(const char *s, struct tp_flow_sel *sel);

/** "0,2-3": @p set[RTE_MAX_LCORE] gets the lcores listed. */
int tp_option_parse_lcores(const char *s, bool *set);

/** 1, yes, true, on; 0, no, false, off. */
int tp_option_parse_bool(const char *s, bool *b);

#endif /* _TP_OPTION_PARSE_H_ */
