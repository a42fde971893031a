/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Flow records (see tp_record.h): built by whoever drops a flow's last
 * reference, queued on a ring, drained into the sinks (--flow-log, CSV or
 * JSON lines, through a tp_sink that counts what reached the file; the
 * IPFIX exporter) by one thread at a time: the record writer service while
 * it runs (rec.writer_running; on its service lcore, or on an lcore
 * that finds the ring full: DPDK's service lock lets one in at a time),
 * the main lcore before and after.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "tp_ctx.h"
#include "records/tp_ipfix.h"
#include "records/tp_output.h"
#include "records/tp_record_line.h"
#include "records/tp_record_text.h"
#include "records/tp_sink.h"
#include "records/tp_record.h"
#include "setup/tp_replay.h"
#include "setup/tp_service.h"

#define TP_RECORD_RING_SIZE 65536
#define TP_DRAIN_BURST 64
#define TP_WRITER_ROUND 16	/* the writer service's round, unless it lags */
#define TP_LOG_BUF (256 * 1024)	/* the flow log's buffer */
#define TP_LOG_WRITE_WALL (64 * 1024) /* its writes by the service, wall clock */
#define TP_WRITER_FLUSH_MS 10	/* the writer service's flush period */
#define TP_WRITER_IDLE_US 100	/* its sleep when idle, alone on its lcore */
/* A producing lcore's own flow log lines (tp_record_stage_encode()). */
#define TP_RECORD_TEXT_SIZE (16u << 20)

/*
 * Each lcore that ends flows (RX, worker, control) gets room for lines
 * it formats itself when the writer lags (tp_record_stage_encode()).
 * Without it (out of memory) the writer formats them all, as it would.
 */
static void
tp_record_text_init(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;
	unsigned int id;

	RTE_BUILD_BUG_ON(RTE_MAX_LCORE > UINT8_MAX + 1);
	RTE_LCORE_FOREACH(id) {
		if ((ctx->lc[id].roles & TP_ROLES_FLOWS) == 0)
			continue;
		rec->stage[id]->text = tp_record_text_create(
			TP_RECORD_TEXT_SIZE, TP_LOG_LINE_MAX);
	}
}

int
tp_record_init(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;
	const struct tp_config *cfg = ctx->cfg;
	unsigned int id;
	int ret;

	/* A ring element is a whole number of 4-byte words; the pads are
	 * explicit, so no byte of a record is left unset.
	 */
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_record) % 4 != 0);
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_record) != 144);
	RTE_BUILD_BUG_ON(TP_END_MAX > UINT8_MAX);
	rec->ring = rte_ring_create_elem("tp_records",
					 sizeof(struct tp_flow_record),
					 TP_RECORD_RING_SIZE, rte_socket_id(),
					 RING_F_SC_DEQ);
	if (rec->ring == NULL) {
		TP_LOG(ERR, "cannot create the record ring: %s",
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	RTE_LCORE_FOREACH(id) {
		rec->stage[id] = rte_zmalloc_socket("tp_record_stage",
						    sizeof(*rec->stage[id]),
						    RTE_CACHE_LINE_SIZE,
						    (int)rte_lcore_to_socket_id(id));
		if (rec->stage[id] == NULL) {
			TP_LOG(ERR, "out of memory for lcore %u's records", id);
			tp_record_free(ctx);
			return -ENOMEM;
		}
		rec->stage[id]->lcore = (uint8_t)id;
	}
	/* the clock of the records */
	tp_replay_clock_init(&ctx->replay, cfg->replay_pace, ctx->eth.ports,
			     ctx->eth.nb_ports);
	if (cfg->flow_log[0] == '\0')
		return 0;
	/* Checked before EAL (tp_preflight.c); the open checks again. */
	ret = tp_sink_open(&rec->log, "--flow-log", cfg->flow_log,
			   TP_LOG_BUF, (off_t)cfg->file_cache_mb << 20);
	if (ret < 0) {
		tp_record_free(ctx);
		return ret;
	}
	rec->log_on = true;
	tp_record_text_init(ctx);
	if (cfg->log_format == TP_LOG_CSV) {
		char hdr[TP_LOG_LINE_MAX];

		tp_sink_put(&rec->log, hdr,
			    tp_record_line_csv_header(hdr, sizeof(hdr)), 0);
	}
	return 0;
}

int
tp_record_close(struct tp_ctx *ctx)
{
	return ctx->rec.log_on ? tp_sink_close(&ctx->rec.log) : 0;
}

void
tp_record_free(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;
	unsigned int id;

	tp_record_service_stop(ctx);
	if (rec->service_on) {
		rte_service_component_unregister(rec->service_id);
		rec->service_on = false;
	}
	if (rec->ring != NULL)
		tp_record_drain(ctx);
	tp_record_close(ctx);
	rte_ring_free(rec->ring);
	rec->ring = NULL;
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		/* Every lcore flushed its records before it returned. */
		RTE_ASSERT(rec->stage[id] == NULL || rec->stage[id]->n == 0);
		if (rec->stage[id] != NULL)
			tp_record_text_free(rec->stage[id]->text);
		rte_free(rec->stage[id]);
		rec->stage[id] = NULL;
	}
}

