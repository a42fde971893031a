/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The small JSON writer of the reports (--stats-json, --summary-json):
 * keys, numbers, words and lists, no escaping; every counter of the
 * table through tp_counters_each(). Main lcore only; no state but the
 * object being written.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "reports/tp_counters.h"
#include "reports/tp_json.h"

void
tp_json_key(struct tp_json *w, const char *key)
{
	fprintf(w->f, "%s\"%s\":", w->sep, key);
	w->sep = ",";
}

void
tp_json_u64(struct tp_json *w, const char *key, uint64_t v)
{
	tp_json_key(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void
tp_json_bool(struct tp_json *w, const char *key, bool v)
{
	tp_json_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* Only fixed names (adapter, refresh mode, stop reason): no escaping. */
void
tp_json_str(struct tp_json *w, const char *key, const char *v)
{
	tp_json_key(w, key);
	fprintf(w->f, "\"%s\"", v);
}

/* An object or a list ('{' or '[') under KEY, closed by tp_json_close(). */
void
tp_json_open(struct tp_json *w, const char *key, int c)
{
	tp_json_key(w, key);
	fputc(c, w->f);
	w->sep = "";
}

void
tp_json_close(struct tp_json *w, int c)
{
	fputc(c, w->f);
	w->sep = ",";
}

void
tp_json_begin(struct tp_json *w, const char *key)
{
	tp_json_open(w, key, '{');
}

/* A name from outside the program (a device's): escaped for JSON. */
void
tp_json_name(struct tp_json *w, const char *key, const char *v)
{
	const unsigned char *c;

	tp_json_key(w, key);
	fputc('"', w->f);
	for (c = (const unsigned char *)v; *c != '\0'; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(w->f, "\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			fprintf(w->f, "\\u%04x", *c);
		else
			fputc(*c, w->f);
	}
	fputc('"', w->f);
}

/* A list under KEY; its elements are objects (tp_json_elem) or words. */
void
tp_json_list(struct tp_json *w, const char *key)
{
	tp_json_open(w, key, '[');
}

void
tp_json_list_end(struct tp_json *w)
{
	tp_json_close(w, ']');
}

/* An object as a list element, closed by tp_json_end(). */
void
tp_json_elem(struct tp_json *w)
{
	fprintf(w->f, "%s{", w->sep);
	w->sep = "";
}

/* A fixed word (a role name) as a list element. */
void
tp_json_word(struct tp_json *w, const char *v)
{
	fprintf(w->f, "%s\"%s\"", w->sep, v);
	w->sep = ",";
}

/* A number as a list element. */
void
tp_json_num(struct tp_json *w, uint64_t v)
{
	fprintf(w->f, "%s%" PRIu64, w->sep, v);
	w->sep = ",";
}

void
tp_json_end(struct tp_json *w)
{
	tp_json_close(w, '}');
}

/* A key of the counter table (tp_counters_each()): a number or a list. */
static void
tp_json_put(void *arg, const char *key, const uint64_t *v, unsigned int n)
{
	struct tp_json *w = arg;
	unsigned int i;

	if (n == 0) {
		tp_json_u64(w, key, *v);
		return;
	}
	tp_json_key(w, key);
	for (i = 0; i < n; i++)
		fprintf(w->f, "%c%" PRIu64, i ? ',' : '[', v[i]);
	fputc(']', w->f);
}

/* Every counter of the table; the exporter's only while it is on. */
void
tp_json_counters(struct tp_json *w, const struct tp_counters *c, bool ipfix)
{
	tp_counters_each(c, ipfix ? TP_GRP_ALL :
			 TP_GRP_ALL & ~TP_GRP_BIT(TP_GRP_IPFIX), tp_json_put, w);
}

/* A ratio (ns per flow, a share), three decimals. */
void
tp_json_f64(struct tp_json *w, const char *key, double v)
{
	tp_json_key(w, key);
	fprintf(w->f, "%.3f", v);
}
