/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * timer_pipeline: a flow-aging pipeline on an event device and an event
 * timer adapter. main() only parses, sets up in a fixed order, launches the
 * lcores and tears down in reverse; every step lives in its own file.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include "eal_init.h"
#include "setup/tp_args.h"
#include "setup/tp_clock.h"
#include "setup/tp_config_text.h"
#include "tp_ctx.h"
#include "reports/tp_counters.h"
#include "datapath/tp_flow_table.h"
#include "setup/tp_adapter.h"
#include "setup/tp_evdev.h"
#include "records/tp_ipfix.h"
#include "records/tp_ipfix_opts.h"
#include "records/tp_record.h"
#include "records/tp_trace.h"
#include "datapath/tp_lcore.h"
#include "datapath/tp_rx_ahead.h"
#include "setup/tp_ports.h"
#include "setup/tp_ports_tx.h"
#include "setup/tp_preflight.h"
#include "setup/tp_service.h"
#include "reports/tp_stats_screen.h"
#include "reports/tp_stats_json.h"
#include "reports/tp_summary.h"
#include "reports/tp_telemetry.h"

RTE_LOG_REGISTER(tp_logtype, user.timer_pipeline, INFO);

/* The only mutable global: the signal handler only increments it. */
volatile sig_atomic_t tp_quit_signal;

static void
tp_signal_handler(int signum)
{
	if (signum == SIGINT || signum == SIGTERM)
		tp_quit_signal++;
}

/*
 * Process-wide settings, before EAL creates any thread:
 * - SIGXFSZ ignored: a write past RLIMIT_FSIZE fails with EFBIG, which the
 *   record sinks count and report, instead of killing the run.
 * - SIGPIPE ignored: a peer gone before we write must fail that write, not
 *   kill the run before its flush. DPDK's telemetry answers with write(),
 *   which cannot pass MSG_NOSIGNAL (Linux raises no SIGPIPE on its
 *   SEQPACKET socket, but nothing promises that); a closed stdout pipe
 *   (the stats screen piped into head) does raise it.
 * - Group and others never get write permission on what we create, whatever
 *   the caller's umask: the flow log, net_pcap's tx_pcap (fopen "w", mode
 *   0666 less the umask, in a driver we cannot change) and EAL's sockets.
 */
static void
tp_process_harden(void)
{
	signal(SIGPIPE, SIG_IGN);
	/* RLIMIT_FSIZE reached: EFBIG, counted like a full disk, not death. */
	signal(SIGXFSZ, SIG_IGN);
	umask(umask(0) | S_IWGRP | S_IWOTH);
}

#define TP_MAX_EAL_ARGS 64

/*
 * Split "EAL options -- app options". The app part is parsed first, before
 * rte_eal_init(), so a bad command line fails before anything starts.
 * Without "--" the whole line goes to EAL, except a lone -h/--help.
 */
static bool
tp_split_args(int argc, char **argv, int *eal_argc)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			break;
	*eal_argc = i;
	return i == argc && argc == 2 && (strcmp(argv[1], "--help") == 0 ||
					  strcmp(argv[1], "-h") == 0);
}

/* [eal] args from the INI file, used when the command line has none. */
static int
tp_eal_args_from_file(struct tp_config *cfg, char *prg, char **eal_argv)
{
	int n = 0;
	char *tok, *save = NULL;

	eal_argv[n++] = prg;
	for (tok = strtok_r(cfg->eal_args, " \t", &save);
	     tok != NULL && n < TP_MAX_EAL_ARGS - 1;
	     tok = strtok_r(NULL, " \t", &save))
		eal_argv[n++] = tok;
	eal_argv[n] = NULL;
	return n;
}

static void
tp_ctx_init_clock(struct tp_ctx *ctx)
{
	const struct tp_config *cfg = ctx->cfg;
	unsigned int i;

	ctx->hz = rte_get_timer_hz();
	/* --clock capture: flows age in capture nanoseconds (tp_clock.h). */
	ctx->clk.on = cfg->clock == TP_CLOCK_CAPTURE;
	ctx->flow_hz = ctx->clk.on ? UINT64_C(1000000000) : ctx->hz;
	/* --replay-speed X: timeouts and the tick pass X times faster. */
	ctx->tick_cycles = tp_ns_to_cycles(tp_config_scaled_tick_ns(cfg),
					   ctx->flow_hz);
	for (i = 0; i < TP_TMO_MAX; i++)
		ctx->tmo_cycles[i] = tp_ns_to_cycles(cfg->tmo_ns[i] /
						     cfg->replay_speed,
						     ctx->flow_hz);
}

