/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * rx_pcap captures, read with libpcap before EAL starts (see tp_capture.h
 * for why). One pass with pcap_next_ex() reads every record header and
 * its bytes; a second pass, only for a file holding records cut by its
 * snapshot length or over 65535 bytes, writes the copy net_pcap reads
 * instead: every record with its wire length in a trailer, an oversize
 * one cut to its headers. No lock: this runs once, before EAL, on the
 * main thread.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_common.h>

#include "setup/tp_capture.h"

/* Replay-pace gaps worth a warning. */
#define TP_CAP_GAP_WARN_NS (600 * UINT64_C(1000000000))
/* net_pcap with infinite_rx=1 takes one mbuf per packet. */
#define TP_CAP_INFINITE_MAX 2048u
#define TP_CAP_MAX 64
/* The scan's stdio buffer. */
#define TP_CAP_READ_BUF (1u << 20)

#define TP_PCAP_MAGIC_US 0xa1b2c3d4u
#define TP_PCAP_MAGIC_NS 0xa1b23c4du
#define TP_PCAPNG_SHB 0x0a0d0d0au
#define TP_PCAP_HDR_LEN 24u
#define TP_PCAP_REC_LEN 16u

/* Every checked capture, for tp_capture_find() and the cleanup. */
static struct tp_capture tp_caps[TP_CAP_MAX];
static unsigned int tp_nb_caps;

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
	char why[PCAP_ERRBUF_SIZE]; /**< libpcap's error, if it stopped. */
};

