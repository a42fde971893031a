/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * libFuzzer target: the pipeline's packet parser and flow-key builder
 * (examples/timer_pipeline/datapath/tp_parse.h) on arbitrary frames, of every link
 * type the pipeline reads.
 *
 * The input's first byte picks the link type (tp_fuzz_linktypes[], the
 * same order as seeds.py), the rest is the packet. It becomes the only
 * segment of an mbuf whose data is a heap copy of exactly the packet's
 * size, behind exactly the 14 bytes of headroom a synthetic Ethernet
 * header needs, so AddressSanitizer reports any read or write outside.
 * A non-Ethernet packet first gets its Ethernet header
 * (tp_parse_to_ether()), as on the RX lcore. The parser must also keep
 * its promises: a flow key only for IPv4 or IPv6, a rewritten packet
 * exactly its link header shorter plus 14 bytes, deterministic output.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "datapath/tp_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int tp_fuzz_linktypes[] = {
	TP_DLT_EN10MB, TP_DLT_LINUX_SLL, TP_DLT_LINUX_SLL2, TP_DLT_RAW,
	TP_DLT_RAW_12, TP_DLT_RAW_14, TP_DLT_IPV4, TP_DLT_IPV6, TP_DLT_NULL,
	TP_DLT_LOOP,
};

/* A non-Ethernet packet: its Ethernet header, or a reason to drop it. */
static enum tp_pkt_class
tp_fuzz_link(struct rte_mbuf *m, int lt)
{
	static const struct rte_ether_addr src = {{ 2, 0, 0, 0, 0, 1 }};
	static const struct rte_ether_addr dst = {{ 2, 0, 0, 0, 0, 2 }};
	const uint32_t len = m->pkt_len;
	enum tp_pkt_class c;

	c = tp_parse_to_ether(m, lt, &src, &dst);
	if (c == TP_PKT_NOT_ETHER)
		return c;
	if (c != TP_PKT_FLOW ||
	    m->pkt_len != len - tp_link_hdr_len(lt) + RTE_ETHER_HDR_LEN ||
	    m->data_len != m->pkt_len ||
	    memcmp(rte_pktmbuf_mtod(m, uint8_t *), &dst, 6) != 0)
		abort();
	return TP_PKT_FLOW;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_parsed out, again;
	enum tp_pkt_class c, c2;
	struct rte_mbuf m;
	uint8_t *buf;
	int lt;

	if (size < 1 || size > UINT16_MAX - RTE_ETHER_HDR_LEN)
		return 0;
	lt = tp_fuzz_linktypes[data[0] % RTE_DIM(tp_fuzz_linktypes)];
	data++;
	size--;
	buf = malloc(RTE_ETHER_HDR_LEN + size);
	if (buf == NULL)
		return 0;
	memcpy(buf + RTE_ETHER_HDR_LEN, data, size);
	memset(&m, 0, sizeof(m));
	m.buf_addr = buf;
	m.buf_len = (uint16_t)(RTE_ETHER_HDR_LEN + size);
	m.data_off = RTE_ETHER_HDR_LEN;
	m.data_len = (uint16_t)size;
	m.pkt_len = (uint32_t)size;
	m.nb_segs = 1;
	m.next = NULL;

	if (lt != TP_DLT_EN10MB && tp_fuzz_link(&m, lt) != TP_PKT_FLOW) {
		free(buf);
		return 0;
	}
	c = tp_parse(&m, m.pkt_len, &out);
	if (c == TP_PKT_FLOW) {
		if ((out.ipver != 4 && out.ipver != 6) ||
		    tp_key_ipver(&out.key) != out.ipver)
			abort();
		if (m.pkt_len < RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr))
			abort();
	} else if (c != TP_PKT_NON_IP && c != TP_PKT_MALFORMED) {
		abort();
	}
	/* Same frame, same answer and same key, byte for byte. */
	if (tp_parse(&m, m.pkt_len, &again) != c ||
	    (c == TP_PKT_FLOW && memcmp(&out.key, &again.key,
					sizeof(out.key)) != 0))
		abort();
	/*
	 * The same bytes as a capture's cut record, of a longer wire length
	 * (snapshot length; oversize): read within the bytes held, and a
	 * flow of the whole frame stays that flow, key for key.
	 */
	c2 = tp_parse(&m, m.pkt_len + 1 + (size & 0xff), &again);
	if (c == TP_PKT_FLOW && (c2 != TP_PKT_FLOW ||
				 memcmp(&out.key, &again.key,
					sizeof(out.key)) != 0))
		abort();
	c2 = tp_parse(&m, m.pkt_len + 70000, &again);
	if (c == TP_PKT_FLOW && (c2 != TP_PKT_FLOW ||
				 memcmp(&out.key, &again.key,
					sizeof(out.key)) != 0))
		abort();
	free(buf);
	return 0;
}
