/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Table test of the IPFIX record encoder (examples/timer_pipeline/
 * tp_ipfix_enc.c): flows with extreme values are encoded into messages,
 * the messages are decoded again with libfixbuf's collecting side (its own
 * internal template, written here independently of the encoder's), and
 * every field, every template and the options record are compared.
 * Pure C: no DPDK.
 */

#include <errno.h>
#include <stdlib.h>

#include <fixbuf/public.h>

#include "records/tp_ipfix_enc.h"
#include "tp_test.h"

/* What the decoder reads: its own layout, not the encoder's. */
struct dec_rec {
	uint64_t start_ms, end_ms;
	uint64_t octets, packets, rev_octets, rev_packets;
	uint8_t src6[16], dst6[16];
	uint32_t src4, dst4, in_if;
	uint16_t sport, dport, vlan, icmp4, icmp6;
	uint8_t proto, flags, rev_flags, reason;
	uint8_t pad[4];
};

static fbInfoElementSpec_t dec_spec[] = {
	{ "flowStartMilliseconds", 8, 0 }, { "flowEndMilliseconds", 8, 0 },
	{ "octetDeltaCount", 8, 0 }, { "packetDeltaCount", 8, 0 },
	{ "reverseOctetDeltaCount", 8, 0 },
	{ "reversePacketDeltaCount", 8, 0 },
	{ "sourceIPv6Address", 16, 0 }, { "destinationIPv6Address", 16, 0 },
	{ "sourceIPv4Address", 4, 0 }, { "destinationIPv4Address", 4, 0 },
	{ "ingressInterface", 4, 0 }, { "sourceTransportPort", 2, 0 },
	{ "destinationTransportPort", 2, 0 }, { "vlanId", 2, 0 },
	{ "icmpTypeCodeIPv4", 2, 0 }, { "icmpTypeCodeIPv6", 2, 0 },
	{ "protocolIdentifier", 1, 0 }, { "tcpControlBits", 1, 0 },
	{ "reverseTcpControlBits", 1, 0 }, { "flowEndReason", 1, 0 },
	{ "paddingOctets", 4, 0 }, FB_IESPEC_NULL
};

struct dec_stats {
	uint64_t observed, ignored, not_sent, init_ms;
	uint32_t pid;
	uint16_t idle, active;
};

static fbInfoElementSpec_t dec_stats_spec[] = {
	{ "observedFlowTotalCount", 8, 0 },
	{ "ignoredPacketTotalCount", 8, 0 },
	{ "notSentFlowTotalCount", 8, 0 },
	{ "systemInitTimeMilliseconds", 8, 0 },
	{ "exportingProcessId", 4, 0 }, { "flowIdleTimeout", 2, 0 },
	{ "flowActiveTimeout", 2, 0 }, FB_IESPEC_NULL
};

#define DIM(a) (sizeof(a) / sizeof((a)[0]))
#define DEC_TID 0xfe00
#define DEC_TID_STATS 0xfe01
#define MAX_RECS 4096
#define STREAM_MAX (4 * 1024 * 1024)

struct decoded {
	struct dec_rec rec[MAX_RECS];
	uint16_t tid[MAX_RECS];
	unsigned int n;
	struct dec_stats stats[8];
	unsigned int nstats;
	unsigned int scope;		/* options template scope count */
	uint32_t elems[TP_IPFIX_NB_VAR]; /* elements per data template */
	bool has[TP_IPFIX_NB_VAR][5];	/* v4, v6, ports, vlan, icmp */
};

static struct decoded dec;
static uint8_t stream[STREAM_MAX];
static size_t stream_len;

static const uint64_t U64MAX = UINT64_MAX;

