/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TIMER_ADAPTER_H_
#define _TIMER_ADAPTER_H_

/**
 * @file
 * Direct-insertion software event timer adapter (radix index and far ring;
 * DPDK's own software adapter is the direct-skiplist design).
 *
 * A drop-in alternative to DPDK's software event timer adapter
 * (rte_event_timer_adapter): every function here mirrors the
 * rte_event_timer_adapter_* / rte_event_timer_* function of the same
 * suffix, takes the same structures (struct rte_event_timer,
 * struct rte_event_timer_adapter_conf, _info, _stats) and reports the same
 * return values, timer states and rte_errno values. A program switches by
 * renaming the calls and using struct timer_adapter as the handle.
 *
 * Model:
 * - The lcore (or thread) that arms a timer inserts it directly into its own
 *   per-lcore list: there is no ring between producers and the service.
 *   Non-EAL threads share one extra list. Every list has its own lock, so
 *   lcores of a secondary process may arm into the adapter too.
 * - Each list keys timers by expiry tick, in two tiers. A timer due within
 *   the current or the next *span* of ticks (2^k ticks, k chosen at create
 *   so that 254 spans cover max_tmo_ns) goes into a radix index: all timers
 *   of one tick share a FIFO, the distinct ticks are indexed by a 64-ary
 *   radix tree with occupancy bitmaps. A timer due later is *parked*,
 *   unsorted, in the far bucket of its span (a ring of 256 buckets): an
 *   O(1) append that touches only cached memory, whatever the number of
 *   timers. The service moves each bucket into the radix index during the
 *   span before its own, a bounded share per tick.
 * - The adapter's service (an rte_service component, to be mapped to
 *   exactly one service lcore) reads the clock and, under each list's lock,
 *   splices the FIFO of every due tick onto its own FIFO in O(1) per tick;
 *   then turns each timer into a copy of its rte_event template, buffered
 *   and enqueued in bursts on the adapter's event port.
 * - A timer never expires before its deadline (arm time + timeout_ticks *
 *   timer_tick_ns); it expires at most one tick plus one service period
 *   later, plus whatever the event device's backpressure adds.
 * - Expiry and cancel are settled under the list's lock, on one word of the
 *   timer's internal node: exactly one of them wins. Once cancel returns,
 *   nothing in the adapter refers to the rte_event_timer any more.
 * - A process that dies inside an arm or cancel call while holding its
 *   list's lock leaves that list dead (detected by whoever waits on the
 *   lock, which holds the holder's pid): the service skips it, arms on that
 *   lcore fail with ENOSPC, cancels of its timers with EINVAL. A process
 *   killed between calls leaves its timers to expire normally.
 * - Backpressure: when the event device refuses events, the expired timers
 *   wait, in expiry order, in the service's FIFO; they are never
 *   re-inserted, never dropped, and still cancellable until their event is
 *   built. The work per service call is bounded so that other services on
 *   the same lcore (the event_sw scheduler) keep running.
 *
 * Where DPDK's adapter changed after 22.11 (service_id_get with a NULL
 * id, the default port callback's single-link count), the library
 * follows the DPDK it is built against (common/dpdk_compat.h).
 *
 * Deliberate differences from DPDK's software adapter, mostly in the
 * direction of rejecting what DPDK accepts but cannot honour; "[tag;
 * before X.Y]" marks one that exists only when built against a DPDK older
 * than X.Y. Each has a
 * tag in brackets, the one list both checks read: the differential test
 * (tests/test_differential.c) fails unless its expected differences use
 * exactly these tags, and docs/differences.rst is generated from this list
 * by tools/differences.py (the same test fails when it is out of date).
 * Each item ends with what an application sees through DPDK's own API
 * over the event_direct driver (drivers/event_direct): "Through
 * event_direct: ours." (the difference stays: our code decides) or
 * "Through event_direct: DPDK's." (DPDK's own code decides before or
 * instead of ours, so DPDK's behaviour comes back, or the difference
 * disappears); the differential test's third side checks each.
 * - [create-checks] create rejects timer_tick_ns == 0, max_tmo_ns <
 *   timer_tick_ns and nb_timers == 0 with EINVAL (DPDK accepts the first
 *   two and divides by zero later; it reports EPERM for the third).
 *   Through event_direct: ours (DPDK's create runs our init, which refuses
 *   them, after the port callback ran).
 * - [null-conf-cb] create_ext with a NULL conf_cb fails with EINVAL and
 *   leaves the id free (DPDK keeps the id's data memzone, so a later
 *   create with that id fails with EEXIST). Through event_direct: DPDK's
 *   (its create checks conf_cb before our init runs).
 * - [lookup-range] lookup of an id >= TIMER_ADAPTER_NUM_MAX fails with
 *   EINVAL (DPDK reads out of bounds). Through event_direct: DPDK's (its
 *   lookup runs).
 * - [init-errno] A failing private init reports its real errno (ENOMEM)
 *   instead of EPERM. Through event_direct: ours (DPDK's create passes
 *   init's error on).
 * - [tmo-overflow] A timeout whose timeout_ticks * timer_tick_ns overflows
 *   64 bits is reported as RTE_EVENT_TIMER_ERROR_TOOLATE (DPDK wraps
 *   around and arms a timer of about one tick). Through event_direct:
 *   ours.
 * - [partial-burst] When the node pool runs dry in the middle of a burst,
 *   the timers before it stay armed and the call returns a short count
 *   with ENOSPC (DPDK returns 0 even when some could have been armed).
 *   Through event_direct: ours.
 * - [cancel-expiry-race] Expiry and cancel of one timer are settled on one
 *   word: exactly one wins, and a timer whose event was built never ends
 *   CANCELED (DPDK's cancel can succeed on a timer whose event it has
 *   already delivered). Through event_direct: ours.
 * - [device-full] A single-shot timer that cannot be delivered because the
 *   event device is full is kept, in order, until it can be (DPDK
 *   re-inserts it into a skiplist and counts evtim_retry_count).
 *   evtim_retry_count here counts enqueue attempts that left events
 *   waiting for a later try. Through event_direct: ours.
 * - [periodic-behind] A periodic timer whose firings fall behind (the
 *   device was full for longer than a period) fires once and skips the
 *   missed periods, counting each in evtim_drop_count; it stays armed
 *   (DPDK drops the firing when its buffer is full). Through event_direct:
 *   ours.
 * - [default-port-cb] The default port configuration callback used by
 *   timer_adapter_create() cannot read the device's current configuration
 *   (DPDK keeps it in a driver-only structure): it reconfigures the device
 *   with the current queue and port counts (plus one port) and the
 *   device's maximum limits. Applications with their own event device
 *   configuration should use timer_adapter_create_ext(). Through
 *   event_direct: DPDK's (DPDK's default port callback runs: the
 *   difference disappears).
 * - [app-lcore-service] start succeeds with the service mapped to no
 *   service lcore once the application has turned the service's mapped
 *   check off (rte_service_set_runstate_mapped_check(id, 0): DPDK's way
 *   of saying that the application runs the service itself, with
 *   rte_service_run_iter_on_app_lcore()) and set its runstate (DPDK's
 *   adapter counts only mapped service lcores and returns ENOENT, so it
 *   cannot run on an application lcore). Through event_direct: ours
 *   (DPDK's start calls our start).
 * - [remaining-ticks; before 23.03] remaining_ticks_get exists (DPDK's
 *   call appeared in 23.03; built against 23.03 or later, both return the
 *   same). Through event_direct: DPDK's (22.11 has no call that reaches
 *   our op).
 *
 * An addition DPDK's adapter has no counterpart for (not a difference in
 * a shared behaviour, so not tagged above): the application clock.
 * Created with TIMER_ADAPTER_F_CLOCK in conf.flags, an adapter takes its
 * time from timer_adapter_clock_set() instead of the TSC: deadlines,
 * ticks and remaining_ticks_get all count in that clock's nanoseconds,
 * which start at 0 and move only forward. DPDK's clk_src has no such
 * source (it names hardware clocks only). See TIMER_ADAPTER_F_CLOCK.
 *
 * Names used in shared memory and in rte_service differ from DPDK's
 * ("ta_data_<id>", "ta_svc_<id>"), so both adapters can live in one process.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_eventdev.h>
#include <rte_event_timer_adapter.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Number of adapters that may exist at once (ids 0 .. 31), as in DPDK. */
#define TIMER_ADAPTER_NUM_MAX 32

