/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Statistics: the periodic screen (-T), telemetry (/timer_pipeline/stats,
 * /timer_pipeline/flows), the exit summary and the exactly-once check.
 * Readers sum the per-lcore slots without locks (one writer per slot).
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"

#include "tp_ctx.h"
#include "tp_ipfix.h"
#include "tp_stats.h"

/*
 * The context the telemetry handlers read: the second mutable global, next
 * to tp_quit_signal (tp_ctx.h). DPDK 22.11's telemetry handlers take no
 * user argument; 24.11's rte_telemetry_register_cmd_arg() can pass one,
 * but DPDK has no call to unregister a command, so a handler may run
 * after the context it was given is freed: the context lives shorter than
 * the process, hence this guarded pointer on every version. Set once by
 * tp_stats_telemetry_register() before the commands exist; cleared by
 * tp_stats_telemetry_unregister() before the context is freed. The lock
 * makes the clear wait for a handler that is reading the context (the
 * telemetry thread runs beside main).
 */
static const struct tp_ctx *tp_tel_ctx;
static rte_spinlock_t tp_tel_lock = RTE_SPINLOCK_INITIALIZER;

static const char *const tp_drop_names[TP_DROP_MAX] = {
	[TP_DROP_MALFORMED] = "malformed",
	[TP_DROP_TABLE_FULL] = "table_full",
	[TP_DROP_FWD] = "fwd_drop",
	[TP_DROP_TX] = "tx_full",
	[TP_DROP_SHUTDOWN] = "shutdown",
	[TP_DROP_EVDEV_FULL] = "evdev_full",
	[TP_DROP_OVERSIZE] = "oversize",
	[TP_DROP_NOT_ETHER] = "not_ether",
};

static void
tp_stats_add(struct tp_lcore_stats *t, const struct tp_lcore_stats *s)
{
	const uint64_t *src = (const uint64_t *)s;
	uint64_t *dst = (uint64_t *)t;
	uint64_t max = t->lat_max_ns;
	size_t i;

	/* Every member is a u64 counter; the maximum is fixed up below. */
	for (i = 0; i < offsetof(struct tp_lcore_stats, idle_polls) /
	     sizeof(uint64_t) + 1; i++)
		dst[i] += __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	t->lat_max_ns = RTE_MAX(max, s->lat_max_ns);
}

void
tp_stats_sum(const struct tp_ctx *ctx, struct tp_lcore_stats *tot)
{
	unsigned int id;

	memset(tot, 0, sizeof(*tot));
	for (id = 0; id < RTE_MAX_LCORE; id++)
		if (ctx->lc[id].roles != 0)
			tp_stats_add(tot, &ctx->lc[id].stats);
}

uint64_t
tp_stats_lat_pct(const struct tp_lcore_stats *tot, unsigned int p)
{
	uint64_t n = 0, want, acc = 0;
	unsigned int b;

	for (b = 0; b < TP_LAT_BUCKETS; b++)
		n += tot->lat_hist[b];
	if (n == 0)
		return 0;
	want = (n * p + 99) / 100;
	for (b = 0; b < TP_LAT_BUCKETS; b++) {
		acc += tot->lat_hist[b];
		if (acc >= want)	/* bucket upper bound, at most the max */
			return RTE_MIN(UINT64_C(1) << b,
				       (tot->lat_max_ns + 999) / 1000);
	}
	return (tot->lat_max_ns + 999) / 1000;
}

static uint64_t
tp_stats_ended(const struct tp_lcore_stats *t)
{
	uint64_t n = 0;
	unsigned int r;

	for (r = 0; r < TP_END_MAX; r++)
		n += t->flows_ended[r];
	return n;
}

static uint64_t
tp_stats_drops(const struct tp_lcore_stats *t)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < TP_DROP_MAX; i++)
		n += t->drops[i];
	return n;
}

/* Packets handed to TX and sent (TX drops are counted among the drops). */
static uint64_t
tp_stats_forwarded(const struct tp_lcore_stats *t)
{
	return t->tx_pkts - t->drops[TP_DROP_TX];
}

/* Packet events enqueued by RX and not yet processed by a worker. */
static uint64_t
tp_stats_in_flight(const struct tp_lcore_stats *t)
{
	return t->ev_enq - t->ev_deq_pkt;
}

/* The PMDs' own counters, summed over the ports in use: what never
 * reached the pipeline (imissed, rx_nombuf, ierrors) shows only here.
 */
static void
tp_stats_ports(const struct tp_ctx *ctx, struct rte_eth_stats *tot)
{
	struct rte_eth_stats s;
	uint16_t i;

	memset(tot, 0, sizeof(*tot));
	for (i = 0; i < ctx->nb_ports; i++) {
		if (rte_eth_stats_get(ctx->ports[i], &s) != 0)
			continue;
		tot->ipackets += s.ipackets;
		tot->opackets += s.opackets;
		tot->imissed += s.imissed;
		tot->ierrors += s.ierrors;
		tot->oerrors += s.oerrors;
		tot->rx_nombuf += s.rx_nombuf;
	}
}

