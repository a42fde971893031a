/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * libFuzzer target: the IPFIX encoder (examples/timer_pipeline/
 * tp_ipfix_enc.c, on libfixbuf) on any sequence of flows and exporter
 * statistics, each message decoded back here without libfixbuf.
 *
 * Input: byte 0 picks the message size (tp_fuzz_mtus[], each with its
 * own observation domain), with bit 6 the mode (set: --ipfix-flows uni,
 * a record per direction with packets), and with its top bit set a fresh
 * encoder for that size and mode; then the templates and the exporter statistics are sent (as
 * the exporter does first), from the next TP_FUZZ_STATS_LEN bytes; then
 * operations, each one byte and its operand:
 *   op % 4 == 0: add one flow (TP_FUZZ_FLOW_LEN bytes, tp_fuzz_flow())
 *   op % 4 == 1: take the message, then send templates and statistics
 *                (TP_FUZZ_STATS_LEN bytes, tp_fuzz_stats())
 *   op % 4 == 2: take the message
 *   op % 4 == 3: add the next flow 1 + (count byte) times
 * A short operand is padded with zeros. A full message (-EAGAIN) is taken
 * and the flow added again, as the exporter does. Each input ends with
 * the message taken, so the next one starts on an empty message; an
 * encoder (creating one costs milliseconds) and what the decoder knows
 * of its session (templates, sequence number) are kept per message size
 * until an input asks for a fresh one.
 *
 * Every message taken must be valid IPFIX and say exactly what was given:
 * version 10, its length in its header and at most the message size, the
 * domain, the sequence number counting the data records sent before it;
 * sets that exactly fill the message; templates that describe fixed-length
 * records; data sets holding whole records of a known template, the data
 * template matching the flow's variant; and every field of every record
 * equal to the flow (or statistics) given, in the order given (uni: each
 * direction with packets as a flow of its own, the reply's ends swapped,
 * and no reverse element in any template). The records and the flows the
 * encoder reports per message must be those in it (a flow counts in the
 * message with its last record; one without records in the next one).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/tp_ipfix_enc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TP_FUZZ_FLOW_LEN 97
#define TP_FUZZ_STATS_LEN 44
#define TP_FUZZ_PEND_MAX 8192	/* flows in one message, at most */
#define TP_FUZZ_NB_TMPL 16
#define TP_FUZZ_NB_FIELDS 32
#define PEN_REV 29305u

static const uint16_t tp_fuzz_mtus[] = { TP_IPFIX_MTU_MIN, 1400, 1500,
					 9000, 65535 };
static const uint32_t tp_fuzz_domains[] = { 0, 1, 4242, 0x80000000u,
					    UINT32_MAX };
#define TP_FUZZ_NB_MTU (sizeof(tp_fuzz_mtus) / sizeof(tp_fuzz_mtus[0]))

struct tp_fuzz_tmpl {
	uint16_t id;
	uint16_t nfields;
	uint16_t ie[TP_FUZZ_NB_FIELDS];
	uint16_t len[TP_FUZZ_NB_FIELDS];
	bool rev[TP_FUZZ_NB_FIELDS];
	bool scoped;
	uint32_t reclen;
};

/* One encoder's session as the decoder sees it. */
struct tp_fuzz_sess {
	struct tp_ipfix_enc *enc;
	uint16_t mtu;
	uint32_t domain;
	uint32_t seq;			/* data records sent before */
	struct tp_fuzz_tmpl tmpl[TP_FUZZ_NB_TMPL];
	unsigned int ntmpl;
	bool uni;			/* a record per direction */
	/* What the open message must hold, in order: records (as flows)
	 * and stats; and the flows it completes.
	 */
	struct tp_ipfix_flow flows[TP_FUZZ_PEND_MAX];
	unsigned int nflows;
	unsigned int ndone;
	struct tp_ipfix_exstats stats[4];
	unsigned int nstats;
};

static struct tp_fuzz_sess sessions[2 * TP_FUZZ_NB_MTU];
static struct tp_fuzz_sess *cur;
#define sess (*cur)

#define FAIL(...) do { \
		fprintf(stderr, "fuzz: " __VA_ARGS__); \
		fprintf(stderr, "\n"); \
		abort(); \
	} while (0)

static uint64_t
tp_fuzz_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

