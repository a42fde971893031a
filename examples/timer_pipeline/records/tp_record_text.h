/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RECORD_TEXT_H_
#define _TP_RECORD_TEXT_H_

/*
 * Flow log lines an lcore formatted itself, waiting for the record writer
 * (tp_record_text.c): one producer (the lcore that owns it) and one
 * consumer (the thread draining the record ring) at a time. The lines
 * are taken in the order they were put: that of the producer's records
 * on the ring, whose enqueue publishes them.
 */

#include <stddef.h>
#include <stdint.h>

/** A producer's lines: a byte FIFO of whole lines. */
struct tp_record_text {
	char *buf;		/**< size bytes. */
	uint64_t size;		/**< Bytes in buf. */
	uint64_t head;		/**< Producer: end of its last line. */
	uint64_t tail;		/**< Consumer: end of the last line taken
				 * (atomic: the producer reads it).
				 */
	uint64_t next;		/**< Producer: where the reserved line goes. */
};

/**
 * Create one of @p size bytes for lines of at most @p max_line bytes;
 * NULL when out of memory (the producer then leaves its lines to the
 * writer).
 */
struct tp_record_text *tp_record_text_create(size_t size, size_t max_line);

/** Free it (no producer or consumer left). */
void tp_record_text_free(struct tp_record_text *t);

/**
 * Producer: room for a line of at most the create()'s @p max_line bytes,
 * or NULL while the consumer is that far behind.
 */
char *tp_record_text_reserve(struct tp_record_text *t, size_t max_line);

/** Producer: the reserved line holds @p len bytes. */
void tp_record_text_commit(struct tp_record_text *t, uint32_t len);

/**
 * Consumer: the next line, whose length the record that carries it says;
 * then tp_record_text_release() once it is copied out.
 */
const char *tp_record_text_next(const struct tp_record_text *t,
				size_t max_line);

/** Consumer: the line tp_record_text_next() gave, @p len bytes, is done. */
void tp_record_text_release(struct tp_record_text *t, size_t max_line,
			    uint32_t len);

#endif /* _TP_RECORD_TEXT_H_ */
