/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Output files (see tp_output.h): the run's inputs, the check of an output
 * before EAL starts and the one open of an output. The input list is
 * written before EAL starts (main thread) and only read afterwards: no
 * lock.
 */

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tp_ctx.h"
#include "tp_output.h"

/* Every rx_pcap capture (tp_preflight.c takes 64 vdevs) and --config. */
#define TP_OUTPUT_MAX_INPUTS 128

/* The files the run reads, by identity (a second name is the same file). */
static struct {
	unsigned int n;
	dev_t dev[TP_OUTPUT_MAX_INPUTS];
	ino_t ino[TP_OUTPUT_MAX_INPUTS];
	const char *what[TP_OUTPUT_MAX_INPUTS];
} tp_inputs;

/* What the file is if it is an input, else NULL. */
static const char *
tp_output_input_of(const struct stat *st)
{
	unsigned int i;

	for (i = 0; i < tp_inputs.n; i++)
		if (tp_inputs.dev[i] == st->st_dev &&
		    tp_inputs.ino[i] == st->st_ino)
			return tp_inputs.what[i];
	return NULL;
}

int
tp_output_add_input(const char *path, const char *what)
{
	struct stat st;

	if (stat(path, &st) != 0 || tp_output_input_of(&st) != NULL)
		return 0;
	if (tp_inputs.n == TP_OUTPUT_MAX_INPUTS)
		return -1;
	tp_inputs.dev[tp_inputs.n] = st.st_dev;
	tp_inputs.ino[tp_inputs.n] = st.st_ino;
	tp_inputs.what[tp_inputs.n++] = what;
	return 0;
}

int
tp_output_check(const char *path, char *why, size_t len)
{
	char dir[PATH_MAX];
	const char *parent, *input;
	struct stat st;

	if (lstat(path, &st) == 0) {
		input = tp_output_input_of(&st);
		if (S_ISLNK(st.st_mode))
			snprintf(why, len, "is a symbolic link: refusing to "
				 "write through it (name the target itself)");
		else if (S_ISDIR(st.st_mode))
			snprintf(why, len, "is a directory");
		else if (input != NULL)
			snprintf(why, len, "is also %s: writing it would "
				 "destroy the input", input);
		else if (access(path, W_OK) != 0)
			snprintf(why, len, "is not writable: %s",
				 strerror(errno));
		else
			return 0;
		return -1;
	}
	if (errno != ENOENT) {
		snprintf(why, len, "cannot be checked: %s", strerror(errno));
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	parent = dirname(dir);
	if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "cannot be created: '%s' is not a "
			 "directory", parent);
		return -1;
	}
	if (access(parent, W_OK | X_OK) != 0) {
		snprintf(why, len, "cannot be created in '%s': %s", parent,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int
tp_output_open(const char *what, const char *path)
{
	const char *input;
	struct stat st;
	int fd, err;

	/* No O_TRUNC: an input must be found before it loses a byte. */
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		  S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
	if (fd < 0) {
		err = errno;
		TP_LOG(ERR, "cannot open %s '%s': %s", what, path,
		       err == ELOOP ? "it is a symbolic link, refusing to "
		       "write through it" : strerror(err));
		return -err;
	}
	if (fstat(fd, &st) != 0) {
		err = errno;
		TP_LOG(ERR, "cannot open %s '%s': %s", what, path,
		       strerror(err));
		close(fd);
		return -err;
	}
	input = tp_output_input_of(&st);
	if (input != NULL) {
		TP_LOG(ERR, "cannot open %s '%s': it is also %s, refusing to "
		       "overwrite it", what, path, input);
		close(fd);
		return -EBUSY;
	}
	if (!S_ISREG(st.st_mode))
		return fd;	/* a FIFO, /dev/null: nothing to truncate */
	if (ftruncate(fd, 0) != 0) {
		err = errno;
		TP_LOG(ERR, "cannot truncate %s '%s': %s", what, path,
		       strerror(err));
		close(fd);
		return -err;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    fchmod(fd, st.st_mode & ~(S_IWGRP | S_IWOTH) & 07777) != 0)
		TP_LOG(WARNING, "%s '%s' stays writable by others: %s", what,
		       path, strerror(errno));
	return fd;
}

FILE *
tp_output_fopen(const char *what, const char *path)
{
	int fd = tp_output_open(what, path);
	FILE *f;
	int err;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		err = errno;
		TP_LOG(ERR, "cannot open %s '%s': %s", what, path,
		       strerror(err));
		close(fd);
		errno = err;
	}
	return f;
}
