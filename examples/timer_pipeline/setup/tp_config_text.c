/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Text generated from the option table: the usage text (--help) and the
 * effective configuration (printed at start and by --dump-config); and
 * the exit statuses, for --help and docs/exit-status.inc.
 */

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "setup/tp_config.h"
#include "setup/tp_config_text.h"
#include "setup/tp_option.h"

#define TP_NS_PER_S UINT64_C(1000000000)

/* Every exit status the pipeline gives, and when. */
static const struct {
	int status;
	const char *when;
} tp_exit_statuses[] = {
	{ EXIT_SUCCESS, "The run ended and the exactly-once check passed "
	  "(also --help, --dump-config). An IPFIX collector's records not "
	  "sent are a counted drop, not a failure." },
	{ EXIT_FAILURE, "A runtime failure (EAL, a port, a pool, an "
	  "aborted run) or the exactly-once check violated, or "
	  "--summary-json could not be written." },
	{ TP_EXIT_USAGE, "A bad command line or configuration file, a "
	  "missing or unreadable capture, or an output that is an input "
	  "or another output: refused before EAL starts, in one line." },
	{ TP_EXIT_LOST, "The check holds but output was lost on this "
	  "machine: records not written to --flow-log or --ipfix-file "
	  "(a full disk, EFBIG, EIO), or frames missing from a tx_pcap "
	  "file." },
};

static void
tp_format_duration(uint64_t ns, char *buf, size_t len)
{
	if (ns % TP_NS_PER_S == 0)
		snprintf(buf, len, "%" PRIu64 "s", ns / TP_NS_PER_S);
	else if (ns % 1000000 == 0)
		snprintf(buf, len, "%" PRIu64 "ms", ns / 1000000);
	else if (ns % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "ns", ns);
}

static void
tp_format_lcores(const bool *set, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i, j;

	buf[0] = '\0';
	for (i = 0; i < RTE_MAX_LCORE && off < len; i++) {
		if (!set[i])
			continue;
		for (j = i; j + 1 < RTE_MAX_LCORE && set[j + 1]; j++)
			;
		if (j == i)
			off += snprintf(buf + off, len - off, "%s%u",
					off ? "," : "", i);
		else
			off += snprintf(buf + off, len - off, "%s%u-%u",
					off ? "," : "", i, j);
		i = j;
	}
}

/* Current value of one option as text, the form the parser accepts. */
void
tp_config_text_format(const struct tp_config *cfg, const struct tp_option *o,
		 char *buf, size_t len)
{
	const char *base = (const char *)cfg;
	const struct tp_enum_name *n;
	uint64_t v;

	switch (o->type) {
	case TP_OT_UINT:
		snprintf(buf, len, "%" PRIu64,
			 tp_option_load_uint(base + o->offset, o->size));
		break;
	case TP_OT_DURATION:
		tp_format_duration(tp_option_load_uint(base + o->offset, o->size),
				   buf, len);
		break;
	case TP_OT_ENUM:
		v = tp_option_load_uint(base + o->offset, o->size);
		snprintf(buf, len, "?");
		/* The first name of a value is its current one. */
		for (n = o->names; n->name != NULL; n++)
			if (n->value == v) {
				snprintf(buf, len, "%s", n->name);
				break;
			}
		break;
	case TP_OT_BOOL:
		snprintf(buf, len, "%s", *(const bool *)(base + o->offset) ?
			 "yes" : "no");
		break;
	case TP_OT_PATH:
		snprintf(buf, len, "%s", *(base + o->offset) ?
			 base + o->offset : "none");
		break;
	case TP_OT_PORTMASK:
		if (cfg->portmask == UINT64_MAX)
			snprintf(buf, len, "all");
		else
			snprintf(buf, len, "0x%" PRIx64, cfg->portmask);
		break;
	case TP_OT_FLOWSEL:
		snprintf(buf, len, "%s", ((const struct tp_flow_sel *)
					  (base + o->offset))->text[0] ?
			 ((const struct tp_flow_sel *)(base + o->offset))->text :
			 "none");
		break;
	case TP_OT_LCORES:
		if (!*(const bool *)(base + o->set_offset))
			snprintf(buf, len, "auto");
		else
			tp_format_lcores((const bool *)(base + o->offset),
					 buf, len);
		break;
	}
}

/* Left column of the usage text and of the docs' table. */
static void
tp_option_lhs(const struct tp_option *o, char *buf, size_t len)
{
	if (o->short_opt != 0)
		snprintf(buf, len, "-%c, --%s %s", o->short_opt, o->name,
			 o->arg);
	else if (o->type == TP_OT_BOOL)
		snprintf(buf, len, "--[no-]%s", o->name);
	else
		snprintf(buf, len, "--%s %s", o->name, o->arg);
}

