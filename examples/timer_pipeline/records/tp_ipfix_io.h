/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_IPFIX_IO_H_
#define _TP_IPFIX_IO_H_

/*
 * The IPFIX exporter's state (struct tp_ipfix, tp_ipfix.c's) and its
 * transport (tp_ipfix_io.c). Whichever runs the exporter (its thread or
 * its service) writes everything but 'queue_full', 'submitted' and
 * 'wait_room' (the record drainer); counters are read with atomic loads.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include <rte_ring.h>
#include <rte_thread.h>

#include "dpdk_compat.h"
#include "datapath/tp_stages.h"
#include "records/tp_ipfix_types.h"
#include "records/tp_sink.h"

struct tp_ctx;
struct tp_ipfix_enc;

#define TP_IPFIX_BURST 64
#define TP_IPFIX_ROUND 16		/* a service's round (tp_ipfix_run.c) */
#define TP_IPFIX_UDP_MTU 1400		/* one datagram on Ethernet paths */
#define TP_IPFIX_STREAM_MTU 65000	/* TCP and files */
#define TP_IPFIX_IO_MS 200		/* TCP connect/send timeout */
#define TP_IPFIX_BACKOFF_MIN_MS 100
#define TP_IPFIX_BACKOFF_MAX_MS 5000
#define TP_IPFIX_IDLE_FLUSH_MS 10	/* a partial message waits this long */
#define TP_IPFIX_EXIT_MS 1000		/* stop: time left to export */
#define TP_IPFIX_WAIT_MS 1000		/* longest wait for room in the queue */
#define TP_IPFIX_SVC_SEND_MS 1		/* service: longest wait in a send */

/* Exporter state: what runs the exporter (thread or service) writes
 * everything but 'queue_full', 'submitted' and 'wait_room' (the record
 * drainer: the main lcore or the record writer), and the main lcore sets
 * the fields up before the launch; counters are read with atomic loads.
 */
struct tp_ipfix {
	struct tp_ctx *ctx;
	tp_ipfix_sum_t sum;		/* the counters, for options */
	struct rte_ring *ring;		/* struct tp_flow_record, SP/SC */
	struct tp_ipfix_enc *enc;
	rte_thread_t thread;
	bool thread_started;
	bool as_service;		/* the exporter runs as a service
					 * (tp_ipfix_start() decides, before
					 * the launch; then read only)
					 */
	uint32_t service_id;
	unsigned int service_lcore;	/* the service lcore it runs on */
	bool opened;			/* service: transport opened */
	int done;			/* service: finished (release) */
	volatile int stop;		/* set by tp_ipfix_stop() */
	bool wait_room;			/* a full queue is waited on (set at
					 * start; cleared by the record
					 * drainer after a wait ran out)
					 */
	uint64_t stop_deadline_ms;
	int fd;				/* socket, the file's, -1 = none */
	struct tp_sink sink;		/* --ipfix-file, unbuffered */
	bool tcp;
	bool file;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	uint64_t connects;
	uint64_t next_try_ms;		/* TCP: next connect attempt */
	uint64_t backoff_ms;
	uint64_t next_refresh_ms;	/* UDP: next template refresh */
	uint64_t last_add_ms;		/* first record of the open message */
	uint64_t first_sent_us;		/* first message with records */
	struct tp_ipfix_stats st;
#ifdef TP_STAGE_CYCLES
	struct tp_stage_stats stages;	/* the thread's (tp_stages.h) */
#endif
};

static inline uint64_t
tp_ipfix_io_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static inline uint64_t
tp_ipfix_io_now_ms(void)
{
	return tp_ipfix_io_now_us() / 1000;
}

#define TP_IPFIX_ADD(x, field, n) \
	__atomic_store_n(&(x)->st.field, (x)->st.field + (n), __ATOMIC_RELAXED)

/** Open the transport (UDP socket, TCP connection, file); false if not. */
bool tp_ipfix_io_open(struct tp_ipfix *x);

/** Close it; a TCP connection is retried after the backoff. */
void tp_ipfix_io_close(struct tp_ipfix *x, uint64_t now);

/** Write one message of @p nrec records; false if it was not sent. */
bool tp_ipfix_io_write(struct tp_ipfix *x, const uint8_t *p, size_t len,
		       unsigned int nrec);

/** Send the encoder's pending message, if any; false if it failed. */
bool tp_ipfix_io_send(struct tp_ipfix *x);

#endif /* _TP_IPFIX_IO_H_ */
