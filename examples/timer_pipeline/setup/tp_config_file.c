/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * INI configuration files, read with rte_cfgfile. Sections group the
 * options; every key is the long option's name and its value is parsed by
 * the same code as the command line. Unknown sections and keys are errors.
 * An optional [eal] section holds "args = <EAL options>".
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cfgfile.h>
#include <rte_common.h>

#include "setup/tp_config.h"
#include "setup/tp_config_file.h"
#include "setup/tp_option.h"

static int
tp_config_load_eal(struct tp_config *cfg, const struct rte_cfgfile_entry *e,
		   int n, const char *fname)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(e[i].name, "args") != 0)
			return tp_config_error("%s: [eal] unknown key '%s' "
					       "(only args)", fname, e[i].name);
		snprintf(cfg->eal_args, sizeof(cfg->eal_args), "%s",
			 e[i].value);
	}
	return 0;
}

static const struct tp_option *
tp_option_find_key(const char *section, const char *key, bool *known_sec)
{
	unsigned int i;

	*known_sec = strcmp(section, "eal") == 0;
	for (i = 0; i < tp_nb_options; i++) {
		if (strcmp(tp_options[i].section, section) != 0)
			continue;
		*known_sec = true;
		if (strcmp(tp_options[i].name, key) == 0)
			return &tp_options[i];
	}
	return NULL;
}

/*
 * Section number 'idx' of the file. By number, not by name: a section
 * given twice is two sections, each applied in its turn (by name, the
 * second one's keys would be silently skipped).
 */
static int
tp_config_load_section(struct tp_config *cfg, struct rte_cfgfile *file,
		       const char *fname, int idx)
{
	const struct tp_option *o;
	struct rte_cfgfile_entry *e;
	char where[PATH_MAX + 128];
	char sec[CFG_NAME_LEN];
	bool known;
	int n, i, ret = 0;

	n = rte_cfgfile_section_num_entries_by_index(file, sec, idx);
	if (n < 0)
		return tp_config_error("%s: cannot read section %d", fname,
				       idx + 1);
	e = calloc(n + 1, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	if (rte_cfgfile_section_entries_by_index(file, idx, sec, e, n) != n) {
		ret = tp_config_error("%s: cannot read section [%s]", fname,
				      sec);
		goto out;
	}
	if (strcmp(sec, "eal") == 0) {
		ret = tp_config_load_eal(cfg, e, n, fname);
		goto out;
	}
	o = tp_option_find_key(sec, "", &known);
	if (!known) {
		ret = tp_config_error("%s: unknown section [%s]", fname, sec);
		goto out;
	}
	for (i = 0; i < n; i++) {
		o = tp_option_find_key(sec, e[i].name, &known);
		if (o == NULL) {
			ret = tp_config_error("%s: [%s] unknown key '%s'",
					      fname, sec, e[i].name);
			goto out;
		}
		snprintf(where, sizeof(where), "%s: [%s] %s", fname, sec,
			 e[i].name);
		ret = tp_option_set(cfg, o, e[i].value, where);
		if (ret < 0)
			goto out;
	}
out:
	free(e);
	return ret;
}

/* Length of s[0..n) without its leading and trailing blanks. */
static size_t
tp_config_stripped_len(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n;
}

/*
 * What rte_cfgfile would keep of a line it reads: it silently cuts
 * section names and keys to CFG_NAME_LEN - 1 bytes and values to
 * CFG_VALUE_LEN - 1, so a longer one is refused here. 0 or an error.
 */
static int
tp_config_check_lengths(const char *fname, unsigned int lineno,
			const char *p)
{
	const char *end = p + strcspn(p, "\r\n"), *c, *eq;

	/* rte_cfgfile's comments begin at a '#' not escaped by '\'. */
	for (c = p; c < end; c++)
		if (*c == '#' && (c == p || c[-1] != '\\'))
			break;
	end = c;
	if (*p == '[') {
		c = memchr(p, ']', end - p);
		if (c != NULL &&
		    tp_config_stripped_len(p + 1, c - p - 1) >= CFG_NAME_LEN)
			return tp_config_error("%s:%u: section name longer "
					       "than %d bytes", fname, lineno,
					       CFG_NAME_LEN - 1);
		return 0;
	}
	eq = memchr(p, '=', end - p);
	if (eq == NULL)
		return 0;
	if (tp_config_stripped_len(p, eq - p) >= CFG_NAME_LEN)
		return tp_config_error("%s:%u: key longer than %d bytes",
				       fname, lineno, CFG_NAME_LEN - 1);
	if (tp_config_stripped_len(eq + 1, end - eq - 1) >= CFG_VALUE_LEN)
		return tp_config_error("%s:%u: value longer than %d bytes",
				       fname, lineno, CFG_VALUE_LEN - 1);
	return 0;
}

/*
 * rte_cfgfile skips lines it cannot parse (e.g. "key value" without '='),
 * so check the shape of every line first to report it with its number.
 */
static int
tp_config_check_lines(const char *fname)
{
	char line[CFG_NAME_LEN + CFG_VALUE_LEN + 16];
	unsigned int lineno = 0;
	const char *p;
	FILE *f;
	int ret = 0;

	f = fopen(fname, "r");
	if (f == NULL)
		return tp_config_error("cannot open config file '%s': %s",
				       fname, strerror(errno));
	while (ret == 0 && fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#')
			continue;
		if (strchr(line, '\n') == NULL && !feof(f))
			ret = tp_config_error("%s:%u: line too long", fname,
					      lineno);
		else if (*p == '[' ? strchr(p, ']') == NULL :
			 strchr(p, '=') == NULL)
			ret = tp_config_error("%s:%u: expected '[section]' or "
					      "'key = value'", fname, lineno);
		else
			ret = tp_config_check_lengths(fname, lineno, p);
	}
	fclose(f);
	return ret;
}

/* Load an INI file: every section and key must be known. */
int
tp_config_file_load(struct tp_config *cfg, const char *fname)
{
	struct rte_cfgfile_parameters params = { .comment_character = '#' };
	struct rte_cfgfile *file;
	int n, i, ret;

	ret = tp_config_check_lines(fname);
	if (ret < 0)
		return ret;
	file = rte_cfgfile_load_with_params(fname, 0, &params);
	if (file == NULL)
		return tp_config_error("config file '%s': syntax error (lines "
				       "must be [section], key = value or "
				       "# comment; keys belong to a section)",
				       fname);
	n = rte_cfgfile_num_sections(file, NULL, 0);
	for (i = 0; i < n && ret == 0; i++)
		ret = tp_config_load_section(cfg, file, fname, i);
	rte_cfgfile_close(file);
	return ret;
}
