/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_CONFIG_FILE_H_
#define _TP_CONFIG_FILE_H_

/*
 * INI configuration files (tp_config_file.c), read with rte_cfgfile
 * before EAL starts.
 */

#include "setup/tp_config.h"

/** Apply an INI file; 0, or -EINVAL after printing one error. */
int tp_config_file_load(struct tp_config *cfg, const char *fname);

#endif /* _TP_CONFIG_FILE_H_ */
