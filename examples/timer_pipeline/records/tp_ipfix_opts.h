/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

#ifndef _TP_IPFIX_OPTS_H_
#define _TP_IPFIX_OPTS_H_

/*
 * The --ipfix* options (tp_ipfix_opts.c), in every build: checked before
 * EAL starts, and the collector's address. No state.
 */

#include <stdbool.h>
#include <sys/socket.h>

#include "setup/tp_config.h"

/** Default collector port (RFC 7011). */
#define TP_IPFIX_PORT 4739

/**
 * Check the --ipfix* options before EAL starts (host resolves, port not 0,
 * file writable, options consistent, built with libfixbuf).
 *
 * @return 0, or -EINVAL after printing one message naming the option.
 */
int tp_ipfix_opts_check(const struct tp_config *cfg);

/** True when --ipfix or --ipfix-file is set. */
bool tp_ipfix_opts_enabled(const struct tp_config *cfg);

/** True when this build exports IPFIX (it has libfixbuf). */
bool tp_ipfix_opts_available(void);

/**
 * Resolve --ipfix (numeric or by name) for the --ipfix-transport.
 *
 * @param why  Set to the reason on failure.
 * @return 0, or -EINVAL.
 */
int tp_ipfix_opts_resolve(const struct tp_config *cfg,
			  struct sockaddr_storage *ss, socklen_t *sslen,
			  const char **why);

#endif /* _TP_IPFIX_OPTS_H_ */
