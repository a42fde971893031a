/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The --ipfix* option checks, before EAL starts, in every build (one
 * without libfixbuf refuses export here; the --ipfix-file is checked as
 * every output is, tp_output_check(), after tp_preflight.c registered the
 * inputs and the other outputs), and the collector's address,
 * which the exporter (tp_ipfix.c) resolves again when it starts. Main
 * thread only, no lock.
 */

#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "setup/tp_option.h"
#include "records/tp_ipfix_opts.h"
#include "records/tp_output.h"

/* TP_HAVE_IPFIX: meson defines it where libfixbuf is installed. */
bool
tp_ipfix_opts_available(void)
{
#ifdef TP_HAVE_IPFIX
	return true;
#else
	return false;
#endif
}

bool
tp_ipfix_opts_enabled(const struct tp_config *cfg)
{
	return cfg->ipfix_collector[0] != '\0' || cfg->ipfix_file[0] != '\0';
}

/* "HOST:PORT", "HOST", "[V6]:PORT" or "[V6]" -> host and port. */
static int
tp_ipfix_split(const char *spec, char *host, size_t hlen, uint16_t *port)
{
	const char *colon, *end = spec + strlen(spec);
	unsigned long p = TP_IPFIX_PORT;
	char *e;

	if (spec[0] == '[') {
		const char *rb = strchr(spec, ']');

		if (rb == NULL || (rb[1] != '\0' && rb[1] != ':'))
			return -EINVAL;
		colon = rb[1] == ':' ? rb + 1 : NULL;
		spec++;
		end = rb;
	} else {
		colon = strrchr(spec, ':');
		if (colon != NULL && strchr(spec, ':') != colon)
			colon = NULL;	/* bare IPv6 address, no port */
		if (colon != NULL)
			end = colon;
	}
	if (end == spec || (size_t)(end - spec) >= hlen)
		return -EINVAL;
	memcpy(host, spec, end - spec);
	host[end - spec] = '\0';
	if (colon != NULL) {
		if (colon[1] < '0' || colon[1] > '9')
			return -EINVAL;
		errno = 0;
		p = strtoul(colon + 1, &e, 10);
		if (errno != 0 || *e != '\0' || p > 65535)
			return -EINVAL;
		if (p == 0)
			return -ERANGE;
	}
	*port = (uint16_t)p;
	return 0;
}

/* Resolve the collector (numeric or by name) for the transport. */
int
tp_ipfix_opts_resolve(const struct tp_config *cfg, struct sockaddr_storage *ss,
		 socklen_t *sslen, const char **why)
{
	struct addrinfo hints, *res = NULL;
	char host[NI_MAXHOST], serv[8];
	uint16_t port;
	int ret;

	ret = tp_ipfix_split(cfg->ipfix_collector, host, sizeof(host), &port);
	if (ret < 0) {
		*why = ret == -ERANGE ? "port 0 is not a collector port" :
			"not HOST[:PORT] (IPv6: [ADDR]:PORT)";
		return -EINVAL;
	}
	snprintf(serv, sizeof(serv), "%u", port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = cfg->ipfix_transport == TP_IPFIX_TCP ?
		SOCK_STREAM : SOCK_DGRAM;
	ret = getaddrinfo(host, serv, &hints, &res);
	if (ret != 0 || res == NULL) {
		*why = ret != 0 ? gai_strerror(ret) : "no address";
		return -EINVAL;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*sslen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int
tp_ipfix_opts_check(const struct tp_config *cfg)
{
	struct sockaddr_storage ss;
	char file_why[PATH_MAX + 96];
	const char *why = NULL;
	socklen_t len;

	if (!tp_ipfix_opts_enabled(cfg))
		return 0;
	if (!tp_ipfix_opts_available())
		return tp_config_error("option '--%s': this build has no "
				       "IPFIX export (libfixbuf was not found "
				       "when it was configured; install "
				       "libfixbuf-dev and rebuild)",
				       cfg->ipfix_collector[0] != '\0' ?
				       "ipfix" : "ipfix-file");
	if (cfg->ipfix_collector[0] != '\0' && cfg->ipfix_file[0] != '\0')
		return tp_config_error("options '--ipfix' and '--ipfix-file' "
				       "exclude each other: export to a "
				       "collector or to a file");
	if (cfg->ipfix_file[0] != '\0') {
		if (tp_output_check("--ipfix-file", cfg->ipfix_file,
				    file_why, sizeof(file_why)) < 0)
			return tp_config_error("option '--ipfix-file': '%s' "
					       "%s", cfg->ipfix_file,
					       file_why);
		return 0;
	}
	if (tp_ipfix_opts_resolve(cfg, &ss, &len, &why) < 0)
		return tp_config_error("option '--ipfix': '%s': %s",
				       cfg->ipfix_collector, why);
	return 0;
}
