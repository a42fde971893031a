/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * libFuzzer target: the rx_pcap pre-scan (tp_capture_check(),
 * examples/timer_pipeline/setup/tp_capture.c, on libpcap) on any file: pcap of
 * either byte order and timestamp unit, pcapng with any blocks, or
 * neither.
 *
 * The input's first byte holds the check's flags (bit 0 infinite_rx=1,
 * bit 1 --stop-when-done, bit 2 --replay-pace), the rest is the file. It
 * is written to one memfd, named /proc/self/fd/N, and checked twice (two
 * entries of the capture table): once on the spot, once late (its walk
 * in a thread, where tp_capture_check() allows it, finished by
 * tp_capture_settle(), as while EAL starts). The filtered copies go to a
 * private TMPDIR. After each run the table is emptied (tp_capture_release() and
 * the entry count, reached by including tp_capture.c) and the directory
 * must be empty again.
 *
 * Promises checked: both checks give the same answer; an accepted capture
 * has a supported link type, consistent oversize and cut counts, is found
 * by tp_capture_find() under its path and its feed; a copy is made
 * exactly when a record is cut or oversize, and is a pcap of the same
 * link type holding every record, in order: its bytes (an oversize one's
 * first TP_CAPTURE_OVERSIZE_KEEP), then its wire length in the trailer;
 * for a pcap 2.4 file, the records counted are exactly the whole records
 * in the file (walked here, independently of libpcap). The scan's header
 * walk and libpcap's pass over every record find the same (every field
 * of the entry and of the scan, the same answer and error), and the walk
 * reads alone every pcap 2.4 file whose records are all whole and within
 * its snapshot length.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "setup/tp_capture.c"
#include "setup/tp_capture_feed.c"
#include "setup/tp_capture_msg.c"
#include "setup/tp_capture_walk.c"

#include "fuzz_report.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int tp_fuzz_fd = -1;
static char tp_fuzz_path[64];
static char tp_fuzz_tmp[PATH_MAX];

static void
tp_fuzz_rmtmp(void)
{
	tp_capture_release();
	rmdir(tp_fuzz_tmp);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	snprintf(tp_fuzz_tmp, sizeof(tp_fuzz_tmp), "%s/tp_fuzz_cap.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(tp_fuzz_tmp) == NULL ||
	    setenv("TMPDIR", tp_fuzz_tmp, 1) != 0)
		abort();
	atexit(tp_fuzz_rmtmp);
	tp_fuzz_report_init();
	tp_fuzz_fd = memfd_create("tp_fuzz_capture", MFD_CLOEXEC);
	if (tp_fuzz_fd < 0)
		abort();
	snprintf(tp_fuzz_path, sizeof(tp_fuzz_path), "/proc/self/fd/%d",
		 tp_fuzz_fd);
	return 0;
}

