/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * RX's new flows spread over the ticks (tp_rx_spread_held() in
 * datapath/tp_rx_hold.h), run by pipeline/e2e.sh, on a clock and counts
 * moved by hand. Never held before a late expiry, nor once the spread
 * has lasted its ticks past the last one; while it lasts, a tick admits
 * the recent average's NUM / DEN plus MIN new flows and no more, or
 * half the average's fading peak when that is more; the average follows
 * what RX makes, counts the ticks RX did not look at, and grows while RX
 * is capped every tick.
 * Prints "rx_spread: N passed, N failed" and exits non-zero on a failure.
 *
 * Usage: rx_spread (no EAL).
 */

#include <stdint.h>
#include <stdio.h>

#include "datapath/tp_rx_hold.h"
#include "tp_check.h"

#define TICK 1000u

/* The cap for an average of 'avg' new flows a tick. */
static uint64_t
cap_of(uint64_t avg)
{
	return avg * TP_RX_SPREAD_NUM / TP_RX_SPREAD_DEN + TP_RX_SPREAD_MIN;
}

/*
 * One tick from 'now': RX makes new flows one at a time until held, or
 * 'want' of them. Returns how many it made; *made and *now move on.
 */
static uint64_t
one_tick(const struct tp_rx_hold *h, struct tp_rx_spread *s, uint64_t *now,
	 uint64_t *made, uint64_t want)
{
	uint64_t n = 0;

	while (n < want && !tp_rx_spread_held(h, s, *now, *made)) {
		(*made)++;
		n++;
	}
	*now += TICK;
	return n;
}

int
main(void)
{
	struct tp_rx_hold h = { 0 };
	struct tp_rx_spread s = { 0 };
	uint64_t now = 1000000, made = 0, n, cap, prev;
	unsigned int i;

	tp_rx_hold_spread(&h, TICK);
	CHECK(h.spread == (uint64_t)TICK * TP_RX_SPREAD_TICKS,
	      "spread lasts %lu, want %u ticks", (unsigned long)h.spread,
	      TP_RX_SPREAD_TICKS);

	/* No late expiry yet ('until' 0): never held, whatever RX makes. */
	for (i = 0; i < 8 * TP_RX_SPREAD_AVG; i++)
		CHECK(one_tick(&h, &s, &now, &made, 1000) == 1000,
		      "held in tick %u before a late expiry", i);

	/* A late expiry: a tick admits the average's NUM / DEN plus MIN. */
	h.until = now;
	n = one_tick(&h, &s, &now, &made, 100000);
	CHECK(n == cap_of(1000), "%lu new flows in a tick at an average of "
	      "1000, want %lu", (unsigned long)n,
	      (unsigned long)cap_of(1000));
	CHECK(s.cap == cap_of(1000), "cap %lu", (unsigned long)s.cap);

	/* Below the cap, every new flow is admitted. */
	CHECK(one_tick(&h, &s, &now, &made, 100) == 100, "held below the cap");

	/* Capped every tick, the cap grows, by about (NUM / DEN - 1) / AVG
	 * a tick.
	 */
	for (i = 0; i < 8 * TP_RX_SPREAD_AVG; i++)
		one_tick(&h, &s, &now, &made, 1000);
	prev = s.cap;
	for (i = 0; i < TP_RX_SPREAD_AVG; i++)
		one_tick(&h, &s, &now, &made, 100000);
	CHECK(s.cap > prev + prev / 8, "capped for %d ticks, the cap went "
	      "from %lu to %lu only", TP_RX_SPREAD_AVG, (unsigned long)prev,
	      (unsigned long)s.cap);
	CHECK(s.cap < prev * 2, "capped for %d ticks, the cap went from %lu "
	      "to %lu", TP_RX_SPREAD_AVG, (unsigned long)prev,
	      (unsigned long)s.cap);

	/* A steady 2000 a tick: once the cap has grown past it, none is
	 * held, and the cap settles on 2000's.
	 */
	h.until = now;
	for (i = 0; i < 16 * TP_RX_SPREAD_AVG; i++)
		one_tick(&h, &s, &now, &made, 2000);
	for (i = 0; i < 4 * TP_RX_SPREAD_AVG; i++)
		CHECK(one_tick(&h, &s, &now, &made, 2000) == 2000,
		      "held in tick %u of a steady 2000", i);
	CHECK(s.cap >= cap_of(2000) - 2 && s.cap <= cap_of(2000),
	      "cap %lu at a steady 2000, want %lu", (unsigned long)s.cap,
	      (unsigned long)cap_of(2000));

	/* Ticks RX did not look at count what it made over them: 2000 in
	 * the last tick it looked at and 6000 in the 3 after is 2000 a
	 * tick, and the cap stays.
	 */
	cap = s.cap;
	made += 6000;
	now += 3 * TICK;
	(void)tp_rx_spread_held(&h, &s, now, made);
	CHECK(s.cap == cap, "cap %lu after 4 ticks of 2000 unseen, want %lu",
	      (unsigned long)s.cap, (unsigned long)cap);

	/* Held back for 64 ticks (100 new flows each), the average falls;
	 * the cap stays at least half the fading peak (2000 a tick).
	 */
	for (i = 0; i < 64; i++)
		one_tick(&h, &s, &now, &made, 100);
	n = one_tick(&h, &s, &now, &made, 100000);
	CHECK(n >= 2000 * 15 / 16 / TP_RX_SPREAD_FLOOR + TP_RX_SPREAD_MIN &&
	      n <= 2000 / TP_RX_SPREAD_FLOOR + TP_RX_SPREAD_MIN,
	      "%lu new flows in a tick after 64 ticks held back from a steady "
	      "2000, want the peak's share", (unsigned long)n);

	/* Long idle: the average falls to about nothing (under 2 a tick,
	 * its rounding), the cap to MIN.
	 */
	now += 100000 * (uint64_t)TICK;
	h.until = now;
	n = one_tick(&h, &s, &now, &made, 100000);
	CHECK(n >= TP_RX_SPREAD_MIN && n <= TP_RX_SPREAD_MIN + 2,
	      "%lu new flows in the tick after a long idle, want %d",
	      (unsigned long)n, TP_RX_SPREAD_MIN);

	/* The spread lasts its ticks past the last late expiry ('until'),
	 * then RX is unheld.
	 */
	h.until = now;
	now = h.until + h.spread - 1;
	(void)tp_rx_spread_held(&h, &s, now, made);
	made += s.cap;
	CHECK(tp_rx_spread_held(&h, &s, now, made),
	      "not held at the cap in the spread's last cycle");
	now++;
	CHECK(!tp_rx_spread_held(&h, &s, now, made),
	      "held at the cap once the spread is over");
	made += 100000;
	CHECK(!tp_rx_spread_held(&h, &s, now, made),
	      "held far past the cap once the spread is over");

	return tp_check_report("rx_spread");
}
