/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_STAGES_H_
#define _TP_STAGES_H_

/*
 * Cycles per pipeline stage, a build option (meson -Dstage_cycles=true
 * defines TP_STAGE_CYCLES): the stage list (TP_STAGE_LIST, the one place
 * each stage is named and described), the per-thread slots and the
 * begin/end helpers the data path calls at stage boundaries. Built
 * without the option every macro here is empty: the fast path has no
 * extra instruction and struct tp_lcore no extra byte.
 *
 * Time is exclusive: a stage that runs inside another (a worker poll in
 * RX's enqueue retry, a re-arm in an expiry, a flush inside a record's
 * encode) pauses the outer one, so the stages of a thread add up to at
 * most its wall time. rte_rdtsc(), not rte_rdtsc_precise(): the stages
 * are hundreds of cycles long and the ordering fence would cost more than
 * the skew it removes.
 *
 * Locking: none. Each struct tp_stage_stats has one writer, the thread it
 * belongs to (an lcore's is in its struct tp_lcore, the IPFIX thread's in
 * the exporter), found through that thread's tp_stage_self pointer;
 * cycles[] and calls[] are stored relaxed and read with relaxed loads by
 * the main lcore (the summary). The stack is the writer's alone.
 */

#include <stdint.h>

/**
 * The stages, in pipeline order: X(ID, "name", "what it covers"). The
 * names are the keys of "stage_cycles" in --summary-json; "calls" is what
 * each stage counts (docs/bench.rst, docs/summary-json.rst).
 */
#define TP_STAGE_LIST(X)						\
	X(RX_READ, "rx_read", "RX: the port's rte_eth_rx_burst() (for "	\
	  "net_pcap, libpcap's read and the copy into mbufs); calls: "	\
	  "packets")							\
	X(CLOCK, "clock", "RX, --clock capture: a step of the capture "	\
	  "clock (tp_clock_step: its move and the adapter's and the "	\
	  "scheduler's service iterations it runs there); calls: steps") \
	X(PARSE, "parse", "RX, tp_rx_classify(): parse and hash "	\
	  "(tp_classify, on the service lcore for what the capture "	\
	  "read-ahead classifies) and bulk lookup of a burst; calls: "	\
	  "packets")							\
	X(INSERT, "table_insert", "RX, tp_flow_get_or_create() of a "	\
	  "packet whose key the lookup did not find (rte_hash_add, claim, "\
	  "init; an eviction if the table is full); calls: such packets") \
	X(ARM, "arm", "RX and worker: the adapter's arm_burst of one "	\
	  "timer (tp_flow_arm: first arms, refresh and lazy re-arms); "	\
	  "calls: arms")						\
	X(ENQUEUE, "event_enqueue", "RX: rte_event_enqueue_new_burst of "\
	  "the packet events and its retries (the wait between retries, "\
	  "backpressure, is in no stage); calls: events")		\
	X(WORKER, "worker_packets", "worker: a dequeued burst's packet "\
	  "events (count into the flow, forward, TX flush), expiries "	\
	  "excluded; calls: events dequeued")				\
	X(FLOW_END, "flow_end", "worker: an expiry event "		\
	  "(tp_flow_expired: age, end, unhash, build and queue the "	\
	  "record; and a burst's bucket loads), its re-arm excluded; "	\
	  "calls: expiry events")					\
	X(ENCODE, "record_encode", "main lcore: a flow log line "	\
	  "(tp_record_write); IPFIX exporter (its thread or its "	\
	  "service lcore): a record into the open message "		\
	  "(tp_ipfix_run_one); calls: records")				\
	X(WRITE, "record_write", "main lcore: the flow log's write(); "\
	  "IPFIX exporter: a message's send() or write(); calls: writes")

/** Stage ids, in TP_STAGE_LIST's order. */
enum tp_stage {
#define TP_STAGE_ENUM(id, name, desc) TP_STAGE_ ## id,
	TP_STAGE_LIST(TP_STAGE_ENUM)
#undef TP_STAGE_ENUM
	TP_STAGE_MAX
};

/** Deepest nesting of stages (deeper ones count to the outer stage). */
#define TP_STAGE_DEPTH 8

