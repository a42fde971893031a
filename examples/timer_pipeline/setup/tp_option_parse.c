/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The strict parsers of option values (tp_option.c stores what they
 * return): numbers without blanks or signs, durations with a unit, flow
 * selectors, lcore lists, booleans. Setup only, before EAL starts; no
 * state.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "setup/tp_option_parse.h"

#define TP_NS_PER_S UINT64_C(1000000000)

/* Digits only: strtoull alone would also take blanks, a sign or "0x". */
int
tp_option_parse_u64(const char *s, int base, uint64_t *out)
{
	unsigned long long v;
	const char *p;
	char *end;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	for (p = s; *p != '\0'; p++)
		if (base == 16 ? !isxdigit((unsigned char)*p) :
		    !isdigit((unsigned char)*p))
			return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

/* "<digits>[.<digits>][unit]" with unit ns, us, ms, s (default), m, h. */
int
tp_option_parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *u; uint64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", TP_NS_PER_S }, { "", TP_NS_PER_S },
		{ "m", 60 * TP_NS_PER_S }, { "h", 3600 * TP_NS_PER_S },
	};
	uint64_t whole = 0, frac = 0, frac_div = 1, mul = 0, frac_ns;
	const char *p = s;
	unsigned int i;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > UINT64_MAX / 10 - 9)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (frac_div >= TP_NS_PER_S)
				return -EINVAL;	/* finer than 1 ns */
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_div *= 10;
		}
	}
	for (i = 0; i < RTE_DIM(units); i++)
		if (strcmp(p, units[i].u) == 0)
			mul = units[i].mul;
	if (mul == 0)
		return -EINVAL;
	if (whole > UINT64_MAX / mul)
		return -ERANGE;
	/* frac < frac_div <= 1e9, frac_div a power of ten, mul one times
	 * 1, 60 or 3600: the division is exact or the product small, so
	 * neither overflows (a wrapped value could land in range).
	 */
	frac_ns = mul >= frac_div ? frac * (mul / frac_div) :
		frac * mul / frac_div;
	if (frac_ns > UINT64_MAX - whole * mul)
		return -ERANGE;
	*ns = whole * mul + frac_ns;
	return 0;
}

/* --trace-flow: ADDR, ADDR:PORT, [ADDR6], [ADDR6]:PORT or any:PORT. */
int
tp_option_parse_flowsel(const char *s, struct tp_flow_sel *sel)
{
	char addr[64];
	const char *port = NULL, *end;
	uint64_t p = 0;
	size_t len;

	memset(sel, 0, sizeof(*sel));
	if (strlen(s) >= sizeof(sel->text))
		return -EINVAL;
	if (s[0] == '[') {
		end = strchr(s, ']');
		if (end == NULL || (end[1] != '\0' && end[1] != ':'))
			return -EINVAL;
		len = end - s - 1;
		port = end[1] == ':' ? end + 2 : NULL;
		s++;
	} else {
		end = strchr(s, ':');
		/* Two colons or more: a bare IPv6 address, no port. */
		if (end != NULL && strchr(end + 1, ':') == NULL) {
			len = end - s;
			port = end + 1;
		} else {
			len = strlen(s);
		}
	}
	if (len == 0 || len >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (port != NULL &&
	    (tp_option_parse_u64(port, 10, &p) < 0 || p == 0 || p > UINT16_MAX))
		return -EINVAL;
	if (inet_pton(AF_INET, addr, sel->addr) == 1)
		sel->ipver = 4;
	else if (inet_pton(AF_INET6, addr, sel->addr) == 1)
		sel->ipver = 6;
	else if (strcmp(addr, "any") != 0 || port == NULL)
		return -EINVAL;
	sel->port = (uint16_t)p;
	return 0;
}

/* "0,2-3": lcore ids below RTE_MAX_LCORE. */
int
tp_option_parse_lcores(const char *s, bool *set)
{
	bool tmp[RTE_MAX_LCORE] = { false };
	const char *p = s;
	unsigned long lo, hi, i;
	char *end;

	if (*p == '\0')
		return -EINVAL;
	for (;;) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= RTE_MAX_LCORE)
			return -ERANGE;
		for (i = lo; i <= hi; i++)
			tmp[i] = true;
		if (*p == '\0')
			break;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
	memcpy(set, tmp, sizeof(tmp));
	return 0;
}

int
tp_option_parse_bool(const char *s, bool *b)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	unsigned int i;

	for (i = 0; i < RTE_DIM(yes); i++) {
		if (strcmp(s, yes[i]) == 0) {
			*b = true;
			return 0;
		}
		if (strcmp(s, no[i]) == 0) {
			*b = false;
			return 0;
		}
	}
	return -EINVAL;
}
