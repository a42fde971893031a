/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_FLOW_TYPES_H_
#define _TP_FLOW_TYPES_H_

/*
 * A flow's data: its key, its end reasons and steps, the flow entry and
 * the flow table, and the inline helpers on them (tp_flow.h has the life
 * cycle's functions; the protocol of the 'ref' word is described there).
 * No code that needs the application context.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_debug.h>
#include <rte_pause.h>
#include <rte_event_timer_adapter.h>
#include <rte_hash.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

struct tp_ctx;
struct tp_lcore;
struct tp_parsed;

/** IPFIX flowEndReason (RFC 5102), also the index of per-reason counters. */
enum tp_end_reason {
	TP_END_NONE = 0,		/**< Live. */
	TP_END_IDLE = 1,		/**< Idle timeout. */
	TP_END_ACTIVE = 2,		/**< Active timeout. */
	TP_END_EOF = 3,			/**< End of flow detected (FIN/RST). */
	TP_END_FORCED = 4,		/**< Forced end (shutdown). */
	TP_END_LACK = 5,		/**< Lack of resources. */
	TP_END_MAX
};

/** Steps of a flow's life its observer is told of (tp_flow_ops.step). */
enum tp_flow_step {
	TP_FLOW_STEP_ARM,	/**< Flow created, timer armed. */
	TP_FLOW_STEP_REFRESH,	/**< Cancel + re-arm (every-packet, FIN). */
	TP_FLOW_STEP_EXPIRE,	/**< Expiry event processed (arg: lateness). */
	TP_FLOW_STEP_REARM,	/**< Re-armed for the time left. */
	TP_FLOW_STEP_CANCEL,	/**< Cancelled (flow ended early). */
	TP_FLOW_STEP_END,	/**< Flow ends (reason). */
	TP_FLOW_STEP_RECORD,	/**< Its record was handed on. */
	TP_FLOW_STEP_MAX
};

/** Bidirectional flow key: the lower (address, port) end comes first. */
/*
 * 40 bytes, so that rte_hash's key slot (an 8-byte data pointer and the
 * key, rounded up to 16) is 48 bytes, not 64. An IPv4 address is stored
 * IPv4-mapped (::ffff:a.b.c.d, RFC 4291 2.5.5.2): a key is IPv4 when both
 * ends are, and the parser counts an IPv6 packet whose two addresses are
 * IPv4-mapped as malformed (such addresses never appear on the wire;
 * Linux drops them too), so no IPv6 key reads as IPv4. Every bit is set
 * by the parser: the key has no padding.
 */
struct tp_flow_key {
	uint8_t addr[2][16];	/**< IPv6, or IPv4-mapped IPv4. */
	uint16_t port[2];	/**< L4 ports, network order (0: none). */
	uint32_t vlan0 : 12;	/**< Outer VLAN id (0: none). */
	uint32_t vlan1 : 12;	/**< Inner VLAN id (0: none). */
	uint32_t proto : 8;	/**< IP protocol (after IPv6 extensions). */
} __rte_aligned(8); /* rte_hash_crc reads the key 8 bytes at a time. */

/** Is this 16-byte address IPv4-mapped (::ffff:0:0/96)? */
static inline bool
tp_addr_v4mapped(const uint8_t *a)
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	return memcmp(a, prefix, sizeof(prefix)) == 0;
}

/** The key's IP version, 4 or 6. */
static inline uint8_t
tp_key_ipver(const struct tp_flow_key *k)
{
	return tp_addr_v4mapped(k->addr[0]) && tp_addr_v4mapped(k->addr[1]) ?
		4 : 6;
}

/** End e's address as on the wire: 4 bytes for IPv4, else 16. */
static inline const uint8_t *
tp_key_addr(const struct tp_flow_key *k, unsigned int e)
{
	return tp_key_ipver(k) == 4 ? k->addr[e] + 12 : k->addr[e];
}

