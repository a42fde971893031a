/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PORTS_H_
#define _TP_PORTS_H_

/* Ethdev ports and the mbuf pool (tp_ports.c). */

struct tp_config;
struct tp_ctx;

/**
 * Check the files named on the command line before EAL starts, printing
 * one message naming the file and the problem:
 * - every net_pcap rx_pcap capture, read with libpcap (tp_capture.h): a
 *   regular pcap or pcapng file of a link type the parser reads, at least
 *   one packet with infinite_rx=1 or --stop-when-done, no packet over 2048
 *   bytes with infinite_rx=1; a capture cut short is only a warning, and
 *   net_pcap is pointed (argv is rewritten) at a copy without the records
 *   over 65535 bytes, when there are any;
 * - every tx_pcap and the --flow-log: not a symbolic link, not a
 *   directory, not a capture being read, in an existing directory.
 *
 * @param argc, argv  The EAL arguments (argv[0] is the program).
 * @param cfg  The parsed application options.
 * @return 0, or -1 when the pipeline must not start (exit status 2).
 */
int tp_ports_check_files(int argc, char **argv, const struct tp_config *cfg);

/** Select ports by portmask and pair them; -EINVAL if none. */
int tp_ports_probe(struct tp_ctx *ctx);

/** Register mbuf fields, create the pool, configure ports and queues. */
int tp_ports_setup(struct tp_ctx *ctx);

/** Start the ports and wait (bounded) for their links. */
int tp_ports_start(struct tp_ctx *ctx);

/** Stop and close the ports, free the pool. */
void tp_ports_stop(struct tp_ctx *ctx);

#endif /* _TP_PORTS_H_ */
