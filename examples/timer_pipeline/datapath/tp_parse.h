/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PARSE_H_
#define _TP_PARSE_H_

/*
 * Packet classification on the RX lcore: rte_net_get_ptype() finds the
 * headers (Ethernet, VLAN/QinQ, IPv4, IPv6 and its extension headers, L4)
 * and their lengths; we then check every length we rely on and build the
 * bidirectional flow key.
 *
 * A packet may hold less than it had on the wire: a capture's snapshot
 * length (tcpdump -s 96) or an oversize record cut it (tp_capture.h). The
 * IP lengths are checked against the wire length, and the parser reads
 * as far as the packet's bytes go: an L4 header cut short keys the flow
 * on what is there (no ports unless both are held; no TCP flags unless
 * their byte is). The link, IP and IPv6 extension headers must be held
 * whole: a packet cut inside them is malformed.
 *
 * Every read of packet data goes through rte_pktmbuf_read(): bounded by the
 * packet length, a pointer into the first segment when the bytes are there
 * (the common case, no copy), a copy into a small stack buffer when they
 * span segments (frames over the mbuf data room arrive chained). Before
 * any read, the mbuf chain itself must add up, since rte_pktmbuf_read()
 * trusts pkt_len to walk it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_net.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "dpdk_compat.h"

#include "setup/tp_capture.h"
#include "datapath/tp_flow_types.h"

/** Outcome of tp_parse(). */
enum tp_pkt_class {
	TP_PKT_FLOW,		/**< IPv4/IPv6: key built. */
	TP_PKT_NON_IP,		/**< Well-formed, not IP: no flow. */
	TP_PKT_MALFORMED,	/**< Truncated or inconsistent headers. */
	TP_PKT_BAD_CHAIN,	/**< mbuf segment lengths do not add up to
				 * pkt_len: nothing may read it, not even a
				 * TX driver, so it is always dropped.
				 */
	TP_PKT_NOT_ETHER,	/**< Of a non-Ethernet capture, and no
				 * Ethernet frame can carry it: link header
				 * cut short, or a protocol that is neither
				 * an ethertype nor IPv4/IPv6. Dropped.
				 */
};

/** Result of parsing one packet. */
struct tp_parsed {
	struct tp_flow_key key;	/**< Flow key (TP_PKT_FLOW). */
	uint8_t ipver;		/**< 4 or 6 (tp_key_ipver() of the key). */
	bool lo_is_src;		/**< The sender is key end 0. */
	uint8_t tcp_flags;	/**< TCP flags, 0 if not TCP. */
	uint16_t icmp_tc;	/**< ICMP type << 8 | code (IPFIX), else 0. */
};

/* Copies of headers that span mbuf segments (tp_parse()'s frame). */
struct tp_parse_buf {
	uint8_t l2[RTE_ETHER_HDR_LEN + 2 * sizeof(struct rte_vlan_hdr)];
	union {
		struct rte_ipv4_hdr v4;
		struct rte_ipv6_hdr v6;
	} l3;
	union {
		struct rte_tcp_hdr tcp;
		struct rte_udp_hdr udp;
		uint8_t icmp[4];
	} l4;
};

static __rte_always_inline uint16_t
tp_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * Segment lengths add up to pkt_len. net_pcap chains mbufs for frames over
 * the data room and, for a record over 65535 bytes, sets a pkt_len that
 * the chain does not hold (it copies the length modulo 65536). The walk is
 * bounded by nb_segs, so a looping chain cannot hold us.
 */
static __rte_always_inline bool
tp_mbuf_consistent(const struct rte_mbuf *m)
{
	const struct rte_mbuf *s = m;
	uint32_t len = 0;
	uint16_t n;

	if (likely(m->nb_segs == 1))
		return m->data_len == m->pkt_len;
	for (n = 0; n < m->nb_segs && s != NULL; n++, s = s->next)
		len += s->data_len;
	return n == m->nb_segs && s == NULL && len == m->pkt_len;
}

/* Linux ARPHRD_NETLINK: SLL's protocol field is a netlink family. */
#define TP_ARPHRD_NETLINK 824
/* Address families of IPv6 in NULL/LOOP headers: Linux, NetBSD and
 * OpenBSD, FreeBSD, Darwin. IPv4 is 2 everywhere.
 */
#define TP_AF_INET 2