/** Capabilities reported by timer_adapter_get_info() (as DPDK's SW one). */
#define TIMER_ADAPTER_CAPS RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC

/**
 * conf.flags bit: run on the application's clock (timer_adapter_clock_set())
 * rather than the TSC. Not in DPDK, whose flags use bits 0 to 2.
 *
 * Ticks are derived from that clock: tick n starts at n * timer_tick_ns.
 * A timer armed when the clock reads c with a timeout of t ns is due at
 * tick ceil((c + t) / timer_tick_ns), as a TSC adapter rounds up; the
 * service, run at clock value c, expires exactly the timers due at or
 * before c (lateness is thus 0 to 1 tick of the application's clock, and
 * none is ever early). Nothing expires while the clock stands still.
 * Such an adapter keeps every timer in its radix index (no far ring), so
 * timer_adapter_clock::next_ns is the earliest deadline. The
 * real-time path pays nothing when the flag is off beyond one predicted
 * branch on a line it already reads (measured in app/timer_bench).
 */
#define TIMER_ADAPTER_F_CLOCK (UINT64_C(1) << 32)

/** Opaque adapter handle. */
struct timer_adapter;

/**
 * Create a timer adapter, adding one event port to the event device for it.
 *
 * Equivalent of rte_event_timer_adapter_create(): uses a default port
 * configuration callback that stops the event device if it runs, configures
 * it with one more event port, sets that port up with the device's default
 * port configuration and restarts the device if it was running.
 *
 * @param conf
 *   Adapter configuration.
 * @return
 *   The adapter handle, or NULL with rte_errno set:
 *   - EINVAL: conf is NULL, the event device id is invalid, timer_tick_ns or
 *     nb_timers is 0, max_tmo_ns < timer_tick_ns, or the id is
 *     >= TIMER_ADAPTER_NUM_MAX.
 *   - EEXIST: an adapter with this id already exists (in any process).
 *   - ENOMEM: out of memory.
 *   - EIO: the event device could not be restarted after reconfiguration.
 *   - other: the negated return value of the event device's configure or
 *     port setup call.
 */
