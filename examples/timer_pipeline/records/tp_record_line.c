/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * One line of the flow log from a flow record (see tp_record_line.h): the
 * field list, the CSV header and the JSON and CSV lines, written by hand.
 * Pure functions of their arguments; no state, no lock.
 */

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "datapath/tp_flow.h"
#include "records/tp_record_line.h"

/*
 * The flow log's fields, in order: X(name, kind, value of record r). The
 * one list the JSON keys, the CSV header and both line formats come
 * from. Kinds: U an unsigned number, A an address (IPv4 dotted or
 * RFC 5952 IPv6), S a string (JSON-quoted).
 */
#define TP_RECORD_FIELDS(X)						\
	X("serial", U, r->serial)					\
	X("ip_version", U, r->ipver)					\
	X("proto", U, r->proto)						\
	X("src", A, r->src_addr)					\
	X("sport", U, r->src_port)					\
	X("dst", A, r->dst_addr)					\
	X("dport", U, r->dst_port)					\
	X("vlan", U, r->vlan[0])					\
	X("vlan_inner", U, r->vlan[1])					\
	X("first_ns", U, r->first_ns)					\
	X("last_ns", U, r->last_ns)					\
	X("packets_fwd", U, r->pkts[0])					\
	X("bytes_fwd", U, r->bytes[0])					\
	X("packets_rev", U, r->pkts[1])					\
	X("bytes_rev", U, r->bytes[1])					\
	X("tcp_flags_fwd", U, r->tcp_flags[0])				\
	X("tcp_flags_rev", U, r->tcp_flags[1])				\
	X("end_reason", S, tp_flow_end_reason_name(r->end_reason))		\
	X("end_reason_code", U, r->end_reason)

/* The CSV header line, from the field list. */
size_t
tp_record_line_csv_header(char *out, size_t len)
{
#define TP_HDR_NAME(name, kind, val) name,
	static const char *const names[] = {
		TP_RECORD_FIELDS(TP_HDR_NAME)
	};
#undef TP_HDR_NAME
	size_t n = 0, k, i;

	for (i = 0; i < RTE_DIM(names); i++) {
		k = strlen(names[i]);
		if (n + k + 2 > len)
			return 0;
		memcpy(out + n, names[i], k);
		n += k;
		out[n++] = i + 1 < RTE_DIM(names) ? ',' : '\n';
	}
	return n;
}

/*
 * One line of the flow log, written by hand rather than by snprintf()
 * (docs/bench.rst, "Where the cycles go"). Every field has a longest form
 * (a number: the digits of its type's largest value; an address: an IPv6
 * one's; a string: TP_LINE_STR_MAX), and their sum is at most
 * TP_LOG_LINE_MAX (checked at build time, tp_record_line_format()): the
 * buffer's room is checked once, not at each field (those checks took a
 * fifth of a line's time).
 */
struct tp_line {
	char *p;		/* next byte */
};

/* A string field's longest form (the end reasons' names are shorter). */
#define TP_LINE_STR_MAX 32

/* The longest decimal form of an unsigned integer of 'size' bytes. */
#define TP_LINE_DIGITS(size)						\
	((size) == 1 ? 3 : (size) == 2 ? 5 : (size) == 4 ? 10 : 20)

static inline void
tp_line_put(struct tp_line *l, const char *s, size_t n)
{
	memcpy(l->p, s, n);
	l->p += n;
}

/* "00" to "99": a number's digits two at a time. */
#define TP_PAIRS_OF(t)							\
	t "0" t "1" t "2" t "3" t "4" t "5" t "6" t "7" t "8" t "9"
static const char tp_digit_pairs[] =
	TP_PAIRS_OF("0") TP_PAIRS_OF("1") TP_PAIRS_OF("2") TP_PAIRS_OF("3")
	TP_PAIRS_OF("4") TP_PAIRS_OF("5") TP_PAIRS_OF("6") TP_PAIRS_OF("7")
	TP_PAIRS_OF("8") TP_PAIRS_OF("9");
#undef TP_PAIRS_OF