static __rte_always_inline uint16_t
tp_family_ethertype(uint32_t fam)
{
	if (fam == TP_AF_INET)
		return RTE_ETHER_TYPE_IPV4;
	if (fam == 10 || fam == 24 || fam == 28 || fam == 30)
		return RTE_ETHER_TYPE_IPV6;
	return 0;
}

/* Bytes of the link-layer header of a capture's link type. */
static __rte_always_inline uint32_t
tp_link_hdr_len(int lt)
{
	switch (lt) {
	case TP_DLT_LINUX_SLL: return 16;
	case TP_DLT_LINUX_SLL2: return 20;
	case TP_DLT_NULL:
	case TP_DLT_LOOP: return 4;
	default: return 0;	/* raw IP */
	}
}

/*
 * The ethertype of what follows a non-Ethernet link-layer header, read
 * from the header: SLL's and SLL2's protocol field (an ethertype unless
 * below 0x0600 or on a netlink device), NULL's address family (the
 * capturing host's byte order: a value with its high half set was written
 * in the other order, as tcpdump reads it), LOOP's (network order), or
 * for raw IP the version nibble of the first byte. 0 if none.
 */
static __rte_always_inline uint16_t
tp_link_ethertype(const uint8_t *h, int lt, uint32_t hlen)
{
	uint16_t proto, hatype;
	uint32_t fam;

	switch (lt) {
	case TP_DLT_LINUX_SLL:
	case TP_DLT_LINUX_SLL2:
		proto = tp_rd16(h + (lt == TP_DLT_LINUX_SLL ? 14 : 0));
		hatype = tp_rd16(h + (lt == TP_DLT_LINUX_SLL ? 2 : 8));
		return hatype == TP_ARPHRD_NETLINK || proto < 0x0600 ?
			0 : proto;
	case TP_DLT_NULL:
		memcpy(&fam, h, sizeof(fam));
		if ((fam & 0xffff0000) != 0)
			fam = rte_bswap32(fam);
		return tp_family_ethertype(fam);
	case TP_DLT_LOOP:
		memcpy(&fam, h, sizeof(fam));
		return tp_family_ethertype(rte_be_to_cpu_32(fam));
	case TP_DLT_IPV4:
		return RTE_ETHER_TYPE_IPV4;
	case TP_DLT_IPV6:
		return RTE_ETHER_TYPE_IPV6;
	default:	/* RAW: 12, 14, 101 */
		if (h[hlen] >> 4 == 4)
			return RTE_ETHER_TYPE_IPV4;
		return h[hlen] >> 4 == 6 ? RTE_ETHER_TYPE_IPV6 : 0;
	}
}

/**
 * Give a packet of a non-Ethernet capture (link type lt) an Ethernet
 * header in place of its own link-layer header, src and dst as its MAC
 * addresses and the ethertype its header names. Every later step sees an
 * Ethernet frame: the parser, the flow's byte counts (the Ethernet frame),
 * and TX, which never gets bytes that are not Ethernet.
 *
 * @return TP_PKT_FLOW when rewritten; TP_PKT_NOT_ETHER (header cut short,
 *   no ethertype for it, no headroom) or TP_PKT_BAD_CHAIN: drop it.
 */
