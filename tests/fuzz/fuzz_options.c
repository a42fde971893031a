/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * libFuzzer target: the command line parser (tp_args_parse() and
 * tp_option_set(), examples/timer_pipeline/setup/tp_args.c and
 * tp_option.c, tp_option_parse.c).
 *
 * The vector starts with "--", as main() hands it over (the app's part
 * of "EAL options -- app options"). The input is a list of records, each one selector byte and a value up to
 * the next NUL byte (or the end). The selector's low 6 bits pick an entry
 * of the option table (modulo its size, plus --dump-config, --help-rst and
 * --help), its top 2 bits how the record becomes arguments:
 *   0: "--name" "value"    1: "--name=value"
 *   2: the short option "-p" "value" where there is one, "--no-name" for a
 *      flag, else "--name" alone (a missing value)
 *   3: "value" alone (a positional or arbitrary token)
 * No record may name --config (the prescan would open any file): such a
 * token is left out. Each record's value is also given to tp_option_set()
 * directly and checked against the option's grammar
 * (tp_fuzz_value_oracle()); the whole argument vector must parse to 0, 1
 * (--help) or -EINVAL, and an accepted configuration must be in range and
 * survive the round trip (fuzz_config.h); then a valid vector must parse
 * and the same vector parsed again give the same answer (no state kept). getopt's state (optind) is reset by the
 * parser itself on each call; the configuration is rebuilt from the
 * defaults by tp_args_parse().
 *
 * TP_FUZZ_WRITE_DICT=FILE: write a libFuzzer dictionary made from the
 * option table to FILE and exit.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TP_FUZZ_MAX_ARGS 64

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dict = getenv("TP_FUZZ_WRITE_DICT");

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (dict != NULL)
		tp_fuzz_write_dict(dict, false);
	tp_fuzz_report_init();
	return 0;
}

static bool
tp_fuzz_is_config(const char *tok)
{
	return strncmp(tok, "--config", 8) == 0 &&
		(tok[8] == '\0' || tok[8] == '=');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const extra[] = {
		"--dump-config", "--help-rst", "--help",
	};
	static char *good[] = { (char *)"--", (char *)"--flows=100", NULL };
	static struct tp_config cfg, again;
	char *argv[TP_FUZZ_MAX_ARGS + 2], *owned[TP_FUZZ_MAX_ARGS];
	char *copy, *p, *end, *val, *tok;
	unsigned int sel, form, n;
	int argc = 0, nowned = 0, ret;

	/* The values, NUL-terminated where the input has its NULs. */
	copy = malloc(size + 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = (char *)"--";
	for (p = copy, end = copy + size; p < end &&
	     argc <= TP_FUZZ_MAX_ARGS - 2; p = val + strlen(val) + 1) {
		sel = (uint8_t)*p;
		val = p + 1;
		if (val > end)
			val = end;
		form = sel >> 6;
		n = (sel & 63) % (tp_nb_options + RTE_DIM(extra));
		if (n >= tp_nb_options) {
			argv[argc++] = (char *)extra[n - tp_nb_options];
			continue;
		}
		tp_fuzz_value_oracle(&tp_options[n], val);
		/* "--" + name + "=" + value; "-x" fits in that too. */
		tok = malloc(strlen(tp_options[n].name) + strlen(val) + 8);
		if (tok == NULL)
			break;
		if (form == 3) {
			free(tok);
			if (!tp_fuzz_is_config(val))
				argv[argc++] = val;
			continue;
		}
		if (form == 1)
			sprintf(tok, "--%s=%s", tp_options[n].name, val);
		else if (form == 2 && tp_options[n].short_opt != 0)
			sprintf(tok, "-%c", tp_options[n].short_opt);
		else if (form == 2 && tp_options[n].type == TP_OT_BOOL)
			sprintf(tok, "--no-%s", tp_options[n].name);
		else
			sprintf(tok, "--%s", tp_options[n].name);
		owned[nowned++] = tok;
		argv[argc++] = tok;
		if ((form == 0 || (form == 2 && tp_options[n].short_opt)) &&
		    tp_options[n].type != TP_OT_BOOL && !tp_fuzz_is_config(val))
			argv[argc++] = val;
	}
	argv[argc] = NULL;

	ret = tp_args_parse(&cfg, argc, argv);
	if (ret != 0 && ret != 1 && ret != -EINVAL)
		TP_FUZZ_FAIL("tp_args_parse() returned %d", ret);
	if (ret == 0) {
		tp_fuzz_check_config(&cfg);
		tp_fuzz_roundtrip(&cfg);
	}
	/* No state kept from a parse: a valid vector parses right after,
	 * and the same vector again gives the same answer.
	 */
	if (tp_args_parse(&again, RTE_DIM(good) - 1, good) != 0 ||
	    again.nb_flows != 100)
		TP_FUZZ_FAIL("'--flows=100' refused after that parse");
	if (tp_args_parse(&again, argc, argv) != ret ||
	    (ret == 0 && tp_fuzz_same(&cfg, &again) != 0))
		TP_FUZZ_FAIL("the same arguments parsed twice differ");

	while (nowned > 0)
		free(owned[--nowned]);
	free(copy);
	return 0;
}
