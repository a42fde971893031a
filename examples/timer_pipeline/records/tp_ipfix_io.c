/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The exporter's transport (tp_ipfix_io.h): UDP, TCP with bounded
 * connects and sends and a backoff, or a file through the record sink.
 * Runs on the exporter's thread or service only; counters are stored
 * atomically.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tp_ctx.h"
#include "records/tp_ipfix_enc.h"
#include "records/tp_ipfix_io.h"
#include "records/tp_sink.h"

/* Non-blocking connect bounded by TP_IPFIX_IO_MS; then blocking sends
 * bounded by the same timeout (a slow collector costs records, not time).
 */
static int
tp_ipfix_io_connect(struct tp_ipfix *x)
{
	struct timeval tv = { 0, TP_IPFIX_IO_MS * 1000 };
	struct pollfd pfd;
	int fd, err = 0;
	socklen_t el = sizeof(err);

	fd = socket(x->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&x->addr, x->addrlen) != 0) {
		if (errno != EINPROGRESS)
			goto fail;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, TP_IPFIX_IO_MS) != 1 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0 ||
		    err != 0)
			goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0)
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}

/* Open the transport; false when it is not there (TCP: retry later). */
bool
tp_ipfix_io_open(struct tp_ipfix *x)
{
	const struct tp_config *cfg = x->ctx->cfg;

	if (x->file) {
		/* Once: after a write error the file takes no more. */
		if (x->connects > 0 ||
		    tp_sink_open(&x->sink, "--ipfix-file", cfg->ipfix_file,
				 0, (off_t)cfg->file_cache_mb << 20) < 0)
			return false;	/* logged */
		x->fd = x->sink.fd;
	} else if (x->tcp) {
		x->fd = tp_ipfix_io_connect(x);
	} else {
		x->fd = socket(x->addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (x->fd >= 0 && connect(x->fd, (struct sockaddr *)&x->addr,
					  x->addrlen) != 0) {
			close(x->fd);
			x->fd = -1;
		}
	}
	if (x->fd < 0)
		return false;
	if (x->connects++ > 0)
		TP_IPFIX_ADD(x, reconnects, 1);
	return true;
}

void
tp_ipfix_io_close(struct tp_ipfix *x, uint64_t now)
{
	if (x->file) {
		if (x->fd >= 0) {
			bool clean = x->sink.err == 0;

			tp_sink_close(&x->sink);
			/* A failed close: every record in the file in doubt. */
			if (clean && x->sink.err != 0) {
				TP_IPFIX_ADD(x, not_sent, x->st.records);
				__atomic_store_n(&x->st.records, 0,
						 __ATOMIC_RELAXED);
			}
		}
		x->fd = -1;
		return;
	}
	if (x->fd >= 0)
		close(x->fd);
	x->fd = -1;
	if (!x->tcp)
		return;
	x->next_try_ms = now + x->backoff_ms;
	x->backoff_ms = RTE_MIN(x->backoff_ms * 2,
				(uint64_t)TP_IPFIX_BACKOFF_MAX_MS);
}

/*
 * One datagram. The thread may wait for room in the socket's send buffer;
 * the exporter service waits at most TP_IPFIX_SVC_SEND_MS, then counts
 * the message's records as not sent: it shares its lcore with the
 * pipeline's services.
 */
static bool
tp_ipfix_io_udp(struct tp_ipfix *x, const uint8_t *p, size_t len)
{
	struct pollfd pfd = { .fd = x->fd, .events = POLLOUT };
	ssize_t n;

	if (!x->as_service)
		return TP_STAGE_RET(WRITE, 1, send(x->fd, p, len, 0)) ==
			(ssize_t)len;
	n = TP_STAGE_RET(WRITE, 1, send(x->fd, p, len, MSG_DONTWAIT));
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
	    poll(&pfd, 1, TP_IPFIX_SVC_SEND_MS) == 1)
		n = TP_STAGE_RET(WRITE, 1, send(x->fd, p, len, MSG_DONTWAIT));
	return n == (ssize_t)len;
}

/* Write a whole message; a TCP stream cut mid-message is closed. */
bool
tp_ipfix_io_write(struct tp_ipfix *x, const uint8_t *p, size_t len,
		  unsigned int nrec)
{
	ssize_t n;

	if (x->fd < 0)
		return false;
	if (x->file)	/* cut back to whole messages on an error */
		return tp_sink_put(&x->sink, p, len, nrec) == 0;
	if (!x->tcp)
		return tp_ipfix_io_udp(x, p, len);
	while (len > 0) {
		n = TP_STAGE_RET(WRITE, 1, send(x->fd, p, len, MSG_NOSIGNAL));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/*
 * Send the open message; its flows (those whose last record it holds)
 * count as sent or not sent.
 */
bool
tp_ipfix_io_send(struct tp_ipfix *x)
{
	unsigned int nrec, ndata;
	const uint8_t *m;
	size_t len;

	m = tp_ipfix_enc_take(x->enc, &len, &nrec, &ndata);
	if (len == 0) {
		TP_IPFIX_ADD(x, not_sent, nrec);
		return nrec == 0;
	}
	if (!tp_ipfix_io_write(x, m, len, nrec)) {
		TP_IPFIX_ADD(x, not_sent, nrec);
		if (x->tcp || x->file)
			tp_ipfix_io_close(x, tp_ipfix_io_now_ms());
		return false;
	}
	TP_IPFIX_ADD(x, messages, 1);
	TP_IPFIX_ADD(x, bytes, len);
	TP_IPFIX_ADD(x, records, nrec);
	TP_IPFIX_ADD(x, data_records, ndata);
	if (nrec > 0) {
		uint64_t now = tp_ipfix_io_now_us();

		if (x->first_sent_us == 0)
			x->first_sent_us = now;
		__atomic_store_n(&x->st.window_us, now - x->first_sent_us,
				 __ATOMIC_RELAXED);
	}
	return true;
}
