/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The record sink (see tp_sink.h): a buffered output file that counts the
 * records that reached it and those that did not. A sink is used by one
 * thread; its two counters are stored atomically for readers.
 */

#define _GNU_SOURCE		/* fallocate() */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include <rte_common.h>
#include <rte_debug.h>

#include "datapath/tp_stages.h"
#include "tp_log.h"
#include "records/tp_output.h"
#include "records/tp_sink.h"

/* A regular file's written pages leave the page cache in steps of this
 * many bytes (tp_sink_drop_cache()).
 */
#define TP_SINK_DROP_STEP (8 << 20)

static void
tp_sink_add(uint64_t *ctr, uint64_t n)
{
	__atomic_store_n(ctr, *ctr + n, __ATOMIC_RELAXED);
}

/*
 * A file of records is written once and read, if at all, later: its pages
 * need not stay in the page cache, and a long log should not push out
 * what other programs cache. The pages more than s->keep bytes behind the
 * file's end (--file-cache-mb, whose default tp_config_defaults() sets)
 * are dropped, TP_SINK_DROP_STEP bytes at a time (POSIX_FADV_DONTNEED:
 * those written back leave at once; dirty ones are queued for writeback,
 * and leave when the range is dropped again a step later). The file's
 * cache then stays that long and its pages are reused as it grows, rather
 * than taking fresh memory for all of it (a virtual machine hands the
 * guest memory it has not used for a while slowly). The price: the
 * writeback this queues (ext4's block allocation, the I/O submission)
 * runs on the writer's lcore, where the kernel's flusher would do it
 * later, elsewhere. A log shorter than s->keep never pays it: ageing a
 * capture of a million flows writes 340 to 400 MB (docs/bench.rst,
 * "Ageing a capture", measures both ways). Only a hint: errors are
 * ignored.
 */
static void
tp_sink_drop_cache(struct tp_sink *s)
{
	const off_t upto = s->size - s->keep;

	if (!s->regular || upto - s->drop_next < TP_SINK_DROP_STEP)
		return;
	(void)posix_fadvise(s->fd, s->drop_from, upto - s->drop_from,
			    POSIX_FADV_DONTNEED);
	s->drop_from = s->drop_next;
	s->drop_next = upto;
}

/* Space taken ahead of a growing file on ext4, this much at a time. */
#define TP_SINK_ALLOC_STEP (32 << 20)

/*
 * A regular file on ext4 takes its space ahead of its end, a step at a
 * time (fallocate(2) with FALLOC_FL_KEEP_SIZE: the file's size moves only
 * as it is written). A buffered write into space that has its blocks
 * costs less than one that reserves them page by page (ext4's delayed
 * allocation): writing 337 MB in 256-KB writes took 70 to 79 ms here, 52
 * to 60 ms with the space taken 32 MB ahead (docs/bench.rst, "Ageing a
 * capture"). Only a hint: once it fails (no space, no support) the file
 * grows as before. The space past the end is given back at the close (a
 * killed run leaves up to a step of it, until the file is truncated or
 * removed). Not on tmpfs (whose f_type differs), where fallocate()
 * zeroes the pages that the writes then fill: 122 to 135 ms for the same
 * 337 MB, 145 to 165 ms with it.
 */
static void
tp_sink_alloc_ahead(struct tp_sink *s, size_t len)
{
	const off_t end = s->size + (off_t)len;

	while (s->prealloc && s->alloc_end < end) {
		const int ret = fallocate(s->fd, FALLOC_FL_KEEP_SIZE,
					  s->alloc_end, TP_SINK_ALLOC_STEP);

		/* Failed, it may still have taken part of the step (ext4
		 * keeps what it found before ENOSPC): the close trims it.
		 */
		s->alloc_end += TP_SINK_ALLOC_STEP;
		s->prealloc = ret == 0;
	}
}

/* At the close: the space taken past the end goes back. */
static void
tp_sink_alloc_trim(struct tp_sink *s)
{
	if (s->alloc_end > s->size && ftruncate(s->fd, s->size) != 0)
		TP_LOG(WARNING, "%s '%s': the space taken ahead stays: %s",
		       s->opt, s->path, strerror(errno));
}

