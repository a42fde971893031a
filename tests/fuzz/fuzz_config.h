/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _FUZZ_CONFIG_H_
#define _FUZZ_CONFIG_H_

/*
 * What the option parser (tp_option.c, tp_args.c) and the INI loader
 * (tp_config_file.c) must promise on any input, shared by fuzz_options.c
 * and fuzz_ini.c. Every check walks the option table (tp_options[]), so a
 * new option is checked without a change here. A broken promise abort()s.
 * No lock: one fuzz target is one thread.
 *
 * - tp_fuzz_value_oracle(): one value given to tp_option_set() is
 *   accepted exactly when the option's grammar and range say so, and is
 *   then stored exactly (numbers and durations are recomputed here in
 *   128-bit arithmetic, independently of the parser);
 * - tp_fuzz_check_config(): an accepted configuration is in range for
 *   every option and passes the cross-option checks;
 * - tp_fuzz_roundtrip(): the configuration printed back as a command line
 *   ("--name=value" from tp_config_text_format(), the form --dump-config
 *   shows) parses to the same configuration.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup/tp_args.h"
#include "setup/tp_config.h"
#include "setup/tp_config_text.h"
#include "setup/tp_option.h"

#include "fuzz_report.h"

/* Formatted values: an lcore list of every other lcore is the longest. */
#define TP_FUZZ_VAL_LEN 4096

/* Exact value of "<digits>" in 'base' (10 or 16), -1 if not that shape,
 * -2 if over UINT64_MAX.
 */
static inline int
tp_fuzz_exact_uint(const char *s, int base, unsigned __int128 *out)
{
	unsigned __int128 v = 0;
	const char *p;
	int d;

	if (*s == '\0')
		return -1;
	for (p = s; *p != '\0'; p++) {
		if (base == 10 ? !isdigit((unsigned char)*p) :
		    !isxdigit((unsigned char)*p))
			return -1;
	}
	for (p = s; *p != '\0'; p++) {
		d = isdigit((unsigned char)*p) ? *p - '0' :
			tolower((unsigned char)*p) - 'a' + 10;
		v = v * (unsigned)base + (unsigned)d;
		if (v > UINT64_MAX)
			return -2;
	}
	*out = v;
	return 0;
}

/* Exact nanoseconds of "<digits>[.<0-9 digits>][ns|us|ms|s|m|h]", -1 if
 * not that shape, -2 if over UINT64_MAX.
 */
static inline int
tp_fuzz_exact_duration(const char *s, unsigned __int128 *ns)
{
	static const struct { const char *u; uint64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "", 1000000000 },
		{ "m", UINT64_C(60000000000) }, { "h", UINT64_C(3600000000000) },
	};
	unsigned __int128 whole = 0, frac = 0, div = 1, mul = 0;
	const char *p = s;
	unsigned int i, nfrac = 0;
	bool big = false;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		whole = whole * 10 + (unsigned)(*p - '0');
		if (whole > UINT64_MAX)
			big = true, whole = (unsigned __int128)UINT64_MAX + 1;
	}
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++, nfrac++) {
			frac = frac * 10 + (unsigned)(*p - '0');
			div *= 10;
			if (nfrac == 9)
				return -1;	/* finer than 1 ns */
		}
	for (i = 0; i < RTE_DIM(units); i++)
		if (strcmp(p, units[i].u) == 0)
			mul = units[i].mul;
	if (mul == 0)
		return -1;
	if (big)
		return -2;
	*ns = whole * mul + frac * mul / div;
	return *ns > UINT64_MAX ? -2 : 0;
}

/* The option's member, as an integer. */
static inline uint64_t
tp_fuzz_member(const struct tp_config *cfg, const struct tp_option *o)
{
	return tp_option_load_uint((const char *)cfg + o->offset, o->size);
}

/*
 * Give 'val' to option 'o' of a fresh configuration: the answer and the
 * stored value must be what the option's grammar says.
 */
