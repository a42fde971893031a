/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PORTS_H_
#define _TP_PORTS_H_

/*
 * Ethdev ports and the mbuf pool (tp_ports.c). Their state (struct tp_eth,
 * struct tp_input: ctx->eth, ctx->input) is in tp_ports_types.h.
 */

#include <stdint.h>

struct tp_ctx;

/** Select ports by portmask and pair them; -EINVAL if none. */
int tp_ports_probe(struct tp_ctx *ctx);

/** Register mbuf fields, create the pool, configure ports and queues. */
int tp_ports_setup(struct tp_ctx *ctx);

/** Start the ports and wait (bounded) for their links. */
int tp_ports_start(struct tp_ctx *ctx);

/**
 * --probe-ports: the ports are set up and started and no lcore runs.
 * Prints "probe: port N DRIVER rxq Q txq Q link up|down" per port and
 * returns EXIT_SUCCESS.
 */
int tp_ports_probe_report(const struct tp_ctx *ctx);

/** Stop and close the ports, free the pool. */
void tp_ports_stop(struct tp_ctx *ctx);

#endif /* _TP_PORTS_H_ */
