/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CAPTURE_TYPES_H_
#define _TP_CAPTURE_TYPES_H_

/*
 * What the capture check keeps of an rx_pcap file (tp_capture.h), and the
 * shape of the copy net_pcap reads (tp_capture_feed.h).
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/** Largest record net_pcap carries whole (it keeps lengths in 16 bits). */
#define TP_CAPTURE_MAX_CAPLEN 65535u
/** Bytes an oversize record keeps in the copy: its headers, and more. */
#define TP_CAPTURE_OVERSIZE_KEEP 512u
/** The wire-length trailer of each record of a copy (little endian). */
#define TP_CAPTURE_TRAILER_LEN 4u

/** What the check found in one rx_pcap file. */
struct tp_capture {
	char path[PATH_MAX];	/**< As named on the command line. */
	char feed[PATH_MAX];	/**< What net_pcap reads: path, or a copy. */
	bool filtered;		/**< feed is our temporary copy, whose
				 * records carry wire-length trailers.
				 */
	int linktype;		/**< Link type of every packet. */
	uint32_t snaplen;	/**< The file's snapshot length. */
	uint64_t records;	/**< Complete records, oversize included. */
	uint64_t cut_records;	/**< Records shorter than their wire length. */
	uint64_t first_cut;	/**< The first one's number (from 1). */
	uint64_t oversize;	/**< Records over TP_CAPTURE_MAX_CAPLEN... */
	uint64_t first_oversize; /**< ...the first one's number (from 1)... */
	uint64_t first_oversize_len; /**< ...and its captured length. */
	uint64_t feed_max_caplen; /**< Largest record net_pcap reads. */
	uint64_t max_gap_ns;	/**< Largest gap between two timestamps. */
	uint64_t first_ns;	/**< First record's timestamp. */
	uint64_t last_ns;	/**< Latest timestamp of any record. */
};

#endif /* _TP_CAPTURE_TYPES_H_ */