struct timer_adapter *
timer_adapter_create(const struct rte_event_timer_adapter_conf *conf);

/**
 * Create a timer adapter with a caller-supplied port configuration callback.
 *
 * Equivalent of rte_event_timer_adapter_create_ext(). The callback receives
 * the adapter id, the event device id, a pointer where it stores the event
 * port the adapter enqueues expiry events on, and conf_arg. The port must be
 * set up; it is never linked to a queue by the adapter.
 *
 * @param conf
 *   Adapter configuration.
 * @param conf_cb
 *   Port configuration callback; must not be NULL (the event devices this
 *   adapter serves have no internal port).
 * @param conf_arg
 *   Opaque argument passed to conf_cb.
 * @return
 *   The adapter handle, or NULL with rte_errno set: as timer_adapter_create(),
 *   and EINVAL when conf_cb is NULL; if conf_cb fails, rte_errno is its
 *   negated return value.
 */
struct timer_adapter *
timer_adapter_create_ext(const struct rte_event_timer_adapter_conf *conf,
			 rte_event_timer_adapter_port_conf_cb_t conf_cb,
			 void *conf_arg);

/**
 * Free a stopped adapter and all its memory.
 *
 * Timers still armed are forgotten: their rte_event_timer stays in state
 * ARMED (as in DPDK) and no event is generated for them. Must be called in
 * the process that created the adapter.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is NULL or not allocated (already freed).
 *   - -EBUSY: the adapter is started.
 */
int
timer_adapter_free(struct timer_adapter *adapter);