/* The table: the extremes the issue names, and ordinary flows. */
static const struct tp_ipfix_flow flows[] = {
	/* zero-length flow: no packets, start == end */
	{ .src = { 10, 0, 0, 1 }, .dst = { 10, 0, 0, 2 }, .start_ms = 0,
	  .end_ms = 0, .ipver = 4, .proto = 17, .sport = 0, .dport = 0,
	  .end_reason = 1 },
	/* counters at 2^64-1, times at their limit */
	{ .src = { 255, 255, 255, 255 }, .dst = { 0, 0, 0, 0 },
	  .start_ms = UINT64_MAX - 1, .end_ms = UINT64_MAX,
	  .octets = { UINT64_MAX, UINT64_MAX },
	  .packets = { UINT64_MAX, UINT64_MAX }, .ipver = 4, .proto = 6,
	  .sport = 65535, .dport = 65535, .tcp_flags = { 0xff, 0xff },
	  .in_if = UINT32_MAX, .end_reason = 2 },
	/* IPv6 whose upper layer followed extension headers (TCP) */
	{ .src = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
	  .dst = { 0xfe, 0x80, [14] = 0xab, [15] = 0xcd },
	  .start_ms = 1700000000000ull, .end_ms = 1700000000999ull,
	  .octets = { 1514, 60 }, .packets = { 1, 1 }, .ipver = 6,
	  .proto = 6, .sport = 443, .dport = 50000,
	  .tcp_flags = { 0x12, 0x10 }, .end_reason = 3 },
	/* VLAN 4095 */
	{ .src = { 192, 168, 1, 1 }, .dst = { 192, 168, 1, 2 },
	  .start_ms = 1, .end_ms = 2, .octets = { 64, 0 },
	  .packets = { 1, 0 }, .ipver = 4, .proto = 17, .sport = 53,
	  .dport = 53, .vlan = 4095, .in_if = 3, .end_reason = 4 },
	/* ICMPv4 echo, extreme type/code */
	{ .src = { 1, 2, 3, 4 }, .dst = { 5, 6, 7, 8 }, .start_ms = 10,
	  .end_ms = 20, .octets = { 98, 98 }, .packets = { 1, 1 },
	  .ipver = 4, .proto = 1, .icmp_tc = 0xffff, .end_reason = 5 },
	/* ICMPv6 in VLAN 1 */
	{ .src = { 0xfd, [15] = 1 }, .dst = { 0xfd, [15] = 2 },
	  .start_ms = 5, .end_ms = 5, .octets = { 104, 0 },
	  .packets = { 1, 0 }, .ipver = 6, .proto = 58, .vlan = 1,
	  .icmp_tc = 0x8000, .end_reason = 1 },
	/* IPv6, other protocol (no ports) */
	{ .src = { [15] = 1 }, .dst = { [15] = 1 }, .ipver = 6, .proto = 47,
	  .octets = { 1, 2 }, .packets = { 3, 4 }, .end_reason = 4 },
};

static const struct tp_ipfix_exstats xstats = {
	.process_id = 4242, .observed = UINT64_MAX, .ignored = 7,
	.not_sent = 3, .init_ms = 1700000000123ull, .idle_s = 65535,
	.active_s = 600,
};

/* --ipfix-flows uni for encode(), and the table it encodes. */
static bool enc_uni;
static const struct tp_ipfix_flow *enc_flows = flows;
static unsigned int enc_nflows = DIM(flows);
/* Data records of the messages taken by encode(). */
static unsigned int enc_records;

/*
 * Append the open message to the stream; returns the flows it completes
 * (-1: over the MTU, or a message with no record at all after data).
 */
static int
take(struct tp_ipfix_enc *enc, uint16_t mtu)
{
	const uint8_t *m;
	unsigned int nflows, nrec;
	size_t len;

	m = tp_ipfix_enc_take(enc, &len, &nflows, &nrec);
	if (len == 0 || len > mtu || stream_len + len > STREAM_MAX)
		return len == 0 ? 0 : -1;
	memcpy(stream + stream_len, m, len);
	stream_len += len;
	enc_records += nrec;
	return (int)nflows;
}

