/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_OUTPUT_H_
#define _TP_OUTPUT_H_

/*
 * Output files: the one place that knows which files the run reads (its
 * inputs: every rx_pcap capture and the --config file), and the one way to
 * check and to open a file it writes (--flow-log, --ipfix-file,
 * --stats-json, --summary-json; net_pcap's tx_pcap is checked, net_pcap
 * opens it). An output is never written through a symbolic link and never
 * over an input.
 *
 * Inputs are registered before EAL starts, on the main thread; the list is
 * only read afterwards, so it needs no lock.
 */

#include <stdio.h>

/**
 * Register a file the run reads, so that no output may be it. A file
 * that does not exist (yet) is not registered: nothing can alias it.
 *
 * @param path  The file, as named.
 * @param what  What it is, for messages: "an rx_pcap capture",
 *   "the --config file".
 * @return 0, or -1 when there are too many inputs to track (the caller
 *   refuses to start).
 */
int tp_output_add_input(const char *path, const char *what);

/**
 * Check, before EAL starts, a file the run will create or truncate: not a
 * symbolic link (a link planted in a shared directory would redirect the
 * write to any file we may write), not a directory, not an input
 * (tp_output_add_input()), writable if it exists, in a directory that
 * exists and is writable if it does not.
 *
 * @param path  The output.
 * @param why   Set to the reason on failure, to follow "'path' " in the
 *   caller's message ("is a symbolic link: ...").
 * @param len   Size of why.
 * @return 0, or -1 with why set.
 */
int tp_output_check(const char *path, char *why, size_t len);

/**
 * Create or truncate an output (after tp_output_check()): O_NOFOLLOW, so
 * a link planted since the check fails; an input is refused before it is
 * truncated (its identity is checked on the open file); mode 0644, and an
 * existing regular file loses group and other write permission. A
 * failure is logged, naming 'what' and the path.
 *
 * @param what  The option, for the message ("--flow-log").
 * @param path  The output.
 * @return the file descriptor (O_WRONLY | O_CLOEXEC), or a negative errno
 *   (-ELOOP: a symbolic link; -EBUSY: an input).
 */
int tp_output_open(const char *what, const char *path);

/**
 * tp_output_open() as a stdio stream.
 *
 * @return the stream, or NULL with errno set (logged).
 */
FILE *tp_output_fopen(const char *what, const char *path);

#endif /* _TP_OUTPUT_H_ */
