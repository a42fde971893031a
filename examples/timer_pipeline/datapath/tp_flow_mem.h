/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_FLOW_MEM_H_
#define _TP_FLOW_MEM_H_

/*
 * The memory of the flow table's entries and timers (tp_flow_mem.c):
 * how many slots the table has, its two arrays mapped before EAL starts
 * and faulted in beside EAL's start-up, and mapped after it where that
 * could not be done.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_config;

/** The table's memory: entries (0) and timers (1). */
struct tp_flow_mem {
	void *base[2];		/**< The arrays, each on a 2-MB boundary. */
	void *map[2];		/**< The mappings holding them. */
	size_t map_len[2];	/**< Their lengths. */
	bool huge[2];		/**< On 2-MB hugetlb pages. */
	uint64_t faulted;	/**< Bytes faulted in before the table. */
	uint64_t len;		/**< Bytes of both arrays. */
};

/**
 * The slots rte_hash is given for @p cfg's --flows (the flows and the room
 * for ended ones waiting for a grace period).
 */
uint32_t tp_flow_mem_slots(const struct tp_config *cfg);

/**
 * Before rte_eal_init(): map the arrays of @p cfg's table (entries of
 * @p entry_size bytes, timers of @p timer_size) and fault them in, in the
 * order rte_hash hands positions out, in a thread of its own while EAL
 * starts. The EAL arguments (@p eal_argc, @p eal_argv) say what pages EAL
 * will run on; where that is not known before EAL has started (memory it
 * reserves up front: -m, --socket-mem, --legacy-mem), nothing is done and
 * tp_flow_mem_take() maps after EAL. Never fails: without memory or a
 * thread, the table maps its own later.
 */
void tp_flow_mem_start(const struct tp_config *cfg, size_t entry_size,
		       size_t timer_size, int eal_argc, char **eal_argv);

/**
 * The arrays for @p nb_entries entries of @p entry_size bytes and their
 * timers of @p timer_size bytes, into @p m: the ones mapped by
 * tp_flow_mem_start() (stopping its thread) where they are large enough,
 * else mapped now. 0 or -ENOMEM. @p m's mappings belong to the caller
 * (tp_flow_mem_free()).
 */
int tp_flow_mem_take(struct tp_flow_mem *m, uint32_t nb_entries,
		     size_t entry_size, size_t timer_size);

/** Unmap @p m's arrays (idempotent). */
void tp_flow_mem_free(struct tp_flow_mem *m);

/**
 * Stop tp_flow_mem_start()'s thread and unmap what no table took (the
 * exits before the table; idempotent).
 */
void tp_flow_mem_release(void);

#endif /* _TP_FLOW_MEM_H_ */
