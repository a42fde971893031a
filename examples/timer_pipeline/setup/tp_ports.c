/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Ethdev ports: selection by portmask, forwarding pairs, the mbuf pool
 * (sized for rings, events in flight and, for net_pcap infinite_rx, the
 * whole capture per queue), RX queues with RSS where the port has it,
 * start, link wait and stop; at the end, whether each net_pcap tx_pcap
 * file holds every frame sent to it.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>

#include "setup/tp_capture.h"
#include "tp_ctx.h"
#include "datapath/tp_pkt.h"
#include "datapath/tp_rx_wire.h"
#include "datapath/tp_rx_ahead.h"
#include "setup/tp_live.h"
#include "setup/tp_ports.h"
#include "setup/tp_replay.h"

#define TP_MEMPOOL_CACHE 256
#define TP_MIN_MBUFS 8192

static uint64_t
tp_port_capture_records(const char *feed)
{
	const struct tp_capture *cap = tp_capture_find(feed);

	return cap != NULL ? cap->records : 0;
}

/* net_pcap with infinite_rx=1 loads each rx_pcap file into our pool. */
static uint64_t
tp_port_capture_mbufs(uint16_t port)
{
	const struct rte_devargs *da;
	struct rte_eth_dev_info info;
	char args[1024], *tok, *save = NULL;
	uint64_t n = 0;

	if (rte_eth_dev_info_get(port, &info) != 0 || info.device == NULL ||
	    strcmp(info.driver_name, "net_pcap") != 0)
		return 0;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL ||
	    strstr(da->args, "infinite_rx=1") == NULL)
		return 0;
	snprintf(args, sizeof(args), "%s", da->args);
	for (tok = strtok_r(args, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save))
		if (strncmp(tok, "rx_pcap=", 8) == 0)
			n += tp_port_capture_records(tok + 8);
	if (n > 0)
		TP_LOG(INFO, "port %u: infinite_rx holds %" PRIu64 " mbufs",
		       port, n);
	return n;
}

/* An RX source whose input has no end (a live interface). */
static bool
tp_port_rx_endless(const char *tok)
{
	return strncmp(tok, "iface=", 6) == 0 ||
		strncmp(tok, "rx_iface=", 9) == 0 ||
		strncmp(tok, "rx_iface_in=", 12) == 0 ||
		strcmp(tok, "infinite_rx=1") == 0;
}

/*
 * A port's link type, and whether one of its captures carries wire-length
 * trailers (port_wire_cb). Also how many packets its captures deliver:
 * *ends is true when the port reads capture files only, so its input
 * ends after port_eof_pkts packets.
 */
static int
tp_port_capture_info(struct tp_ctx *ctx, uint16_t port, bool *ends)
{
	const struct rte_devargs *da;
	const struct tp_capture *cap;
	struct rte_eth_dev_info info;
	char args[4096], *tok, *save = NULL;
	int lt = -1;

	ctx->eth.port_linktype[port] = TP_DLT_EN10MB;
	*ends = false;
	if (rte_eth_dev_info_get(port, &info) != 0 || info.device == NULL ||
	    strcmp(info.driver_name, "net_pcap") != 0)
		return 0;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL)
		return 0;
	*ends = true;
	snprintf(args, sizeof(args), "%s", da->args);
	for (tok = strtok_r(args, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (tp_port_rx_endless(tok))
			*ends = false;
		if (strncmp(tok, "rx_pcap=", 8) != 0 ||
		    (cap = tp_capture_find(tok + 8)) == NULL)
			continue;
		if (lt >= 0 && lt != cap->linktype) {
			TP_LOG(ERR, "port %u reads captures of link types %d "
			       "and %d (%s): one link type per port", port, lt,
			       cap->linktype, cap->path);
			return -EINVAL;
		}
		lt = cap->linktype;
		ctx->eth.port_eof_pkts[port] += cap->records;
		ctx->eth.port_wire_cb[port] |= cap->filtered;
		ctx->input.eof_quiet_ns = RTE_MAX(ctx->input.eof_quiet_ns, cap->max_gap_ns /
					    ctx->cfg->replay_speed);
		ctx->input.cap_pkts += cap->records;
		if (ctx->input.cap_first_ns == 0 || cap->first_ns < ctx->input.cap_first_ns)
			ctx->input.cap_first_ns = cap->first_ns;
		ctx->input.cap_last_ns = RTE_MAX(ctx->input.cap_last_ns, cap->last_ns);
	}
	if (lt >= 0 && lt != TP_DLT_EN10MB) {
		ctx->eth.port_linktype[port] = (uint16_t)lt;
		TP_LOG(INFO, "port %u: link type %d (%s): packets get an "
		       "Ethernet header in place of theirs", port, lt,
		       tp_capture_linktype_name(lt));
	}
	return 0;
}