bool
tp_record_wanted(const struct tp_ctx *ctx)
{
	return ctx->rec.log_on || ctx->ipfix != NULL;
}

/* A time in the record clock -> ns since the epoch (tp_replay.h). */
static inline uint64_t
tp_record_ns(const struct tp_ctx *ctx, uint64_t ts)
{
	return tp_replay_ts_to_ns(&ctx->replay, ts, ctx->start_ns,
				  ctx->start_tsc, ctx->hz);
}

/*
 * The writer lags (the ring is more than half full): this lcore formats
 * the flow log lines of its staged records from the first not yet looked
 * at, into its own text, while there is room (tp_record_text.h); the
 * writer only copies them. That is the end of a SYN scan's capture: a
 * million flows end at once, and the writer alone would take twice as
 * long as the lcore ending them.
 */
static void
tp_record_stage_encode(struct tp_ctx *ctx, struct tp_record_stage *st)
{
	const enum tp_log_format fmt = ctx->cfg->log_format;
	struct tp_flow_record *r;
	char *p;
	int n;

	for (; st->encoded < st->n; st->encoded++) {
		r = &st->r[st->encoded];
		p = tp_record_text_reserve(st->text, TP_LOG_LINE_MAX);
		if (p == NULL)
			return;		/* the writer formats the rest */
		n = TP_STAGE_RET(ENCODE, 1, tp_record_line_format(p,
						TP_LOG_LINE_MAX, fmt, r));
		RTE_ASSERT(n > 0 && n < TP_LOG_LINE_MAX);
		if (n <= 0 || n >= TP_LOG_LINE_MAX)
			continue;	/* cannot happen: the writer tries */
		tp_record_text_commit(st->text, (uint32_t)n);
		__atomic_store_n(&st->early, st->early + 1, __ATOMIC_RELAXED);
		r->text = 1;
		r->text_lcore = st->lcore;
		r->text_len = (uint32_t)n;
	}
}

/* The writer lags: the ring is more than half full. */
static inline bool
tp_record_lags(const struct tp_records *rec)
{
	return rte_ring_free_count(rec->ring) < TP_RECORD_RING_SIZE / 2;
}

/*
 * Put an lcore's staged records on the ring, in one burst when there is
 * room; while the ring is full (counted), drain it here: the main lcore
 * itself before and after the writer service runs, and while it runs,
 * any lcore by an iteration of the service (tp_service_help()), which
 * the service lcore may be too busy with the adapter's and the
 * scheduler's services to give it (the end of a SYN scan's capture:
 * a million expiries at once). Wait only while another lcore is in it.
 * First, while the writer lags, format their lines here.
 */
