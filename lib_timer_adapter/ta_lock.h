/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TA_LOCK_H_
#define _TA_LOCK_H_

/*
 * The lock of a timer list: test-and-set, unlocked by a plain release
 * store. (On x86 rte_spinlock_unlock() is an xchg, a full barrier: one
 * more per arm call and per service batch, draining the store buffer each
 * time.)
 *
 * The lock word holds the holder's process id, because lists are shared
 * with secondary processes: a process killed inside an arm or cancel call
 * would otherwise leave a lock that every later user spins on forever. A
 * waiter that has spun for a while checks whether the holder still exists;
 * if not, ta_lock() fails and the caller declares the list dead
 * (ta_list_lock() in ta_list.h). The process id and the holder check
 * live in ta_lock.c.
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_pause.h>

typedef struct {
	uint32_t locked;	/* 0, or the holder's pid. */
} ta_lock_t;

/* Spins between two checks of the holder (a few milliseconds). */
#define TA_LOCK_CHECK_SPINS (1u << 16)

/* This process's id (set at load and in a forked child). */
extern uint32_t ta_pid;

static inline uint32_t
ta_self_pid(void)
{
	return ta_pid;
}

/* Whether a lock's holder is a process that no longer exists. */
int ta_lock_holder_dead(uint32_t holder);

/* Take the lock: 0, or -1 if it is held by a process that died. */
static inline int
ta_lock(ta_lock_t *l)
{
	const uint32_t self = ta_self_pid();
	uint32_t spins = 0, holder = 0;

	while (!__atomic_compare_exchange_n(&l->locked, &holder, self, 0,
					    __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		do {
			rte_pause();
			if (unlikely(++spins % TA_LOCK_CHECK_SPINS == 0) &&
			    ta_lock_holder_dead(holder))
				return -1;
			holder = __atomic_load_n(&l->locked, __ATOMIC_RELAXED);
		} while (holder != 0);
	}
	return 0;
}

/* Release the lock: what was written under it is visible to the next. */
static inline void
ta_unlock(ta_lock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif /* _TA_LOCK_H_ */