/*
 * --replay-speed X: the captures' packet rate, X times over, must stay
 * within what a run takes (TP_SPEED_MAX_PPS).
 */
static int
tp_ports_speed_check(const struct tp_ctx *ctx)
{
	const uint32_t x = ctx->cfg->replay_speed;
	uint64_t span = ctx->input.cap_last_ns - ctx->input.cap_first_ns, pps;

	if (ctx->input.cap_pkts < 2)
		return 0;
	/* Packets per second at speed x (a span under 1 us counts as 1 us). */
	pps = (uint64_t)((double)ctx->input.cap_pkts * 1e9 * x /
			 (double)RTE_MAX(span, UINT64_C(1000)));
	if (pps <= TP_SPEED_MAX_PPS)
		return 0;
	TP_LOG(ERR, "--replay-speed %u: the captures' %" PRIu64 " packets "
	       "over %" PRIu64 " ms would come at %" PRIu64 " packets/s, "
	       "beyond the %" PRIu64 " a run takes", x, ctx->input.cap_pkts,
	       span / 1000000, pps, TP_SPEED_MAX_PPS);
	return -EINVAL;
}

/*
 * Each port's link type and where its input ends. --flush-at-eof needs an
 * end on every port: a live interface never reaches one.
 */
static int
tp_ports_input_info(struct tp_ctx *ctx)
{
	const struct tp_config *cfg = ctx->cfg;
	bool ends;
	uint16_t i;

	ctx->input.input_ends = true;
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		ctx->eth.dst_port[ctx->eth.ports[i]] = ctx->eth.ports[i];
		if (tp_port_capture_info(ctx, ctx->eth.ports[i], &ends) < 0)
			return -EINVAL;
		if (!ends && cfg->flush_at_eof) {
			TP_LOG(ERR, "--flush-at-eof: port %u does not read "
			       "capture files (net_pcap rx_pcap=FILE without "
			       "infinite_rx=1): its input never ends",
			       ctx->eth.ports[i]);
			return -EINVAL;
		}
		if (!ends && cfg->clock == TP_CLOCK_CAPTURE) {
			TP_LOG(ERR, "--clock capture: port %u does not read "
			       "capture files (net_pcap rx_pcap=FILE without "
			       "infinite_rx=1): it has no capture time",
			       ctx->eth.ports[i]);
			return -EINVAL;
		}
		ctx->input.input_ends = ctx->input.input_ends && ends;
	}
	if (cfg->replay_speed > 1 && tp_ports_speed_check(ctx) < 0)
		return -EINVAL;
	/* Paced input may be silent for its largest gap: not an end. */
	ctx->input.eof_quiet_ns = (cfg->replay_pace ? ctx->input.eof_quiet_ns : 0) +
		500 * 1000000ULL;
	return 0;
}