static void
tp_sink_free(struct tp_sink *s)
{
	free(s->buf);
	free(s->ends);
	free(s->nrecs);
	s->buf = NULL;
	s->ends = NULL;
	s->nrecs = NULL;
	s->cap = 0;
	s->limit = 0;
	s->max_pieces = 0;
}

int
tp_sink_open(struct tp_sink *s, const char *opt, const char *path,
	     size_t cap, off_t keep)
{
	struct statfs sfs;
	struct stat st;
	int fd;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->opt = opt;
	s->path = path;
	s->keep = keep;
	if (cap > 0) {
		/* A piece is at least a line: 32 bytes or more. */
		s->max_pieces = (unsigned int)(cap / 32 + 1);
		s->buf = malloc(cap);
		s->ends = calloc(s->max_pieces, sizeof(*s->ends));
		s->nrecs = calloc(s->max_pieces, sizeof(*s->nrecs));
		if (s->buf == NULL || s->ends == NULL || s->nrecs == NULL) {
			TP_LOG(ERR, "%s: no memory for a %zu-byte buffer", opt,
			       cap);
			tp_sink_free(s);
			return -ENOMEM;
		}
		s->cap = cap;
		s->limit = cap;
	}
	fd = tp_output_open(opt, path);
	if (fd < 0) {
		tp_sink_free(s);
		return fd;
	}
	s->fd = fd;
	s->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	s->prealloc = s->regular && fstatfs(fd, &sfs) == 0 &&
		sfs.f_type == EXT4_SUPER_MAGIC;
	return 0;
}

