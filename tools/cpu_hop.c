/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * cpu_hop: how far apart two CPUs are, sampled while a benchmark runs.
 *
 *   cpu_hop [-a CPU] [-b CPU] [-i MS] [-d SECONDS]
 *
 * Every MS milliseconds (default 100), a thread on CPU a and one on CPU b
 * (defaults 0 and 1) pass a cache line back and forth for at most 2 ms,
 * in blocks of 16 round trips; the sample is the fastest block's time
 * per one-way pass, in ns. Between samples both threads sleep, so a
 * program busy on those CPUs keeps them but for about 2 % of the time.
 * One line per sample on stdout: "UNIX_MS NS", NS -1 when the two threads
 * did not run at the same time within the 2 ms (a busy CPU's time slice).
 * Runs for SECONDS (default: until SIGINT or SIGTERM).
 *
 * Why: on a VM, a vCPU's thread can move between host cores, and how far
 * apart the two vCPUs then are decides how fast work handed from one CPU
 * to the other goes. On docs/bench.rst's 2-vCPU VM a sample is either
 * 40-60 ns or 170-190 ns, and an event pipeline (l2fwd-event or
 * timer_pipeline) forwards some 6 or some 4 Mpps accordingly:
 * tools/bench_pipeline_report.py compares the programs at each distance.
 *
 * Plain C and pthreads, no DPDK. The line is written only by the thread
 * whose turn it is (odd values by a, even by b); the flags are atomics.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HOP_BLOCK 16		/* round trips per timed block */
#define HOP_WINDOW_NS 2000000	/* at most this long per sample */
#define HOP_LEAD_NS 200000	/* b wakes this much before a */

/* The line passed between the CPUs, alone in its cache line. */
static struct {
	uint64_t v;
	char pad[56];
} hop_line __attribute__((aligned(64)));

static volatile sig_atomic_t hop_stop;
static uint64_t hop_t0, hop_period_ns;
static int hop_cpu_b;

static uint64_t
hop_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
hop_sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / 1000000000u),
		.tv_nsec = (long)(t % 1000000000u),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR && !hop_stop)
		;
}

static void
hop_cpus(cpu_set_t *s, int cpu)
{
	CPU_ZERO(s);
	CPU_SET(cpu, s);
}

/* CPU b: answers every odd value with the next even one, near each sample. */
static void *
hop_peer(void *arg)
{
	uint64_t k, end, v, last = 0;
	unsigned int spins = 0;

	(void)arg;
	for (k = 1; !hop_stop; k++) {
		hop_sleep_until(hop_t0 + k * hop_period_ns - HOP_LEAD_NS);
		end = hop_now() + HOP_LEAD_NS + HOP_WINDOW_NS;
		for (;;) {
			v = __atomic_load_n(&hop_line.v, __ATOMIC_ACQUIRE);
			if ((v & 1) && v != last) {
				__atomic_store_n(&hop_line.v, v + 1,
						 __ATOMIC_RELEASE);
				last = v;
				continue;
			}
			if (++spins % 1024 == 0 && hop_now() > end)
				break;
		}
	}
	return NULL;
}

/* CPU a: one sample, the fastest block's ns per one-way pass (-1: none). */
static long
hop_sample(uint64_t *seq)
{
	const uint64_t end = hop_now() + HOP_WINDOW_NS;
	uint64_t best = UINT64_MAX, t1, t2;
	unsigned int i, spins;

	while ((t1 = hop_now()) < end) {
		for (i = 0; i < HOP_BLOCK; i++) {
			*seq += 2;
			__atomic_store_n(&hop_line.v, *seq - 1,
					 __ATOMIC_RELEASE);
			spins = 0;
			while (__atomic_load_n(&hop_line.v, __ATOMIC_ACQUIRE) !=
			       *seq) {
				if (++spins % 1024 == 0 && hop_now() > end)
					goto out;
			}
		}
		t2 = hop_now();
		if (t2 - t1 < best)
			best = t2 - t1;
	}
out:
	return best == UINT64_MAX ? -1 : (long)(best / (2 * HOP_BLOCK));
}

static void
hop_signal(int sig)
{
	(void)sig;
	hop_stop = 1;
}

static void
hop_usage(const char *prg)
{
	fprintf(stderr, "usage: %s [-a CPU] [-b CPU] [-i MS] [-d SECONDS]\n",
		prg);
}

int
main(int argc, char **argv)
{
	int cpu_a = 0, opt, ms = 100;
	uint64_t k, seq = 0, stop_at = UINT64_MAX;
	struct timespec wall;
	pthread_attr_t attr;
	pthread_t peer;
	cpu_set_t cpus;
	long ns;
	char *e;

	hop_cpu_b = 1;
	while ((opt = getopt(argc, argv, "a:b:i:d:h")) != -1) {
		switch (opt) {
		case 'a':
			cpu_a = (int)strtol(optarg, &e, 10);
			break;
		case 'b':
			hop_cpu_b = (int)strtol(optarg, &e, 10);
			break;
		case 'i':
			ms = (int)strtol(optarg, &e, 10);
			break;
		case 'd':
			stop_at = (uint64_t)strtoul(optarg, &e, 10);
			break;
		default:
			hop_usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
		if (*optarg == '\0' || *e != '\0') {
			hop_usage(argv[0]);
			return 2;
		}
	}
	if (optind != argc || ms < 10 || cpu_a < 0 || hop_cpu_b < 0 ||
	    cpu_a == hop_cpu_b) {
		fprintf(stderr, "%s: two different CPUs and -i 10 or more\n",
			argv[0]);
		return 2;
	}
	signal(SIGINT, hop_signal);
	signal(SIGTERM, hop_signal);
	hop_period_ns = (uint64_t)ms * 1000000u;
	hop_t0 = hop_now() + hop_period_ns;
	if (stop_at != UINT64_MAX)
		stop_at = stop_at * 1000u / (uint64_t)ms;
	hop_cpus(&cpus, cpu_a);
	if (pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus) != 0) {
		fprintf(stderr, "%s: cannot run on CPU %d\n", argv[0], cpu_a);
		return 1;
	}
	hop_cpus(&cpus, hop_cpu_b);
	if (pthread_attr_init(&attr) != 0 ||
	    pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus) != 0 ||
	    pthread_create(&peer, &attr, hop_peer, NULL) != 0) {
		fprintf(stderr, "%s: cannot run a thread on CPU %d\n",
			argv[0], hop_cpu_b);
		return 1;
	}
	pthread_attr_destroy(&attr);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (k = 1; !hop_stop && k <= stop_at; k++) {
		hop_sleep_until(hop_t0 + k * hop_period_ns);
		if (hop_stop)
			break;
		ns = hop_sample(&seq);
		clock_gettime(CLOCK_REALTIME, &wall);
		printf("%lld %ld\n", (long long)wall.tv_sec * 1000 +
		       wall.tv_nsec / 1000000, ns);
	}
	hop_stop = 1;
	pthread_join(peer, NULL);
	return 0;
}