static uint64_t
tp_fuzz_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* A flow from TP_FUZZ_FLOW_LEN little-endian bytes. */
static void
tp_fuzz_flow(const uint8_t *p, struct tp_ipfix_flow *f)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->src, p, 16);
	memcpy(f->dst, p + 16, 16);
	f->start_ms = tp_fuzz_le(p + 32, 8);
	f->end_ms = tp_fuzz_le(p + 40, 8);
	f->octets[0] = tp_fuzz_le(p + 48, 8);
	f->octets[1] = tp_fuzz_le(p + 56, 8);
	f->packets[0] = tp_fuzz_le(p + 64, 8);
	f->packets[1] = tp_fuzz_le(p + 72, 8);
	f->in_if = (uint32_t)tp_fuzz_le(p + 80, 4);
	f->sport = (uint16_t)tp_fuzz_le(p + 84, 2);
	f->dport = (uint16_t)tp_fuzz_le(p + 86, 2);
	f->vlan = (uint16_t)tp_fuzz_le(p + 88, 2);
	f->icmp_tc = (uint16_t)tp_fuzz_le(p + 90, 2);
	f->ipver = p[92];
	f->proto = p[93];
	f->tcp_flags[0] = p[94];
	f->tcp_flags[1] = p[95];
	f->end_reason = p[96];
	/* Each direction's times (uni): different, to catch a mix-up. */
	f->dir_start_ms[0] = f->start_ms;
	f->dir_end_ms[0] = f->end_ms;
	f->dir_start_ms[1] = f->end_ms;
	f->dir_end_ms[1] = f->start_ms;
}

/* Direction d of a flow as the uni record must say it: a flow of its own. */
static void
tp_fuzz_dir(const struct tp_ipfix_flow *f, unsigned int d,
	    struct tp_ipfix_flow *o)
{
	*o = *f;
	if (d == 1) {
		memcpy(o->src, f->dst, sizeof(o->src));
		memcpy(o->dst, f->src, sizeof(o->dst));
		o->sport = f->dport;
		o->dport = f->sport;
		o->icmp_tc = 0;		/* the first packet's: direction 0 */
	}
	o->start_ms = f->dir_start_ms[d];
	o->end_ms = f->dir_end_ms[d];
	o->octets[0] = f->octets[d];
	o->packets[0] = f->packets[d];
	o->tcp_flags[0] = f->tcp_flags[d];
	o->octets[1] = 0;
	o->packets[1] = 0;
	o->tcp_flags[1] = 0;
}

static void
tp_fuzz_stats(const uint8_t *p, struct tp_ipfix_exstats *st)
{
	memset(st, 0, sizeof(*st));
	st->process_id = (uint32_t)tp_fuzz_le(p, 4);
	st->observed = tp_fuzz_le(p + 4, 8);
	st->ignored = tp_fuzz_le(p + 12, 8);
	st->not_sent = tp_fuzz_le(p + 20, 8);
	st->init_ms = tp_fuzz_le(p + 28, 8);
	st->idle_s = (uint16_t)tp_fuzz_le(p + 36, 2);
	st->active_s = (uint16_t)tp_fuzz_le(p + 38, 2);
}

/* What field (ie, reverse) of a flow record must hold; false: unknown. */
static bool
tp_fuzz_flow_field(const struct tp_ipfix_flow *f, uint16_t ie, bool rev,
		   unsigned int len, const uint8_t *got)
{
	uint64_t v;

	if (ie == 27 || ie == 28) {	/* IPv6 addresses */
		if (rev || len != 16 || f->ipver != 6)
			return false;
		return memcmp(got, ie == 27 ? f->src : f->dst, 16) == 0;
	}
	if (ie == 8 || ie == 12) {	/* IPv4 addresses */
		if (rev || len != 4 || f->ipver == 6)
			return false;
		return memcmp(got, ie == 8 ? f->src : f->dst, 4) == 0;
	}
	v = tp_fuzz_be(got, len);
	switch (ie) {
	case 152: return !rev && len == 8 && v == f->start_ms;
	case 153: return !rev && len == 8 && v == f->end_ms;
	case 1: return len == 8 && v == f->octets[rev];
	case 2: return len == 8 && v == f->packets[rev];
	case 10: return !rev && len == 4 && v == f->in_if;
	case 7: return !rev && len == 2 && v == f->sport;
	case 11: return !rev && len == 2 && v == f->dport;
	case 58: return !rev && len == 2 && v == f->vlan && f->vlan != 0;
	case 32: return !rev && len == 2 && v == f->icmp_tc && f->ipver != 6;
	case 139: return !rev && len == 2 && v == f->icmp_tc && f->ipver == 6;
	case 4: return !rev && len == 1 && v == f->proto;
	case 6: return len == 1 && v == f->tcp_flags[rev];
	case 136: return !rev && len == 1 && v == f->end_reason;
	default: return false;
	}
}

