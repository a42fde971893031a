/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CONFIG_TEXT_H_
#define _TP_CONFIG_TEXT_H_

/*
 * Text generated from the option table (tp_config_text.c): --help,
 * --help-rst, the exit statuses and the effective configuration.
 */

#include <stddef.h>

#include "setup/tp_config.h"
#include "setup/tp_option.h"

/** Print the usage text, generated from the option table. */
void tp_config_text_usage(const char *prgname);

/** Print the option table as reStructuredText (the docs' table). */
void tp_config_text_usage_rst(void);

/** docs/exit-status.inc: the exit statuses as reStructuredText. */
void tp_config_text_exit_rst(void);

/** Print the effective configuration, one "key = value" per line. */
void tp_config_text_dump(const struct tp_config *cfg);

/** Current value of an option, in the form the parser accepts. */
void tp_config_text_format(const struct tp_config *cfg,
			   const struct tp_option *o, char *buf, size_t len);

#endif /* _TP_CONFIG_TEXT_H_ */
