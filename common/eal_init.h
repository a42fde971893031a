/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _EAL_INIT_H_
#define _EAL_INIT_H_

/*
 * rte_eal_init() for the project's programs (the pipeline and the
 * benchmark): bad EAL options end the run with one line of the program's
 * own and one exit status, on every DPDK version.
 */

/**
 * Register the handler that ends a bad EAL option (see tp_eal_init()).
 * Call it first in main(): exit handlers run in reverse order, so the
 * program's own atexit() clean-ups, registered later, still run before it.
 *
 * @param prog
 *   The program's name, for the line.
 * @param usage_status
 *   The exit status of a bad EAL option.
 * @return
 *   0, or -1 if the handler could not be registered.
 */
int tp_eal_exit_register(const char *prog, int usage_status);

/**
 * Initialise EAL as rte_eal_init() does.
 *
 * Up to 24.11 rte_eal_init() returns -1 with rte_errno EINVAL on a bad
 * option; from 25.11 EAL parses its options with argparse, which calls
 * exit() inside rte_eal_init() on an unknown option or one given twice
 * (status 234). Both end the same way: "PROG: error: invalid EAL options
 * (EAL's messages above; see --help)" on stderr, then the caller returns
 * usage_status (first case), or the process exits with it (second case,
 * from the on_exit() handler of tp_eal_exit_register(): it sees the
 * status, so EAL's --help, which exits 0 from inside rte_eal_init() too,
 * stays a success).
 *
 * @return
 *   What rte_eal_init() returns (the number of arguments it parsed), or
 *   -EINVAL after the line was printed (bad options: the caller returns
 *   its usage status), or -1 with rte_errno set (any other failure).
 */
int tp_eal_init(int argc, char **argv);

#endif /* _EAL_INIT_H_ */
