/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Timer traces (see tp_trace.h): lcores queue events, the main lcore
 * prints them as one line each.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include "setup/tp_clock.h"
#include "tp_ctx.h"
#include "records/tp_record.h"
#include "records/tp_trace.h"

#define TP_TRACE_RING_SIZE 16384
#define TP_TRACE_BURST 64

int
tp_trace_init(struct tp_ctx *ctx)
{
	/* A ring element is a whole number of 4-byte words. */
	RTE_BUILD_BUG_ON(sizeof(struct tp_trace_ev) % 4 != 0);
	RTE_BUILD_BUG_ON(TP_TRACE_PACKET > UINT8_MAX);
	if (ctx->cfg->trace_timers == 0 && ctx->cfg->trace_flow.text[0] == '\0')
		return 0;
	ctx->trace.ring = rte_ring_create_elem("tp_trace",
					       sizeof(struct tp_trace_ev),
					       TP_TRACE_RING_SIZE,
					       rte_socket_id(), RING_F_SC_DEQ);
	if (ctx->trace.ring == NULL) {
		TP_LOG(ERR, "cannot create the trace ring: %s",
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

void
tp_trace_free(struct tp_ctx *ctx)
{
	if (ctx->trace.ring == NULL)
		return;
	tp_trace_drain(ctx);
	rte_ring_free(ctx->trace.ring);
	ctx->trace.ring = NULL;
}

void
tp_trace_push(struct tp_ctx *ctx, const struct tp_flow *f,
	      enum tp_trace_kind kind, uint64_t arg, uint8_t reason)
{
	struct tp_trace_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.tsc = tp_clock_now(&ctx->clk);
	ev.serial = f->serial;
	ev.arg = arg;
	ev.lcore = rte_lcore_id();
	ev.kind = kind;
	ev.reason = reason;
	if (kind == TP_TRACE_ARM) {
		ev.key = *f->key;
		ev.init_lo = f->init_lo;
	}
	if (kind == TP_TRACE_ARM || kind == TP_TRACE_REFRESH ||
	    kind == TP_TRACE_REARM)
		ev.due_tsc = f->deadline_tsc;
	/* Traces are for learning: if the ring is full, drop silently. */
	rte_ring_mp_enqueue_elem(ctx->trace.ring, &ev, sizeof(ev));
}

void
tp_trace_packet(struct tp_ctx *ctx, const struct tp_flow *f, uint8_t dir,
		uint8_t tcp_flags, uint32_t len, uint64_t now)
{
	uint8_t cls = __atomic_load_n(&f->tmo_class, __ATOMIC_RELAXED);
	struct tp_trace_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.tsc = now;
	ev.serial = f->serial;
	ev.arg = len;
	ev.lcore = rte_lcore_id();
	ev.kind = TP_TRACE_PACKET;
	ev.reason = dir;
	ev.tcp_flags = tcp_flags;
	ev.key.proto = f->proto;
	ev.idle_tsc = now + ctx->tmo_cycles[cls];
	/* Read without the timer's lock: a learning aid, not a decision. */
	ev.due_tsc = __atomic_load_n(&f->deadline_tsc, __ATOMIC_RELAXED);
	rte_ring_mp_enqueue_elem(ctx->trace.ring, &ev, sizeof(ev));
}

/* Seconds since the start of the run, as printed in the first column. */
static void
tp_trace_time(const struct tp_ctx *ctx, uint64_t tsc, char *buf, size_t len)
{
	/* --clock capture: capture time since its first packet. */
	const uint64_t start = ctx->clk.on ? ctx->clk.base : ctx->start_tsc;
	uint64_t t = tp_cycles_to_ns(tsc > start ? tsc - start : 0,
				     ctx->flow_hz);

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64 "s", t / 1000000000,
		 (t % 1000000000) / 1000);
}

/* PACKET: "rev 66 B tcp A, idle deadline 1.856115s, timer due 2.072846s" */
static void
tp_trace_print_packet(const struct tp_ctx *ctx, const struct tp_trace_ev *ev)
{
	static const char flag_chars[] = "FSRPAUEC";
	char flags[12] = "", idle[32], due[32];
	unsigned int i, n = 0;

	for (i = 0; i < 8; i++)
		if (ev->tcp_flags & (1u << i))
			flags[n++] = flag_chars[i];
	flags[n] = '\0';
	tp_trace_time(ctx, ev->idle_tsc, idle, sizeof(idle));
	tp_trace_time(ctx, ev->due_tsc, due, sizeof(due));
	printf(" %s %" PRIu64 " B%s%s, idle deadline %s, timer due %s",
	       ev->reason ? "rev" : "fwd", ev->arg,
	       ev->key.proto == IPPROTO_TCP ? " tcp " : "",
	       ev->key.proto == IPPROTO_TCP ? (n ? flags : "-") : "",
	       idle, due);
}

static const char *
tp_proto_name(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return "tcp";
	case IPPROTO_UDP:
		return "udp";
	case IPPROTO_ICMP:
		return "icmp";
	case IPPROTO_ICMPV6:
		return "icmp6";
	default:
		return "ip";
	}
}

static void
tp_trace_print(const struct tp_ctx *ctx, const struct tp_trace_ev *ev)
{
	static const char *const kinds[] = {
		[TP_TRACE_ARM] = "arm", [TP_TRACE_REFRESH] = "refresh",
		[TP_TRACE_EXPIRE] = "expire", [TP_TRACE_REARM] = "re-arm",
		[TP_TRACE_CANCEL] = "cancel", [TP_TRACE_END] = "end",
		[TP_TRACE_RECORD] = "record", [TP_TRACE_PACKET] = "packet",
	};
	char due[32];
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	const uint64_t start = ctx->clk.on ? ctx->clk.base : ctx->start_tsc;
	uint64_t t = tp_cycles_to_ns(ev->tsc > start ? ev->tsc - start : 0,
				     ctx->flow_hz);
	uint64_t tick_ns = ctx->cfg->tick_ns;
	unsigned int a = ev->init_lo ? 0 : 1;
	int af = tp_key_ipver(&ev->key) == 4 ? AF_INET : AF_INET6;

	printf("trace %4" PRIu64 ".%06" PRIu64 "s lcore %u flow %-4" PRIu64
	       " %-7s", t / 1000000000, (t % 1000000000) / 1000, ev->lcore,
	       ev->serial, kinds[ev->kind]);
	switch (ev->kind) {
	case TP_TRACE_ARM:
		inet_ntop(af, tp_key_addr(&ev->key, a), src, sizeof(src));
		inet_ntop(af, tp_key_addr(&ev->key, a ^ 1), dst,
			  sizeof(dst));
		tp_trace_time(ctx, ev->due_tsc, due, sizeof(due));
		printf(" %" PRIu64 " ticks (%" PRIu64 " ms), due %s  "
		       "%s %s:%u -> %s:%u",
		       ev->arg, ev->arg * tick_ns / 1000000, due,
		       tp_proto_name(ev->key.proto), src,
		       rte_be_to_cpu_16(ev->key.port[a]), dst,
		       rte_be_to_cpu_16(ev->key.port[a ^ 1]));
		break;
	case TP_TRACE_REFRESH:
	case TP_TRACE_REARM:
		tp_trace_time(ctx, ev->due_tsc, due, sizeof(due));
		printf(" %" PRIu64 " ticks (%" PRIu64 " ms), due %s", ev->arg,
		       ev->arg * tick_ns / 1000000, due);
		break;
	case TP_TRACE_PACKET:
		tp_trace_print_packet(ctx, ev);
		break;
	case TP_TRACE_EXPIRE:
		printf(" %" PRIu64 " us after its deadline", ev->arg / 1000);
		break;
	case TP_TRACE_CANCEL:
	case TP_TRACE_END:
	case TP_TRACE_RECORD:
		printf(" %s", tp_flow_end_reason_name(ev->reason));
		break;
	}
	printf("\n");
}

/* Main lcore: print queued trace events. */
unsigned int
tp_trace_drain(struct tp_ctx *ctx)
{
	struct tp_trace_ev ev[TP_TRACE_BURST];
	unsigned int n, i, total = 0;

	if (ctx->trace.ring == NULL)
		return 0;
	do {
		n = rte_ring_sc_dequeue_burst_elem(ctx->trace.ring, ev,
						   sizeof(ev[0]),
						   TP_TRACE_BURST, NULL);
		for (i = 0; i < n; i++)
			tp_trace_print(ctx, &ev[i]);
		total += n;
	} while (n == TP_TRACE_BURST);
	if (total > 0)
		fflush(stdout);
	return total;
}
