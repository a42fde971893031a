/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_SINK_H_
#define _TP_SINK_H_

/*
 * The record sink (tp_sink.c): an output file, opened through
 * tp_output_open(), that counts what reached it and what did not. A sink
 * belongs to one thread; its counters are read by others with relaxed
 * atomic loads.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * A file of records (the flow log, the IPFIX file): buffered writes of
 * whole records, and the count of records that reached the file and of
 * those that did not. A regular file's pages further back than 'keep'
 * bytes from its end leave the page cache once written back (tp_sink.c).
 * On the first write error (ENOSPC, EFBIG, EIO) the file is cut back to
 * its last whole piece (a partial write keeps the pieces it holds whole
 * and no torn one), the error is logged once with its strerror, and
 * every record from then on is counted as not written: the file stays a
 * readable prefix of the run.
 */
struct tp_sink {
	const char *opt;	/**< The option, for messages. */
	const char *path;	/**< The file. */
	int fd;			/**< -1 when closed. */
	bool regular;		/**< A regular file (can be cut back). */
	char *buf;		/**< Pending bytes: whole records. */
	size_t len;		/**< Bytes in buf. */
	size_t cap;		/**< Size of buf; 0 = unbuffered. */
	size_t limit;		/**< Written once it would pass this (<= cap). */
	unsigned int pending;	/**< Records in buf. */
	size_t *ends;		/**< Where each piece in buf ends. */
	unsigned int *nrecs;	/**< Records in each piece. */
	unsigned int pieces;	/**< Pieces in buf. */
	unsigned int max_pieces; /**< Size of ends and nrecs. */
	off_t size;		/**< Bytes in the file: whole records. */
	off_t keep;		/**< Page cache kept behind the end. */
	off_t drop_from;	/**< Page cache dropped below this. */
	off_t drop_next;	/**< Where the last drop ended. */
	bool prealloc;		/**< Space is taken ahead (ext4). */
	off_t alloc_end;	/**< Space taken up to here. */
	int err;		/**< First error (errno), 0 if none. */
	uint64_t written;	/**< Records in the file (atomic store). */
	uint64_t not_written;	/**< Records lost (atomic store). */
};

/**
 * Open a sink on an output (tp_output_open()).
 *
 * @param cap  Buffer size in bytes; 0 writes each piece at once.
 * @param keep  Page cache the file keeps behind its end, in bytes.
 * @return 0, or a negative errno (logged).
 */
int tp_sink_open(struct tp_sink *s, const char *opt, const char *path,
		 size_t cap, off_t keep);

/**
 * Write the buffer once it would hold more than 'bytes' (at most its size,
 * the default): shorter writes, for a writer that must not hold its lcore
 * long.
 */
void tp_sink_set_limit(struct tp_sink *s, size_t bytes);

/**
 * Room for a piece of at most max bytes, to be formatted in place and
 * then committed with tp_sink_commit(); NULL when the sink has failed or
 * is closed (then commit counts the records as not written).
 */
char *tp_sink_reserve(struct tp_sink *s, size_t max);

/**
 * Commit len bytes written at tp_sink_reserve(), holding nrec records
 * (0 for a header, an IPFIX template).
 */
void tp_sink_commit(struct tp_sink *s, size_t len, unsigned int nrec);

/**
 * Append a piece holding nrec records (copied, or written at once when
 * it does not fit the buffer).
 *
 * @return 0, or -1 when the piece is not in the file and never will be
 *   (its records are counted as not written).
 */
int tp_sink_put(struct tp_sink *s, const void *p, size_t len,
		unsigned int nrec);

/** Write what is buffered. @return 0, or -1 once the sink has failed. */
int tp_sink_flush(struct tp_sink *s);

/**
 * Flush and close. A failed close leaves the file in doubt: its records
 * are then all counted as not written. Idempotent.
 *
 * @return 0, or -1 if any record was not written.
 */
int tp_sink_close(struct tp_sink *s);

/** Records in the file and records lost, from any thread. */
void tp_sink_counts(const struct tp_sink *s, uint64_t *written,
		    uint64_t *not_written);

#endif /* _TP_SINK_H_ */
