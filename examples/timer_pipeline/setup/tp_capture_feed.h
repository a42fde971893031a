/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CAPTURE_FEED_H_
#define _TP_CAPTURE_FEED_H_

/* The copy net_pcap reads of a capture with cut or oversize records
 * (tp_capture_feed.c).
 */

#include <stddef.h>

struct tp_capture;

/**
 * Write the copy of cap->path into a new temporary file ($TMPDIR, else
 * /tmp), named in cap->feed, and set cap->filtered.
 *
 * @return 0, or -1 with what went wrong in err (no file is left).
 */
int tp_capture_feed_write(struct tp_capture *cap, char *err, size_t errlen);

#endif /* _TP_CAPTURE_FEED_H_ */
