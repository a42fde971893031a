/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RECORD_H_
#define _TP_RECORD_H_

/*
 * Flow records: one per ended flow. Whoever drops a flow's last reference
 * builds its record in its lcore's stage (tp_record_push()); the lcore
 * puts its stage on an MP/SC ring in bursts (tp_record_flush()). One
 * thread at a time drains the ring and hands each record to the sinks in
 * tp_record_emit(): the main lcore every 10 ms (tp_record_drain()), or,
 * where main.c gives it a CPU of its own, the record writer service on a
 * service lcore, so that no lcore busy reading packets or ending flows
 * formats or writes records; one that finds the ring full runs an
 * iteration of the service itself rather than wait.
 *
 * Adding a sink (an exporter): give it a flag or handle in struct
 * tp_records, make tp_record_wanted() true when it is on (records are
 * only built when some sink wants them), and call it in tp_record_emit()
 * beside the flow log's writer. One thread at a time calls it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ring.h>

#include "datapath/tp_flow.h"
#include "records/tp_output.h"
#include "records/tp_record_types.h"
#include "records/tp_sink.h"

struct tp_ctx;
struct tp_lcore;

/**
 * Create the record ring and open --flow-log (if set).
 *
 * @return 0, or a negative errno (logged).
 */
int tp_record_init(struct tp_ctx *ctx);

/**
 * Close the flow log (after the last drain): what it holds is final.
 *
 * @return 0, or -1 when some record is not in it (counted).
 */
int tp_record_close(struct tp_ctx *ctx);

/** Drain what is queued, close the log, free the ring. Idempotent. */
void tp_record_free(struct tp_ctx *ctx);

/** True when some sink takes records; otherwise none is built. */
bool tp_record_wanted(const struct tp_ctx *ctx);

/**
 * Build the record of a flow whose last reference is gone, in lc's stage;
 * a full stage goes on the ring (tp_record_flush()).
 */
void tp_record_push(struct tp_ctx *ctx, struct tp_lcore *lc,
		    const struct tp_flow *f, enum tp_end_reason reason);

/**
 * Put lc's staged records on the ring: every lcore that ends flows calls
 * it once per loop and before it returns. While the ring is full
 * (counting ctx->rec.ring_full) it drains the ring itself: on the main
 * lcore unless the writer service runs, on any lcore through an
 * iteration of the service while it runs; waits only while another
 * lcore is inside.
 */
void tp_record_flush(struct tp_ctx *ctx, struct tp_lcore *lc);

/**
 * Hand one drained record to every sink (main lcore). The one place a
 * record leaves the pipeline: an exporter is called here.
 */
void tp_record_emit(struct tp_ctx *ctx, const struct tp_flow_record *r);

/**
 * Flow log lines the lcores that ended their flows formatted themselves
 * while the writer lagged (the counter record_lines_early). Any thread.
 */
uint64_t tp_record_lines_early(const struct tp_ctx *ctx);

/**
 * Records the sinks take now without counting any as not sent: room in
 * the IPFIX queue less the records built and not yet handed to it
 * (staged, on the ring or being drained; UINT32_MAX when no sink can
 * refuse one; the flow log writes each record in place).
 */
uint32_t tp_record_room(const struct tp_ctx *ctx);

/**
 * Main lcore: drain the ring through tp_record_emit(), unless the record
 * writer service runs (it drains then).
 *
 * @return Records drained.
 */
unsigned int tp_record_drain(struct tp_ctx *ctx);

/**
 * Register the record writer service, stopped, when some sink takes
 * records (rec.service_on). Each call drains the ring and flushes the flow
 * log every 10 ms. The caller maps it to a service lcore (its id in
 * rec.service_id), then calls tp_record_service_start().
 *
 * @return 0, or a negative errno (logged).
 */
int tp_record_service_register(struct tp_ctx *ctx);

/**
 * Start the registered writer: from now on only it drains the ring.
 *
 * @return 0 (also with no service), or a negative errno (logged).
 */
int tp_record_service_start(struct tp_ctx *ctx);

/**
 * Stop the writer and wait until it has left its last call; the main
 * lcore drains from then on. Idempotent.
 */
void tp_record_service_stop(struct tp_ctx *ctx);

#endif /* _TP_RECORD_H_ */
