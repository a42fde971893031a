/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * libFuzzer target: the INI loader (examples/timer_pipeline/
 * tp_config_file.c, on rte_cfgfile) as --config reaches it.
 *
 * rte_cfgfile reads only paths, so each input is written to one memfd,
 * truncated and rewritten per run, and named as /proc/self/fd/N: the
 * loader reads the very bytes given. The input is loaded as
 * "--config FILE" by tp_args_parse() (which starts from the defaults:
 * no state is left from the run before); the answer must be 0 or an
 * error, an accepted configuration must be in range and survive the
 * round trip (fuzz_config.h).
 *
 * A "plain" file, one whose lines are all blank, "# comments",
 * "[section]" or "key = value" with no '#', '\', control byte or over-long
 * line, is also read by the small reader here, which applies each
 * assignment in file order with tp_option_set() (names under
 * CFG_NAME_LEN, values under CFG_VALUE_LEN bytes): the loader must accept
 * the file exactly when that reading does, and then hold the same
 * configuration, every value whole (no truncated value, no section or key
 * silently skipped).
 *
 * TP_FUZZ_WRITE_DICT=FILE: write a dictionary made from the option table.
 */

#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_cfgfile.h>

#include "fuzz_config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Longest line the plain reader reads (rte_cfgfile's buffer is larger). */
#define TP_FUZZ_INI_LINE 300

static int tp_fuzz_fd = -1;
static char tp_fuzz_path[64];
static char tp_fuzz_why[TP_FUZZ_INI_LINE + 64]; /* the plain reader's no */

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dict = getenv("TP_FUZZ_WRITE_DICT");

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (dict != NULL)
		tp_fuzz_write_dict(dict, true);
	tp_fuzz_report_init();
	tp_fuzz_fd = memfd_create("tp_fuzz_ini", MFD_CLOEXEC);
	if (tp_fuzz_fd < 0)
		abort();
	snprintf(tp_fuzz_path, sizeof(tp_fuzz_path), "/proc/self/fd/%d",
		 tp_fuzz_fd);
	return 0;
}

/* Strip blanks (isspace, as rte_cfgfile) at both ends, in place. */
static char *
tp_fuzz_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static const struct tp_option *
tp_fuzz_find(const char *sec, const char *key, bool *known_sec)
{
	unsigned int i;

	*known_sec = false;
	for (i = 0; i < tp_nb_options; i++) {
		if (strcmp(tp_options[i].section, sec) != 0)
			continue;
		*known_sec = true;
		if (strcmp(tp_options[i].name, key) == 0)
			return &tp_options[i];
	}
	return NULL;
}

/* The cross-option checks of tp_args_parse(). */
static bool
tp_fuzz_cross_ok(const struct tp_config *cfg)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < TP_TMO_MAX; i++)
		if (cfg->tmo_ns[i] < cfg->tick_ns)
			return false;
	for (i = 0; i < RTE_MAX_LCORE; i++)
		any |= cfg->rx_lcores[i];
	if (cfg->rx_lcores_set && !any)
		return false;
	return cfg->stats_json[0] == '\0' || cfg->stats_period_s != 0;
}

/*
 * Read a plain file into cfg: 1 accepted, 0 refused, -1 not plain (the
 * reader has no opinion).
 */