/* Decimal digits of v (1 to 20). */
static inline unsigned int
tp_dec_len(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
		1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
		10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL,
	};
	/* log10(2) ~ 1233 / 4096: from the bit length, the digits or
	 * one short (0 counts as 1).
	 */
	const unsigned int t = ((64 - (unsigned int)__builtin_clzll(v | 1)) *
				1233) >> 12;

	return t + ((v | 1) >= pow10[t]);
}

/* x < 10^8 as exactly 8 digits, leading zeros kept, at p. */
static inline void
tp_put8(char *p, uint32_t x)
{
	const uint32_t hi = x / 10000, lo = x % 10000;

	memcpy(p, &tp_digit_pairs[hi / 100 * 2], 2);
	memcpy(p + 2, &tp_digit_pairs[hi % 100 * 2], 2);
	memcpy(p + 4, &tp_digit_pairs[lo / 100 * 2], 2);
	memcpy(p + 6, &tp_digit_pairs[lo % 100 * 2], 2);
}

/*
 * v in decimal, written from its last digit back: eight at a time while
 * more than eight are left (a nanosecond time has 19), whose halves do
 * not wait for each other, then two at a time.
 */
static inline void
tp_line_u64(struct tp_line *l, uint64_t v)
{
	const unsigned int n = tp_dec_len(v);
	char *p = l->p + n;
	uint32_t w;

	while (v >= 100000000) {
		p -= 8;
		tp_put8(p, (uint32_t)(v % 100000000));
		v /= 100000000;
	}
	w = (uint32_t)v;
	while (w >= 100) {
		p -= 2;
		memcpy(p, &tp_digit_pairs[w % 100 * 2], 2);
		w /= 100;
	}
	if (w >= 10)
		memcpy(p - 2, &tp_digit_pairs[w * 2], 2);
	else
		p[-1] = (char)('0' + w);
	l->p += n;
}

/*
 * v (below 65536) in decimal at p; returns the end: the ports, VLANs,
 * flags, small codes and an IPv4 address's bytes.
 */
static inline char *
tp_dec16(char *p, unsigned int v)
{
	if (v >= 1000) {
		if (v >= 10000) {
			*p++ = (char)('0' + v / 10000);
			v %= 10000;
		}
		memcpy(p, &tp_digit_pairs[v / 100 * 2], 2);
		memcpy(p + 2, &tp_digit_pairs[v % 100 * 2], 2);
		return p + 4;
	}
	if (v >= 100) {
		*p++ = (char)('0' + v / 100);
		v %= 100;
	} else if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	memcpy(p, &tp_digit_pairs[v * 2], 2);
	return p + 2;
}

/* The 4 bytes at a as a dotted quad at p; returns the end. */
static inline char *
tp_dotted(char *p, const uint8_t *a)
{
	unsigned int k;

	for (k = 0; k < 4; k++) {
		if (k > 0)
			*p++ = '.';
		p = tp_dec16(p, a[k]);
	}
	return p;
}

/*
 * An IPv6 address as glibc's inet_ntop() writes it, by hand: inet_ntop()
 * takes an sprintf() per group (some 220 ns an address here, a quarter
 * of a long capture's lines are IPv6). RFC 5952's form: lower-case hex
 * without leading zeros, the first of the longest runs of two or more
 * zero groups as "::"; and as glibc, after 96 zero bits or in
 * ::ffff:0:0/96, the last 32 bits dotted (tests/pipeline/record_line.c
 * compares the two).
 */
