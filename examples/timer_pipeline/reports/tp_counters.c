/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The counters: the sums over the per-lcore slots, the snapshot every
 * report reads (struct tp_counters) and the counter table that names,
 * describes and orders it (TP_COUNTER_TABLE). Readers sum the slots
 * without locks (one writer per slot, relaxed loads); the table is const.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "reports/tp_counters.h"
#include "tp_ctx.h"
#include "datapath/tp_flow.h"
#include "records/tp_ipfix.h"
#include "records/tp_record.h"
#include "records/tp_sink.h"

/*
 * The counter table: one row per field of struct tp_counters, in its
 * order. Its name is the key in --stats-json, --summary-json and
 * telemetry; the screen prints it on its group's line under its label;
 * docs/counters.inc (--help-counters-rst) lists unit, meaning and how to
 * read it.
 *
 *	C(field, group, label, flags, unit, meaning, how to read it)
 *	A(field, length, element names or NULL, group, label, flags, ...)
 *
 * An array with element names is one key per element, "field_element"
 * (drop_malformed); one without is a list under its name.
 */
#define TP_COUNTER_TABLE(C, A) \
	C(rx_pkts, TP_GRP_RX, "pkts", TP_CTR_LCORE, "packets", \
	  "Packets the RX lcores received.", \
	  "rx_pkts = forwarded + monitored + dropped + events_in_flight " \
	  "(the exactly-once check).") \
	C(rx_bytes, TP_GRP_RX, "bytes", 0, "bytes", \
	  "Bytes of those packets on the wire (frame length; a capture's " \
	  "record length, not the bytes it kept).", "") \
	C(rx_ipv4, TP_GRP_RX, "ipv4", 0, "packets", \
	  "IPv4 packets received.", "") \
	C(rx_ipv6, TP_GRP_RX, "ipv6", 0, "packets", \
	  "IPv6 packets received.", "") \
	C(rx_non_ip, TP_GRP_RX, "non_ip", 0, "packets", \
	  "Packets that are not IP: forwarded without a flow.", "") \
	C(rx_malformed, TP_GRP_RX, "malformed", 0, "packets", \
	  "Malformed IP packets (see the sample application guide).", \
	  "Dropped as drop_malformed or forwarded, by policy.") \
	C(rx_truncated, TP_GRP_RX, "truncated", 0, "packets", \
	  "Packets shorter than their wire length: cut by the capture's " \
	  "snapshot length (tcpdump -s 96), or oversize.", \
	  "Aged by the headers they hold, counted at their wire length.") \
	C(rx_oversize, TP_GRP_RX, "oversize", 0, "packets", \
	  "Capture records over 65535 bytes (BIG TCP, jumbograms), which " \
	  "net_pcap cannot carry: read as their first 512 bytes.", \
	  "Also counted as truncated.") \
	C(forwarded, TP_GRP_TX, "forwarded", TP_CTR_LCORE, "packets", \
	  "Packets handed to TX and sent.", \
	  "TX queue overflows count as drop_tx_full, not here.") \
	C(monitored, TP_GRP_TX, "monitored", 0, "packets", \
	  "Packets metered and not sent: --fwd-mode monitor (no TX).", \
	  "Neither forwarded nor dropped: rx_pkts = forwarded + monitored " \
	  "+ dropped + events_in_flight.") \
	C(dropped, TP_GRP_TX, "dropped", 0, "packets", \
	  "Packets dropped, every reason.", \
	  "The sum of the drop_<reason> counters.") \
	A(drop, TP_DROP_MAX, tp_counters_drop_name, TP_GRP_TX, "", 0, "packets", \
	  "Packets dropped, one counter per reason: malformed, table_full, " \
	  "fwd_drop (--fwd-mode drop), tx_full, shutdown, evdev_full and " \
	  "the capture reason not_ether.", \
	  "A key per reason: drop_malformed, drop_table_full, ...") \
	C(flows_active, TP_GRP_FLOWS, "active", 0, "flows", \
	  "Flows created and not yet ended.", \
	  "flows_created - flows_ended.") \
	C(flows_created, TP_GRP_FLOWS, "created", TP_CTR_LCORE, "flows", \
	  "Flows created.", \
	  "flows_created = flows_ended + flows_live (the exactly-once " \
	  "check).") \
	C(flows_ended, TP_GRP_FLOWS, "ended", 0, "flows", \
	  "Flows ended, every reason.", \
	  "The sum of the ended_<reason> counters; one record each.") \
	A(ended, TP_ENDED_NB, tp_ended_name, TP_GRP_FLOWS, "", 0, "flows", \
	  "Flows ended, one counter per IPFIX end reason: idle_timeout, " \
	  "active_timeout, end_of_flow, forced_end, lack_of_resources.", \
	  "A key per reason: ended_idle_timeout, ...") \
	C(flow_busy_retries, TP_GRP_FLOWS, "busy_retries", 0, "lookups", \
	  "Lookups that found their flow ending and retried.", "") \
	C(flows_ended_closed, TP_GRP_FLOWS, "ended_closed", 0, "flows", \
	  "Flows that ended once no key could be looked up again (every " \
	  "input over under --clock capture, or RX stopped): their slots " \
	  "and keys stay in the table until it is freed at exit, with no " \
	  "delete and no grace period.", \
	  "At most flows_ended. A capture aged to its end: the flows " \
	  "still live at its last packet.") \
	C(flows_in_table, TP_GRP_FLOWS, "in_table", 0, "flows", \
	  "Flows the table holds and that are not yet ending.", \
	  "A gauge; at most flows_capacity.") \
	C(flows_capacity, TP_GRP_FLOWS, "capacity", 0, "flows", \
	  "The flow table's limit (--flows).", "") \
	C(timers_armed, TP_GRP_TIMERS, "armed", 0, "arms", \
	  "Successful arms: every flow's first arm and every re-arm.", \
	  "timers_armed_first + timers_rearmed; = timers_expired + " \
	  "timers_cancelled + timers_pending (the exactly-once check).") \
	C(timers_armed_first, TP_GRP_TIMERS, "first", 0, "arms", \
	  "First arms: one per flow created.", "") \
	C(timers_rearmed, TP_GRP_TIMERS, "rearmed", TP_CTR_LCORE, "arms", \
	  "Later arms: lazy re-arm at expiry, a FIN/RST refresh, an " \
	  "every-packet refresh.", "") \
	C(timers_expired, TP_GRP_TIMERS, "expired", TP_CTR_LCORE, "events", \
	  "Expiry events the workers handled.", "") \
	C(timers_cancelled, TP_GRP_TIMERS, "cancelled", 0, "cancels", \
	  "Successful cancels.", "") \
	C(timers_late_cancels, TP_GRP_TIMERS, "late_cancels", 0, "cancels", \
	  "Cancels that found the timer already expired.", \
	  "Its expiry event then ends or re-arms the flow.") \
	C(timers_arm_failures, TP_GRP_TIMERS, "arm_failures", 0, "arms", \
	  "Arms the adapter refused (e.g. ENOSPC with --timers).", \
	  "Each ends its flow as lack_of_resources.") \
	C(lateness_p50_us, TP_GRP_LATENESS, "p50_us", 0, "us", \
	  "Expiry lateness (handled after the deadline) over the run: " \
	  "median.", \
	  "Upper bound of a log2 bucket: 8192 means 4096-8191 us.") \
	C(lateness_p99_us, TP_GRP_LATENESS, "p99_us", TP_CTR_LCORE, "us", \
	  "Expiry lateness over the run: 99th percentile.", \
	  "As lateness_p50_us; at most lateness_max_us.") \
	C(lateness_max_us, TP_GRP_LATENESS, "max_us", 0, "us", \
	  "The largest expiry lateness.", "") \
	C(tick_us, TP_GRP_LATENESS, "tick_us", 0, "us", \
	  "The adapter's tick (--tick).", \
	  "For scale: lateness is at least up to one tick.") \
	A(lateness_hist_log2_us, TP_LAT_BUCKETS, NULL, TP_GRP_LATENESS, "", \
	  0, "expiries", \
	  "The lateness histogram: bucket 0 counts lateness under 1 us, " \
	  "bucket b lateness in [2^(b-1), 2^b) us. Not on the screen.", \
	  "Cumulative: percentiles over a window come from the difference " \
	  "of two samples.") \
	C(events_enqueued, TP_GRP_EVENTS, "enqueued", 0, "events", \
	  "Packet events RX enqueued.", "") \
	C(events_in_flight, TP_GRP_EVENTS, "in_flight", 0, "events", \
	  "Packet events enqueued and not yet handled by a worker.", \
	  "0 after a clean flush.") \
	C(enqueue_retries, TP_GRP_EVENTS, "enqueue_retries", 0, "calls", \
	  "RX enqueues short of credit (backpressure), retried.", \
	  "Dropped as drop_evdev_full past the retry.") \
	C(adapter_expiries, TP_GRP_EVENTS, "adapter_expiries", 0, "events", \
	  "Expiry events the adapter built.", "= timers_expired at exit.") \
	C(adapter_retries, TP_GRP_EVENTS, "adapter_retries", 0, "events", \
	  "Expiry events the event device refused for a while.", "") \
	C(idle_polls, TP_GRP_EVENTS, "idle_polls", TP_CTR_LCORE, "polls", \
	  "Polls (RX or dequeue) that found no work.", \
	  "Grows with time when idle.") \
	C(rx_yield_polls, TP_GRP_EVENTS, "rx_yield_polls", 0, "polls", \
	  "Inline packet path: RX polls skipped because the worker role " \
	  "of the same lcore found expiries (they come first).", \
	  "Grows while flows end in bulk.") \
	C(rx_held_polls, TP_GRP_EVENTS, "rx_held_polls", 0, "polls", \
	  "Inline packet path, wall clock: RX polls skipped " \
	  "because a worker handled an expiry more than a tick and a " \
	  "quarter after its deadline (RX then reads no packet for a " \
	  "quarter tick).", \
	  "Flows came faster than they end: backpressure.") \
	C(rx_paced_polls, TP_GRP_EVENTS, "rx_paced_polls", 0, "polls", \
	  "Inline packet path, wall clock: RX polls skipped " \
	  "because the record writer lags (more than " \
	  RTE_STR(TP_RX_PACE_BACKLOG) " records queued) and has taken " \
	  "fewer records since than RX made new flows.", \
	  "Records are written slower than flows end: backpressure.") \
	C(rx_spread_polls, TP_GRP_EVENTS, "rx_spread_polls", 0, "polls", \
	  "Inline packet path, wall clock: RX polls skipped " \
	  "because RX had made its share of new flows this tick (" \
	  RTE_STR(TP_RX_SPREAD_NUM) "/" RTE_STR(TP_RX_SPREAD_DEN) \
	  " of its recent average a tick, or 1/" \
	  RTE_STR(TP_RX_SPREAD_FLOOR) " of the average's fading peak, " \
	  "plus " RTE_STR(TP_RX_SPREAD_MIN) "), for " \
	  RTE_STR(TP_RX_SPREAD_TICKS) " ticks after a late expiry.", \
	  "New flows came in bursts while expiries ran late: their " \
	  "expiries are spread.") \
	C(port_ipackets, TP_GRP_PORTS, "ipackets", 0, "packets", \
	  "The ethdev counters summed over the ports: packets received.", \
	  "What never reached the pipeline shows only in port_*.") \
	C(port_imissed, TP_GRP_PORTS, "imissed", 0, "packets", \
	  "Packets the ports dropped before RX: RX queue full or, on a " \
	  "live interface, the kernel's drops (net_pcap: pcap_stats; " \
	  "net_af_xdp: XDP_STATISTICS rx_dropped only; net_af_packet: PACKET_STATISTICS " \
	  "from DPDK 25.11).", \
	  "Not in rx_pkts: these never reached the pipeline. Not a " \
	  "count where port_drops_unknown is above 0.") \
	C(port_rx_nombuf, TP_GRP_PORTS, "rx_nombuf", 0, "packets", \
	  "Packets the ports dropped: no mbuf.", "") \
	C(port_ierrors, TP_GRP_PORTS, "ierrors", 0, "packets", \
	  "Erroneous packets received.", "") \
	C(port_opackets, TP_GRP_PORTS, "opackets", 0, "packets", \
	  "Packets the ports sent.", "") \
	C(port_oerrors, TP_GRP_PORTS, "oerrors", 0, "packets", \
	  "Packets the ports failed to send.", "") \
	C(port_tx_pcap_short, TP_GRP_PORTS, "", 0, "bytes", \
	  "Bytes missing at exit from net_pcap tx_pcap files: frames " \
	  "counted as sent that a failed write lost (net_pcap ignores " \
	  "write errors; oerrors does not show them).", \
	  "Above 0: the run exits with status 3. Checked for a port with " \
	  "one tx_pcap file.") \
	C(port_drops_unknown, TP_GRP_PORTS, "drops_unknown", 0, "ports", \
	  "Ports whose driver does not count the kernel's drops in " \
	  "imissed: net_af_packet before DPDK 25.11 (it does not read " \
	  "PACKET_STATISTICS), net_af_xdp (not rx_ring_full).", \
	  "Above 0: port_imissed is no count of the packets lost before " \
	  "RX; --summary-json says input_drops known false.") \
	C(mbufs_pool, TP_GRP_MBUFS, "pool", 0, "mbufs", \
	  "The packet pool's size.", "") \
	C(mbufs_in_use, TP_GRP_MBUFS, "in_use", 0, "mbufs", \
	  "Mbufs out of the pool: in the device, rings, PMDs and caches.", \
	  "A gauge.") \
	C(records_written, TP_GRP_RECORDS, "written", 0, "records", \
	  "Flow records in the --flow-log file.", \
	  "flows_ended = records_written + records_not_written at exit " \
	  "when --flow-log is on (the exactly-once check).") \
	C(records_not_written, TP_GRP_RECORDS, "not_written", 0, "records", \
	  "Flow records lost to the --flow-log file: a write, flush or " \
	  "close failed (ENOSPC, EFBIG, EIO).", \
	  "Above 0: the run exits with status 3 (records lost).") \
	C(record_ring_waits, TP_GRP_RECORDS, "ring_waits", 0, "waits", \
	  "Times a worker found the record ring full and waited.", "") \
	C(record_lines_early, TP_GRP_RECORDS, "", 0, "lines", \
	  "Flow log lines formatted by the lcore that ended the flow, " \
	  "while the record writer lagged (its ring more than half full).", \
	  "The writer then only copies them; the file is the same.") \
	C(stats_json_failed, TP_GRP_RECORDS, "", 0, "lines", \
	  "--stats-json lines that could not be written (warned once).", \
	  "A diagnostic file: the run goes on and its status is not " \
	  "changed.") \
	C(ipfix_messages, TP_GRP_IPFIX, "messages", 0, "messages", \
	  "IPFIX Messages sent (with --ipfix or --ipfix-file only).", "") \
	C(ipfix_exported, TP_GRP_IPFIX, "records", 0, "records", \
	  "Flows sent to the collector, or in the --ipfix-file file " \
	  "(with --ipfix-flows uni, a flow's records go in one message, " \
	  "or the flow counts with the one holding its last).", \
	  "flows_ended = ipfix_exported + ipfix_not_sent (the " \
	  "exactly-once check).") \
	C(ipfix_data_records, TP_GRP_IPFIX, "data_records", 0, "records", \
	  "IPFIX data records sent: one per flow with --ipfix-flows bi, " \
	  "one per direction with packets with uni.", "") \
	C(ipfix_bytes, TP_GRP_IPFIX, "bytes", 0, "bytes", \
	  "Bytes of the IPFIX Messages.", "") \
	C(ipfix_templates, TP_GRP_IPFIX, "templates", 0, "sends", \
	  "Template (and options template) sends.", "") \
	C(ipfix_not_sent, TP_GRP_IPFIX, "not_sent", 0, "records", \
	  "Records counted as not sent: the queue was full, the " \
	  "collector down, a send failed, or (--ipfix-file) a write, " \
	  "flush or close failed.", "Includes ipfix_queue_full. To a " \
	  "collector a counted drop (exit 0); with --ipfix-file, above 0 " \
	  "makes the run exit with status 3 (records lost).") \
	C(ipfix_queue_full, TP_GRP_IPFIX, "queue_full", 0, "records", \
	  "Records not sent because the exporter's ring was full.", "") \
	C(ipfix_reconnects, TP_GRP_IPFIX, "reconnects", 0, "connections", \
	  "TCP connections to the collector after the first.", "") \
	C(ipfix_window_us, TP_GRP_IPFIX, "window_us", 0, "us", \
	  "First to last IPFIX Message with records.", "")

