/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_RECORD_TYPES_H_
#define _TP_RECORD_TYPES_H_

/*
 * A flow record and the record writer's state (tp_record.h has the
 * functions): filled by any lcore, drained by the main lcore.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ring.h>

#include "datapath/tp_flow_types.h"
#include "records/tp_sink.h"

/** One flow record, as queued from the lcores to the writer (main). */
struct tp_flow_record {
	uint8_t src_addr[16];	/**< Initiator address. */
	uint8_t dst_addr[16];	/**< Responder address. */
	uint64_t first_ns;	/**< First packet, ns since the epoch. */
	uint64_t last_ns;	/**< Last packet, ns since the epoch. */
	uint64_t dir_first_ns[2]; /**< First packet per direction, 0 none. */
	uint64_t dir_last_ns[2]; /**< Last packet per direction, 0 none. */
	uint64_t pkts[2];	/**< Packets: forward, reverse. */
	uint64_t bytes[2];	/**< Bytes: forward, reverse. */
	uint64_t serial;	/**< Flow serial. */
	uint16_t src_port;	/**< Initiator port (host order). */
	uint16_t dst_port;	/**< Responder port (host order). */
	uint16_t vlan[2];	/**< Outer, inner VLAN id. */
	uint8_t ipver;		/**< 4 or 6. */
	uint8_t proto;		/**< IP protocol. */
	uint8_t tcp_flags[2];	/**< TCP flags: forward, reverse. */
	uint8_t end_reason;	/**< enum tp_end_reason. */
	uint8_t text;		/**< Its flow log line is in its producer's
				 * text (tp_record_text.h).
				 */
	uint8_t text_lcore;	/**< That producer (lcore id). */
	uint8_t pad;
	uint16_t in_port;	/**< Port of the flow's first packet. */
	uint16_t icmp_type_code; /**< ICMP type << 8 | code, else 0. */
	uint32_t text_len;	/**< The line's length. */
};

/** Record writer state (main lcore). */
/** Records one lcore built, not yet on the ring (tp_record_flush()). */
#define TP_RECORD_STAGE 32
struct tp_record_stage {
	unsigned int n;				/**< Records in r. */
	unsigned int encoded;			/**< Of them, the first
						 * looked at for a line.
						 */
	uint64_t built;				/**< Records built (atomic). */
	uint64_t early;				/**< Lines it formatted
						 * (atomic).
						 */
	struct tp_record_text *text;		/**< Lines it formats when
						 * the writer lags, or NULL.
						 */
	uint8_t lcore;				/**< Whose (lcore id). */
	struct tp_flow_record r[TP_RECORD_STAGE];
};

struct tp_records {
	struct rte_ring *ring;	/**< tp_flow_record, MP/SC. */
	/** Per lcore (its id): its records, put on the ring in bursts. */
	struct tp_record_stage *stage[RTE_MAX_LCORE];
	struct tp_sink log;	/**< --flow-log (main lcore), if log_on. */
	bool log_on;		/**< --flow-log is open or was. */
	uint64_t ring_full;	/**< Pushes that had to wait (atomic). */
	uint32_t service_id;	/**< The record writer service, if on. */
	bool service_on;	/**< It is registered. */
	/** The service drains, not the main lcore (atomic): the ring has
	 * one consumer and the sinks one writer at any time.
	 */
	bool writer_running;
	uint64_t flush_tsc;	/**< The service's next flush of the log. */
	uint64_t emitted;	/**< Records handed to the sinks (atomic). */
};

#endif /* _TP_RECORD_TYPES_H_ */