/* Reference word layout. */
#define TP_REF_COUNT_MASK 0x00ffffffu
#define TP_REF_REASON_SHIFT 24
#define TP_REF_REASON_MASK (0xfu << TP_REF_REASON_SHIFT)
#define TP_REF_INIT (1u << 31)
#define TP_REF_FREE 0u

/** Position meaning "no flow" in packet metadata. */
#define TP_POS_NONE UINT32_MAX
/** Ended slots sent to the RCU defer queue under one token. */
#define TP_SLOT_BATCH 32
/** Free positions an RX lcore takes at once (tp_flow_slot_add()). */
#define TP_SLOT_TAKE 32

/**
 * A flow's state: 104 bytes, next to each other in ft->entries; its timer
 * is at the same position in ft->timers (struct tp_flow_timer, one cache
 * line: tp_flow_tim()). The key is not here: rte_hash keeps it in its key
 * store, at the flow's position, for as long as the position is taken
 * (rte_hash deletes never free a key slot in lock-free mode;
 * tp_flow_slot_free() does), and 'key' points at it. RX writes the
 * identity (and the timer line's last_tsc), workers the counters and the
 * record times; the timer fields belong to the holder of tim_lock.
 * docs/sample_app.rst ("The flow entry") gives each byte.
 */
struct tp_flow {
	uint32_t ref;			/**< Life cycle word (atomic). */
	uint8_t tmo_class;		/**< enum tp_tmo_class (atomic u8). */
	uint8_t init_lo : 1;		/**< Initiator is key end 0. */
	uint8_t traced : 1;		/**< --trace-timers / --trace-flow. */
	uint8_t proto;			/**< key->proto, on the worker's line. */
	uint8_t tim_lock;		/**< Serialises arm/cancel/expiry
					 * (tp_flow_tim_lock()).
					 */
	const struct tp_flow_key *key;	/**< In rte_hash's key store. */
	uint64_t serial;		/**< Creation order, for --trace-timers. */
	/* Packet counters, written under the flow's scheduling context. */
	union {
		uint64_t pkts[2];	/**< Packets per direction. */
		/* Once the record is written, while the slot waits for its
		 * grace period outside the full defer queue (parked); or,
		 * free, among the table's free positions (park_next only).
		 */
		struct {
			uint64_t park_token;	/**< rte_rcu_qsbr_start(). */
			uint32_t park_next;	/**< Next parked or free
						 * position.
						 */
		};
	};
	uint64_t bytes[2];		/**< Bytes (L2 frames) per direction. */
	uint64_t first_ts;		/**< First packet time (record clock):
					 * the initiator's, direction 0.
					 */
	uint64_t last_ts[2];		/**< Last packet time per direction,
					 * 0 = none (record clock).
					 */
	uint64_t rev_first_ts;		/**< First reverse packet time,
					 * UINT64_MAX = none.
					 */
	uint64_t deadline_tsc;		/**< When the armed timer is due
					 * (tim_lock).
					 */
	uint8_t tcp_flags[2];		/**< TCP flags seen per direction. */
	uint16_t in_port;		/**< Port of the first packet (RX). */
	uint16_t icmp_tc;		/**< Its ICMP type << 8 | code (RX). */
};

/**
 * A flow's timer, one cache line: the rte_event_timer (which DPDK declares
 * cache aligned) and, in its spare bytes (user_meta, which no adapter
 * touches), the flow's two timer-clock times. Operated only by the holder
 * of the flow's tim_lock once published.
 */
struct tp_flow_timer {
	union {
		struct rte_event_timer tim;	/**< The timer. */
		struct {
			uint8_t tim_used[48];	/**< Up to user_meta. */
			uint64_t last_tsc;	/**< Last packet seen by RX
						 * (atomic).
						 */
			uint64_t first_tsc;	/**< Creation, for the
						 * active timeout.
						 */
		};
	};
};

