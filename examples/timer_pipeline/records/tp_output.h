/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_OUTPUT_H_
#define _TP_OUTPUT_H_

/*
 * Output files: the one place that knows which files the run reads (its
 * inputs: every rx_pcap capture and the --config file) and writes (the
 * flow log, the IPFIX file, the summary and stats JSON, net_pcap's
 * tx_pcap), and the one way to check and to open an output (the record
 * sink that writes one is tp_sink.h).
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
 * exporter's thread, and update the registry under its mutex.
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

#endif /* _TP_OUTPUT_H_ */
