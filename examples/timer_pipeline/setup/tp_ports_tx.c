/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * At exit: the bytes a net_pcap port's tx_pcap file misses of what the
 * port counted as sent (the file's size against its header, a record
 * header per frame and the port's obytes). Main lcore, once the lcores
 * are done; no lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

#include "tp_ctx.h"
#include "setup/tp_ports_tx.h"

/* A pcap file's header, and each record's before its bytes. */
#define TP_PCAP_FILE_HDR 24
#define TP_PCAP_REC_HDR 16

/*
 * The one tx_pcap file of a net_pcap port, or false (another driver, no
 * tx_pcap, or several: one per queue, whose frames the port's totals do
 * not split).
 */
static bool
tp_port_tx_pcap(uint16_t port, char *path, size_t len)
{
	const struct rte_devargs *da;
	struct rte_eth_dev_info info;
	char args[4096], *tok, *save = NULL;
	unsigned int n = 0;

	if (rte_eth_dev_info_get(port, &info) != 0 || info.device == NULL ||
	    strcmp(info.driver_name, "net_pcap") != 0)
		return false;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL)
		return false;
	snprintf(args, sizeof(args), "%s", da->args);
	for (tok = strtok_r(args, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save))
		if (strncmp(tok, "tx_pcap=", 8) == 0 && n++ == 0)
			snprintf(path, len, "%s", tok + 8);
	return n == 1;
}

/*
 * net_pcap writes tx_pcap with pcap_dump() and ignores its errors (every
 * DPDK version): a full disk loses frames while opackets still counts
 * them. Its dumper flushes after each burst, so once the lcores are done
 * the file must be 24 bytes plus 16 and the captured bytes per frame
 * sent (obytes counts captured bytes). A shorter file lost frames. A port
 * that sent nothing is not checked (see below).
 */
uint64_t
tp_ports_tx_pcap_short(const struct tp_ctx *ctx)
{
	char path[PATH_MAX];
	struct rte_eth_stats s;
	uint64_t want, lost = 0;
	struct stat st;
	uint16_t i;

	for (i = 0; i < ctx->eth.nb_ports; i++) {
		/* No frame sent: the file header may still sit in the
		 * dumper's stdio buffer (it reaches the file with the first
		 * burst's flush, or at close), and nothing can be lost.
		 */
		if (!tp_port_tx_pcap(ctx->eth.ports[i], path, sizeof(path)) ||
		    rte_eth_stats_get(ctx->eth.ports[i], &s) != 0 ||
		    s.opackets == 0 || stat(path, &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		want = TP_PCAP_FILE_HDR + s.opackets * TP_PCAP_REC_HDR +
			s.obytes;
		if ((uint64_t)st.st_size >= want)
			continue;
		TP_LOG(ERR, "tx_pcap '%s' of port %u holds %jd bytes, but the "
		       "%" PRIu64 " frames sent to it need %" PRIu64 ": "
		       "%" PRIu64 " bytes lost (a full disk? net_pcap does "
		       "not report write errors)", path, ctx->eth.ports[i],
		       (intmax_t)st.st_size, s.opackets, want,
		       want - (uint64_t)st.st_size);
		lost += want - (uint64_t)st.st_size;
	}
	return lost;
}
