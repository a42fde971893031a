/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Control role (main lcore), every 10 ms: write flow records and traces,
 * return flow slots whose grace period passed, print the stats screen, and
 * drive the shutdown phases:
 *   RUN      -> RX_STOP  on a signal, --duration, or --stop-when-done;
 *   RX_STOP  -> FLUSH    once every RX lcore has stopped polling;
 *   FLUSH    -> STOP     once every live flow was forced to end and every
 *                        packet and timer event has been processed.
 */

#include <inttypes.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "tp_common.h"
#include "tp_lcore.h"
#include "tp_stats.h"

#define TP_CONTROL_MS 10
#define TP_FLUSH_CHUNK 8192		/* entries walked per call */
#define TP_DRAIN_TIMEOUT_S 10
#define TP_DONE_IDLE_MS 500

static void
tp_control_set_phase(struct tp_ctx *ctx, enum tp_phase phase, uint64_t now)
{
	ctx->phase_tsc = now;
	__atomic_store_n(&ctx->phase, phase, __ATOMIC_RELEASE);
}

/* Every packet and timer event consumed and every flow finalised. */
static bool
tp_control_drained(const struct tp_ctx *ctx)
{
	struct tp_lcore_stats t;
	uint64_t ended = 0;
	unsigned int r;

	tp_stats_sum(ctx, &t);
	for (r = 0; r < TP_END_MAX; r++)
		ended += t.flows_ended[r];
	return t.ev_enq == t.ev_deq_pkt && t.flows_created == ended &&
		t.tim_armed + t.tim_rearmed == t.tim_expired + t.tim_cancelled;
}

/* --stop-when-done: input over (RX idle, nothing stashed), flows aged. */
static bool
tp_control_done(struct tp_ctx *ctx, uint64_t now)
{
	struct tp_lcore_stats t;
	unsigned int id;

	tp_stats_sum(ctx, &t);
	if (t.rx_pkts != ctx->rx_seen) {
		ctx->rx_seen = t.rx_pkts;
		ctx->rx_change_tsc = now;
		return false;
	}
	if (t.rx_pkts == 0 ||
	    now - ctx->rx_change_tsc < ctx->hz / 1000 * TP_DONE_IDLE_MS ||
	    __atomic_load_n(&ctx->ft.nb_live, __ATOMIC_RELAXED) != 0)
		return false;
	for (id = 0; id < RTE_MAX_LCORE; id++)
		if (__atomic_load_n(&ctx->lc[id].stashed,
				    __ATOMIC_RELAXED) != 0)
			return false;
	return tp_control_drained(ctx);
}

static const char *
tp_control_stop_reason(struct tp_ctx *ctx, uint64_t now)
{
	const struct tp_config *cfg = ctx->cfg;

	if (tp_quit_signal != 0)
		return "signal";
	if (cfg->duration_s != 0 &&
	    now - ctx->start_tsc >= cfg->duration_s * ctx->hz)
		return "--duration reached";
	if (cfg->stop_when_done && tp_control_done(ctx, now)) {
		/* The aging benchmark reads this (within one control pass). */
		TP_LOG(INFO, "every flow ended %" PRIu64 " ms after the last "
		       "packet", (now - ctx->rx_change_tsc) * 1000 / ctx->hz);
		return "input done and every flow ended (--stop-when-done)";
	}
	return NULL;
}

static bool
tp_control_rx_stopped(const struct tp_ctx *ctx)
{
	unsigned int id;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		if ((ctx->lc[id].roles & TP_ROLE_RX) &&
		    __atomic_load_n(&ctx->lc[id].phase_ack, __ATOMIC_ACQUIRE) <
		    TP_PHASE_RX_STOP)
			return false;
	return true;
}

/* Shutdown phases. 8< */
static void
tp_control_phase(struct tp_ctx *ctx, struct tp_lcore *lc, uint64_t now)
{
	switch (ctx->phase) {
	case TP_PHASE_RUN:
		ctx->stop_reason = tp_control_stop_reason(ctx, now);
		if (ctx->stop_reason == NULL)
			break;
		TP_LOG(INFO, "stopping (%s): RX stops, live flows are flushed",
		       ctx->stop_reason);
		ctx->stop_tsc = now;
		tp_control_set_phase(ctx, TP_PHASE_RX_STOP, now);
		break;
	case TP_PHASE_RX_STOP:
		if (!tp_control_rx_stopped(ctx))
			break;
		ctx->flush_walk = 0;
		tp_control_set_phase(ctx, TP_PHASE_FLUSH, now);
		break;
	case TP_PHASE_FLUSH:
		/* Force every live flow to end (the walk also goes on
		 * between ticks, in tp_control_poll), then wait for the
		 * events and records still on their way.
		 */
		if (tp_flow_force_end(ctx, lc, TP_FLUSH_CHUNK) == 0 &&
		    tp_control_drained(ctx)) {
			TP_LOG(INFO, "flushed and drained %" PRIu64 " ms after "
			       "the stop request", tp_cycles_to_ns(now -
			       ctx->stop_tsc, ctx->hz) / 1000000);
			tp_control_set_phase(ctx, TP_PHASE_STOP, now);
			break;
		}
		if (now - ctx->phase_tsc > TP_DRAIN_TIMEOUT_S * ctx->hz) {
			TP_LOG(ERR, "events did not drain in %d s",
			       TP_DRAIN_TIMEOUT_S);
			ctx->aborted = true;
			tp_control_set_phase(ctx, TP_PHASE_STOP, now);
		}
		break;
	default:
		break;
	}
	if (tp_quit_signal >= 2 && ctx->phase < TP_PHASE_STOP) {
		TP_LOG(WARNING, "second signal: stopping at once, without "
		       "flushing flows");
		ctx->aborted = true;
		tp_control_set_phase(ctx, TP_PHASE_STOP, now);
	}
}
/* >8 End of shutdown phases. */

void
tp_control_poll(struct tp_ctx *ctx, struct tp_lcore *lc, uint64_t now)
{
	const uint64_t period = (uint64_t)ctx->cfg->stats_period_s * ctx->hz;

	/* The forced end walks the whole table, a chunk per call rather
	 * than per 10 ms tick: at one chunk per tick, a table of a million
	 * slots would take 1.6 s to walk, and a signal must be served in
	 * well under 2 s. Between chunks the loop polls the worker role.
	 */
	if (ctx->phase == TP_PHASE_FLUSH)
		tp_flow_force_end(ctx, lc, TP_FLUSH_CHUNK);
	if (now < ctx->ctl_next_tsc)
		return;
	ctx->ctl_next_tsc = now + ctx->hz / 1000 * TP_CONTROL_MS;
	tp_records_drain(ctx);
	tp_trace_drain(ctx);
	tp_flow_reclaim(ctx);
	if (period != 0 && now >= ctx->stats_next_tsc) {
		tp_stats_print(ctx, false);
		tp_stats_json_write(ctx, false);
		ctx->stats_next_tsc += period;
		if (ctx->stats_next_tsc < now)
			ctx->stats_next_tsc = now + period;
	}
	tp_control_phase(ctx, lc, now);
}