static bool
tp_fuzz_stats_field(const struct tp_ipfix_exstats *st, uint16_t ie,
		    bool rev, unsigned int len, const uint8_t *got)
{
	uint64_t v = tp_fuzz_be(got, len);

	if (rev)
		return false;
	switch (ie) {
	case 144: return len == 4 && v == st->process_id;
	case 163: return len == 8 && v == st->observed;
	case 164: return len == 8 && v == st->ignored;
	case 166: return len == 8 && v == st->not_sent;
	case 160: return len == 8 && v == st->init_ms;
	case 37: return len == 2 && v == st->idle_s;
	case 36: return len == 2 && v == st->active_s;
	default: return false;
	}
}

static struct tp_fuzz_tmpl *
tp_fuzz_tmpl_find(uint16_t id)
{
	unsigned int i;

	for (i = 0; i < sess.ntmpl; i++)
		if (sess.tmpl[i].id == id)
			return &sess.tmpl[i];
	return NULL;
}

/* A (options) template set: every record a fixed-length template. */
static void
tp_fuzz_tmpl_set(const uint8_t *p, size_t len, bool options)
{
	struct tp_fuzz_tmpl t, *old;
	size_t off = 0, hdr = options ? 6 : 4;
	unsigned int i, scope;

	while (off < len) {
		if (len - off < hdr)
			FAIL("template set: %zu stray bytes", len - off);
		memset(&t, 0, sizeof(t));
		t.id = (uint16_t)tp_fuzz_be(p + off, 2);
		t.nfields = (uint16_t)tp_fuzz_be(p + off + 2, 2);
		scope = options ? (unsigned int)tp_fuzz_be(p + off + 4, 2) : 0;
		off += hdr;
		if (t.id < 256 || t.nfields == 0 ||
		    t.nfields > TP_FUZZ_NB_FIELDS ||
		    (options && (scope == 0 || scope > t.nfields)))
			FAIL("template %u: %u fields, scope %u", t.id,
			     t.nfields, scope);
		t.scoped = options;
		for (i = 0; i < t.nfields; i++) {
			uint16_t ie;

			if (len - off < 4)
				FAIL("template %u cut short", t.id);
			ie = (uint16_t)tp_fuzz_be(p + off, 2);
			t.len[i] = (uint16_t)tp_fuzz_be(p + off + 2, 2);
			off += 4;
			if (ie & 0x8000) {
				if (len - off < 4 ||
				    tp_fuzz_be(p + off, 4) != PEN_REV)
					FAIL("template %u: enterprise field "
					     "not a reverse one", t.id);
				off += 4;
				t.rev[i] = true;
			}
			t.ie[i] = ie & 0x7fff;
			if (t.len[i] == 0 || t.len[i] == 65535)
				FAIL("template %u: field length %u", t.id,
				     t.len[i]);
			t.reclen += t.len[i];
		}
		old = tp_fuzz_tmpl_find(t.id);
		if (old == NULL) {
			if (sess.ntmpl == TP_FUZZ_NB_TMPL)
				FAIL("more than %u templates", TP_FUZZ_NB_TMPL);
			old = &sess.tmpl[sess.ntmpl++];
		}
		*old = t;
	}
}