/* Write p whole, or return a positive errno; *done: bytes written. */
static int
tp_sink_write_loop(struct tp_sink *s, const char *p, size_t len,
		  size_t *done)
{
	ssize_t n;

	*done = 0;
	while (len > 0) {
		n = write(s->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return EIO;
		p += n;
		len -= (size_t)n;
		*done += (size_t)n;
	}
	return 0;
}

/* tp_sink_write_loop(), the stage record_write (tp_stages.h). */
static inline int
tp_sink_write_all(struct tp_sink *s, const char *p, size_t len,
		  size_t *done)
{
	return TP_STAGE_RET(WRITE, 1, tp_sink_write_loop(s, p, len, done));
}

/*
 * The first error, after 'done' bytes of the buffer reached the file: the
 * whole pieces among them stay (their records are written), the file is
 * cut back to them so that no piece is torn, and the sink takes no more.
 * 'nrec': records of an unbuffered piece that failed too. Logged once.
 */
static void
tp_sink_fail(struct tp_sink *s, int err, size_t done, unsigned int nrec)
{
	unsigned int i, kept = 0;

	for (i = 0; i < s->pieces && s->ends[i] <= done; i++) {
		kept += s->nrecs[i];
		s->size = (off_t)((size_t)s->size + s->ends[i] -
				  (i > 0 ? s->ends[i - 1] : 0));
	}
	s->err = err;
	if (s->regular && ftruncate(s->fd, s->size) != 0)
		TP_LOG(WARNING, "%s '%s': cannot cut back a partial record: "
		       "%s", s->opt, s->path, strerror(errno));
	tp_sink_add(&s->written, kept);
	tp_sink_add(&s->not_written, s->pending - kept + (uint64_t)nrec);
	s->pending = 0;
	s->pieces = 0;
	s->len = 0;
	TP_LOG(ERR, "%s '%s': write failed: %s; %" PRIu64 " records are in "
	       "the file, every later one is lost (counted as not written)",
	       s->opt, s->path, strerror(err), s->written);
}

static bool
tp_sink_dead(const struct tp_sink *s)
{
	return s->fd < 0 || s->err != 0;
}

int
tp_sink_flush(struct tp_sink *s)
{
	size_t done;
	int err;

	if (tp_sink_dead(s))
		return s->err != 0 ? -1 : 0;
	if (s->len == 0)
		return 0;
	tp_sink_alloc_ahead(s, s->len);
	err = tp_sink_write_all(s, s->buf, s->len, &done);
	if (err != 0) {
		tp_sink_fail(s, err, done, 0);
		return -1;
	}
	s->size += (off_t)s->len;
	tp_sink_add(&s->written, s->pending);
	s->pending = 0;
	s->pieces = 0;
	s->len = 0;
	tp_sink_drop_cache(s);
	return 0;
}

void
tp_sink_set_limit(struct tp_sink *s, size_t bytes)
{
	s->limit = RTE_MIN(bytes, s->cap);
}

/*
 * Whether a piece of len bytes (at most cap) calls for a write first: it
 * would pass the limit (at most cap, so it fits after the write; an
 * empty buffer always takes it).
 */
static bool
tp_sink_full(const struct tp_sink *s, size_t len)
{
	return s->len > 0 && s->len + len > s->limit;
}

/* A piece of len bytes, nrec records, now at the end of buf. */
static void
tp_sink_piece(struct tp_sink *s, size_t len, unsigned int nrec)
{
	s->len += len;
	s->ends[s->pieces] = s->len;
	s->nrecs[s->pieces++] = nrec;
	s->pending += nrec;
}

char *
tp_sink_reserve(struct tp_sink *s, size_t max)
{
	if (tp_sink_dead(s) || max > s->cap)
		return NULL;
	if ((tp_sink_full(s, max) || s->pieces == s->max_pieces) &&
	    tp_sink_flush(s) != 0)
		return NULL;
	return s->buf + s->len;
}

void
tp_sink_commit(struct tp_sink *s, size_t len, unsigned int nrec)
{
	if (tp_sink_dead(s) || len == 0) {
		tp_sink_add(&s->not_written, nrec);
		return;
	}
	RTE_ASSERT(len <= s->cap - s->len && s->pieces < s->max_pieces);
	tp_sink_piece(s, len, nrec);
}

int
tp_sink_put(struct tp_sink *s, const void *p, size_t len, unsigned int nrec)
{
	size_t done;
	int err;

	if (tp_sink_dead(s)) {
		tp_sink_add(&s->not_written, nrec);
		return -1;
	}
	if (len == 0) {
		tp_sink_add(&s->written, nrec);
		return 0;
	}
	if (len <= s->cap) {
		if ((tp_sink_full(s, len) || s->pieces == s->max_pieces) &&
		    tp_sink_flush(s) != 0) {
			tp_sink_add(&s->not_written, nrec);
			return -1;
		}
		memcpy(s->buf + s->len, p, len);
		tp_sink_piece(s, len, nrec);
		return 0;
	}
	if (tp_sink_flush(s) != 0) {
		tp_sink_add(&s->not_written, nrec);
		return -1;
	}
	tp_sink_alloc_ahead(s, len);
	err = tp_sink_write_all(s, p, len, &done);
	if (err != 0) {
		tp_sink_fail(s, err, 0, nrec);	/* the piece is not whole */
		return -1;
	}
	s->size += (off_t)len;
	tp_sink_add(&s->written, nrec);
	tp_sink_drop_cache(s);
	return 0;
}

int
tp_sink_close(struct tp_sink *s)
{
	if (s->fd >= 0) {
		tp_sink_flush(s);
		tp_sink_alloc_trim(s);
		if (close(s->fd) != 0 && s->err == 0) {
			s->err = errno;
			TP_LOG(ERR, "%s '%s': close failed: %s; its %" PRIu64
			       " records are in doubt, counted as lost",
			       s->opt, s->path, strerror(s->err), s->written);
			tp_sink_add(&s->not_written, s->written);
			__atomic_store_n(&s->written, 0, __ATOMIC_RELAXED);
		}
		s->fd = -1;
	}
	tp_sink_free(s);
	return s->not_written > 0 ? -1 : 0;
}

void
tp_sink_counts(const struct tp_sink *s, uint64_t *written,
	       uint64_t *not_written)
{
	*written = __atomic_load_n(&s->written, __ATOMIC_RELAXED);
	*not_written = __atomic_load_n(&s->not_written, __ATOMIC_RELAXED);
}
