/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_PREFLIGHT_H_
#define _TP_PREFLIGHT_H_

/* Checks before EAL starts: EAL arguments the build cannot honour, inputs,
 * outputs, interfaces; their end once it has (tp_preflight.c).
 */

struct tp_config;

/**
 * Check the files named on the command line before EAL starts, printing
 * one message naming the file and the problem:
 * - every net_pcap rx_pcap capture, read with libpcap (tp_capture.h): a
 *   regular pcap or pcapng file of a link type the parser reads, at least
 *   one packet with infinite_rx=1 or --stop-when-done, no packet over 2048
 *   bytes with infinite_rx=1; a capture cut short is only a warning, and
 *   net_pcap is pointed (argv is rewritten) at a copy without the records
 *   over 65535 bytes, when there are any;
 * - every tx_pcap, the --flow-log, --stats-json and --summary-json:
 *   tp_output_check() (not a symbolic link, not a directory, not an input:
 *   every rx_pcap capture and the --config file are registered as inputs
 *   first, with tp_output_add_input()).
 *
 * @param argc, argv  The EAL arguments (argv[0] is the program).
 * @param cfg  The parsed application options.
 * @return 0, or -1 when the pipeline must not start (exit status 2).
 */
int tp_preflight_check_files(int argc, char **argv,
			     const struct tp_config *cfg);

/**
 * Check the EAL arguments this build cannot honour, before EAL starts. A
 * program linked with DPDK's static libraries (meson's
 * pipeline_dpdk_link, the default) has every DPDK driver built in; a
 * plugin given with -d (--driver-path from DPDK 26.07) would load a
 * shared DPDK of its own beside it, whose drivers the program never
 * sees. One message naming -d and the shared build.
 *
 * @param argc, argv  The EAL arguments (argv[0] is the program).
 * @return 0, or -1 when the pipeline must not start (exit status 2).
 */
int tp_preflight_check_eal(int argc, char **argv);

/**
 * Once EAL has started: finish the captures' checks that ran beside its
 * start (tp_capture_settle(): the message of a refusal, warnings), and
 * probe each net_pcap whose capture then needed a copy again, on the copy
 * (the same name and arguments, hence the same port id: it is the lowest
 * free one once the device is removed).
 *
 * @return 0; -EINVAL when a capture is refused (exit status 2); -EIO
 *   when a net_pcap could not be probed again.
 */
int tp_preflight_settle(void);

#endif /* _TP_PREFLIGHT_H_ */
