/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * RX paced by the record writer (tp_rx_pace_held() in
 * datapath/tp_rx_hold.h), run by pipeline/e2e.sh: a record ring of its
 * own, filled and emptied by hand, and the writer's count moved by hand.
 * Not paced while the ring holds at most the backlog; past it, RX may
 * make as many new flows as the writer took records since, shared by the
 * RX lcores, its credit capped at the backlog; below it again, unpaced,
 * and the next time past it the credit starts from nothing.
 * Prints "rx_pace: N passed, N failed" and exits non-zero on a failure.
 *
 * Usage: rx_pace (no EAL: the ring lives in the test's own memory).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_ring.h>

#include "datapath/tp_rx_hold.h"
#include "tp_check.h"

#define BACKLOG 8
#define RING_SIZE 64


static struct rte_ring *ring;

/* Put records on the ring (count goes up) or take them off (down). */
static void
ring_to(unsigned int count)
{
	void *obj = NULL;

	while (rte_ring_count(ring) < count)
		rte_ring_enqueue(ring, obj);
	while (rte_ring_count(ring) > count)
		rte_ring_dequeue(ring, &obj);
}

int
main(void)
{
	struct tp_rx_hold h = { 0 };
	struct tp_rx_pace a = { 0 }, b = { 0 };
	uint64_t written = 0, made = 0;
	unsigned int i, n;

	ring = aligned_alloc(RTE_CACHE_LINE_SIZE,
			     RTE_ALIGN_CEIL(rte_ring_get_memsize(RING_SIZE),
					    RTE_CACHE_LINE_SIZE));
	if (ring == NULL || rte_ring_init(ring, "rx_pace", RING_SIZE,
					  RING_F_SP_ENQ | RING_F_SC_DEQ) != 0) {
		printf("cannot set up the ring\n");
		return 1;
	}
	tp_rx_hold_pace(&h, ring, &written, BACKLOG, 1);

	/* At most the backlog queued: never paced, whatever RX made. */
	ring_to(BACKLOG);
	made = 1000;
	CHECK(!tp_rx_pace_held(&h, &a, made), "paced at the backlog");
	CHECK(!a.on, "on at the backlog");

	/* Past it: nothing taken yet, so held from the first look. */
	ring_to(BACKLOG + 1);
	CHECK(tp_rx_pace_held(&h, &a, made), "not held past the backlog");
	CHECK(tp_rx_pace_held(&h, &a, made), "not held on the next look");

	/* The writer takes 5: RX may make 5 new flows, not 6. */
	written += 5;
	for (i = 0; i < 5; i++) {
		CHECK(!tp_rx_pace_held(&h, &a, made),
		      "held after %u of 5 new flows", i);
		made++;
	}
	CHECK(tp_rx_pace_held(&h, &a, made), "not held after 5 of 5");

	/* Flows made in a burst past the credit: held until the writer
	 * has taken as many again.
	 */
	written += 3;
	CHECK(!tp_rx_pace_held(&h, &a, made), "held with a credit of 3");
	made += 7;	/* a burst: 4 past the credit */
	CHECK(tp_rx_pace_held(&h, &a, made), "not held 4 past the credit");
	written += 4;
	CHECK(tp_rx_pace_held(&h, &a, made), "not held at a credit of 0");
	written += 1;
	CHECK(!tp_rx_pace_held(&h, &a, made), "held at a credit of 1");

	/* The credit never passes the backlog. */
	written += 100000;
	CHECK(!tp_rx_pace_held(&h, &a, made), "held with a large credit");
	n = 0;
	while (!tp_rx_pace_held(&h, &a, made) && n < 1000) {
		made++;
		n++;
	}
	CHECK(n == BACKLOG, "%u new flows on a capped credit, want %d", n,
	      BACKLOG);

	/* Below the backlog again: unpaced; past it once more, the credit
	 * starts from nothing (what the writer took meanwhile is spent).
	 */
	ring_to(BACKLOG / 2);
	written += 50;
	CHECK(!tp_rx_pace_held(&h, &a, made), "paced below the backlog");
	CHECK(!a.on, "still on below the backlog");
	written += 50;
	made += 50;
	ring_to(BACKLOG + 3);
	CHECK(tp_rx_pace_held(&h, &a, made), "not held past it again");

	/* Two RX lcores share what the writer takes: 10 records give each
	 * lcore 5 new flows.
	 */
	tp_rx_hold_pace(&h, ring, &written, BACKLOG, 2);
	ring_to(BACKLOG / 2);
	(void)tp_rx_pace_held(&h, &a, made);
	(void)tp_rx_pace_held(&h, &b, 0);
	ring_to(BACKLOG + 1);
	CHECK(tp_rx_pace_held(&h, &a, made), "lcore a not held");
	CHECK(tp_rx_pace_held(&h, &b, 0), "lcore b not held");
	written += 10;
	for (i = 0; i < 5; i++) {
		CHECK(!tp_rx_pace_held(&h, &a, made),
		      "lcore a held after %u of 5", i);
		made++;
	}
	CHECK(tp_rx_pace_held(&h, &a, made), "lcore a not held after 5");
	for (i = 0; i < 5; i++) {
		CHECK(!tp_rx_pace_held(&h, &b, i), "lcore b held after %u of 5",
		      i);
	}
	CHECK(tp_rx_pace_held(&h, &b, 5), "lcore b not held after 5");

	free(ring);
	return tp_check_report("rx_pace");
}
