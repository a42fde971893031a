/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_OUTPUT_H_
#define _TP_OUTPUT_H_

/*
 * Output files: the one place that knows which files the run reads (its
 * inputs: every rx_pcap capture and the --config file) and writes (the
 * flow log, the IPFIX file, the summary and stats JSON, net_pcap's
 * tx_pcap), the one way to check and to open an output, and the record
 * sink that counts what reached a file and what did not.
 *
 * No output is an input or another output: files are compared by device
 * and inode (a hard link, a symbolic link, "./x" and "d/../x" are the same
 * file); an output that does not exist yet by its directory's device and
 * inode plus its name. Character devices and FIFOs (/dev/null, /dev/full)
 * are outside that rule. An output is never written through a symbolic
 * link.
 *
 * Inputs and outputs are registered before EAL starts, on the main
 * thread. Opens happen later, on the main lcore and on the IPFIX
 * exporter's thread, and update the registry under its mutex. A sink
 * belongs to one thread; its counters are read by others with relaxed
 * atomic loads.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/**
 * Register a file the run reads, so that no output may be it. A file
 * that does not exist (yet) is not registered: nothing can alias it.
 *
 * @param path  The file, as named.
 * @param what  What it is and which option names it, for messages: "the
 *   rx_pcap capture of --vdev net_pcap0", "the --config file".
 * @return 0, or -1 when there are too many files to track (the caller
 *   refuses to start).
 */
int tp_output_add_input(const char *path, const char *what);

/**
 * Check and register, before EAL starts, a file the run will create or
 * truncate: not a symbolic link (a link planted in a shared directory
 * would redirect the write to any file we may write), not a directory,
 * not an input (tp_output_add_input()), not an output already registered,
 * writable if it exists, in a directory that exists and is writable if it
 * does not.
 *
 * @param opt   The option that names it ("--flow-log", "tx_pcap of --vdev
 *   net_pcap0"), kept for later messages: a string that lives as long as
 *   the run.
 * @param path  The output.
 * @param why   Set to the reason on failure, to follow "OPT 'path' " in
 *   the caller's message ("is a symbolic link: ...").
 * @param len   Size of why.
 * @return 0, or -1 with why set.
 */
int tp_output_check(const char *opt, const char *path, char *why,
		    size_t len);

/**
 * Create or truncate an output (after tp_output_check()). Opened with
 * O_NOFOLLOW and without O_TRUNC; the open file is compared (fstat) with
 * every input and every other output before a byte is truncated, so a
 * file swapped in since the check cannot be destroyed. Mode 0644; an
 * existing regular file loses group and other write permission. A failure
 * is logged, naming 'opt' and the path.
 *
 * @param opt   The option, as given to tp_output_check().
 * @param path  The output.
 * @return the file descriptor (O_WRONLY | O_CLOEXEC), or a negative errno
 *   (-ELOOP: a symbolic link; -EBUSY: an input or another output).
 */
int tp_output_open(const char *opt, const char *path);

/**
 * tp_output_open() as a stdio stream.
 *
 * @return the stream, or NULL with errno set (logged).
 */
FILE *tp_output_fopen(const char *opt, const char *path);

/**
 * A file of records (the flow log, the IPFIX file): buffered writes of
 * whole records, and the count of records that reached the file and of
 * those that did not. On the first write error (ENOSPC, EFBIG, EIO) the
 * file is cut back to its last whole piece (a partial write keeps the
 * pieces it holds whole and no torn one), the error is logged once
 * with its strerror, and every record from then on is counted as not
 * written: the file stays a readable prefix of the run.
 */
struct tp_sink {
	const char *opt;	/**< The option, for messages. */
	const char *path;	/**< The file. */
	int fd;			/**< -1 when closed. */
	bool regular;		/**< A regular file (can be cut back). */
	char *buf;		/**< Pending bytes: whole records. */
	size_t len;		/**< Bytes in buf. */
	size_t cap;		/**< Size of buf; 0 = unbuffered. */
	unsigned int pending;	/**< Records in buf. */
	size_t *ends;		/**< Where each piece in buf ends. */
	unsigned int *nrecs;	/**< Records in each piece. */
	unsigned int pieces;	/**< Pieces in buf. */
	unsigned int max_pieces; /**< Size of ends and nrecs. */
	off_t size;		/**< Bytes in the file: whole records. */
	int err;		/**< First error (errno), 0 if none. */
	uint64_t written;	/**< Records in the file (atomic store). */
	uint64_t not_written;	/**< Records lost (atomic store). */
};

/**
 * Open a sink on an output (tp_output_open()).
 *
 * @param cap  Buffer size in bytes; 0 writes each piece at once.
 * @return 0, or a negative errno (logged).
 */
int tp_sink_open(struct tp_sink *s, const char *opt, const char *path,
		 size_t cap);

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

#endif /* _TP_OUTPUT_H_ */
