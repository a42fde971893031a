/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CONFIG_INTERNAL_H_
#define _TP_CONFIG_INTERNAL_H_

/*
 * Shared by tp_config.c (table, parsers, command line), tp_config_file.c
 * (INI files) and tp_config_text.c (usage text, configuration dump).
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#include "setup/tp_config.h"

/*
 * One table describes every option: its command line name (also the INI
 * key), the INI section it lives in, its type and range, where it is stored
 * and its help text. The parser, the INI loader, the usage text and the
 * configuration dump are all generated from it, so they cannot disagree.
 */

enum tp_opt_type {
	TP_OT_UINT,	/* unsigned integer, min..max */
	TP_OT_DURATION,	/* <number>[ns|us|ms|s|m|h], stored in ns */
	TP_OT_ENUM,	/* one of names[] */
	TP_OT_BOOL,	/* flag; --no-NAME clears it; yes/no in the file */
	TP_OT_PATH,	/* file name */
	TP_OT_PORTMASK,	/* hexadecimal port mask */
	TP_OT_LCORES,	/* lcore list: 0,2-3 */
	TP_OT_FLOWSEL,	/* ADDR, ADDR:PORT, [ADDR6]:PORT or any:PORT */
};

struct tp_enum_name {
	const char *name;
	unsigned int value;
	/* An old name still accepted: parsing it prints this one-line notice;
	 * --help, error messages and --dump-config show only current names.
	 */
	const char *old_name_notice;
};

struct tp_option {
	const char *name;	/* long option and INI key */
	int short_opt;		/* short option letter, or 0 */
	const char *section;	/* INI section */
	enum tp_opt_type type;
	size_t offset;		/* member of struct tp_config */
	size_t size;		/* its size, for TP_OT_UINT and TP_OT_ENUM */
	size_t set_offset;	/* TP_OT_LCORES: the "_set" flag */
	uint64_t min;		/* TP_OT_UINT / TP_OT_DURATION range */
	uint64_t max;
	const struct tp_enum_name *names; /* TP_OT_ENUM values */
	const char *arg;	/* argument name in the usage text */
	const char *help;
};

/** The option table (tp_config.c) and its size. */
extern const struct tp_option tp_options[];
extern const unsigned int tp_nb_options;

/**
 * Print one error line on stderr, "dpdk-timer_pipeline: error: ", the
 * message, then 'tail' (every message before EAL starts goes through it).
 */
void tp_error_vprintf(const char *tail, const char *fmt, va_list ap);

/** Print "error: ... (see --help)" on stderr; returns -EINVAL. */
int tp_config_error(const char *fmt, ...) __rte_format_printf(1, 2);

/** Parse and store one option value; 'where' names it in messages. */
int tp_option_set(struct tp_config *cfg, const struct tp_option *o,
		  const char *val, const char *where);

/** Read an integer member of the given size. */
uint64_t tp_load_uint(const void *src, size_t size);

/** Apply an INI file (tp_config_file.c). */
int tp_config_load_file(struct tp_config *cfg, const char *fname);

/** Current value of an option, in the form the parser accepts. */
void tp_option_format(const struct tp_config *cfg, const struct tp_option *o,
		      char *buf, size_t len);

#endif /* _TP_CONFIG_INTERNAL_H_ */
