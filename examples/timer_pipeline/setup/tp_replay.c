/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Capture time (see tp_replay.h): the RX timestamp field, the choice of the
 * record clock, and replay pace. The mapping of capture time onto the TSC
 * is fixed by the first packet any RX lcore sees (CAS on base_cap_ns, then
 * base_tsc published with release; the others wait for it).
 */

#include <stdbool.h>
#include <string.h>

#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_mbuf_dyn.h>
#include <rte_pause.h>

#include "tp_ctx.h"
#include "datapath/tp_pkt.h"
#include "setup/tp_replay.h"

int
tp_replay_fields_register(struct tp_ctx *ctx)
{
	int ret;

	ctx->replay.ts_offset = -1;
	ret = rte_mbuf_dyn_rx_timestamp_register(&ctx->replay.ts_offset,
						 &ctx->replay.ts_flag);
	if (ret < 0 && (ctx->cfg->replay_pace ||
			ctx->cfg->clock == TP_CLOCK_CAPTURE)) {
		TP_LOG(ERR, "cannot register the RX timestamp field");
		return ret;
	}
	/* net_pcap stores the capture time in microseconds. */
	ctx->replay.ts_unit_ns = 1000;
	return 0;
}

/*
 * Record times are the capture's own timestamps when every port reads a
 * capture (net_pcap), paced or not, as softflowd -r does: a flow from a
 * capture ends when the capture says, not when it was read. Otherwise
 * they are the TSC, converted with the wall clock at launch. net_pcap's
 * infinite_rx replays mbufs without timestamps: TSC (no per-packet
 * conversion on the forwarding benchmark's path).
 */
static bool
tp_replay_capture_clock(const struct tp_ctx *ctx)
{
	const struct rte_devargs *da;
	struct rte_eth_dev_info info;
	uint16_t i;

	if (ctx->cfg->replay_pace)
		return true;
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		if (rte_eth_dev_info_get(ctx->eth.ports[i], &info) != 0 ||
		    info.device == NULL ||
		    strcmp(info.driver_name, "net_pcap") != 0)
			return false;
		da = rte_dev_devargs(info.device);
		if (da != NULL && da->args != NULL &&
		    strstr(da->args, "infinite_rx=1") != NULL)
			return false;
	}
	return ctx->eth.nb_ports > 0;
}

void
tp_replay_clock_init(struct tp_ctx *ctx)
{
	ctx->replay.cap_clock = tp_replay_capture_clock(ctx);
}

/* The first packet fixes the mapping capture time -> TSC. */
static void
tp_replay_start(struct tp_ctx *ctx, uint64_t cap_ns, uint64_t now)
{
	struct tp_replay *rp = &ctx->replay;
	uint64_t zero = 0;

	if (__atomic_compare_exchange_n(&rp->base_cap_ns, &zero, cap_ns, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		__atomic_store_n(&rp->base_tsc, now, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&rp->base_tsc, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
}

/* When a packet is due under --replay-pace (TSC). */
static __rte_always_inline uint64_t
tp_replay_due(struct tp_ctx *ctx, uint64_t cap_ns, uint64_t now)
{
	struct tp_replay *rp = &ctx->replay;

	if (cap_ns == 0)
		return now;
	if (unlikely(__atomic_load_n(&rp->base_tsc, __ATOMIC_ACQUIRE) == 0))
		tp_replay_start(ctx, cap_ns, now);
	if (cap_ns <= rp->base_cap_ns)
		return rp->base_tsc;
	/* --replay-speed X: X times faster than recorded. */
	return rp->base_tsc + tp_ns_to_cycles((cap_ns - rp->base_cap_ns) /
					      ctx->cfg->replay_speed, ctx->hz);
}

/* Replay pace: hand out stashed packets once their time has come. 8< */
uint16_t
tp_replay_fetch(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_rxq *q,
		struct rte_mbuf **pkts, uint16_t burst, uint64_t now)
{
	const uint32_t before = q->stash_nb - q->stash_head;
	uint16_t n = 0;

	if (q->stash_head == q->stash_nb) {
		q->stash_head = 0;
		q->stash_nb = rte_eth_rx_burst(q->port, q->queue, q->stash,
					       burst);
	}
	while (q->stash_head < q->stash_nb) {
		struct rte_mbuf *m = q->stash[q->stash_head];

		if (now < tp_replay_due(ctx, tp_replay_cap_ns(ctx, m), now))
			break;
		pkts[n++] = m;
		q->stash_head++;
	}
	/* Read by the control role: the input is not over yet. */
	__atomic_store_n(&lc->stashed, lc->stashed + (q->stash_nb -
			 q->stash_head) - before, __ATOMIC_RELAXED);
	return n;
}
/* >8 End of replay pace. */