static void
tp_record_stage_flush(struct tp_ctx *ctx, struct tp_record_stage *st)
{
	struct tp_records *rec = &ctx->rec;
	unsigned int done = 0;

	if (st->text != NULL && tp_record_lags(rec))
		tp_record_stage_encode(ctx, st);
	while (done < st->n) {
		done += rte_ring_mp_enqueue_burst_elem(rec->ring,
						       &st->r[done],
						       sizeof(st->r[0]),
						       st->n - done, NULL);
		if (done == st->n)
			break;
		__atomic_fetch_add(&rec->ring_full, 1, __ATOMIC_RELAXED);
		if (!__atomic_load_n(&rec->writer_running, __ATOMIC_ACQUIRE)) {
			if (rte_lcore_id() != ctx->main_lcore ||
			    tp_record_drain(ctx) == 0)
				rte_pause();
		} else if (!tp_service_help(rec->service_id)) {
			rte_pause();
		}
	}
	st->n = 0;
	st->encoded = 0;
}

void
tp_record_flush(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	struct tp_record_stage *st = ctx->rec.stage[lc - ctx->lc];

	if (st != NULL && st->n != 0)
		tp_record_stage_flush(ctx, st);
}

/* Build the record of a flow whose last reference is gone. 8< */
void
tp_record_push(struct tp_ctx *ctx, struct tp_lcore *lc,
	       const struct tp_flow *f, enum tp_end_reason reason)
{
	struct tp_record_stage *st;
	struct tp_flow_record *r;
	const unsigned int a = f->init_lo ? 0 : 1;	/* initiator end */
	const uint8_t ipver = tp_key_ipver(f->key);
	const unsigned int alen = ipver == 4 ? 4 : 16;

	if (!tp_record_wanted(ctx))
		return;
	RTE_ASSERT(lc >= ctx->lc && lc < ctx->lc + RTE_MAX_LCORE);
	st = ctx->rec.stage[lc - ctx->lc];
	RTE_ASSERT(st != NULL && st->n < TP_RECORD_STAGE);
	r = &st->r[st->n];
	memset(r, 0, sizeof(*r));
	memcpy(r->src_addr, tp_key_addr(f->key, a), alen);
	memcpy(r->dst_addr, tp_key_addr(f->key, a ^ 1), alen);
	r->src_port = rte_be_to_cpu_16(f->key->port[a]);
	r->dst_port = rte_be_to_cpu_16(f->key->port[a ^ 1]);
	r->vlan[0] = f->key->vlan0;
	r->vlan[1] = f->key->vlan1;
	r->ipver = ipver;
	r->proto = f->key->proto;
	r->first_ns = tp_record_ns(ctx, f->first_ts);
	r->last_ns = tp_record_ns(ctx, RTE_MAX(f->last_ts[0],
					       f->last_ts[1]));
	/* Each direction's own first and last packet (--ipfix-flows uni). */
	r->dir_first_ns[0] = r->first_ns;
	r->dir_last_ns[0] = tp_record_ns(ctx, f->last_ts[0]);
	if (f->pkts[1] > 0) {
		r->dir_first_ns[1] = tp_record_ns(ctx, f->rev_first_ts);
		r->dir_last_ns[1] = tp_record_ns(ctx, f->last_ts[1]);
	}
	memcpy(r->pkts, f->pkts, sizeof(r->pkts));
	memcpy(r->bytes, f->bytes, sizeof(r->bytes));
	memcpy(r->tcp_flags, f->tcp_flags, sizeof(r->tcp_flags));
	r->serial = f->serial;
	r->end_reason = reason;
	r->in_port = f->in_port;
	r->icmp_type_code = f->icmp_tc;
	__atomic_store_n(&st->built, st->built + 1, __ATOMIC_RELAXED);
	if (++st->n == TP_RECORD_STAGE)
		tp_record_stage_flush(ctx, st);
}
/* >8 End of building the record. */

/* A line into the flow log's sink, or counted there as not written. */
static void
tp_record_write(struct tp_sink *log, enum tp_log_format fmt,
		const struct tp_flow_record *r)
{
	char *p = tp_sink_reserve(log, TP_LOG_LINE_MAX);
	int n = 0;

	if (p != NULL) {
		n = tp_record_line_format(p, TP_LOG_LINE_MAX, fmt, r);
		RTE_ASSERT(n > 0 && n < TP_LOG_LINE_MAX);
		if (n < 0 || n >= TP_LOG_LINE_MAX)
			n = 0;	/* cannot happen: counted as not written */
	}
	tp_sink_commit(log, (size_t)n, 1);
}