/**
 * Start the adapter: its service may then run and expire timers.
 *
 * The application maps the service (timer_adapter_service_id_get()) to one
 * service lcore, sets its runstate and starts the lcore, as for DPDK's
 * software adapter. Or it runs the service on its own lcores with
 * rte_service_run_iter_on_app_lcore(): it then turns DPDK's mapped check
 * off (rte_service_set_runstate_mapped_check(id, 0)) and sets the
 * runstate before starting, and maps the service to no service lcore
 * (the app-lcore-service difference).
 *
 * @param adapter
 *   The adapter.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is NULL or not allocated.
 *   - -EALREADY: already started.
 *   - -ENOENT: the service is mapped to no service lcore, and its mapped
 *     check is on or its runstate is not set.
 *   - -ENOTSUP: the service is mapped to more than one service lcore.
 */
int
timer_adapter_start(const struct timer_adapter *adapter);

/**
 * Stop the adapter and wait until its service has left its last call.
 *
 * Armed timers stay armed; they expire once the adapter is started again.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   - 0: success, also when the adapter was not started (logged, as DPDK).
 *   - -EINVAL: adapter is NULL or not allocated.
 */
int
timer_adapter_stop(const struct timer_adapter *adapter);

/**
 * Find an adapter by id, in this process or one created by another process
 * of the same DPDK instance (secondary processes use this).
 *
 * @param adapter_id
 *   The id given in the creating configuration.
 * @return
 *   The handle, or NULL with rte_errno set:
 *   - EINVAL: adapter_id >= TIMER_ADAPTER_NUM_MAX.
 *   - ENOENT: no adapter with that id exists.
 */
struct timer_adapter *
timer_adapter_lookup(uint16_t adapter_id);

/**
 * Get the adapter's configuration and capabilities.
 *
 * min_resolution_ns is timer_tick_ns, max_tmo_ns is the configured one,
 * caps is TIMER_ADAPTER_CAPS and event_dev_port_id the adapter's port.
 *
 * @param adapter
 *   The adapter.
 * @param adapter_info
 *   Filled on success.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is NULL or not allocated, or adapter_info is NULL.
 */
int
timer_adapter_get_info(const struct timer_adapter *adapter,
		       struct rte_event_timer_adapter_info *adapter_info);

/**
 * Get the id of the adapter's rte_service.
 *
 * @param adapter
 *   The adapter.
 * @param service_id
 *   Filled on success. NULL is refused with -EINVAL when built against
 *   DPDK 23.03 or later, as DPDK's call does; with 22.11 it is ignored.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is NULL or not allocated, or service_id is NULL
 *     (DPDK 23.03 and later).
 *   - -ESRCH: the adapter has no service.
 */
int
timer_adapter_service_id_get(const struct timer_adapter *adapter,
			     uint32_t *service_id);

/**
 * Read the adapter's statistics.
 *
 * The counters are those of DPDK's software adapter: evtim_exp_count (timers
 * whose expiry event was built, periodic firings included), ev_enq_count
 * (expiry events accepted by the event device), ev_inv_count (events the
 * device rejected as invalid; each is dropped and counted), evtim_retry_count
 * (enqueue attempts that left events waiting), adapter_tick_count (ticks
 * processed; missed ticks collapse into one) and evtim_drop_count (periodic
 * firings skipped). The counters are single-writer and read without tearing.
 *
 * @param adapter
 *   The adapter.
 * @param stats
 *   Filled on success.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is NULL or not allocated, or stats is NULL.
 */
int
timer_adapter_stats_get(const struct timer_adapter *adapter,
			struct rte_event_timer_adapter_stats *stats);

/**
 * Reset the adapter's statistics to zero (safe while the service runs).
 *
 * @param adapter
 *   The adapter.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is NULL or not allocated.
 */
int
timer_adapter_stats_reset(struct timer_adapter *adapter);