/* Encode n copies of the table (cycled), templates first; 'sent' counts. */
static int
encode(uint16_t mtu, unsigned int n, unsigned int *sent,
       unsigned int *messages)
{
	struct tp_ipfix_enc *enc;
	unsigned int i = 0, done;
	char err[128];
	int r, ret = TP_TEST_FAIL;

	stream_len = 0;
	enc_records = 0;
	*sent = 0;
	*messages = 0;
	enc = tp_ipfix_enc_create(77, mtu, enc_uni, err, sizeof(err));
	TP_ASSERT(enc != NULL, "%s", err);
	if (tp_ipfix_enc_templates(enc, &xstats) < 0 || take(enc, mtu) != 0)
		goto out;
	(*messages)++;
	for (i = 0; i < n; i++) {
		const struct tp_ipfix_flow *f = &enc_flows[i % enc_nflows];

		done = 0;
		r = tp_ipfix_enc_add(enc, f, &done);
		if (r == -EAGAIN) {
			/* A flow split over two messages completes in the
			 * second: the first may complete none.
			 */
			r = take(enc, mtu);
			if (r < 0 || (r == 0 && done == 0))
				goto out;
			*sent += r;
			(*messages)++;
			r = tp_ipfix_enc_add(enc, f, &done);
		}
		if (r != 0)
			goto out;
	}
	r = take(enc, mtu);
	if (r < 0)
		goto out;
	*sent += r;
	*messages += r > 0;
	/* Final options record (as at exit). */
	if (tp_ipfix_enc_templates(enc, &xstats) < 0 || take(enc, mtu) != 0)
		goto out;
	(*messages)++;
	ret = TP_TEST_OK;
out:
	if (ret != TP_TEST_OK)
		printf("    encoding failed at record %u: %s\n", i,
		       tp_ipfix_enc_error(enc));
	tp_ipfix_enc_free(enc);
	return ret;
}

static void
dec_template(fbTemplate_t *t, uint16_t tid)
{
	unsigned int v = tid - TP_IPFIX_TID_DATA;
	static const char *const names[5][2] = {
		{ "sourceIPv4Address", "destinationIPv4Address" },
		{ "sourceIPv6Address", "destinationIPv6Address" },
		{ "sourceTransportPort", "destinationTransportPort" },
		{ "vlanId", "vlanId" },
		{ "icmpTypeCodeIPv4", "icmpTypeCodeIPv6" },
	};
	unsigned int k;

	if (tid == TP_IPFIX_TID_STATS) {
		dec.scope = fbTemplateGetOptionsScope(t);
		return;
	}
	if (v >= TP_IPFIX_NB_VAR)
		return;
	dec.elems[v] = fbTemplateCountElements(t);
	for (k = 0; k < 5; k++)
		dec.has[v][k] = fbTemplateContainsElementByName(t,
				&(fbInfoElementSpec_t){ (char *)names[k][0],
							0, 0 }) ||
			fbTemplateContainsElementByName(t,
				&(fbInfoElementSpec_t){ (char *)names[k][1],
							0, 0 });
}

/* One internal (collection) template of the decoder. */
static int
dec_add_tmpl(fbInfoModel_t *model, fbSession_t *s, fbInfoElementSpec_t *spec,
	     uint16_t tid, GError **err)
{
	fbTemplate_t *t = fbTemplateAlloc(model);

	if (!fbTemplateAppendSpecArray(t, spec, 0, err) ||
	    !fbSessionAddTemplate(s, TRUE, tid, t, err))
		return -1;
	return 0;
}