void
tp_record_emit(struct tp_ctx *ctx, const struct tp_flow_record *r)
{
	struct tp_record_text *t;

	if (r->text) {
		/* Its producer formatted it (tp_record_stage_encode()). */
		t = ctx->rec.stage[r->text_lcore]->text;
		tp_sink_put(&ctx->rec.log, tp_record_text_next(t,
			    TP_LOG_LINE_MAX), r->text_len, 1);
		tp_record_text_release(t, TP_LOG_LINE_MAX, r->text_len);
	} else if (ctx->rec.log_on) {
		TP_STAGE_RUN(ENCODE, 1, tp_record_write(&ctx->rec.log,
					ctx->cfg->log_format, r));
	}
	if (ctx->ipfix != NULL)
		tp_ipfix_submit(ctx->ipfix, r);
}

/*
 * Records built and not yet handed to the sinks: staged, on the ring, or
 * in the drainer's hands. Read on the main lcore; emitted is read first,
 * so the figure is never short.
 */
static uint64_t
tp_record_in_flight(const struct tp_ctx *ctx)
{
	const struct tp_records *rec = &ctx->rec;
	uint64_t emitted = __atomic_load_n(&rec->emitted, __ATOMIC_ACQUIRE);
	uint64_t built = 0;
	unsigned int id;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		if (rec->stage[id] != NULL)
			built += __atomic_load_n(&rec->stage[id]->built,
						 __ATOMIC_ACQUIRE);
	return built > emitted ? built - emitted : 0;
}

uint64_t
tp_record_lines_early(const struct tp_ctx *ctx)
{
	uint64_t n = 0;
	unsigned int id;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		if (ctx->rec.stage[id] != NULL)
			n += __atomic_load_n(&ctx->rec.stage[id]->early,
					     __ATOMIC_RELAXED);
	return n;
}

uint32_t
tp_record_room(const struct tp_ctx *ctx)
{
	uint32_t room = tp_ipfix_room(ctx->ipfix);
	uint64_t queued;

	if (room == UINT32_MAX || ctx->rec.ring == NULL)
		return room;
	queued = tp_record_in_flight(ctx);
	return room > queued ? room - (uint32_t)queued : 0;
}

/* The ring's consumer: hand queued records to the sinks, at most
 * max_bursts bursts of 'burst' (at most TP_DRAIN_BURST).
 */
static unsigned int
tp_record_drain_ring(struct tp_ctx *ctx, unsigned int burst,
		     unsigned int max_bursts)
{
	struct tp_flow_record r[TP_DRAIN_BURST];
	struct tp_records *rec = &ctx->rec;
	unsigned int n, i, total = 0;

	RTE_ASSERT(burst > 0 && burst <= TP_DRAIN_BURST);
	do {
		n = rte_ring_sc_dequeue_burst_elem(rec->ring, r, sizeof(r[0]),
						   burst, NULL);
		for (i = 0; i < n; i++)
			tp_record_emit(ctx, &r[i]);
		__atomic_store_n(&rec->emitted, rec->emitted + n,
				 __ATOMIC_RELEASE);
		total += n;
	} while (n == burst && --max_bursts > 0);
	return total;
}

/* Main lcore: drain, unless the writer service does. */
unsigned int
tp_record_drain(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;
	unsigned int total;

	if (__atomic_load_n(&rec->writer_running, __ATOMIC_ACQUIRE))
		return 0;
	total = tp_record_drain_ring(ctx, TP_DRAIN_BURST, UINT_MAX);
	if (total > 0 && rec->log_on)
		tp_sink_flush(&rec->log);
	return total;
}

/*
 * The record writer: the ring drained on a service lcore, so that
 * formatting and writing records takes no time from the lcores that read
 * packets and end flows. The flow log is written every
 * TP_WRITER_FLUSH_MS, or when its buffer fills.
 */
