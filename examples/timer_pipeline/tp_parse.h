/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PARSE_H_
#define _TP_PARSE_H_

/*
 * Packet classification on the RX lcore: rte_net_get_ptype() finds the
 * headers (Ethernet, VLAN/QinQ, IPv4, IPv6 and its extension headers, L4)
 * and their lengths; we then check every length we rely on against the
 * first segment's data_len and build the bidirectional flow key.
 */

#include <stdbool.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_net.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "tp_flow.h"

/** Outcome of tp_parse(). */
enum tp_pkt_class {
	TP_PKT_FLOW,		/**< IPv4/IPv6: key built. */
	TP_PKT_NON_IP,		/**< Well-formed, not IP: no flow. */
	TP_PKT_MALFORMED,	/**< Truncated or inconsistent headers. */
};

/** Result of parsing one packet. */
struct tp_parsed {
	struct tp_flow_key key;	/**< Flow key (TP_PKT_FLOW). */
	bool lo_is_src;		/**< The sender is key end 0. */
	uint8_t tcp_flags;	/**< TCP flags, 0 if not TCP. */
};

static __rte_always_inline uint16_t
tp_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* VLAN ids and the final ethertype at l2_len - 2 (l2_len <= data_len). */
static __rte_always_inline void
tp_parse_vlans(const uint8_t *p, uint32_t ptype, struct tp_flow_key *key)
{
	const uint32_t l2 = ptype & RTE_PTYPE_L2_MASK;

	if (l2 == RTE_PTYPE_L2_ETHER_VLAN) {
		key->vlan[0] = tp_rd16(p + 14) & 0xfff;
	} else if (l2 == RTE_PTYPE_L2_ETHER_QINQ) {
		key->vlan[0] = tp_rd16(p + 14) & 0xfff;
		key->vlan[1] = tp_rd16(p + 18) & 0xfff;
	}
}