/* Mbufs taken from the pool: in the device, rings, PMDs and caches. */
static uint64_t
tp_stats_mbufs_in_use(const struct tp_ctx *ctx)
{
	return ctx->pool != NULL ? rte_mempool_in_use_count(ctx->pool) : 0;
}

/* The adapter's statistics, zero if it has none yet. */
static void
tp_stats_adapter(const struct tp_ctx *ctx,
		 struct rte_event_timer_adapter_stats *as)
{
	const struct tp_adapter *ta = &ctx->ta;

	memset(as, 0, sizeof(*as));
	if (ta->ops != NULL && ta->h != NULL)
		ta->ops->stats_get(ta->h, as);
}

static void
tp_stats_print_lcores(const struct tp_ctx *ctx)
{
	unsigned int id;

	printf("  lcore role          rx_pkts    tx_pkts  flows_new  "
	       "expiries    re-arms  idle_polls  lat_p99_us\n");
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		const struct tp_lcore *lc = &ctx->lc[id];
		const struct tp_lcore_stats *s = &lc->stats;
		char role[16];

		if ((lc->roles & (TP_ROLE_RX | TP_ROLE_WORKER)) == 0)
			continue;
		snprintf(role, sizeof(role), "%s%s%s",
			 lc->roles & TP_ROLE_RX ? "rx" : "",
			 (lc->roles & TP_ROLE_RX) &&
			 (lc->roles & TP_ROLE_WORKER) ? "+" : "",
			 lc->roles & TP_ROLE_WORKER ? "worker" : "");
		printf("  %5u %-9s %11" PRIu64 " %10" PRIu64 " %10" PRIu64
		       " %10" PRIu64 " %10" PRIu64 " %11" PRIu64 " %11" PRIu64
		       "\n", id, role, s->rx_pkts, s->tx_pkts,
		       s->flows_created, s->tim_expired, s->tim_rearmed,
		       s->idle_polls, (lc->roles & TP_ROLE_WORKER) ?
		       tp_stats_lat_pct(s, 99) : 0);
	}
}

/* IPFIX export line (when --ipfix or --ipfix-file is on). */
static void
tp_stats_print_ipfix(const struct tp_ctx *ctx)
{
	struct tp_ipfix_stats s;

	if (!tp_ipfix_stats_get(ctx, &s))
		return;
	printf("  ipfix   messages %" PRIu64 " records %" PRIu64 " bytes %"
	       PRIu64 " templates %" PRIu64 " not_sent %" PRIu64
	       " (queue_full %" PRIu64 ") reconnects %" PRIu64
	       " window_ms %" PRIu64 "\n", s.messages, s.records, s.bytes,
	       s.templates, s.not_sent, s.queue_full, s.reconnects,
	       s.window_us / 1000);
}

