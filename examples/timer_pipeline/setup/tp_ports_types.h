/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PORTS_TYPES_H_
#define _TP_PORTS_TYPES_H_

/*
 * The ports' state (tp_ports.h has the functions): struct tp_eth
 * (ctx->eth: ports, queues, mbuf pool and dynfields) and struct tp_input
 * (ctx->input: what the captures hold). Both are filled by tp_ports.c on
 * the main lcore before the launch and read-only after, but for
 * txq_lock[], the spinlock that serialises a TX queue several lcores
 * share.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>

/** Ports and their mbufs: filled by setup/tp_ports.c before launch,
 * read-only after (but txq_lock).
 */
struct tp_eth {
	uint16_t nb_ports;		/**< Ports in use. */
	uint16_t ports[RTE_MAX_ETHPORTS]; /**< Their ids. */
	uint16_t dst_port[RTE_MAX_ETHPORTS]; /**< Forwarding destination. */
	uint16_t nb_rxq[RTE_MAX_ETHPORTS]; /**< RX queues per port. */
	uint16_t nb_txq[RTE_MAX_ETHPORTS]; /**< TX queues per port. */
	bool txq_shared[RTE_MAX_ETHPORTS]; /**< Several lcores share a txq. */
	rte_spinlock_t txq_lock[RTE_MAX_ETHPORTS]; /**< Serialises them. */
	struct rte_ether_addr port_mac[RTE_MAX_ETHPORTS]; /**< Port MACs. */
	uint16_t port_linktype[RTE_MAX_ETHPORTS]; /**< RX link type (pcap). */
	/** Packets net_pcap delivers from the port's captures before its
	 * input ends (every record), valid when input.input_ends.
	 */
	uint64_t port_eof_pkts[RTE_MAX_ETHPORTS];
	/** The port's RX callback (tp_rx_wire_cb) sets each packet's wire
	 * length: one of its captures carries wire-length trailers.
	 */
	bool port_wire_cb[RTE_MAX_ETHPORTS];
	bool ports_started;		/**< For teardown. */
	struct rte_mempool *pool;	/**< Packet mbufs. */
	int meta_offset;		/**< Our mbuf dynfield (tp_pkt_meta). */
	int wire_offset;		/**< Wire length dynfield (uint32_t). */
	/** Arguments of tp_rx_wire_cb: [1] for a queue whose packets end
	 * in a wire-length trailer, [0] for one whose packets are whole.
	 */
	struct tp_wire_cb_arg {
		int wire_offset;	/**< As above. */
		bool trailers;		/**< Packets end in a trailer. */
	} wire_cb[2];
};

/** What the captures hold: their extent (setup/tp_ports.c); read-only
 * after launch.
 */
struct tp_input {
	bool input_ends;		/**< Every port reads capture files. */
	uint64_t cap_pkts;		/**< Records of every capture read. */
	uint64_t cap_first_ns;		/**< Their earliest first timestamp. */
	uint64_t cap_last_ns;		/**< Their latest timestamp. */
	uint64_t eof_quiet_ns;		/**< RX silence that also means the
					 * input ended (its largest gap when
					 * paced, plus 500 ms). */
};

#endif /* _TP_PORTS_TYPES_H_ */