static __rte_always_inline enum tp_pkt_class
tp_parse_to_ether(struct rte_mbuf *m, int lt, const struct rte_ether_addr *src,
		  const struct rte_ether_addr *dst)
{
	const uint32_t hlen = tp_link_hdr_len(lt);
	struct rte_ether_hdr *eh;
	uint8_t buf[24];
	const uint8_t *h;
	uint16_t etype;

	if (unlikely(!tp_mbuf_consistent(m)))
		return TP_PKT_BAD_CHAIN;
	/* The header and the first byte after it, in the first segment. */
	if (m->pkt_len < hlen + 1 || m->data_len < hlen ||
	    rte_pktmbuf_headroom(m) + hlen < RTE_ETHER_HDR_LEN)
		return TP_PKT_NOT_ETHER;
	h = rte_pktmbuf_read(m, 0, hlen + 1, buf);
	if (h == NULL)
		return TP_PKT_NOT_ETHER;
	etype = tp_link_ethertype(h, lt, hlen);
	if (etype == 0)
		return TP_PKT_NOT_ETHER;
	rte_pktmbuf_adj(m, (uint16_t)hlen);
	eh = (struct rte_ether_hdr *)rte_pktmbuf_prepend(m,
							 RTE_ETHER_HDR_LEN);
	if (eh == NULL)
		return TP_PKT_NOT_ETHER;
	rte_ether_addr_copy(dst, &eh->dst_addr);
	rte_ether_addr_copy(src, &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(etype);
	return TP_PKT_FLOW;
}

/*
 * VLAN ids (l2 holds l2_len bytes: 18 with a VLAN, 22 with QinQ). The
 * number of tags comes from l2_len, not from the L2 packet type: DPDK
 * 26.07's rte_net_get_ptype() ORs RTE_PTYPE_L2_ETHER_VLAN into
 * RTE_PTYPE_L2_ETHER and so reports one 802.1Q tag as QinQ.
 */
static __rte_always_inline void
tp_parse_vlans(const uint8_t *l2, uint32_t l2_len, struct tp_flow_key *key)
{
	const uint32_t tags = (l2_len - RTE_ETHER_HDR_LEN) /
			      sizeof(struct rte_vlan_hdr);

	if (tags >= 1)
		key->vlan0 = tp_rd16(l2 + 14) & 0xfff;
	if (tags >= 2)
		key->vlan1 = tp_rd16(l2 + 18) & 0xfff;
}

/*
 * L3 addresses and protocol; false if lengths are inconsistent. Sets
 * *ip_end to the end of the IP datagram (total or payload length): the L4
 * header must lie inside it, not in the frame's padding.
 */
static __rte_always_inline bool
tp_parse_l3(const struct rte_mbuf *m, uint32_t wire, struct tp_parse_buf *buf,
	    uint32_t ptype, const struct rte_net_hdr_lens *hl,
	    struct tp_parsed *out, const uint8_t **src, const uint8_t **dst,
	    uint32_t *ip_end)
{
	const uint32_t l2 = hl->l2_len;

	if (RTE_ETH_IS_IPV4_HDR(ptype)) {
		/* As bytes, as IPv6 below: from 24.11 the headers are
		 * 2-byte aligned and this one may sit at any offset.
		 */
		const uint8_t *ip;
		uint16_t tot;

		ip = rte_pktmbuf_read(m, l2, sizeof(struct rte_ipv4_hdr),
				      &buf->l3.v4);
		if (ip == NULL)
			return false;
		tot = tp_rd16(ip + offsetof(struct rte_ipv4_hdr, total_length));
		if (hl->l3_len < sizeof(struct rte_ipv4_hdr))
			return false;
		/* BIG TCP (GSO) IPv4: total length 0, the frame says it. */
		if (tot == 0 && wire > TP_CAPTURE_MAX_CAPLEN)
			*ip_end = wire;
		else if (tot < hl->l3_len || l2 + tot > wire)
			return false;
		else
			*ip_end = l2 + tot;
		out->ipver = 4;
		out->key.proto = ip[offsetof(struct rte_ipv4_hdr,
					     next_proto_id)];
		*src = ip + offsetof(struct rte_ipv4_hdr, src_addr);
		*dst = ip + offsetof(struct rte_ipv4_hdr, dst_addr);
		return true;
	}
	if (RTE_ETH_IS_IPV6_HDR(ptype)) {
		/*
		 * Read as bytes: the header may sit at any offset of the
		 * mbuf, and from DPDK 24.11 struct rte_ipv6_hdr is 2-byte
		 * aligned, so a member access through a cast pointer would
		 * be undefined there.
		 */
		const uint8_t *ip6;
		uint32_t off = l2 + sizeof(struct rte_ipv6_hdr);
		int frag = 0, proto;

		ip6 = rte_pktmbuf_read(m, l2, sizeof(struct rte_ipv6_hdr),
				       &buf->l3.v6);
		if (ip6 == NULL)
			return false;
		*ip_end = off + tp_rd16(ip6 + offsetof(struct rte_ipv6_hdr,
						       payload_len));
		/* A jumbogram (RFC 2675) or BIG TCP: payload length 0. */
		if (*ip_end == off && wire > TP_CAPTURE_MAX_CAPLEN)
			*ip_end = wire;
		if (*ip_end > wire)
			return false;
		proto = ip6[offsetof(struct rte_ipv6_hdr, proto)];
		if ((ptype & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV6_EXT) {
			/* Reads through rte_pktmbuf_read() too. */
			proto = rte_net_skip_ip6_ext(proto, m, &off, &frag);
			if (proto < 0)
				return false;
		}
		*src = ip6 + offsetof(struct rte_ipv6_hdr, src_addr);
		*dst = ip6 + offsetof(struct rte_ipv6_hdr, dst_addr);
		/* Would read as an IPv4 key (tp_flow_types.h): never on a wire. */
		if (tp_addr_v4mapped(*src) && tp_addr_v4mapped(*dst))
			return false;
		out->ipver = 6;
		out->key.proto = (uint8_t)proto;
		return true;
	}
	return false;
}

/*
 * Up to want bytes at off, as many as the packet holds (*got): an L4
 * header the capture cut short. NULL when it holds none.
 */
static __rte_always_inline const uint8_t *
tp_parse_held(const struct rte_mbuf *m, uint32_t off, uint32_t want,
	      void *buf, uint32_t *got)
{
	*got = off >= m->pkt_len ? 0 : RTE_MIN(want, m->pkt_len - off);
	return *got == 0 ? NULL : rte_pktmbuf_read(m, off, *got, buf);
}

/*
 * L4 ports and TCP flags; false if the datagram is too short for its L4
 * header. A header the capture cut (inside the datagram, past the bytes
 * held) gives what it holds: ports when both are held, TCP flags when
 * their byte is.
 */
static __rte_always_inline bool
tp_parse_l4(const struct rte_mbuf *m, struct tp_parse_buf *buf,
	    uint32_t ptype, const struct rte_net_hdr_lens *hl,
	    uint32_t ip_end, struct tp_parsed *out, uint16_t *sport,
	    uint16_t *dport)
{
	const uint32_t off = hl->l2_len + hl->l3_len;
	const uint32_t l4 = ptype & RTE_PTYPE_L4_MASK;
	const uint8_t *h;
	uint32_t got;

	*sport = 0;
	*dport = 0;
	out->icmp_tc = 0;
	if (l4 == RTE_PTYPE_L4_FRAG)
		return true;	/* no ports in fragments */
	switch (out->key.proto) {
	/* Ports stay in network order; read as bytes (any offset). */
	case IPPROTO_TCP:
		if (off + sizeof(struct rte_tcp_hdr) > ip_end)
			return false;
		/* rte_net_get_ptype() found the whole header: check it. */
		if (l4 == RTE_PTYPE_L4_TCP &&
		    (hl->l4_len < sizeof(struct rte_tcp_hdr) ||
		     off + hl->l4_len > ip_end))
			return false;
		h = tp_parse_held(m, off, sizeof(struct rte_tcp_hdr),
				  &buf->l4.tcp, &got);
		if (h == NULL)
			return true;
		if (got >= 4) {
			memcpy(sport, h + offsetof(struct rte_tcp_hdr,
						   src_port), 2);
			memcpy(dport, h + offsetof(struct rte_tcp_hdr,
						   dst_port), 2);
		}
		if (got > offsetof(struct rte_tcp_hdr, tcp_flags))
			out->tcp_flags = h[offsetof(struct rte_tcp_hdr,
						    tcp_flags)];
		return true;
	case IPPROTO_UDP:
		if (off + sizeof(struct rte_udp_hdr) > ip_end)
			return false;
		h = tp_parse_held(m, off, sizeof(struct rte_udp_hdr),
				  &buf->l4.udp, &got);
		if (h != NULL && got >= 4) {
			memcpy(sport, h + offsetof(struct rte_udp_hdr,
						   src_port), 2);
			memcpy(dport, h + offsetof(struct rte_udp_hdr,
						   dst_port), 2);
		}
		return true;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		/* type, code, checksum: in the datagram, though we key on
		 * none; type and code go to the record (icmpTypeCode).
		 */
		if (off + sizeof(buf->l4.icmp) > ip_end)
			return false;
		h = tp_parse_held(m, off, 2, buf->l4.icmp, &got);
		if (h != NULL && got == 2)
			out->icmp_tc = (uint16_t)(h[0] << 8 | h[1]);
		return true;
	default:
		return true;
	}
}

/* Order the two ends so both directions give the same key. */
static __rte_always_inline void
tp_key_order(struct tp_parsed *out, const uint8_t *src, const uint8_t *dst,
	     uint16_t sport, uint16_t dport)
{
	const size_t alen = out->ipver == 4 ? 4 : 16;
	const size_t at = 16 - alen;	/* IPv4-mapped: the last 4 bytes */
	int c = memcmp(src, dst, alen);

	if (c == 0)
		c = (int)rte_be_to_cpu_16(sport) - (int)rte_be_to_cpu_16(dport);
	out->lo_is_src = c <= 0;
	memcpy(out->key.addr[out->lo_is_src ? 0 : 1] + at, src, alen);
	memcpy(out->key.addr[out->lo_is_src ? 1 : 0] + at, dst, alen);
	if (alen == 4) {
		out->key.addr[0][10] = out->key.addr[0][11] = 0xff;
		out->key.addr[1][10] = out->key.addr[1][11] = 0xff;
	}
	out->key.port[out->lo_is_src ? 0 : 1] = sport;
	out->key.port[out->lo_is_src ? 1 : 0] = dport;
}

/* Packet parsing. 8< */
/**
 * Parse one Ethernet frame of wire bytes on the wire (its pkt_len, or
 * more when a capture cut it) into its flow key.
 */
static __rte_always_inline enum tp_pkt_class
tp_parse(const struct rte_mbuf *m, uint32_t wire, struct tp_parsed *out)
{
	struct tp_parse_buf buf;
	struct rte_net_hdr_lens hl;
	const uint8_t *l2, *src, *dst;
	uint16_t etype, sport, dport;
	uint32_t ptype, l2t, ip_end;

	memset(out, 0, sizeof(*out));
	memset(&hl, 0, sizeof(hl));
	if (unlikely(!tp_mbuf_consistent(m)))
		return TP_PKT_BAD_CHAIN;
	if (m->pkt_len < RTE_ETHER_HDR_LEN)
		return TP_PKT_MALFORMED;
	ptype = rte_net_get_ptype(m, &hl, RTE_PTYPE_L2_MASK |
				  RTE_PTYPE_L3_MASK | RTE_PTYPE_L4_MASK);
	l2t = ptype & RTE_PTYPE_L2_MASK;
	if (hl.l2_len < RTE_ETHER_HDR_LEN || hl.l2_len > m->pkt_len)
		return TP_PKT_MALFORMED;
	/* Ethernet, VLAN and QinQ headers: at most 22 bytes, all ours. */
	if (l2t != RTE_PTYPE_L2_ETHER && l2t != RTE_PTYPE_L2_ETHER_VLAN &&
	    l2t != RTE_PTYPE_L2_ETHER_QINQ)
		return TP_PKT_NON_IP;	/* MPLS, ARP, LLDP, PTP... */
	if (hl.l2_len > sizeof(buf.l2))
		return TP_PKT_MALFORMED;
	l2 = rte_pktmbuf_read(m, 0, hl.l2_len, buf.l2);
	if (l2 == NULL)
		return TP_PKT_MALFORMED;
	if ((ptype & RTE_PTYPE_L3_MASK) == 0) {
		/* No L3: not IP, or an IP/VLAN header cut short or bad. */
		etype = tp_rd16(l2 + hl.l2_len - 2);
		if (etype == RTE_ETHER_TYPE_IPV4 ||
		    etype == RTE_ETHER_TYPE_IPV6 ||
		    etype == RTE_ETHER_TYPE_VLAN ||
		    etype == RTE_ETHER_TYPE_QINQ)
			return TP_PKT_MALFORMED;
		return TP_PKT_NON_IP;
	}
	if ((uint32_t)hl.l2_len + hl.l3_len > m->pkt_len)
		return TP_PKT_MALFORMED;
	tp_parse_vlans(l2, hl.l2_len, &out->key);
	if (!tp_parse_l3(m, wire, &buf, ptype, &hl, out, &src, &dst,
			 &ip_end))
		return TP_PKT_MALFORMED;
	/* IPv6 extension headers beyond the payload length. */
	if ((uint32_t)hl.l2_len + hl.l3_len > ip_end)
		return TP_PKT_MALFORMED;
	if (!tp_parse_l4(m, &buf, ptype, &hl, ip_end, out, &sport, &dport))
		return TP_PKT_MALFORMED;
	tp_key_order(out, src, dst, sport, dport);
	return TP_PKT_FLOW;
}
/* >8 End of packet parsing. */

#endif /* _TP_PARSE_H_ */
