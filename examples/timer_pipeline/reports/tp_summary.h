/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_SUMMARY_H_
#define _TP_SUMMARY_H_

/*
 * The exactly-once check and --summary-json (tp_summary.c). Main lcore
 * only; reads the slots without locks (tp_slots.h).
 */

#include <stdbool.h>

struct tp_ctx;

/**
 * Exactly-once check at exit, per sink, and --summary-json.
 *
 * @return the run's exit status: EXIT_SUCCESS when it holds;
 *   EXIT_FAILURE when it does not, or --summary-json cannot be written;
 *   TP_EXIT_LOST when it holds but a record file or tx_pcap lost data.
 */
int tp_summary_check(struct tp_ctx *ctx);

#endif /* _TP_SUMMARY_H_ */
