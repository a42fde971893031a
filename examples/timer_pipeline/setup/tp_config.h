/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CONFIG_H_
#define _TP_CONFIG_H_

/*
 * The application's configuration: defaults, the option table shared by the
 * command line and the INI file (rte_cfgfile), strict parsers, the usage text
 * and the dump of the effective configuration.
 *
 * The configuration is parsed and validated once, before rte_eal_init(), and
 * is read-only (const) from then on.
 */

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_config.h>

/*
 * Exit statuses besides EXIT_SUCCESS and EXIT_FAILURE; the table that
 * describes them all, for --help and docs/exit-status.inc, is
 * tp_exit_statuses[] (tp_config_text.c).
 */
/** Exit status for a bad command line or configuration file. */
#define TP_EXIT_USAGE 2
/** Exit status when a record file or tx_pcap lost data (a full disk). */
#define TP_EXIT_LOST 3

/** Idle and active timeout classes; a flow uses one of the first six. */
enum tp_tmo_class {
	TP_TMO_TCP_SYN,		/**< TCP, only the initiator has spoken. */
	TP_TMO_TCP_EST,		/**< TCP, both sides seen, no FIN/RST. */
	TP_TMO_TCP_CLOSING,	/**< TCP after FIN or RST. */
	TP_TMO_UDP,		/**< UDP. */
	TP_TMO_ICMP,		/**< ICMP and ICMPv6. */
	TP_TMO_OTHER,		/**< Any other IP protocol. */
	TP_TMO_ACTIVE,		/**< Active timeout: longest life of a flow. */
	TP_TMO_MAX
};

/** Clock that ages flows (--clock). */
enum tp_clock_kind {
	TP_CLOCK_WALL,		/**< The TSC: real time. */
	TP_CLOCK_CAPTURE,	/**< The capture's timestamps (tp_clock.h). */
};

/** Which timer adapter implementation drives the flow timers. */
enum tp_adapter_kind {
	TP_ADAPTER_DIRECT,	/**< lib_timer_adapter (timer_adapter_*). */
	TP_ADAPTER_RTE,		/**< DPDK's rte_event_timer_adapter. */
};

/** How packets refresh a flow's timer. */
enum tp_refresh {
	TP_REFRESH_LAZY,	 /**< Stamp last-seen; re-arm at expiry. */
	TP_REFRESH_EVERY_PACKET, /**< Cancel and re-arm on every packet. */
};

/** What to do with a new flow when the flow table is full. */
enum tp_table_full {
	TP_FULL_EVICT,		/**< End the oldest idle flow (sampled). */
	TP_FULL_DROP,		/**< Drop the packet. */
};

/** Where workers send packets. */
enum tp_fwd_mode {
	TP_FWD_PAIR,		/**< Port pairs 0<->1, 2<->3 (odd last: itself). */
	TP_FWD_LOOP,		/**< Back out of the receiving port. */
	TP_FWD_DROP,		/**< Count and free, as a drop (fwd_drop). */
	TP_FWD_MONITOR,		/**< Meter and free: no TX (monitored). */
};

/** Whether packets cross the event device to a worker. */
enum tp_packet_path {
	TP_PATH_AUTO,		/**< Inline: drop, monitor, capture clock. */
	TP_PATH_EVENTS,		/**< Always, as l2fwd-event does. */
	TP_PATH_INLINE,		/**< Never: RX meters (drop, monitor). */
};

/** Malformed packet policy. */
enum tp_malformed {
	TP_MALFORMED_DROP,	/**< Count and free on the RX lcore. */
	TP_MALFORMED_FORWARD,	/**< Count and forward without a flow. */
};

/** Flow record file format. */
enum tp_log_format {
	TP_LOG_JSON,		/**< One JSON object per line. */
	TP_LOG_CSV,		/**< CSV with a header line. */
};

/** What one ended flow is exported as (--ipfix-flows). */
enum tp_ipfix_flows {
	TP_IPFIX_BI,		/**< One RFC 5103 biflow record. */
	TP_IPFIX_UNI,		/**< A record per direction with packets. */
};

/** IPFIX transport to the collector (--ipfix-transport). */
enum tp_ipfix_transport {
	TP_IPFIX_UDP,		/**< UDP, templates refreshed periodically. */
	TP_IPFIX_TCP,		/**< TCP, reconnecting with back-off. */
};

/** A record that finds the exporter's queue full (--ipfix-queue-full). */
enum tp_ipfix_full {
	TP_IPFIX_FULL_AUTO,	/**< wait if every port reads captures. */
	TP_IPFIX_FULL_WAIT,	/**< Wait for room (holds up the drain). */
	TP_IPFIX_FULL_DROP,	/**< Count it as not sent. */
};

/** Maximum length of --ipfix HOST:PORT. */
#define TP_IPFIX_COLLECTOR_LEN 280

/** Maximum length of the [eal] args value (rte_cfgfile's value limit). */
#define TP_EAL_ARGS_LEN 256

/** --trace-flow: trace the flows that have this address and/or port at
 * either end (learning aid; see docs/reference.rst).
 */
struct tp_flow_sel {
	uint8_t ipver;			/**< 4 or 6; 0: any address. */
	uint8_t addr[16];		/**< IPv4 uses the first 4 bytes. */
	uint16_t port;			/**< L4 port (host order); 0: any. */
	char text[64];			/**< As given; "" = no selection. */
};

