/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The flow log's lines (records/tp_record_line.c), run by
 * pipeline/e2e.sh:
 * - addresses: each IPv6 address of a JSON and a CSV line is what
 *   glibc's inet_ntop() writes for it, and each IPv4 address its dotted
 *   quad. The addresses: every pattern of zero and non-zero groups (256),
 *   with group values of every length (1 to 4 hex digits), the forms
 *   inet_ntop() writes dotted (::a.b.c.d, ::ffff:a.b.c.d) and those next
 *   to them, runs of equal length, and random addresses;
 * - whole lines: JSON and CSV lines of records whose numbers have every
 *   length from one digit to their type's largest value are, byte for
 *   byte, the lines snprintf() writes for them; the longest line there
 *   can be fits in TP_LOG_LINE_MAX; a shorter buffer is refused.
 * Prints "record_line: N passed, N failed" (one check per address and
 * format) and exits non-zero on a failure.
 *
 * Usage: record_line (no EAL).
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdbool.h>
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

/* The line of r as snprintf() and inet_ntop() write it. */
static int
ref_line(char *out, size_t len, bool json, const struct tp_flow_record *r)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	const int af = r->ipver == 4 ? AF_INET : AF_INET6;
	const char *q = json ? "\"" : "";

	inet_ntop(af, r->src_addr, src, sizeof(src));
	inet_ntop(af, r->dst_addr, dst, sizeof(dst));
	if (!json)
		return snprintf(out, len, "%" PRIu64 ",%u,%u,%s,%u,%s,%u,%u,%u,"
				"%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%u,%u,%s,%u\n",
				r->serial, r->ipver, r->proto, src,
				r->src_port, dst, r->dst_port, r->vlan[0],
				r->vlan[1], r->first_ns, r->last_ns,
				r->pkts[0], r->bytes[0], r->pkts[1],
				r->bytes[1], r->tcp_flags[0], r->tcp_flags[1],
				tp_flow_end_reason_name(r->end_reason),
				r->end_reason);
	return snprintf(out, len, "{\"serial\":%" PRIu64 ",\"ip_version\":%u,"
			"\"proto\":%u,\"src\":%s%s%s,\"sport\":%u,"
			"\"dst\":%s%s%s,\"dport\":%u,\"vlan\":%u,"
			"\"vlan_inner\":%u,\"first_ns\":%" PRIu64 ","
			"\"last_ns\":%" PRIu64 ",\"packets_fwd\":%" PRIu64 ","
			"\"bytes_fwd\":%" PRIu64 ",\"packets_rev\":%" PRIu64 ","
			"\"bytes_rev\":%" PRIu64 ",\"tcp_flags_fwd\":%u,"
			"\"tcp_flags_rev\":%u,\"end_reason\":\"%s\","
			"\"end_reason_code\":%u}\n",
			r->serial, r->ipver, r->proto, q, src, q, r->src_port,
			q, dst, q, r->dst_port, r->vlan[0], r->vlan[1],
			r->first_ns, r->last_ns, r->pkts[0], r->bytes[0],
			r->pkts[1], r->bytes[1], r->tcp_flags[0],
			r->tcp_flags[1], tp_flow_end_reason_name(r->end_reason),
			r->end_reason);
}

/* Both lines of r against ref_line()'s; returns the JSON line's length. */
static int
check_line(const struct tp_flow_record *r, const char *what)
{
	char got[TP_LOG_LINE_MAX], want[2 * TP_LOG_LINE_MAX];
	int n, m, json_n = 0;
	bool json;

	for (json = false; ; json = true) {
		n = tp_record_line_format(got, sizeof(got),
					  json ? TP_LOG_JSON : TP_LOG_CSV, r);
		m = ref_line(want, sizeof(want), json, r);
		CHECK(n == m && n > 0 && memcmp(got, want, (size_t)n) == 0,
		      "%s %s line: got %.*s want %s", what,
		      json ? "JSON" : "CSV", n > 0 ? n : 0, got, want);
		if (json) {
			json_n = n;
			break;
		}
	}
	return json_n;
}

/* A number of 'digits' digits (1 to 20; 20: up to UINT64_MAX), random. */
static uint64_t
rand_digits(unsigned int digits)
{
	uint64_t v = 0, lo = 1;
	unsigned int i;

	for (i = 0; i < 4; i++)
		v = v << 16 ^ (uint64_t)(rand() & 0xffff);
	for (i = 1; i < digits; i++)
		lo *= 10;
	if (digits >= 20)
		return v < lo ? v + lo : v;	/* 20 digits */
	return lo + v % (lo * 9);		/* in [10^(d-1), 10^d) */
}

static void
check_lines(void)
{
	static const uint8_t longest6[16] = {
		0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
		0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	};
	struct tp_flow_record r;
	char small[TP_LOG_LINE_MAX - 1];
	unsigned int d, rep;
	int n;

	/* Every length of every number, both address families. */
	for (rep = 0; rep < 4000; rep++) {
		memset(&r, 0, sizeof(r));
		d = rep % 20 + 1;
		r.ipver = rep & 1 ? 4 : 6;
		r.proto = (uint8_t)rand_digits(d > 3 ? 3 : d);
		memcpy(r.src_addr, longest6, sizeof(longest6));
		r.dst_addr[rep % 16] = (uint8_t)rep;
		r.serial = rand_digits(d);
		r.first_ns = rand_digits(21 - d);
		r.last_ns = rand_digits(d);
		r.pkts[0] = rand_digits(d);
		r.pkts[1] = rep % 3 ? 0 : rand_digits(d);
		r.bytes[0] = rand_digits(21 - d);
		r.bytes[1] = rand_digits(d);
		r.src_port = (uint16_t)(d > 5 ? (uint64_t)rand() : rand_digits(d));
		r.dst_port = (uint16_t)(d > 5 ? 65535 : rand_digits(d));
		r.vlan[0] = (uint16_t)(rep % 4096);
		r.vlan[1] = (uint16_t)(rep % 7 ? 0 : 65535);
		r.tcp_flags[0] = (uint8_t)rand();
		r.tcp_flags[1] = (uint8_t)rep;
		r.end_reason = (uint8_t)(rep % 6);
		check_line(&r, "random");
	}
	/* The longest line there can be: every number its type's largest. */
	memset(&r, 0xff, sizeof(r));
	r.ipver = 6;
	memcpy(r.src_addr, longest6, sizeof(longest6));
	memcpy(r.dst_addr, longest6, sizeof(longest6));
	n = check_line(&r, "longest");
	CHECK(n > 0 && n < TP_LOG_LINE_MAX, "the longest line: %d bytes, "
	      "TP_LOG_LINE_MAX %d", n, TP_LOG_LINE_MAX);
	/* A buffer short of TP_LOG_LINE_MAX: refused, nothing written. */
	memset(small, 'x', sizeof(small));
	n = tp_record_line_format(small, sizeof(small), TP_LOG_JSON, &r);
	CHECK(n == -1 && small[0] == 'x', "a short buffer: %d", n);
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
	check_lines();
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
