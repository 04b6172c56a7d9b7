// SPDX-License-Identifier: GPL-2.0
/*
 * scale_bench.c - hugetlb_lock work of allocations while a node refills
 *
 * From CPU -c (and its node), for -r repetitions:
 *   1. waits until the node's free pages of the size are all zeroed;
 *   2. with -d D, a child on the same CPU maps D pages, writes them and
 *      exits, so that D dirty folios go back to the node and its zeroing
 *      workers start on them;
 *   3. at once maps -n pages and faults them in one by one, timing each
 *      fault, then unmaps them.
 * With -b B, B busy loops run in user space on the node's other CPUs
 * meanwhile (the floor of a guest whose vCPUs outnumber the host's cores).
 * Around each step it reads hugetlb_lock's acquisitions from /proc/lock_stat
 * (CONFIG_LOCK_STAT; the counts are 0 without it) and the htlb_prezero_*
 * vm events, and prints one JSON line per repetition. With -R it only
 * measures a refill: D dirty folios freed, then the acquisitions until the
 * node has zeroed them all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

#define MAX_BUSY 256

static unsigned long kb = 2048;
static int cpu, nid;

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-S 2M|1G] [-c cpu] [-n pages] [-d dirty] [-b busy] [-r reps] [-R]\n",
		prog);
	exit(2);
}

/* hugetlb_lock's acquisitions since /proc/lock_stat was last cleared. */
static long lock_acquisitions(void)
{
	FILE *f = fopen("/proc/lock_stat", "r");
	char line[512];
	double v[11];
	long ret = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "hugetlb_lock:");

		if (!p || sscanf(p + strlen("hugetlb_lock:"),
				 "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
				 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
				 &v[7], &v[8], &v[9], &v[10]) != 11)
			continue;
		/* acq-bounces, then acquisitions */
		ret += (long)v[7];
	}
	fclose(f);
	return ret;
}

static long node_attr(const char *attr)
{
	char path[160];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-%lukB/%s",
		 nid, kb, attr);
	return read_long(path);
}

static int wait_zeroed(void)
{
	int i;

	for (i = 0; i < 30000; i++) {
		if (node_attr("zeroed_hugepages") >= node_attr("free_hugepages"))
			return 0;
		usleep(10000);
	}
	return -1;
}

static void pin(int c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* The @i-th CPU of the node other than the bench's own, or -1. */
static int node_cpu(int i)
{
	char path[96], buf[1024], *p = buf;
	FILE *f;
	long a, b, c;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", nid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	while (*p && *p != '\n') {
		char *q = p;

		a = strtol(p, &p, 10);
		if (p == q)
			break;
		b = *p == '-' ? strtol(p + 1, &p, 10) : a;
		for (c = a; c <= b; c++)
			if (c != cpu && !i--)
				return c;
		if (*p == ',')
			p++;
	}
	return -1;
}

