/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The timer_pipeline authors
 */

/*
 * The memory of the flow table's entries and timers: two arrays of
 * anonymous memory of this process, rather than DPDK's heap. The kernel
 * hands out zeroed pages as they are first touched, so a table of
 * millions of flows is ready at once, and unmapping it at exit costs
 * nothing (DPDK's heap zeroes what it frees). The entries are this
 * process's alone: timers hold pointers to them, which only the adapter's
 * service in this process follows.
 *
 * Pages. On 2-MB hugetlb pages when EAL runs on hugepages and the kernel's
 * pool keeps as many free again beside them for DPDK's allocations still
 * to come; on transparent 2-MB pages where the kernel gives them
 * (madvise) otherwise. Pages of the pool stay the pool's between runs: a
 * virtual machine that hands the guest memory it has not used for a while
 * slowly (docs/bench.rst, "Ageing a capture") gives them at full speed,
 * where transparent hugepages go back to the kernel at exit. A hugetlb
 * mapping reserves its pages up front: no fault can fail later.
 *
 * Faulting in. A first touch costs the lcore that makes the flow: on the
 * development VM, 2 MB took 0.2 to 1.7 ms to fault in (hugetlb or
 * transparent pages, 186 MB in 31 to 339 ms), during which that lcore
 * neither reads packets nor ends flows; rte_hash hands positions out in
 * order until every one has been used once, so a flood's first pass
 * through the table, or a SYN scan's whole run, pays it. EAL's start-up
 * is mostly a 100-ms sleep that measures the TSC, so the arrays are
 * mapped before it (tp_flow_mem_start()) and a thread faults them in,
 * position by position, until the table takes them (tp_flow_mem_take(),
 * after EAL). The pages it has not reached are faulted in as before.
 *
 * Locking: the fault thread touches only the arrays and writes only
 * 'faulted'; it stops at 'stop' (atomic), and the main thread reads the
 * rest after joining it. The table is made only after that.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_memory.h>

#include "tp_log.h"
#include "datapath/tp_flow_mem.h"
#include "setup/tp_config.h"

/* Least room for slots of ended flows (see tp_flow_mem_slots()). */
#define TP_ROOM_MIN 1024u
#define TP_ROOM_IN_FLIGHT 65536u

/* mmap()'s page size flag for 2-MB hugetlb pages (linux/mman.h). */
#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define TP_MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
/* Linux 5.14 (older kernels: EINVAL, and the thread touches instead). */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
/* What the thread faults in at a time, of the entries. */
#define TP_FAULT_STEP RTE_PGSIZE_2M

/* The arrays mapped before EAL, and their thread. */
static struct {
	struct tp_flow_mem m;
	uint32_t nb_entries;
	size_t size[2];		/* Entry and timer sizes. */
	pthread_t thread;
	bool running;
	uint32_t stop;		/* Atomic: the thread stops. */
} tp_pre;

/*
 * Slots beyond --flows: an ended flow (no longer counted in nb_live) holds
 * its slot until its last reference is gone and an RCU grace period has
 * passed. References are held by packets and timer events in flight, so
 * the slots waiting are bounded by the mbufs and events, not by --flows:
 * the room is a quarter of --flows (as it always was) only up to twice
 * the events and mbufs (at least TP_ROOM_IN_FLIGHT, which covers the
 * default 8192-mbuf pool many times over). Were it ever short, a new flow
 * finds ENOSPC, reclaims and retries, and is then a counted table_full
 * drop, never a lost record.
 */
uint32_t
tp_flow_mem_slots(const struct tp_config *cfg)
{
	uint64_t in_flight = 2 * ((uint64_t)cfg->nb_events + cfg->nb_mbufs);

	in_flight = RTE_MAX(in_flight, (uint64_t)TP_ROOM_IN_FLIGHT);
	return cfg->nb_flows +
		RTE_MAX((uint32_t)RTE_MIN((uint64_t)cfg->nb_flows / 4,
					  in_flight), TP_ROOM_MIN);
}