/*
 * What the flow table hands on (struct tp_flow_ops): an ended flow's
 * record to the record ring, a traced flow's steps to the trace ring.
 */
static void
tp_main_flow_ended(struct tp_ctx *ctx, struct tp_lcore *lc,
		   const struct tp_flow *f, enum tp_end_reason reason)
{
	tp_record_push(ctx, lc, f, reason);
}

static void
tp_main_flow_step(struct tp_ctx *ctx, const struct tp_flow *f,
		  enum tp_flow_step step, uint64_t arg, uint8_t reason)
{
	tp_trace_push(ctx, f, (enum tp_trace_kind)step, arg, reason);
}

static const struct tp_flow_ops tp_main_flow_ops = {
	.ended = tp_main_flow_ended,
	.step = tp_main_flow_step,
};

/*
 * Where the record writer has a CPU to itself or one with little else to
 * do: on the inline path, where only expiries cross the event device and
 * the service lcore runs just the adapter's and the scheduler's services
 * for them (under the capture clock, the lcore moving the clock runs those
 * itself until the input ends), or beside a service lcore that runs no
 * service; never without service lcores (the main lcore runs every
 * service). On the wall clock, only for a flow log: IPFIX records are
 * only copied to the exporter's queue, which the main lcore does for less
 * than a fourth service on the service lcore costs (a flood's IPFIX ran
 * at 2.2 to 2.7 M new flows/s against 2.7 to 3.1). Elsewhere the
 * scheduler moves every packet and keeps its lcore; the main lcore writes
 * records. On the inline path the writer takes short rounds and writes
 * (tp_record.c): a flood's flow log went from 0.8 to 1.1 to 3.5 M new
 * flows/s, as the main lcore no longer writes beside RX and the workers.
 */
static bool
tp_main_writer_has_cpu(const struct tp_ctx *ctx)
{
	uint32_t ids[RTE_MAX_LCORE];
	int32_t n, i;

	if (rte_service_lcore_count() == 0)
		return false;	/* the main lcore runs the services */
	if (ctx->inline_path && (ctx->clk.on || ctx->rec.log_on))
		return true;
	n = rte_service_lcore_list(ids, RTE_DIM(ids));
	for (i = 0; i < n; i++)
		if (rte_service_lcore_count_services(ids[i]) == 0)
			return true;
	return false;
}

/*
 * The record writer service (when some sink takes records and it has a
 * CPU), on the service lcore with the fewest services: records are
 * formatted and written there.
 */
static int
tp_main_writer_setup(struct tp_ctx *ctx)
{
	int ret;

	if (!tp_main_writer_has_cpu(ctx))
		return 0;
	ret = tp_record_service_register(ctx);

	if (ret == 0 && ctx->rec.service_on)
		ret = tp_service_map(ctx->rec.service_id, "record writer");
	if (ret == 0)
		ret = tp_record_service_start(ctx);
	return ret;
}

/*
 * RX paced by the record writer service (tp_rx_hold.h) where the workers
 * hold RX back (the inline path, wall clock). Not by the main lcore, which
 * drains the ring every 10 ms (tp_control.c): a flood's ring passes the
 * backlog between two drains, and RX would wait for each (IPFIX alone:
 * 1.6 to 2.1 M new flows/s against 2.3 to 2.9).
 */
static void
tp_main_pace_setup(struct tp_ctx *ctx)
{
	if (ctx->rx_hold.late != 0 && ctx->rec.service_on)
		tp_rx_hold_pace(&ctx->rx_hold, ctx->rec.ring,
				&ctx->rec.emitted, TP_RX_PACE_BACKLOG,
				ctx->nb_rx_lcores);
}

/* The one RX queue of the run, or NULL when there are several. */
static struct tp_rxq *
tp_main_only_rxq(struct tp_ctx *ctx)
{
	struct tp_rxq *q = NULL;
	unsigned int id, i, nb = 0;

	for (id = 0; id < RTE_MAX_LCORE; id++)
		for (i = 0; i < ctx->lc[id].nb_rxq; i++) {
			q = &ctx->lc[id].rxq[i];
			nb++;
		}
	return nb == 1 ? q : NULL;
}

