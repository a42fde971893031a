/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * INI configuration files, read with rte_cfgfile. Sections group the
 * options; every key is the long option's name and its value is parsed by
 * the same code as the command line. Unknown sections and keys are errors.
 * An optional [eal] section holds "args = <EAL options>".
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cfgfile.h>
#include <rte_common.h>

#include "tp_config.h"
#include "tp_config_internal.h"

static int
tp_config_load_eal(struct tp_config *cfg, struct rte_cfgfile *file,
		   const char *fname)
{
	struct rte_cfgfile_entry *e;
	int n, i;

	n = rte_cfgfile_section_num_entries(file, "eal");
	if (n <= 0)
		return 0;
	e = calloc(n, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	rte_cfgfile_section_entries(file, "eal", e, n);
	for (i = 0; i < n; i++) {
		if (strcmp(e[i].name, "args") != 0) {
			tp_config_error("%s: [eal] unknown key '%s' (only args)",
					fname, e[i].name);
			free(e);
			return -EINVAL;
		}
		snprintf(cfg->eal_args, sizeof(cfg->eal_args), "%s",
			 e[i].value);
	}
	free(e);
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

static int
tp_config_load_section(struct tp_config *cfg, struct rte_cfgfile *file,
		       const char *fname, const char *sec)
{
	const struct tp_option *o;
	struct rte_cfgfile_entry *e;
	char where[PATH_MAX + 128];
	bool known;
	int n, i, ret = 0;

	if (strcmp(sec, "eal") == 0)
		return tp_config_load_eal(cfg, file, fname);
	n = rte_cfgfile_section_num_entries(file, sec);
	if (n < 0)
		return -EINVAL;
	e = calloc(n + 1, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	rte_cfgfile_section_entries(file, sec, e, n);
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
	}
	fclose(f);
	return ret;
}

/* Load an INI file: every section and key must be known. */
int
tp_config_load_file(struct tp_config *cfg, const char *fname)
{
	struct rte_cfgfile_parameters params = { .comment_character = '#' };
	struct rte_cfgfile *file;
	char **secs = NULL;
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
	if (n > 0) {
		secs = calloc(n, sizeof(*secs));
		if (secs == NULL) {
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < n; i++) {
			secs[i] = malloc(CFG_NAME_LEN);
			if (secs[i] == NULL) {
				ret = -ENOMEM;
				goto out;
			}
		}
		rte_cfgfile_sections(file, secs, n);
	}
	for (i = 0; i < n && ret == 0; i++)
		ret = tp_config_load_section(cfg, file, fname, secs[i]);
out:
	if (secs != NULL) {
		for (i = 0; i < n; i++)
			free(secs[i]);
		free(secs);
	}
	rte_cfgfile_close(file);
	return ret;
}
