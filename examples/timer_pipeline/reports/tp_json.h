/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_JSON_H_
#define _TP_JSON_H_

/*
 * The reports' JSON writer (tp_json.c): one object being written to a
 * FILE, keys and numbers only, no escaping. Main lcore only.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tp_counters;

/** A JSON object being written: keys and numbers only, no escaping. */
struct tp_json {
	FILE *f;		/**< Output. */
	const char *sep;	/**< "" before an object's first member. */
};

void tp_json_key(struct tp_json *w, const char *key);
void tp_json_u64(struct tp_json *w, const char *key, uint64_t v);
void tp_json_bool(struct tp_json *w, const char *key, bool v);
void tp_json_str(struct tp_json *w, const char *key, const char *v);
void tp_json_open(struct tp_json *w, const char *key, int c);
void tp_json_close(struct tp_json *w, int c);
void tp_json_begin(struct tp_json *w, const char *key);
void tp_json_name(struct tp_json *w, const char *key, const char *v);
void tp_json_list(struct tp_json *w, const char *key);
void tp_json_list_end(struct tp_json *w);
void tp_json_elem(struct tp_json *w);
void tp_json_word(struct tp_json *w, const char *v);
void tp_json_num(struct tp_json *w, uint64_t v);
void tp_json_end(struct tp_json *w);
/** Every counter of the table; the exporter's only while it is on. */
void tp_json_counters(struct tp_json *w, const struct tp_counters *c,
		      bool ipfix);
void tp_json_f64(struct tp_json *w, const char *key, double v);

#endif /* _TP_JSON_H_ */
