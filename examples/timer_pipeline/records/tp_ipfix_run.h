/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_IPFIX_RUN_H_
#define _TP_IPFIX_RUN_H_

/*
 * The IPFIX exporter's work (tp_ipfix_run.c), for whichever runs it: the
 * exporter's thread, or its service (tp_ipfix.c).
 */

#include <stdbool.h>
#include <stdint.h>

struct tp_ipfix;

/** Open the transport and send the templates (TCP: else retry later). */
void tp_ipfix_run_open(struct tp_ipfix *x);

/**
 * One round: up to TP_IPFIX_BURST records off the ring into messages, then
 * the timers. Returns the records taken; @p now gets the time (ms).
 */
unsigned int tp_ipfix_run_round(struct tp_ipfix *x, uint64_t *now);

/**
 * After a round of @p n records at @p now: whether the exporter, told to
 * stop, is through (its ring empty, or the exit deadline passed: the
 * records still queued are then counted as not sent).
 */
bool tp_ipfix_run_through(struct tp_ipfix *x, unsigned int n, uint64_t now);

/** Count the records still queued as not sent. */
void tp_ipfix_run_abandon(struct tp_ipfix *x);

/** Send the open message and the final options record; close. */
void tp_ipfix_run_finish(struct tp_ipfix *x);

#endif /* _TP_IPFIX_RUN_H_ */
