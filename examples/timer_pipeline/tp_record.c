/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Flow records (see tp_record.h): built by whoever drops a flow's last
 * reference, queued on a ring, drained by the main lcore into the sinks
 * (--flow-log, CSV or JSON lines, through a tp_sink that counts what
 * reached the file; the IPFIX exporter).
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

#include "tp_ctx.h"
#include "tp_ipfix.h"
#include "tp_output.h"
#include "tp_record.h"
#include "tp_replay.h"

#define TP_RECORD_RING_SIZE 65536
#define TP_DRAIN_BURST 64
#define TP_LOG_BUF (256 * 1024)	/* the flow log's buffer */
#define TP_LOG_LINE_MAX 640	/* longest line: JSON, two IPv6 addresses */

static const char *const tp_reason_names[TP_END_MAX] = {
	[TP_END_NONE] = "live",
	[TP_END_IDLE] = "idle_timeout",
	[TP_END_ACTIVE] = "active_timeout",
	[TP_END_EOF] = "end_of_flow",
	[TP_END_FORCED] = "forced_end",
	[TP_END_LACK] = "lack_of_resources",
};

const char *
tp_end_reason_name(unsigned int reason)
{
	return reason < TP_END_MAX ? tp_reason_names[reason] : "?";
}

static const char tp_csv_header[] = "serial,ip_version,proto,src,sport,"
	"dst,dport,vlan,vlan_inner,first_ns,last_ns,packets_fwd,bytes_fwd,"
	"packets_rev,bytes_rev,tcp_flags_fwd,tcp_flags_rev,end_reason,"
	"end_reason_code\n";

int
tp_records_init(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;
	const struct tp_config *cfg = ctx->cfg;
	int ret;

	/* A ring element is a whole number of 4-byte words; the pads are
	 * explicit, so no byte of a record is left unset.
	 */
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_record) % 4 != 0);
	RTE_BUILD_BUG_ON(sizeof(struct tp_flow_record) != 144);
	RTE_BUILD_BUG_ON(TP_END_MAX > UINT8_MAX);
	rec->ring = rte_ring_create_elem("tp_records",
					 sizeof(struct tp_flow_record),
					 TP_RECORD_RING_SIZE, rte_socket_id(),
					 RING_F_SC_DEQ);
	if (rec->ring == NULL) {
		TP_LOG(ERR, "cannot create the record ring: %s",
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	tp_replay_clock_init(ctx);	/* the clock of the records */
	if (cfg->flow_log[0] == '\0')
		return 0;
	/* Checked before EAL (tp_preflight.c); the open checks again. */
	ret = tp_sink_open(&rec->log, "--flow-log", cfg->flow_log,
			   TP_LOG_BUF);
	if (ret < 0) {
		tp_records_free(ctx);
		return ret;
	}
	rec->log_on = true;
	if (cfg->log_format == TP_LOG_CSV)
		tp_sink_put(&rec->log, tp_csv_header, strlen(tp_csv_header), 0);
	return 0;
}

int
tp_records_close(struct tp_ctx *ctx)
{
	return ctx->rec.log_on ? tp_sink_close(&ctx->rec.log) : 0;
}

void
tp_records_free(struct tp_ctx *ctx)
{
	struct tp_records *rec = &ctx->rec;

	if (rec->ring != NULL)
		tp_records_drain(ctx);
	tp_records_close(ctx);
	rte_ring_free(rec->ring);
	rec->ring = NULL;
}

bool
tp_records_wanted(const struct tp_ctx *ctx)
{
	return ctx->rec.log_on || ctx->ipfix != NULL;
}

/* Build the record of a flow whose last reference is gone. 8< */
void
tp_record_push(struct tp_ctx *ctx, struct tp_lcore *lc,
	       const struct tp_flow *f, enum tp_end_reason reason)
{
	struct tp_flow_record r;
	const unsigned int a = f->init_lo ? 0 : 1;	/* initiator end */
	const uint8_t ipver = tp_key_ipver(f->key);
	const unsigned int alen = ipver == 4 ? 4 : 16;

	RTE_SET_USED(lc);
	if (!tp_records_wanted(ctx))
		return;
	memset(&r, 0, sizeof(r));
	memcpy(r.src_addr, tp_key_addr(f->key, a), alen);
	memcpy(r.dst_addr, tp_key_addr(f->key, a ^ 1), alen);
	r.src_port = rte_be_to_cpu_16(f->key->port[a]);
	r.dst_port = rte_be_to_cpu_16(f->key->port[a ^ 1]);
	r.vlan[0] = f->key->vlan0;
	r.vlan[1] = f->key->vlan1;
	r.ipver = ipver;
	r.proto = f->key->proto;
	r.first_ns = tp_replay_ts_to_ns(ctx, f->first_ts);
	r.last_ns = tp_replay_ts_to_ns(ctx, RTE_MAX(f->last_ts[0],
						   f->last_ts[1]));
	/* Each direction's own first and last packet (--ipfix-flows uni). */
	r.dir_first_ns[0] = r.first_ns;
	r.dir_last_ns[0] = tp_replay_ts_to_ns(ctx, f->last_ts[0]);
	if (f->pkts[1] > 0) {
		r.dir_first_ns[1] = tp_replay_ts_to_ns(ctx, f->rev_first_ts);
		r.dir_last_ns[1] = tp_replay_ts_to_ns(ctx, f->last_ts[1]);
	}
	memcpy(r.pkts, f->pkts, sizeof(r.pkts));
	memcpy(r.bytes, f->bytes, sizeof(r.bytes));
	memcpy(r.tcp_flags, f->tcp_flags, sizeof(r.tcp_flags));
	r.serial = f->serial;
	r.end_reason = reason;
	r.in_port = f->in_port;
	r.icmp_type_code = f->icmp_tc;
	while (rte_ring_mp_enqueue_elem(ctx->rec.ring, &r, sizeof(r)) != 0) {
		__atomic_fetch_add(&ctx->rec.ring_full, 1, __ATOMIC_RELAXED);
		if (rte_lcore_id() == ctx->main_lcore)
			tp_records_drain(ctx);	/* we are the writer */
		else
			rte_pause();
	}
}
/* >8 End of building the record. */

/* One line of the flow log into out (len bytes); its length, or len. */
static int
tp_record_format(char *out, size_t len, enum tp_log_format fmt,
		 const struct tp_flow_record *r)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	int af = r->ipver == 4 ? AF_INET : AF_INET6;

	inet_ntop(af, r->src_addr, src, sizeof(src));
	inet_ntop(af, r->dst_addr, dst, sizeof(dst));
	if (fmt == TP_LOG_CSV) {
		return snprintf(out, len, "%" PRIu64 ",%u,%u,%s,%u,%s,%u,%u,%u,%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
			PRIu64 ",%u,%u,%s,%u\n", r->serial, r->ipver, r->proto,
			src, r->src_port, dst, r->dst_port, r->vlan[0],
			r->vlan[1], r->first_ns, r->last_ns, r->pkts[0],
			r->bytes[0], r->pkts[1], r->bytes[1], r->tcp_flags[0],
			r->tcp_flags[1], tp_end_reason_name(r->end_reason),
			r->end_reason);
	}
	return snprintf(out, len, "{\"serial\":%" PRIu64 ",\"ip_version\":%u,\"proto\":%u,"
		"\"src\":\"%s\",\"sport\":%u,\"dst\":\"%s\",\"dport\":%u,"
		"\"vlan\":%u,\"vlan_inner\":%u,\"first_ns\":%" PRIu64 ","
		"\"last_ns\":%" PRIu64 ",\"packets_fwd\":%" PRIu64 ","
		"\"bytes_fwd\":%" PRIu64 ",\"packets_rev\":%" PRIu64 ","
		"\"bytes_rev\":%" PRIu64 ",\"tcp_flags_fwd\":%u,"
		"\"tcp_flags_rev\":%u,\"end_reason\":\"%s\","
		"\"end_reason_code\":%u}\n", r->serial, r->ipver, r->proto,
		src, r->src_port, dst, r->dst_port, r->vlan[0], r->vlan[1],
		r->first_ns, r->last_ns, r->pkts[0], r->bytes[0], r->pkts[1],
		r->bytes[1], r->tcp_flags[0], r->tcp_flags[1],
		tp_end_reason_name(r->end_reason), r->end_reason);
}

