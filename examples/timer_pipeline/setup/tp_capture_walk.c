/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The header walk of a pcap 2.4 capture (tp_capture_walk.h), and the count
 * of one record that it and libpcap's pass share. No lock: a walk writes
 * only the scan and entry it is given, each read by its caller once the
 * walk is over (tp_capture.c: on the main thread, or in a thread of its
 * own while EAL starts).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "setup/tp_capture_walk.h"

/* The header walk's reads. */
#define TP_CAP_WALK_BUF (1u << 20)

void
tp_capture_walk_record(struct tp_cap_scan *sc, struct tp_capture *cap,
		       const struct pcap_pkthdr *h, uint64_t *prev_ns)
{
	uint64_t ts_ns = (uint64_t)h->ts.tv_sec * 1000000000 +
		(uint64_t)h->ts.tv_usec;	/* nanoseconds, as asked */

	uint64_t fed = h->caplen;

	cap->records++;
	sc->end += TP_PCAP_REC_LEN + h->caplen;
	if (h->caplen > TP_CAPTURE_MAX_CAPLEN) {
		if (cap->oversize++ == 0) {
			cap->first_oversize = cap->records;
			cap->first_oversize_len = h->caplen;
		}
		fed = TP_CAPTURE_OVERSIZE_KEEP;
	}
	if (h->caplen < h->len && cap->cut_records++ == 0)
		cap->first_cut = cap->records;
	/* What net_pcap will read of it (without the trailer). */
	if (fed > sc->max_caplen) {
		sc->max_caplen = fed;
		sc->max_rec = cap->records;
	}
	if (cap->records == 1)
		cap->first_ns = ts_ns;
	if (ts_ns > cap->last_ns)
		cap->last_ns = ts_ns;
	if (cap->records > 1 && ts_ns > *prev_ns &&
	    ts_ns - *prev_ns > sc->max_gap_ns) {
		sc->max_gap_ns = ts_ns - *prev_ns;
		sc->gap_rec = cap->records;
	}
	*prev_ns = ts_ns;
}

int
tp_capture_walk(int fd, bool swapped, struct tp_cap_scan *sc,
		struct tp_capture *cap)
{
	const suseconds_t ns_mult = sc->ns ? 1 : 1000;
	uint64_t base = 0, off = TP_PCAP_HDR_LEN, prev = 0;
	uint32_t rec[4];	/* ts_sec, ts_frac, caplen, len */
	struct pcap_pkthdr h;
	struct stat st;
	size_t len = 0;
	uint8_t *buf;
	ssize_t got;
	int ret = 1;

	buf = malloc(TP_CAP_WALK_BUF);
	if (buf == NULL)
		return 1;
	for (;;) {
		if (off + TP_PCAP_REC_LEN > base + len) {
			/* Refill from this header on. */
			base = off;
			got = pread(fd, buf, TP_CAP_WALK_BUF, (off_t)base);
			if (got < 0) {
				ret = -1;
				break;
			}
			len = (size_t)got;
			if (len == 0) {
				/* The file's end: after a whole record? */
				if (fstat(fd, &st) == 0 &&
				    (uint64_t)st.st_size == off)
					ret = 0;
				break;
			}
			if (len < TP_PCAP_REC_LEN)
				break;	/* cut in a header: libpcap says */
		}
		memcpy(rec, buf + (off - base), sizeof(rec));
		if (swapped) {
			rec[0] = __builtin_bswap32(rec[0]);
			rec[1] = __builtin_bswap32(rec[1]);
			rec[2] = __builtin_bswap32(rec[2]);
			rec[3] = __builtin_bswap32(rec[3]);
		}
		if (rec[2] > cap->snaplen)
			break;	/* libpcap cuts or refuses it: it says */
		/* The times as libpcap gives them: its record header's
		 * fields are signed, and its byte swap makes them unsigned.
		 */
		h.ts.tv_sec = swapped ? (time_t)rec[0] :
			(time_t)(int32_t)rec[0];
		h.ts.tv_usec = (swapped ? (suseconds_t)rec[1] :
				(suseconds_t)(int32_t)rec[1]) * ns_mult;
		h.caplen = rec[2];
		h.len = rec[3];
		tp_capture_walk_record(sc, cap, &h, &prev);
		off += TP_PCAP_REC_LEN + rec[2];
	}
	free(buf);
	return ret;
}
