/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * rx_pcap captures, checked before EAL starts (see tp_capture.h for why).
 * libpcap opens each file and reads its header (format, link type,
 * snapshot length). One pass then reads every record header: for a pcap
 * file in the current format (2.4), the record headers alone, walked in
 * 1-MB reads (tp_cap_walk()); for pcapng, and for any pcap file whose
 * walk meets a record libpcap would treat specially (longer than the
 * snapshot length, cut by the file's end), pcap_next_ex() over every
 * record and its bytes, which has the last word. A file holding records
 * cut by its snapshot length or over 65535 bytes then gets the copy
 * net_pcap reads instead (tp_capture_feed.c). No lock: this runs once,
 * before EAL, on the main thread.
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
#include "setup/tp_capture_feed.h"

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
/* The header walk's reads. */
#define TP_CAP_WALK_BUF (1u << 20)

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
	bool plain;		/**< pcap with 16-byte record headers... */
	bool ns;		/**< ...and nanosecond timestamps. */
	bool walked;		/**< Read by the header walk alone. */
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
	if (n >= 4) {
		uint32_t magic;

		memcpy(&magic, hdr, sizeof(magic));
		sc->ns = magic == TP_PCAP_MAGIC_NS ||
			magic == __builtin_bswap32(TP_PCAP_MAGIC_NS);
		/* Not the modified formats, whose records are longer. */
		sc->plain = sc->ns || magic == TP_PCAP_MAGIC_US ||
			magic == __builtin_bswap32(TP_PCAP_MAGIC_US);
	}
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
 * The record headers of a pcap 2.4 file (fd, byte-swapped or not), read
 * in TP_CAP_WALK_BUF pieces and walked in memory. libpcap's pass reads
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
static int
tp_cap_walk(int fd, bool swapped, struct tp_cap_scan *sc,
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
		tp_cap_record(sc, cap, &h, &prev);
		off += TP_PCAP_REC_LEN + rec[2];
	}
	free(buf);
	return ret;
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

/*
 * Scan a capture into cap: 0, or -1 with the problem in err. walk: try
 * the header walk first where it applies (false: libpcap's pass alone,
 * which the fuzz target holds the walk to).
 */
static int
tp_cap_scan(const char *path, struct tp_cap_scan *sc, struct tp_capture *cap,
	    char *err, size_t errlen, bool walk)
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
	if (ret == 0 && walk && sc->plain && pcap_major_version(p) == 2 &&
	    pcap_minor_version(p) == 4) {
		/* What libpcap's pass starts from, if the walk hands over. */
		struct tp_cap_scan sc0 = *sc;
		struct tp_capture cap0 = *cap;

		ret = tp_cap_walk(fileno(pcap_file(p)), pcap_is_swapped(p) == 1,
				  sc, cap);
		if (ret < 0)
			snprintf(err, errlen, "cannot be read: %s",
				 strerror(errno));
		sc->walked = ret == 0;
		if (ret == 0)
			goto out;
		if (ret == 1) {
			*sc = sc0;
			*cap = cap0;
			ret = 0;
		}
	}
	if (ret >= 0)
		ret = tp_cap_read(p, sc, cap, err, errlen);
out:
	pcap_close(p);
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
	if (tp_cap_scan(path, &sc, cap, err, sizeof(err), true) < 0 ||
	    ((cap->oversize > 0 || cap->cut_records > 0) &&
	     tp_capture_feed_write(cap, err, sizeof(err)) < 0)) {
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
