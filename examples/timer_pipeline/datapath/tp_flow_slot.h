/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_FLOW_SLOT_H_
#define _TP_FLOW_SLOT_H_

/*
 * The return of an ended flow's slot once no RX lcore can still hold its
 * position (tp_flow_slot.c): the RCU defer queue, bounded by the room
 * beyond --flows, fed in batches, and the slots parked in their entries
 * when it is full; and the free positions' way out to new flows
 * (tp_flow_slot_add()). The slots' way back runs under ft->reclaim_lock,
 * which these functions take (tp_flow_slot_free() is called with it
 * held).
 */

#include <stdint.h>

#include <rte_hash.h>

struct tp_ctx;
struct tp_flow_key;
struct tp_lcore;

/**
 * The slot at @p pos (an ended flow, its record written, no reference
 * left) returns to rte_hash once no RX lcore can hold it. Any lcore; never
 * fails and never waits.
 */
void tp_flow_slot_defer(struct tp_ctx *ctx, uint32_t pos);

/**
 * Send the slots waiting for a full batch to the defer queue, and return
 * those whose grace period has passed. Any lcore.
 */
void tp_flow_slot_reclaim(struct tp_ctx *ctx);

/**
 * The defer queue's free_fn (rte_rcu_qsbr_dq_parameters): return the @p n
 * batches at @p e (TP_SLOT_BATCH uint32_t positions each, TP_POS_NONE
 * where a batch was sent part full) to rte_hash. @p p is the context.
 */
void tp_flow_slot_free(void *p, void *e, unsigned int n);

/** Exit, every reader offline: return the parked slots too. */
void tp_flow_slot_release(struct tp_ctx *ctx);

/**
 * RX lcore @p lc (an EAL lcore, a writer of the table) adds @p key, of
 * hash @p sig: rte_hash_add_key_with_hash()'s result. Where the table
 * hands out its own free positions (ft->lifo), the key takes the last
 * freed one.
 */
int32_t tp_flow_slot_add(struct tp_ctx *ctx, struct tp_lcore *lc,
			 const struct tp_flow_key *key, hash_sig_t sig);

#endif /* _TP_FLOW_SLOT_H_ */