static const char *const tp_drop_names[TP_DROP_MAX] = {
	[TP_DROP_MALFORMED] = "malformed",
	[TP_DROP_TABLE_FULL] = "table_full",
	[TP_DROP_FWD] = "fwd_drop",
	[TP_DROP_TX] = "tx_full",
	[TP_DROP_SHUTDOWN] = "shutdown",
	[TP_DROP_EVDEV_FULL] = "evdev_full",
	[TP_DROP_NOT_ETHER] = "not_ether",
};

const char *
tp_counters_drop_name(unsigned int r)
{
	return r < TP_DROP_MAX ? tp_drop_names[r] : "?";
}

/* Element i of struct tp_counters' ended[]: reason TP_END_IDLE + i. */
static const char *
tp_ended_name(unsigned int i)
{
	return tp_flow_end_reason_name(TP_END_IDLE + i);
}

#define TP_ROW(f, grp, lbl, fl, u, d, h) \
	{ .name = #f, .off = offsetof(struct tp_counters, f), .n = 1, \
	  .elem = NULL, .group = grp, .label = lbl, .flags = fl, .unit = u, \
	  .desc = d, .how = h },
#define TP_ROWS(f, nb, el, grp, lbl, fl, u, d, h) \
	{ .name = #f, .off = offsetof(struct tp_counters, f), .n = nb, \
	  .elem = el, .group = grp, .label = lbl, .flags = fl, .unit = u, \
	  .desc = d, .how = h },