/**
 * Arm a burst of event timers, each with its own evtims[i]->timeout_ticks.
 *
 * Processing stops at the first timer that cannot be armed; the timers
 * before it are armed, it and those after it are untouched except for the
 * failing timer's state where given below. rte_errno is set for that timer
 * and left as it was on full success. Per timer, in this order:
 * - state ARMED: EALREADY, state unchanged.
 * - state other than NOT_ARMED and CANCELED: EINVAL, state unchanged (reset
 *   an errored timer to RTE_EVENT_TIMER_NOT_ARMED before re-arming).
 * - ev.queue_id is not a configured queue, or its schedule type differs
 *   from ev.sched_type (an RTE_EVENT_QUEUE_CFG_ALL_TYPES queue accepts any):
 *   state RTE_EVENT_TIMER_ERROR, EINVAL.
 * - timeout_ticks * timer_tick_ns > max_tmo_ns (or overflows): state
 *   RTE_EVENT_TIMER_ERROR_TOOLATE, EINVAL.
 * - timeout_ticks == 0: state RTE_EVENT_TIMER_ERROR_TOOEARLY, EINVAL.
 * - no internal node is available (the adapter holds nb_timers timers, or
 *   memory is exhausted): ENOSPC, state unchanged. Each lcore's list keeps
 *   up to 128 credits of nb_timers for its next arms, so an lcore may see
 *   ENOSPC up to 128 timers early per other lcore that armed before.
 * On success the state becomes RTE_EVENT_TIMER_ARMED and impl_opaque[] is
 * overwritten. The expiry event is ev exactly as the application wrote it.
 *
 * Thread safety: any EAL lcore or non-EAL thread, in the primary or in a
 * secondary process; a given timer must not be armed or cancelled by two
 * threads at once.
 *
 * @param adapter
 *   The adapter.
 * @param evtims
 *   Timers to arm.
 * @param nb_evtims
 *   Number of timers.
 * @return
 *   Number of leading timers armed.
 */
uint16_t
timer_adapter_arm_burst(const struct timer_adapter *adapter,
			struct rte_event_timer **evtims, uint16_t nb_evtims);

/**
 * Arm a burst of event timers that share one timeout.
 *
 * Writes timeout_ticks into every timer, then behaves as
 * timer_adapter_arm_burst(); the clock is read and the timeout converted
 * once for the whole burst.
 *
 * @param adapter
 *   The adapter.
 * @param evtims
 *   Timers to arm.
 * @param timeout_ticks
 *   Timeout of every timer, in adapter ticks.
 * @param nb_evtims
 *   Number of timers.
 * @return
 *   Number of leading timers armed; rte_errno as timer_adapter_arm_burst().
 */
uint16_t
timer_adapter_arm_tmo_tick_burst(const struct timer_adapter *adapter,
				 struct rte_event_timer **evtims,
				 uint64_t timeout_ticks, uint16_t nb_evtims);

/**
 * Cancel a burst of armed event timers, from any lcore or thread.
 *
 * Processing stops at the first timer that cannot be cancelled, with
 * rte_errno set:
 * - state CANCELED: EALREADY.
 * - state other than ARMED (never armed, already expired, errored): EINVAL.
 * - the service is building this timer's expiry event right now (it won
 *   the race): EAGAIN; a single-shot timer then becomes NOT_ARMED, a
 *   periodic one stays ARMED and can be cancelled again.
 * On success the state becomes RTE_EVENT_TIMER_CANCELED and no event will be
 * generated for the timer. Periodic timers can be cancelled at any time.
 *
 * @param adapter
 *   The adapter.
 * @param evtims
 *   Timers to cancel.
 * @param nb_evtims
 *   Number of timers.
 * @return
 *   Number of leading timers cancelled.
 */
uint16_t
timer_adapter_cancel_burst(const struct timer_adapter *adapter,
			   struct rte_event_timer **evtims,
			   uint16_t nb_evtims);

/**
 * Get the number of ticks left until an armed timer expires.
 *
 * Same semantics as DPDK 23.03's rte_event_timer_remaining_ticks_get():
 * 0 once the deadline has passed, otherwise the remaining time divided by
 * the tick length, rounded up.
 *
 * @param adapter
 *   The adapter.
 * @param evtim
 *   An armed timer.
 * @param ticks_remaining
 *   Filled on success.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is invalid, evtim or ticks_remaining is NULL, or the
 *     timer is not ARMED.
 */
int
timer_adapter_remaining_ticks_get(const struct timer_adapter *adapter,
				  const struct rte_event_timer *evtim,
				  uint64_t *ticks_remaining);

