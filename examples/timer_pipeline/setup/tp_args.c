/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The command line: --config first (the prescan), then getopt_long over
 * the option table (exact names only, no prefix matching), then the
 * checks. Setup only, before EAL starts.
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "setup/tp_args.h"
#include "setup/tp_config.h"
#include "setup/tp_config_file.h"
#include "setup/tp_option.h"

/* --config must be applied before the other options, whatever the order. */
static int
tp_config_prescan(struct tp_config *cfg, int argc, char **argv)
{
	const char *file = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0)
			return 1;
		if (strcmp(argv[i], "--config") == 0) {
			if (i + 1 >= argc)
				return tp_config_error("option '--config' "
						       "needs a file name");
			file = argv[++i];
		} else if (strncmp(argv[i], "--config=", 9) == 0) {
			file = argv[i] + 9;
		}
	}
	if (file == NULL)
		return 0;
	if (strlen(file) >= sizeof(cfg->config_file))
		return tp_config_error("config file name too long");
	strcpy(cfg->config_file, file);
	return tp_config_file_load(cfg, file);
}

#define TP_OPT_CONFIG 256
#define TP_OPT_HELP 257
#define TP_OPT_DUMP 258
#define TP_OPT_HELP_RST 259
#define TP_OPT_HELP_COUNTERS_RST 260	/* hidden: docs/counters.inc */
#define TP_OPT_HELP_EXIT_RST 261	/* hidden: docs/exit-status.inc */
#define TP_OPT_BASE 512		/* option i: TP_OPT_BASE + i */
#define TP_OPT_NO_BASE 1024	/* --no-NAME of option i */

static void
tp_long_options(struct option *lo, char (*no_names)[64])
{
	unsigned int i, n = 0;

	for (i = 0; i < TP_NB_OPTIONS; i++) {
		lo[n].name = tp_options[i].name;
		lo[n].has_arg = tp_options[i].type == TP_OT_BOOL ?
				no_argument : required_argument;
		lo[n].flag = NULL;
		lo[n].val = TP_OPT_BASE + i;
		n++;
		if (tp_options[i].type != TP_OT_BOOL)
			continue;
		snprintf(no_names[i], 64, "no-%s", tp_options[i].name);
		lo[n].name = no_names[i];
		lo[n].has_arg = no_argument;
		lo[n].flag = NULL;
		lo[n].val = TP_OPT_NO_BASE + i;
		n++;
	}
	lo[n++] = (struct option){ "config", required_argument, NULL,
				   TP_OPT_CONFIG };
	lo[n++] = (struct option){ "help", no_argument, NULL, TP_OPT_HELP };
	lo[n++] = (struct option){ "dump-config", no_argument, NULL,
				   TP_OPT_DUMP };
	lo[n++] = (struct option){ "help-rst", no_argument, NULL,
				   TP_OPT_HELP_RST };
	lo[n++] = (struct option){ "help-counters-rst", no_argument, NULL,
				   TP_OPT_HELP_COUNTERS_RST };
	lo[n++] = (struct option){ "help-exit-rst", no_argument, NULL,
				   TP_OPT_HELP_EXIT_RST };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* getopt_long accepts unique prefixes; we accept exact names only. */
static bool
tp_long_exact(const char *tok, const char *name)
{
	size_t len = strlen(name);

	if (tok[0] != '-' || tok[1] != '-')
		return true;	/* short option */
	return strncmp(tok + 2, name, len) == 0 &&
		(tok[2 + len] == '\0' || tok[2 + len] == '=');
}

static int
tp_config_getopt(struct tp_config *cfg, int argc, char **argv)
{
	struct option lo[2 * TP_NB_OPTIONS + 7];
	char no_names[TP_NB_OPTIONS][64];
	char where[96];
	const char *tok;
	unsigned int idx;
	int opt, prev, li;

	tp_long_options(lo, no_names);
	opterr = 0;
	/* 0, not 1: glibc and musl then also forget where they were inside
	 * a cluster of short options ("-xy" stopped at -x), which optind = 1
	 * keeps and the next parse would read (found by fuzz_options.c).
	 */
	optind = 0;
	for (;;) {
		prev = optind > 0 ? optind : 1;	/* 0: reinitialise */
		li = -1;
		opt = getopt_long(argc, argv, "+:p:T:h", lo, &li);
		if (opt == -1)
			break;
		tok = argv[prev];
		if (opt == '?') {
			if (optopt != 0 && optopt < 256)
				return tp_config_error("unknown option '-%c'",
						       optopt);
			return tp_config_error("unknown option '%s'",
					       argv[optind - 1]);
		}
		if (opt == ':')
			return tp_config_error("option '%s' needs a value",
					       argv[optind - 1]);
		if (li >= 0 && !tp_long_exact(tok, lo[li].name))
			return tp_config_error("unknown option '%s' (did you "
					       "mean '--%s'?)", tok,
					       lo[li].name);
		if (opt == TP_OPT_CONFIG || opt == TP_OPT_HELP || opt == 'h')
			continue;	/* handled by the prescan */
		if (opt == TP_OPT_DUMP || opt == TP_OPT_HELP_RST ||
		    opt == TP_OPT_HELP_COUNTERS_RST ||
		    opt == TP_OPT_HELP_EXIT_RST) {
			cfg->dump_config |= opt == TP_OPT_DUMP;
			cfg->help_rst |= opt == TP_OPT_HELP_RST;
			cfg->help_counters_rst |=
				opt == TP_OPT_HELP_COUNTERS_RST;
			cfg->help_exit_rst |= opt == TP_OPT_HELP_EXIT_RST;
			continue;
		}
		if (opt == 'p')
			opt = TP_OPT_BASE + 0;
		if (opt == 'T') {
			for (idx = 0; tp_options[idx].short_opt != 'T'; idx++)
				;
			opt = TP_OPT_BASE + idx;
		}
		if (opt >= TP_OPT_NO_BASE) {
			idx = opt - TP_OPT_NO_BASE;
			*(bool *)((char *)cfg + tp_options[idx].offset) = false;
			continue;
		}
		idx = opt - TP_OPT_BASE;
		snprintf(where, sizeof(where), "option '--%s'",
			 tp_options[idx].name);
		if (tp_options[idx].type == TP_OT_BOOL) {
			*(bool *)((char *)cfg + tp_options[idx].offset) = true;
			continue;
		}
		if (tp_option_set(cfg, &tp_options[idx], optarg, where) < 0)
			return -EINVAL;
	}
	if (optind < argc)
		return tp_config_error("unexpected argument '%s'",
				       argv[optind]);
	return 0;
}

/*
 * --replay-speed X: every timeout and the tick are divided by X, but the
 * tick no finer than TP_SPEED_MIN_TICK_NS (what the service can honour):
 * the shortest timeout must stay at least 10 such ticks.
 */

int
tp_args_parse(struct tp_config *cfg, int argc, char **argv)
{
	int ret;

	tp_config_defaults(cfg);
	ret = tp_config_prescan(cfg, argc, argv);
	if (ret != 0)
		return ret;
	ret = tp_config_getopt(cfg, argc, argv);
	if (ret < 0)
		return ret;
	/* A speed-up is a paced replay, only faster. */
	if (cfg->replay_speed > 1)
		cfg->replay_pace = true;
	return tp_config_check(cfg);
}