static void __rte_format_printf(2, 3)
tp_cap_msg(const char *level, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dpdk-timer_pipeline: %s: ", level);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

bool
tp_capture_linktype_supported(int lt)
{
	switch (lt) {
	case TP_DLT_NULL:
	case TP_DLT_EN10MB:
	case TP_DLT_RAW_12:
	case TP_DLT_RAW_14:
	case TP_DLT_RAW:
	case TP_DLT_LOOP:
	case TP_DLT_LINUX_SLL:
	case TP_DLT_IPV4:
	case TP_DLT_IPV6:
	case TP_DLT_LINUX_SLL2:
		return true;
	default:
		return false;
	}
}

const char *
tp_capture_linktype_name(int lt)
{
	const char *name = pcap_datalink_val_to_name(lt);

	/* Raw IP on OpenBSD; libpcap on Linux has no name for it. */
	if (lt == TP_DLT_RAW_14)
		return "RAW";
	return name != NULL ? name : "unknown";
}

/* Why libpcap could not open it, in our words where the bytes tell. */
static void
tp_cap_open_error(const uint8_t *hdr, size_t n, const char *pcap_err,
		  char *err, size_t errlen)
{
	uint32_t magic, swapped;

	if (n < 4) {
		snprintf(err, errlen, "is not a pcap file: %zu byte%s, too "
			 "short for a pcap header", n, n == 1 ? "" : "s");
		return;
	}
	memcpy(&magic, hdr, sizeof(magic));
	swapped = __builtin_bswap32(magic);
	if (magic != TP_PCAPNG_SHB && magic != TP_PCAP_MAGIC_US &&
	    magic != TP_PCAP_MAGIC_NS && swapped != TP_PCAP_MAGIC_US &&
	    swapped != TP_PCAP_MAGIC_NS) {
		snprintf(err, errlen, "is not a pcap file: it begins with "
			 "%02x %02x %02x %02x, not a pcap or pcapng magic "
			 "number", hdr[0], hdr[1], hdr[2], hdr[3]);
		return;
	}
	if (magic != TP_PCAPNG_SHB && n < TP_PCAP_HDR_LEN) {
		snprintf(err, errlen, "is cut short in its pcap file header "
			 "(%zu of %u bytes)", n, TP_PCAP_HDR_LEN);
		return;
	}
	snprintf(err, errlen, "cannot be read by libpcap: %s", pcap_err);
}

/*
 * Open a capture: a regular file (O_NONBLOCK: a FIFO must not hold us
 * before we see what it is), handed to libpcap as the very descriptor we
 * checked. NULL with what is wrong in err.
 */
static pcap_t *
tp_cap_open(const char *path, struct tp_cap_scan *sc, char *err,
	    size_t errlen)
{
	char pcap_err[PCAP_ERRBUF_SIZE] = "";
	uint8_t hdr[TP_PCAP_HDR_LEN];
	struct stat st;
	ssize_t n;
	pcap_t *p;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot be opened: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "is not a regular file");
		close(fd);
		return NULL;
	}
	sc->size = (uint64_t)st.st_size;
	if (sc->size == 0) {
		snprintf(err, errlen, "is empty (0 bytes), not a pcap file");
		close(fd);
		return NULL;
	}
	n = pread(fd, hdr, sizeof(hdr), 0);
	f = n >= 0 ? fdopen(fd, "rb") : NULL;
	if (f == NULL) {
		snprintf(err, errlen, "cannot be read: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	/* libpcap reads each record with two fread() calls: a large buffer
	 * (one read() per megabyte rather than per 4 KB), and no stdio lock
	 * per call (this thread alone uses the stream).
	 */
	(void)setvbuf(f, NULL, _IOFBF, TP_CAP_READ_BUF);
	(void)__fsetlocking(f, FSETLOCKING_BYCALLER);
	sc->pcapng = n >= 4 && memcmp(hdr, "\x0a\x0d\x0d\x0a", 4) == 0;
	sc->end = TP_PCAP_HDR_LEN;
	p = pcap_fopen_offline_with_tstamp_precision(f,
			PCAP_TSTAMP_PRECISION_NANO, pcap_err);
	if (p == NULL) {
		tp_cap_open_error(hdr, (size_t)n, pcap_err, err, errlen);
		fclose(f);	/* libpcap owns it only once open */
	}
	return p;
}

/* One record: lengths, gaps, oversize ones. */
static void
tp_cap_record(struct tp_cap_scan *sc, struct tp_capture *cap,
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

/*
 * Read every record. A file that ends inside a record is cut short (a
 * warning); libpcap's other errors (a damaged file, pcapng interfaces of
 * different link types) refuse it.
 */
static int
tp_cap_read(pcap_t *p, struct tp_cap_scan *sc, struct tp_capture *cap,
	    char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t prev = 0;
	int ret;

	while ((ret = pcap_next_ex(p, &h, &data)) == 1)
		tp_cap_record(sc, cap, h, &prev);
	if (ret == PCAP_ERROR_BREAK)
		return 0;
	snprintf(sc->why, sizeof(sc->why), "%s", pcap_geterr(p));
	if (strstr(sc->why, "truncated") != NULL) {
		sc->cut = true;
		sc->cut_in_header = strstr(sc->why, "header") != NULL;
		return 0;
	}
	if (strstr(sc->why, "different from the type of the first") != NULL)
		snprintf(err, errlen, "is a pcapng file whose interfaces have "
			 "different link types (the first is %d %s; libpcap: "
			 "%s): split it by interface first, e.g. with tshark "
			 "-r FILE -w OUT -Y frame.interface_id==N",
			 pcap_datalink(p),
			 tp_capture_linktype_name(pcap_datalink(p)), sc->why);
	else
		snprintf(err, errlen, "is damaged after packet %" PRIu64
			 ": %s", cap->records, sc->why);
	return -1;
}

/* Scan a capture into cap: 0, or -1 with the problem in err. */
static int
tp_cap_scan(const char *path, struct tp_cap_scan *sc, struct tp_capture *cap,
	    char *err, size_t errlen)
{
	pcap_t *p;
	int ret;

	memset(sc, 0, sizeof(*sc));
	p = tp_cap_open(path, sc, err, errlen);
	if (p == NULL)
		return -1;
	cap->linktype = pcap_datalink(p);
	cap->snaplen = (uint32_t)RTE_MAX(pcap_snapshot(p), 0);
	ret = 0;
	if (!tp_capture_linktype_supported(cap->linktype)) {
		snprintf(err, errlen, "has link type %d (%s, %s): the pipeline "
			 "reads Ethernet, Linux cooked (LINUX_SLL, "
			 "LINUX_SLL2), raw IP (RAW, IPV4, IPV6) and loopback "
			 "(NULL, LOOP) captures; convert it first, e.g. with "
			 "tcprewrite --dlt=enet", cap->linktype,
			 tp_capture_linktype_name(cap->linktype),
			 pcap_datalink_val_to_description_or_dlt(
				 cap->linktype));
		ret = -1;
	}
	if (ret == 0)
		ret = tp_cap_read(p, sc, cap, err, errlen);
	pcap_close(p);
	return ret;
}

/*
 * One record of the copy: at most TP_CAPTURE_OVERSIZE_KEEP bytes of an
 * oversize record, then the wire length (little endian). Its header says
 * the bytes it holds and, as length on the wire, the wire length plus
 * the trailer, so that libpcap and tcpdump read the copy as a capture.
 */
static void
tp_cap_feed_record(pcap_dumper_t *d, const struct pcap_pkthdr *h,
		   const u_char *data, u_char *buf)
{
	uint32_t keep = h->caplen <= TP_CAPTURE_MAX_CAPLEN ? h->caplen :
		TP_CAPTURE_OVERSIZE_KEEP;
	uint32_t wire = RTE_MAX(h->len, h->caplen);
	struct pcap_pkthdr o = *h;
	int i;

	memcpy(buf, data, keep);
	for (i = 0; i < (int)TP_CAPTURE_TRAILER_LEN; i++)
		buf[keep + i] = (u_char)(wire >> (8 * i));
	o.caplen = keep + TP_CAPTURE_TRAILER_LEN;
	o.len = wire + TP_CAPTURE_TRAILER_LEN;
	pcap_dump((u_char *)d, &o, buf);
}

/*
 * Write the copy net_pcap reads (tp_capture.h): every record, in order,
 * each with its wire-length trailer, into a new temporary file.
 */
static int
tp_cap_write_feed(struct tp_capture *cap, char *err, size_t errlen)
{
	char pcap_err[PCAP_ERRBUF_SIZE];
	const char *tmp = getenv("TMPDIR");
	pcap_dumper_t *d = NULL;
	struct pcap_pkthdr *h;
	pcap_t *in, *dead = NULL;
	const u_char *data;
	u_char *buf = NULL;
	FILE *out = NULL;
	int fd, ret = -1;

	in = pcap_open_offline_with_tstamp_precision(cap->path,
			PCAP_TSTAMP_PRECISION_NANO, pcap_err);
	if (in == NULL) {
		snprintf(err, errlen, "cannot be read by libpcap: %s", pcap_err);
		return -1;
	}
	snprintf(cap->feed, sizeof(cap->feed), "%s/tp_capture_XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	fd = mkstemp(cap->feed);	/* 0600, a name nobody else has */
	if (fd >= 0)
		out = fdopen(fd, "wb");
	buf = malloc(TP_CAPTURE_MAX_CAPLEN + TP_CAPTURE_TRAILER_LEN);
	/* Its snapshot length holds every record with its trailer. */
	if (out != NULL && buf != NULL)
		dead = pcap_open_dead_with_tstamp_precision(cap->linktype,
				(int)(TP_CAPTURE_MAX_CAPLEN +
				      TP_CAPTURE_TRAILER_LEN),
				PCAP_TSTAMP_PRECISION_NANO);
	if (dead != NULL)
		d = pcap_dump_fopen(dead, out);
	if (d == NULL) {
		snprintf(err, errlen, "needs a copy with each packet's wire "
			 "length, which cannot be written in '%s': %s",
			 cap->feed, buf == NULL ? "out of memory" :
			 strerror(errno));
		goto out;
	}
	out = NULL;	/* the dumper owns it */
	cap->filtered = true;
	while (pcap_next_ex(in, &h, &data) == 1)
		tp_cap_feed_record(d, h, data, buf);
	ret = pcap_dump_flush(d) == 0 ? 0 : -1;
	if (ret < 0)
		snprintf(err, errlen, "needs a copy with each packet's wire "
			 "length; writing '%s' failed: %s", cap->feed,
			 strerror(errno));
out:
	if (d != NULL)
		pcap_dump_close(d);
	if (out != NULL)
		fclose(out);
	else if (fd >= 0 && d == NULL)
		close(fd);
	if (dead != NULL)
		pcap_close(dead);
	pcap_close(in);
	free(buf);
	if (ret < 0 && fd >= 0) {
		unlink(cap->feed);
		cap->filtered = false;
	}
	return ret;
}

void
tp_capture_release(void)
{
	unsigned int i;

	for (i = 0; i < tp_nb_caps; i++) {
		if (!tp_caps[i].filtered)
			continue;
		unlink(tp_caps[i].feed);
		tp_caps[i].filtered = false;
	}
}

const struct tp_capture *
tp_capture_find(const char *feed)
{
	unsigned int i;

	/* The feed in net_pcap's devargs, or the name given to us. */
	for (i = 0; i < tp_nb_caps; i++)
		if (strcmp(tp_caps[i].feed, feed) == 0 ||
		    strcmp(tp_caps[i].path, feed) == 0)
			return &tp_caps[i];
	return NULL;
}

/* Warnings about a capture that will be read. */
static void
tp_cap_warnings(const char *vdev, const struct tp_capture *cap,
		const struct tp_cap_scan *sc, bool replay_pace)
{
	const char *path = cap->path;

	if (sc->cut && !sc->pcapng)
		tp_cap_msg("warning", "--vdev %s: rx_pcap '%s' is cut short at "
			   "byte %" PRIu64 " of %" PRIu64 ", in the %s of "
			   "packet %" PRIu64 ": the %" PRIu64 " packets before"
			   " it are read, net_pcap counts the cut one as an "
			   "RX error", vdev, path, sc->end, sc->size,
			   sc->cut_in_header ? "header" : "data",
			   cap->records + 1, cap->records);
	else if (sc->cut)
		tp_cap_msg("warning", "--vdev %s: rx_pcap '%s' is cut short "
			   "after packet %" PRIu64 " (libpcap: %s): the %"
			   PRIu64 " packets before it are read", vdev, path,
			   cap->records, sc->why, cap->records);
	if (cap->oversize > 0)
		tp_cap_msg("warning", "--vdev %s: rx_pcap '%s': packet %"
			   PRIu64 " holds %" PRIu64 " bytes, more than the %u "
			   "net_pcap can carry: it and every other record over"
			   " %u bytes (%" PRIu64 " in all) are read as their "
			   "first %u bytes and counted at their wire length "
			   "('oversize')", vdev, path, cap->first_oversize,
			   cap->first_oversize_len, TP_CAPTURE_MAX_CAPLEN,
			   TP_CAPTURE_MAX_CAPLEN, cap->oversize,
			   TP_CAPTURE_OVERSIZE_KEEP);
	if (cap->cut_records > 0)
		tp_cap_msg("info", "--vdev %s: rx_pcap '%s' was captured with "
			   "a snapshot length of %u bytes: %" PRIu64 " of its %"
			   PRIu64 " packets are cut (the first is packet %"
			   PRIu64 "); each is aged by the headers it holds and "
			   "counted at its wire length ('truncated')", vdev,
			   path, cap->snaplen, cap->cut_records, cap->records,
			   cap->first_cut);
	if (cap->records == 0)
		tp_cap_msg("warning", "--vdev %s: rx_pcap '%s' holds no "
			   "complete packet", vdev, path);
	if (replay_pace && sc->max_gap_ns > TP_CAP_GAP_WARN_NS)
		tp_cap_msg("warning", "--vdev %s: rx_pcap '%s': %" PRIu64 " s "
			   "pass between packets %" PRIu64 " and %" PRIu64
			   ", and --replay-pace will wait that long", vdev,
			   path, sc->max_gap_ns / 1000000000, sc->gap_rec - 1,
			   sc->gap_rec);
}

/* Refusals that depend on how the capture is read. */
static int
tp_cap_refuse(const char *vdev, const struct tp_capture *cap,
	      const struct tp_cap_scan *sc, bool infinite,
	      bool stop_when_done)
{
	if (infinite && sc->max_caplen + (cap->filtered ?
			TP_CAPTURE_TRAILER_LEN : 0) > TP_CAP_INFINITE_MAX) {
		tp_cap_msg("error", "--vdev %s: rx_pcap '%s': packet %" PRIu64
			   " holds %" PRIu64 " bytes; with infinite_rx=1 "
			   "net_pcap takes packets of at most %u bytes", vdev,
			   cap->path, sc->max_rec, sc->max_caplen +
			   (cap->filtered ? TP_CAPTURE_TRAILER_LEN : 0),
			   TP_CAP_INFINITE_MAX);
		return -1;
	}
	if (cap->records == 0 && (infinite || stop_when_done)) {
		tp_cap_msg("error", "--vdev %s: rx_pcap '%s' holds no complete "
			   "packet: %s", vdev, cap->path, infinite ?
			   "infinite_rx=1 needs at least one" :
			   "--stop-when-done would wait for input forever");
		return -1;
	}
	return 0;
}

const struct tp_capture *
tp_capture_check(const char *vdev, const char *path, bool infinite,
		 bool stop_when_done, bool replay_pace)
{
	struct tp_capture *cap;
	struct tp_cap_scan sc;
	char err[PCAP_ERRBUF_SIZE + 512];
	static bool atexit_done;

	if (tp_nb_caps == TP_CAP_MAX) {
		tp_cap_msg("error", "--vdev %s: more than %u rx_pcap captures",
			   vdev, TP_CAP_MAX);
		return NULL;
	}
	cap = &tp_caps[tp_nb_caps];
	memset(cap, 0, sizeof(*cap));
	snprintf(cap->path, sizeof(cap->path), "%s", path);
	snprintf(cap->feed, sizeof(cap->feed), "%s", path);
	if (tp_cap_scan(path, &sc, cap, err, sizeof(err)) < 0 ||
	    ((cap->oversize > 0 || cap->cut_records > 0) &&
	     tp_cap_write_feed(cap, err, sizeof(err)) < 0)) {
		tp_cap_msg("error", "--vdev %s: rx_pcap '%s' %s", vdev, path,
			   err);
		return NULL;
	}
	cap->max_gap_ns = sc.max_gap_ns;
	cap->feed_max_caplen = sc.max_caplen +
		(cap->filtered ? TP_CAPTURE_TRAILER_LEN : 0);
	tp_nb_caps++;
	if (!atexit_done && cap->filtered)
		atexit_done = atexit(tp_capture_release) == 0;
	if (tp_cap_refuse(vdev, cap, &sc, infinite, stop_when_done) < 0)
		return NULL;
	tp_cap_warnings(vdev, cap, &sc, replay_pace);
	return cap;
}
