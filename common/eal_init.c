/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * tp_eal_init() (eal_init.h). Its state is the one call's: which program
 * is inside rte_eal_init() and the status a bad option ends it with; only
 * the main thread touches it, before any other thread exists.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "eal_init.h"

static const char *eal_prog = "dpdk";
static int eal_usage_status;
static bool eal_in_init;

static void
eal_args_error(void)
{
	fprintf(stderr, "%s: error: invalid EAL options "
		"(EAL's messages above; see --help)\n", eal_prog);
}

/* EAL exited from inside rte_eal_init(): turn a failure into ours. */
static void
eal_exit_handler(int status, void *arg __rte_unused)
{
	if (!eal_in_init || status == EXIT_SUCCESS)
		return;
	fflush(stdout);
	eal_args_error();
	_exit(eal_usage_status);	/* exit() from a handler is undefined */
}

int
tp_eal_exit_register(const char *prog, int usage_status)
{
	eal_prog = prog;
	eal_usage_status = usage_status;
	/* on_exit(), not atexit(): the handler needs the status. */
	return on_exit(eal_exit_handler, NULL) == 0 ? 0 : -1;
}

int
tp_eal_init(int argc, char **argv)
{
	int ret;

	eal_in_init = true;
	ret = rte_eal_init(argc, argv);
	eal_in_init = false;
	if (ret < 0 && rte_errno == EINVAL) {
		eal_args_error();
		return -EINVAL;
	}
	return ret;
}