/** One thread's stage cycles: one writer, the thread itself. */
struct tp_stage_stats {
	uint64_t cycles[TP_STAGE_MAX];	/**< Exclusive TSC cycles. */
	uint64_t calls[TP_STAGE_MAX];	/**< What the stage counts. */
	uint64_t t0;			/**< TSC the running stage resumed. */
	uint32_t depth;			/**< Stages running (on stack[]). */
	uint32_t skipped;		/**< Begins past TP_STAGE_DEPTH. */
	uint8_t stack[TP_STAGE_DEPTH];	/**< Running stages, inner last. */
};

#ifdef TP_STAGE_CYCLES

#include <rte_cycles.h>
#include <rte_per_lcore.h>

/** This thread's slots (NULL: a thread that counts nothing). */
RTE_DECLARE_PER_LCORE(struct tp_stage_stats *, tp_stage_self);

static inline void
tp_stage_add(uint64_t *ctr, uint64_t n)
{
	__atomic_store_n(ctr, *ctr + n, __ATOMIC_RELAXED);
}

/**
 * A stage starts on this thread: the running one (if any) pauses.
 *
 * @param st  enum tp_stage.
 */
static inline void
tp_stage_begin(unsigned int st)
{
	struct tp_stage_stats *s = RTE_PER_LCORE(tp_stage_self);
	uint64_t now;

	if (s == NULL)
		return;
	if (s->depth == TP_STAGE_DEPTH) {
		s->skipped++;
		return;
	}
	now = rte_rdtsc();
	if (s->depth > 0)
		tp_stage_add(&s->cycles[s->stack[s->depth - 1]], now - s->t0);
	s->stack[s->depth++] = (uint8_t)st;
	s->t0 = now;
}

/**
 * The innermost running stage ends; the one it interrupted resumes.
 *
 * @param n  What the stage counts (packets, events, records) this time.
 */
static inline void
tp_stage_end(uint64_t n)
{
	struct tp_stage_stats *s = RTE_PER_LCORE(tp_stage_self);
	uint64_t now;
	unsigned int st;

	if (s == NULL)
		return;
	if (s->skipped > 0) {
		s->skipped--;
		return;
	}
	now = rte_rdtsc();
	st = s->stack[--s->depth];
	tp_stage_add(&s->cycles[st], now - s->t0);
	tp_stage_add(&s->calls[st], n);
	s->t0 = now;
}

/** Start stage TP_STAGE_<id>. */
#define TP_STAGE_BEGIN(id) tp_stage_begin(TP_STAGE_ ## id)
/** End the innermost stage, counting n. */
#define TP_STAGE_END(n) tp_stage_end(n)
/** Start TP_STAGE_<id> only if cond (end it with TP_STAGE_END_IF). */
#define TP_STAGE_BEGIN_IF(cond, id) do {				\
	if (cond)							\
		tp_stage_begin(TP_STAGE_ ## id);			\
} while (0)
/** End the stage TP_STAGE_BEGIN_IF(cond, ...) started. */
#define TP_STAGE_END_IF(cond, n) do {					\
	if (cond)							\
		tp_stage_end(n);					\
} while (0)
/** The value of expr, evaluated as stage TP_STAGE_<id> counting n. */
#define TP_STAGE_RET(id, n, expr) __extension__ ({			\
	__typeof__(expr) tp_stage_ret_;					\
	tp_stage_begin(TP_STAGE_ ## id);				\
	tp_stage_ret_ = (expr);						\
	tp_stage_end(n);						\
	tp_stage_ret_;							\
})
/** Run the statement stmt as stage TP_STAGE_<id>, counting n. */
#define TP_STAGE_RUN(id, n, stmt) do {					\
	tp_stage_begin(TP_STAGE_ ## id);				\
	stmt;								\
	tp_stage_end(n);						\
} while (0)

#else /* !TP_STAGE_CYCLES: nothing at all */

#define TP_STAGE_BEGIN(id) do { } while (0)
#define TP_STAGE_END(n) do { } while (0)
#define TP_STAGE_BEGIN_IF(cond, id) do { } while (0)
#define TP_STAGE_END_IF(cond, n) do { } while (0)
#define TP_STAGE_RET(id, n, expr) (expr)
#define TP_STAGE_RUN(id, n, stmt) do { stmt; } while (0)

#endif /* TP_STAGE_CYCLES */

#endif /* _TP_STAGES_H_ */