static inline void
tp_line_addr6(struct tp_line *l, const uint8_t *a)
{
	static const char hex[] = "0123456789abcdef";
	char s[INET6_ADDRSTRLEN], *p = s;
	int best = -1, blen = 0, cur = -1, clen = 0, i;
	unsigned int w[8];

	for (i = 0; i < 8; i++) {
		w[i] = (unsigned int)a[2 * i] << 8 | a[2 * i + 1];
		if (w[i] == 0) {
			if (cur < 0)
				cur = i;
			clen = cur == i ? 1 : clen + 1;
			continue;
		}
		if (cur >= 0 && clen > blen) {
			best = cur;
			blen = clen;
		}
		cur = -1;
	}
	if (cur >= 0 && clen > blen) {
		best = cur;
		blen = clen;
	}
	if (blen < 2)
		best = -1;
	for (i = 0; i < 8; i++) {
		if (best >= 0 && i >= best && i < best + blen) {
			if (i == best)
				*p++ = ':';
			continue;
		}
		if (i != 0)
			*p++ = ':';
		if (i == 6 && best == 0 &&
		    (blen == 6 || (blen == 5 && w[5] == 0xffff))) {
			p = tp_dotted(p, a + 12);
			break;
		}
		if (w[i] >= 0x1000)
			*p++ = hex[w[i] >> 12];
		if (w[i] >= 0x100)
			*p++ = hex[w[i] >> 8 & 15];
		if (w[i] >= 0x10)
			*p++ = hex[w[i] >> 4 & 15];
		*p++ = hex[w[i] & 15];
	}
	if (best >= 0 && best + blen == 8)
		*p++ = ':';
	tp_line_put(l, s, (size_t)(p - s));
}

static inline void
tp_line_addr(struct tp_line *l, const struct tp_flow_record *r,
	     const uint8_t *a)
{
	if (r->ipver != 4) {
		tp_line_addr6(l, a);
		return;
	}
	l->p = tp_dotted(l->p, a);
}

#define TP_LINE_LIT(l, s) tp_line_put(l, s, sizeof(s) - 1)
/* A number by its type: up to 16 bits the shorter way. */
#define TP_LINE_U(l, r, v, json) do {					\
	if (sizeof(v) <= 2)						\
		(l)->p = tp_dec16((l)->p, (unsigned int)(v));		\
	else								\
		tp_line_u64(l, v);					\
} while (0)
#define TP_LINE_A(l, r, v, json) do {					\
	if (json)							\
		TP_LINE_LIT(l, "\"");					\
	tp_line_addr(l, r, v);						\
	if (json)							\
		TP_LINE_LIT(l, "\"");					\
} while (0)
#define TP_LINE_S(l, r, v, json) do {					\
	const char *s_ = (v);						\
									\
	if (json)							\
		TP_LINE_LIT(l, "\"");					\
	tp_line_put(l, s_, strnlen(s_, TP_LINE_STR_MAX));		\
	if (json)							\
		TP_LINE_LIT(l, "\"");					\
} while (0)

/* A field's longest JSON form, ',"name":' included (CSV's is shorter). */
#define TP_LINE_MAX_U(v) TP_LINE_DIGITS(sizeof(v))
#define TP_LINE_MAX_A(v) (INET6_ADDRSTRLEN - 1 + 2)
#define TP_LINE_MAX_S(v) (TP_LINE_STR_MAX + 2)
#define TP_LINE_MAX_FIELD(name, kind, val)				\
	(sizeof(",\"" name "\":") - 1 + TP_LINE_MAX_ ## kind(val)) +

int
tp_record_line_format(char *out, size_t len, enum tp_log_format fmt,
		 const struct tp_flow_record *r)
{
	struct tp_line l = { .p = out };

	/* The longest line, '}' and '\n' included, fits. */
	RTE_BUILD_BUG_ON(TP_RECORD_FIELDS(TP_LINE_MAX_FIELD) 2 >
			 TP_LOG_LINE_MAX);
	if (len < TP_LOG_LINE_MAX)
		return -1;

	if (fmt == TP_LOG_CSV) {
#define TP_CSV_FIELD(name, kind, val) do {				\
	if (l.p != out)							\
		TP_LINE_LIT(&l, ",");					\
	TP_LINE_ ## kind(&l, r, val, false);				\
} while (0);
		TP_RECORD_FIELDS(TP_CSV_FIELD)
#undef TP_CSV_FIELD
	} else {
/* Each field as ,"name":value; the line's first ',' becomes its '{'. */
#define TP_JSON_FIELD(name, kind, val) do {				\
	TP_LINE_LIT(&l, ",\"" name "\":");				\
	TP_LINE_ ## kind(&l, r, val, true);				\
} while (0);
		TP_RECORD_FIELDS(TP_JSON_FIELD)
#undef TP_JSON_FIELD
		TP_LINE_LIT(&l, "}");
		out[0] = '{';
	}
	TP_LINE_LIT(&l, "\n");
	return (int)(l.p - out);
}