static int32_t
tp_record_service_run(void *arg)
{
	struct tp_ctx *ctx = arg;
	struct tp_records *rec = &ctx->rec;
	unsigned int n;
	uint64_t now;

#ifdef TP_STAGE_CYCLES
	/* Its stages count as the service lcore's. */
	if (unlikely(RTE_PER_LCORE(tp_stage_self) == NULL))
		RTE_PER_LCORE(tp_stage_self) = &ctx->lc[rte_lcore_id()].stages;
#endif
	/* One round a call: the adapter's and the scheduler's services
	 * may share the lcore, and a flood must not hold them off. A round
	 * of TP_DRAIN_BURST records (50 us and more while a flow log on
	 * tmpfs takes fresh pages) left a flood's expiries late: short
	 * rounds, but whole bursts while the writer lags.
	 */
	n = tp_record_drain_ring(ctx, tp_record_lags(rec) ? TP_DRAIN_BURST :
				 TP_WRITER_ROUND, 1);
	now = rte_get_timer_cycles();

	if (now >= rec->flush_tsc) {
		if (rec->log_on)
			tp_sink_flush(&rec->log);
		rec->flush_tsc = now + ctx->hz / 1000 * TP_WRITER_FLUSH_MS;
	}
	if (n > 0) {
		/* --fault-writer-delay-us (testing aid): a slow sink, so
		 * that the writer lags and paces RX.
		 */
		if (unlikely(ctx->cfg->fault_writer_delay_us != 0))
			rte_delay_us_block(ctx->cfg->fault_writer_delay_us);
		return 0;
	}
	/* Nothing queued, and no other service runs on this service lcore
	 * (the capture clock runs the adapter's and the scheduler's on its
	 * own lcore; a capture's read-ahead stops at the capture's end):
	 * give the CPU back for a while rather than spin on it.
	 */
	if (tp_service_may_sleep(rec->service_id))
		rte_delay_us_sleep(TP_WRITER_IDLE_US);
	return -EAGAIN;
}

int
tp_record_service_register(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;
	int ret;

	if (!tp_record_wanted(ctx))
		return 0;
	ret = tp_service_register(&rec->service_id, tp_record_service_run,
				  ctx, "record writer", "tp_record_writer");
	if (ret < 0)
		return ret;
	rec->service_on = true;
	return 0;
}

int
tp_record_service_start(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;
	int ret;

	if (!rec->service_on)
		return 0;
	/* On the wall clock the service shares its lcore with the adapter's
	 * (main.c): shorter writes hold it less long. The capture clock's
	 * ageing writes whole buffers: each write() of a file on disk costs
	 * some 13 us more than the copy (64-KB writes took a 1M-flow SYN
	 * scan's flow log 50 ms longer).
	 */
	if (!ctx->clk.on && rec->log_on)
		tp_sink_set_limit(&rec->log, TP_LOG_WRITE_WALL);
	/* From here on only the service drains. */
	__atomic_store_n(&rec->writer_running, true, __ATOMIC_RELEASE);
	ret = rte_service_component_runstate_set(rec->service_id, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(rec->service_id, 1);
	if (ret < 0) {
		__atomic_store_n(&rec->writer_running, false,
				 __ATOMIC_RELEASE);
		TP_LOG(ERR, "cannot start the record writer service: %s",
		       strerror(-ret));
	}
	return ret;
}

void
tp_record_service_stop(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;

	if (!rec->service_on ||
	    !__atomic_load_n(&rec->writer_running, __ATOMIC_ACQUIRE))
		return;
	rte_service_runstate_set(rec->service_id, 0);
	rte_service_component_runstate_set(rec->service_id, 0);
	/* It may be inside a call: the main lcore drains once it left. */
	while (rte_service_may_be_active(rec->service_id) == 1)
		rte_pause();
	/* What it wrote to the ring and the sinks is seen from here on. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	__atomic_store_n(&rec->writer_running, false, __ATOMIC_RELAXED);
}
