/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Control role (main lcore), every 10 ms: write traces (and flow records
 * when no record writer service runs), return flow slots whose grace period passed, print the stats screen, and
 * drive the shutdown phases (whether the run is over asked every 1 ms
 * with --stop-when-done or --flush-at-eof):
 *   RUN      -> RX_STOP  on a signal, --duration, --stop-when-done or
 *                        --flush-at-eof;
 *   RX_STOP  -> FLUSH    once every RX lcore has stopped polling;
 *   FLUSH    -> STOP     once every live flow was forced to end and every
 *                        packet and timer event has been processed.
 */

#include <inttypes.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "setup/tp_clock.h"
#include "tp_ctx.h"
#include "reports/tp_counters.h"
#include "records/tp_trace.h"
#include "datapath/tp_control.h"
#include "datapath/tp_flow_table.h"
#include "records/tp_record.h"
#include "reports/tp_stats_screen.h"
#include "reports/tp_stats_json.h"
#include "reports/tp_summary.h"

#define TP_CONTROL_MS 10
/*
 * With --stop-when-done or --flush-at-eof, whether the run is over is
 * asked every TP_STOP_CHECK_US instead, the rest of the tick's work
 * staying per TP_CONTROL_MS: the end of a short capture's run waited up
 * to two ticks for it (about 17 ms of a 10-packet capture's 170), and
 * each run's end half a tick on average. A check is a sum of the
 * counters and a read of the ports' (a few microseconds, a few tenths of
 * a percent of the main lcore's time).
 */
#define TP_STOP_CHECK_US 1000
#define TP_FLUSH_CHUNK 8192		/* entries walked per call */
#define TP_DRAIN_TIMEOUT_S 10
/* How long the forced end waits for room in the record sinks. */
#define TP_FLUSH_WAIT_SIGNAL_MS 1000	/* inside the 2-s exit budget */
#define TP_FLUSH_WAIT_MS 8000		/* below TP_DRAIN_TIMEOUT_S */

static void
tp_control_set_phase(struct tp_ctx *ctx, enum tp_phase phase, uint64_t now)
{
	ctx->ctl.phase_tsc = now;
	__atomic_store_n(&ctx->phase, phase, __ATOMIC_RELEASE);
}

/* Every packet and timer event consumed and every flow finalised. */
static bool
tp_control_drained(const struct tp_lcore_stats *t)
{
	uint64_t ended = 0;
	unsigned int r;

	for (r = 0; r < TP_END_MAX; r++)
		ended += t->flows_ended[r];
	return t->ev_enq == t->ev_deq_pkt && t->flows_created == ended &&
		t->tim_armed + t->tim_rearmed ==
		t->tim_expired + t->tim_cancelled;
}

/* The same, on counters summed now (the flush phase has none at hand). */
static bool
tp_control_drained_now(const struct tp_ctx *ctx)
{
	struct tp_lcore_stats t;

	tp_counters_sum(ctx, &t);
	return tp_control_drained(&t);
}

/*
 * Every capture read to its end: net_pcap's counters reached the packets
 * the capture check counted (a packet it could not give an mbuf is read
 * and lost, counted rx_nombuf), and the RX lcores counted every packet
 * net_pcap delivered, so none is still in an RX lcore's hands.
 */
static bool
tp_control_captures_read(const struct tp_ctx *ctx, uint64_t rx_counted)
{
	struct rte_eth_stats es;
	uint64_t delivered = 0;
	uint16_t i, port;

	if (!ctx->input.input_ends)
		return false;
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		port = ctx->eth.ports[i];
		if (rte_eth_stats_get(port, &es) != 0 ||
		    es.ipackets + es.rx_nombuf + es.ierrors <
		    ctx->eth.port_eof_pkts[port])
			return false;
		delivered += es.ipackets;
	}
	return rx_counted >= delivered;
}

/*
 * Input over, nothing stashed: every capture read (and no packet counted
 * since the last pass), or RX silent for eof_quiet_ns (a live interface;
 * a capture whose end the counters missed), not counting the time RX
 * skipped its polls for expiries.
 */
