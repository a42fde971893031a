/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CAPTURE_H_
#define _TP_CAPTURE_H_

/*
 * Capture files read by net_pcap (rx_pcap=FILE), checked with libpcap
 * before EAL starts (tp_capture.c). net_pcap trusts its files: it hands
 * over the bytes of any link type as if they were Ethernet, and a record
 * over 65535 bytes becomes an mbuf chain that holds only the length modulo
 * 65536 while its pkt_len says the whole length (copies in 16 bits; seen
 * with DPDK 22.11: RX could only drop it as a broken chain). So each file
 * is read once, record headers and all, and:
 * - a file that is not a capture, or of a link type we cannot parse, is
 *   refused with one message naming it;
 * - its link type is kept, so the RX lcore parses each port's packets
 *   from the right header (tp_parse.h);
 * - a file with records cut by its snapshot length (tcpdump -s 96) or
 *   over 65535 bytes (BIG TCP, jumbograms: net_pcap cannot carry them) is
 *   fed to net_pcap as a copy in which each record carries its wire
 *   length in a 4-byte trailer (TP_CAPTURE_TRAILER_LEN) and an oversize
 *   record is cut to its first TP_CAPTURE_OVERSIZE_KEEP bytes. An RX
 *   callback (tp_rx_wire_cb) takes the trailer off before anyone sees the
 *   packet: each packet brings its own length, so no table has to stay
 *   in step with net_pcap's reads (a record it loses, several files,
 *   infinite_rx).
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* Link types (the pcap LINKTYPE_ / DLT_ numbers, as libpcap reports). */
#define TP_DLT_NULL 0		/**< BSD loopback, host-order family. */
#define TP_DLT_EN10MB 1		/**< Ethernet. */
#define TP_DLT_RAW_12 12	/**< Raw IP (DLT_RAW on most BSDs). */
#define TP_DLT_RAW_14 14	/**< Raw IP (DLT_RAW on OpenBSD). */
#define TP_DLT_RAW 101		/**< Raw IP (LINKTYPE_RAW). */
#define TP_DLT_LOOP 108		/**< OpenBSD loopback, network-order. */
#define TP_DLT_LINUX_SLL 113	/**< Linux cooked capture. */
#define TP_DLT_IPV4 228		/**< Raw IPv4. */
#define TP_DLT_IPV6 229		/**< Raw IPv6. */
#define TP_DLT_LINUX_SLL2 276	/**< Linux cooked capture v2. */

#include "setup/tp_capture_types.h"

/**
 * Check one rx_pcap file, print one message naming it and the problem if
 * it must be refused (or a warning, e.g. for a file cut short), and make
 * the copy with wire-length trailers when it holds records cut by its
 * snapshot length or oversize ones.
 *
 * @param vdev  The vdev's name, for messages.
 * @param path  The file.
 * @param infinite  net_pcap's infinite_rx=1 (every packet in one mbuf).
 * @param stop_when_done  --stop-when-done (an empty file would hang).
 * @param replay_pace  --replay-pace (long gaps are worth a warning).
 * @param late  May walk the file in a thread of its own while EAL starts
 *   (tp_capture.c says when): its entry's counts, copy, refusals and
 *   warnings then come from tp_capture_settle().
 * @return The file's entry, or NULL when the pipeline must not start.
 */
const struct tp_capture *tp_capture_check(const char *vdev, const char *path,
					  bool infinite, bool stop_when_done,
					  bool replay_pace, bool late);

/**
 * Finish the checks that tp_capture_check() left to a thread: wait for
 * each, then as tp_capture_check() does, one message for the first
 * refusal. An entry whose copy is made here has its feed set only now.
 *
 * @return 0, or -1 when the pipeline must stop.
 */
int tp_capture_settle(void);

/**
 * The checked capture net_pcap reads from feed (the path in its devargs).
 *
 * @return The entry, or NULL if no checked capture has that feed.
 */
const struct tp_capture *tp_capture_find(const char *feed);

/** True for the link types tp_parse.h reads. */
bool tp_capture_linktype_supported(int linktype);

/** A short name for a link type, for messages ("LINUX_SLL"). */
const char *tp_capture_linktype_name(int linktype);

/**
 * Remove the copies. net_pcap opened them at probe time and
 * keeps reading the open file; also runs at exit.
 */
void tp_capture_release(void);

#endif /* _TP_CAPTURE_H_ */
