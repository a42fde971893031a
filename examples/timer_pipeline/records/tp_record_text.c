/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * An lcore's own flow log lines (see tp_record_text.h). Positions count
 * bytes from the start and only grow; a line starts where at least
 * max_line bytes are left before the end of the buffer, else at its start
 * again: the producer and the consumer apply that one rule, so the
 * consumer finds each line from the length its record carries. Lock-free:
 * the producer owns head and next, the consumer tail (released once a
 * line is copied out; acquired by the producer before it reuses bytes).
 */

#include <stdlib.h>

#include "records/tp_record_text.h"

struct tp_record_text *
tp_record_text_create(size_t size, size_t max_line)
{
	struct tp_record_text *t;

	if (size < 2 * max_line)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	/* The process's memory, not EAL's: only this lcore and the writer
	 * touch it, and its pages come as they are first written.
	 */
	t->buf = malloc(size);
	if (t->buf == NULL) {
		free(t);
		return NULL;
	}
	t->size = size;
	return t;
}

void
tp_record_text_free(struct tp_record_text *t)
{
	if (t == NULL)
		return;
	free(t->buf);
	free(t);
}

/* Where a line goes that would start at pos. */
static inline uint64_t
tp_record_text_start(const struct tp_record_text *t, uint64_t pos,
		     size_t max_line)
{
	const uint64_t left = t->size - pos % t->size;

	return left < max_line ? pos + left : pos;
}

char *
tp_record_text_reserve(struct tp_record_text *t, size_t max_line)
{
	const uint64_t p = tp_record_text_start(t, t->head, max_line);

	if (p + max_line - __atomic_load_n(&t->tail, __ATOMIC_ACQUIRE) >
	    t->size)
		return NULL;
	t->next = p;
	return t->buf + p % t->size;
}

void
tp_record_text_commit(struct tp_record_text *t, uint32_t len)
{
	t->head = t->next + len;
}

const char *
tp_record_text_next(const struct tp_record_text *t, size_t max_line)
{
	const uint64_t tail = __atomic_load_n(&t->tail, __ATOMIC_RELAXED);

	return t->buf + tp_record_text_start(t, tail, max_line) % t->size;
}

void
tp_record_text_release(struct tp_record_text *t, size_t max_line,
		       uint32_t len)
{
	const uint64_t tail = __atomic_load_n(&t->tail, __ATOMIC_RELAXED);

	__atomic_store_n(&t->tail, tp_record_text_start(t, tail, max_line) +
			 len, __ATOMIC_RELEASE);
}