/* The stats screen. 8< */
void
tp_stats_print(const struct tp_ctx *ctx, bool final)
{
	struct rte_event_timer_adapter_stats as;
	struct rte_eth_stats ps;
	struct tp_lcore_stats t;
	uint64_t ended, el, drops;
	unsigned int i;

	tp_stats_sum(ctx, &t);
	tp_stats_ports(ctx, &ps);
	tp_stats_adapter(ctx, &as);
	ended = tp_stats_ended(&t);
	el = tp_cycles_to_ns(rte_get_timer_cycles() - ctx->start_tsc, ctx->hz);
	drops = tp_stats_drops(&t);
	printf("\n=== timer_pipeline %s, %" PRIu64 ".%01" PRIu64 " s, %s adapter"
	       ", %s refresh ===\n", final ? "summary" : "stats",
	       el / 1000000000, el / 100000000 % 10, ctx->ta.ops->name,
	       ctx->cfg->refresh == TP_REFRESH_LAZY ? "lazy" : "every-packet");
	tp_stats_print_lcores(ctx);
	printf("  rx      %" PRIu64 " pkts %" PRIu64 " bytes (ipv4 %" PRIu64
	       ", ipv6 %" PRIu64 ", non-ip %" PRIu64 ", malformed %" PRIu64
	       ")\n", t.rx_pkts, t.rx_bytes, t.rx_ipv4, t.rx_ipv6, t.rx_non_ip,
	       t.rx_malformed);
	printf("  tx      %" PRIu64 " pkts forwarded, %" PRIu64 " dropped:",
	       tp_stats_forwarded(&t), drops);
	for (i = 0; i < TP_DROP_MAX; i++)
		printf(" %s %" PRIu64, tp_drop_names[i], t.drops[i]);
	printf("\n  flows   active %" PRIu64 " created %" PRIu64 " ended %"
	       PRIu64 ":", t.flows_created - ended, t.flows_created, ended);
	for (i = TP_END_IDLE; i < TP_END_MAX; i++)
		printf(" %s %" PRIu64, tp_end_reason_name(i),
		       t.flows_ended[i]);
	/* "armed" counts every arm, as in the exactly-once check. */
	printf("\n  timers  armed %" PRIu64 " (%" PRIu64 " first, %" PRIu64
	       " re-armed) expired %" PRIu64 " cancelled %" PRIu64
	       " (late cancels %" PRIu64 ", arm failures %" PRIu64 ")\n",
	       t.tim_armed + t.tim_rearmed, t.tim_armed, t.tim_rearmed,
	       t.tim_expired, t.tim_cancelled, t.tim_cancel_late,
	       t.tim_arm_fail);
	printf("  expiry lateness p50 <= %" PRIu64 " us, p99 <= %" PRIu64
	       " us, max %" PRIu64 " us (tick %" PRIu64 " us)\n",
	       tp_stats_lat_pct(&t, 50), tp_stats_lat_pct(&t, 99),
	       t.lat_max_ns / 1000, ctx->cfg->tick_ns / 1000);
	/* Backpressure: RX enqueues refused for lack of credits (retried
	 * for a while, then dropped as evdev_full), and expiry events the
	 * adapter had to keep and retry.
	 */
	printf("  events  enqueued %" PRIu64 " in flight %" PRIu64
	       " enqueue_retries %" PRIu64 " adapter_expiries %" PRIu64
	       " adapter_retries %" PRIu64 "\n", t.ev_enq,
	       tp_stats_in_flight(&t), t.ev_enq_retry, as.evtim_exp_count,
	       as.evtim_retry_count);
	printf("  ports   ipackets %" PRIu64 " imissed %" PRIu64 " rx_nombuf %"
	       PRIu64 " ierrors %" PRIu64 " opackets %" PRIu64 " oerrors %"
	       PRIu64 "\n", ps.ipackets, ps.imissed, ps.rx_nombuf, ps.ierrors,
	       ps.opackets, ps.oerrors);
	printf("  mbufs   pool %u in_use %" PRIu64 "\n",
	       ctx->pool != NULL ? ctx->pool->size : 0,
	       tp_stats_mbufs_in_use(ctx));
	if (final)
		printf("  records %" PRIu64 " written%s%s\n", ctx->rec.written,
		       ctx->cfg->flow_log[0] ? " to " : " (no --flow-log)",
		       ctx->cfg->flow_log);
	tp_stats_print_ipfix(ctx);
	fflush(stdout);
}
/* >8 End of the stats screen. */

/*
 * --summary-json FILE: the final counters and the exactly-once check as
 * one JSON object, for tests and scripts (they read numbers from it, not
 * from the summary text). Keys are stable names; the check's terms are
 * under "check", every counter under "counters".
 *
 * Adding a counter is one line in tp_summary_counters():
 *	tp_json_u64(w, "name", value);
 * Drop reasons (tp_drop_names[]) and end reasons (tp_end_reason_name())
 * are written by a loop, as "drop_<name>" and "ended_<name>": a new reason
 * needs no line here.
 */
struct tp_json {
	FILE *f;		/**< Output. */
	const char *sep;	/**< "" before an object's first member. */
};

static void
tp_json_u64(struct tp_json *w, const char *key, uint64_t v)
{
	fprintf(w->f, "%s\"%s\":%" PRIu64, w->sep, key, v);
	w->sep = ",";
}

static void
tp_json_bool(struct tp_json *w, const char *key, bool v)
{
	fprintf(w->f, "%s\"%s\":%s", w->sep, key, v ? "true" : "false");
	w->sep = ",";
}

/* Only fixed names (adapter, refresh mode): no escaping needed. */
static void
tp_json_str(struct tp_json *w, const char *key, const char *v)
{
	fprintf(w->f, "%s\"%s\":\"%s\"", w->sep, key, v);
	w->sep = ",";
}

/* Seconds with millisecond resolution. */
static void
tp_json_seconds(struct tp_json *w, const char *key, uint64_t ns)
{
	fprintf(w->f, "%s\"%s\":%.3f", w->sep, key, (double)ns / 1e9);
	w->sep = ",";
}

static void
tp_json_u64_array(struct tp_json *w, const char *key, const uint64_t *v,
		  unsigned int n)
{
	unsigned int i;

	fprintf(w->f, "%s\"%s\":[", w->sep, key);
	for (i = 0; i < n; i++)
		fprintf(w->f, "%s%" PRIu64, i ? "," : "", v[i]);
	fputc(']', w->f);
	w->sep = ",";
}

static void
tp_json_begin(struct tp_json *w, const char *key)
{
	fprintf(w->f, "%s\"%s\":{", w->sep, key);
	w->sep = "";
}

static void
tp_json_end(struct tp_json *w)
{
	fputc('}', w->f);
	w->sep = ",";
}

/*
 * IPFIX export counters (only when --ipfix or --ipfix-file is on), under
 * the names each file has always used for the records sent.
 */