static unsigned int
tp_fuzz_tmp_files(void)
{
	DIR *d = opendir(tp_fuzz_tmp);
	struct dirent *e;
	unsigned int n = 0;

	if (d == NULL)
		abort();
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/*
 * Whole records of a pcap 2.4 file, -1 for another kind of file; *maxcap:
 * the largest captured length among them.
 */
static int64_t
tp_fuzz_pcap_records(const uint8_t *f, size_t size, uint32_t *maxcap)
{
	uint32_t magic, caplen;
	uint16_t major, minor;
	bool swap;
	size_t off;
	int64_t n = 0;

	if (size < TP_PCAP_HDR_LEN)
		return -1;
	memcpy(&magic, f, 4);
	swap = magic == __builtin_bswap32(TP_PCAP_MAGIC_US) ||
		magic == __builtin_bswap32(TP_PCAP_MAGIC_NS);
	if (!swap && magic != TP_PCAP_MAGIC_US && magic != TP_PCAP_MAGIC_NS)
		return -1;
	memcpy(&major, f + 4, 2);
	memcpy(&minor, f + 6, 2);
	if (swap) {
		major = __builtin_bswap16(major);
		minor = __builtin_bswap16(minor);
	}
	if (major != 2 || minor != 4)
		return -1;
	for (off = TP_PCAP_HDR_LEN; size - off >= TP_PCAP_REC_LEN; n++) {
		memcpy(&caplen, f + off + 8, 4);
		if (swap)
			caplen = __builtin_bswap32(caplen);
		if (size - off - TP_PCAP_REC_LEN < caplen)
			break;
		*maxcap = RTE_MAX(*maxcap, caplen);
		off += TP_PCAP_REC_LEN + caplen;
	}
	return n;
}

/* The copy, record by record against the file as libpcap reads it. */
static void
tp_fuzz_check_feed(const struct tp_capture *cap)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h, *o;
	const u_char *d, *od;
	uint64_t n = 0;
	pcap_t *p, *orig;
	uint32_t keep, wire;
	int ret;

	p = pcap_open_offline(cap->feed, err);
	orig = pcap_open_offline(cap->path, err);
	if (p == NULL || orig == NULL || pcap_datalink(p) != cap->linktype)
		TP_FUZZ_FAIL("the copy cannot be read or has another link "
			     "type");
	while ((ret = pcap_next_ex(p, &h, &d)) == 1) {
		if (pcap_next_ex(orig, &o, &od) != 1)
			TP_FUZZ_FAIL("the copy holds more records than the "
				     "file (%" PRIu64 ")", n);
		keep = o->caplen <= TP_CAPTURE_MAX_CAPLEN ? o->caplen :
			TP_CAPTURE_OVERSIZE_KEEP;
		wire = RTE_MAX(o->len, o->caplen);
		if (h->caplen != keep + TP_CAPTURE_TRAILER_LEN ||
		    memcmp(d, od, keep) != 0 ||
		    (d[keep] | d[keep + 1] << 8 | d[keep + 2] << 16 |
		     (uint32_t)d[keep + 3] << 24) != wire)
			TP_FUZZ_FAIL("record %" PRIu64 " of the copy: %u bytes"
				     " for %u of %u on the wire", n + 1,
				     h->caplen, o->caplen, wire);
		n++;
	}
	pcap_close(p);
	pcap_close(orig);
	if (ret != PCAP_ERROR_BREAK || n != cap->records)
		TP_FUZZ_FAIL("the copy holds %" PRIu64 " records, want %"
			     PRIu64, n, cap->records);
}

static void
tp_fuzz_check_cap(const struct tp_capture *cap, bool infinite,
		  const uint8_t *file, size_t size)
{
	uint32_t maxcap = 0;
	int64_t whole;

	if (!tp_capture_linktype_supported(cap->linktype) ||
	    cap->oversize > cap->records ||
	    cap->cut_records > cap->records ||
	    (cap->cut_records > 0) != (cap->first_cut > 0) ||
	    cap->first_cut > cap->records ||
	    (cap->oversize > 0) != (cap->first_oversize > 0) ||
	    cap->first_oversize > cap->records ||
	    (cap->oversize > 0 &&
	     cap->first_oversize_len <= TP_CAPTURE_MAX_CAPLEN) ||
	    strcmp(cap->path, tp_fuzz_path) != 0 ||
	    tp_capture_find(cap->feed) == NULL ||
	    tp_capture_find(cap->path) == NULL)
		TP_FUZZ_FAIL("inconsistent entry: link type %d, %" PRIu64
			     " records, %" PRIu64 " oversize", cap->linktype,
			     cap->records, cap->oversize);
	/* A copy exactly when a record is cut or oversize. */
	RTE_SET_USED(infinite);
	if (cap->filtered != (cap->oversize > 0 || cap->cut_records > 0) ||
	    (cap->filtered ? strncmp(cap->feed, tp_fuzz_tmp,
				     strlen(tp_fuzz_tmp)) != 0 :
	     strcmp(cap->feed, cap->path) != 0))
		TP_FUZZ_FAIL("feed '%s' (filtered %d) for %" PRIu64
			     " oversize and %" PRIu64 " cut records",
			     cap->feed, cap->filtered, cap->oversize,
			     cap->cut_records);
	if (cap->filtered)
		tp_fuzz_check_feed(cap);
	whole = tp_fuzz_pcap_records(file, size, &maxcap);
	if (whole >= 0 && (uint64_t)whole != cap->records)
		TP_FUZZ_FAIL("%" PRIu64 " records counted, the file holds %"
			     PRId64 " whole ones", cap->records, whole);
}