static inline void
tp_fuzz_value_oracle(const struct tp_option *o, const char *val)
{
	static struct tp_config cfg;
	const struct tp_enum_name *n;
	unsigned __int128 v = 0;
	int ret, exact = -1;
	bool want = false;

	tp_config_defaults(&cfg);
	ret = tp_option_set(&cfg, o, val, "fuzz");
	if (ret != 0 && ret != -EINVAL)
		abort();
	switch (o->type) {
	case TP_OT_UINT:
	case TP_OT_DURATION:
		exact = o->type == TP_OT_UINT ?
			tp_fuzz_exact_uint(val, 10, &v) :
			tp_fuzz_exact_duration(val, &v);
		want = exact == 0 && v >= o->min && v <= o->max;
		if (want && ret == 0 && tp_fuzz_member(&cfg, o) != v)
			TP_FUZZ_FAIL("option '--%s' value '%.200s' stored as %"
				     PRIu64, o->name, val,
				     tp_fuzz_member(&cfg, o));
		break;
	case TP_OT_ENUM:
		for (n = o->names; n->name != NULL; n++)
			if (strcmp(val, n->name) == 0)
				break;
		want = n->name != NULL;
		if (want && ret == 0 && tp_fuzz_member(&cfg, o) != n->value)
			abort();
		break;
	case TP_OT_BOOL:
		want = strcmp(val, "yes") == 0 || strcmp(val, "no") == 0 ||
			strcmp(val, "true") == 0 || strcmp(val, "false") == 0 ||
			strcmp(val, "on") == 0 || strcmp(val, "off") == 0 ||
			strcmp(val, "1") == 0 || strcmp(val, "0") == 0;
		if (want && ret == 0 && *((bool *)((char *)&cfg + o->offset)) !=
		    (val[0] == 'y' || val[0] == 't' || val[0] == '1' ||
		     strcmp(val, "on") == 0))
			abort();
		break;
	case TP_OT_PATH:
		want = val[0] != '\0' && strlen(val) < o->size;
		if (want && ret == 0 &&
		    strcmp((char *)&cfg + o->offset, val) != 0)
			abort();
		break;
	case TP_OT_PORTMASK:
		exact = tp_fuzz_exact_uint(strncasecmp(val, "0x", 2) == 0 ?
					   val + 2 : val, 16, &v);
		want = exact == 0 && v != 0;
		if (want && ret == 0 && cfg.portmask != v)
			abort();
		break;
	case TP_OT_LCORES:
	case TP_OT_FLOWSEL:
		return;	/* checked by the round trip */
	}
	if (want != (ret == 0))
		TP_FUZZ_FAIL("option '--%s' value '%.200s' %s", o->name, val,
			     want ? "refused" : "accepted");
}

/* Every option in range, every string terminated, the cross checks. */
static inline void
tp_fuzz_check_config(const struct tp_config *cfg)
{
	const struct tp_option *o;
	const struct tp_enum_name *n;
	unsigned int i;
	uint64_t v;

	for (i = 0; i < tp_nb_options; i++) {
		o = &tp_options[i];
		v = o->type == TP_OT_UINT || o->type == TP_OT_DURATION ||
			o->type == TP_OT_ENUM ? tp_fuzz_member(cfg, o) : 0;
		if ((o->type == TP_OT_UINT || o->type == TP_OT_DURATION) &&
		    (v < o->min || v > o->max))
			abort();
		if (o->type == TP_OT_ENUM) {
			for (n = o->names; n->name != NULL; n++)
				if (n->value == v)
					break;
			if (n->name == NULL)
				abort();
		}
		if (o->type == TP_OT_PATH &&
		    strnlen((const char *)cfg + o->offset, o->size) >= o->size)
			abort();
	}
	if (cfg->portmask == 0 ||
	    strnlen(cfg->trace_flow.text, sizeof(cfg->trace_flow.text)) >=
	    sizeof(cfg->trace_flow.text) ||
	    strnlen(cfg->eal_args, sizeof(cfg->eal_args)) >=
	    sizeof(cfg->eal_args) ||
	    (cfg->stats_json[0] != '\0' && cfg->stats_period_s == 0))
		abort();
	for (i = 0; i < TP_TMO_MAX; i++)
		if (cfg->tmo_ns[i] < cfg->tick_ns)
			abort();
}

