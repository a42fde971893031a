/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Output files (see tp_output.h): the registry of the files the run reads
 * and writes, the check of an output before EAL starts, the one open of an
 * output. The registry is filled before EAL starts (main thread); opens
 * update it later from the main lcore and the IPFIX thread, under
 * tp_files_lock.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tp_log.h"
#include "records/tp_output.h"

/* Every rx_pcap capture and tx_pcap (tp_preflight.c takes 64 vdevs),
 * --config and the four outputs of our own.
 */
#define TP_OUTPUT_MAX_FILES 160

/*
 * A file by identity. An existing file: its device and inode, name "".
 * One to be created: its directory's device and inode and its name.
 */
struct tp_file_id {
	dev_t dev;
	ino_t ino;
	char name[NAME_MAX + 1];
};

/* The registry (tp_files_lock). */
static struct {
	unsigned int n;
	struct {
		struct tp_file_id id;
		const char *what;	/* input: "the --config file";
					 * output: its option
					 */
		bool input;
	} f[TP_OUTPUT_MAX_FILES];
} tp_files;
static pthread_mutex_t tp_files_lock = PTHREAD_MUTEX_INITIALIZER;

static bool
tp_file_id_eq(const struct tp_file_id *a, const struct tp_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino &&
		strcmp(a->name, b->name) == 0;
}

static void
tp_file_id_of_stat(struct tp_file_id *id, const struct stat *st)
{
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	id->name[0] = '\0';
}

/* The index of the entry with this identity, other than 'self', or -1. */
static int
tp_files_find(const struct tp_file_id *id, int self)
{
	unsigned int i;

	for (i = 0; i < tp_files.n; i++)
		if ((int)i != self && tp_file_id_eq(&tp_files.f[i].id, id))
			return (int)i;
	return -1;
}

static int
tp_files_add(const struct tp_file_id *id, const char *what, bool input)
{
	if (tp_files.n == TP_OUTPUT_MAX_FILES)
		return -1;
	tp_files.f[tp_files.n].id = *id;
	tp_files.f[tp_files.n].what = what;
	tp_files.f[tp_files.n].input = input;
	tp_files.n++;
	return 0;
}

/* Why an output with this identity may not be written, or NULL. */
static const char *
tp_files_clash(const struct tp_file_id *id, int self, char *why, size_t len)
{
	int i = tp_files_find(id, self);

	if (i < 0)
		return NULL;
	if (tp_files.f[i].input)
		snprintf(why, len, "is also %s: writing it would destroy the "
			 "input", tp_files.f[i].what);
	else
		snprintf(why, len, "is also the file of %s: two outputs "
			 "cannot share a file", tp_files.f[i].what);
	return why;
}

int
tp_output_add_input(const char *path, const char *what)
{
	struct tp_file_id id;
	struct stat st;
	int ret = 0;

	if (stat(path, &st) != 0)
		return 0;
	tp_file_id_of_stat(&id, &st);
	pthread_mutex_lock(&tp_files_lock);
	if (tp_files_find(&id, -1) < 0)
		ret = tp_files_add(&id, what, true);
	pthread_mutex_unlock(&tp_files_lock);
	return ret;
}

/* A file that does not exist: its directory's identity and its name. */
static int
tp_output_new_id(const char *path, struct tp_file_id *id, char *why,
		 size_t len)
{
	char dir[PATH_MAX], base[PATH_MAX];
	const char *parent, *name;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	parent = dirname(dir);
	name = basename(base);
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
	if (strlen(name) > NAME_MAX) {
		snprintf(why, len, "cannot be created: name too long");
		return -1;
	}
	tp_file_id_of_stat(id, &st);
	snprintf(id->name, sizeof(id->name), "%s", name);
	return 0;
}

