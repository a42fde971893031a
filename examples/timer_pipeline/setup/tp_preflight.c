/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Checks before EAL starts (main thread, no lock): a plugin (-d) that a
 * program with DPDK built in cannot load; the files and interfaces named
 * in the --vdev arguments and the outputs named by the options, one
 * message naming the file and the problem; and the rewrite
 * of argv that points net_pcap at the filtered copy of a capture with
 * oversize records. Once EAL has started, the end of the captures'
 * checks that ran beside it (tp_capture_settle()), and a net_pcap probed
 * again when one of them turned out to need the copy. Each input is
 * registered with tp_output.c, which refuses any output that is one.
 */

#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_dev.h>
#include <rte_errno.h>

#include "setup/tp_capture.h"
#include "setup/tp_option.h"
#include "setup/tp_live.h"
#include "records/tp_output.h"
#include "setup/tp_preflight.h"

/* One message naming the file and the problem; the caller exits 2. */
static void __rte_format_printf(1, 2)
tp_file_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tp_config_error_vprintf("", fmt, ap);
	va_end(ap);
}

/* meson's pipeline_dpdk_link=static (the default) defines it to 1. */
#ifndef TP_DPDK_STATIC
#define TP_DPDK_STATIC 0
#endif

#define TP_MAX_CAPTURES 64

/*
 * "the rx_pcap capture of --vdev net_pcap0", "tx_pcap of --vdev
 * net_pcap0": names tp_output.c keeps for its messages, so they live as
 * long as the run.
 */
static const char *
tp_preflight_name(const char *fmt, const char *vdev)
{
	static char names[2 * TP_MAX_CAPTURES][96];
	static unsigned int n;

	if (n == RTE_DIM(names))
		return "a file of a --vdev";
	snprintf(names[n], sizeof(names[n]), fmt, vdev);
	return names[n++];
}

/* A file the run reads: no output may be it (tp_output.h). */
static int
tp_preflight_input(const char *path, const char *what)
{
	if (tp_output_add_input(path, what) == 0)
		return 0;
	tp_file_error("'%s': too many input files to check the outputs "
		      "against", path);
	return -1;
}

/* An rx_pcap capture: what net_pcap will read must be what we expect. */
static int
tp_check_rx_pcap(const char *vdev, const char *path, bool infinite,
		 const struct tp_config *cfg)
{
	if (tp_capture_check(vdev, path, infinite, cfg->stop_when_done,
			     cfg->replay_pace, true) == NULL)
		return -1;
	return tp_preflight_input(path, tp_preflight_name("the rx_pcap "
				  "capture of --vdev %s", vdev));
}

/*
 * A file that we, or net_pcap for tx_pcap, will create or truncate
 * (tp_output_check()). what: "--flow-log" or "tx_pcap of --vdev
 * net_pcap0", for the messages; it must live as long as the run.
 */
static int
tp_check_output(const char *what, const char *path)
{
	char why[PATH_MAX + 96];

	if (tp_output_check(what, path, why, sizeof(why)) == 0)
		return 0;
	tp_file_error("%s '%s' %s", what, path, why);
	return -1;
}

/*
 * The devargs of a --vdev, or NULL. EAL takes "--vdev=ARGS", "--vdev ARGS"
 * and, through getopt_long, unambiguous prefixes such as "--vd".
 */