/* An option left at "nothing given": the dump shows none/all/auto. */
static inline bool
tp_fuzz_unset(const struct tp_config *cfg, const struct tp_option *o)
{
	const char *m = (const char *)cfg + o->offset;

	switch (o->type) {
	case TP_OT_PATH:
		return m[0] == '\0';
	case TP_OT_FLOWSEL:
		return ((const struct tp_flow_sel *)m)->text[0] == '\0';
	case TP_OT_PORTMASK:
		return cfg->portmask == UINT64_MAX;
	case TP_OT_LCORES:
		return !*(const bool *)((const char *)cfg + o->set_offset);
	default:
		return false;
	}
}

/* 0 if every option (and [eal] args) of a and b reads the same. */
static inline int
tp_fuzz_same(const struct tp_config *a, const struct tp_config *b)
{
	static char va[TP_FUZZ_VAL_LEN], vb[TP_FUZZ_VAL_LEN];
	unsigned int i;

	for (i = 0; i < tp_nb_options; i++) {
		tp_config_text_format(a, &tp_options[i], va, sizeof(va));
		tp_config_text_format(b, &tp_options[i], vb, sizeof(vb));
		if (strcmp(va, vb) != 0)
			return -1;
	}
	return strcmp(a->eal_args, b->eal_args) != 0 ? -1 : 0;
}

/* Print cfg back as a command line; it must parse to the same config. */
static inline void
tp_fuzz_roundtrip(const struct tp_config *cfg)
{
	static char vals[2][TP_FUZZ_VAL_LEN];
	static char args[64][TP_FUZZ_VAL_LEN + 80];
	static struct tp_config again;
	char *argv[66];
	unsigned int i;
	int argc = 0;

	argv[argc++] = (char *)"--";
	for (i = 0; i < tp_nb_options && argc < 65; i++) {
		const struct tp_option *o = &tp_options[i];

		if (tp_fuzz_unset(cfg, o))
			continue;
		tp_config_text_format(cfg, o, vals[0], sizeof(vals[0]));
		if (o->type == TP_OT_BOOL)
			snprintf(args[argc], sizeof(args[argc]), "--%s%s",
				 vals[0][0] == 'y' ? "" : "no-", o->name);
		else
			snprintf(args[argc], sizeof(args[argc]), "--%s=%s",
				 o->name, vals[0]);
		argv[argc] = args[argc];
		argc++;
	}
	argv[argc] = NULL;
	if (tp_args_parse(&again, argc, argv) != 0)
		TP_FUZZ_FAIL("the printed configuration is refused");
	for (i = 0; i < tp_nb_options; i++) {
		tp_config_text_format(cfg, &tp_options[i], vals[0], sizeof(vals[0]));
		tp_config_text_format(&again, &tp_options[i], vals[1],
				 sizeof(vals[1]));
		if (strcmp(vals[0], vals[1]) != 0)
			TP_FUZZ_FAIL("--%s is '%.200s', printed and parsed "
				     "again '%.200s'", tp_options[i].name,
				     vals[0], vals[1]);
	}
}

/* libFuzzer dictionary from the option table: names, enum values, units. */
static inline void
tp_fuzz_write_dict(const char *path, bool ini)
{
	static const char *const extra[] = {
		"ns", "us", "ms", "s", "m", "h", "yes", "no", "0x", "any:",
		"[::1]:", "18446744073709551616", "4294967296", "-1", ".",
	};
	const struct tp_enum_name *n;
	unsigned int i;
	FILE *f = fopen(path, "w");

	if (f == NULL)
		exit(1);
	for (i = 0; i < tp_nb_options; i++) {
		const struct tp_option *o = &tp_options[i];

		if (ini)
			fprintf(f, "\"%s = \"\n\"[%s]\\x0a\"\n", o->name,
				o->section);
		else
			fprintf(f, "\"--%s\"\n\"--%s=\"\n", o->name, o->name);
		if (o->type == TP_OT_ENUM)
			for (n = o->names; n->name != NULL; n++)
				fprintf(f, "\"%s\"\n", n->name);
	}
	for (i = 0; i < RTE_DIM(extra); i++)
		fprintf(f, "\"%s\"\n", extra[i]);
	if (ini)
		fprintf(f, "\"[eal]\\x0a\"\n\"args = \"\n\"#\"\n");
	fclose(f);
	exit(0);
}

#endif /* _FUZZ_CONFIG_H_ */
