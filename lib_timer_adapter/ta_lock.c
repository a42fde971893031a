/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The list lock's dead-holder detection (see ta_lock.h): this process's
 * id, kept right in a forked child, and whether a holder still exists.
 * No lock: ta_pid is written at load and in a forked child only.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <rte_common.h>

#include "ta_lock.h"

uint32_t ta_pid;

static void
ta_pid_refresh(void)
{
	ta_pid = (uint32_t)getpid();
}

RTE_INIT(ta_pid_init)
{
	ta_pid_refresh();
	pthread_atfork(NULL, NULL, ta_pid_refresh);
}

int
ta_lock_holder_dead(uint32_t holder)
{
	/* The lock word holds a pid. */
	RTE_BUILD_BUG_ON(sizeof(pid_t) > sizeof(((ta_lock_t *)0)->locked));
	return holder != ta_pid && kill((pid_t)holder, 0) < 0 &&
		errno == ESRCH;
}
