/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_IPFIX_H_
#define _TP_IPFIX_H_

/*
 * IPFIX export of flow records (RFC 7011, RFC 5103 biflows), on libfixbuf.
 *
 * Two layers:
 * - the encoder (tp_ipfix_enc.c, plain C and libfixbuf, no DPDK): turns
 *   flows into IPFIX Messages in a memory buffer; tests drive it directly;
 * - the exporter (tp_ipfix.c): option checks before EAL, a bounded ring fed
 *   by the main lcore's record drain, and a thread of its own that encodes
 *   and sends over UDP, TCP (reconnecting with back-off) or to a file
 *   (RFC 5655). No lcore ever waits for it: a full ring or an absent
 *   collector counts records as not sent.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_ctx;
struct tp_config;
struct tp_flow_record;

/** Default collector port (RFC 7011). */
#define TP_IPFIX_PORT 4739

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
 * @return the encoder, or NULL with a message in err.
 */
struct tp_ipfix_enc *tp_ipfix_enc_create(uint32_t domain, uint16_t mtu,
					 char *err, size_t errlen);

/** Free an encoder (and what libfixbuf holds for it). */
void tp_ipfix_enc_free(struct tp_ipfix_enc *enc);

/** Template variant of a flow (TP_IPFIX_VAR_* bits). */
unsigned int tp_ipfix_variant(const struct tp_ipfix_flow *f);

/**
 * Append one flow to the message being built.
 *
 * @return 0, -EAGAIN when the message is full (take it with
 *   tp_ipfix_enc_take() and append again), -EINVAL on an encoder error.
 */
int tp_ipfix_enc_add(struct tp_ipfix_enc *enc, const struct tp_ipfix_flow *f);

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
 * @param records Set to the number of data (flow) records it holds.
 * @return the message bytes, valid until the next call on enc.
 */
const uint8_t *tp_ipfix_enc_take(struct tp_ipfix_enc *enc, size_t *len,
				 unsigned int *records);

/** The last libfixbuf error message of an encoder. */
const char *tp_ipfix_enc_error(const struct tp_ipfix_enc *enc);

/** Data records appended to the message being built. */
unsigned int tp_ipfix_enc_pending(const struct tp_ipfix_enc *enc);

/** Exporter counters (telemetry, stats screen, exit summary). */
struct tp_ipfix_stats {
	uint64_t messages;	/**< IPFIX Messages sent. */
	uint64_t bytes;		/**< Their bytes. */
	uint64_t records;	/**< Flow records sent (exported). */
	uint64_t templates;	/**< Template (and options) sends. */
	uint64_t not_sent;	/**< Records counted as not sent. */
	uint64_t queue_full;	/**< Of those: the ring was full. */
	uint64_t reconnects;	/**< TCP connections after the first. */
	uint64_t submitted;	/**< Records handed to the exporter. */
	uint64_t window_us;	/**< First to last message with records. */
};

/**
 * Check the --ipfix* options before EAL starts (host resolves, port not 0,
 * file writable, options consistent, built with libfixbuf).
 *
 * @return 0, or -EINVAL after printing one message naming the option.
 */
int tp_ipfix_check_config(const struct tp_config *cfg);

/** True when --ipfix or --ipfix-file is set. */
bool tp_ipfix_enabled(const struct tp_config *cfg);

/** Start the exporter (ring, encoder, thread). 0 or a negative errno. */
int tp_ipfix_start(struct tp_ctx *ctx);

/**
 * Queue one record for export (main lcore, never waits): a full ring
 * counts it as not sent.
 */
void tp_ipfix_submit(struct tp_ctx *ctx, const struct tp_flow_record *r);

/**
 * Records the exporter's queue takes now (any thread); UINT32_MAX when
 * export is off.
 */
uint32_t tp_ipfix_room(const struct tp_ctx *ctx);

/**
 * Export what is queued, send the final options record, close and stop
 * the thread, within a bounded time (records left then are not sent).
 */
void tp_ipfix_stop(struct tp_ctx *ctx);

/** Stop (if running) and free the exporter. Idempotent. */
void tp_ipfix_release(struct tp_ctx *ctx);

/** Read the counters (any thread). False when export is off. */
bool tp_ipfix_stats_get(const struct tp_ctx *ctx, struct tp_ipfix_stats *s);

#endif /* _TP_IPFIX_H_ */
