/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_NODE_H_
#define _TA_NODE_H_

/*
 * The internal node of one armed timer: 40 bytes, from its list's pool
 * (ta_pool.h). It sits in exactly one place: its tick's FIFO in the radix
 * index, a far bucket (ta_far.h), the service's expiry FIFO, or the free
 * list.
 *
 * evtim holds the rte_event_timer while the timer is pending; whoever
 * clears it (cancel, or the service settling an expiry) owns the outcome.
 * Both do so holding the list's lock, as does everything that frees or
 * re-links a node, and the pointer of a re-armed timer is stored in a new
 * node: a canceller that finds another value knows the service won.
 */

#include <stdint.h>

#include <rte_common.h>

#include "ta_radix.h"

struct ta_node {
	struct ta_link link;	/* In its tick's FIFO, a far bucket, the
				 * expiry FIFO or free. */
	uintptr_t evtim;	/* Arbitration word, see above. */
	uint64_t key;		/* Expiry tick. */
	uint32_t owner;		/* Index of its list. */
	uint32_t parked;	/* 1: in a far bucket, 0: elsewhere. */
};

/* The node a link belongs to. */
static inline struct ta_node *
ta_node_of(struct ta_link *l)
{
	return container_of(l, struct ta_node, link);
}

#endif /* _TA_NODE_H_ */