static const char *
tp_vdev_arg(int argc, char **argv, int *i)
{
	const char *a = argv[*i], *eq = strchr(a, '=');
	size_t len = eq != NULL ? (size_t)(eq - a) : strlen(a);

	if (len < 4 || len > 6 || strncmp(a, "--vdev", len) != 0)
		return NULL;
	if (eq != NULL)
		return eq + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

/* Whether a --vdev's devargs are net_pcap's (or its old name's). */
static bool
tp_pcap_vdev(const char *da)
{
	return strncmp(da, "net_pcap", 8) == 0 ||
		strncmp(da, "eth_pcap", 8) == 0;
}

/*
 * Call fn on each key=value of every net_pcap vdev (live: of every vdev
 * of a live input driver, tp_live.h); stop on an error.
 */
static int
tp_vdevs_walk(int argc, char **argv, bool live, int (*fn)(const char *vdev,
	      const char *key, const char *val, bool infinite,
	      const struct tp_config *cfg), const struct tp_config *cfg)
{
	char args[4096], *tok, *save, *name;
	const char *da;
	bool infinite;
	int i;

	for (i = 1; i < argc; i++) {
		da = tp_vdev_arg(argc, argv, &i);
		if (da == NULL || (live ? !tp_live_vdev(da) :
				   !tp_pcap_vdev(da)))
			continue;
		if (strlen(da) >= sizeof(args)) {
			tp_file_error("--vdev %.32s...: arguments too long", da);
			return -1;
		}
		infinite = strstr(da, "infinite_rx=1") != NULL;
		snprintf(args, sizeof(args), "%s", da);
		save = NULL;
		name = strtok_r(args, ",", &save);
		for (tok = strtok_r(NULL, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');

			if (eq == NULL)
				continue;
			*eq = '\0';
			if (fn(name, tok, eq + 1, infinite, cfg) < 0)
				return -1;
		}
	}
	return 0;
}

static int
tp_check_rx_kv(const char *vdev, const char *key, const char *val,
	       bool infinite, const struct tp_config *cfg)
{
	if (strcmp(key, "rx_pcap") != 0)
		return 0;
	return tp_check_rx_pcap(vdev, val, infinite, cfg);
}

/* Linux ARPHRD_ types of the interfaces libpcap reads as Ethernet. */
#define TP_ARPHRD_ETHER 1
#define TP_ARPHRD_LOOPBACK 772

/*
 * A live interface (iface=, rx_iface=, rx_iface_in=, tx_iface= of
 * net_pcap; iface= of net_af_packet and net_af_xdp): it exists, in our
 * network namespace, and is Ethernet. The driver's own failure comes
 * after EAL and names neither.
 */
static int
tp_check_iface_kv(const char *vdev, const char *key, const char *val,
		  bool infinite, const struct tp_config *cfg)
{
	struct ifreq ifr;
	int fd, ret = 0;

	RTE_SET_USED(infinite);
	RTE_SET_USED(cfg);
	if (strcmp(key, "iface") != 0 && strcmp(key, "rx_iface") != 0 &&
	    strcmp(key, "rx_iface_in") != 0 && strcmp(key, "tx_iface") != 0)
		return 0;
	if (strlen(val) >= sizeof(ifr.ifr_name) || if_nametoindex(val) == 0) {
		tp_file_error("--vdev %s: %s '%s': no such network interface "
			      "(see ip link)", vdev, key, val);
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", val);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && ioctl(fd, SIOCGIFHWADDR, &ifr) == 0 &&
	    ifr.ifr_hwaddr.sa_family != TP_ARPHRD_ETHER &&
	    ifr.ifr_hwaddr.sa_family != TP_ARPHRD_LOOPBACK) {
		tp_file_error("--vdev %s: %s '%s' is not an Ethernet interface "
			      "(ARPHRD type %u): the pipeline reads live "
			      "Ethernet interfaces only", vdev, key, val,
			      ifr.ifr_hwaddr.sa_family);
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

static int
tp_check_tx_kv(const char *vdev, const char *key, const char *val,
	       bool infinite, const struct tp_config *cfg)
{
	RTE_SET_USED(infinite);
	RTE_SET_USED(cfg);
	if (strcmp(key, "tx_pcap") != 0)
		return 0;
	return tp_check_output(tp_preflight_name("tx_pcap of --vdev %s",
						 vdev), val);
}

/* The devargs of each net_pcap reading a capture, for tp_preflight_settle(). */
static const char *tp_pcap_devargs[TP_MAX_CAPTURES];
static unsigned int tp_nb_pcap_devargs;

/*
 * The devargs of one net_pcap vdev, prefix first, with each rx_pcap
 * naming what net_pcap must read: the filtered copy of a capture with
 * oversize records. Into out (len bytes): out, or NULL if too long.
 */
static char *
tp_feed_devargs_into(char *out, size_t outlen, const char *prefix,
		     const char *da)
{
	char args[4096], *tok, *save = NULL;
	const struct tp_capture *cap;
	size_t len;
	int w;

	if (strlen(da) >= sizeof(args))
		return NULL;
	snprintf(args, sizeof(args), "%s", da);
	len = (size_t)snprintf(out, outlen, "%s", prefix);
	for (tok = strtok_r(args, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		cap = strncmp(tok, "rx_pcap=", 8) == 0 ?
			tp_capture_find(tok + 8) : NULL;
		w = snprintf(out + len, outlen - len, "%s%s%s",
			     tok == args ? "" : ",",
			     cap != NULL ? "rx_pcap=" : "",
			     cap != NULL ? cap->feed : tok);
		if (w < 0 || len + (size_t)w >= outlen)
			return NULL;
		len += (size_t)w;
	}
	return out;
}

/* The same, kept: EAL keeps pointers into argv until the end. */
static char *
tp_feed_devargs(const char *prefix, const char *da)
{
	static char out[TP_MAX_CAPTURES][8192];
	static unsigned int n;

	if (n == TP_MAX_CAPTURES ||
	    tp_feed_devargs_into(out[n], sizeof(out[n]), prefix, da) == NULL)
		return NULL;
	return out[n++];
}

/* Point net_pcap at the filtered copies (argv is ours: main's copy). */
static int
tp_feed_argv(int argc, char **argv)
{
	const char *da;
	char prefix[16];
	int i, at;

	for (i = 1; i < argc; i++) {
		at = i;
		da = tp_vdev_arg(argc, argv, &i);
		if (da == NULL || strstr(da, "rx_pcap=") == NULL ||
		    !tp_pcap_vdev(da))
			continue;
		prefix[0] = '\0';
		if (i == at)	/* "--vdev=ARGS" */
			snprintf(prefix, sizeof(prefix), "%.*s",
				 (int)(da - argv[at]), argv[at]);
		argv[i] = tp_feed_devargs(prefix, da);
		if (argv[i] == NULL) {
			tp_file_error("--vdev %.32s...: arguments too long", da);
			return -1;
		}
		/* Kept: EAL writes over an argv slot. */
		if (tp_nb_pcap_devargs < RTE_DIM(tp_pcap_devargs))
			tp_pcap_devargs[tp_nb_pcap_devargs++] =
				argv[i] + strlen(prefix);
	}
	return 0;
}

/*
 * Whether EAL argument a asks for a plugin: -d, -dPATH, or d inside a
 * cluster of EAL's short options that take no value (-vd); from DPDK
 * 26.07 also --driver-path, or a prefix of it that getopt_long would take
 * (--dr at least: no other EAL option starts so). *skip is set when the
 * next argument is a short option's value (-l 0-1). The value of a long
 * option given as the next argument cannot be told from an option here:
 * one that begins with -d is taken for one.
 */
static bool
tp_preflight_is_plugin_arg(const char *a, bool *skip)
{
	static const char long_opt[] = "--driver-path";
	size_t n;

	*skip = false;
	if (a[0] != '-' || a[1] == '\0')
		return false;
	if (a[1] == '-') {
		n = strcspn(a, "=");
		return n >= 4 && n < sizeof(long_opt) &&
			strncmp(a, long_opt, n) == 0;
	}
	for (a++; *a != '\0'; a++) {
		if (*a == 'd')
			return true;
		if (strchr("hvAR", *a) == NULL) {
			/* An option with a value: the rest, or the next. */
			*skip = a[1] == '\0';
			return false;
		}
	}
	return false;
}

int
tp_preflight_check_eal(int argc, char **argv)
{
	bool skip;
	int i;

	if (!TP_DPDK_STATIC)
		return 0;
	for (i = 1; i < argc; i++) {
		if (!tp_preflight_is_plugin_arg(argv[i], &skip)) {
			i += skip;
			continue;
		}
		tp_config_error("EAL option %s: this dpdk-timer_pipeline has "
				"every DPDK driver built in (DPDK's static "
				"libraries), and a plugin would bring a DPDK "
				"of its own; leave -d out, or build with meson "
				"-Dpipeline_dpdk_link=shared to load plugins",
				argv[i]);
		return -1;
	}
	return 0;
}

/* Files named on the command line, checked before EAL starts. 8< */
int
tp_preflight_check_files(int argc, char **argv, const struct tp_config *cfg)
{
	if ((cfg->config_file[0] != '\0' &&
	     tp_preflight_input(cfg->config_file, "the --config file") < 0) ||
	    tp_vdevs_walk(argc, argv, false, tp_check_rx_kv, cfg) < 0 ||
	    tp_vdevs_walk(argc, argv, false, tp_check_tx_kv, cfg) < 0 ||
	    tp_vdevs_walk(argc, argv, true, tp_check_iface_kv, cfg) < 0 ||
	    tp_feed_argv(argc, argv) < 0)
		return -1;
	if (cfg->flow_log[0] != '\0' &&
	    tp_check_output("--flow-log", cfg->flow_log) < 0)
		return -1;
	if (cfg->summary_json[0] != '\0' &&
	    tp_check_output("--summary-json", cfg->summary_json) < 0)
		return -1;
	if (cfg->stats_json[0] != '\0' &&
	    tp_check_output("--stats-json", cfg->stats_json) < 0)
		return -1;
	return 0;
}
/* >8 End of checking the files. */

/*
 * A net_pcap probed on a capture whose copy was made once EAL had started
 * (tp_capture_settle()): its devargs, rewritten now, name the copy where
 * they named the file. Probe it again on them (EAL is up).
 */
static int
tp_reprobe(const char *da)
{
	char buf[8192], name[RTE_DEV_NAME_MAX_LEN];
	const char *args = tp_feed_devargs_into(buf, sizeof(buf), "", da);
	const char *comma;
	int ret;

	if (args != NULL && strcmp(args, da) == 0)
		return 0;	/* what it reads already */
	comma = args != NULL ? strchr(args, ',') : NULL;
	if (comma == NULL || (size_t)(comma - args) >= sizeof(name)) {
		tp_file_error("--vdev %.32s...: arguments too long", da);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(comma - args), args);
	/*
	 * The vdev bus's own calls, not rte_eal_hotplug_*(): those also
	 * tell secondary processes, and from DPDK 26.07 on they refuse
	 * devargs of 128 bytes or more (the message's size), which a
	 * capture's path alone can pass.
	 */
	ret = rte_vdev_uninit(name);
	if (ret == 0)
		ret = rte_vdev_init(name, comma + 1);
	if (ret != 0) {
		tp_file_error("--vdev %s: cannot probe it again on the copy of "
			      "its capture: %s", name,
			      rte_strerror(ret < 0 ? -ret : EIO));
		return -EIO;
	}
	return 0;
}

/* After EAL has started. 8< */
int
tp_preflight_settle(void)
{
	unsigned int i;
	int ret;

	if (tp_capture_settle() < 0)
		return -EINVAL;
	for (i = 0; i < tp_nb_pcap_devargs; i++) {
		ret = tp_reprobe(tp_pcap_devargs[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}
/* >8 End of after EAL has started. */