static bool
tp_control_input_done(struct tp_ctx *ctx, const struct tp_lcore_stats *t,
		      uint64_t now)
{
	unsigned int id;

	if (t->rx_pkts != ctx->ctl.rx_seen) {
		ctx->ctl.rx_seen = t->rx_pkts;
		ctx->ctl.rx_change_tsc = now;
		return false;
	}
	/* --clock capture: the clock must first go as far as it can. */
	if (!tp_clock_at_end(ctx))
		return false;
	if (!tp_control_captures_read(ctx, t->rx_pkts)) {
		/* An RX lcore that skipped polls (the inline path: expiries
		 * come first) did not hear its input fall silent.
		 */
		const uint64_t skips = t->rx_yield_polls +
			t->rx_held_polls + t->rx_paced_polls +
			t->rx_spread_polls;

		if (skips != ctx->ctl.rx_skips_seen) {
			ctx->ctl.rx_skips_seen = skips;
			ctx->ctl.rx_change_tsc = now;
		}
		if (t->rx_pkts == 0 || now - ctx->ctl.rx_change_tsc <
		    tp_ns_to_cycles(ctx->input.eof_quiet_ns, ctx->hz))
			return false;
	}
	for (id = 0; id < RTE_MAX_LCORE; id++)
		if (__atomic_load_n(&ctx->lc[id].stashed,
				    __ATOMIC_RELAXED) != 0)
			return false;
	return true;
}

static const char *
tp_control_stop_reason(struct tp_ctx *ctx, uint64_t now)
{
	const struct tp_config *cfg = ctx->cfg;
	struct tp_lcore_stats t;

	if (tp_quit_signal != 0)
		return "signal";
	if (cfg->duration_s != 0 &&
	    now - ctx->start_tsc >= cfg->duration_s * ctx->hz)
		return "--duration reached";
	if (!cfg->stop_when_done && !cfg->flush_at_eof)
		return NULL;
	tp_counters_sum(ctx, &t);
	if (!tp_control_input_done(ctx, &t, now))
		return NULL;
	if (cfg->flush_at_eof)
		return "every capture read (--flush-at-eof)";
	if (__atomic_load_n(&ctx->ft.nb_live, __ATOMIC_RELAXED) == 0 &&
	    tp_control_drained(&t)) {
		/* The aging benchmark reads this (within one control pass). */
		TP_LOG(INFO, "every flow ended %" PRIu64 " ms after the last "
		       "packet", (now - ctx->ctl.rx_change_tsc) * 1000 / ctx->hz);
		return "input done and every flow ended (--stop-when-done)";
	}
	return NULL;
}

/*
 * The forced end, a chunk per call, no faster than the record sinks take
 * records: a flush of a large table would otherwise find the IPFIX queue
 * full and count most of its records as not sent. Past the wait (after a
 * signal, what fits the 2-s exit budget) the walk goes on regardless, and
 * a record that finds the queue full is counted as not sent.
 */