/** Flow table. */
struct tp_flow_table {
	struct rte_hash *h;		/**< Key -> position (LF readers). */
	const struct tp_flow_ops *ops;	/**< Who is told of ends and steps. */
	struct tp_flow *entries;	/**< Indexed by position. */
	/** Where rte_hash keeps position p's key: key_base + p *
	 * key_stride (0: ask rte_hash each time). See tp_flow_table.c.
	 */
	uintptr_t key_base;
	uintptr_t key_stride;
	struct tp_flow_timer *timers;	/**< Their timers, the same way. */
	void *map[2];			/**< The mappings holding them. */
	size_t map_len[2];		/**< Their lengths. */
	bool map_huge[2];		/**< On 2-MB hugetlb pages. */
	uint32_t nb_entries;		/**< Positions rte_hash may return. */
	uint32_t capacity;		/**< Live flow limit (--flows). */
	uint32_t nb_live;		/**< Flows not yet ending (atomic). */
	uint32_t closed;		/**< No RX lcore looks a key up or
					 * adds one again (atomic): see
					 * tp_flow_table_close().
					 */
	uint64_t next_serial;		/**< Creation counter (atomic). */
	struct rte_rcu_qsbr *qsv;	/**< RX lcores are its readers. */
	struct rte_rcu_qsbr_dq *dq;	/**< Positions waiting for a grace. */
	rte_spinlock_t reclaim_lock;	/**< rte_hash_free_key_* is not MT safe;
					 * also guards the fields below.
					 */
	uint32_t dq_size;		/**< The defer queue holds this many
					 * batches.
					 */
	uint32_t dq_count;		/**< At most this many are in it. */
	uint32_t batch_n;		/**< Slots in batch. */
	uint32_t batch[TP_SLOT_BATCH];	/**< Ended slots, for one token. */
	uint64_t batch_tok[TP_SLOT_BATCH]; /**< Their own tokens. */
	uint32_t park_head;		/**< Parked positions, oldest first */
	uint32_t park_tail;		/**< (TP_POS_NONE: none). */
	uint64_t parked;		/**< Positions ever parked. */
	uint64_t reclaimed;		/**< Positions returned. */
	/** The table hands out its free positions itself, last freed
	 * first (tp_flow_table.c, "Free positions"); else rte_hash does,
	 * first freed first. Set at creation.
	 */
	bool lifo;
	/** With lifo and one writer lcore: rte_hash's ring of free
	 * positions, empty but for the one handed to the next add; the
	 * writer puts it back at its start after each add (tp_flow_slot.c).
	 */
	struct rte_ring *free_ring;
	uint32_t free_head;		/**< Freed positions, last first,
					 * linked by park_next (TP_POS_NONE:
					 * none).
					 */
	uint32_t fresh_next;		/**< Positions never taken: */
	uint32_t fresh_end;		/**< [fresh_next, fresh_end). */
};


/** Position pos's key, from rte_hash (a lookup of the key again). */
static inline const struct tp_flow_key *
tp_flow_table_key_asked(const struct tp_flow_table *ft, uint32_t pos)
{
	void *key = NULL;
	int ret;

	ret = rte_hash_get_key_with_position(ft->h, (int32_t)pos, &key);
	RTE_VERIFY(ret == 0 && key != NULL);
	return key;
}

/**
 * The key of position pos, which holds one: where the table found
 * rte_hash's key store (tp_flow_table.c), checked against rte_hash in
 * debug builds, else from rte_hash.
 */
static inline const struct tp_flow_key *
tp_flow_table_key(const struct tp_flow_table *ft, uint32_t pos)
{
	const struct tp_flow_key *key;

	if (unlikely(ft->key_stride == 0))
		return tp_flow_table_key_asked(ft, pos);
	key = (const void *)(ft->key_base + (uintptr_t)pos * ft->key_stride);
	RTE_ASSERT(key == tp_flow_table_key_asked(ft, pos));
	return key;
}