/* The fields the header walk and libpcap's pass must agree on. */
#define TP_FUZZ_SCAN_FIELDS(X)						\
	X(cap, linktype) X(cap, snaplen) X(cap, records)		\
	X(cap, cut_records) X(cap, first_cut) X(cap, oversize)		\
	X(cap, first_oversize) X(cap, first_oversize_len)		\
	X(cap, first_ns) X(cap, last_ns) X(sc, pcapng) X(sc, size)	\
	X(sc, end) X(sc, max_caplen) X(sc, max_rec) X(sc, max_gap_ns)	\
	X(sc, gap_rec) X(sc, cut) X(sc, cut_in_header)

/* The header walk against libpcap's pass, on the same file. */
static void
tp_fuzz_check_walk(const uint8_t *file, size_t size)
{
	struct tp_capture cap[2];
	struct tp_cap_scan sc[2];
	char err[2][PCAP_ERRBUF_SIZE + 512];
	uint32_t maxcap = 0;
	int ret[2], i;
	int64_t whole;

	for (i = 0; i < 2; i++) {
		memset(&cap[i], 0, sizeof(cap[i]));
		err[i][0] = '\0';
		ret[i] = tp_cap_scan(tp_fuzz_path, &sc[i], &cap[i], err[i],
				     sizeof(err[i]), i == 0);
	}
	if (ret[0] != ret[1] || strcmp(err[0], err[1]) != 0)
		TP_FUZZ_FAIL("walk: %d '%s', libpcap: %d '%s'", ret[0],
			     err[0], ret[1], err[1]);
#define TP_FUZZ_SAME(s, f)						\
	if (s[0].f != s[1].f)						\
		TP_FUZZ_FAIL("walk and libpcap differ in " #s "." #f	\
			     ": %" PRIu64 " and %" PRIu64,		\
			     (uint64_t)s[0].f, (uint64_t)s[1].f);
	if (ret[0] == 0) {
		TP_FUZZ_SCAN_FIELDS(TP_FUZZ_SAME)
	}
#undef TP_FUZZ_SAME
	/* Whole records within the snapshot length: the walk alone. */
	whole = tp_fuzz_pcap_records(file, size, &maxcap);
	if (ret[0] == 0 && whole >= 0 && sc[0].end == sc[0].size &&
	    maxcap <= cap[0].snaplen && !sc[0].walked)
		TP_FUZZ_FAIL("a whole pcap 2.4 file of %" PRId64 " records "
			     "was not read by the header walk", whole);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tp_capture *cap[2];
	bool infinite, stop, pace;
	unsigned int i;

	if (size < 1)
		return 0;
	infinite = data[0] & 1;
	stop = data[0] & 2;
	pace = data[0] & 4;
	data++;
	size--;
	if (ftruncate(tp_fuzz_fd, 0) != 0 ||
	    pwrite(tp_fuzz_fd, data, size, 0) != (ssize_t)size)
		abort();
	/* The second check may walk the file in a thread (late). */
	for (i = 0; i < 2; i++)
		cap[i] = tp_capture_check("net_pcap0", tp_fuzz_path, infinite,
					  stop, pace, i == 1);
	if (tp_capture_settle() < 0)
		cap[1] = NULL;
	for (i = 0; i < 2; i++)
		if (cap[i] != NULL)
			tp_fuzz_check_cap(cap[i], infinite, data, size);
	if ((cap[0] == NULL) != (cap[1] == NULL) ||
	    (cap[0] != NULL && (cap[0]->records != cap[1]->records ||
				cap[0]->oversize != cap[1]->oversize ||
				cap[0]->cut_records != cap[1]->cut_records ||
				cap[0]->linktype != cap[1]->linktype ||
				cap[0]->max_gap_ns != cap[1]->max_gap_ns)))
		TP_FUZZ_FAIL("the same file checked twice differs");
	tp_fuzz_check_walk(data, size);
	/* Empty the table: no copy may outlive it. */
	tp_capture_release();
	if (tp_fuzz_tmp_files() != 0)
		TP_FUZZ_FAIL("a filtered copy outlived tp_capture_release()");
	memset(tp_caps, 0, sizeof(tp_caps[0]) * tp_nb_caps);
	tp_nb_caps = 0;
	return 0;
}
