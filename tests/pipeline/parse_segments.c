/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The packet parser (examples/timer_pipeline/datapath/tp_parse.h) on segmented
 * mbufs, without EAL: built by tests/meson.build, run by
 * tests/pipeline/captures.sh.
 *
 *     parse_segments CAPTURE.pcap
 *
 * 1. Every frame of the capture is parsed whole, then split into two
 *    segments at every offset of its first 160 bytes, and into 1-byte
 *    segments: the class, the key, the direction and the TCP flags must
 *    not change. Each segment is its own exact-size heap block, so a
 *    sanitizer build sees any read past a segment.
 *    A capture of another link type (LINUX_SLL, RAW, NULL...) goes through
 *    tp_parse_to_ether() first, as on the RX lcore; its splits start at
 *    the end of the link-layer header (net_pcap's first segment holds 2048
 *    bytes), and a first segment shorter than that header must give
 *    TP_PKT_NOT_ETHER, never a wrong parse.
 * 2. Chains whose lengths do not add up (pkt_len above or below the sum of
 *    the segments, nb_segs above or below the chain, a chain that loops)
 *    are TP_PKT_BAD_CHAIN, and so is a single segment whose data_len is
 *    not its pkt_len.
 * 3. The 40-byte flow key (tp_flow.h) on hand-built frames: IPv4 is
 *    stored IPv4-mapped and reads back as IPv4 with its own addresses; an
 *    IPv6 packet with one IPv4-mapped address is an IPv6 flow whose key
 *    differs from the IPv4 flow of the same addresses; one with both is
 *    malformed; VLAN ids and the protocol share one word without mixing.
 *
 * Prints one "[ PASS ]" or "[ FAIL ]" line per check and exits 0 iff all
 * passed.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "datapath/tp_parse.h"

#define MAX_FRAME 65535
#define MAX_SEGS 9100
/* Headroom of the first segment: room for a synthetic Ethernet header. */
#define HEADROOM RTE_ETHER_HDR_LEN

static struct rte_mbuf segs[MAX_SEGS];
static int failures;
static int linktype = TP_DLT_EN10MB;

static void
check(const char *name, int ok, const char *detail)
{
	printf("[ %s ] parse_segments.%s%s%s\n", ok ? "PASS" : "FAIL", name,
	       ok ? "" : ": ", ok ? "" : detail);
	if (!ok)
		failures++;
}

/* Free the heap blocks of a chain built by chain(). */
static void
unchain(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(segs[i].buf_addr);
}

/* Split len bytes into segments of the given sizes (the last takes the
 * rest); returns the number of segments.
 */
static unsigned int
chain(const uint8_t *data, uint32_t len, const uint32_t *sizes,
      unsigned int nsizes)
{
	uint32_t off = 0, n;
	unsigned int i;

	for (i = 0; off < len || i == 0; i++) {
		n = i + 1 < nsizes ? sizes[i] : len - off;
		n = n > len - off ? len - off : n;
		uint32_t hr = i == 0 ? HEADROOM : 0;

		memset(&segs[i], 0, sizeof(segs[i]));
		segs[i].buf_addr = malloc(hr + n != 0 ? hr + n : 1);
		if (segs[i].buf_addr == NULL)
			abort();
		memcpy((uint8_t *)segs[i].buf_addr + hr, data + off, n);
		segs[i].buf_len = (uint16_t)(hr + n);
		segs[i].data_off = (uint16_t)hr;
		segs[i].data_len = (uint16_t)n;
		if (i > 0)
			segs[i - 1].next = &segs[i];
		off += n;
	}
	segs[0].pkt_len = len;
	segs[0].nb_segs = (uint16_t)i;
	return i;
}

struct result {
	enum tp_pkt_class c;
	struct tp_parsed p;
};

static int
same(const struct result *a, const struct result *b)
{
	if (a->c != b->c)
		return 0;
	if (a->c != TP_PKT_FLOW)
		return 1;
	return memcmp(&a->p.key, &b->p.key, sizeof(a->p.key)) == 0 &&
		a->p.lo_is_src == b->p.lo_is_src &&
		a->p.tcp_flags == b->p.tcp_flags;
}

/* Parse a chain as the RX lcore does for the capture's link type. */
static enum tp_pkt_class
parse(struct rte_mbuf *m, struct tp_parsed *p)
{
	static const struct rte_ether_addr mac = {{ 2, 0, 0, 0, 0, 1 }};
	enum tp_pkt_class c;

	memset(p, 0, sizeof(*p));
	if (linktype != TP_DLT_EN10MB) {
		c = tp_parse_to_ether(m, linktype, &mac, &mac);
		if (c != TP_PKT_FLOW)
			return c;
	}
	return tp_parse(m, m->pkt_len, p);
}

/* A frame held whole: its wire length is its pkt_len. */
static enum tp_pkt_class
parse_whole(const struct rte_mbuf *m, struct tp_parsed *p)
{
	return tp_parse(m, m->pkt_len, p);
}