static int
tp_fuzz_plain(const uint8_t *data, size_t size, struct tp_config *cfg)
{
	char line[TP_FUZZ_INI_LINE + 2], sec[TP_FUZZ_INI_LINE] = "";
	const uint8_t *p = data, *end = data + size, *nl;
	const struct tp_option *o;
	char *s, *eq, *key, *val;
	bool in_sec = false, known, ok = true;
	unsigned int lineno = 0;
	size_t len, i;

#define TP_FUZZ_NO(...) do { \
		if (ok) \
			snprintf(tp_fuzz_why, sizeof(tp_fuzz_why), \
				 "line %u: " __VA_ARGS__); \
		ok = false; \
	} while (0)
	tp_config_defaults(cfg);
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (nl == NULL)
			nl = end;
		len = nl - p;
		lineno++;
		if (len > TP_FUZZ_INI_LINE)
			return -1;
		for (i = 0; i < len; i++)
			if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f ||
			    p[i] == '\\')
				return -1;
		memcpy(line, p, len);
		line[len] = '\0';
		s = tp_fuzz_trim(line);
		if (*s == '\0' || *s == '#')
			continue;
		if (strchr(s, '#') != NULL)
			return -1;
		if (line[0] == '[') {
			if (s[strlen(s) - 1] != ']' || strchr(s, ']') !=
			    s + strlen(s) - 1)
				return -1;
			s[strlen(s) - 1] = '\0';
			snprintf(sec, sizeof(sec), "%s", tp_fuzz_trim(s + 1));
			in_sec = true;
			if (strlen(sec) >= CFG_NAME_LEN)
				TP_FUZZ_NO("section name too long", lineno);
			if (strcmp(sec, "eal") != 0 &&
			    (tp_fuzz_find(sec, "", &known), !known))
				TP_FUZZ_NO("unknown section", lineno);
			continue;
		}
		if (s != line || s[0] == '[')
			return -1;	/* indented lines: rte_cfgfile's call */
		eq = strchr(s, '=');
		if (eq == NULL)
			return -1;
		*eq = '\0';
		key = tp_fuzz_trim(s);
		val = tp_fuzz_trim(eq + 1);
		if (strlen(key) >= CFG_NAME_LEN || strlen(val) >= CFG_VALUE_LEN) {
			TP_FUZZ_NO("key or value too long", lineno);
			continue;
		}
		if (!in_sec || *val == '\0') {
			TP_FUZZ_NO("no section or no value", lineno);
			continue;
		}
		if (!ok)
			continue;
		if (strcmp(sec, "eal") == 0) {
			if (strcmp(key, "args") != 0 ||
			    strlen(val) >= sizeof(cfg->eal_args))
				TP_FUZZ_NO("bad [eal] key or value", lineno);
			else
				snprintf(cfg->eal_args, sizeof(cfg->eal_args),
					 "%s", val);
			continue;
		}
		o = tp_fuzz_find(sec, key, &known);
		if (o == NULL || tp_option_set(cfg, o, val, "plain") != 0)
			TP_FUZZ_NO("[%s] %s = %s refused", lineno, sec, key,
				   val);
	}
#undef TP_FUZZ_NO
	if (ok && !tp_fuzz_cross_ok(cfg)) {
		snprintf(tp_fuzz_why, sizeof(tp_fuzz_why), "cross check");
		ok = false;
	}
	return ok ? 1 : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tp_config cfg, plain;
	static char a[TP_FUZZ_VAL_LEN], b[TP_FUZZ_VAL_LEN];
	char *argv[] = { (char *)"--", (char *)"--config", tp_fuzz_path,
			 NULL };
	unsigned int i;
	int ret, want;

	if (ftruncate(tp_fuzz_fd, 0) != 0 ||
	    pwrite(tp_fuzz_fd, data, size, 0) != (ssize_t)size)
		abort();
	ret = tp_args_parse(&cfg, 3, argv);
	if (ret != 0 && ret != -EINVAL && ret != -ENOMEM)
		abort();
	if (ret == 0) {
		tp_fuzz_check_config(&cfg);
		tp_fuzz_roundtrip(&cfg);
	}
	want = tp_fuzz_plain(data, size, &plain);
	if (want < 0)
		return 0;
	if (want != (ret == 0))
		TP_FUZZ_FAIL("the loader %s a plain file that %s (%s)",
			     ret == 0 ? "accepts" : "refuses",
			     want ? "holds only valid settings" : "is invalid",
			     want ? "" : tp_fuzz_why);
	if (ret != 0)
		return 0;
	for (i = 0; i < tp_nb_options; i++) {
		tp_config_text_format(&cfg, &tp_options[i], a, sizeof(a));
		tp_config_text_format(&plain, &tp_options[i], b, sizeof(b));
		if (strcmp(a, b) != 0)
			TP_FUZZ_FAIL("[%s] %s loaded as '%.300s', the file "
				     "says '%.300s'", tp_options[i].section,
				     tp_options[i].name, a, b);
	}
	if (strcmp(cfg.eal_args, plain.eal_args) != 0)
		TP_FUZZ_FAIL("[eal] args loaded as '%s', the file says '%s'",
			     cfg.eal_args, plain.eal_args);
	return 0;
}