/* Ports in the portmask, and l2fwd-style pairs. */
int
tp_ports_probe(struct tp_ctx *ctx)
{
	const struct tp_config *cfg = ctx->cfg;
	uint16_t port, i;

	RTE_ETH_FOREACH_DEV(port) {
		if (port >= 64 || (cfg->portmask & (UINT64_C(1) << port)) == 0)
			continue;
		ctx->eth.ports[ctx->eth.nb_ports++] = port;
	}
	if (ctx->eth.nb_ports == 0) {
		TP_LOG(ERR, "no port matches the port mask: add a port, e.g. "
		       "--vdev=net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap, "
		       "or fix -p (see --help)");
		return -EINVAL;
	}
	for (i = 0; i < 64 && cfg->portmask != UINT64_MAX; i++) {
		if ((cfg->portmask & (UINT64_C(1) << i)) != 0 &&
		    !rte_eth_dev_is_valid_port(i)) {
			TP_LOG(ERR, "-p names port %u, which does not exist "
			       "(see --help)", i);
			return -EINVAL;
		}
	}
	if (tp_ports_input_info(ctx) < 0)
		return -EINVAL;
	tp_live_ports_check(&ctx->live, ctx->eth.ports, ctx->eth.nb_ports);
	for (i = 0; cfg->fwd_mode == TP_FWD_PAIR && i + 1 < ctx->eth.nb_ports;
	     i += 2) {
		ctx->eth.dst_port[ctx->eth.ports[i]] = ctx->eth.ports[i + 1];
		ctx->eth.dst_port[ctx->eth.ports[i + 1]] = ctx->eth.ports[i];
	}
	if (cfg->fwd_mode == TP_FWD_PAIR && ctx->eth.nb_ports % 2 == 1)
		TP_LOG(INFO, "odd number of ports: port %u forwards to itself",
		       ctx->eth.ports[ctx->eth.nb_ports - 1]);
	return 0;
}

/*
 * With a capture's read-ahead (tp_rx_ahead.h), all that holds mbufs: the
 * burst it reads (it frees the packets before they go on its ring), per
 * lcore a stash, a burst and a mempool cache past its flush threshold
 * (1.5 times its size; 2 for any DPDK). No packet crosses the event
 * device or is sent. So few stay in the CPUs' caches (the long capture
 * of docs/bench.rst: reading took 200 ns a packet from 9,216 mbufs, 140
 * from 2,048); fewer would make net_pcap lose packets it read.
 */
static uint64_t
tp_pool_ahead_size(const struct tp_ctx *ctx, uint64_t held)
{
	return held + TP_MAX_BURST + (uint64_t)rte_lcore_count() *
		(2 * ctx->cfg->burst + 2 * TP_MEMPOOL_CACHE);
}

static int
tp_pool_create(struct tp_ctx *ctx)
{
	const struct tp_config *cfg = ctx->cfg;
	uint64_t n = 0, held = 0;
	unsigned int nb_rxq = 0;
	uint16_t i, p;

	for (i = 0; i < ctx->eth.nb_ports; i++) {
		p = ctx->eth.ports[i];
		held += tp_port_capture_mbufs(p);
		nb_rxq += ctx->eth.nb_rxq[p];
		n += (uint64_t)ctx->eth.nb_rxq[p] * cfg->nb_rxd +
			(uint64_t)ctx->eth.nb_txq[p] * cfg->nb_txd;
		/* Per-lcore TX buffers and replay stashes. */
		n += (uint64_t)rte_lcore_count() * 2 * cfg->burst;
	}
	n += held;
	/* Events in flight each hold one, plus per-lcore caches. */
	n += ctx->evd.nb_events ? ctx->evd.nb_events : cfg->nb_events;
	n += (uint64_t)rte_lcore_count() * TP_MEMPOOL_CACHE;
	n = RTE_MAX(n, (uint64_t)TP_MIN_MBUFS);
	if (tp_rx_ahead_wanted(ctx, nb_rxq))
		n = tp_pool_ahead_size(ctx, held);
	if (cfg->nb_mbufs != 0)
		n = cfg->nb_mbufs;
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	ctx->eth.pool = rte_pktmbuf_pool_create("tp_mbufs", (unsigned int)n,
					    TP_MEMPOOL_CACHE, 0,
					    RTE_MBUF_DEFAULT_BUF_SIZE,
					    rte_socket_id());
	if (ctx->eth.pool == NULL) {
		TP_LOG(ERR, "cannot create a pool of %" PRIu64 " mbufs: %s", n,
		       rte_strerror(rte_errno));
		return -rte_errno;
	}
	TP_LOG(INFO, "mbuf pool: %" PRIu64 " mbufs", n);
	return 0;
}

