/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_ARGS_H_
#define _TP_ARGS_H_

/*
 * The application's command line (tp_args.c), parsed once before EAL
 * starts.
 */

#include "setup/tp_config.h"

/**
 * Parse the application's part of the command line (after "--"), loading
 * the --config file first if one is given, so the command line wins.
 *
 * @return
 *   0 on success, 1 if --help was asked for, -EINVAL after printing one
 *   error message naming the problem.
 */
int tp_args_parse(struct tp_config *cfg, int argc, char **argv);

#endif /* _TP_ARGS_H_ */
