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

#include "tp_log.h"
#include "datapath/tp_lcore_types.h"
#include "setup/tp_replay.h"

int
tp_replay_fields_register(struct tp_replay *rp, bool needed)
{
	int ret;

	rp->ts_offset = -1;
	ret = rte_mbuf_dyn_rx_timestamp_register(&rp->ts_offset,
						 &rp->ts_flag);
	if (ret < 0 && needed) {
		TP_LOG(ERR, "cannot register the RX timestamp field");
		return ret;
	}
	/* net_pcap stores the capture time in microseconds. */
	rp->ts_unit_ns = 1000;
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
tp_replay_capture_clock(bool pace, const uint16_t *ports, uint16_t nb_ports)
{
	const struct rte_devargs *da;
	struct rte_eth_dev_info info;
	uint16_t i;

	if (pace)
		return true;
	for (i = 0; i < nb_ports; i++) {
		if (rte_eth_dev_info_get(ports[i], &info) != 0 ||
		    info.device == NULL ||
		    strcmp(info.driver_name, "net_pcap") != 0)
			return false;
		da = rte_dev_devargs(info.device);
		if (da != NULL && da->args != NULL &&
		    strstr(da->args, "infinite_rx=1") != NULL)
			return false;
	}
	return nb_ports > 0;
}

void
tp_replay_clock_init(struct tp_replay *rp, bool pace, const uint16_t *ports,
		     uint16_t nb_ports)
{
	rp->cap_clock = tp_replay_capture_clock(pace, ports, nb_ports);
}

/* The first packet fixes the mapping capture time -> TSC. */
static void
tp_replay_start(struct tp_replay *rp, uint64_t cap_ns, uint64_t now)
{
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
tp_replay_due(struct tp_replay *rp, uint64_t cap_ns, uint64_t now,
	      uint32_t speed, uint64_t hz)
{
	if (cap_ns == 0)
		return now;
	if (unlikely(__atomic_load_n(&rp->base_tsc, __ATOMIC_ACQUIRE) == 0))
		tp_replay_start(rp, cap_ns, now);
	if (cap_ns <= rp->base_cap_ns)
		return rp->base_tsc;
	/* --replay-speed X: X times faster than recorded. */
	return rp->base_tsc + ns_to_cycles((cap_ns - rp->base_cap_ns) / speed,
					   hz);
}

/* Replay pace: hand out stashed packets once their time has come. 8< */
uint16_t
tp_replay_fetch(struct tp_replay *rp, struct tp_lcore *lc, struct tp_rxq *q,
		struct rte_mbuf **pkts, uint16_t burst, uint64_t now,
		uint32_t speed, uint64_t hz)
{
	const uint32_t before = q->stash_nb - q->stash_head;
	uint16_t n = 0;

	if (q->stash_head == q->stash_nb) {
		q->stash_head = 0;
		TP_STAGE_BEGIN(RX_READ);
		q->stash_nb = rte_eth_rx_burst(q->port, q->queue, q->stash,
					       burst);
		TP_STAGE_END(q->stash_nb);
	}
	while (q->stash_head < q->stash_nb) {
		struct rte_mbuf *m = q->stash[q->stash_head];

		if (now < tp_replay_due(rp, tp_replay_cap_ns(rp, m), now,
					speed, hz))
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