static void
tp_json_ipfix(struct tp_json *w, const struct tp_ctx *ctx,
	      const char *records_key, bool with_window)
{
	struct tp_ipfix_stats s;

	if (!tp_ipfix_stats_get(ctx, &s))
		return;
	tp_json_u64(w, "ipfix_messages", s.messages);
	tp_json_u64(w, records_key, s.records);
	tp_json_u64(w, "ipfix_bytes", s.bytes);
	tp_json_u64(w, "ipfix_templates", s.templates);
	tp_json_u64(w, "ipfix_not_sent", s.not_sent);
	tp_json_u64(w, "ipfix_queue_full", s.queue_full);
	tp_json_u64(w, "ipfix_reconnects", s.reconnects);
	if (with_window)
		tp_json_u64(w, "ipfix_window_us", s.window_us);
}

/*
 * A JSON output file (--stats-json, --summary-json), created like
 * --flow-log: no symbolic link, 0644. NULL with errno set on failure.
 */
static FILE *
tp_stats_json_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		      O_CLOEXEC, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
	FILE *f;
	int err;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (f == NULL) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

/*
 * --stats-json: the totals of the stats screen as one JSON object per
 * line, for tools/plot_run.py. Counters are cumulative since the start;
 * the lateness histogram too, so a reader takes percentiles per interval
 * from the difference of two lines. Opened at the first period (a failure
 * is logged once and the run goes on: the file is a learning aid).
 */
void
tp_stats_json_write(struct tp_ctx *ctx, bool final)
{
	struct tp_lcore_stats t;
	struct tp_json w;
	unsigned int i;
	uint64_t ended;
	char key[64];

	if (ctx->cfg->stats_json[0] == '\0' || ctx->stats_json_failed)
		return;
	if (ctx->stats_json == NULL) {
		ctx->stats_json = tp_stats_json_open(ctx->cfg->stats_json);
		if (ctx->stats_json == NULL) {
			TP_LOG(ERR, "cannot open --stats-json '%s': %s",
			       ctx->cfg->stats_json, strerror(errno));
			ctx->stats_json_failed = true;
			return;
		}
	}
	w.f = ctx->stats_json;
	w.sep = "";
	tp_stats_sum(ctx, &t);
	ended = tp_stats_ended(&t);
	fputc('{', w.f);
	tp_json_seconds(&w, "t_s", tp_cycles_to_ns(rte_get_timer_cycles() -
						   ctx->start_tsc, ctx->hz));
	tp_json_bool(&w, "final", final);
	tp_json_u64(&w, "rx_pkts", t.rx_pkts);
	tp_json_u64(&w, "forwarded", tp_stats_forwarded(&t));
	tp_json_u64(&w, "dropped", tp_stats_drops(&t));
	tp_json_u64(&w, "flows_live", t.flows_created - ended);
	tp_json_u64(&w, "flows_created", t.flows_created);
	tp_json_u64(&w, "flows_ended", ended);
	for (i = TP_END_IDLE; i < TP_END_MAX; i++) {
		snprintf(key, sizeof(key), "ended_%s", tp_end_reason_name(i));
		tp_json_u64(&w, key, t.flows_ended[i]);
	}
	tp_json_u64(&w, "timers_armed", t.tim_armed + t.tim_rearmed);
	tp_json_u64(&w, "timers_rearmed", t.tim_rearmed);
	tp_json_u64(&w, "timers_expired", t.tim_expired);
	tp_json_u64(&w, "timers_cancelled", t.tim_cancelled);
	tp_json_u64(&w, "lat_p50_us", tp_stats_lat_pct(&t, 50));
	tp_json_u64(&w, "lat_p99_us", tp_stats_lat_pct(&t, 99));
	tp_json_u64(&w, "lat_max_us", t.lat_max_ns / 1000);
	tp_json_u64(&w, "tick_us", ctx->cfg->tick_ns / 1000);
	tp_json_u64_array(&w, "lateness_hist_log2_us", t.lat_hist,
			  TP_LAT_BUCKETS);
	tp_json_ipfix(&w, ctx, "ipfix_records", false);
	fputs("}\n", w.f);
	fflush(w.f);
	if (final) {
		fclose(w.f);
		ctx->stats_json = NULL;
		ctx->stats_json_failed = true;	/* nothing after the last */
	}
}

static int
tp_tel_stats_locked(const struct tp_ctx *ctx, const char *params,
		    struct rte_tel_data *d)
{
	struct rte_event_timer_adapter_stats as;
	struct rte_tel_data *hist;
	struct rte_eth_stats ps;
	struct tp_lcore_stats t;
	unsigned int i;
	uint64_t up;