/* Decode the whole stream with libfixbuf's collector. */
static int
decode(void)
{
	fbInfoModel_t *model = fbInfoModelAlloc();
	fbSession_t *s = fbSessionAlloc(model);
	fbTemplate_t *t;
	GError *err = NULL;
	fBuf_t *fb;
	uint16_t tid;
	size_t len;
	int ret = TP_TEST_OK;

	memset(&dec, 0, sizeof(dec));
	if (dec_add_tmpl(model, s, dec_spec, DEC_TID, &err) < 0 ||
	    dec_add_tmpl(model, s, dec_stats_spec, DEC_TID_STATS, &err) < 0)
		goto fail;
	fb = fBufAllocForCollection(s, NULL);
	fBufSetBuffer(fb, stream, stream_len);
	for (;;) {
		t = fBufNextCollectionTemplate(fb, &tid, &err);
		if (t == NULL)
			break;
		dec_template(t, tid);
		if (tid == TP_IPFIX_TID_STATS) {
			len = sizeof(dec.stats[0]);
			fBufSetInternalTemplate(fb, DEC_TID_STATS, NULL);
			if (!fBufNext(fb, (uint8_t *)&dec.stats[dec.nstats % 8],
				      &len, &err))
				break;
			dec.nstats++;
			continue;
		}
		len = sizeof(dec.rec[0]);
		fBufSetInternalTemplate(fb, DEC_TID, NULL);
		if (dec.n >= MAX_RECS ||
		    !fBufNext(fb, (uint8_t *)&dec.rec[dec.n], &len, &err))
			break;
		dec.tid[dec.n++] = tid;
	}
	if (err != NULL && !g_error_matches(err, FB_ERROR_DOMAIN,
					    FB_ERROR_BUFSZ) &&
	    !g_error_matches(err, FB_ERROR_DOMAIN, FB_ERROR_EOF)) {
		printf("    decode error: %s\n", err->message);
		ret = TP_TEST_FAIL;
	}
	g_clear_error(&err);
	/* Every external template the stream defined, used or not. */
	for (tid = TP_IPFIX_TID_DATA; tid <= TP_IPFIX_TID_STATS; tid++) {
		t = fbSessionGetTemplate(s, FALSE, tid, NULL);
		if (t != NULL)
			dec_template(t, tid);
	}
	fBufFree(fb);
	fbInfoModelFree(model);
	return ret;
fail:
	printf("    decoder setup: %s\n", err != NULL ? err->message : "?");
	g_clear_error(&err);
	fbSessionFree(s);
	fbInfoModelFree(model);
	return TP_TEST_FAIL;
}