static uint32_t
tp_control_flush(struct tp_ctx *ctx, struct tp_lcore *lc, uint64_t now)
{
	uint64_t wait_ms = tp_quit_signal != 0 ? TP_FLUSH_WAIT_SIGNAL_MS :
		TP_FLUSH_WAIT_MS;
	uint32_t n = TP_FLUSH_CHUNK, left;

	if (now - ctx->ctl.stop_tsc < ctx->hz / 1000 * wait_ms)
		n = RTE_MIN(n, tp_record_room(ctx));
	left = tp_flow_force_end(ctx, lc, n, tp_flow_table_top(ctx));
	if (n > 0)
		tp_record_drain(ctx);
	return left;
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
		ctx->ctl.stop_reason = tp_control_stop_reason(ctx, now);
		if (ctx->ctl.stop_reason == NULL)
			break;
		TP_LOG(INFO, "stopping (%s): RX stops, live flows are flushed",
		       ctx->ctl.stop_reason);
		ctx->ctl.stop_tsc = now;
		tp_control_set_phase(ctx, TP_PHASE_RX_STOP, now);
		break;
	case TP_PHASE_RX_STOP:
		if (!tp_control_rx_stopped(ctx))
			break;
		/* No more clock moves: the service lcore drains. */
		tp_clock_release(ctx);
		/* No RX lcore looks a key up again. */
		tp_flow_table_close(ctx);
		ctx->flush_walk = 0;
		tp_control_set_phase(ctx, TP_PHASE_FLUSH, now);
		break;
	case TP_PHASE_FLUSH:
		/* Force every live flow to end, a chunk per call (every
		 * call of tp_control_poll while stopping), then wait for the
		 * events and records still on their way.
		 */
		if (tp_control_flush(ctx, lc, now) == 0 &&
		    tp_control_drained_now(ctx)) {
			TP_LOG(INFO, "flushed and drained %" PRIu64 " ms after "
			       "the stop request", tp_cycles_to_ns(now -
			       ctx->ctl.stop_tsc, ctx->hz) / 1000000);
			tp_control_set_phase(ctx, TP_PHASE_STOP, now);
			break;
		}
		if (now - ctx->ctl.phase_tsc > TP_DRAIN_TIMEOUT_S * ctx->hz) {
			TP_LOG(ERR, "events did not drain in %d s",
			       TP_DRAIN_TIMEOUT_S);
			ctx->ctl.aborted = true;
			tp_control_set_phase(ctx, TP_PHASE_STOP, now);
		}
		break;
	default:
		break;
	}
	if (tp_quit_signal >= 2 && ctx->phase < TP_PHASE_STOP) {
		TP_LOG(WARNING, "second signal: stopping at once, without "
		       "flushing flows");
		ctx->ctl.aborted = true;
		tp_control_set_phase(ctx, TP_PHASE_STOP, now);
	}
}
/* >8 End of shutdown phases. */

void
tp_control_poll(struct tp_ctx *ctx, struct tp_lcore *lc, uint64_t now)
{
	const uint64_t period = (uint64_t)ctx->cfg->stats_period_s * ctx->hz;

	/* Stopping, the phases are served at every call, not per 10 ms
	 * tick: each follows the one before as soon as it can (two ticks
	 * were 20 ms of each run's exit), and the forced end walks the
	 * whole table a chunk per call (at one chunk per tick, a table of a
	 * million slots would take 1.6 s to walk, and a signal must be
	 * served in well under 2 s). Between chunks the loop polls the
	 * worker role.
	 */
	if (now < ctx->ctl.ctl_next_tsc) {
		if (ctx->phase > TP_PHASE_RUN && ctx->phase < TP_PHASE_STOP)
			tp_control_phase(ctx, lc, now);
		else if (ctx->phase == TP_PHASE_RUN &&
			 now >= ctx->ctl.stop_check_tsc &&
			 (ctx->cfg->stop_when_done || ctx->cfg->flush_at_eof)) {
			ctx->ctl.stop_check_tsc = now + ctx->hz / 1000000 *
				TP_STOP_CHECK_US;
			tp_control_phase(ctx, lc, now);
		}
		return;
	}
	ctx->ctl.ctl_next_tsc = now + ctx->hz / 1000 * TP_CONTROL_MS;
	ctx->ctl.stop_check_tsc = now + ctx->hz / 1000000 * TP_STOP_CHECK_US;
	tp_record_drain(ctx);
	tp_trace_drain(ctx);
	tp_flow_reclaim(ctx);
	if (period != 0 && now >= ctx->ctl.stats_next_tsc) {
		tp_stats_screen_print(ctx, false);
		tp_stats_json_write(ctx, false);
		ctx->ctl.stats_next_tsc += period;
		if (ctx->ctl.stats_next_tsc < now)
			ctx->ctl.stats_next_tsc = now + period;
	}
	tp_control_phase(ctx, lc, now);
}