const struct tp_counter tp_counters_table[] = {
	TP_COUNTER_TABLE(TP_ROW, TP_ROWS)
};
const unsigned int tp_counters_rows = RTE_DIM(tp_counters_table);

const char *const tp_counters_group_name[TP_GRP_MAX] = {
	[TP_GRP_RX] = "rx",
	[TP_GRP_TX] = "tx",
	[TP_GRP_FLOWS] = "flows",
	[TP_GRP_TIMERS] = "timers",
	[TP_GRP_LATENESS] = "lateness",
	[TP_GRP_EVENTS] = "events",
	[TP_GRP_PORTS] = "ports",
	[TP_GRP_MBUFS] = "mbufs",
	[TP_GRP_RECORDS] = "records",
	[TP_GRP_IPFIX] = "ipfix",
};

/* Build-time layout checks: the rows cover struct tp_counters word for
 * word, each field is as long as its row says, and the slots are words.
 */
#define TP_WORDS(f, ...) + 1
#define TP_WORDS_N(f, nb, ...) + (nb)
#define TP_SIZE(f, ...) \
	RTE_BUILD_BUG_ON(sizeof(((struct tp_counters *)0)->f) != \
			 sizeof(uint64_t));
#define TP_SIZE_N(f, nb, ...) \
	RTE_BUILD_BUG_ON(sizeof(((struct tp_counters *)0)->f) != \
			 (nb) * sizeof(uint64_t));

