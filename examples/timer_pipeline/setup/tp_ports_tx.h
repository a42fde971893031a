/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PORTS_TX_H_
#define _TP_PORTS_TX_H_

/* What tx_pcap files lost (tp_ports_tx.c), checked at exit. */

#include <stdint.h>

struct tp_ctx;

/**
 * Bytes missing from the ports' tx_pcap files: each must hold every frame
 * sent to it (net_pcap ignores its write errors). Call once the lcores
 * are done; each shortfall is logged.
 */
uint64_t tp_ports_tx_pcap_short(const struct tp_ctx *ctx);

#endif /* _TP_PORTS_TX_H_ */