static uint32_t
v4(const uint8_t *a)
{
	return (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 |
		(uint32_t)a[2] << 8 | a[3];
}

/* One decoded record against the flow it came from. */
static int
check_rec(const struct dec_rec *d, uint16_t tid, const struct tp_ipfix_flow *f,
	  unsigned int i)
{
	bool icmp = (f->ipver == 4 && f->proto == 1) ||
		(f->ipver == 6 && f->proto == 58);

	TP_ASSERT_EQ(tid, TP_IPFIX_TID_DATA + tp_ipfix_enc_variant(f), "rec %u", i);
	TP_ASSERT(d->start_ms == f->start_ms && d->end_ms == f->end_ms,
		  "rec %u times", i);
	TP_ASSERT(d->octets == f->octets[0] && d->packets == f->packets[0],
		  "rec %u forward counters", i);
	TP_ASSERT(d->rev_octets == f->octets[1] &&
		  d->rev_packets == f->packets[1], "rec %u reverse", i);
	if (f->ipver == 4) {
		TP_ASSERT_EQ(d->src4, v4(f->src), "rec %u", i);
		TP_ASSERT_EQ(d->dst4, v4(f->dst), "rec %u", i);
	} else {
		TP_ASSERT(memcmp(d->src6, f->src, 16) == 0 &&
			  memcmp(d->dst6, f->dst, 16) == 0, "rec %u v6", i);
	}
	TP_ASSERT_EQ(d->in_if, f->in_if, "rec %u", i);
	TP_ASSERT_EQ(d->sport, icmp ? 0 : f->sport, "rec %u", i);
	TP_ASSERT_EQ(d->dport, icmp ? 0 : f->dport, "rec %u", i);
	TP_ASSERT_EQ(d->vlan, f->vlan, "rec %u", i);
	TP_ASSERT_EQ(f->ipver == 4 ? d->icmp4 : d->icmp6,
		     icmp ? f->icmp_tc : 0, "rec %u", i);
	TP_ASSERT_EQ(d->proto, f->proto, "rec %u", i);
	TP_ASSERT_EQ(d->flags, f->tcp_flags[0], "rec %u", i);
	TP_ASSERT_EQ(d->rev_flags, f->tcp_flags[1], "rec %u", i);
	TP_ASSERT_EQ(d->reason, f->end_reason, "rec %u", i);
	return TP_TEST_OK;
}

/*
 * Encode the first n flows in messages of up to 1400 bytes and decode
 * them; *sent: the records the messages reported.
 */
static int
roundtrip(unsigned int n, unsigned int *sent)
{
	unsigned int msgs;

	TP_ASSERT(encode(1400, n, sent, &msgs) == TP_TEST_OK, "encode");
	TP_ASSERT(decode() == TP_TEST_OK, "decode");
	return TP_TEST_OK;
}

static int
test_extremes_roundtrip(void)
{
	unsigned int i, sent, n = DIM(flows);

	TP_ASSERT(roundtrip(n, &sent) == TP_TEST_OK, "round trip");
	TP_ASSERT_EQ(sent, n, "records reported in messages");
	TP_ASSERT_EQ(dec.n, n, "records decoded");
	for (i = 0; i < n; i++)
		if (check_rec(&dec.rec[i], dec.tid[i], &flows[i], i) !=
		    TP_TEST_OK)
			return TP_TEST_FAIL;
	return TP_TEST_OK;
}

/* Each variant's template holds exactly its elements. */
static int
test_templates(void)
{
	unsigned int v, sent;

	TP_ASSERT(roundtrip(1, &sent) == TP_TEST_OK, "round trip");
	for (v = 0; v < TP_IPFIX_NB_VAR; v++) {
		bool v6 = v & TP_IPFIX_VAR_V6, vlan = v & TP_IPFIX_VAR_VLAN;
		bool icmp = v & TP_IPFIX_VAR_ICMP;

		/* 6 counters/times, 2 addresses, ingressInterface, proto,
		 * 2 tcpControlBits, flowEndReason = 13; ports 2 or ICMP 1;
		 * vlanId 1.
		 */
		TP_ASSERT_EQ(dec.elems[v], 13 + (icmp ? 1 : 2) + vlan,
			     "variant %u", v);
		TP_ASSERT(dec.has[v][0] == !v6 && dec.has[v][1] == v6 &&
			  dec.has[v][2] == !icmp && dec.has[v][3] == vlan &&
			  dec.has[v][4] == icmp, "variant %u elements", v);
	}
	TP_ASSERT_EQ(dec.scope, 1, "options template scope");
	return TP_TEST_OK;
}

/* Options record at start and at the end, values intact. */
static int
test_options_record(void)
{
	unsigned int i, sent;

	TP_ASSERT(roundtrip(3, &sent) == TP_TEST_OK, "round trip");
	TP_ASSERT_EQ(dec.nstats, 2, "options records");
	for (i = 0; i < dec.nstats; i++) {
		const struct dec_stats *d = &dec.stats[i];

		TP_ASSERT(d->observed == U64MAX, "observed");
		TP_ASSERT(d->ignored == xstats.ignored &&
			  d->not_sent == xstats.not_sent &&
			  d->init_ms == xstats.init_ms &&
			  d->pid == xstats.process_id &&
			  d->idle == xstats.idle_s &&
			  d->active == xstats.active_s, "options values");
	}
	return TP_TEST_OK;
}

/* Many records: messages fill up (-EAGAIN), none over the MTU, none lost. */
static int
test_full_messages(void)
{
	unsigned int i, sent, msgs, n = 3000;

	TP_ASSERT(encode(TP_IPFIX_MTU_MIN, n, &sent, &msgs) == TP_TEST_OK, "encode");
	TP_ASSERT_EQ(sent, n, "records in messages");
	TP_ASSERT(msgs > n / 20, "%u messages for %u records of MTU 1024",
		  msgs, n);
	TP_ASSERT(decode() == TP_TEST_OK, "decode");
	TP_ASSERT_EQ(dec.n, n, "records decoded");
	for (i = 0; i < n; i++)
		if (check_rec(&dec.rec[i], dec.tid[i],
			      &flows[i % DIM(flows)], i) != TP_TEST_OK)
			return TP_TEST_FAIL;
	return TP_TEST_OK;
}

/* Nothing pending: no message. */
static int
test_empty_take(void)
{
	struct tp_ipfix_enc *enc;
	unsigned int nrec = 99, nflows = 99, done = 0;
	char err[128];
	size_t len = 99;

	enc = tp_ipfix_enc_create(0, 1400, false, err, sizeof(err));
	TP_ASSERT(enc != NULL, "%s", err);
	tp_ipfix_enc_take(enc, &len, &nflows, &nrec);
	TP_ASSERT_EQ(len, 0, "bytes of an empty take");
	TP_ASSERT_EQ(nrec, 0, "records of an empty take");
	/* After a real message, an empty take must not hand it out again. */
	TP_ASSERT_EQ(tp_ipfix_enc_add(enc, &flows[2], &done), 0, "add");
	tp_ipfix_enc_take(enc, &len, &nflows, &nrec);
	TP_ASSERT(len > 0 && nrec == 1 && nflows == 1,
		  "len %zu records %u flows %u", len, nrec, nflows);
	tp_ipfix_enc_take(enc, &len, &nflows, &nrec);
	tp_ipfix_enc_free(enc);
	TP_ASSERT_EQ(len, 0, "bytes of a take after a take");
	TP_ASSERT_EQ(nrec, 0, "records of a take after a take");
	return TP_TEST_OK;
}

/* The table with each direction's own times, for --ipfix-flows uni. */
static struct tp_ipfix_flow uflows[DIM(flows)];

static void
uni_setup(void)
{
	unsigned int i;

	for (i = 0; i < DIM(flows); i++) {
		uflows[i] = flows[i];
		uflows[i].dir_start_ms[0] = flows[i].start_ms;
		uflows[i].dir_end_ms[0] = flows[i].end_ms / 2 + 1;
		uflows[i].dir_start_ms[1] = flows[i].start_ms / 2 + 7;
		uflows[i].dir_end_ms[1] = flows[i].end_ms;
	}
	enc_uni = true;
	enc_flows = uflows;
	enc_nflows = DIM(uflows);
}

static void
uni_teardown(void)
{
	enc_uni = false;
	enc_flows = flows;
	enc_nflows = DIM(flows);
}

/*
 * A uni record against direction d of its flow: that direction's
 * counters, flags and times, the reply's 5-tuple swapped, no reverse
 * values, ICMP type/code with the initiator's direction only.
 */
static int
check_uni_rec(const struct dec_rec *d, uint16_t tid,
	      const struct tp_ipfix_flow *f, unsigned int dir, unsigned int i)
{
	bool icmp = (f->ipver == 4 && f->proto == 1) ||
		(f->ipver == 6 && f->proto == 58);
	const uint8_t *src = dir ? f->dst : f->src, *dst = dir ? f->src : f->dst;

	TP_ASSERT_EQ(tid, TP_IPFIX_TID_DATA + tp_ipfix_enc_variant(f), "rec %u", i);
	TP_ASSERT(d->start_ms == f->dir_start_ms[dir] &&
		  d->end_ms == f->dir_end_ms[dir], "rec %u dir %u times", i,
		  dir);
	TP_ASSERT(d->octets == f->octets[dir] &&
		  d->packets == f->packets[dir], "rec %u dir %u counters", i,
		  dir);
	TP_ASSERT(d->rev_octets == 0 && d->rev_packets == 0 &&
		  d->rev_flags == 0, "rec %u: reverse values in a uni record",
		  i);
	if (f->ipver == 4) {
		TP_ASSERT_EQ(d->src4, v4(src), "rec %u", i);
		TP_ASSERT_EQ(d->dst4, v4(dst), "rec %u", i);
	} else {
		TP_ASSERT(memcmp(d->src6, src, 16) == 0 &&
			  memcmp(d->dst6, dst, 16) == 0, "rec %u v6", i);
	}
	TP_ASSERT_EQ(d->sport, icmp ? 0 : dir ? f->dport : f->sport,
		     "rec %u", i);
	TP_ASSERT_EQ(d->dport, icmp ? 0 : dir ? f->sport : f->dport,
		     "rec %u", i);
	TP_ASSERT_EQ(f->ipver == 4 ? d->icmp4 : d->icmp6,
		     icmp && dir == 0 ? f->icmp_tc : 0, "rec %u", i);
	TP_ASSERT_EQ(d->vlan, f->vlan, "rec %u", i);
	TP_ASSERT_EQ(d->in_if, f->in_if, "rec %u", i);
	TP_ASSERT_EQ(d->proto, f->proto, "rec %u", i);
	TP_ASSERT_EQ(d->flags, f->tcp_flags[dir], "rec %u", i);
	TP_ASSERT_EQ(d->reason, f->end_reason, "rec %u", i);
	return TP_TEST_OK;
}

/* Encode n flows (cycled) uni at this MTU, decode, check every record. */
static int
uni_roundtrip(uint16_t mtu, unsigned int n)
{
	unsigned int i, d, k = 0, sent, msgs, want = 0;
	int ret = TP_TEST_FAIL;

	uni_setup();
	if (encode(mtu, n, &sent, &msgs) != TP_TEST_OK || decode() !=
	    TP_TEST_OK) {
		printf("    encode or decode failed\n");
		goto out;
	}
	for (i = 0; i < n; i++)
		for (d = 0; d < 2; d++)
			want += uflows[i % DIM(uflows)].packets[d] > 0;
	if (sent != n || enc_records != want || dec.n != want) {
		printf("    flows %u of %u, records %u and decoded %u of %u\n",
		       sent, n, enc_records, dec.n, want);
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct tp_ipfix_flow *f = &uflows[i % DIM(uflows)];

		for (d = 0; d < 2; d++) {
			if (f->packets[d] == 0)
				continue;
			if (check_uni_rec(&dec.rec[k], dec.tid[k], f, d, k) !=
			    TP_TEST_OK)
				goto out;
			k++;
		}
	}
	ret = TP_TEST_OK;
out:
	uni_teardown();
	return ret;
}

/* --ipfix-flows uni: a record per direction with packets, whole. */
static int
test_uni_records(void)
{
	return uni_roundtrip(1400, DIM(flows));
}

/* uni templates carry no RFC 5103 reverse element. */
static int
test_uni_templates(void)
{
	unsigned int v;

	TP_ASSERT(uni_roundtrip(1400, DIM(flows)) == TP_TEST_OK,
		  "round trip");
	for (v = 0; v < TP_IPFIX_NB_VAR; v++) {
		bool vlan = v & TP_IPFIX_VAR_VLAN, icmp = v & TP_IPFIX_VAR_ICMP;

		/* The biflow's 13 less the reverse octets, packets, flags. */
		TP_ASSERT_EQ(dec.elems[v], 10 + (icmp ? 1 : 2) + vlan,
			     "uni variant %u", v);
	}
	return TP_TEST_OK;
}

/* uni flows across full messages: a flow may straddle two, none lost. */
static int
test_uni_full_messages(void)
{
	return uni_roundtrip(TP_IPFIX_MTU_MIN, 2801);
}

static const struct tp_test_case ipfix_cases[] = {
	{ "extremes_roundtrip", test_extremes_roundtrip },
	{ "templates", test_templates },
	{ "options_record", test_options_record },
	{ "full_messages", test_full_messages },
	{ "uni_records", test_uni_records },
	{ "uni_templates", test_uni_templates },
	{ "uni_full_messages", test_uni_full_messages },
	{ "empty_take", test_empty_take },
};

TP_TEST_MAIN("ipfix", ipfix_cases)
