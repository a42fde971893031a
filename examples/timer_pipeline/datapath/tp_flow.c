/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Flow table and flow life cycle: creation by RX lcores, timer arm, refresh
 * and re-arm, ending (expiry, eviction, shutdown), the flow record and the
 * return of the slot after an RCU grace period. docs/sample_app.rst ("Flow
 * life cycle and concurrency") explains the protocol; every transition of
 * the 'ref' word is a compare-and-swap.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "tp_ctx.h"
#include "datapath/tp_flow.h"
#include "datapath/tp_flow_init.h"
#include "datapath/tp_flow_slot.h"
#include "reports/tp_slots.h"
#include "datapath/tp_parse.h"

/* Live flows sampled when choosing an eviction victim. */
#define TP_EVICT_SAMPLE 32

#define TP_TRACE(ctx, f, kind, arg, reason) do {			\
	if (unlikely((f)->traced))					\
		(ctx)->ft.ops->step(ctx, f, kind, arg, reason);	\
} while (0)

static const char *const tp_reason_names[TP_END_MAX] = {
	[TP_END_NONE] = "live",
	[TP_END_IDLE] = "idle_timeout",
	[TP_END_ACTIVE] = "active_timeout",
	[TP_END_EOF] = "end_of_flow",
	[TP_END_FORCED] = "forced_end",
	[TP_END_LACK] = "lack_of_resources",
};

const char *
tp_flow_end_reason_name(unsigned int reason)
{
	return reason < TP_END_MAX ? tp_reason_names[reason] : "?";
}

void
tp_flow_reclaim(struct tp_ctx *ctx)
{
	tp_flow_slot_reclaim(ctx);
}

/* The last reference is gone: write the record, return the slot later. */
static void
tp_flow_finalise(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		 uint32_t reason)
{
	struct tp_flow_table *ft = &ctx->ft;
	uint32_t pos = tp_flow_pos(ft, f);

	/* Only the holder of the last reference of an ended flow. */
	RTE_ASSERT(reason > TP_END_NONE && reason < TP_END_MAX);
	ft->ops->ended(ctx, lc, f, reason);
	lc->stats.flows_ended[reason]++;
	TP_TRACE(ctx, f, TP_FLOW_STEP_RECORD, 0, reason);
	if (!tp_flow_table_closed(ft))
		tp_flow_slot_defer(ctx, pos);
	else
		lc->stats.flows_ended_closed++;
}

/*
 * End a live flow and/or drop 'drop' references, in one CAS. Returns the
 * new word; *won is true when this call set the end reason, which makes
 * the caller the one to delete the key.
 */