/* L3 addresses and protocol; false if lengths are inconsistent. */
static __rte_always_inline bool
tp_parse_l3(const struct rte_mbuf *m, const uint8_t *p, uint32_t ptype,
	    const struct rte_net_hdr_lens *hl, struct tp_flow_key *key,
	    const uint8_t **src, const uint8_t **dst)
{
	const uint32_t l2 = hl->l2_len;

	if (RTE_ETH_IS_IPV4_HDR(ptype)) {
		const struct rte_ipv4_hdr *ip = (const void *)(p + l2);
		uint16_t tot = rte_be_to_cpu_16(ip->total_length);

		if (hl->l3_len < sizeof(*ip) || tot < hl->l3_len ||
		    l2 + tot > m->pkt_len)
			return false;
		key->ipver = 4;
		key->proto = ip->next_proto_id;
		*src = (const uint8_t *)&ip->src_addr;
		*dst = (const uint8_t *)&ip->dst_addr;
		return true;
	}
	if (RTE_ETH_IS_IPV6_HDR(ptype)) {
		const struct rte_ipv6_hdr *ip6 = (const void *)(p + l2);
		uint32_t off = l2 + sizeof(*ip6);
		int frag = 0, proto = ip6->proto;

		if (l2 + sizeof(*ip6) + rte_be_to_cpu_16(ip6->payload_len) >
		    m->pkt_len)
			return false;
		if ((ptype & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV6_EXT) {
			proto = rte_net_skip_ip6_ext(ip6->proto, m, &off,
						     &frag);
			if (proto < 0)
				return false;
		}
		key->ipver = 6;
		key->proto = (uint8_t)proto;
		*src = ip6->src_addr;
		*dst = ip6->dst_addr;
		return true;
	}
	return false;
}

/* L4 ports and TCP flags; false if the L4 header is cut short. */
static __rte_always_inline bool
tp_parse_l4(const struct rte_mbuf *m, const uint8_t *p, uint32_t ptype,
	    const struct rte_net_hdr_lens *hl, struct tp_parsed *out,
	    uint16_t *sport, uint16_t *dport)
{
	const uint32_t off = hl->l2_len + hl->l3_len;
	const uint32_t l4 = ptype & RTE_PTYPE_L4_MASK;

	*sport = 0;
	*dport = 0;
	if (l4 == RTE_PTYPE_L4_FRAG)
		return true;	/* no ports in fragments */
	switch (out->key.proto) {
	case IPPROTO_TCP: {
		const struct rte_tcp_hdr *th = (const void *)(p + off);

		if (l4 != RTE_PTYPE_L4_TCP || hl->l4_len < sizeof(*th) ||
		    off + hl->l4_len > m->data_len)
			return false;
		*sport = th->src_port;
		*dport = th->dst_port;
		out->tcp_flags = th->tcp_flags;
		return true;
	}
	case IPPROTO_UDP: {
		const struct rte_udp_hdr *uh = (const void *)(p + off);

		if (off + sizeof(*uh) > m->data_len)
			return false;
		*sport = uh->src_port;
		*dport = uh->dst_port;
		return true;
	}
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		/* type, code, checksum */
		return off + 4 <= m->data_len;
	default:
		return true;
	}
}

/* Order the two ends so both directions give the same key. */
static __rte_always_inline void
tp_key_order(struct tp_parsed *out, const uint8_t *src, const uint8_t *dst,
	     uint16_t sport, uint16_t dport)
{
	const size_t alen = out->key.ipver == 4 ? 4 : 16;
	int c = memcmp(src, dst, alen);

	if (c == 0)
		c = (int)rte_be_to_cpu_16(sport) - (int)rte_be_to_cpu_16(dport);
	out->lo_is_src = c <= 0;
	memcpy(out->key.addr[out->lo_is_src ? 0 : 1], src, alen);
	memcpy(out->key.addr[out->lo_is_src ? 1 : 0], dst, alen);
	out->key.port[out->lo_is_src ? 0 : 1] = sport;
	out->key.port[out->lo_is_src ? 1 : 0] = dport;
}

/* Packet parsing. 8< */
static __rte_always_inline enum tp_pkt_class
tp_parse(const struct rte_mbuf *m, struct tp_parsed *out)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rte_net_hdr_lens hl;
	const uint8_t *src, *dst;
	uint16_t etype, sport, dport;
	uint32_t ptype;

	memset(out, 0, sizeof(*out));
	memset(&hl, 0, sizeof(hl));
	if (m->data_len < RTE_ETHER_HDR_LEN)
		return TP_PKT_MALFORMED;
	ptype = rte_net_get_ptype(m, &hl, RTE_PTYPE_L2_MASK |
				  RTE_PTYPE_L3_MASK | RTE_PTYPE_L4_MASK);
	if (hl.l2_len < RTE_ETHER_HDR_LEN || hl.l2_len > m->data_len)
		return TP_PKT_MALFORMED;
	if ((ptype & RTE_PTYPE_L3_MASK) == 0) {
		/* No L3: not IP, or an IP/VLAN header cut short or bad. */
		etype = tp_rd16(p + hl.l2_len - 2);
		if (etype == RTE_ETHER_TYPE_IPV4 ||
		    etype == RTE_ETHER_TYPE_IPV6 ||
		    etype == RTE_ETHER_TYPE_VLAN ||
		    etype == RTE_ETHER_TYPE_QINQ)
			return TP_PKT_MALFORMED;
		return TP_PKT_NON_IP;
	}
	if (hl.l2_len + hl.l3_len > m->data_len)
		return TP_PKT_MALFORMED;
	tp_parse_vlans(p, ptype, &out->key);
	if (!tp_parse_l3(m, p, ptype, &hl, &out->key, &src, &dst))
		return TP_PKT_MALFORMED;
	if (!tp_parse_l4(m, p, ptype, &hl, out, &sport, &dport))
		return TP_PKT_MALFORMED;
	tp_key_order(out, src, dst, sport, dport);
	return TP_PKT_FLOW;
}
/* >8 End of packet parsing. */

#endif /* _TP_PARSE_H_ */
