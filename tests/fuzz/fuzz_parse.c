/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * libFuzzer target: the pipeline's packet parser and flow-key builder
 * (examples/timer_pipeline/tp_parse.h) on arbitrary frames.
 *
 * Each input becomes the only segment of an mbuf whose data is a heap copy
 * of exactly the input's size, so AddressSanitizer reports any read past
 * the frame. The parser must also keep its own promises: a flow key only
 * for IPv4 or IPv6, with the protocol's ports, and deterministic output.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "tp_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_parsed out, again;
	enum tp_pkt_class c;
	struct rte_mbuf m;
	uint8_t *buf;

	if (size > UINT16_MAX)
		return 0;
	buf = malloc(size != 0 ? size : 1);
	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	memset(&m, 0, sizeof(m));
	m.buf_addr = buf;
	m.buf_len = (uint16_t)size;
	m.data_off = 0;
	m.data_len = (uint16_t)size;
	m.pkt_len = (uint32_t)size;
	m.nb_segs = 1;
	m.next = NULL;

	c = tp_parse(&m, &out);
	if (c == TP_PKT_FLOW) {
		if (out.key.ipver != 4 && out.key.ipver != 6)
			abort();
		if (size < RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr))
			abort();
	} else if (c != TP_PKT_NON_IP && c != TP_PKT_MALFORMED) {
		abort();
	}
	/* Same frame, same answer and same key, byte for byte. */
	if (tp_parse(&m, &again) != c ||
	    (c == TP_PKT_FLOW && memcmp(&out.key, &again.key,
					sizeof(out.key)) != 0))
		abort();
	free(buf);
	return 0;
}
