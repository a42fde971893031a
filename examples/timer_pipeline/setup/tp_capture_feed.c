/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The copy of an rx_pcap capture that net_pcap reads instead of it, for a
 * file holding records cut by its snapshot length or over 65535 bytes
 * (tp_capture.h): every record, in order, read with libpcap and written
 * with its wire length in a trailer, an oversize one cut to its headers.
 * No lock: this runs once per such file, before EAL, on the main thread.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_common.h>

#include "setup/tp_capture_feed.h"
#include "setup/tp_capture_types.h"

/*
 * One record of the copy: at most TP_CAPTURE_OVERSIZE_KEEP bytes of an
 * oversize record, then the wire length (little endian). Its header says
 * the bytes it holds and, as length on the wire, the wire length plus
 * the trailer, so that libpcap and tcpdump read the copy as a capture.
 */
static void
tp_capture_feed_record(pcap_dumper_t *d, const struct pcap_pkthdr *h,
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
int
tp_capture_feed_write(struct tp_capture *cap, char *err, size_t errlen)
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
		tp_capture_feed_record(d, h, data, buf);
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