enum { TP_COUNTER_WORDS = 0 TP_COUNTER_TABLE(TP_WORDS, TP_WORDS_N) };

static inline void
tp_counters_layout_check(void)
{
	TP_COUNTER_TABLE(TP_SIZE, TP_SIZE_N)
	RTE_BUILD_BUG_ON(sizeof(struct tp_counters) !=
			 TP_COUNTER_WORDS * sizeof(uint64_t));
	RTE_BUILD_BUG_ON(sizeof(struct tp_lcore_stats) % sizeof(uint64_t) != 0);
}

/* Add slot s to t word by word; the maximum is fixed up after. Padding
 * words (the struct is cache aligned) are zero in every slot.
 */
static void
tp_stats_add(struct tp_lcore_stats *t, const struct tp_lcore_stats *s)
{
	const uint64_t *src = (const uint64_t *)s;
	uint64_t *dst = (uint64_t *)t;
	uint64_t max = t->lat_max_ns;
	size_t i;

	tp_counters_layout_check();
	for (i = 0; i < sizeof(*s) / sizeof(uint64_t); i++)
		dst[i] += __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	t->lat_max_ns = RTE_MAX(max, __atomic_load_n(&s->lat_max_ns,
						     __ATOMIC_RELAXED));
}

void
tp_counters_sum(const struct tp_ctx *ctx, struct tp_lcore_stats *tot)
{
	unsigned int id;

	memset(tot, 0, sizeof(*tot));
	for (id = 0; id < RTE_MAX_LCORE; id++)
		if (ctx->lc[id].roles != 0)
			tp_stats_add(tot, &ctx->lc[id].stats);
}