/** Effective configuration; defaults in tp_config_defaults(). */
struct tp_config {
	uint64_t portmask;		/**< Ports to use (bit = port id). */
	uint32_t stats_period_s;	/**< -T: stats screen period, 0 = off. */
	uint32_t idle_sleep_us;		/**< Sleep when a poll found nothing. */
	uint8_t sched_type;		/**< RTE_SCHED_TYPE_* of packet queue. */
	uint32_t nb_events;		/**< nb_events_limit requested. */
	uint32_t rx_threshold_pct;	/**< RX ports' share of nb_events. */
	bool timer_prio_high;		/**< Timer queue at highest priority. */
	enum tp_adapter_kind adapter;	/**< Adapter implementation. */
	uint64_t tick_ns;		/**< Adapter tick. */
	enum tp_refresh refresh;	/**< Refresh mode. */
	uint32_t nb_timers;		/**< Adapter timers, 0 = one per slot. */
	uint64_t tmo_ns[TP_TMO_MAX];	/**< Timeouts per class. */
	uint32_t nb_flows;		/**< Flow table capacity. */
	enum tp_table_full table_full;	/**< Full table policy. */
	char flow_log[PATH_MAX];	/**< Flow record file, "" = none. */
	char summary_json[PATH_MAX];	/**< Exit summary (JSON), "" = none. */
	enum tp_log_format log_format;	/**< Flow record format. */
	uint32_t file_cache_mb;	/**< Page cache a record file keeps (MB). */
	bool replay_pace;		/**< Honour capture timestamps. */
	enum tp_clock_kind clock;	/**< --clock: what ages flows. */
	uint32_t replay_speed;		/**< --replay-speed: pace x this. */
	uint32_t trace_timers;		/**< Trace the first N flows' timers. */
	char ipfix_collector[TP_IPFIX_COLLECTOR_LEN]; /**< --ipfix, "" = off. */
	enum tp_ipfix_transport ipfix_transport; /**< UDP or TCP. */
	enum tp_ipfix_flows ipfix_flows; /**< Biflow or per direction. */
	char ipfix_file[PATH_MAX];	/**< --ipfix-file, "" = none. */
	uint32_t ipfix_domain;		/**< Observation domain id. */
	uint64_t ipfix_tmpl_refresh_ns;	/**< UDP template refresh period. */
	uint32_t ipfix_queue;		/**< Records queued for the exporter. */
	enum tp_ipfix_full ipfix_queue_full; /**< When that queue is full. */
	struct tp_flow_sel trace_flow;	/**< Also trace flows matching this. */
	char stats_json[PATH_MAX];	/**< Stats time series, "" = none. */
	uint16_t rx_queues;		/**< RX queues per port, 0 = auto. */
	uint16_t nb_rxd;		/**< RX descriptors per queue. */
	uint16_t nb_txd;		/**< TX descriptors per queue. */
	uint16_t burst;			/**< RX/dequeue burst size. */
	enum tp_fwd_mode fwd_mode;	/**< Forwarding mode. */
	bool mac_updating;		/**< Rewrite MACs l2fwd-style. */
	enum tp_packet_path packet_path; /**< Packets as events or inline. */
	enum tp_malformed malformed;	/**< Malformed packet policy. */
	uint32_t nb_mbufs;		/**< Mbuf pool size, 0 = auto. */
	uint32_t duration_s;		/**< Stop after this long, 0 = never. */
	bool stop_when_done;		/**< Stop when input ended, flows aged. */
	bool probe_ports;		/**< Start the ports, then exit. */
	bool flush_at_eof;		/**< Stop when every capture is read,
					 * ending live flows (softflowd -r). */
	bool rx_lcores_set;		/**< --rx-lcores was given. */
	bool worker_lcores_set;		/**< --worker-lcores was given. */
	bool rx_lcores[RTE_MAX_LCORE];	/**< RX role per lcore id. */
	bool worker_lcores[RTE_MAX_LCORE]; /**< Worker role per lcore id. */
	char config_file[PATH_MAX];	/**< --config FILE, "" = none. */
	bool dump_config;		/**< --dump-config: print and exit. */
	bool help_rst;			/**< --help-rst: option table, exit. */
	bool help_counters_rst;		/**< Hidden: counter table, exit. */
	bool help_exit_rst;		/**< Hidden: exit statuses, exit. */
	bool eal_args_cmdline;		/**< EAL options came from the command
					 * line, so [eal] args is not used.
					 */
	uint32_t fault_worker_delay_us;	/**< Testing: worker spins per burst. */
	uint32_t fault_writer_delay_us;	/**< Testing: writer spins per call. */
	char eal_args[TP_EAL_ARGS_LEN];	/**< [eal] args from the file. */
};

/** Fill the configuration with the defaults the usage text shows. */
void tp_config_defaults(struct tp_config *cfg);

/**
 * Checks that need several options together, after every option is set.
 *
 * @return 0, or -EINVAL after printing one error message.
 */
int tp_config_check(const struct tp_config *cfg);

/** Name of a timeout class ("tcp-syn", ..., "active"). */
const char *tp_config_tmo_class_name(enum tp_tmo_class c);

/**
 * Print one error line on stderr, "dpdk-timer_pipeline: error: ", the
 * message, then 'tail' (every message before EAL starts goes through it).
 */
void tp_config_error_vprintf(const char *tail, const char *fmt, va_list ap);

/** Print "error: ... (see --help)" on stderr; returns -EINVAL. */
int tp_config_error(const char *fmt, ...) __rte_format_printf(1, 2);

/** Finest tick --replay-speed divides the tick down to (100 us). */
#define TP_SPEED_MIN_TICK_NS UINT64_C(100000)

/** Highest packet rate --replay-speed may ask of a run (packets/s). */
#define TP_SPEED_MAX_PPS UINT64_C(1000000)

/**
 * The adapter tick in ns: --timer-tick divided by --replay-speed, no finer
 * than TP_SPEED_MIN_TICK_NS (unless --timer-tick itself is).
 */
uint64_t tp_config_scaled_tick_ns(const struct tp_config *cfg);

#endif /* _TP_CONFIG_H_ */
