/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RX_WIRE_H_
#define _TP_RX_WIRE_H_

/*
 * The wire-length RX callback (tp_rx_wire.c) of a port reading a capture
 * copy with wire-length trailers (setup/tp_capture.h), added by
 * setup/tp_ports.c.
 */

#include <stdint.h>

#include <rte_mbuf.h>

/** RX callback setting each packet's wire length (see tp_rx_wire.c). */
uint16_t tp_rx_wire_cb(uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
		       uint16_t nb, uint16_t max, void *arg);

#endif /* _TP_RX_WIRE_H_ */