uint64_t
tp_counters_ended(const struct tp_lcore_stats *t)
{
	uint64_t n = 0;
	unsigned int r;

	for (r = 0; r < TP_END_MAX; r++)
		n += t->flows_ended[r];
	return n;
}

uint64_t
tp_counters_lat_pct(const struct tp_lcore_stats *tot, unsigned int p)
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

void
tp_counters_from_slots(const struct tp_lcore_stats *t, struct tp_counters *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->rx_pkts = t->rx_pkts;
	c->rx_bytes = t->rx_bytes;
	c->rx_ipv4 = t->rx_ipv4;
	c->rx_ipv6 = t->rx_ipv6;
	c->rx_non_ip = t->rx_non_ip;
	c->rx_malformed = t->rx_malformed;
	c->rx_truncated = t->rx_truncated;
	c->rx_oversize = t->rx_oversize;
	/* TX drops are counted among the drops. */
	c->forwarded = t->tx_pkts - t->drops[TP_DROP_TX];
	c->monitored = t->monitored;
	for (i = 0; i < TP_DROP_MAX; i++) {
		c->drop[i] = t->drops[i];
		c->dropped += t->drops[i];
	}
	c->flows_ended = tp_counters_ended(t);
	c->flows_created = t->flows_created;
	c->flows_active = t->flows_created - c->flows_ended;
	memcpy(c->ended, &t->flows_ended[TP_END_IDLE], sizeof(c->ended));
	c->flow_busy_retries = t->flow_busy_retry;
	c->flows_ended_closed = t->flows_ended_closed;
	c->timers_armed = t->tim_armed + t->tim_rearmed;
	c->timers_armed_first = t->tim_armed;
	c->timers_rearmed = t->tim_rearmed;
	c->timers_expired = t->tim_expired;
	c->timers_cancelled = t->tim_cancelled;
	c->timers_late_cancels = t->tim_cancel_late;
	c->timers_arm_failures = t->tim_arm_fail;
	c->lateness_p50_us = tp_counters_lat_pct(t, 50);
	c->lateness_p99_us = tp_counters_lat_pct(t, 99);
	c->lateness_max_us = t->lat_max_ns / 1000;
	memcpy(c->lateness_hist_log2_us, t->lat_hist,
	       sizeof(c->lateness_hist_log2_us));
	c->events_enqueued = t->ev_enq;
	c->events_in_flight = t->ev_enq - t->ev_deq_pkt;
	c->enqueue_retries = t->ev_enq_retry;
	c->idle_polls = t->idle_polls;
	c->rx_yield_polls = t->rx_yield_polls;
	c->rx_held_polls = t->rx_held_polls;
	c->rx_paced_polls = t->rx_paced_polls;
	c->rx_spread_polls = t->rx_spread_polls;
}