/*
 * Our packet metadata, the wire length and the RX timestamp (tp_replay.c)
 * dynfields.
 */
static int
tp_dynfields(struct tp_ctx *ctx)
{
	static const struct rte_mbuf_dynfield meta = {
		.name = "tp_pkt_meta",
		.size = sizeof(struct tp_pkt_meta),
		.align = __alignof__(struct tp_pkt_meta),
	};
	static const struct rte_mbuf_dynfield wire = {
		.name = "tp_wire_len",
		.size = sizeof(uint32_t),
		.align = __alignof__(uint32_t),
	};

	/* Packet metadata: 16 bytes of the mbuf's dynamic field area. */
	RTE_BUILD_BUG_ON(sizeof(struct tp_pkt_meta) != 16);

	ctx->eth.meta_offset = rte_mbuf_dynfield_register(&meta);
	if (ctx->eth.meta_offset < 0) {
		TP_LOG(ERR, "cannot register the mbuf field: %s",
		       rte_strerror(rte_errno));
		return -rte_errno;
	}
	ctx->eth.wire_offset = rte_mbuf_dynfield_register(&wire);
	if (ctx->eth.wire_offset < 0) {
		TP_LOG(ERR, "cannot register the wire length mbuf field: %s",
		       rte_strerror(rte_errno));
		return -rte_errno;
	}
	return tp_replay_fields_register(&ctx->replay, ctx->cfg->replay_pace ||
					 ctx->cfg->clock == TP_CLOCK_CAPTURE);
}

/*
 * The RX callback that sets each packet's wire length, on every RX queue
 * of a port one of whose captures is a copy with wire-length trailers.
 * net_pcap gives RX queue q the q-th rx_pcap (or rx_iface) of its
 * devargs; the callback's argument says whether that queue's packets end
 * in a trailer (non-NULL) or are whole.
 */