/* Decode one message; 'nrec' is the flow count the encoder reported. */
static void
tp_fuzz_verify(const uint8_t *m, size_t len, unsigned int nflows,
	       unsigned int nrec)
{
	unsigned int fi = 0, si = 0, i, r, nrecs, data_recs = 0;
	const struct tp_fuzz_tmpl *t;
	size_t off, slen;
	uint16_t sid;

	if (nrec != sess.nflows)
		FAIL("message said to hold %u records, %u were added", nrec,
		     sess.nflows);
	if (len == 0) {
		if (sess.nflows != 0 || sess.nstats != 0 || nflows != 0)
			FAIL("empty message, %u records pending, %u flows",
			     sess.nflows, nflows);
		return;
	}
	if (nflows != sess.ndone)
		FAIL("message said to complete %u flows, %u did", nflows,
		     sess.ndone);
	if (len < 16 || len > sess.mtu)
		FAIL("message of %zu bytes, size %u", len, sess.mtu);
	if (tp_fuzz_be(m, 2) != 10 || tp_fuzz_be(m + 2, 2) != len ||
	    tp_fuzz_be(m + 12, 4) != sess.domain)
		FAIL("header: version %u, length %u of %zu, domain %u",
		     (unsigned int)tp_fuzz_be(m, 2),
		     (unsigned int)tp_fuzz_be(m + 2, 2), len,
		     (unsigned int)tp_fuzz_be(m + 12, 4));
	if (tp_fuzz_be(m + 8, 4) != sess.seq)
		FAIL("sequence number %u, %u data records sent before",
		     (unsigned int)tp_fuzz_be(m + 8, 4), sess.seq);
	for (off = 16; off < len; off += slen) {
		if (len - off < 4)
			FAIL("set header cut short at %zu of %zu", off, len);
		sid = (uint16_t)tp_fuzz_be(m + off, 2);
		slen = tp_fuzz_be(m + off + 2, 2);
		if (slen < 4 || slen > len - off)
			FAIL("set %u of length %zu at %zu of %zu", sid, slen,
			     off, len);
		if (sid == 2 || sid == 3) {
			tp_fuzz_tmpl_set(m + off + 4, slen - 4, sid == 3);
			continue;
		}
		t = tp_fuzz_tmpl_find(sid);
		if (sid < 256 || t == NULL)
			FAIL("data set %u with no template", sid);
		if ((slen - 4) % t->reclen != 0)
			FAIL("data set %u: %zu bytes, records of %u", sid,
			     slen - 4, t->reclen);
		nrecs = (unsigned int)((slen - 4) / t->reclen);
		for (r = 0; r < nrecs; r++) {
			const uint8_t *rec = m + off + 4 + r * t->reclen;
			const struct tp_ipfix_flow *f = NULL;
			const struct tp_ipfix_exstats *st = NULL;
			bool ok;

			if (t->scoped) {
				if (si == sess.nstats)
					FAIL("more statistics than sent");
				st = &sess.stats[si++];
			} else {
				if (fi == sess.nflows)
					FAIL("more flows than added");
				f = &sess.flows[fi++];
				if (sid != TP_IPFIX_TID_DATA +
				    tp_ipfix_enc_variant(f))
					FAIL("flow %u in template %u, its "
					     "variant is %u", fi - 1, sid,
					     tp_ipfix_enc_variant(f));
			}
			for (i = 0; i < t->nfields; i++) {
				if (sess.uni && t->rev[i])
					FAIL("template %u: a reverse element "
					     "with --ipfix-flows uni", sid);
				ok = f != NULL ?
					tp_fuzz_flow_field(f, t->ie[i],
							   t->rev[i],
							   t->len[i], rec) :
					tp_fuzz_stats_field(st, t->ie[i],
							    t->rev[i],
							    t->len[i], rec);
				if (!ok)
					FAIL("%s %u: field %s%u (%u bytes) "
					     "differs", f ? "flow" : "stats",
					     (f ? fi : si) - 1,
					     t->rev[i] ? "reverse " : "",
					     t->ie[i], t->len[i]);
				rec += t->len[i];
			}
			data_recs++;
		}
	}
	if (fi != sess.nflows || si != sess.nstats)
		FAIL("message holds %u of %u flows and %u of %u statistics",
		     fi, sess.nflows, si, sess.nstats);
	sess.seq += data_recs;
	sess.nflows = 0;
	sess.ndone = 0;
	sess.nstats = 0;
}

static void
tp_fuzz_take(void)
{
	const uint8_t *m;
	unsigned int nflows, nrec;
	size_t len;

	m = tp_ipfix_enc_take(sess.enc, &len, &nflows, &nrec);
	tp_fuzz_verify(m, len, nflows, nrec);
}

/* The records of f from 'from' to 'to' (uni: its directions with packets,
 * in order; else the biflow), as the open message must hold them.
 */