/**
 * One above every position a flow may hold (at least 1): where the table
 * hands out its positions, none from fresh_next on was ever taken.
 */
static inline uint32_t
tp_flow_table_reach(const struct tp_flow_table *ft)
{
	if (!ft->lifo)
		return ft->nb_entries;
	return RTE_MAX(__atomic_load_n(&ft->fresh_next, __ATOMIC_RELAXED), 1u);
}

/** Whether the table is closed (tp_flow_table_close()). */
static inline bool
tp_flow_table_closed(const struct tp_flow_table *ft)
{
	return __atomic_load_n(&ft->closed, __ATOMIC_ACQUIRE) != 0;
}

static inline bool
tp_ref_is_live(uint32_t r)
{
	return r != TP_REF_FREE && (r & (TP_REF_INIT | TP_REF_REASON_MASK)) == 0;
}

static inline bool
tp_ref_is_dead(uint32_t r)
{
	return (r & TP_REF_REASON_MASK) != 0;
}

static inline uint32_t
tp_ref_reason(uint32_t r)
{
	return (r & TP_REF_REASON_MASK) >> TP_REF_REASON_SHIFT;
}

/** Direction of a packet in its flow: 0 from the initiator, 1 reply. */
static inline uint8_t
tp_flow_dir(const struct tp_flow *f, bool lo_is_src)
{
	return (uint8_t)(lo_is_src != (bool)f->init_lo);
}

/** The flow's position in the table (its key's, in rte_hash). */
static inline uint32_t
tp_flow_pos(const struct tp_flow_table *ft, const struct tp_flow *f)
{
	return (uint32_t)(f - ft->entries);
}

/** The flow's timer line (its rte_event_timer, first_tsc and last_tsc). */
static inline struct tp_flow_timer *
tp_flow_tl(const struct tp_flow_table *ft, const struct tp_flow *f)
{
	return &ft->timers[tp_flow_pos(ft, f)];
}

/** The flow's rte_event_timer. */
static inline struct rte_event_timer *
tp_flow_tim(const struct tp_flow_table *ft, const struct tp_flow *f)
{
	return &tp_flow_tl(ft, f)->tim;
}

/** The flow whose timer this is (an expiry event's event_ptr). */
static inline struct tp_flow *
tp_flow_from_timer(const struct tp_flow_table *ft,
		   struct rte_event_timer *tim)
{
	const struct tp_flow_timer *tl =
		container_of(tim, struct tp_flow_timer, tim);

	return &ft->entries[tl - ft->timers];
}

/* A byte spin lock: the entry has no room for an rte_spinlock_t. */
static inline void
tp_flow_tim_lock(struct tp_flow *f)
{
	while (__atomic_exchange_n(&f->tim_lock, 1, __ATOMIC_ACQUIRE) != 0)
		while (__atomic_load_n(&f->tim_lock, __ATOMIC_RELAXED) != 0)
			rte_pause();
}

static inline void
tp_flow_tim_unlock(struct tp_flow *f)
{
	__atomic_store_n(&f->tim_lock, 0, __ATOMIC_RELEASE);
}

/* tp_flow.c */
/**
 * What the flow table hands out, to whoever created it (main.c): the
 * flow table calls these and nothing above it. Both run on the lcore
 * where the step happens (any RX, worker or the main lcore), unlocked;
 * they must not call back into the flow table.
 */
struct tp_flow_ops {
	/** Flow @p f ended and its last reference is gone: its record. */
	void (*ended)(struct tp_ctx *ctx, struct tp_lcore *lc,
		      const struct tp_flow *f, enum tp_end_reason reason);
	/** A step of a traced flow (f->traced); arg as the step says. */
	void (*step)(struct tp_ctx *ctx, const struct tp_flow *f,
		     enum tp_flow_step step, uint64_t arg, uint8_t reason);
};

#endif /* _TP_FLOW_TYPES_H_ */