static int
tp_port_wire_callbacks(struct tp_ctx *ctx, uint16_t port)
{
	const struct rte_devargs *da;
	const struct tp_capture *cap;
	struct rte_eth_dev_info info;
	char args[4096], *tok, *save = NULL;
	bool with[RTE_MAX_QUEUES_PER_PORT] = { false };
	uint16_t q = 0;

	if (!ctx->eth.port_wire_cb[port])
		return 0;
	if (rte_eth_dev_info_get(port, &info) != 0 || info.device == NULL ||
	    (da = rte_dev_devargs(info.device)) == NULL || da->args == NULL)
		return -EINVAL;
	snprintf(args, sizeof(args), "%s", da->args);
	for (tok = strtok_r(args, ",", &save); tok != NULL &&
	     q < RTE_MAX_QUEUES_PER_PORT; tok = strtok_r(NULL, ",", &save)) {
		if (strncmp(tok, "rx_pcap=", 8) == 0) {
			cap = tp_capture_find(tok + 8);
			with[q++] = cap != NULL && cap->filtered;
		} else if (strncmp(tok, "rx_iface=", 9) == 0 ||
			   strncmp(tok, "rx_iface_in=", 12) == 0 ||
			   strncmp(tok, "iface=", 6) == 0) {
			q++;
		}
	}
	for (q = 0; q < 2; q++) {
		ctx->eth.wire_cb[q].wire_offset = ctx->eth.wire_offset;
		ctx->eth.wire_cb[q].trailers = q == 1;
	}
	for (q = 0; q < ctx->eth.nb_rxq[port]; q++) {
		if (rte_eth_add_rx_callback(port, q, tp_rx_wire_cb,
					    &ctx->eth.wire_cb[with[q]]) == NULL) {
			TP_LOG(ERR, "port %u: cannot add the RX callback that "
			       "reads wire lengths (queue %u): %s (DPDK built "
			       "without RTE_ETHDEV_RXTX_CALLBACKS?)", port, q,
			       rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	return 0;
}

static int
tp_port_configure(struct tp_ctx *ctx, uint16_t port)
{
	const struct tp_config *cfg = ctx->cfg;
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nb_rxd = cfg->nb_rxd, nb_txd = cfg->nb_txd;
	uint16_t want_rxq, q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_info_get(port, &info);
	if (ret < 0)
		return ret;
	want_rxq = cfg->rx_queues ? cfg->rx_queues : ctx->nb_rx_lcores;
	ctx->eth.nb_rxq[port] = RTE_MIN(want_rxq, info.max_rx_queues);
	if (ctx->eth.nb_rxq[port] == 0) {
		TP_LOG(ERR, "port %u (%s) has no RX queue", port,
		       info.driver_name);
		return -EINVAL;
	}
	if (ctx->eth.nb_rxq[port] < want_rxq)
		TP_LOG(INFO, "port %u (%s): %u RX queues (its maximum)", port,
		       info.driver_name, ctx->eth.nb_rxq[port]);
	ctx->eth.nb_txq[port] = RTE_MIN((uint16_t)ctx->nb_worker_lcores,
				    info.max_tx_queues);
	ctx->eth.nb_txq[port] = RTE_MAX(ctx->eth.nb_txq[port], (uint16_t)1);
	ctx->eth.txq_shared[port] = ctx->eth.nb_txq[port] < ctx->nb_worker_lcores;
	rte_spinlock_init(&ctx->eth.txq_lock[port]);
	/* RSS where the port has it; otherwise the app's own hash decides. */
	if (ctx->eth.nb_rxq[port] > 1 && info.flow_type_rss_offloads != 0) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = (RTE_ETH_RSS_IP |
			RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) &
			info.flow_type_rss_offloads;
	}
	/*
	 * net_pcap from DPDK 26.07 does two things only when asked, which
	 * earlier releases always did and offered no offload for: it stamps
	 * packets with their capture time (the RX timestamp offload; in
	 * nanoseconds, where earlier releases give microseconds), and it
	 * chains a record longer than one mbuf (RX scatter) instead of
	 * dropping it.
	 */
	if (strcmp(info.driver_name, "net_pcap") == 0) {
		if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP) {
			conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
			ctx->replay.ts_unit_ns = 1;
		}
		conf.rxmode.offloads |= info.rx_offload_capa &
					RTE_ETH_RX_OFFLOAD_SCATTER;
	}
	ret = rte_eth_dev_configure(port, ctx->eth.nb_rxq[port],
				    ctx->eth.nb_txq[port], &conf);
	if (ret < 0) {
		TP_LOG(ERR, "port %u: configure failed: %s", port,
		       strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret < 0)
		return ret;
	for (q = 0; q < ctx->eth.nb_rxq[port]; q++) {
		ret = rte_eth_rx_queue_setup(port, q, nb_rxd,
					     rte_eth_dev_socket_id(port), NULL,
					     ctx->eth.pool);
		if (ret < 0) {
			TP_LOG(ERR, "port %u: RX queue %u setup failed: %s "
			       "(with infinite_rx the pool must hold the "
			       "capture; see --mbufs)", port, q,
			       strerror(-ret));
			return ret;
		}
	}
	ret = tp_port_wire_callbacks(ctx, port);
	if (ret < 0)
		return ret;
	for (q = 0; q < ctx->eth.nb_txq[port]; q++) {
		ret = rte_eth_tx_queue_setup(port, q, nb_txd,
					     rte_eth_dev_socket_id(port), NULL);
		if (ret < 0) {
			TP_LOG(ERR, "port %u: TX queue %u setup failed: %s",
			       port, q, strerror(-ret));
			return ret;
		}
	}
	return rte_eth_macaddr_get(port, &ctx->eth.port_mac[port]);
}

int
tp_ports_setup(struct tp_ctx *ctx)
{
	uint16_t i;
	int ret;

	ret = tp_dynfields(ctx);
	if (ret < 0)
		return ret;
	/* Queue counts first: the pool is sized from them. */
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		uint16_t p = ctx->eth.ports[i];
		struct rte_eth_dev_info info;

		ret = rte_eth_dev_info_get(p, &info);
		if (ret < 0)
			return ret;
		ctx->eth.nb_rxq[p] = RTE_MIN(ctx->cfg->rx_queues ?
					 ctx->cfg->rx_queues :
					 ctx->nb_rx_lcores, info.max_rx_queues);
		ctx->eth.nb_txq[p] = RTE_MIN(ctx->nb_worker_lcores,
					 info.max_tx_queues);
	}
	ret = tp_pool_create(ctx);
	if (ret < 0)
		return ret;
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		ret = tp_port_configure(ctx, ctx->eth.ports[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Wait for links, at most 3 s, leaving early on a signal. */
static void
tp_ports_wait_link(struct tp_ctx *ctx)
{
	struct rte_eth_link link;
	unsigned int tries, i, up;

	for (tries = 0; tries < 30 && tp_quit_signal == 0; tries++) {
		for (i = 0, up = 0; i < ctx->eth.nb_ports; i++) {
			memset(&link, 0, sizeof(link));
			if (rte_eth_link_get_nowait(ctx->eth.ports[i], &link) == 0 &&
			    link.link_status == RTE_ETH_LINK_UP)
				up++;
		}
		if (up == ctx->eth.nb_ports)
			return;
		rte_delay_ms(100);
	}
	TP_LOG(WARNING, "not every link is up; continuing");
}

int
tp_ports_start(struct tp_ctx *ctx)
{
	uint16_t i, p;
	int ret;

	for (i = 0; i < ctx->eth.nb_ports; i++) {
		p = ctx->eth.ports[i];
		ret = rte_eth_dev_start(p);
		if (ret < 0) {
			TP_LOG(ERR, "port %u: start failed: %s", p,
			       strerror(-ret));
			return ret;
		}
		ret = rte_eth_promiscuous_enable(p);
		if (ret < 0 && ret != -ENOTSUP)
			TP_LOG(WARNING, "port %u: promiscuous mode: %s", p,
			       strerror(-ret));
	}
	ctx->eth.ports_started = true;
	/* net_pcap has its captures open: the filtered copies can go. */
	tp_capture_release();
	tp_ports_wait_link(ctx);
	return 0;
}

int
tp_ports_probe_report(const struct tp_ctx *ctx)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	uint16_t i, p;

	for (i = 0; i < ctx->eth.nb_ports; i++) {
		p = ctx->eth.ports[i];
		memset(&link, 0, sizeof(link));
		if (rte_eth_dev_info_get(p, &info) != 0)
			info.driver_name = "?";
		/* A driver that cannot tell (an error) reads "unknown". */
		printf("probe: port %u %s rxq %u txq %u link %s\n", p,
		       info.driver_name, ctx->eth.nb_rxq[p], ctx->eth.nb_txq[p],
		       rte_eth_link_get_nowait(p, &link) != 0 ? "unknown" :
		       link.link_status == RTE_ETH_LINK_UP ? "up" : "down");
	}
	fflush(stdout);
	return EXIT_SUCCESS;
}

/* Stop and close the ports (net_pcap closes its output file here). */
void
tp_ports_stop(struct tp_ctx *ctx)
{
	uint16_t i;

	for (i = 0; i < ctx->eth.nb_ports; i++) {
		if (ctx->eth.ports_started)
			rte_eth_dev_stop(ctx->eth.ports[i]);
		rte_eth_dev_close(ctx->eth.ports[i]);
	}
	ctx->eth.ports_started = false;
	rte_mempool_free(ctx->eth.pool);
	ctx->eth.pool = NULL;
}
