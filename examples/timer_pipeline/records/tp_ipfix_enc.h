/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_IPFIX_ENC_H_
#define _TP_IPFIX_ENC_H_

/*
 * The IPFIX encoder's API (tp_ipfix_enc.c: plain C and libfixbuf, no DPDK,
 * no lock: one encoder belongs to one thread). It turns flows into IPFIX
 * Messages (RFC 7011) in a memory buffer, each flow as one RFC 5103
 * biflow record or, for collectors without RFC 5103, as one record per
 * direction; the exporter (tp_ipfix.h) and tests/test_ipfix.c drive it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Template IDs: data templates are TP_IPFIX_TID_DATA + variant bits. */
#define TP_IPFIX_TID_DATA 256
#define TP_IPFIX_VAR_V6 1u	/**< IPv6 addresses (else IPv4). */
#define TP_IPFIX_VAR_VLAN 2u	/**< vlanId present. */
#define TP_IPFIX_VAR_ICMP 4u	/**< icmpTypeCode instead of ports. */
#define TP_IPFIX_NB_VAR 8u
/** Options template: exporter statistics. */
#define TP_IPFIX_TID_STATS (TP_IPFIX_TID_DATA + TP_IPFIX_NB_VAR)

/** One flow as the encoder takes it (host byte order). */
struct tp_ipfix_flow {
	uint8_t src[16];	/**< Initiator address (IPv4: 4 bytes). */
	uint8_t dst[16];	/**< Responder address. */
	uint64_t start_ms;	/**< First packet, ms since the epoch. */
	uint64_t end_ms;	/**< Last packet, ms since the epoch. */
	uint64_t dir_start_ms[2]; /**< First packet per direction (uni). */
	uint64_t dir_end_ms[2];	/**< Last packet per direction (uni). */
	uint64_t octets[2];	/**< Forward, reverse. */
	uint64_t packets[2];	/**< Forward, reverse. */
	uint32_t in_if;		/**< ingressInterface (port id). */
	uint16_t sport;		/**< Initiator port. */
	uint16_t dport;		/**< Responder port. */
	uint16_t vlan;		/**< Outer VLAN id, 0 = none. */
	uint16_t icmp_tc;	/**< ICMP type << 8 | code. */
	uint8_t ipver;		/**< 4 or 6. */
	uint8_t proto;		/**< IP protocol. */
	uint8_t tcp_flags[2];	/**< Forward, reverse. */
	uint8_t end_reason;	/**< flowEndReason 1..5. */
};

/** The exporter's own statistics (options record). */
struct tp_ipfix_exstats {
	uint32_t process_id;	/**< exportingProcessId (scope). */
	uint64_t observed;	/**< observedFlowTotalCount. */
	uint64_t ignored;	/**< ignoredPacketTotalCount. */
	uint64_t not_sent;	/**< notSentFlowTotalCount. */
	uint64_t init_ms;	/**< systemInitTimeMilliseconds. */
	uint16_t idle_s;	/**< flowIdleTimeout. */
	uint16_t active_s;	/**< flowActiveTimeout. */
};

struct tp_ipfix_enc;

/** Smallest message size: the templates and options record fit one. */
#define TP_IPFIX_MTU_MIN 1024

/**
 * Create an encoder: information model, session (observation domain
 * 'domain'), the eight data templates and the options template, and a
 * message buffer of 'mtu' bytes.
 *
 * @param uni  Export each flow as one record per direction with packets
 *   (the reply direction with its 5-tuple swapped, templates without
 *   reverse elements), else as one RFC 5103 biflow record.
 * @return the encoder, or NULL with a message in err.
 */
struct tp_ipfix_enc *tp_ipfix_enc_create(uint32_t domain, uint16_t mtu,
					 bool uni, char *err, size_t errlen);

/** Free an encoder (and what libfixbuf holds for it). */
void tp_ipfix_enc_free(struct tp_ipfix_enc *enc);

/** Template variant of a flow (TP_IPFIX_VAR_* bits). */
unsigned int tp_ipfix_enc_variant(const struct tp_ipfix_flow *f);

/**
 * Append one flow's records to the message being built: one (biflow), or
 * one per direction with packets (uni). A flow counts in the message that
 * takes its last record.
 *
 * @param done  Records of this flow already appended: 0 on the first
 *   call, then left as the call set it.
 * @return 0 when every record of the flow is appended; -EAGAIN when the
 *   message is full (take it with tp_ipfix_enc_take() and call again with
 *   the same 'done'); -EINVAL on an encoder error.
 */
int tp_ipfix_enc_add(struct tp_ipfix_enc *enc, const struct tp_ipfix_flow *f,
		     unsigned int *done);

/**
 * Append the templates, then one options record with 'st'. Call on an
 * empty message (after tp_ipfix_enc_take()).
 *
 * @return 0 or -EINVAL.
 */
int tp_ipfix_enc_templates(struct tp_ipfix_enc *enc,
			   const struct tp_ipfix_exstats *st);

/**
 * Close the message being built and return it.
 *
 * @param len     Set to its length, 0 when nothing was pending.
 * @param flows   Set to the number of flows whose last record it holds.
 * @param records Set to the number of flow data records it holds.
 * @return the message bytes, valid until the next call on enc.
 */
const uint8_t *tp_ipfix_enc_take(struct tp_ipfix_enc *enc, size_t *len,
				 unsigned int *flows, unsigned int *records);

/** The last libfixbuf error message of an encoder. */
const char *tp_ipfix_enc_error(const struct tp_ipfix_enc *enc);

/** Flows whose last record is in the message being built. */
unsigned int tp_ipfix_enc_pending(const struct tp_ipfix_enc *enc);

#endif /* _TP_IPFIX_ENC_H_ */