/*
 * A capture's read-ahead (tp_rx_ahead.h), where the record writer has a
 * CPU of its own because of the capture clock (the inline path): the
 * service lcore reads the port of the one RX queue.
 */
static int
tp_main_ahead_setup(struct tp_ctx *ctx)
{
	struct tp_rxq *q = tp_main_only_rxq(ctx);
	int ret;

	if (q == NULL || !tp_rx_ahead_wanted(ctx, 1))
		return 0;
	ret = tp_rx_ahead_register(ctx, q);
	if (ret == 0)
		ret = tp_service_map(tp_rx_ahead_service_id(q),
				     "capture read-ahead");
	if (ret == 0)
		ret = tp_rx_ahead_start(q);
	return ret;
}

static void
tp_main_ahead_free(struct tp_ctx *ctx)
{
	struct tp_rxq *q = tp_main_only_rxq(ctx);

	if (q != NULL)
		tp_rx_ahead_free(q);
}

/* Checks that need EAL but start nothing: failures exit with status 2. */
static int
tp_validate(struct tp_ctx *ctx)
{
	int ret;

	ret = tp_lcore_roles_setup(ctx);
	if (ret == 0)
		ret = tp_ports_probe(ctx);
	if (ret == 0)
		ret = tp_evdev_probe(ctx);
	return ret;
}

