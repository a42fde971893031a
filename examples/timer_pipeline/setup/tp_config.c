/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The configuration: its defaults, the checks that need several options
 * together, the names of the timeout classes and the one way a usage
 * error is printed. Setup only; the parsed configuration is const after.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eventdev.h>

#include "setup/tp_config.h"

#define TP_NS_PER_S UINT64_C(1000000000)
#define TP_NS_PER_US UINT64_C(1000)

static const char *const tp_tmo_names[TP_TMO_MAX] = {
	[TP_TMO_TCP_SYN] = "tcp-syn",
	[TP_TMO_TCP_EST] = "tcp-est",
	[TP_TMO_TCP_CLOSING] = "tcp-closing",
	[TP_TMO_UDP] = "udp",
	[TP_TMO_ICMP] = "icmp",
	[TP_TMO_OTHER] = "other",
	[TP_TMO_ACTIVE] = "active",
};

const char *
tp_config_tmo_class_name(enum tp_tmo_class c)
{
	return c < TP_TMO_MAX ? tp_tmo_names[c] : "?";
}

/* Defaults. 8< */
void
tp_config_defaults(struct tp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->portmask = UINT64_MAX;
	cfg->stats_period_s = 10;
	cfg->sched_type = RTE_SCHED_TYPE_ATOMIC;
	cfg->nb_events = 4096;
	cfg->rx_threshold_pct = 75;
	cfg->timer_prio_high = true;
	cfg->adapter = TP_ADAPTER_DIRECT;
	cfg->tick_ns = 10 * 1000 * 1000;		/* 10 ms */
	cfg->replay_speed = 1;
	cfg->refresh = TP_REFRESH_LAZY;
	cfg->tmo_ns[TP_TMO_TCP_SYN] = 10 * TP_NS_PER_S;
	cfg->tmo_ns[TP_TMO_TCP_EST] = 120 * TP_NS_PER_S;
	cfg->tmo_ns[TP_TMO_TCP_CLOSING] = 5 * TP_NS_PER_S;
	cfg->tmo_ns[TP_TMO_UDP] = 30 * TP_NS_PER_S;
	cfg->tmo_ns[TP_TMO_ICMP] = 10 * TP_NS_PER_S;
	cfg->tmo_ns[TP_TMO_OTHER] = 30 * TP_NS_PER_S;
	cfg->tmo_ns[TP_TMO_ACTIVE] = 600 * TP_NS_PER_S;
	cfg->nb_flows = 65536;
	cfg->table_full = TP_FULL_EVICT;
	cfg->log_format = TP_LOG_JSON;
	cfg->file_cache_mb = 512;
	cfg->ipfix_transport = TP_IPFIX_UDP;
	cfg->ipfix_flows = TP_IPFIX_BI;
	cfg->ipfix_tmpl_refresh_ns = 60 * TP_NS_PER_S;
	cfg->ipfix_queue = 131072;
	cfg->ipfix_queue_full = TP_IPFIX_FULL_AUTO;
	cfg->nb_rxd = 1024;
	cfg->nb_txd = 1024;
	cfg->burst = 32;
	cfg->fwd_mode = TP_FWD_PAIR;
	cfg->malformed = TP_MALFORMED_DROP;
}
/* >8 End of defaults. */

void
tp_config_error_vprintf(const char *tail, const char *fmt, va_list ap)
{
	fprintf(stderr, "dpdk-timer_pipeline: error: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s\n", tail);
}

/* Print one usage error: what is wrong, and where to look. */
int
tp_config_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tp_config_error_vprintf(" (see --help)", fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int
tp_config_speed_check(const struct tp_config *cfg)
{
	uint64_t tick = tp_config_scaled_tick_ns(cfg), tmo;
	unsigned int i, min_i = 0;

	for (i = 0; i < TP_TMO_MAX; i++)
		if (cfg->tmo_ns[i] < cfg->tmo_ns[min_i])
			min_i = i;
	tmo = cfg->tmo_ns[min_i] / cfg->replay_speed;
	if (tmo < 10 * tick)
		return tp_config_error("--replay-speed %u: the shortest "
				       "timeout, --tmo-%s, would be %" PRIu64
				       " us, under 10 ticks of %" PRIu64
				       " us (the tick's floor is %" PRIu64
				       " us)", cfg->replay_speed,
				       tp_tmo_names[min_i], tmo / 1000,
				       tick / 1000, TP_SPEED_MIN_TICK_NS / 1000);
	return 0;
}

uint64_t
tp_config_scaled_tick_ns(const struct tp_config *cfg)
{
	uint64_t tick = cfg->tick_ns / cfg->replay_speed;

	if (cfg->replay_speed == 1)
		return cfg->tick_ns;
	return RTE_MAX(tick, RTE_MIN(cfg->tick_ns, TP_SPEED_MIN_TICK_NS));
}

/* Checks that need several options together. */
int
tp_config_check(const struct tp_config *cfg)
{
	unsigned int i;

	for (i = 0; i < TP_TMO_MAX; i++)
		if (cfg->tmo_ns[i] < cfg->tick_ns)
			return tp_config_error("timeout '--tmo-%s' is shorter "
					       "than --timer-tick",
					       tp_tmo_names[i]);
	if (cfg->rx_lcores_set) {
		for (i = 0; i < RTE_MAX_LCORE; i++)
			if (cfg->rx_lcores[i])
				break;
		if (i == RTE_MAX_LCORE)
			return tp_config_error("--rx-lcores is empty");
	}
	if (cfg->clock == TP_CLOCK_CAPTURE && cfg->adapter == TP_ADAPTER_RTE)
		return tp_config_error("--clock capture needs --timer-adapter "
				       "direct: DPDK's adapter runs on the TSC "
				       "only");
	if (cfg->clock == TP_CLOCK_CAPTURE && cfg->replay_speed > 1)
		return tp_config_error("--clock capture and --replay-speed "
				       "exclude each other: the capture clock "
				       "needs no speed-up");
	if (cfg->replay_speed > 1 && tp_config_speed_check(cfg) < 0)
		return -EINVAL;
	if (cfg->clock == TP_CLOCK_CAPTURE && cfg->replay_pace)
		return tp_config_error("--clock capture and --replay-pace "
				       "exclude each other: pick one");
	if (cfg->packet_path == TP_PATH_INLINE &&
	    cfg->fwd_mode != TP_FWD_DROP && cfg->fwd_mode != TP_FWD_MONITOR)
		return tp_config_error("--packet-path inline needs --fwd-mode "
				       "drop or monitor: forwarded packets "
				       "go to workers as events");
	if (cfg->stats_json[0] != '\0' && cfg->stats_period_s == 0)
		return tp_config_error("--stats-json needs a stats period "
				       "(-T 1 or more)");
	return 0;
}