	if (ctx == NULL || (params != NULL && *params != '\0'))
		return -EINVAL;
	tp_stats_sum(ctx, &t);
	tp_stats_ports(ctx, &ps);
	tp_stats_adapter(ctx, &as);
	rte_tel_data_start_dict(d);
	compat_tel_dict_uint(d, "rx_pkts", t.rx_pkts);
	compat_tel_dict_uint(d, "rx_bytes", t.rx_bytes);
	compat_tel_dict_uint(d, "rx_ipv4", t.rx_ipv4);
	compat_tel_dict_uint(d, "rx_ipv6", t.rx_ipv6);
	compat_tel_dict_uint(d, "rx_non_ip", t.rx_non_ip);
	compat_tel_dict_uint(d, "rx_malformed", t.rx_malformed);
	compat_tel_dict_uint(d, "tx_pkts",
				  t.tx_pkts - t.drops[TP_DROP_TX]);
	for (i = 0; i < TP_DROP_MAX; i++)
		compat_tel_dict_uint(d, tp_drop_names[i], t.drops[i]);
	compat_tel_dict_uint(d, "timers_armed",
				  t.tim_armed + t.tim_rearmed);
	compat_tel_dict_uint(d, "timers_rearmed", t.tim_rearmed);
	compat_tel_dict_uint(d, "timers_expired", t.tim_expired);
	compat_tel_dict_uint(d, "timers_cancelled", t.tim_cancelled);
	compat_tel_dict_uint(d, "lateness_p50_us",
				  tp_stats_lat_pct(&t, 50));
	compat_tel_dict_uint(d, "lateness_p99_us",
				  tp_stats_lat_pct(&t, 99));
	compat_tel_dict_uint(d, "lateness_max_us", t.lat_max_ns / 1000);
	/* Cumulative log2 histogram: bucket b counts lateness in
	 * [2^(b-1), 2^b) us; a client takes percentiles over any window
	 * from the difference of two samples.
	 */
	hist = rte_tel_data_alloc();
	if (hist != NULL) {
		rte_tel_data_start_array(hist, COMPAT_TEL_UINT_VAL);
		for (i = 0; i < TP_LAT_BUCKETS; i++)
			compat_tel_array_uint(hist, t.lat_hist[i]);
		if (rte_tel_data_add_dict_container(d, "lateness_hist_log2_us",
						    hist, 0) != 0)
			rte_tel_data_free(hist);
	}
	compat_tel_dict_uint(d, "timers_arm_failures", t.tim_arm_fail);
	compat_tel_dict_uint(d, "timers_late_cancels", t.tim_cancel_late);
	compat_tel_dict_uint(d, "events_enqueued", t.ev_enq);
	compat_tel_dict_uint(d, "events_in_flight",
				  tp_stats_in_flight(&t));
	compat_tel_dict_uint(d, "enqueue_retries", t.ev_enq_retry);
	compat_tel_dict_uint(d, "adapter_expiries", as.evtim_exp_count);
	compat_tel_dict_uint(d, "adapter_retries", as.evtim_retry_count);
	compat_tel_dict_uint(d, "port_ipackets", ps.ipackets);
	compat_tel_dict_uint(d, "port_imissed", ps.imissed);
	compat_tel_dict_uint(d, "port_rx_nombuf", ps.rx_nombuf);
	compat_tel_dict_uint(d, "port_ierrors", ps.ierrors);
	compat_tel_dict_uint(d, "port_opackets", ps.opackets);
	compat_tel_dict_uint(d, "port_oerrors", ps.oerrors);
	compat_tel_dict_uint(d, "mbufs_in_use",
				  tp_stats_mbufs_in_use(ctx));
	up = rte_get_timer_cycles() - ctx->start_tsc;
	compat_tel_dict_uint(d, "uptime_ms",
				  tp_cycles_to_ns(up, ctx->hz) / 1000000);
	return 0;
}

static int
tp_tel_flows_locked(const struct tp_ctx *ctx, const char *params,
		    struct rte_tel_data *d)
{
	struct tp_lcore_stats t;
	unsigned int r;

	if (ctx == NULL || (params != NULL && *params != '\0'))
		return -EINVAL;
	tp_stats_sum(ctx, &t);
	rte_tel_data_start_dict(d);
	compat_tel_dict_uint(d, "active",
				  t.flows_created - tp_stats_ended(&t));
	compat_tel_dict_uint(d, "live_in_table",
				  __atomic_load_n(&ctx->ft.nb_live,
						  __ATOMIC_RELAXED));
	compat_tel_dict_uint(d, "capacity", ctx->ft.capacity);
	compat_tel_dict_uint(d, "created", t.flows_created);
	for (r = TP_END_IDLE; r < TP_END_MAX; r++)
		compat_tel_dict_uint(d, tp_end_reason_name(r),
					  t.flows_ended[r]);
	compat_tel_dict_uint(d, "records_written", ctx->rec.written);
	return 0;
}

static int
tp_tel_ipfix_locked(const struct tp_ctx *ctx, const char *params,
		    struct rte_tel_data *d)
{
	struct tp_ipfix_stats s;

	if (ctx == NULL || (params != NULL && *params != '\0'))
		return -EINVAL;
	rte_tel_data_start_dict(d);
	compat_tel_dict_uint(d, "enabled", tp_ipfix_stats_get(ctx, &s));
	compat_tel_dict_uint(d, "messages", s.messages);
	compat_tel_dict_uint(d, "records", s.records);
	compat_tel_dict_uint(d, "bytes", s.bytes);
	compat_tel_dict_uint(d, "templates", s.templates);
	compat_tel_dict_uint(d, "not_sent", s.not_sent);
	compat_tel_dict_uint(d, "queue_full", s.queue_full);
	compat_tel_dict_uint(d, "reconnects", s.reconnects);
	return 0;
}

