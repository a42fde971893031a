/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * IPFIX encoder on libfixbuf: one internal template holding every element,
 * eight external templates (IPv4/IPv6 x VLAN or not x ports or ICMP
 * type/code; with the reverse elements of RFC 5103 for biflows, without
 * them for one record per direction) that libfixbuf transcodes to, and an
 * options template with the exporter's statistics. Messages go into a memory buffer
 * (fbExporterAllocBuffer, manual mode) so the caller owns the transport:
 * it knows what each message holds and what was sent.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fixbuf/public.h>

#include "records/tp_ipfix_enc.h"

/* Spec flags: an element is in a template when its flags are all set. */
#define F_V4 0x01u
#define F_V6 0x02u
#define F_VLAN 0x04u
#define F_ICMP 0x08u
#define F_PORTS 0x10u
#define F_INT 0x20u	/* internal template only (padding) */
#define F_BI 0x40u	/* RFC 5103 reverse elements: biflow templates */
#define F_ALL (F_V4 | F_V6 | F_VLAN | F_ICMP | F_PORTS | F_INT | F_BI)

#define TP_TID_INT_DATA 0xff00
#define TP_TID_INT_STATS 0xff01

/* The internal record: spec order, every field at its natural alignment. */
struct tp_ipfix_rec {
	uint64_t start_ms;
	uint64_t end_ms;
	uint64_t octets;
	uint64_t packets;
	uint64_t rev_octets;
	uint64_t rev_packets;
	uint8_t src6[16];
	uint8_t dst6[16];
	uint32_t src4;		/* host order, as libfixbuf wants it */
	uint32_t dst4;
	uint32_t in_if;
	uint16_t sport;
	uint16_t dport;
	uint16_t vlan;
	uint16_t icmp4;
	uint16_t icmp6;
	uint8_t proto;
	uint8_t flags;
	uint8_t rev_flags;
	uint8_t reason;
	uint8_t pad[4];
};

/* The internal template reads the record as packed bytes in spec order:
 * no field may be preceded by padding (the spec below sums to 110 bytes).
 */
_Static_assert(offsetof(struct tp_ipfix_rec, src6) == 48 &&
	       offsetof(struct tp_ipfix_rec, src4) == 80 &&
	       offsetof(struct tp_ipfix_rec, sport) == 92 &&
	       offsetof(struct tp_ipfix_rec, proto) == 102 &&
	       offsetof(struct tp_ipfix_rec, pad) + 4 == 110,
	       "struct tp_ipfix_rec must follow tp_data_spec byte for byte");

/* Element lengths are given: internal templates may not default them. */
static fbInfoElementSpec_t tp_data_spec[] = {
	{ "flowStartMilliseconds", 8, 0 },
	{ "flowEndMilliseconds", 8, 0 },
	{ "octetDeltaCount", 8, 0 },
	{ "packetDeltaCount", 8, 0 },
	{ "reverseOctetDeltaCount", 8, F_BI },
	{ "reversePacketDeltaCount", 8, F_BI },
	{ "sourceIPv6Address", 16, F_V6 },
	{ "destinationIPv6Address", 16, F_V6 },
	{ "sourceIPv4Address", 4, F_V4 },
	{ "destinationIPv4Address", 4, F_V4 },
	{ "ingressInterface", 4, 0 },
	{ "sourceTransportPort", 2, F_PORTS },
	{ "destinationTransportPort", 2, F_PORTS },
	{ "vlanId", 2, F_VLAN },
	{ "icmpTypeCodeIPv4", 2, F_V4 | F_ICMP },
	{ "icmpTypeCodeIPv6", 2, F_V6 | F_ICMP },
	{ "protocolIdentifier", 1, 0 },
	{ "tcpControlBits", 1, 0 },	/* reduced length: flags fit a byte */
	{ "reverseTcpControlBits", 1, F_BI },
	{ "flowEndReason", 1, 0 },
	{ "paddingOctets", 4, F_INT },
	FB_IESPEC_NULL
};

