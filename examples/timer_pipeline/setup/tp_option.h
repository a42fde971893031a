/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_OPTION_H_
#define _TP_OPTION_H_

/*
 * The option table (tp_option.c) and one option's value, shared by the
 * command line (tp_args.c), INI files (tp_config_file.c), the usage text
 * and the configuration dump (tp_config_text.c).
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

/** Options in the table (a compile-time check in tp_option.c). */
#define TP_NB_OPTIONS 55

/** The option table (tp_option.c) and its size. */
extern const struct tp_option tp_options[];
extern const unsigned int tp_nb_options;

/** Parse and store one option value; 'where' names it in messages. */
int tp_option_set(struct tp_config *cfg, const struct tp_option *o,
		  const char *val, const char *where);

/** Read an integer member of the given size. */
uint64_t tp_option_load_uint(const void *src, size_t size);

/** Name of an RTE_SCHED_TYPE_* (--eventq-sched's words), "?" if none. */
const char *tp_option_sched_name(uint8_t sched);

#endif /* _TP_OPTION_H_ */