static int
tp_tel_ipfix(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int ret;

	RTE_SET_USED(cmd);
	rte_spinlock_lock(&tp_tel_lock);
	ret = tp_tel_ipfix_locked(tp_tel_ctx, params, d);
	rte_spinlock_unlock(&tp_tel_lock);
	return ret;
}

static int
tp_tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int ret;

	RTE_SET_USED(cmd);
	rte_spinlock_lock(&tp_tel_lock);
	ret = tp_tel_stats_locked(tp_tel_ctx, params, d);
	rte_spinlock_unlock(&tp_tel_lock);
	return ret;
}

static int
tp_tel_flows(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int ret;

	RTE_SET_USED(cmd);
	rte_spinlock_lock(&tp_tel_lock);
	ret = tp_tel_flows_locked(tp_tel_ctx, params, d);
	rte_spinlock_unlock(&tp_tel_lock);
	return ret;
}

/* Telemetry registration. 8< */
int
tp_stats_telemetry_register(struct tp_ctx *ctx)
{
	int ret;

	rte_spinlock_lock(&tp_tel_lock);
	tp_tel_ctx = ctx;
	rte_spinlock_unlock(&tp_tel_lock);
	/* Names: letters, digits, '_' and '/' only, or registration fails. */
	ret = rte_telemetry_register_cmd("/timer_pipeline/stats", tp_tel_stats,
			"Pipeline counters: rx, tx, drops, timers, lateness");
	if (ret == 0)
		ret = rte_telemetry_register_cmd("/timer_pipeline/flows",
				tp_tel_flows,
				"Flows: active, created, ended by reason");
	if (ret == 0)
		ret = rte_telemetry_register_cmd("/timer_pipeline/ipfix",
				tp_tel_ipfix, "IPFIX export: messages, records, "
				"bytes, templates, not sent, reconnects");
	if (ret < 0) {
		TP_LOG(ERR, "telemetry registration failed: %s",
		       strerror(-ret));
		return ret;
	}
	ctx->telemetry = true;
	return 0;
}
/* >8 End of telemetry registration. */

void
tp_stats_telemetry_unregister(void)
{
	/* 22.11 cannot unregister commands: make them fail from now on. */
	rte_spinlock_lock(&tp_tel_lock);
	tp_tel_ctx = NULL;
	rte_spinlock_unlock(&tp_tel_lock);
}

/* Entries that are not FREE and whose record is not yet written. */
static uint64_t
tp_stats_live_entries(const struct tp_ctx *ctx)
{
	uint64_t n = 0;
	uint32_t i, r;

	for (i = 0; i < ctx->ft.nb_entries; i++) {
		r = ctx->ft.entries[i].ref;
		if (r != TP_REF_FREE && (r & TP_REF_COUNT_MASK) != 0)
			n++;
	}
	return n;
}

static int
tp_stats_adapter_check(struct tp_ctx *ctx, const struct tp_lcore_stats *t,
		       uint64_t pending)
{
	struct rte_event_timer_adapter_stats as;
	const struct tp_adapter *ta = &ctx->ta;
	struct timer_adapter_accounting acct;
	int ok = 0;

	if (ta->ops->stats_get(ta->h, &as) == 0 &&
	    as.evtim_exp_count != t->tim_expired) {
		printf("  adapter built %" PRIu64 " expiry events, workers "
		       "processed %" PRIu64 "\n", as.evtim_exp_count,
		       t->tim_expired);
		ok = -1;
	}
	if (ta->ops->acct_get == NULL || ta->ops->acct_get(ta->h, &acct) != 0)
		return ok;
	if (acct.armed != t->tim_armed + t->tim_rearmed ||
	    acct.expired != t->tim_expired ||
	    acct.cancelled != t->tim_cancelled || acct.pending != pending) {
		printf("  adapter accounting armed %" PRIu64 " expired %"
		       PRIu64 " cancelled %" PRIu64 " pending %" PRIu64
		       " differs from the app's\n", acct.armed, acct.expired,
		       acct.cancelled, acct.pending);
		ok = -1;
	}
	return ok;
}

/* Every ended flow's record was exported or counted as not sent. */
static int
tp_stats_ipfix_check(const struct tp_ctx *ctx, uint64_t ended)
{
	struct tp_ipfix_stats s;

	if (!tp_ipfix_stats_get(ctx, &s))
		return 0;
	printf("  ipfix  ended %" PRIu64 " == exported %" PRIu64
	       " + not sent %" PRIu64 "\n", ended, s.records, s.not_sent);
	return ended == s.records + s.not_sent ? 0 : -1;
}