struct tp_ipfix_stats_rec {
	uint64_t observed;
	uint64_t ignored;
	uint64_t not_sent;
	uint64_t init_ms;
	uint32_t process_id;
	uint16_t idle_s;
	uint16_t active_s;
};

_Static_assert(offsetof(struct tp_ipfix_stats_rec, process_id) == 32 &&
	       offsetof(struct tp_ipfix_stats_rec, active_s) + 2 ==
	       sizeof(struct tp_ipfix_stats_rec),
	       "struct tp_ipfix_stats_rec must follow tp_stats_int_spec");

static fbInfoElementSpec_t tp_stats_spec[] = {
	{ "exportingProcessId", 4, 0 },		/* the scope */
	{ "observedFlowTotalCount", 8, 0 },
	{ "ignoredPacketTotalCount", 8, 0 },
	{ "notSentFlowTotalCount", 8, 0 },
	{ "systemInitTimeMilliseconds", 8, 0 },
	{ "flowIdleTimeout", 2, 0 },
	{ "flowActiveTimeout", 2, 0 },
	FB_IESPEC_NULL
};

/* Internal stats spec: same elements, in the struct's order. */
static fbInfoElementSpec_t tp_stats_int_spec[] = {
	{ "observedFlowTotalCount", 8, 0 },
	{ "ignoredPacketTotalCount", 8, 0 },
	{ "notSentFlowTotalCount", 8, 0 },
	{ "systemInitTimeMilliseconds", 8, 0 },
	{ "exportingProcessId", 4, 0 },
	{ "flowIdleTimeout", 2, 0 },
	{ "flowActiveTimeout", 2, 0 },
	FB_IESPEC_NULL
};

struct tp_ipfix_enc {
	fbInfoModel_t *model;
	fbSession_t *session;
	fBuf_t *fbuf;		/* owns session and exporter */
	fbExporter_t *exporter;
	int cur_tid;		/* export template set on fbuf, -1 none */
	bool uni;		/* a record per direction, no reverse IEs */
	unsigned int pending;	/* flows whose last record is in it */
	unsigned int records;	/* flow data records in the open message */
	bool open;		/* something was appended since the take */
	bool data_set;		/* a flow record since the take or the
				 * templates: end of message means full
				 */
	uint8_t *buf;		/* where fBufEmit copies a message */
	uint16_t mtu;
	char err[160];		/* last libfixbuf error */
};

/* Keep a libfixbuf error for tp_ipfix_enc_error(). */
static void
tp_enc_err(struct tp_ipfix_enc *enc, GError **gerr)
{
	snprintf(enc->err, sizeof(enc->err), "%s", *gerr != NULL ?
		 (*gerr)->message : "libfixbuf error");
	g_clear_error(gerr);
}

const char *
tp_ipfix_enc_error(const struct tp_ipfix_enc *enc)
{
	return enc->err;
}

static int
tp_enc_fail(char *err, size_t errlen, const char *what, GError *gerr)
{
	snprintf(err, errlen, "%s: %s", what, gerr != NULL ? gerr->message :
		 "libfixbuf error");
	if (gerr != NULL)
		g_clear_error(&gerr);
	return -EINVAL;
}

/* Add a template built from 'spec' with 'flags' to the session. */
static int
tp_enc_add_tmpl(struct tp_ipfix_enc *enc, fbInfoElementSpec_t *spec,
		uint32_t flags, gboolean internal, uint16_t tid,
		uint16_t scope, char *err, size_t errlen)
{
	fbTemplate_t *t = fbTemplateAlloc(enc->model);
	GError *gerr = NULL;

	if (!fbTemplateAppendSpecArray(t, spec, flags, &gerr)) {
		fbTemplateFreeUnused(t);
		return tp_enc_fail(err, errlen, "template", gerr);
	}
	if (scope != 0)
		fbTemplateSetOptionsScope(t, scope);
	if (fbSessionAddTemplate(enc->session, internal, tid, t, &gerr) == 0)
		return tp_enc_fail(err, errlen, "session template", gerr);
	return 0;
}

