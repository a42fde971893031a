/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_IPFIX_H_
#define _TP_IPFIX_H_

/*
 * IPFIX export of flow records (RFC 7011, RFC 5103 biflows): the
 * exporter's API. Where each part lives:
 * - tp_ipfix_opts.c: the --ipfix* option checks before EAL (every build);
 * - tp_ipfix.c: the exporter (with libfixbuf): a bounded ring fed by the
 *   record drain, and a thread of its own (or, for UDP where every CPU
 *   has an lcore, a service on a service lcore) that runs its work,
 *   tp_ipfix_run.c: encode (with the encoder, tp_ipfix_enc.h) and send
 *   over UDP, TCP (reconnecting with back-off) or to a file (RFC 5655).
 *   An absent collector counts records as not sent, and so does a full
 *   ring, unless --ipfix-queue-full has the drainer wait for room;
 * - tp_ipfix_stub.c: the same functions in a build without libfixbuf
 *   (meson picks one of the two), where the option checks refuse export.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "records/tp_ipfix_types.h"

struct tp_ctx;
struct tp_config;
struct tp_flow_record;
struct tp_ipfix;

/** Start the exporter (ring, encoder, thread). 0 or a negative errno. */
int tp_ipfix_start(struct tp_ctx *ctx, tp_ipfix_sum_t sum);

/**
 * Queue one record for export to @p x (ctx->ipfix, not NULL; the record
 * drainer): a full ring counts it as not sent, or, with waiting on
 * (--ipfix-queue-full), is waited on for a bounded time first.
 */
void tp_ipfix_submit(struct tp_ipfix *x, const struct tp_flow_record *r);

/**
 * Records the exporter @p x (ctx->ipfix)'s queue takes now (any thread);
 * UINT32_MAX when export is off (x NULL).
 */
uint32_t tp_ipfix_room(const struct tp_ipfix *x);

/**
 * Export what is queued, send the final options record, close and stop
 * the thread or service of @p x (ctx->ipfix; NULL: nothing), within a
 * bounded time (records left then are not sent).
 */
void tp_ipfix_stop(struct tp_ipfix *x);

/** Stop (if running) and free the exporter. Idempotent. */
void tp_ipfix_release(struct tp_ctx *ctx);

#ifdef TP_STAGE_CYCLES
struct tp_stage_stats;
/**
 * The exporter thread's stage cycles (tp_stages.h), read relaxed.
 *
 * @return NULL when the exporter is off (or not built), or ran as a
 *   service (its stages are then its service lcore's).
 */
const struct tp_stage_stats *tp_ipfix_stages(const struct tp_ipfix *x);
#endif

/** Read the counters of @p x (ctx->ipfix; any thread). False when
 * export is off (x NULL).
 */
bool tp_ipfix_stats_get(const struct tp_ipfix *x, struct tp_ipfix_stats *s);

#endif /* _TP_IPFIX_H_ */
