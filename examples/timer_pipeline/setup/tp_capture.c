/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * rx_pcap captures, checked before EAL starts (see tp_capture.h for why).
 * libpcap opens each file and reads its header (format, link type,
 * snapshot length). One pass then reads every record header: for a pcap
 * file in the current format (2.4), the record headers alone, walked in
 * 1-MB reads (tp_capture_walk.c); for pcapng, and for any pcap file whose
 * walk meets a record libpcap would treat specially (longer than the
 * snapshot length, cut by the file's end), pcap_next_ex() over every
 * record and its bytes, which has the last word. A file holding records
 * cut by its snapshot length or over 65535 bytes then gets the copy
 * net_pcap reads instead (tp_capture_feed.c).
 *
 * The walk of a long capture takes a while (0.17 s for the 1.3 GB of
 * docs/bench.rst's long one), and so does EAL's start (0.15 s here, most
 * of it a sleep that measures the TSC): a capture that the walk can read
 * and whose first record is whole, so that none of the checks that must
 * refuse it before EAL can fail (a file that cannot be opened, a link
 * type, no complete packet), is walked in a thread of its own while EAL
 * starts, and tp_capture_settle() finishes its check. Anything else the
 * walk meets is then found after EAL has started: libpcap's pass over a
 * record it cannot vouch for, a refusal of a file damaged further on, and
 * the copy (net_pcap, probed on the file, is probed again on the copy:
 * tp_preflight_settle()).
 *
 * Locking: none. The main thread checks and settles; a late walk's
 * thread writes only its tp_cap_late and its entry's counts, which the
 * main thread reads only after joining it.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
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
#include "setup/tp_capture_msg.h"
#include "setup/tp_capture_walk.h"

#define TP_CAP_MAX 64
/* The scan's stdio buffer. */
#define TP_CAP_READ_BUF (1u << 20)

#define TP_PCAP_MAGIC_US 0xa1b2c3d4u
#define TP_PCAP_MAGIC_NS 0xa1b23c4du
#define TP_PCAPNG_SHB 0x0a0d0d0au

/* Every checked capture, for tp_capture_find() and the cleanup. */
static struct tp_capture tp_caps[TP_CAP_MAX];
static unsigned int tp_nb_caps;

/* At most this many header walks run beside EAL's start; more wait. */
#define TP_CAP_LATE_MAX 8

/* A capture whose header walk runs beside EAL's start. */
struct tp_cap_late {
	pthread_t thread;
	pcap_t *p;			/* open until settled */
	struct tp_capture *cap;		/* its entry, counted already */
	struct tp_cap_scan sc;		/* the walk's... */
	struct tp_cap_scan sc0;		/* ...and where it started */
	struct tp_capture cap0;
	int ret;			/* tp_capture_walk()'s */
	int err_no;			/* its errno */
	char vdev[64];
	bool stop_when_done;
	bool replay_pace;
};
static struct tp_cap_late tp_lates[TP_CAP_LATE_MAX];
static unsigned int tp_nb_lates;

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
		tp_capture_walk_record(sc, cap, h, &prev);
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
 * Open a capture and check its link type into cap: libpcap's handle, or
 * NULL with the problem in err.
 */
static pcap_t *
tp_cap_start(const char *path, struct tp_cap_scan *sc, struct tp_capture *cap,
	     char *err, size_t errlen)
{
	pcap_t *p;

	memset(sc, 0, sizeof(*sc));
	p = tp_cap_open(path, sc, err, errlen);
	if (p == NULL)
		return NULL;
	cap->linktype = pcap_datalink(p);
	cap->snaplen = (uint32_t)RTE_MAX(pcap_snapshot(p), 0);
	if (!tp_capture_linktype_supported(cap->linktype)) {
		snprintf(err, errlen, "has link type %d (%s, %s): the pipeline "
			 "reads Ethernet, Linux cooked (LINUX_SLL, "
			 "LINUX_SLL2), raw IP (RAW, IPV4, IPV6) and loopback "
			 "(NULL, LOOP) captures; convert it first, e.g. with "
			 "tcprewrite --dlt=enet", cap->linktype,
			 tp_capture_linktype_name(cap->linktype),
			 pcap_datalink_val_to_description_or_dlt(
				 cap->linktype));
		pcap_close(p);
		return NULL;
	}
	return p;
}

/* Whether the header walk reads it: pcap 2.4 with 16-byte headers. */
static bool
tp_cap_walkable(pcap_t *p, const struct tp_cap_scan *sc)
{
	return sc->plain && pcap_major_version(p) == 2 &&
		pcap_minor_version(p) == 4;
}

/*
 * After the walk (tp_capture_walk()'s ret, errno err_no): done, or libpcap's
 * pass, started from what the walk started from (sc0, cap0).
 */
static int
tp_cap_walked(pcap_t *p, int ret, int err_no, struct tp_cap_scan *sc,
	      struct tp_capture *cap, const struct tp_cap_scan *sc0,
	      const struct tp_capture *cap0, char *err, size_t errlen)
{
	if (ret < 0) {
		snprintf(err, errlen, "cannot be read: %s", strerror(err_no));
		return -1;
	}
	sc->walked = ret == 0;
	if (ret == 0)
		return 0;
	*sc = *sc0;
	*cap = *cap0;
	return tp_cap_read(p, sc, cap, err, errlen);
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
	struct tp_cap_scan sc0;
	struct tp_capture cap0;
	pcap_t *p;
	int ret;

	p = tp_cap_start(path, sc, cap, err, errlen);
	if (p == NULL)
		return -1;
	if (walk && tp_cap_walkable(p, sc)) {
		/* What libpcap's pass starts from, if the walk hands over. */
		sc0 = *sc;
		cap0 = *cap;
		ret = tp_capture_walk(fileno(pcap_file(p)),
				      pcap_is_swapped(p) == 1, sc, cap);
		ret = tp_cap_walked(p, ret, errno, sc, cap, &sc0, &cap0, err,
				    errlen);
	} else {
		ret = tp_cap_read(p, sc, cap, err, errlen);
	}
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

/*
 * The check's end, once the scan is done (ret, err): the copy, the
 * refusals, the warnings. The entry counts from here on, if it did not.
 */
static const struct tp_capture *
tp_cap_finish(const char *vdev, struct tp_capture *cap,
	      const struct tp_cap_scan *sc, int ret, char *err, size_t errlen,
	      bool infinite, bool stop_when_done, bool replay_pace)
{
	static bool atexit_done;

	if (ret < 0 || ((cap->oversize > 0 || cap->cut_records > 0) &&
			tp_capture_feed_write(cap, err, errlen) < 0)) {
		tp_capture_msg("error", "--vdev %s: rx_pcap '%s' %s", vdev,
			       cap->path, err);
		return NULL;
	}
	cap->max_gap_ns = sc->max_gap_ns;
	cap->feed_max_caplen = sc->max_caplen +
		(cap->filtered ? TP_CAPTURE_TRAILER_LEN : 0);
	if (cap == &tp_caps[tp_nb_caps])
		tp_nb_caps++;
	if (!atexit_done && cap->filtered)
		atexit_done = atexit(tp_capture_release) == 0;
	if (tp_capture_msg_refuse(vdev, cap, sc, infinite, stop_when_done) < 0)
		return NULL;
	tp_capture_msg_warnings(vdev, cap, sc, replay_pace);
	return cap;
}

/* Its walk, beside EAL's start. */
static void *
tp_cap_late_walk(void *arg)
{
	struct tp_cap_late *l = arg;

	l->ret = tp_capture_walk(fileno(pcap_file(l->p)),
				 pcap_is_swapped(l->p) == 1, &l->sc, l->cap);
	l->err_no = errno;
	return NULL;
}

/*
 * Whether the first record of a capture opened by p is whole and within
 * the snapshot length: then every pass counts at least one packet.
 */
static bool
tp_cap_first_whole(pcap_t *p, const struct tp_cap_scan *sc, uint32_t snaplen)
{
	uint32_t rec[4];

	if (pread(fileno(pcap_file(p)), rec, sizeof(rec), TP_PCAP_HDR_LEN) !=
	    (ssize_t)sizeof(rec))
		return false;
	if (pcap_is_swapped(p) == 1)
		rec[2] = __builtin_bswap32(rec[2]);
	return rec[2] <= snaplen &&
		TP_PCAP_HDR_LEN + TP_PCAP_REC_LEN + (uint64_t)rec[2] <= sc->size;
}

/*
 * Start the header walk of a capture in a thread of its own (late):
 * true, or false when the check must be done here and now.
 */
static bool
tp_cap_late_start(const char *vdev, struct tp_capture *cap, bool stop_when_done,
		  bool replay_pace, char *err, size_t errlen, pcap_t **pp)
{
	struct tp_cap_late *l;

	if (tp_nb_lates == TP_CAP_LATE_MAX)
		return false;
	l = &tp_lates[tp_nb_lates];
	*pp = tp_cap_start(cap->path, &l->sc, cap, err, errlen);
	if (*pp == NULL || !tp_cap_walkable(*pp, &l->sc) ||
	    !tp_cap_first_whole(*pp, &l->sc, cap->snaplen))
		return false;
	l->p = *pp;
	l->cap = cap;
	l->sc0 = l->sc;
	l->cap0 = *cap;
	snprintf(l->vdev, sizeof(l->vdev), "%s", vdev);
	l->stop_when_done = stop_when_done;
	l->replay_pace = replay_pace;
	if (pthread_create(&l->thread, NULL, tp_cap_late_walk, l) != 0)
		return false;
	tp_nb_lates++;
	tp_nb_caps++;
	return true;
}

const struct tp_capture *
tp_capture_check(const char *vdev, const char *path, bool infinite,
		 bool stop_when_done, bool replay_pace, bool late)
{
	struct tp_capture *cap;
	struct tp_cap_scan sc;
	char err[PCAP_ERRBUF_SIZE + 512];
	pcap_t *p = NULL;
	int ret;

	if (tp_nb_caps == TP_CAP_MAX) {
		tp_capture_msg("error", "--vdev %s: more than %u rx_pcap "
			       "captures", vdev, TP_CAP_MAX);
		return NULL;
	}
	cap = &tp_caps[tp_nb_caps];
	memset(cap, 0, sizeof(*cap));
	snprintf(cap->path, sizeof(cap->path), "%s", path);
	snprintf(cap->feed, sizeof(cap->feed), "%s", path);
	if (late && !infinite &&
	    tp_cap_late_start(vdev, cap, stop_when_done, replay_pace, err,
			      sizeof(err), &p))
		return cap;
	if (p != NULL)
		pcap_close(p);
	/* Here and now (opened again: its message, if it cannot be). */
	ret = tp_cap_scan(path, &sc, cap, err, sizeof(err), true);
	return tp_cap_finish(vdev, cap, &sc, ret, err, sizeof(err), infinite,
			     stop_when_done, replay_pace);
}

int
tp_capture_settle(void)
{
	char err[PCAP_ERRBUF_SIZE + 512];
	struct tp_cap_late *l;
	unsigned int i;
	int status = 0, ret;

	for (i = 0; i < tp_nb_lates; i++) {
		l = &tp_lates[i];
		pthread_join(l->thread, NULL);
		ret = tp_cap_walked(l->p, l->ret, l->err_no, &l->sc, l->cap,
				    &l->sc0, &l->cap0, err, sizeof(err));
		pcap_close(l->p);
		/* One message: the run stops at the first refusal. */
		if (status == 0 &&
		    tp_cap_finish(l->vdev, l->cap, &l->sc, ret, err,
				  sizeof(err), false, l->stop_when_done,
				  l->replay_pace) == NULL)
			status = -1;
	}
	tp_nb_lates = 0;
	return status;
}