/* Free 2-MB pages in the kernel's pool (0 if it cannot tell). */
static uint64_t
tp_flow_mem_huge_free(void)
{
	unsigned long long n = 0;
	FILE *f;

	f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages",
		  "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/* Array 'i' of 'len' bytes on 2-MB hugetlb pages, if the pool has room. */
static int
tp_flow_mem_map_huge(struct tp_flow_mem *m, unsigned int i, size_t len)
{
	void *p;

	len = RTE_ALIGN_CEIL(len, RTE_PGSIZE_2M);
	if (2 * (len / RTE_PGSIZE_2M) > tp_flow_mem_huge_free())
		return -ENOMEM;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		 MAP_ANONYMOUS | MAP_HUGETLB | TP_MAP_HUGE_2MB, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	m->base[i] = p;
	m->map[i] = p;
	m->map_len[i] = len;
	m->huge[i] = true;
	return 0;
}

/* Array 'i' of 'len' bytes: hugetlb pages if 'huge' and it can, else
 * anonymous memory advised to transparent hugepages.
 */
static int
tp_flow_mem_map(struct tp_flow_mem *m, unsigned int i, size_t len, bool huge)
{
	uintptr_t start;
	void *p;

	if (huge && tp_flow_mem_map_huge(m, i, len) == 0)
		return 0;
	/* Room to start on a 2-MB boundary, where a huge page can go. */
	len = RTE_ALIGN_CEIL(len, RTE_PGSIZE_2M) + RTE_PGSIZE_2M;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	m->map[i] = p;
	m->map_len[i] = len;
	m->huge[i] = false;
	start = RTE_ALIGN_CEIL((uintptr_t)p, RTE_PGSIZE_2M);
	/* Only a hint: 4-KB pages work too. */
	(void)madvise((void *)start, len - (start - (uintptr_t)p),
		      MADV_HUGEPAGE);
	m->base[i] = (void *)start;
	return 0;
}

/* Both arrays; 0 or -ENOMEM (nothing left mapped). */
static int
tp_flow_mem_map_both(struct tp_flow_mem *m, uint32_t nb_entries,
		     const size_t *size, bool huge)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < 2; i++) {
		if (tp_flow_mem_map(m, i, (size_t)nb_entries * size[i],
				    huge) < 0) {
			tp_flow_mem_free(m);
			return -ENOMEM;
		}
	}
	m->len = (uint64_t)nb_entries * (size[0] + size[1]);
	return 0;
}

/* Fault in [from, to) of array 'i', 2-MB aligned within its mapping. */
static void
tp_flow_mem_fault(struct tp_flow_mem *m, unsigned int i, size_t from,
		  size_t to)
{
	char *base = m->base[i];
	size_t end = (size_t)((char *)m->map[i] + m->map_len[i] - base);
	size_t off;

	from = RTE_ALIGN_FLOOR(from, RTE_PGSIZE_2M);
	to = RTE_MIN(RTE_ALIGN_CEIL(to, RTE_PGSIZE_2M), end);
	if (from >= to)
		return;
	if (madvise(base + from, to - from, MADV_POPULATE_WRITE) == 0)
		return;
	/* No table uses the memory yet: a write of what is there. */
	for (off = from; off < to; off += RTE_PGSIZE_4K)
		*(volatile char *)(base + off) = *(volatile char *)(base + off);
}

/* The thread: positions in rte_hash's order, both arrays in step. */
static void *
tp_flow_mem_run(void *arg)
{
	const uint32_t step = RTE_MAX((uint32_t)(TP_FAULT_STEP /
						  tp_pre.size[0]), 1u);
	uint32_t pos = 0, next;

	RTE_SET_USED(arg);
	while (pos < tp_pre.nb_entries &&
	       !__atomic_load_n(&tp_pre.stop, __ATOMIC_ACQUIRE)) {
		next = RTE_MIN(tp_pre.nb_entries - pos, step) + pos;
		tp_flow_mem_fault(&tp_pre.m, 0, pos * tp_pre.size[0],
				  next * tp_pre.size[0]);
		tp_flow_mem_fault(&tp_pre.m, 1, pos * tp_pre.size[1],
				  next * tp_pre.size[1]);
		pos = next;
	}
	tp_pre.m.faulted = (uint64_t)pos * (tp_pre.size[0] + tp_pre.size[1]);
	return NULL;
}