static char *map_pages(long n)
{
	int shift = kb == 2048 ? 21 : 30;
	char *p = mmap(NULL, n * kb * 1024, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		       (shift << MAP_HUGE_SHIFT), -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

/* Free @n dirty folios to the node, from a child on the same CPU. */
static void free_dirty(long n)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		die("fork");
	if (!pid) {
		char *p = map_pages(n);
		long i;

		for (i = 0; i < n; i++)
			memset(p + i * kb * 1024, 0x5a, 4096);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		exit(1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void clear_lock_stat(void)
{
	FILE *f = fopen("/proc/lock_stat", "w");

	if (f) {
		fputs("0\n", f);
		fclose(f);
	}
}

static void refill(long dirty, int rep)
{
	long z0, a, n;
	double t0, t;

	free_dirty(dirty);
	z0 = vmstat("htlb_prezero_zeroed");
	clear_lock_stat();
	t0 = now_us();
	if (wait_zeroed())
		fprintf(stderr, "# node %d did not zero its pool in 300 s\n", nid);
	t = now_us() - t0;
	a = lock_acquisitions();
	n = vmstat("htlb_prezero_zeroed") - z0;
	printf("{\"bench\":\"scale-refill\",\"size_kb\":%lu,\"rep\":%d,\"dirty\":%ld,"
	       "\"zeroed\":%ld,\"lock_acq\":%ld,\"us\":%.0f}\n",
	       kb, rep, dirty, n, a, t);
}

static void burst(long pages, long dirty, int busy, int rep)
{
	long a_map, a_fault, a_free, hit0, miss0, steal0, z0, i;
	double *lat, t0, t;
	char *p;

	lat = calloc(pages, sizeof(*lat));
	if (!lat)
		die("calloc");
	if (dirty)
		free_dirty(dirty);
	hit0 = vmstat("htlb_prezero_hit");
	miss0 = vmstat("htlb_prezero_miss");
	steal0 = vmstat("htlb_prezero_steal");
	z0 = vmstat("htlb_prezero_zeroed");
	clear_lock_stat();
	t0 = now_us();
	p = map_pages(pages);
	a_map = lock_acquisitions();
	for (i = 0; i < pages; i++) {
		t = now_us();
		p[i * kb * 1024] = 1;
		lat[i] = now_us() - t;
	}
	t = now_us() - t0;
	a_fault = lock_acquisitions() - a_map;
	z0 = vmstat("htlb_prezero_zeroed") - z0;
	munmap(p, pages * kb * 1024);
	a_free = lock_acquisitions() - a_map - a_fault;
	qsort(lat, pages, sizeof(*lat), cmp_double);
	printf("{\"bench\":\"scale-burst\",\"size_kb\":%lu,\"rep\":%d,\"pages\":%ld,"
	       "\"dirty\":%ld,\"busy\":%d,\"burst_us\":%.0f,\"p50_us\":%.1f,"
	       "\"max_us\":%.1f,\"lock_acq_map\":%ld,\"lock_acq_fault\":%ld,"
	       "\"lock_acq_free\":%ld,\"zeroed_meanwhile\":%ld,\"hit\":%ld,"
	       "\"miss\":%ld,\"steal\":%ld}\n",
	       kb, rep, pages, dirty, busy, t, lat[pages / 2], lat[pages - 1],
	       a_map, a_fault, a_free, z0, vmstat("htlb_prezero_hit") - hit0,
	       vmstat("htlb_prezero_miss") - miss0,
	       vmstat("htlb_prezero_steal") - steal0);
	free(lat);
}

int main(int argc, char **argv)
{
	long pages = 128, dirty = 0;
	int busy = 0, reps = 1, refill_only = 0, opt, r, i;
	pid_t kids[MAX_BUSY];

	while ((opt = getopt(argc, argv, "S:c:n:d:b:r:R")) != -1) {
		switch (opt) {
		case 'S':
			kb = parse_hpage_size(optarg);
			if (!kb)
				usage(argv[0]);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'n':
			pages = atol(optarg);
			break;
		case 'd':
			dirty = atol(optarg);
			break;
		case 'b':
			busy = atoi(optarg);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'R':
			refill_only = 1;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (pages < 1 || dirty < 0 || busy < 0 || busy > MAX_BUSY || reps < 1 ||
	    (refill_only && dirty < 1))
		usage(argv[0]);
	pin(cpu);
	{
		char path[96];

		for (nid = 0; nid < 64; nid++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/node%d", cpu, nid);
			if (!access(path, F_OK))
				break;
		}
		if (nid == 64)
			nid = 0;
	}
	for (i = 0; i < busy; i++) {
		int c = node_cpu(i);

		if (c < 0) {
			fprintf(stderr, "node %d has fewer than %d other CPUs\n", nid, busy);
			busy = i;
			reps = 0;
			break;
		}
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (!kids[i]) {
			pin(c);
			for (;;)
				;
		}
	}
	for (r = 1; r <= reps; r++) {
		if (wait_zeroed()) {
			fprintf(stderr, "# node %d is not zeroed: is zeroed_reserve set?\n", nid);
			break;
		}
		if (refill_only)
			refill(dirty, r);
		else
			burst(pages, dirty, busy, r);
		fflush(stdout);
	}
	for (i = 0; i < busy; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	return reps && r > reps ? 0 : 1;
}
