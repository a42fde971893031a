/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The option table, and tp_option_set(), which stores one option's value
 * as tp_option_parse.c's strict parsers read it, for the command line
 * (tp_args.c) and INI files (tp_config_file.c). Setup only, before EAL
 * starts; the table is const.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eventdev.h>

#include "setup/tp_config.h"
#include "setup/tp_option.h"
#include "setup/tp_option_parse.h"

#define TP_CFG_OFF(m) offsetof(struct tp_config, m)
#define TP_CFG_SZ(m) sizeof(((struct tp_config *)0)->m)
#define TP_NS_PER_S UINT64_C(1000000000)
#define TP_NS_PER_US UINT64_C(1000)

static const struct tp_enum_name tp_sched_names[] = {
	{ "atomic", RTE_SCHED_TYPE_ATOMIC, NULL },
	{ "ordered", RTE_SCHED_TYPE_ORDERED, NULL },
	{ "parallel", RTE_SCHED_TYPE_PARALLEL, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_adapter_names[] = {
	{ "direct", TP_ADAPTER_DIRECT, NULL },
	{ "rte", TP_ADAPTER_RTE, NULL },
	/* The first name of our adapter; it never held a skiplist. */
	{ "skiplist", TP_ADAPTER_DIRECT,
	  "'skiplist' is the old name of the 'direct' adapter" },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_refresh_names[] = {
	{ "lazy", TP_REFRESH_LAZY, NULL },
	{ "every-packet", TP_REFRESH_EVERY_PACKET, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_full_names[] = {
	{ "evict", TP_FULL_EVICT, NULL },
	{ "drop", TP_FULL_DROP, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_fwd_names[] = {
	{ "pair", TP_FWD_PAIR, NULL },
	{ "loop", TP_FWD_LOOP, NULL },
	{ "drop", TP_FWD_DROP, NULL },
	{ "monitor", TP_FWD_MONITOR, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_path_names[] = {
	{ "auto", TP_PATH_AUTO, NULL },
	{ "events", TP_PATH_EVENTS, NULL },
	{ "inline", TP_PATH_INLINE, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_malformed_names[] = {
	{ "drop", TP_MALFORMED_DROP, NULL },
	{ "forward", TP_MALFORMED_FORWARD, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_format_names[] = {
	{ "json", TP_LOG_JSON, NULL },
	{ "csv", TP_LOG_CSV, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_ipfix_transport_names[] = {
	{ "udp", TP_IPFIX_UDP, NULL },
	{ "tcp", TP_IPFIX_TCP, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_ipfix_flows_names[] = {
	{ "bi", TP_IPFIX_BI, NULL },
	{ "uni", TP_IPFIX_UNI, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_ipfix_full_names[] = {
	{ "auto", TP_IPFIX_FULL_AUTO, NULL },
	{ "wait", TP_IPFIX_FULL_WAIT, NULL },
	{ "drop", TP_IPFIX_FULL_DROP, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_clock_names[] = {
	{ "wall", TP_CLOCK_WALL, NULL },
	{ "capture", TP_CLOCK_CAPTURE, NULL },
	{ NULL, 0, NULL },
};

static const struct tp_enum_name tp_prio_names[] = {
	{ "highest", 1, NULL },
	{ "normal", 0, NULL },
	{ NULL, 0, NULL },
};

#define TP_UINT(n, s, sec, m, lo, hi, a, h) \
	{ n, s, sec, TP_OT_UINT, TP_CFG_OFF(m), TP_CFG_SZ(m), 0, lo, hi, \
	  NULL, a, h }
#define TP_DUR(n, sec, m, lo, hi, h) \
	{ n, 0, sec, TP_OT_DURATION, TP_CFG_OFF(m), TP_CFG_SZ(m), 0, lo, hi, \
	  NULL, "DURATION", h }
#define TP_ENUM(n, sec, m, names, a, h) \
	{ n, 0, sec, TP_OT_ENUM, TP_CFG_OFF(m), TP_CFG_SZ(m), 0, 0, 0, \
	  names, a, h }
#define TP_BOOL(n, sec, m, h) \
	{ n, 0, sec, TP_OT_BOOL, TP_CFG_OFF(m), TP_CFG_SZ(m), 0, 0, 0, \
	  NULL, NULL, h }

#define TP_TMO_MIN (TP_NS_PER_S / 1000)		/* 1 ms */
#define TP_TMO_MAX_NS (TP_NS_PER_S * 7 * 86400)	/* 7 days */

/* The option table. 8< */
const struct tp_option tp_options[] = {
	{ "portmask", 'p', "ports", TP_OT_PORTMASK, TP_CFG_OFF(portmask),
	  TP_CFG_SZ(portmask), 0, 0, 0, NULL, "PORTMASK",
	  "hexadecimal mask of the ports to use" },
	TP_UINT("rx-queues", 0, "ports", rx_queues, 0, 64, "N",
		"RX queues per port (RSS where supported), 0 = one per RX lcore"),
	TP_UINT("rxd", 0, "ports", nb_rxd, 64, 16384, "N",
		"RX descriptors per queue"),
	TP_UINT("txd", 0, "ports", nb_txd, 64, 16384, "N",
		"TX descriptors per queue"),
	TP_UINT("burst", 0, "ports", burst, 1, 128, "N",
		"RX, dequeue and TX burst size"),
	TP_UINT("mbufs", 0, "ports", nb_mbufs, 0, 16 * 1024 * 1024, "N",
		"mbufs in the pool, 0 = sized for ports, events and captures"),
	TP_ENUM("fwd-mode", "ports", fwd_mode, tp_fwd_names, "MODE",
		"pair (0<->1, 2<->3), loop (same port), drop (counted as "
		"drop_fwd_drop) or monitor (no TX: metered, counted as "
		"monitored; for live interfaces)"),
	TP_ENUM("packet-path", "ports", packet_path, tp_path_names, "PATH",
		"events (every packet crosses the event device to a worker, "
		"as in l2fwd-event), inline (drop and monitor modes only: "
		"the RX lcore meters the packet and frees it; only timer "
		"events cross; on the wall clock RX waits while expiries run "
		"late) or auto (inline in drop and monitor modes)"),
	TP_BOOL("mac-updating", "ports", mac_updating,
		"rewrite source/destination MAC like l2fwd"),
	TP_ENUM("malformed", "ports", malformed, tp_malformed_names, "POLICY",
		"malformed packets: drop or forward (always counted)"),
	{ "rx-lcores", 0, "lcores", TP_OT_LCORES, TP_CFG_OFF(rx_lcores), 0,
	  TP_CFG_OFF(rx_lcores_set), 0, 0, NULL, "LIST",
	  "lcores polling RX queues (auto: the main lcore)" },
	{ "worker-lcores", 0, "lcores", TP_OT_LCORES,
	  TP_CFG_OFF(worker_lcores), 0, TP_CFG_OFF(worker_lcores_set), 0, 0,
	  NULL, "LIST",
	  "lcores running the worker loop (auto: the other non-service "
	  "lcores, or the main lcore alone)" },
	TP_UINT("idle-sleep-us", 0, "lcores", idle_sleep_us, 0, 1000000, "US",
		"sleep this long when a poll finds no work, 0 = busy poll"),
	TP_ENUM("eventq-sched", "eventdev", sched_type, tp_sched_names, "TYPE",
		"packet queue scheduling: atomic, ordered or parallel"),
	TP_UINT("events", 0, "eventdev", nb_events, 64, 1048576, "N",
		"events in flight (nb_events_limit, clamped to the device)"),
	TP_UINT("rx-threshold-pct", 0, "eventdev", rx_threshold_pct, 10, 100,
		"PCT", "RX ports' new_event_threshold, % of --events"),
	TP_ENUM("timer-priority", "eventdev", timer_prio_high, tp_prio_names,
		"PRIO", "timer queue priority: highest or normal"),
	TP_ENUM("timer-adapter", "timers", adapter, tp_adapter_names, "NAME",
		"direct (lib_timer_adapter) or rte (DPDK's adapter)"),
	TP_DUR("timer-tick", "timers", tick_ns, TP_NS_PER_US, TP_NS_PER_S,
	       "adapter tick (timer resolution)"),
	TP_ENUM("refresh", "timers", refresh, tp_refresh_names, "MODE",
		"lazy (re-arm at expiry) or every-packet (cancel + arm)"),
	TP_UINT("timers", 0, "timers", nb_timers, 0, 64 * 1024 * 1024, "N",
		"adapter timers (nb_timers), 0 = one per flow slot"),
	TP_DUR("tmo-tcp-syn", "timeouts", tmo_ns[TP_TMO_TCP_SYN], TP_TMO_MIN,
	       TP_TMO_MAX_NS, "idle timeout of a TCP flow seen in one direction"),
	TP_DUR("tmo-tcp-est", "timeouts", tmo_ns[TP_TMO_TCP_EST], TP_TMO_MIN,
	       TP_TMO_MAX_NS, "idle timeout of an established TCP flow"),
	TP_DUR("tmo-tcp-closing", "timeouts", tmo_ns[TP_TMO_TCP_CLOSING],
	       TP_TMO_MIN, TP_TMO_MAX_NS,
	       "idle timeout after FIN or RST (ends as end of flow)"),
	TP_DUR("tmo-udp", "timeouts", tmo_ns[TP_TMO_UDP], TP_TMO_MIN,
	       TP_TMO_MAX_NS, "idle timeout of a UDP flow"),
	TP_DUR("tmo-icmp", "timeouts", tmo_ns[TP_TMO_ICMP], TP_TMO_MIN,
	       TP_TMO_MAX_NS, "idle timeout of an ICMP/ICMPv6 flow"),
	TP_DUR("tmo-other", "timeouts", tmo_ns[TP_TMO_OTHER], TP_TMO_MIN,
	       TP_TMO_MAX_NS, "idle timeout of other IP protocols"),
	TP_DUR("tmo-active", "timeouts", tmo_ns[TP_TMO_ACTIVE], TP_TMO_MIN,
	       TP_TMO_MAX_NS, "active timeout: a flow ends this long after "
	       "its first packet"),
	TP_UINT("flows", 0, "flows", nb_flows, 16, 64 * 1024 * 1024, "N",
		"flow table capacity"),
	TP_ENUM("table-full", "flows", table_full, tp_full_names, "POLICY",
		"new flow in a full table: evict (oldest idle) or drop"),
	{ "flow-log", 0, "records", TP_OT_PATH, TP_CFG_OFF(flow_log),
	  TP_CFG_SZ(flow_log), 0, 0, 0, NULL, "FILE",
	  "write one record per ended flow to FILE" },
	{ "summary-json", 0, "records", TP_OT_PATH, TP_CFG_OFF(summary_json),
	  TP_CFG_SZ(summary_json), 0, 0, 0, NULL, "FILE",
	  "at exit, write the final counters and the exactly-once check "
	  "to FILE as one JSON object (for tests and scripts)" },
	TP_ENUM("flow-log-format", "records", log_format, tp_format_names,
		"FMT", "flow record format: json (lines) or csv"),
	TP_UINT("file-cache-mb", 0, "records", file_cache_mb, 0, 1048576,
		"MB", "page cache a record file (--flow-log, --ipfix-file) "
		"keeps: its pages further back from its end leave once "
		"written back (0: all of them, written back as it grows)"),
	TP_UINT("trace-timers", 0, "records", trace_timers, 0, 1000000, "N",
		"print the timer life of the first N flows"),
	{ "ipfix", 0, "ipfix", TP_OT_PATH, TP_CFG_OFF(ipfix_collector),
	  TP_CFG_SZ(ipfix_collector), 0, 0, 0, NULL, "HOST[:PORT]",
	  "export one IPFIX biflow record per ended flow to this collector "
	  "(port 4739 if omitted; IPv6: [ADDR]:PORT)" },
	TP_ENUM("ipfix-transport", "ipfix", ipfix_transport,
		tp_ipfix_transport_names, "PROTO",
		"IPFIX transport: udp or tcp (reconnects with back-off)"),
	TP_ENUM("ipfix-flows", "ipfix", ipfix_flows, tp_ipfix_flows_names,
		"MODE", "bi: one RFC 5103 biflow record per flow (nfdump); "
		"uni: one record per direction with packets, reply 5-tuple "
		"swapped, for collectors without RFC 5103 (pmacct)"),
	{ "ipfix-file", 0, "ipfix", TP_OT_PATH, TP_CFG_OFF(ipfix_file),
	  TP_CFG_SZ(ipfix_file), 0, 0, 0, NULL, "FILE",
	  "write the IPFIX export to FILE (RFC 5655) instead of a collector" },
	TP_UINT("ipfix-domain", 0, "ipfix", ipfix_domain, 0, UINT32_MAX, "N",
		"IPFIX observation domain id"),
	TP_DUR("ipfix-template-refresh", "ipfix", ipfix_tmpl_refresh_ns,
	       TP_NS_PER_S, TP_NS_PER_S * 86400,
	       "UDP: resend templates and exporter statistics this often"),
	TP_UINT("ipfix-queue", 0, "ipfix", ipfix_queue, 64, 16777216, "N",
		"records queued for the IPFIX exporter thread"),
	TP_ENUM("ipfix-queue-full", "ipfix", ipfix_queue_full,
		tp_ipfix_full_names, "POLICY",
		"a record that finds that queue full: wait (for room, holding "
		"up the lcore that hands records over, and with it its RX), "
		"drop (counted as not sent), or auto: wait when every port "
		"reads capture files, else drop"),
	{ "trace-flow", 0, "records", TP_OT_FLOWSEL, TP_CFG_OFF(trace_flow),
	  TP_CFG_SZ(trace_flow), 0, 0, 0, NULL, "ADDR[:PORT]",
	  "also trace every flow with this address and/or port at either "
	  "end: 10.0.0.1, 10.0.0.1:80, [2001:db8::1]:53, any:443" },
	TP_BOOL("replay-pace", "clock", replay_pace,
		"deliver packets at their capture timestamps (net_pcap)"),
	TP_UINT("replay-speed", 0, "clock", replay_speed, 1, 1000000, "X",
		"replay X times faster than recorded (implies --replay-pace), "
		"every timeout and the tick divided by X; record times stay "
		"in capture time"),
	TP_ENUM("clock", "clock", clock, tp_clock_names, "CLOCK",
		"what ages flows: wall (real time) or capture (the capture's "
		"timestamps: read at full speed, aged as if paced; direct "
		"adapter, capture files only)"),
	TP_UINT("stats-period", 'T', "stats", stats_period_s, 0, 86400, "S",
		"stats screen period in seconds, 0 = off"),
	{ "stats-json", 0, "stats", TP_OT_PATH, TP_CFG_OFF(stats_json),
	  TP_CFG_SZ(stats_json), 0, 0, 0, NULL, "FILE",
	  "append the totals to FILE as one JSON line per stats period "
	  "(needs -T; tools/plot_run.py draws them)" },
	TP_UINT("duration", 0, "run", duration_s, 0, 31536000, "S",
		"stop after S seconds, 0 = run until SIGINT/SIGTERM"),
	TP_BOOL("stop-when-done", "run", stop_when_done,
		"stop once RX is idle and every flow has ended"),
	TP_BOOL("flush-at-eof", "run", flush_at_eof,
		"stop once every rx_pcap capture has been read to its end, "
		"ending the flows still live as forced end instead of "
		"waiting for their timeouts (what softflowd -r does at the "
		"end of its file); every RX port must read capture files"),
	TP_BOOL("probe-ports", "run", probe_ports,
		"set up and start the ports, print each one's driver and "
		"queues, stop and exit 0 without reading a packet "
		"(scripts/run_live.sh picks its input driver with it)"),
	TP_UINT("fault-worker-delay-us", 0, "debug", fault_worker_delay_us, 0,
		100000, "US", "testing aid: workers spin US per dequeued "
		"burst (slow workers, event device backpressure)"),
	TP_UINT("fault-writer-delay-us", 0, "debug", fault_writer_delay_us, 0,
		100000, "US", "testing aid: the record writer service spins "
		"US per call that took records (a slow sink: RX paced by "
		"the writer)"),
};
/* >8 End of the option table. */

const unsigned int tp_nb_options = RTE_DIM(tp_options);
_Static_assert(RTE_DIM(tp_options) == TP_NB_OPTIONS,
	       "TP_NB_OPTIONS (tp_option.h) is not the table's size");

const char *
tp_option_sched_name(uint8_t sched)
{
	const struct tp_enum_name *n;

	for (n = tp_sched_names; n->name != NULL; n++)
		if (n->value == sched)
			return n->name;
	return "?";
}

static void
tp_store_uint(void *dst, size_t size, uint64_t v)
{
	switch (size) {
	case 1:
		*(uint8_t *)dst = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)dst = (uint16_t)v;
		break;
	case 4:
		*(uint32_t *)dst = (uint32_t)v;
		break;
	default:
		*(uint64_t *)dst = v;
		break;
	}
}

uint64_t
tp_option_load_uint(const void *src, size_t size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)src;
	case 2:
		return *(const uint16_t *)src;
	case 4:
		return *(const uint32_t *)src;
	default:
		return *(const uint64_t *)src;
	}
}

static void
tp_enum_list(const struct tp_enum_name *n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; n->name != NULL && off < len; n++)
		if (n->old_name_notice == NULL)
			off += snprintf(buf + off, len - off, "%s%s",
					off == 0 ? "" : "|", n->name);
}

/*
 * Store one option value. 'where' names the source for the message:
 * "option '--x'" or "file.ini: [sec] key 'x'".
 */
int
tp_option_set(struct tp_config *cfg, const struct tp_option *o,
	      const char *val, const char *where)
{
	char *base = (char *)cfg;
	const struct tp_enum_name *n;
	char list[128];
	uint64_t v;
	bool b;
	int ret;

	switch (o->type) {
	case TP_OT_UINT:
		if (tp_option_parse_u64(val, 10, &v) < 0)
			return tp_config_error("%s: '%s' is not an unsigned "
					       "integer", where, val);
		if (v < o->min || v > o->max)
			return tp_config_error("%s: %" PRIu64 " is out of range "
					       "%" PRIu64 "..%" PRIu64, where,
					       v, o->min, o->max);
		tp_store_uint(base + o->offset, o->size, v);
		return 0;
	case TP_OT_DURATION:
		ret = tp_option_parse_duration(val, &v);
		if (ret < 0)
			return tp_config_error("%s: '%s' is not a duration "
					       "(e.g. 30s, 500ms, 1.5m)", where,
					       val);
		if (v < o->min || v > o->max)
			return tp_config_error("%s: '%s' is out of range "
					       "%" PRIu64 "ns..%" PRIu64 "s",
					       where, val, o->min,
					       o->max / TP_NS_PER_S);
		tp_store_uint(base + o->offset, o->size, v);
		return 0;
	case TP_OT_ENUM:
		for (n = o->names; n->name != NULL; n++) {
			if (strcmp(val, n->name) == 0) {
				tp_store_uint(base + o->offset, o->size,
					      n->value);
				if (n->old_name_notice != NULL)
					fprintf(stderr, "%s: %s\n", where,
						n->old_name_notice);
				return 0;
			}
		}
		tp_enum_list(o->names, list, sizeof(list));
		return tp_config_error("%s: unknown value '%s' (one of %s)",
				       where, val, list);
	case TP_OT_BOOL:
		if (tp_option_parse_bool(val, &b) < 0)
			return tp_config_error("%s: '%s' is not yes or no",
					       where, val);
		*(bool *)(base + o->offset) = b;
		return 0;
	case TP_OT_PATH:
		if (*val == '\0' || strlen(val) >= o->size)
			return tp_config_error("%s: empty or too long file "
					       "name", where);
		strcpy(base + o->offset, val);
		return 0;
	case TP_OT_PORTMASK:
		if (strncmp(val, "0x", 2) == 0 || strncmp(val, "0X", 2) == 0)
			val += 2;
		if (tp_option_parse_u64(val, 16, &v) < 0 || v == 0)
			return tp_config_error("%s: '%s' is not a non-zero "
					       "hexadecimal port mask", where,
					       val);
		cfg->portmask = v;
		return 0;
	case TP_OT_FLOWSEL:
		if (tp_option_parse_flowsel(val, (struct tp_flow_sel *)
				     (base + o->offset)) < 0)
			return tp_config_error("%s: '%s' is not ADDR, "
					       "ADDR:PORT, [ADDR6]:PORT or "
					       "any:PORT", where, val);
		strcpy(((struct tp_flow_sel *)(base + o->offset))->text, val);
		return 0;
	case TP_OT_LCORES:
		ret = tp_option_parse_lcores(val, (bool *)(base + o->offset));
		if (ret < 0)
			return tp_config_error("%s: '%s' is not an lcore list "
					       "like 0,2-3 (ids below %d)",
					       where, val, RTE_MAX_LCORE);
		*(bool *)(base + o->set_offset) = true;
		return 0;
	}
	return -EINVAL;
}
