/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CAPTURE_TYPES_H_
#define _TP_CAPTURE_TYPES_H_

/*
 * What the capture check keeps of an rx_pcap file (tp_capture.h), what
 * one pass over it found (tp_capture.c, for tp_capture_msg.c), and the
 * shape of the copy net_pcap reads (tp_capture_feed.h).
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <pcap/pcap.h>

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

/** What one pass over a capture found. */
struct tp_cap_scan {
	bool pcapng;		/**< pcapng, else pcap. */
	uint64_t size;		/**< File size. */
	uint64_t end;		/**< pcap: end of the last whole record. */
	uint64_t max_caplen;	/**< Largest captured length... */
	uint64_t max_rec;	/**< ...and its record number (from 1). */
	uint64_t max_gap_ns;	/**< Largest forward timestamp gap... */
	uint64_t gap_rec;	/**< ...before this record. */
	bool cut;		/**< The file ends inside a record. */
	bool cut_in_header;	/**< In its record header. */
	bool plain;		/**< pcap with 16-byte record headers... */
	bool ns;		/**< ...and nanosecond timestamps. */
	bool walked;		/**< Read by the header walk alone. */
	char why[PCAP_ERRBUF_SIZE]; /**< libpcap's error, if it stopped. */
};

#endif /* _TP_CAPTURE_TYPES_H_ */
