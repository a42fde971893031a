/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CAPTURE_MSG_H_
#define _TP_CAPTURE_MSG_H_

/* The capture check's messages on stderr (tp_capture_msg.c). */

#include <stdbool.h>

#include <rte_common.h>

#include "setup/tp_capture_types.h"

/** "dpdk-timer_pipeline: LEVEL: ..." on one line of stderr. */
void tp_capture_msg(const char *level, const char *fmt, ...)
	__rte_format_printf(2, 3);

/**
 * Warn about a capture that will be read: cut short, oversize or cut
 * records, no complete packet, a --replay-pace gap past ten minutes.
 */
void tp_capture_msg_warnings(const char *vdev, const struct tp_capture *cap,
			     const struct tp_cap_scan *sc, bool replay_pace);

/**
 * Refusals that depend on how the capture is read (infinite_rx=1 and its
 * packet size, no complete packet with infinite_rx=1 or
 * --stop-when-done): -1 after one error message, else 0.
 */
int tp_capture_msg_refuse(const char *vdev, const struct tp_capture *cap,
			  const struct tp_cap_scan *sc, bool infinite,
			  bool stop_when_done);

#endif /* _TP_CAPTURE_MSG_H_ */