bool
tp_counters_read(const struct tp_ctx *ctx, struct tp_counters *c,
		 struct tp_lcore_stats *slots)
{
	struct rte_event_timer_adapter_stats as;
	const struct tp_adapter *ta = &ctx->ta;
	struct tp_lcore_stats t;
	struct tp_ipfix_stats x;
	struct rte_eth_stats s;
	bool ipfix;
	uint16_t i;

	tp_counters_sum(ctx, &t);
	if (slots != NULL)
		*slots = t;
	tp_counters_from_slots(&t, c);
	c->flows_in_table = __atomic_load_n(&ctx->ft.nb_live,
					    __ATOMIC_RELAXED);
	c->flows_capacity = ctx->ft.capacity;
	c->tick_us = ctx->cfg->tick_ns / 1000;
	memset(&as, 0, sizeof(as));
	if (ta->ops != NULL && ta->h != NULL)
		ta->ops->stats_get(ta->h, &as);
	c->adapter_expiries = as.evtim_exp_count;
	c->adapter_retries = as.evtim_retry_count;
	/* The PMDs' own counters: what never reached the pipeline
	 * (imissed, rx_nombuf, ierrors) shows only here.
	 */
	for (i = 0; i < ctx->eth.nb_ports; i++) {
		if (rte_eth_stats_get(ctx->eth.ports[i], &s) != 0)
			continue;
		c->port_ipackets += s.ipackets;
		c->port_imissed += s.imissed;
		c->port_rx_nombuf += s.rx_nombuf;
		c->port_ierrors += s.ierrors;
		c->port_opackets += s.opackets;
		c->port_oerrors += s.oerrors;
	}
	c->port_tx_pcap_short = ctx->tx_pcap_short;
	c->port_drops_unknown = ctx->live.drops_unknown;
	if (ctx->eth.pool != NULL) {
		c->mbufs_pool = ctx->eth.pool->size;
		c->mbufs_in_use = rte_mempool_in_use_count(ctx->eth.pool);
	}
	if (ctx->rec.log_on)
		tp_sink_counts(&ctx->rec.log, &c->records_written,
			       &c->records_not_written);
	c->stats_json_failed = ctx->sj.failed_lines;
	c->record_ring_waits = ctx->rec.ring_full;
	c->record_lines_early = tp_record_lines_early(ctx);
	ipfix = tp_ipfix_stats_get(ctx->ipfix, &x);
	c->ipfix_messages = x.messages;
	c->ipfix_exported = x.records;
	c->ipfix_data_records = x.data_records;
	c->ipfix_bytes = x.bytes;
	c->ipfix_templates = x.templates;
	c->ipfix_not_sent = x.not_sent;
	c->ipfix_queue_full = x.queue_full;
	c->ipfix_reconnects = x.reconnects;
	c->ipfix_window_us = x.window_us;
	return ipfix;
}

