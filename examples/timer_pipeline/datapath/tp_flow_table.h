/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_FLOW_TABLE_H_
#define _TP_FLOW_TABLE_H_

/*
 * The flow table's setup, its RCU readers and the exit count
 * (tp_flow_table.c); struct tp_flow_table is in tp_flow_types.h, with
 * the flows it holds.
 */

#include <stdint.h>

#include "datapath/tp_flow.h"

struct tp_ctx;

/**
 * Create the table for --flows flows, handing ended flows and traced
 * steps to @p ops. 0 or a negative errno (logged).
 */
int tp_flow_table_create(struct tp_ctx *ctx, const struct tp_flow_ops *ops);

/** Free the table (idempotent). */
void tp_flow_table_free(struct tp_ctx *ctx);

/** Make @p lcore_id an RCU reader of the table (RX lcores). */
int tp_flow_table_rcu_register(struct tp_ctx *ctx, unsigned int lcore_id);

/**
 * One above the highest position any flow took (RX lcores stopped, or
 * the lcore asking is the only one adding keys); at most the table's
 * positions.
 */
uint32_t tp_flow_table_top(const struct tp_ctx *ctx);

/** Timers still armed (the exit check, every lcore stopped). */
uint64_t tp_flow_table_count_timers(const struct tp_ctx *ctx);

/**
 * Every input is over and every RX lcore past its last lookup (the
 * capture clock, the shutdown's flush): flows that end from now on leave
 * their keys and slots in place, for the table's free.
 */
void tp_flow_table_close(struct tp_ctx *ctx);

#endif /* _TP_FLOW_TABLE_H_ */