static void
tp_launch(struct tp_ctx *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ctx->start_ns = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	ctx->start_tsc = rte_get_timer_cycles();
	ctx->ctl.stats_next_tsc = ctx->start_tsc +
		(uint64_t)ctx->cfg->stats_period_s * ctx->hz;
	ctx->ctl.rx_change_tsc = ctx->start_tsc;
	/* Launch every lcore, main included. 8< */
	rte_eal_mp_remote_launch(tp_lcore_launch_one, ctx, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	/* A second signal skips the flush: the services go back here. */
	tp_clock_release(ctx);
	/* >8 End of launching every lcore. */
}

/*
 * The application's options, then the EAL arguments: from the command line,
 * or from the INI file's [eal] section when the command line has none.
 * Returns -1 to go on, or the exit status.
 */
static int
tp_args(int argc, char **argv, struct tp_config *cfg, char **eal_argv,
	int *eal_argc)
{
	int ret;

	/* Parse the application options first. 8< */
	if (tp_split_args(argc, argv, eal_argc))
		ret = 1;
	else
		ret = tp_args_parse(cfg, argc - *eal_argc, argv + *eal_argc);
	if (ret == 1) {
		tp_config_text_usage(argv[0]);
		return EXIT_SUCCESS;
	}
	if (ret < 0)
		return TP_EXIT_USAGE;
	cfg->eal_args_cmdline = *eal_argc > 1;
	if (cfg->help_rst) {
		tp_config_text_usage_rst();
		return EXIT_SUCCESS;
	}
	if (cfg->help_counters_rst) {
		tp_counters_print_rst();
		return EXIT_SUCCESS;
	}
	if (cfg->help_exit_rst) {
		tp_config_text_exit_rst();
		return EXIT_SUCCESS;
	}
	if (cfg->dump_config) {
		tp_config_text_dump(cfg);
		return EXIT_SUCCESS;
	}
	/* >8 End of parsing the application options. */
	if (*eal_argc == 1 && cfg->eal_args[0] != '\0') {
		*eal_argc = tp_eal_args_from_file(cfg, argv[0], eal_argv);
		return -1;
	}
	*eal_argc = RTE_MIN(*eal_argc, TP_MAX_EAL_ARGS - 1);
	memcpy(eal_argv, argv, sizeof(char *) * *eal_argc);
	eal_argv[*eal_argc] = NULL;
	return -1;
}

/* Run, then report: the summary and the exactly-once check. */
static int
tp_run(struct tp_ctx *ctx)
{
	int status;

	tp_lcore_roles_print(ctx);
	tp_launch(ctx);
	tp_clock_report(ctx);
	tp_record_service_stop(ctx);	/* the main lcore drains the rest */
	tp_record_drain(ctx);
	tp_record_close(ctx);	/* the flow log's last write errors */
	tp_ipfix_stop(ctx->ipfix);	/* export what is queued, bounded */
	tp_trace_drain(ctx);
	ctx->tx_pcap_short = tp_ports_tx_pcap_short(ctx);
	tp_stats_screen_print(ctx, true);
	tp_stats_json_write(ctx, true);
	status = tp_summary_check(ctx);
	return status == EXIT_SUCCESS && ctx->ctl.aborted ? EXIT_FAILURE : status;
}

int
main(int argc, char **argv)
{
	static struct tp_config cfg;
	char *eal_argv[TP_MAX_EAL_ARGS];
	struct tp_ctx *ctx = NULL;
	int eal_argc, status, ret;

	tp_process_harden();
	/* First, so that it runs last: after tp_capture_release(). */
	tp_eal_exit_register("dpdk-timer_pipeline", TP_EXIT_USAGE);
	status = tp_args(argc, argv, &cfg, eal_argv, &eal_argc);
	if (status >= 0)
		return status;
	/* Captures, outputs: checked before anything starts. */
	if (tp_preflight_check_eal(eal_argc, eal_argv) < 0 ||
	    tp_preflight_check_files(eal_argc, eal_argv, &cfg) < 0 ||
	    tp_ipfix_opts_check(&cfg) < 0)
		return TP_EXIT_USAGE;
	status = EXIT_FAILURE;

	/* Init EAL. 8< */
	/* A bad EAL option: one line and TP_EXIT_USAGE (eal_init.h). */
	ret = tp_eal_init(eal_argc, eal_argv);
	if (ret == -EINVAL)
		return TP_EXIT_USAGE;
	if (ret < 0) {
		fprintf(stderr, "dpdk-timer_pipeline: error: EAL initialisation "
			"failed: %s (check the EAL options; see --help)\n",
			rte_errno != 0 ? rte_strerror(rte_errno) :
			"see the EAL messages above");
		return EXIT_FAILURE;
	}
	signal(SIGINT, tp_signal_handler);
	signal(SIGTERM, tp_signal_handler);
	/* >8 End of init EAL. */
	/* The captures walked while EAL started. */
	ret = tp_preflight_settle();
	if (ret < 0) {
		status = ret == -EINVAL ? TP_EXIT_USAGE : EXIT_FAILURE;
		goto out_eal;
	}

	ctx = rte_zmalloc("tp_ctx", sizeof(*ctx), RTE_CACHE_LINE_SIZE);
	if (ctx == NULL) {
		TP_LOG(ERR, "cannot allocate the context");
		goto out_eal;
	}
	ctx->cfg = &cfg;
	tp_ctx_init_clock(ctx);
	tp_config_text_dump(&cfg);
	if (tp_validate(ctx) < 0) {
		status = TP_EXIT_USAGE;
		goto out_ctx;
	}

	/* Setup, in order; each failure unwinds what was done. 8< */
	if (tp_flow_table_create(ctx, &tp_main_flow_ops) < 0)
		goto out_ctx;
	if (tp_record_init(ctx) < 0 || tp_trace_init(ctx) < 0 ||
	    tp_ipfix_start(ctx, tp_counters_sum) < 0)
		goto out_records;
	if (tp_ports_setup(ctx) < 0)
		goto out_ports;
	if (tp_lcore_queues_setup(ctx) < 0)
		goto out_queues;
	if (tp_evdev_setup(ctx) < 0 || tp_adapter_setup(ctx) < 0 ||
	    tp_evdev_start(ctx) < 0 || tp_main_writer_setup(ctx) < 0 ||
	    tp_main_ahead_setup(ctx) < 0)
		goto out_evdev;
	tp_main_pace_setup(ctx);
	if (tp_ports_start(ctx) < 0)
		goto out_evdev;
	if (tp_telemetry_register(ctx) < 0)
		goto out_evdev;
	/* >8 End of setup. */

	status = cfg.probe_ports ? tp_ports_probe_report(ctx) : tp_run(ctx);

	/* Teardown in reverse order. 8< */
out_evdev:
	tp_telemetry_unregister();
	tp_main_ahead_free(ctx);
	tp_evdev_stop(ctx);
out_queues:
	tp_lcore_queues_free(ctx);
out_ports:
	tp_ports_stop(ctx);
out_records:
	tp_trace_free(ctx);
	tp_record_free(ctx);
	tp_ipfix_release(ctx);
	tp_flow_table_free(ctx);
out_ctx:
	rte_free(ctx);
out_eal:
	rte_eal_cleanup();
	/* >8 End of teardown. */
	return status;
}