/* Every counter of the final summary, under "counters". */
static void
tp_summary_counters(struct tp_json *w, const struct tp_ctx *ctx,
		    const struct tp_lcore_stats *t)
{
	struct rte_event_timer_adapter_stats as;
	struct rte_eth_stats ps;
	char key[64];
	unsigned int i;

	tp_stats_ports(ctx, &ps);
	tp_stats_adapter(ctx, &as);
	tp_json_begin(w, "counters");
	tp_json_u64(w, "rx_pkts", t->rx_pkts);
	tp_json_u64(w, "rx_bytes", t->rx_bytes);
	tp_json_u64(w, "rx_ipv4", t->rx_ipv4);
	tp_json_u64(w, "rx_ipv6", t->rx_ipv6);
	tp_json_u64(w, "rx_non_ip", t->rx_non_ip);
	tp_json_u64(w, "rx_malformed", t->rx_malformed);
	tp_json_u64(w, "forwarded", tp_stats_forwarded(t));
	tp_json_u64(w, "dropped", tp_stats_drops(t));
	for (i = 0; i < TP_DROP_MAX; i++) {
		snprintf(key, sizeof(key), "drop_%s", tp_drop_names[i]);
		tp_json_u64(w, key, t->drops[i]);
	}
	tp_json_u64(w, "flows_created", t->flows_created);
	tp_json_u64(w, "flows_ended", tp_stats_ended(t));
	for (i = TP_END_IDLE; i < TP_END_MAX; i++) {
		snprintf(key, sizeof(key), "ended_%s", tp_end_reason_name(i));
		tp_json_u64(w, key, t->flows_ended[i]);
	}
	tp_json_u64(w, "flow_busy_retries", t->flow_busy_retry);
	tp_json_u64(w, "timers_armed", t->tim_armed);
	tp_json_u64(w, "timers_rearmed", t->tim_rearmed);
	tp_json_u64(w, "timers_expired", t->tim_expired);
	tp_json_u64(w, "timers_cancelled", t->tim_cancelled);
	tp_json_u64(w, "timers_late_cancels", t->tim_cancel_late);
	tp_json_u64(w, "timers_arm_failures", t->tim_arm_fail);
	tp_json_u64(w, "lateness_p50_us", tp_stats_lat_pct(t, 50));
	tp_json_u64(w, "lateness_p99_us", tp_stats_lat_pct(t, 99));
	tp_json_u64(w, "lateness_max_us", t->lat_max_ns / 1000);
	tp_json_u64(w, "events_enqueued", t->ev_enq);
	tp_json_u64(w, "events_in_flight", tp_stats_in_flight(t));
	tp_json_u64(w, "enqueue_retries", t->ev_enq_retry);
	tp_json_u64(w, "adapter_expiries", as.evtim_exp_count);
	tp_json_u64(w, "adapter_retries", as.evtim_retry_count);
	tp_json_u64(w, "port_ipackets", ps.ipackets);
	tp_json_u64(w, "port_imissed", ps.imissed);
	tp_json_u64(w, "port_rx_nombuf", ps.rx_nombuf);
	tp_json_u64(w, "port_ierrors", ps.ierrors);
	tp_json_u64(w, "port_opackets", ps.opackets);
	tp_json_u64(w, "port_oerrors", ps.oerrors);
	tp_json_u64(w, "mbufs_pool", ctx->pool != NULL ? ctx->pool->size : 0);
	tp_json_u64(w, "mbufs_in_use", tp_stats_mbufs_in_use(ctx));
	tp_json_u64(w, "records_written", ctx->rec.written);
	tp_json_u64(w, "record_ring_waits", ctx->rec.ring_full);
	tp_json_ipfix(w, ctx, "ipfix_exported", true);
	tp_json_end(w);
}

/* The check's IPFIX terms: ended == exported + not sent. */
static void
tp_summary_check_ipfix(struct tp_json *w, const struct tp_ctx *ctx)
{
	struct tp_ipfix_stats s;

	if (!tp_ipfix_stats_get(ctx, &s))
		return;
	tp_json_u64(w, "ipfix_exported", s.records);
	tp_json_u64(w, "ipfix_not_sent", s.not_sent);
}

/*
 * When the run's phases happened, in ms from the launch (the lcores
 * started), and the launch itself on the wall clock: a benchmark tells
 * start-up, running, flushing and exit apart with them.
 */
static void
tp_summary_times(struct tp_json *w, const struct tp_ctx *ctx)
{
	const uint64_t ms = ctx->hz / 1000;

	tp_json_str(w, "stop_reason", ctx->stop_reason != NULL ?
		    ctx->stop_reason : "none");
	tp_json_begin(w, "times");
	tp_json_u64(w, "launch_unix_ms", ctx->start_ns / 1000000);
	tp_json_u64(w, "stop_request_ms", ctx->stop_tsc > ctx->start_tsc ?
		    (ctx->stop_tsc - ctx->start_tsc) / ms : 0);
	tp_json_u64(w, "stopped_ms", ctx->phase_tsc > ctx->start_tsc ?
		    (ctx->phase_tsc - ctx->start_tsc) / ms : 0);
	tp_json_end(w);
}