static int
split_checks(const uint8_t *f, uint32_t len, unsigned int *nflow)
{
	const uint32_t hlen = linktype == TP_DLT_EN10MB ? 0 :
		tp_link_hdr_len(linktype);
	struct result whole, r;
	uint32_t sizes[2], k;
	unsigned int n;

	n = chain(f, len, NULL, 0);
	whole.c = parse(&segs[0], &whole.p);
	unchain(n);
	if (whole.c == TP_PKT_FLOW)
		(*nflow)++;
	for (k = hlen > 1 ? hlen : 1; k < len && k <= 160; k++) {
		sizes[0] = k;
		n = chain(f, len, sizes, 2);
		r.c = parse(&segs[0], &r.p);
		unchain(n);
		if (!same(&whole, &r))
			return 0;
	}
	if (hlen > 1) {
		/* The link header across segments: dropped, not misread. */
		sizes[0] = hlen - 1;
		n = chain(f, len, sizes, 2);
		r.c = parse(&segs[0], &r.p);
		unchain(n);
		return len <= hlen || r.c == TP_PKT_NOT_ETHER;
	}
	if (len <= MAX_SEGS) {
		uint32_t *ones = malloc(sizeof(*ones) * len);

		for (k = 0; k < len; k++)
			ones[k] = 1;
		n = chain(f, len, ones, len);
		free(ones);
		r.c = parse(&segs[0], &r.p);
		unchain(n);
		if (!same(&whole, &r))
			return 0;
	}
	return 1;
}

/* A frame that parses as a flow, for the broken-chain checks. */
static const uint8_t *flow_frame;
static uint32_t flow_len;

static void
bad_chain_checks(void)
{
	const uint32_t sizes[3] = { 20, 20, 0 };
	struct tp_parsed p;
	unsigned int n;
	char what[64];

	n = chain(flow_frame, flow_len, sizes, 3);	/* 3 segments */
	check("good_chain_is_flow", parse_whole(&segs[0], &p) == TP_PKT_FLOW,
	      "a consistent 3-segment chain is not a flow");
	segs[0].pkt_len = flow_len + 1;
	check("pkt_len_above_chain", parse_whole(&segs[0], &p) ==
	      TP_PKT_BAD_CHAIN, "pkt_len beyond the chain accepted");
	segs[0].pkt_len = flow_len - 1;
	check("pkt_len_below_chain", parse_whole(&segs[0], &p) ==
	      TP_PKT_BAD_CHAIN, "pkt_len short of the chain accepted");
	segs[0].pkt_len = flow_len;
	segs[0].nb_segs = 4;
	check("nb_segs_above_chain", parse_whole(&segs[0], &p) ==
	      TP_PKT_BAD_CHAIN, "nb_segs beyond the chain accepted");
	segs[0].nb_segs = 2;
	check("nb_segs_below_chain", parse_whole(&segs[0], &p) ==
	      TP_PKT_BAD_CHAIN, "a chain longer than nb_segs accepted");
	segs[0].nb_segs = 3;
	segs[2].next = &segs[0];
	check("looping_chain", parse_whole(&segs[0], &p) == TP_PKT_BAD_CHAIN,
	      "a looping chain accepted");
	segs[2].next = NULL;
	unchain(n);

	n = chain(flow_frame, flow_len, NULL, 0);
	segs[0].data_len = (uint16_t)(flow_len - 1);
	snprintf(what, sizeof(what), "data_len %u, pkt_len %u accepted",
		 flow_len - 1, flow_len);
	check("single_segment_short", parse_whole(&segs[0], &p) ==
	      TP_PKT_BAD_CHAIN, what);
	unchain(n);
}

/* An Ethernet frame (one 802.1Q tag when vlan != 0) with an IPv4 or IPv6
 * header and an 8-byte UDP header, ports 1000 -> 2000.
 */
static uint32_t
udp_frame(uint8_t *fr, int v6, const uint8_t *src, const uint8_t *dst,
	  uint16_t vlan)
{
	uint32_t l2 = vlan != 0 ? 18 : 14, n;
	uint8_t *ip = fr + l2, *udp;

	memset(fr, 0, 128);
	fr[0] = 2;
	fr[6] = 2;
	if (vlan != 0) {
		fr[12] = 0x81;
		fr[14] = (uint8_t)(vlan >> 8);
		fr[15] = (uint8_t)vlan;
	}
	fr[l2 - 2] = v6 ? 0x86 : 0x08;
	fr[l2 - 1] = v6 ? 0xdd : 0x00;
	if (v6) {
		ip[0] = 0x60;
		ip[5] = 8;		/* payload length */
		ip[6] = IPPROTO_UDP;
		ip[7] = 64;
		memcpy(ip + 8, src, 16);
		memcpy(ip + 24, dst, 16);
		udp = ip + 40;
	} else {
		ip[0] = 0x45;
		ip[3] = 28;		/* total length */
		ip[8] = 64;
		ip[9] = IPPROTO_UDP;
		memcpy(ip + 12, src, 4);
		memcpy(ip + 16, dst, 4);
		udp = ip + 20;
	}
	udp[0] = 1000 >> 8;
	udp[1] = 1000 & 0xff;
	udp[2] = 2000 >> 8;
	udp[3] = 2000 & 0xff;
	udp[5] = 8;
	n = (uint32_t)(udp + 8 - fr);
	return n < 60 ? 60 : n;
}