static uint32_t
tp_enc_var_flags(unsigned int var, bool uni)
{
	uint32_t fl = (var & TP_IPFIX_VAR_V6) ? F_V6 : F_V4;

	if (!uni)
		fl |= F_BI;
	if (var & TP_IPFIX_VAR_VLAN)
		fl |= F_VLAN;
	fl |= (var & TP_IPFIX_VAR_ICMP) ? F_ICMP : F_PORTS;
	return fl;
}

static int
tp_enc_templates_setup(struct tp_ipfix_enc *enc, char *err, size_t errlen)
{
	unsigned int v;

	if (tp_enc_add_tmpl(enc, tp_data_spec, F_ALL, TRUE, TP_TID_INT_DATA,
			    0, err, errlen) < 0 ||
	    tp_enc_add_tmpl(enc, tp_stats_int_spec, 0, TRUE, TP_TID_INT_STATS,
			    0, err, errlen) < 0 ||
	    tp_enc_add_tmpl(enc, tp_stats_spec, 0, FALSE, TP_IPFIX_TID_STATS,
			    1, err, errlen) < 0)
		return -EINVAL;
	for (v = 0; v < TP_IPFIX_NB_VAR; v++)
		if (tp_enc_add_tmpl(enc, tp_data_spec,
				    tp_enc_var_flags(v, enc->uni),
				    FALSE, TP_IPFIX_TID_DATA + v, 0, err,
				    errlen) < 0)
			return -EINVAL;
	return 0;
}

struct tp_ipfix_enc *
tp_ipfix_enc_create(uint32_t domain, uint16_t mtu, bool uni, char *err,
		    size_t errlen)
{
	struct tp_ipfix_enc *enc;

	if (mtu < TP_IPFIX_MTU_MIN) {
		snprintf(err, errlen, "message size %u below %u", mtu,
			 TP_IPFIX_MTU_MIN);
		return NULL;
	}
	enc = calloc(1, sizeof(*enc));

	if (enc == NULL || (enc->buf = malloc(mtu)) == NULL) {
		snprintf(err, errlen, "out of memory");
		free(enc);
		return NULL;
	}
	enc->mtu = mtu;
	enc->uni = uni;
	enc->cur_tid = -1;
	enc->model = fbInfoModelAlloc();
	enc->session = fbSessionAlloc(enc->model);
	fbSessionSetDomain(enc->session, domain);
	if (tp_enc_templates_setup(enc, err, errlen) < 0) {
		fbSessionFree(enc->session);
		enc->session = NULL;
		tp_ipfix_enc_free(enc);
		return NULL;
	}
	enc->exporter = fbExporterAllocBuffer(enc->buf, mtu);
	enc->fbuf = fBufAllocForExport(enc->session, enc->exporter);
	fBufSetAutomaticMode(enc->fbuf, FALSE);
	return enc;
}

void
tp_ipfix_enc_free(struct tp_ipfix_enc *enc)
{
	if (enc == NULL)
		return;
	if (enc->fbuf != NULL)
		fBufFree(enc->fbuf);	/* session and exporter too */
	else if (enc->session != NULL)
		fbSessionFree(enc->session);
	if (enc->model != NULL)
		fbInfoModelFree(enc->model);
	free(enc->buf);
	free(enc);
}

unsigned int
tp_ipfix_enc_variant(const struct tp_ipfix_flow *f)
{
	unsigned int v = f->ipver == 6 ? TP_IPFIX_VAR_V6 : 0;

	if (f->vlan != 0)
		v |= TP_IPFIX_VAR_VLAN;
	if ((f->ipver == 4 && f->proto == 1) ||
	    (f->ipver == 6 && f->proto == 58))
		v |= TP_IPFIX_VAR_ICMP;
	return v;
}