static void
tp_fuzz_expect(const struct tp_ipfix_flow *f, unsigned int from,
	       unsigned int to)
{
	unsigned int dirs[2], n = 0, i;

	if (!sess.uni) {
		dirs[n++] = 2;
	} else {
		if (f->packets[0] > 0)
			dirs[n++] = 0;
		if (f->packets[1] > 0)
			dirs[n++] = 1;
	}
	if (to > n)
		FAIL("%u records appended for a flow of %u", to, n);
	for (i = from; i < to; i++) {
		if (sess.nflows == TP_FUZZ_PEND_MAX)
			FAIL("more than %u records in one message",
			     TP_FUZZ_PEND_MAX);
		if (dirs[i] == 2)
			sess.flows[sess.nflows++] = *f;
		else
			tp_fuzz_dir(f, dirs[i], &sess.flows[sess.nflows++]);
	}
}

static void
tp_fuzz_add(const struct tp_ipfix_flow *f)
{
	unsigned int done = 0, was;
	int ret = tp_ipfix_enc_add(sess.enc, f, &done);

	if (ret == -EAGAIN) {
		tp_fuzz_expect(f, 0, done);	/* in the full message */
		was = done;
		tp_fuzz_take();
		ret = tp_ipfix_enc_add(sess.enc, f, &done);
		tp_fuzz_expect(f, was, done);
	} else {
		tp_fuzz_expect(f, 0, done);
	}
	if (ret != 0)
		FAIL("add: %d (%s)", ret, tp_ipfix_enc_error(sess.enc));
	sess.ndone++;
	if (tp_ipfix_enc_pending(sess.enc) != sess.ndone)
		FAIL("%u flows pending, %u completed",
		     tp_ipfix_enc_pending(sess.enc), sess.ndone);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t operand[TP_FUZZ_FLOW_LEN];
	struct tp_ipfix_flow f;
	struct tp_ipfix_exstats st;
	const uint8_t *p = data, *end = data + size;
	char err[256];
	unsigned int op, n, k;
	size_t want;

	if (size < 1)
		return 0;
	cur = &sessions[p[0] % TP_FUZZ_NB_MTU +
			((p[0] & 0x40) ? TP_FUZZ_NB_MTU : 0)];
	if ((p[0] & 0x80) && sess.enc != NULL) {
		tp_ipfix_enc_free(sess.enc);
		memset(&sess, 0, sizeof(sess));
	}
	if (sess.enc == NULL) {
		sess.mtu = tp_fuzz_mtus[p[0] % TP_FUZZ_NB_MTU];
		sess.domain = tp_fuzz_domains[p[0] % TP_FUZZ_NB_MTU];
		sess.uni = (p[0] & 0x40) != 0;
		sess.enc = tp_ipfix_enc_create(sess.domain, sess.mtu,
					       sess.uni, err, sizeof(err));
		if (sess.enc == NULL)
			FAIL("create: %s", err);
	}
	p++;
	/* Templates first, as the exporter sends them. */
	memset(operand, 0, sizeof(operand));
	k = (unsigned int)(TP_FUZZ_STATS_LEN < (size_t)(end - p) ?
			   TP_FUZZ_STATS_LEN : (size_t)(end - p));
	memcpy(operand, p, k);
	p += k;
	tp_fuzz_stats(operand, &st);
	if (tp_ipfix_enc_templates(sess.enc, &st) != 0)
		FAIL("templates: %s", tp_ipfix_enc_error(sess.enc));
	sess.stats[sess.nstats++] = st;
	while (p < end) {
		op = *p++ % 4;
		n = 1;
		if (op == 3 && p < end)
			n = 1u + *p++;
		want = op == 1 ? TP_FUZZ_STATS_LEN :
			op == 2 ? 0 : TP_FUZZ_FLOW_LEN;
		memset(operand, 0, sizeof(operand));
		k = (unsigned int)(want < (size_t)(end - p) ? want : (size_t)(end - p));
		memcpy(operand, p, k);
		p += k;
		switch (op) {
		case 0:
		case 3:
			tp_fuzz_flow(operand, &f);
			while (n-- > 0)
				tp_fuzz_add(&f);
			break;
		case 1:
			tp_fuzz_take();
			tp_fuzz_stats(operand, &st);
			if (tp_ipfix_enc_templates(sess.enc, &st) != 0)
				FAIL("templates: %s",
				     tp_ipfix_enc_error(sess.enc));
			sess.stats[sess.nstats++] = st;
			break;
		case 2:
			tp_fuzz_take();
			break;
		}
	}
	tp_fuzz_take();
	return 0;
}