/**
 * Per-adapter accounting beyond DPDK's statistics, for exactly-once checks.
 *
 * Every successfully armed timer ends exactly once, as expired (its event
 * built) or cancelled, so at any time
 * armed == expired + cancelled + pending (periodic timers count once in
 * armed and, once cancelled, once in cancelled; their firings are counted
 * in rte_event_timer_adapter_stats::evtim_exp_count only).
 */
struct timer_adapter_accounting {
	uint64_t armed;     /**< Timers armed successfully. */
	uint64_t expired;   /**< Single-shot timers whose event was built. */
	uint64_t cancelled; /**< Timers cancelled successfully. */
	uint64_t pending;   /**< Timers currently armed (not yet ended). */
	uint64_t nodes;     /**< Internal timer nodes allocated (memory). */
	uint64_t index_nodes; /**< Radix index nodes allocated (memory). */
	uint64_t mem_bytes; /**< Adapter memory held for timers, in bytes. */
	/**
	 * Pending timers parked in far buckets (due beyond the next span of
	 * ticks), not yet in the radix index.
	 */
	uint64_t parked;
};

/**
 * Read the adapter's exactly-once accounting (not part of DPDK's API).
 *
 * Counters come from several lcores and are read without stopping them;
 * the identity armed == expired + cancelled + pending holds exactly when no
 * arm, cancel or expiry runs concurrently.
 *
 * @param adapter
 *   The adapter.
 * @param acct
 *   Filled on success.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is invalid or acct is NULL.
 */
int
timer_adapter_accounting_get(const struct timer_adapter *adapter,
			     struct timer_adapter_accounting *acct);

/**
 * Where an adapter created with TIMER_ADAPTER_F_CLOCK stands on its clock
 * (not part of DPDK's API).
 */
struct timer_adapter_clock {
	uint64_t now_ns;    /**< The clock, as last set (0 before any set). */
	/**
	 * The clock value of the service's last call that left no due timer
	 * undelivered: every timer due at or before done_ns has had its event
	 * accepted by the event device (or counted in ev_inv_count) once
	 * done_ns >= the value of interest.
	 */
	uint64_t done_ns;
	/**
	 * The earliest time at which a pending timer may be due, UINT64_MAX
	 * when none is pending: the tick of the earliest deadline, or earlier
	 * after a cancel of the earliest timer (the service then finds
	 * nothing there, and moves it on), never later.
	 */
	uint64_t next_ns;
	/** Events the service has handed to the event device so far. */
	uint64_t delivered;
	/** Calls of timer_adapter_clock_set() with an older time, ignored. */
	uint64_t backwards;
};

/**
 * Advance the clock of an adapter created with TIMER_ADAPTER_F_CLOCK (not
 * part of DPDK's API). Any lcore or thread may call it, concurrently too:
 * the clock only moves forward. Timers due at or before ns expire on the
 * service's next call.
 *
 * @param adapter
 *   The adapter.
 * @param ns
 *   The time now, in the application's nanoseconds.
 * @return
 *   - 0: the clock reads ns (it did already if ns equals it).
 *   - -ERANGE: ns is older than the clock: ignored, and counted in
 *     timer_adapter_clock::backwards.
 *   - -EINVAL: adapter is invalid or was created without
 *     TIMER_ADAPTER_F_CLOCK.
 */
int
timer_adapter_clock_set(struct timer_adapter *adapter, uint64_t ns);

/**
 * Read where an adapter created with TIMER_ADAPTER_F_CLOCK stands on its
 * clock (not part of DPDK's API). The fields are read one after the other
 * while the lcores run, in this order: done_ns, delivered, next_ns; so
 * when done_ns >= now_ns, delivered counts every event due by now_ns.
 *
 * @param adapter
 *   The adapter.
 * @param clk
 *   Filled on success.
 * @return
 *   - 0: success.
 *   - -EINVAL: adapter is invalid, was created without
 *     TIMER_ADAPTER_F_CLOCK, or clk is NULL.
 */
int
timer_adapter_clock_get(const struct timer_adapter *adapter,
			struct timer_adapter_clock *clk);

#ifdef __cplusplus
}
#endif

#endif /* _TIMER_ADAPTER_H_ */