static uint32_t
tp_enc_v4(const uint8_t *a)
{
	return (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 |
		(uint32_t)a[2] << 8 | a[3];
}

/*
 * The internal record of a flow: the biflow (dir < 0), or direction dir
 * alone (0: the initiator's; 1: the reply, its 5-tuple swapped), with that
 * direction's own counters, flags and times. ICMP type/code is the first
 * packet's, so it stays with the initiator's direction.
 */
static void
tp_enc_fill(struct tp_ipfix_rec *r, const struct tp_ipfix_flow *f, int dir)
{
	const unsigned int d = dir > 0 ? 1 : 0;
	const uint8_t *src = d ? f->dst : f->src, *dst = d ? f->src : f->dst;

	memset(r, 0, sizeof(*r));
	r->start_ms = dir < 0 ? f->start_ms : f->dir_start_ms[d];
	r->end_ms = dir < 0 ? f->end_ms : f->dir_end_ms[d];
	r->octets = f->octets[d];
	r->packets = f->packets[d];
	if (dir < 0) {
		r->rev_octets = f->octets[1];
		r->rev_packets = f->packets[1];
		r->rev_flags = f->tcp_flags[1];
	}
	if (f->ipver == 6) {
		memcpy(r->src6, src, 16);
		memcpy(r->dst6, dst, 16);
	} else {
		r->src4 = tp_enc_v4(src);
		r->dst4 = tp_enc_v4(dst);
	}
	r->in_if = f->in_if;
	r->sport = d ? f->dport : f->sport;
	r->dport = d ? f->sport : f->dport;
	r->vlan = f->vlan;
	r->icmp4 = d ? 0 : f->icmp_tc;
	r->icmp6 = d ? 0 : f->icmp_tc;
	r->proto = f->proto;
	r->flags = f->tcp_flags[d];
	r->reason = f->end_reason;
}

/* Point the buffer at an internal/external template pair. */
static int
tp_enc_use(struct tp_ipfix_enc *enc, uint16_t int_tid, uint16_t ext_tid)
{
	GError *gerr = NULL;

	if (enc->cur_tid == ext_tid)
		return 0;
	if (!fBufSetInternalTemplate(enc->fbuf, int_tid, &gerr) ||
	    !fBufSetExportTemplate(enc->fbuf, ext_tid, &gerr)) {
		tp_enc_err(enc, &gerr);
		enc->cur_tid = -1;
		return -EINVAL;
	}
	enc->cur_tid = ext_tid;
	return 0;
}

/*
 * Append, telling a full message (-EAGAIN) from an error (-EINVAL). In
 * manual mode libfixbuf answers the first data record after a template
 * set with an end-of-message error that only switches the set type; the
 * retry goes into the same message (valid IPFIX), or reports it full.
 * Once a flow record is in the message (enc->data_set), that answer means
 * full: no retry. Each refusal costs a GError, whose message libfixbuf
 * formats with vasprintf(), and a message of 1,400 bytes holds 20 biflow
 * records: the retry took 3 to 15 ns of each record's encoding.
 */
static int
tp_enc_append(struct tp_ipfix_enc *enc, void *rec, size_t len)
{
	GError *gerr = NULL;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		if (fBufAppend(enc->fbuf, rec, len, &gerr)) {
			enc->open = true;
			return 0;
		}
		if (!g_error_matches(gerr, FB_ERROR_DOMAIN, FB_ERROR_EOM)) {
			tp_enc_err(enc, &gerr);
			return -EINVAL;
		}
		g_clear_error(&gerr);
		if (enc->data_set)
			break;
	}
	return -EAGAIN;
}

