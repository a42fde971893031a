/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The flow log's addresses (records/tp_record_line.c), run by
 * pipeline/e2e.sh: each IPv6 address of a JSON and a CSV line is what
 * glibc's inet_ntop() writes for it, and each IPv4 address its dotted
 * quad. The addresses: every pattern of zero and non-zero groups (256),
 * with group values of every length (1 to 4 hex digits), the forms
 * inet_ntop() writes dotted (::a.b.c.d, ::ffff:a.b.c.d) and those next to
 * them, runs of equal length, and random addresses.
 * Prints "record_line: N passed, N failed" (one check per address and
 * format) and exits non-zero on a failure.
 *
 * Usage: record_line (no EAL).
 */

#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datapath/tp_flow.h"
#include "records/tp_record_line.h"
#include "tp_check.h"

/* The line formatter's one outside call; its name is not checked here. */
const char *
tp_flow_end_reason_name(unsigned int reason)
{
	(void)reason;
	return "idle_timeout";
}

/* Field n (0-based) of a CSV line, into out. */
static void
csv_field(const char *line, unsigned int n, char *out, size_t len)
{
	const char *p = line, *e;

	while (n-- > 0 && (p = strchr(p, ',')) != NULL)
		p++;
	if (p == NULL) {
		out[0] = '\0';
		return;
	}
	e = p + strcspn(p, ",\n");
	snprintf(out, len, "%.*s", (int)(e - p), p);
}

/* The JSON string value of key in line, into out. */
static void
json_field(const char *line, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(line, pat);
	if (p == NULL) {
		out[0] = '\0';
		return;
	}
	p += strlen(pat);
	e = strchr(p, '"');
	snprintf(out, len, "%.*s", e != NULL ? (int)(e - p) : 0, p);
}

/* One address as the record's source (dst: the reverse bytes). */
static void
check_addr(uint8_t ipver, const uint8_t *a)
{
	struct tp_flow_record r;
	char line[TP_LOG_LINE_MAX], want[INET6_ADDRSTRLEN], got[64];
	unsigned int i;
	int n;

	memset(&r, 0, sizeof(r));
	r.ipver = ipver;
	r.proto = 17;
	memcpy(r.src_addr, a, ipver == 4 ? 4 : 16);
	for (i = 0; i < 16; i++)
		r.dst_addr[i] = a[15 - i];
	if (inet_ntop(ipver == 4 ? AF_INET : AF_INET6, a, want,
		      sizeof(want)) == NULL) {
		CHECK(0, "inet_ntop failed");
		return;
	}
	n = tp_record_line_format(line, sizeof(line), TP_LOG_JSON, &r);
	json_field(line, "src", got, sizeof(got));
	CHECK(n > 0 && strcmp(got, want) == 0, "json %s: %s", want, got);
	n = tp_record_line_format(line, sizeof(line), TP_LOG_CSV, &r);
	csv_field(line, 3, got, sizeof(got));
	CHECK(n > 0 && strcmp(got, want) == 0, "csv %s: %s", want, got);
	if (ipver != 4) {
		inet_ntop(AF_INET6, r.dst_addr, want, sizeof(want));
		csv_field(line, 5, got, sizeof(got));
		CHECK(strcmp(got, want) == 0, "csv dst %s: %s", want, got);
	}
}

/* An address from 8 groups. */
static void
check_groups(const unsigned int *w)
{
	uint8_t a[16];
	unsigned int i;

	for (i = 0; i < 8; i++) {
		a[2 * i] = (uint8_t)(w[i] >> 8);
		a[2 * i + 1] = (uint8_t)w[i];
	}
	check_addr(6, a);
}

int
main(void)
{
	/* A group of 1 to 4 hex digits, and 0xffff. */
	static const unsigned int vals[] = {
		0x1, 0xa, 0x10, 0xfe, 0x100, 0xabc, 0x1000, 0xfedc, 0xffff,
	};
	static const unsigned int fixed[][8] = {
		{ 0, 0, 0, 0, 0, 0, 0, 0 },		/* :: */
		{ 0, 0, 0, 0, 0, 0, 0, 1 },		/* ::1 */
		{ 1, 0, 0, 0, 0, 0, 0, 0 },		/* 1:: */
		{ 0, 0, 0, 0, 0, 0, 0x0102, 0x0304 },	/* ::1.2.3.4 */
		{ 0, 0, 0, 0, 0, 0xffff, 0xc0a8, 0x0001 }, /* ::ffff:... */
		{ 0, 0, 0, 0, 0, 0xffff, 0, 0 },	/* ::ffff:0.0.0.0 */
		{ 0, 0, 0, 0, 0, 0xfffe, 0x0102, 0x0304 }, /* not mapped */
		{ 0, 0, 0, 0, 0, 0, 0, 0x0304 },	/* ::304, not dotted */
		{ 0, 0, 0, 0, 0, 0, 0x0102, 0 },
		{ 1, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304 },
		{ 0, 0, 0, 0, 1, 0xffff, 0x0102, 0x0304 },
		{ 1, 0, 0, 1, 0, 0, 1, 0 },		/* equal runs */
		{ 1, 0, 0, 1, 0, 0, 0, 1 },		/* the longer one */
		{ 1, 0, 1, 0, 1, 0, 1, 0 },		/* no run of 2 */
		{ 0, 1, 0, 1, 0, 1, 0, 1 },
		{ 0xfd00, 0, 0, 0, 0xa421, 0x9c56, 0x4686, 0xfea5 },
	};
	unsigned int w[8], mask, rep, i;
	uint8_t a[16];

	srand(12345);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		check_groups(fixed[i]);
	/* Every pattern of zero groups, each value length in each place. */
	for (mask = 0; mask < 256; mask++)
		for (rep = 0; rep < 2 * sizeof(vals) / sizeof(vals[0]); rep++) {
			for (i = 0; i < 8; i++)
				w[i] = mask & 1u << i ? 0 :
					vals[(rep + i) % (sizeof(vals) /
							  sizeof(vals[0]))];
			check_groups(w);
		}
	for (rep = 0; rep < 20000; rep++) {
		for (i = 0; i < 16; i++)
			a[i] = (uint8_t)rand();
		/* Some zero groups, at random. */
		for (i = 0; i < 8; i++)
			if (rand() % 3 == 0)
				a[2 * i] = a[2 * i + 1] = 0;
		check_addr(6, a);
		check_addr(4, a);
	}
	for (i = 0; i < 256; i++) {
		a[0] = (uint8_t)i;
		a[1] = (uint8_t)(255 - i);
		a[2] = (uint8_t)(i % 10);
		a[3] = (uint8_t)(i % 100);
		check_addr(4, a);
	}
	return tp_check_report("record_line");
}
