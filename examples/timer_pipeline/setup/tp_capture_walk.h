/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CAPTURE_WALK_H_
#define _TP_CAPTURE_WALK_H_

/* A capture's record headers, counted (tp_capture_walk.c). */

#include <stdbool.h>
#include <stdint.h>

#include <pcap/pcap.h>

#include "setup/tp_capture_types.h"

/** A pcap file's header, and each record's. */
#define TP_PCAP_HDR_LEN 24u
#define TP_PCAP_REC_LEN 16u

/**
 * Count one record into sc and cap: lengths, cut and oversize ones, the
 * first and last times, the largest gap (h: as libpcap gives it, times in
 * nanoseconds; prev_ns: the record before's time, updated).
 */
void tp_capture_walk_record(struct tp_cap_scan *sc, struct tp_capture *cap,
			    const struct pcap_pkthdr *h, uint64_t *prev_ns);

/**
 * The record headers of a pcap 2.4 file (fd, byte-swapped or not), read
 * in 1-MB pieces and walked in memory. libpcap's pass reads
 * each record's bytes as well, through two fread() calls: on a 1.3-GB
 * capture of 5.7M records it took 0.6 to 0.8 s, this walk 0.2 to 0.25 s
 * (the kernel's copy of the file is most of it). Walking a mapping of the
 * file instead took 0.4 to 0.5 s: each header's place depends on the
 * one before, and a cold line costs a load's whole latency.
 *
 * Returns 0 when every record is one libpcap reads as it is (caplen at
 * most the snapshot length) and the file ends after a whole record; 1
 * when it met anything else (cap and sc then hold partial counts: the
 * caller starts again with libpcap, which reads and names it); -1 with
 * errno if a read failed.
 */
int tp_capture_walk(int fd, bool swapped, struct tp_cap_scan *sc,
		    struct tp_capture *cap);

#endif /* _TP_CAPTURE_WALK_H_ */