static enum tp_pkt_class
parse_frame(uint8_t *fr, uint32_t len, struct tp_parsed *p)
{
	unsigned int n = chain(fr, len, NULL, 0);
	enum tp_pkt_class c;

	memset(p, 0, sizeof(*p));
	c = tp_parse(&segs[0], segs[0].pkt_len, p);
	unchain(n);
	return c;
}

static void
key_checks(void)
{
	static const uint8_t a4[4] = { 192, 0, 2, 1 }, b4[4] = { 198, 51, 100, 9 };
	uint8_t am[16] = { [10] = 0xff, [11] = 0xff }, bm[16];
	uint8_t b6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 9 };
	uint8_t fr[128];
	struct tp_parsed v4, one, both;
	uint32_t len;

	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_key) != 40);
	memcpy(am + 12, a4, 4);
	memcpy(bm, am, 16);
	memcpy(bm + 12, b4, 4);
	len = udp_frame(fr, 0, a4, b4, 0xabc);
	check("key_ipv4", parse_frame(fr, len, &v4) == TP_PKT_FLOW &&
	      v4.ipver == 4 && tp_key_ipver(&v4.key) == 4 &&
	      memcmp(tp_key_addr(&v4.key, 0), a4, 4) == 0 &&
	      memcmp(tp_key_addr(&v4.key, 1), b4, 4) == 0 &&
	      memcmp(v4.key.addr[0], am, 16) == 0 &&
	      v4.key.vlan0 == 0xabc && v4.key.vlan1 == 0 &&
	      v4.key.proto == IPPROTO_UDP,
	      "IPv4 key not IPv4-mapped, or its VLAN id or protocol wrong");
	len = udp_frame(fr, 1, am, b6, 0);
	check("key_ipv6_one_mapped", parse_frame(fr, len, &one) ==
	      TP_PKT_FLOW && one.ipver == 6 && tp_key_ipver(&one.key) == 6 &&
	      memcmp(&one.key, &v4.key, sizeof(one.key)) != 0,
	      "IPv6 with one IPv4-mapped address not an IPv6 flow");
	len = udp_frame(fr, 1, am, bm, 0);
	check("key_ipv6_both_mapped_malformed",
	      parse_frame(fr, len, &both) == TP_PKT_MALFORMED,
	      "IPv6 between two IPv4-mapped addresses not malformed");
}

int
main(int argc, char **argv)
{
	static uint8_t frame[MAX_FRAME];
	uint8_t gh[24], rh[16];
	unsigned int nframes = 0, nflow = 0, bad = 0;
	uint32_t caplen;
	char detail[128];
	FILE *f;

	if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL ||
	    fread(gh, sizeof(gh), 1, f) != 1) {
		fprintf(stderr, "usage: %s CAPTURE.pcap (little-endian)\n",
			argv[0]);
		return 2;
	}
	/* Bits 26-31 tell about a frame check sequence, not the type. */
	memcpy(&caplen, gh + 20, sizeof(caplen));
	linktype = (int)(caplen & 0x03ffffff);
	while (fread(rh, sizeof(rh), 1, f) == 1) {
		memcpy(&caplen, rh + 8, sizeof(caplen));
		if (caplen > MAX_FRAME || fread(frame, caplen, 1, f) != 1)
			break;
		nframes++;
		if (!split_checks(frame, caplen, &nflow)) {
			if (bad++ < 3)
				fprintf(stderr, "frame %u (%u bytes) parses "
					"differently once segmented\n",
					nframes, caplen);
		}
		if (flow_frame == NULL && caplen >= 60) {
			struct tp_parsed p;
			unsigned int n = chain(frame, caplen, NULL, 0);

			if (parse(&segs[0], &p) == TP_PKT_FLOW) {
				uint8_t *copy = malloc(caplen);

				memcpy(copy, frame, caplen);
				flow_frame = copy;
				flow_len = caplen;
			}
			unchain(n);
		}
	}
	fclose(f);
	if (linktype == TP_DLT_EN10MB)
		key_checks();
	snprintf(detail, sizeof(detail), "%u of %u frames (%u flows) differ",
		 bad, nframes, nflow);
	check("split_anywhere_same_result", nframes > 0 && nflow > 0 &&
	      bad == 0, detail);
	if (flow_frame != NULL && linktype == TP_DLT_EN10MB)
		bad_chain_checks();
	else if (flow_frame != NULL)
		printf("parse_segments: link type %d, broken chains left to "
		       "the Ethernet run\n", linktype);
	else
		check("bad_chains", 0, "no flow frame in the capture");
	printf("parse_segments: %u frames, %u flows, %d failures\n", nframes,
	       nflow, failures);
	return failures == 0 ? 0 : 1;
}