void
tp_config_text_usage(const char *prgname)
{
	struct tp_config def;
	char val[64], lhs[64];
	unsigned int i;

	tp_config_defaults(&def);
	printf("Usage: %s [EAL options] -- [options]\n\n"
	       "Flow-aging pipeline: RX lcores build bidirectional flows in an "
	       "rte_hash table\nand arm one event timer per flow; workers "
	       "count and forward packets and\nage flows on timer expiry "
	       "events; every ended flow gives one flow record.\n\n"
	       "Typical EAL options: -l 0-1 -S 1 --vdev=event_sw0 "
	       "--vdev=net_pcap0,rx_pcap=IN,tx_pcap=OUT --no-pci\n"
	       "(-S names the service lcores that run the event_sw "
	       "scheduler and the timer adapter;\nwithout one, as with "
	       "-l 0, the main lcore runs them itself).\n\n"
	       "Options (INI section in brackets; the command line overrides "
	       "the file):\n", prgname);
	printf("  %-32s %s\n", "--config FILE",
	       "load options from an INI file first (see configs/)");
	for (i = 0; i < tp_nb_options; i++) {
		const struct tp_option *o = &tp_options[i];

		tp_option_lhs(o, lhs, sizeof(lhs));
		tp_config_text_format(&def, o, val, sizeof(val));
		printf("  %-32s %s\n  %-32s [%s] default: %s\n", lhs, o->help,
		       "", o->section, val);
	}
	printf("  %-32s %s\n", "--dump-config",
	       "print the effective configuration and exit");
	printf("  %-32s %s\n", "--help-rst",
	       "print the option table as reStructuredText and exit");
	printf("  %-32s %s\n", "-h, --help", "print this help and exit");
	printf("\nDurations: <number>[ns|us|ms|s|m|h], seconds if no unit "
	       "(e.g. 30, 500ms, 1.5m).\nINI files may also hold an [eal] "
	       "section with 'args = ...', used when the\ncommand line has no "
	       "EAL options.\n\nExit status:\n");
	for (i = 0; i < RTE_DIM(tp_exit_statuses); i++)
		printf("  %d  %s\n", tp_exit_statuses[i].status,
		       tp_exit_statuses[i].when);
}

/* docs/exit-status.inc; the docs test compares it with this output. */
void
tp_config_text_exit_rst(void)
{
	unsigned int i;

	printf(".. Generated by: dpdk-timer_pipeline -- --help-exit-rst\n"
	       ".. (do not edit; the docs test compares it with the binary)"
	       "\n\n.. list-table::\n   :header-rows: 1\n"
	       "   :widths: 10 90\n\n   * - Status\n     - When\n");
	for (i = 0; i < RTE_DIM(tp_exit_statuses); i++)
		printf("   * - %d\n     - %s\n", tp_exit_statuses[i].status,
		       tp_exit_statuses[i].when);
}

/*
 * The docs include this output (docs/options.inc), and the docs test
 * checks that the file equals what the binary prints: the table in the
 * guide and --help come from the same option table.
 */
void
tp_config_text_usage_rst(void)
{
	struct tp_config def;
	char val[64], lhs[64];
	unsigned int i;

	tp_config_defaults(&def);
	printf(".. Generated by: dpdk-timer_pipeline -- --help-rst\n"
	       ".. (do not edit; the docs test compares it with the binary)"
	       "\n\n.. list-table::\n   :header-rows: 1\n"
	       "   :widths: 28 9 9 54\n\n"
	       "   * - Option\n     - Section\n     - Default\n"
	       "     - Meaning\n");
	for (i = 0; i < tp_nb_options; i++) {
		tp_option_lhs(&tp_options[i], lhs, sizeof(lhs));
		tp_config_text_format(&def, &tp_options[i], val, sizeof(val));
		printf("   * - ``%s``\n     - %s\n     - ``%s``\n     - %s\n",
		       lhs, tp_options[i].section, val, tp_options[i].help);
	}
}

void
tp_config_text_dump(const struct tp_config *cfg)
{
	char val[PATH_MAX];
	unsigned int i;

	printf("Configuration%s%s:\n", cfg->config_file[0] ? " from " : "",
	       cfg->config_file);
	for (i = 0; i < tp_nb_options; i++) {
		tp_config_text_format(cfg, &tp_options[i], val, sizeof(val));
		printf("  %-18s = %s\n", tp_options[i].name, val);
	}
	/* The file's EAL options apply only when the command line has none. */
	if (cfg->eal_args[0] != '\0' && !cfg->eal_args_cmdline)
		printf("  [eal] args        = %s\n", cfg->eal_args);
	else if (cfg->eal_args[0] != '\0')
		printf("  [eal] args        = (not used: the command line has "
		       "EAL options)\n");
	fflush(stdout);
}