/*
 * Whether EAL will run on hugepages, as far as its arguments tell before
 * it starts: 1 yes (it takes them as it needs them), 0 no (--no-huge),
 * -1 not known (memory reserved up front, taken before the table's).
 */
static int
tp_flow_mem_eal_huge(int argc, char **argv)
{
	static const char *const upfront[] = { "-m", "--socket-mem",
		"--legacy-mem" };
	int i, huge = 1;
	unsigned int k;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--no-huge") == 0)
			return 0;
		for (k = 0; k < RTE_DIM(upfront); k++) {
			size_t n = strlen(upfront[k]);

			if (strncmp(argv[i], upfront[k], n) == 0 &&
			    (argv[i][n] == '\0' || argv[i][n] == '=' ||
			     (n == 2 && argv[i][n] >= '0' &&
			      argv[i][n] <= '9')))
				huge = -1;
		}
	}
	return huge;
}

void
tp_flow_mem_start(const struct tp_config *cfg, size_t entry_size,
		  size_t timer_size, int eal_argc, char **eal_argv)
{
	int huge = tp_flow_mem_eal_huge(eal_argc, eal_argv);

	if (huge < 0 || tp_pre.running || tp_pre.m.map[0] != NULL)
		return;
	/* rte_hash's positions: its slots and position 0, never used. With
	 * several writer lcores it has more (their caches): the table then
	 * maps its own (tp_flow_mem_take()).
	 */
	tp_pre.nb_entries = tp_flow_mem_slots(cfg) + 1;
	tp_pre.size[0] = entry_size;
	tp_pre.size[1] = timer_size;
	if (tp_flow_mem_map_both(&tp_pre.m, tp_pre.nb_entries, tp_pre.size,
				 huge == 1) < 0)
		return;
	tp_pre.stop = 0;
	if (pthread_create(&tp_pre.thread, NULL, tp_flow_mem_run, NULL) != 0)
		return;		/* mapped, not faulted in */
	tp_pre.running = true;
}

/* Stop the thread, if any. */
static void
tp_flow_mem_settle(void)
{
	if (!tp_pre.running)
		return;
	__atomic_store_n(&tp_pre.stop, 1, __ATOMIC_RELEASE);
	pthread_join(tp_pre.thread, NULL);
	tp_pre.running = false;
}

int
tp_flow_mem_take(struct tp_flow_mem *m, uint32_t nb_entries,
		 size_t entry_size, size_t timer_size)
{
	const size_t size[2] = { entry_size, timer_size };

	tp_flow_mem_settle();
	if (tp_pre.m.map[0] != NULL && nb_entries <= tp_pre.nb_entries &&
	    entry_size == tp_pre.size[0] && timer_size == tp_pre.size[1]) {
		*m = tp_pre.m;
		memset(&tp_pre.m, 0, sizeof(tp_pre.m));
		return 0;
	}
	tp_flow_mem_release();
	return tp_flow_mem_map_both(m, nb_entries, size,
				    rte_eal_has_hugepages() != 0);
}

void
tp_flow_mem_free(struct tp_flow_mem *m)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (m->map[i] != NULL)
			munmap(m->map[i], m->map_len[i]);
		m->map[i] = NULL;
		m->base[i] = NULL;
		m->huge[i] = false;
	}
}

void
tp_flow_mem_release(void)
{
	tp_flow_mem_settle();
	tp_flow_mem_free(&tp_pre.m);
}
