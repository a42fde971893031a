/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The capture check's messages (tp_capture_msg.h): the refusals and
 * warnings that follow from what a pass over an rx_pcap file found. No
 * lock: they are printed by the thread that checks, before EAL starts
 * or, for a capture checked beside EAL's start, once it has started.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <rte_common.h>

#include "setup/tp_capture_msg.h"

/* net_pcap with infinite_rx=1 takes one mbuf per packet. */
#define TP_CAP_INFINITE_MAX 2048u
/* Replay-pace gaps worth a warning. */
#define TP_CAP_GAP_WARN_NS (600 * UINT64_C(1000000000))

void
tp_capture_msg(const char *level, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dpdk-timer_pipeline: %s: ", level);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

void
tp_capture_msg_warnings(const char *vdev, const struct tp_capture *cap,
			const struct tp_cap_scan *sc, bool replay_pace)
{
	const char *path = cap->path;

	if (sc->cut && !sc->pcapng)
		tp_capture_msg("warning", "--vdev %s: rx_pcap '%s' is cut short at "
			   "byte %" PRIu64 " of %" PRIu64 ", in the %s of "
			   "packet %" PRIu64 ": the %" PRIu64 " packets before"
			   " it are read, net_pcap counts the cut one as an "
			   "RX error", vdev, path, sc->end, sc->size,
			   sc->cut_in_header ? "header" : "data",
			   cap->records + 1, cap->records);
	else if (sc->cut)
		tp_capture_msg("warning", "--vdev %s: rx_pcap '%s' is cut short "
			   "after packet %" PRIu64 " (libpcap: %s): the %"
			   PRIu64 " packets before it are read", vdev, path,
			   cap->records, sc->why, cap->records);
	if (cap->oversize > 0)
		tp_capture_msg("warning", "--vdev %s: rx_pcap '%s': packet %"
			   PRIu64 " holds %" PRIu64 " bytes, more than the %u "
			   "net_pcap can carry: it and every other record over"
			   " %u bytes (%" PRIu64 " in all) are read as their "
			   "first %u bytes and counted at their wire length "
			   "('oversize')", vdev, path, cap->first_oversize,
			   cap->first_oversize_len, TP_CAPTURE_MAX_CAPLEN,
			   TP_CAPTURE_MAX_CAPLEN, cap->oversize,
			   TP_CAPTURE_OVERSIZE_KEEP);
	if (cap->cut_records > 0)
		tp_capture_msg("info", "--vdev %s: rx_pcap '%s' was captured with "
			   "a snapshot length of %u bytes: %" PRIu64 " of its %"
			   PRIu64 " packets are cut (the first is packet %"
			   PRIu64 "); each is aged by the headers it holds and "
			   "counted at its wire length ('truncated')", vdev,
			   path, cap->snaplen, cap->cut_records, cap->records,
			   cap->first_cut);
	if (cap->records == 0)
		tp_capture_msg("warning", "--vdev %s: rx_pcap '%s' holds no "
			   "complete packet", vdev, path);
	if (replay_pace && sc->max_gap_ns > TP_CAP_GAP_WARN_NS)
		tp_capture_msg("warning", "--vdev %s: rx_pcap '%s': %" PRIu64 " s "
			   "pass between packets %" PRIu64 " and %" PRIu64
			   ", and --replay-pace will wait that long", vdev,
			   path, sc->max_gap_ns / 1000000000, sc->gap_rec - 1,
			   sc->gap_rec);
}

int
tp_capture_msg_refuse(const char *vdev, const struct tp_capture *cap,
		      const struct tp_cap_scan *sc, bool infinite,
		      bool stop_when_done)
{
	if (infinite && sc->max_caplen + (cap->filtered ?
			TP_CAPTURE_TRAILER_LEN : 0) > TP_CAP_INFINITE_MAX) {
		tp_capture_msg("error", "--vdev %s: rx_pcap '%s': packet %" PRIu64
			   " holds %" PRIu64 " bytes; with infinite_rx=1 "
			   "net_pcap takes packets of at most %u bytes", vdev,
			   cap->path, sc->max_rec, sc->max_caplen +
			   (cap->filtered ? TP_CAPTURE_TRAILER_LEN : 0),
			   TP_CAP_INFINITE_MAX);
		return -1;
	}
	if (cap->records == 0 && (infinite || stop_when_done)) {
		tp_capture_msg("error", "--vdev %s: rx_pcap '%s' holds no complete "
			   "packet: %s", vdev, cap->path, infinite ?
			   "infinite_rx=1 needs at least one" :
			   "--stop-when-done would wait for input forever");
		return -1;
	}
	return 0;
}
