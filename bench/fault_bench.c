// SPDX-License-Identifier: GPL-2.0
/*
 * fault_bench.c - time to fault in N hugetlb pages
 *
 * Maps N huge pages (anon MAP_HUGETLB, or a MFD_HUGETLB memfd mapped shared
 * or private), faults them in by touching one byte per page or with
 * MADV_POPULATE_WRITE, and reports the time.  Optionally waits before each
 * rep (fixed time, or until the pre-zeroing thread has zeroed all free
 * pages) and records per-page latency.  Prints one JSON line per rep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MFD_HUGE_SHIFT
#define MFD_HUGE_SHIFT 26
#endif

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-S 2M|1G] [-n pages] [-m touch|populate]\n"
		"          [-t private|shared|memfd-private] [-r reps] [-w secs | -W] [-X secs] [-p]\n"
		"  -S  huge page size (default: system default huge page size)\n"
		"  -n  number of pages (default: free_hugepages of that size)\n"
		"  -m  touch: write one byte per page; populate: MADV_POPULATE_WRITE (default touch)\n"
		"  -t  private: anon MAP_PRIVATE|MAP_HUGETLB; shared: MAP_SHARED memfd;\n"
		"      memfd-private: MAP_PRIVATE memfd (default private)\n"
		"  -r  repetitions (default 5)\n"
		"  -w  sleep this many seconds before each rep\n"
		"  -W  before each rep wait until zeroed_hugepages == free_hugepages\n"
		"      (no wait if the file does not exist); -X timeout secs (default 60)\n"
		"  -p  record per-page latency (populate mode: one madvise per page)\n",
		prog);
	exit(1);
}

/* Read one number from a file; -1 if it cannot be read. */
/* /proc/vmstat counter, -1 if absent. */
static void print_delta(const char *name, long before, long after)
{
	if (before < 0 || after < 0)
		printf(",\"%s\":null", name);
	else
		printf(",\"%s\":%ld", name, after - before);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Wait until all free pages are pre-zeroed; returns waited us or -1. */
static double wait_zeroed(unsigned long kb, int timeout)
{
	double t0 = now_us();
	long z, f;

	if (hp_attr(kb, "zeroed_hugepages") < 0)
		return -1;
	for (;;) {
		z = hp_attr(kb, "zeroed_hugepages");
		f = hp_attr(kb, "free_hugepages");
		if (z >= f || now_us() - t0 > timeout * 1e6)
			break;
		usleep(10000);
	}
	if (z < f)
		fprintf(stderr, "warning: timeout: zeroed %ld < free %ld\n", z, f);
	return now_us() - t0;
}

int main(int argc, char **argv)
{
	unsigned long kb = 0, shift;
	long npages = -1;
	int reps = 5, wsecs = 0, wzero = 0, timeout = 60, perpage = 0, opt;
	const char *mode = "touch", *type = "private";
	double *lat = NULL;

	while ((opt = getopt(argc, argv, "S:n:m:t:r:w:WX:ph")) != -1) {
		switch (opt) {
		case 'S':
			if (!strcasecmp(optarg, "2M") || !strcmp(optarg, "2048"))
				kb = 2048;
			else if (!strcasecmp(optarg, "1G") || !strcmp(optarg, "1048576"))
				kb = 1048576;
			else
				usage(argv[0]);
			break;
		case 'n':
			npages = atol(optarg);
			if (npages <= 0)
				usage(argv[0]);
			break;
		case 'm': mode = optarg; break;
		case 't': type = optarg; break;
		case 'r': reps = atoi(optarg); break;
		case 'w': wsecs = atoi(optarg); break;
		case 'W': wzero = 1; break;
		case 'X': timeout = atoi(optarg); break;
		case 'p': perpage = 1; break;
		default: usage(argv[0]);
		}
	}
	if (optind != argc || reps < 1 || wsecs < 0 || timeout < 0 ||
	    (strcmp(mode, "touch") && strcmp(mode, "populate")) ||
	    (strcmp(type, "private") && strcmp(type, "shared") &&
	     strcmp(type, "memfd-private")))
		usage(argv[0]);
	if (!kb)
		kb = default_hpage_kb();
	if (npages < 0)
		npages = hp_attr(kb, "free_hugepages");
	if (npages <= 0) {
		fprintf(stderr, "no free %lu kB huge pages (free_hugepages=%ld)\n", kb, npages);
		return 1;
	}
	shift = __builtin_ctzl(kb) + 10;

	size_t psz = kb << 10, len = psz * npages;

	if (perpage && !(lat = malloc(npages * sizeof(*lat))))
		die("malloc");

	for (int rep = 0; rep < reps; rep++) {
		double wait = 0, t0, t1, t2;
		long hit0, miss0, hit1, miss1;
		int fd = -1;
		char *p;

		if (wsecs)
			sleep(wsecs);
		if (wzero)
			wait = wait_zeroed(kb, timeout);

		if (!strcmp(type, "private")) {
			p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
				 (shift << MAP_HUGE_SHIFT), -1, 0);
		} else {
			fd = memfd_create("fault_bench", MFD_CLOEXEC | MFD_HUGETLB |
					  (shift << MFD_HUGE_SHIFT));
			if (fd < 0)
				die("memfd_create(MFD_HUGETLB)");
			if (ftruncate(fd, len))
				die("ftruncate");
			p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 strcmp(type, "shared") ? MAP_PRIVATE : MAP_SHARED, fd, 0);
		}
		if (p == MAP_FAILED) {
			fprintf(stderr, "mmap %ld x %lu kB: %s (free_hugepages=%ld)\n",
				npages, kb, strerror(errno), hp_attr(kb, "free_hugepages"));
			return 1;
		}

		hit0 = vmstat("htlb_prezero_hit");
		miss0 = vmstat("htlb_prezero_miss");
		t0 = now_us();
		if (perpage) {
			for (long i = 0; i < npages; i++) {
				double s = now_us();

				if (mode[0] == 't')
					*(volatile char *)(p + i * psz) = 1;
				else if (madvise(p + i * psz, psz, MADV_POPULATE_WRITE))
					die("madvise(MADV_POPULATE_WRITE)");
				lat[i] = now_us() - s;
			}
		} else if (mode[0] == 't') {
			for (long i = 0; i < npages; i++)
				*(volatile char *)(p + i * psz) = 1;
		} else if (madvise(p, len, MADV_POPULATE_WRITE)) {
			die("madvise(MADV_POPULATE_WRITE)");
		}
		t1 = now_us();
		hit1 = vmstat("htlb_prezero_hit");
		miss1 = vmstat("htlb_prezero_miss");

		if (munmap(p, len))
			die("munmap");
		if (fd >= 0)
			close(fd);
		t2 = now_us();

		printf("{\"bench\":\"fault\",\"size_kb\":%lu,\"pages\":%ld,\"mode\":\"%s\","
		       "\"type\":\"%s\",\"rep\":%d,\"total_us\":%.1f,\"per_page_us\":%.3f,"
		       "\"unmap_us\":%.1f", kb, npages, mode, type, rep, t1 - t0,
		       (t1 - t0) / npages, t2 - t1);
		if (wzero)
			printf(",\"wait_us\":%.0f", wait);	/* -1: no zeroed_hugepages */
		print_delta("prezero_hit", hit0, hit1);
		print_delta("prezero_miss", miss0, miss1);
		if (perpage) {
			printf(",\"lat_us\":[");
			for (long i = 0; i < npages; i++)
				printf("%s%.2f", i ? "," : "", lat[i]);
			printf("]");
			qsort(lat, npages, sizeof(*lat), cmp_dbl);
			printf(",\"lat_min_us\":%.2f,\"lat_median_us\":%.2f,"
			       "\"lat_p99_us\":%.2f,\"lat_max_us\":%.2f", lat[0],
			       lat[npages / 2], lat[(npages * 99) / 100], lat[npages - 1]);
		}
		printf("}\n");
		fflush(stdout);
	}
	free(lat);
	return 0;
}