int
tp_ipfix_enc_add(struct tp_ipfix_enc *enc, const struct tp_ipfix_flow *f,
		 unsigned int *done)
{
	struct tp_ipfix_rec r;
	int dirs[2], n = 0, ret;

	/* The flow's records: the biflow, or each direction with packets. */
	if (!enc->uni)
		dirs[n++] = -1;
	else {
		if (f->packets[0] > 0)
			dirs[n++] = 0;
		if (f->packets[1] > 0)
			dirs[n++] = 1;
	}
	if (tp_enc_use(enc, TP_TID_INT_DATA,
		       TP_IPFIX_TID_DATA + tp_ipfix_enc_variant(f)) < 0)
		return -EINVAL;
	for (; (int)*done < n; (*done)++) {
		tp_enc_fill(&r, f, dirs[*done]);
		ret = tp_enc_append(enc, &r, sizeof(r));
		if (ret != 0)
			return ret;
		enc->data_set = true;
		enc->records++;
	}
	enc->pending++;
	return 0;
}

int
tp_ipfix_enc_templates(struct tp_ipfix_enc *enc,
		       const struct tp_ipfix_exstats *st)
{
	struct tp_ipfix_stats_rec r;
	GError *gerr = NULL;
	int ret;

	/* After data, libfixbuf refuses the first template with an
	 * end-of-message error that only switches it to a template set
	 * (manual mode leaves the retry to us); a second refusal is real.
	 */
	enc->data_set = false;
	if (!fbSessionExportTemplates(enc->session, &gerr)) {
		if (!g_error_matches(gerr, FB_ERROR_DOMAIN, FB_ERROR_EOM)) {
			tp_enc_err(enc, &gerr);
			return -EINVAL;
		}
		g_clear_error(&gerr);
		if (!fbSessionExportTemplates(enc->session, &gerr)) {
			tp_enc_err(enc, &gerr);
			return -EINVAL;
		}
	}
	memset(&r, 0, sizeof(r));
	r.observed = st->observed;
	r.ignored = st->ignored;
	r.not_sent = st->not_sent;
	r.init_ms = st->init_ms;
	r.process_id = st->process_id;
	r.idle_s = st->idle_s;
	r.active_s = st->active_s;
	enc->open = true;
	/* libfixbuf closes the open (template) set only when the export
	 * template changes: if the last record sent was an options record,
	 * setting TP_IPFIX_TID_STATS again would leave the set open and the
	 * record would land inside the template set (found by
	 * tests/fuzz/fuzz_ipfix.c: templates sent twice with no flow
	 * between, as an idle exporter's refresh does). So change it twice.
	 */
	enc->cur_tid = -1;
	if (tp_enc_use(enc, TP_TID_INT_DATA, TP_IPFIX_TID_DATA) < 0 ||
	    tp_enc_use(enc, TP_TID_INT_STATS, TP_IPFIX_TID_STATS) < 0)
		return -EINVAL;
	ret = tp_enc_append(enc, &r, sizeof(r));
	return ret == 0 ? 0 : -EINVAL;
}

unsigned int
tp_ipfix_enc_pending(const struct tp_ipfix_enc *enc)
{
	return enc->pending;
}

const uint8_t *
tp_ipfix_enc_take(struct tp_ipfix_enc *enc, size_t *len,
		  unsigned int *flows, unsigned int *records)
{
	GError *gerr = NULL;

	*flows = 0;
	*records = 0;
	*len = 0;
	/* fBufEmit of nothing leaves the previous message in the buffer
	 * and its length in the exporter: never hand that out twice. A
	 * flow without a record (uni, no packets) waits for a message.
	 */
	if (!enc->open)
		return enc->buf;
	*flows = enc->pending;
	*records = enc->records;
	enc->pending = 0;
	enc->records = 0;
	enc->open = false;
	enc->data_set = false;
	if (!fBufEmit(enc->fbuf, &gerr)) {
		tp_enc_err(enc, &gerr);
		return enc->buf;
	}
	*len = fbExporterGetMsgLen(enc->exporter);
	return enc->buf;
}