/* A line into the flow log's sink, or counted there as not written. */
static void
tp_record_write(struct tp_sink *log, enum tp_log_format fmt,
		const struct tp_flow_record *r)
{
	char *p = tp_sink_reserve(log, TP_LOG_LINE_MAX);
	int n = 0;

	if (p != NULL) {
		n = tp_record_format(p, TP_LOG_LINE_MAX, fmt, r);
		RTE_ASSERT(n > 0 && n < TP_LOG_LINE_MAX);
		if (n < 0 || n >= TP_LOG_LINE_MAX)
			n = 0;	/* cannot happen: counted as not written */
	}
	tp_sink_commit(log, (size_t)n, 1);
}

void
tp_record_emit(struct tp_ctx *ctx, const struct tp_flow_record *r)
{
	if (ctx->rec.log_on)
		TP_STAGE_RUN(ENCODE, 1, tp_record_write(&ctx->rec.log,
					ctx->cfg->log_format, r));
	if (ctx->ipfix != NULL)
		tp_ipfix_submit(ctx, r);	/* never waits */
}

uint32_t
tp_records_room(const struct tp_ctx *ctx)
{
	uint32_t room = tp_ipfix_room(ctx), queued;

	if (room == UINT32_MAX || ctx->rec.ring == NULL)
		return room;
	queued = rte_ring_count(ctx->rec.ring);
	return room > queued ? room - queued : 0;
}

/* Main lcore: hand queued records to the sinks. */
unsigned int
tp_records_drain(struct tp_ctx *ctx)
{
	struct tp_flow_record r[TP_DRAIN_BURST];
	struct tp_records *rec = &ctx->rec;
	unsigned int n, i, total = 0;

	do {
		n = rte_ring_sc_dequeue_burst_elem(rec->ring, r, sizeof(r[0]),
						   TP_DRAIN_BURST, NULL);
		for (i = 0; i < n; i++)
			tp_record_emit(ctx, &r[i]);
		total += n;
	} while (n == TP_DRAIN_BURST);
	if (total > 0 && rec->log_on)
		tp_sink_flush(&rec->log);
	return total;
}