static uint32_t
tp_flow_kill(struct tp_flow *f, uint32_t reason, uint32_t drop, bool *won)
{
	uint32_t r = __atomic_load_n(&f->ref, __ATOMIC_RELAXED);
	uint32_t n;

	do {
		/* Published (never FREE or INIT), holding what we drop. */
		RTE_ASSERT(r != TP_REF_FREE && (r & TP_REF_INIT) == 0 &&
			   (r & TP_REF_COUNT_MASK) >= drop);
		*won = !tp_ref_is_dead(r);
		n = r - drop;
		if (*won)
			n |= reason << TP_REF_REASON_SHIFT;
	} while (!__atomic_compare_exchange_n(&f->ref, &r, n, false,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	return n;
}

/* After winning tp_flow_kill(): the key (signature sig) leaves the table. */
static void
tp_flow_unhash(struct tp_ctx *ctx, struct tp_flow *f, uint32_t reason,
	       uint32_t sig)
{
	/* Only the winner deletes, with its sig; none once closed. */
	int32_t ret = tp_flow_table_closed(&ctx->ft) ? 0 :
		rte_hash_del_key_with_hash(ctx->ft.h, f->key, sig);

	RTE_ASSERT(ret >= 0);
	RTE_SET_USED(ret);
	__atomic_fetch_sub(&ctx->ft.nb_live, 1, __ATOMIC_RELAXED);
	TP_TRACE(ctx, f, TP_FLOW_STEP_END, 0, reason);
}

static inline uint32_t
tp_flow_sig(const struct tp_ctx *ctx, const struct tp_flow *f)
{
	return rte_hash_hash(ctx->ft.h, f->key);
}

static void
tp_flow_after_kill(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		   uint32_t n, bool won, uint32_t reason, uint32_t sig)
{
	if (won)
		tp_flow_unhash(ctx, f, reason, sig);
	if ((n & TP_REF_COUNT_MASK) == 0)
		tp_flow_finalise(ctx, lc, f, tp_ref_reason(n));
}

/* A timeout of 'cycles' in adapter ticks, rounded up, at least one. */
static inline uint64_t
tp_flow_ticks(const struct tp_ctx *ctx, uint64_t cycles)
{
	const uint64_t tick = ctx->tick_cycles;

	return RTE_MAX((cycles + tick - 1) / tick, UINT64_C(1));
}

/* The adapter refused timer t: counted, and left not armed. */
static inline void
tp_flow_arm_refused(struct tp_lcore *lc, struct rte_event_timer *t)
{
	lc->stats.tim_arm_fail++;
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
}

/* Arm the flow's timer for 'cycles' (rounded up to ticks). The caller owns
 * the timer: it holds tim_lock, or the flow is not yet published.
 */
static int
tp_flow_arm(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
	    uint64_t cycles, uint64_t now)
{
	struct rte_event_timer *t = tp_flow_tim(&ctx->ft, f);

	t->timeout_ticks = tp_flow_ticks(ctx, cycles);
	if (TP_STAGE_RET(ARM, 1,
			 ctx->ta.ops->arm_burst(ctx->ta.h, &t, 1)) != 1) {
		tp_flow_arm_refused(lc, t);
		return -rte_errno;
	}
	f->deadline_tsc = now + t->timeout_ticks * ctx->tick_cycles;
	return 0;
}

/* The timer ref cannot be kept (arm failed): end for lack of resources. */
static void
tp_flow_timer_lost(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f)
{
	uint32_t n;
	bool won;

	n = tp_flow_kill(f, TP_END_LACK, 1, &won);
	tp_flow_after_kill(ctx, lc, f, n, won, TP_END_LACK,
			   tp_flow_sig(ctx, f));
}

void
tp_flow_arm_later(struct tp_lcore *lc, struct tp_flow *f, uint64_t now)
{
	RTE_ASSERT(__atomic_load_n(&f->ref, __ATOMIC_RELAXED) == TP_REF_INIT);
	RTE_ASSERT(lc->nb_arm < TP_MAX_BURST);
	lc->arm_f[lc->nb_arm] = f;
	lc->arm_now[lc->nb_arm] = now;
	lc->nb_arm++;
}

/*
 * Publish a new flow whose first arm was tried: two references, the
 * timer's and the packet's; without a timer it ends at once (lack of
 * resources), its packet counted. On the inline path that packet was
 * metered before (the flow was this lcore's alone): its reference goes.
 */
static void
tp_flow_publish(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		uint64_t now, bool armed)
{
	struct rte_event_timer *t = tp_flow_tim(&ctx->ft, f);

	if (armed) {
		f->deadline_tsc = now + t->timeout_ticks * ctx->tick_cycles;
		lc->stats.tim_armed++;
		TP_TRACE(ctx, f, TP_FLOW_STEP_ARM, t->timeout_ticks, 0);
		__atomic_store_n(&f->ref, 2, __ATOMIC_RELEASE);
	} else {
		tp_flow_arm_refused(lc, t);
		__atomic_store_n(&f->ref,
				 1 | (TP_END_LACK << TP_REF_REASON_SHIFT),
				 __ATOMIC_RELEASE);
		tp_flow_unhash(ctx, f, TP_END_LACK, tp_flow_sig(ctx, f));
	}
	if (ctx->inline_path)
		tp_flow_put(ctx, lc, f);
}

/* RX: arm the burst's new flows' first timers, and publish them. 8< */
void
tp_flow_arm_pending(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	struct rte_event_timer *t[TP_MAX_BURST];
	const uint16_t n = lc->nb_arm;
	uint16_t i, done = 0, k;

	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		t[i] = tp_flow_tim(&ctx->ft, lc->arm_f[i]);
		t[i]->timeout_ticks = tp_flow_ticks(ctx,
				ctx->tmo_cycles[lc->arm_f[i]->tmo_class]);
	}
	/* One call for them all; a timer the adapter refuses (it stops
	 * there) ends its flow, and the call goes on after it.
	 */
	while (done < n) {
		k = TP_STAGE_RET(ARM, n - done,
				 ctx->ta.ops->arm_burst(ctx->ta.h, &t[done],
							n - done));
		for (i = done; i < done + k; i++)
			tp_flow_publish(ctx, lc, lc->arm_f[i], lc->arm_now[i],
					true);
		done += k;
		if (done < n) {
			tp_flow_publish(ctx, lc, lc->arm_f[done],
					lc->arm_now[done], false);
			done++;
		}
	}
	lc->nb_arm = 0;
}
/* >8 End of RX: arm the burst's new flows. */

/* Pick the oldest idle flow among a sample of live ones and end it. */
static bool
tp_flow_evict(struct tp_ctx *ctx, struct tp_lcore *lc)
{
	struct tp_flow_table *ft = &ctx->ft;
	struct tp_flow *f, *victim = NULL;
	uint64_t oldest = UINT64_MAX, t;
	const uint32_t top = tp_flow_table_reach(ft);
	uint32_t c = lc->evict_cursor % top;
	unsigned int i, seen = 0;

	/* The table is full, live entries dense below top: a short scan. */
	for (i = 0; i < top && seen < TP_EVICT_SAMPLE; i++) {
		f = &ft->entries[c];
		c = c + 1 == top ? 0 : c + 1;
		if (!tp_ref_is_live(__atomic_load_n(&f->ref,
						    __ATOMIC_RELAXED)))
			continue;
		seen++;
		t = __atomic_load_n(&tp_flow_tl(ft, f)->last_tsc,
				    __ATOMIC_RELAXED);
		if (t < oldest) {
			oldest = t;
			victim = f;
		}
	}
	lc->evict_cursor = c;
	if (victim == NULL)
		return false;
	tp_flow_end(ctx, lc, victim, TP_END_LACK);
	return true;
}

static int32_t
tp_flow_add(struct tp_ctx *ctx, struct tp_lcore *lc,
	    const struct tp_flow_key *key, uint32_t sig)
{
	struct tp_flow_table *ft = &ctx->ft;
	int32_t pos;

	if (__atomic_load_n(&ft->nb_live, __ATOMIC_RELAXED) >= ft->capacity &&
	    (ctx->cfg->table_full == TP_FULL_DROP ||
	     !tp_flow_evict(ctx, lc)))
		goto full;
	pos = tp_flow_slot_add(ctx, lc, key, sig);
	if (pos == -ENOSPC) {
		/* Slots of ended flows may be waiting for a grace period. */
		tp_flow_reclaim(ctx);
		pos = tp_flow_slot_add(ctx, lc, key, sig);
	}
	if (pos >= 0)
		return pos;
full:
	lc->stats.drops[TP_DROP_TABLE_FULL]++;
	return -ENOSPC;
}

/* RX: look up or create. 8< */
struct tp_flow *
tp_flow_get_or_create(struct tp_ctx *ctx, struct tp_lcore *lc,
		      const struct tp_parsed *pp, uint32_t sig, int32_t pos,
		      uint64_t now, bool *created)
{
	const struct tp_flow_key *key = &pp->key;
	struct tp_flow_table *ft = &ctx->ft;
	struct tp_flow *f;
	uint32_t r;

	for (;;) {
		if (pos < 0) {
			pos = tp_flow_add(ctx, lc, key, sig);
			if (pos < 0)
				return NULL;
		}
		f = &ft->entries[pos];
		r = __atomic_load_n(&f->ref, __ATOMIC_ACQUIRE);
		if (r == TP_REF_FREE) {
			/* New key: whoever claims the slot creates the flow. */
			if (__atomic_compare_exchange_n(&f->ref, &r,
							TP_REF_INIT, false,
							__ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED)) {
				tp_flow_init(ctx, lc, f, pp, sig, now);
				*created = true;
				return f;
			}
			continue;
		}
		if (r == TP_REF_INIT && lc->nb_arm != 0) {
			/* Maybe created by this lcore earlier in the burst:
			 * its first arm waits for the burst's end. Arm and
			 * publish the burst's new flows now.
			 */
			tp_flow_arm_pending(ctx, lc);
			continue;
		}
		if (r == TP_REF_INIT || tp_ref_is_dead(r)) {
			/* Being created by another lcore (wait) or ending:
			 * its key is about to leave the table, after which
			 * we create a new flow.
			 */
			lc->stats.flow_busy_retry++;
			rte_pause();
			if (r != TP_REF_INIT)
				pos = rte_hash_lookup_with_hash(ft->h, key, sig);
			continue;
		}
		/* LIVE: count -> count + 1 (never into the reason bits). */
		RTE_ASSERT(tp_ref_is_live(r) &&
			   (r & TP_REF_COUNT_MASK) < TP_REF_COUNT_MASK);
		if (__atomic_compare_exchange_n(&f->ref, &r, r + 1, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
	}
	__atomic_store_n(&tp_flow_tl(ft, f)->last_tsc, now, __ATOMIC_RELAXED);
	*created = false;
	return f;
}
/* >8 End of RX: look up or create. */

/* Remaining life: TP_END_NONE and *rem, or why the flow ends now. */
static uint32_t
tp_flow_age(const struct tp_ctx *ctx, const struct tp_flow *f, uint64_t now,
	    uint64_t *rem)
{
	const struct tp_flow_timer *tl = tp_flow_tl(&ctx->ft, f);
	uint8_t cls = __atomic_load_n(&f->tmo_class, __ATOMIC_RELAXED);
	uint64_t last = __atomic_load_n(&tl->last_tsc, __ATOMIC_RELAXED);
	uint64_t idle_dl = last + ctx->tmo_cycles[cls];
	uint64_t active_dl = tl->first_tsc + ctx->tmo_cycles[TP_TMO_ACTIVE];

	if (now >= idle_dl)
		return cls == TP_TMO_TCP_CLOSING ? TP_END_EOF : TP_END_IDLE;
	if (now >= active_dl)
		return TP_END_ACTIVE;
	*rem = RTE_MIN(idle_dl, active_dl) - now;
	return TP_END_NONE;
}

/* Cancel and re-arm for the flow's current timeout (caller: tim_lock). */
static void
tp_flow_rearm_locked(struct tp_ctx *ctx, struct tp_lcore *lc,
		     struct tp_flow *f, uint64_t now)
{
	struct tp_flow_timer *tl = tp_flow_tl(&ctx->ft, f);
	struct rte_event_timer *t = &tl->tim;
	uint8_t cls = __atomic_load_n(&f->tmo_class, __ATOMIC_RELAXED);
	uint64_t active_dl = tl->first_tsc + ctx->tmo_cycles[TP_TMO_ACTIVE];
	uint64_t cyc = ctx->tmo_cycles[cls];

	if (ctx->ta.ops->cancel_burst(ctx->ta.h, &t, 1) != 1) {
		/* Expired already: its event will re-arm or end the flow. */
		lc->stats.tim_cancel_late++;
		return;
	}
	lc->stats.tim_cancelled++;
	cyc = RTE_MIN(cyc, active_dl > now ? active_dl - now : 1);
	if (tp_flow_arm(ctx, lc, f, cyc, now) == 0) {
		lc->stats.tim_rearmed++;
		TP_TRACE(ctx, f, TP_FLOW_STEP_REFRESH, t->timeout_ticks, 0);
	} else {
		tp_flow_timer_lost(ctx, lc, f);
	}
}

/* RX, --refresh=every-packet: cancel and re-arm (the packet holds a ref). */
void
tp_flow_refresh(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		uint64_t now)
{
	tp_flow_tim_lock(f);
	if (!tp_ref_is_dead(__atomic_load_n(&f->ref, __ATOMIC_ACQUIRE)))
		tp_flow_rearm_locked(ctx, lc, f, now);
	tp_flow_tim_unlock(f);
}

/* On FIN/RST: bring the deadline in to the closing timeout. */
void
tp_flow_shorten(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		uint64_t now)
{
	tp_flow_tim_lock(f);
	if (!tp_ref_is_dead(__atomic_load_n(&f->ref, __ATOMIC_ACQUIRE)) &&
	    tp_flow_tim(&ctx->ft, f)->state == RTE_EVENT_TIMER_ARMED &&
	    f->deadline_tsc > now + ctx->tmo_cycles[TP_TMO_TCP_CLOSING])
		tp_flow_rearm_locked(ctx, lc, f, now);
	tp_flow_tim_unlock(f);
}

/* RX, a TCP packet of a live flow it did not create. 8< */
void
tp_flow_tcp(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
	    uint8_t dir, uint8_t tcp_flags, uint64_t now)
{
	uint8_t cls = TP_TMO_TCP_SYN;

	/* A plain load first: most packets change nothing, and a locked
	 * exchange or compare-and-swap on every one cost the long capture
	 * of docs/bench.rst about 10 ns a TCP packet.
	 */
	const uint8_t was = __atomic_load_n(&f->tmo_class, __ATOMIC_RELAXED);

	if (tcp_flags & (RTE_TCP_FIN_FLAG | RTE_TCP_RST_FLAG)) {
		if (was != TP_TMO_TCP_CLOSING &&
		    __atomic_exchange_n(&f->tmo_class, TP_TMO_TCP_CLOSING,
					__ATOMIC_RELAXED) != TP_TMO_TCP_CLOSING)
			tp_flow_shorten(ctx, lc, f, now);
	} else if (dir == 1 && was == TP_TMO_TCP_SYN) {
		__atomic_compare_exchange_n(&f->tmo_class, &cls,
					    TP_TMO_TCP_EST, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
}
/* >8 End of RX, a TCP packet. */

/* Worker: a packet event is done (or RX dropped it); its reference goes. */
void
tp_flow_put(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f)
{
	uint32_t n = __atomic_sub_fetch(&f->ref, 1, __ATOMIC_ACQ_REL);

	/* The count was at least 1: it did not borrow from the reason. */
	RTE_ASSERT((n & TP_REF_INIT) == 0 &&
		   (n & TP_REF_COUNT_MASK) != TP_REF_COUNT_MASK);
	if ((n & TP_REF_COUNT_MASK) == 0)
		tp_flow_finalise(ctx, lc, f, tp_ref_reason(n));
}

/* Worker: load the buckets by a bulk lookup, whose misses overlap (each
 * key's delete missed on its own: 168 of 280-380 ns per ended flow).
 */
void
tp_flow_expiries_prepare(struct tp_ctx *ctx, struct tp_flow *const *f,
			 unsigned int n, uint32_t *sig)
{
	const void *keys[RTE_HASH_LOOKUP_BULK_MAX];
	int32_t pos[RTE_HASH_LOOKUP_BULK_MAX];
	unsigned int i, j, k;

	for (i = 0; i < n; i += k) {
		k = RTE_MIN(n - i, (unsigned int)RTE_HASH_LOOKUP_BULK_MAX);
		for (j = 0; j < k; j++) {
			keys[j] = f[i + j]->key;
			sig[i + j] = rte_hash_hash(ctx->ft.h, keys[j]);
		}
		rte_hash_lookup_with_hash_bulk(ctx->ft.h, keys, &sig[i], k,
					       pos);
	}
}

/* Worker: the flow's expiry event. 8< */
void
tp_flow_expired(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
		uint64_t now, uint32_t sig)
{
	uint64_t rem = 0;
	uint32_t reason, n;
	bool won;

	tp_stats_lateness(&lc->stats, now > f->deadline_tsc ?
			  tp_cycles_to_ns(now - f->deadline_tsc, ctx->flow_hz) : 0);
	tp_rx_hold_expiry(&ctx->rx_hold, now, f->deadline_tsc);
	lc->stats.tim_expired++;
	TP_TRACE(ctx, f, TP_FLOW_STEP_EXPIRE, now > f->deadline_tsc ?
		 tp_cycles_to_ns(now - f->deadline_tsc, ctx->flow_hz) : 0, 0);
	tp_flow_tim_lock(f);
	reason = TP_END_NONE;
	if (!tp_ref_is_dead(__atomic_load_n(&f->ref, __ATOMIC_ACQUIRE))) {
		reason = tp_flow_age(ctx, f, now, &rem);
		if (reason == TP_END_NONE) {
			/* Lazy refresh: seen recently, sleep for the rest. */
			if (tp_flow_arm(ctx, lc, f, rem, now) == 0) {
				lc->stats.tim_rearmed++;
				TP_TRACE(ctx, f, TP_FLOW_STEP_REARM,
					 tp_flow_tim(&ctx->ft, f)->timeout_ticks,
					 0);
				tp_flow_tim_unlock(f);
				return;
			}
			reason = TP_END_LACK;
		}
	}
	/* End the flow (unless someone else did) and drop the timer's ref. */
	n = tp_flow_kill(f, reason, 1, &won);
	tp_flow_tim_unlock(f);
	tp_flow_after_kill(ctx, lc, f, n, won && reason != TP_END_NONE,
			   reason, sig);
}
/* >8 End of the flow's expiry event. */

/* End a live flow now (eviction, shutdown). False if it was not live. */
bool
tp_flow_end(struct tp_ctx *ctx, struct tp_lcore *lc, struct tp_flow *f,
	    enum tp_end_reason reason)
{
	struct rte_event_timer *t = tp_flow_tim(&ctx->ft, f);
	uint32_t r = __atomic_load_n(&f->ref, __ATOMIC_RELAXED);
	uint32_t n;

	RTE_ASSERT(reason > TP_END_NONE && reason < TP_END_MAX);
	do {
		if (!tp_ref_is_live(r))
			return false;
		/* LIVE -> DEAD: the reason is set, the count kept. */
		n = r | ((uint32_t)reason << TP_REF_REASON_SHIFT);
	} while (!__atomic_compare_exchange_n(&f->ref, &r, n, false,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	tp_flow_unhash(ctx, f, reason, tp_flow_sig(ctx, f));
	tp_flow_tim_lock(f);
	if (ctx->ta.ops->cancel_burst(ctx->ta.h, &t, 1) == 1) {
		lc->stats.tim_cancelled++;
		TP_TRACE(ctx, f, TP_FLOW_STEP_CANCEL, 0, reason);
		tp_flow_tim_unlock(f);
		tp_flow_put(ctx, lc, f);	/* the timer's reference */
	} else {
		/* Expired: the expiry event holds the timer's reference. */
		lc->stats.tim_cancel_late++;
		tp_flow_tim_unlock(f);
	}
	return true;
}

/* Shutdown: force every live flow below top to end; entries left. */
uint32_t
tp_flow_force_end(struct tp_ctx *ctx, struct tp_lcore *lc, uint32_t max,
		  uint32_t top)
{
	struct tp_flow_table *ft = &ctx->ft;
	uint64_t end = RTE_MIN(ctx->flush_walk + max, (uint64_t)top);

	/* RX has stopped: no flow is being created, and none left live
	 * (an input aged to its end) means nothing for the walk to end. */
	if (__atomic_load_n(&ft->nb_live, __ATOMIC_RELAXED) == 0)
		ctx->flush_walk = RTE_MAX(ctx->flush_walk, (uint64_t)top);
	for (; ctx->flush_walk < end; ctx->flush_walk++)
		tp_flow_end(ctx, lc, &ft->entries[ctx->flush_walk],
			    TP_END_FORCED);
	return ctx->flush_walk >= top ? 0 : top - (uint32_t)ctx->flush_walk;
}
