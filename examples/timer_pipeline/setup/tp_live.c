/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * Live input drivers: the PMDs that read a Linux interface (net_pcap
 * iface=, libpcap; net_af_packet, PACKET_MMAP rings; net_af_xdp, an XDP
 * socket) and what each tells of the packets the kernel dropped before
 * they reached it. Those drops never reach the pipeline: they are the
 * ports' imissed, and only where the driver counts them. Runs on the main
 * lcore before launch; what it finds is read-only after (no lock).
 */

#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_version.h>

#include "tp_log.h"
#include "setup/tp_live.h"

/* The drivers that read a live interface given as iface=NAME. */
static const char *const tp_live_drivers[] = {
	"net_pcap", "eth_pcap", "net_af_packet", "eth_af_packet",
	"net_af_xdp",
};

bool
tp_live_vdev(const char *devargs)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(tp_live_drivers); i++)
		if (strncmp(devargs, tp_live_drivers[i],
			    strlen(tp_live_drivers[i])) == 0)
			return true;
	return false;
}

/*
 * Why a driver's imissed does not count the kernel's drops, or NULL.
 * net_af_packet reads PACKET_STATISTICS (tp_drops: the ring was full)
 * into imissed from DPDK 25.11 only; before, its imissed is always 0.
 * net_af_xdp (every version to 26.07) puts XDP_STATISTICS rx_dropped in
 * imissed but not rx_ring_full nor the fill ring's misses, where a busy
 * socket loses most: its imissed is a lower bound. net_pcap counts
 * libpcap's ps_drop.
 */
static const char *
tp_live_drops_why(const char *driver)
{
	if (strcmp(driver, "net_af_xdp") == 0)
		return "net_af_xdp counts only XDP_STATISTICS rx_dropped in "
			"imissed, not rx_ring_full nor fill ring misses: its "
			"imissed is a lower bound";
#if RTE_VERSION < RTE_VERSION_NUM(25, 11, 0, 0)
	if (strcmp(driver, "net_af_packet") == 0)
		return "net_af_packet before DPDK 25.11 does not read the "
			"kernel's PACKET_STATISTICS: its imissed stays 0 "
			"whatever the kernel drops";
#else
	RTE_SET_USED(driver);
#endif
	return NULL;
}

void
tp_live_ports_check(struct tp_live *live, const uint16_t *ports,
		    uint16_t nb_ports)
{
	struct rte_eth_dev_info info;
	const char *why;
	uint16_t i;

	live->drops_unknown = 0;
	live->drops_why[0] = '\0';
	for (i = 0; i < nb_ports; i++) {
		if (rte_eth_dev_info_get(ports[i], &info) != 0 ||
		    (why = tp_live_drops_why(info.driver_name)) == NULL)
			continue;
		TP_LOG(WARNING, "port %u: input drops unknown: %s",
		       ports[i], why);
		if (live->drops_unknown++ == 0)
			snprintf(live->drops_why, sizeof(live->drops_why),
				 "port %u: %s", ports[i], why);
	}
}