int
tp_output_check(const char *opt, const char *path, char *why, size_t len)
{
	struct tp_file_id id;
	struct stat st;
	int ret = -1;

	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(why, len, "is a symbolic link: refusing to "
				 "write through it (name the target itself)");
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			snprintf(why, len, "is a directory");
			return -1;
		}
		if (access(path, W_OK) != 0) {
			snprintf(why, len, "is not writable: %s",
				 strerror(errno));
			return -1;
		}
		/* /dev/null, /dev/full, a FIFO: outside the alias rule. */
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return 0;
		tp_file_id_of_stat(&id, &st);
	} else if (errno != ENOENT) {
		snprintf(why, len, "cannot be checked: %s", strerror(errno));
		return -1;
	} else if (tp_output_new_id(path, &id, why, len) < 0) {
		return -1;
	}
	pthread_mutex_lock(&tp_files_lock);
	if (tp_files_clash(&id, -1, why, len) == NULL) {
		ret = tp_files_add(&id, opt, false);
		if (ret < 0)
			snprintf(why, len, "is one output too many to check "
				 "against the others");
	}
	pthread_mutex_unlock(&tp_files_lock);
	return ret;
}

/*
 * The open file against every other registered file; on success, its
 * entry (found by its option) takes the open file's identity, so that an
 * output opened later is compared with what this one really is.
 */
static int
tp_output_claim(const char *opt, const struct stat *st, char *why,
		size_t len)
{
	struct tp_file_id id;
	int self = -1, ret = 0;
	unsigned int i;

	tp_file_id_of_stat(&id, st);
	pthread_mutex_lock(&tp_files_lock);
	for (i = 0; i < tp_files.n; i++)
		if (!tp_files.f[i].input &&
		    strcmp(tp_files.f[i].what, opt) == 0)
			self = (int)i;
	if (tp_files_clash(&id, self, why, len) != NULL)
		ret = -1;
	else if (self >= 0)
		tp_files.f[self].id = id;
	pthread_mutex_unlock(&tp_files_lock);
	return ret;
}

/*
 * Empties an existing file through a second descriptor, closed at once.
 * ext4 (auto_da_alloc) flushes a file when the descriptor that truncated
 * it to zero is closed: through 'fd' that would be at the end of the run,
 * with every record written (0.1 s for 300 MB). Closing the second
 * descriptor flushes nothing. 'fd' truncates when the path no longer
 * names the file it opened.
 */
static int
tp_output_truncate(const char *path, int fd, const struct stat *st)
{
	struct stat st2;
	int tfd, ret, err;

	tfd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (tfd < 0 || fstat(tfd, &st2) != 0 || st2.st_dev != st->st_dev ||
	    st2.st_ino != st->st_ino) {
		if (tfd >= 0)
			close(tfd);
		return ftruncate(fd, 0);
	}
	ret = ftruncate(tfd, 0);
	err = errno;
	close(tfd);
	errno = err;
	return ret;
}

int
tp_output_open(const char *opt, const char *path)
{
	char why[256];
	struct stat st;
	int fd, err;

	/* No O_TRUNC: an input must be found before it loses a byte. */
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		  S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
	if (fd < 0) {
		err = errno;
		TP_LOG(ERR, "cannot open %s '%s': %s", opt, path,
		       err == ELOOP ? "it is a symbolic link, refusing to "
		       "write through it" : strerror(err));
		return -err;
	}
	if (fstat(fd, &st) != 0) {
		err = errno;
		TP_LOG(ERR, "cannot open %s '%s': %s", opt, path,
		       strerror(err));
		close(fd);
		return -err;
	}
	if (!S_ISREG(st.st_mode))
		return fd;	/* a FIFO, /dev/null: nothing to truncate */
	if (tp_output_claim(opt, &st, why, sizeof(why)) < 0) {
		TP_LOG(ERR, "cannot open %s '%s': it %s", opt, path, why);
		close(fd);
		return -EBUSY;
	}
	if (st.st_size > 0 && tp_output_truncate(path, fd, &st) != 0) {
		err = errno;
		TP_LOG(ERR, "cannot truncate %s '%s': %s", opt, path,
		       strerror(err));
		close(fd);
		return -err;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    fchmod(fd, st.st_mode & ~(S_IWGRP | S_IWOTH) & 07777) != 0)
		TP_LOG(WARNING, "%s '%s' stays writable by others: %s", opt,
		       path, strerror(errno));
	return fd;
}

FILE *
tp_output_fopen(const char *opt, const char *path)
{
	int fd = tp_output_open(opt, path);
	FILE *f;
	int err;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		err = errno;
		TP_LOG(ERR, "cannot open %s '%s': %s", opt, path,
		       strerror(err));
		close(fd);
		errno = err;
	}
	return f;
}
