/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Far ring of one timer list (see ta_far.h): its span size, its buckets'
 * memory, and the service's moves of buckets into the radix index. Lock:
 * the list's, held by ta_far_move(); the others run at create and free.
 */

#include <errno.h>

#include <rte_malloc.h>
#include <rte_prefetch.h>

#include "ta_far.h"

uint8_t
ta_far_shift_for(uint64_t max_tmo_ns, uint64_t tick_ns)
{
	const uint64_t span = max_tmo_ns / tick_ns / (TA_FAR_NB - 2) + 1;
	uint8_t shift = TA_FAR_MIN_SHIFT;

	while (shift < TA_FAR_MAX_SHIFT && (UINT64_C(1) << shift) < span)
		shift++;
	return shift;
}

void
ta_far_init(struct ta_far *far, uint8_t shift)
{
	/* Buckets are found with TA_FAR_MASK. */
	RTE_BUILD_BUG_ON(!RTE_IS_POWER_OF_2(TA_FAR_NB));
	/* Spans are uint64_t ticks >> shift; shift fits far->shift. */
	RTE_BUILD_BUG_ON(TA_FAR_MAX_SHIFT >= 64);
	RTE_BUILD_BUG_ON(TA_FAR_MIN_SHIFT > TA_FAR_MAX_SHIFT);
	/* TA_FAR_NB - 2 spans cover max_tmo_ns (ta_far_shift_for()). */
	RTE_BUILD_BUG_ON(TA_FAR_NB < 3);
	far->ring = NULL;
	far->moved_span = 0;
	far->shift = shift;
}

struct ta_far_ring *
ta_far_ring_alloc(int socket_id)
{
	return rte_zmalloc_socket("ta_far", sizeof(struct ta_far_ring),
				  RTE_CACHE_LINE_SIZE, socket_id);
}

void
ta_far_release(struct ta_far *far)
{
	rte_free(far->ring);
	far->ring = NULL;
}

/*
 * Move bucket b (span s) into the radix index, at most *budget timers of
 * it when budgeted (s beyond the due spans). 1 when the bucket is empty,
 * 0 when the budget ran out, -ENOMEM.
 */
static int
ta_far_move_bucket(struct ta_far_ring *ring, struct ta_radix *radix,
		   unsigned int b, int budgeted, uint64_t *budget)
{
	struct ta_link **head = &ring->bucket[b];

	while (*head != NULL) {
		struct ta_link *l = *head;
		struct ta_node *node = ta_node_of(l);

		if (budgeted && *budget == 0)
			return 0;
		rte_prefetch0(l->next);
		ta_fifo_unlink(head, l);
		if (unlikely(ta_radix_insert(radix, node->key, l) < 0)) {
			/* Retried at the next tick; late, not lost. */
			ta_fifo_append(head, l);
			return -ENOMEM;
		}
		node->parked = 0;
		ring->count[b]--;
		__atomic_store_n(&ring->nb, ring->nb - 1, __ATOMIC_RELAXED);
		if (*budget > 0)
			(*budget)--;
	}
	return 1;
}

int
ta_far_move(struct ta_far *far, struct ta_radix *radix, uint64_t tick)
{
	struct ta_far_ring *ring = far->ring;
	/* Spans up to due may hold due keys: they move whatever the budget. */
	const uint64_t due = tick >> far->shift;
	uint64_t budget = TA_FAR_BUDGET;
	int ret;

	if (ring == NULL)
		return 0;
	while (far->moved_span < due + 1) {
		const uint64_t s = far->moved_span + 1;
		const unsigned int b = s & TA_FAR_MASK;

		if (ring->nb == 0) {
			far->moved_span = due + 1;
			break;
		}
		if (s > due) {
			/* Half the ticks left before span s begins. */
			uint64_t left = ((s << far->shift) - tick) / 2 + 1;

			budget = RTE_MAX(budget, ring->count[b] / left + 1);
		}
		ret = ta_far_move_bucket(ring, radix, b, s > due, &budget);
		if (ret <= 0)
			return ret;
		far->moved_span = s;
	}
	return 0;
}