void
tp_counters_each(const struct tp_counters *c, unsigned int groups,
		 tp_counter_fn fn, void *arg)
{
	const struct tp_counter *row;
	unsigned int i, e;
	char key[64];

	for (i = 0; i < tp_counters_rows; i++) {
		row = &tp_counters_table[i];
		if ((groups & TP_GRP_BIT(row->group)) == 0)
			continue;
		if (row->n == 1 || row->elem == NULL) {
			fn(arg, row->name, (const uint64_t *)
			   ((const char *)c + row->off), row->n == 1 ? 0 :
			   row->n);
			continue;
		}
		for (e = 0; e < row->n; e++) {
			snprintf(key, sizeof(key), "%s_%s", row->name,
				 row->elem(e));
			fn(arg, key, (const uint64_t *)((const char *)c +
			   row->off) + e, 0);
		}
	}
}

/*
 * docs/counters.inc, included by docs/reference.rst: the docs test checks
 * that the file equals this output.
 */
void
tp_counters_print_rst(void)
{
	const struct tp_counter *row;
	unsigned int i, e;

	printf(".. Generated by: dpdk-timer_pipeline -- --help-counters-rst\n"
	       ".. (do not edit; the docs test compares it with the binary)"
	       "\n\n.. list-table::\n   :header-rows: 1\n"
	       "   :widths: 26 14 10 50\n\n"
	       "   * - Key\n     - Screen\n     - Unit\n"
	       "     - Meaning\n");
	for (i = 0; i < tp_counters_rows; i++) {
		row = &tp_counters_table[i];
		printf("   * - ``%s%s``\n     - %s", row->name,
		       row->elem != NULL ? "_<reason>" : "",
		       tp_counters_group_name[row->group]);
		if (row->label[0] != '\0')
			printf(" ``%s``", row->label);
		else if (row->elem != NULL) {
			printf(" ``%s``", row->elem(0));
			for (e = 1; e < row->n; e++)
				printf(", ``%s``", row->elem(e));
		} else
			printf(" (not shown)");
		printf("\n     - %s\n     - %s%s%s\n", row->unit, row->desc,
		       row->how[0] != '\0' ? " " : "", row->how);
	}
}