/*
 * Write --summary-json (if set): run facts, "check" with the exactly-once
 * check's terms as tp_stats_check() printed them, then "counters". The
 * file is created like --flow-log (no symbolic link, 0644).
 *
 * @return 0, or -1 (logged) if the file cannot be written.
 */
static int
tp_summary_write(const struct tp_ctx *ctx, const struct tp_lcore_stats *t,
		 uint64_t live, uint64_t pending, bool passed)
{
	const char *path = ctx->cfg->summary_json;
	struct tp_json w = { .sep = "" };

	if (path[0] == '\0')
		return 0;
	w.f = tp_stats_json_open(path);
	if (w.f == NULL) {
		TP_LOG(ERR, "cannot write --summary-json '%s': %s", path,
		       strerror(errno));
		return -1;
	}
	fputc('{', w.f);
	tp_json_u64(&w, "version", 1);
	tp_json_str(&w, "adapter", ctx->ta.ops->name);
	tp_json_str(&w, "refresh", ctx->cfg->refresh == TP_REFRESH_LAZY ?
		    "lazy" : "every-packet");
	tp_json_bool(&w, "aborted", ctx->aborted);
	tp_summary_times(&w, ctx);
	tp_json_begin(&w, "check");
	tp_json_bool(&w, "passed", passed);
	tp_json_u64(&w, "flows_created", t->flows_created);
	tp_json_u64(&w, "flows_ended", tp_stats_ended(t));
	tp_json_u64(&w, "flows_live", live);
	tp_json_u64(&w, "timers_armed", t->tim_armed + t->tim_rearmed);
	tp_json_u64(&w, "timers_expired", t->tim_expired);
	tp_json_u64(&w, "timers_cancelled", t->tim_cancelled);
	tp_json_u64(&w, "timers_pending", pending);
	tp_json_u64(&w, "packets_rx", t->rx_pkts);
	tp_json_u64(&w, "packets_forwarded", tp_stats_forwarded(t));
	tp_json_u64(&w, "packets_dropped", tp_stats_drops(t));
	tp_json_u64(&w, "packets_in_flight", tp_stats_in_flight(t));
	tp_summary_check_ipfix(&w, ctx);
	tp_json_end(&w);
	tp_summary_counters(&w, ctx, t);
	fputs("}\n", w.f);
	if (ferror(w.f) | (fclose(w.f) != 0)) {
		TP_LOG(ERR, "cannot write --summary-json '%s'", path);
		return -1;
	}
	return 0;
}

/* Exactly-once check. 8< */
int
tp_stats_check(struct tp_ctx *ctx)
{
	struct tp_lcore_stats t;
	uint64_t ended, live, pending, armed;
	int ok = 0;

	tp_stats_sum(ctx, &t);
	ended = tp_stats_ended(&t);
	live = tp_stats_live_entries(ctx);
	pending = tp_flow_count_timers(ctx);
	armed = t.tim_armed + t.tim_rearmed;
	printf("Exactly-once check:\n  flows  created %" PRIu64 " == ended %"
	       PRIu64 " + live %" PRIu64 "\n  timers armed %" PRIu64
	       " == expired %" PRIu64 " + cancelled %" PRIu64 " + pending %"
	       PRIu64 "\n", t.flows_created, ended, live, armed, t.tim_expired,
	       t.tim_cancelled, pending);
	/* Every packet received was forwarded or dropped under a reason. */
	printf("  packets rx %" PRIu64 " == forwarded %" PRIu64 " + dropped %"
	       PRIu64 " + in flight %" PRIu64 "\n", t.rx_pkts,
	       tp_stats_forwarded(&t), tp_stats_drops(&t),
	       tp_stats_in_flight(&t));
	if (t.flows_created != ended + live ||
	    armed != t.tim_expired + t.tim_cancelled + pending ||
	    t.rx_pkts != tp_stats_forwarded(&t) + tp_stats_drops(&t) +
	    tp_stats_in_flight(&t))
		ok = -1;
	if (!ctx->aborted && (live != 0 || pending != 0 ||
			      tp_stats_in_flight(&t) != 0)) {
		printf("  flows, timers or packets left after the flush\n");
		ok = -1;
	}
	if (ctx->rec.log != NULL && ctx->rec.written != ended) {
		printf("  %" PRIu64 " records written for %" PRIu64
		       " ended flows\n", ctx->rec.written, ended);
		ok = -1;
	}
	if (tp_stats_adapter_check(ctx, &t, pending) != 0)
		ok = -1;
	if (tp_stats_ipfix_check(ctx, ended) != 0)
		ok = -1;
	printf("  %s\n", ok == 0 ? "PASSED" : "FAILED");
	if (tp_summary_write(ctx, &t, live, pending, ok == 0) != 0)
		ok = -1;
	return ok;
}
/* >8 End of exactly-once check. */
