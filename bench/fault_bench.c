// SPDX-License-Identifier: GPL-2.0
/*
 * fault_bench.c - time to fault in N hugetlb pages
 *
 * Maps N huge pages (anon MAP_HUGETLB, or a MFD_HUGETLB memfd mapped shared
 * or private), faults them in by touching one byte per page or with
 * MADV_POPULATE_WRITE, and reports the time.  Optionally waits before each
 * rep (fixed time, or until the pre-zeroing thread has zeroed all free
 * pages) and records per-page latency.  Prints one figure line ("bench: "
 * and a JSON object) per rep.
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

int main(int argc, char **argv)
{
	unsigned long kb = 0;
	long npages = -1;
	int reps = 5, wsecs = 0, wzero = 0, timeout = 60, perpage = 0;
	const char *mode = "touch", *type = "private";
	double *lat = NULL;
	const struct opt opts[] = {
		{ 'S', OPT_HPAGE, &kb }, { 'n', OPT_LONG, &npages },
		{ 'm', OPT_STR, &mode }, { 't', OPT_STR, &type },
		{ 'r', OPT_INT, &reps }, { 'w', OPT_INT, &wsecs },
		{ 'W', OPT_FLAG, &wzero }, { 'X', OPT_INT, &timeout },
		{ 'p', OPT_FLAG, &perpage }, { 0 }
	};

	parse_opts(argc, argv, opts, usage);
	/* npages is -1 without -n: the free pages, below */
	if (npages == 0 || npages < -1 || reps < 1 || wsecs < 0 || timeout < 0 ||
	    (strcmp(mode, "touch") && strcmp(mode, "populate")) ||
	    (strcmp(type, "private") && strcmp(type, "shared") &&
	     strcmp(type, "memfd-private")))
		usage(argv[0]);
	if (!kb)
		kb = default_hpage_kb();
	if (npages < 0)
		npages = free_hpages(kb);

	size_t psz = kb << 10, len = psz * npages;

	if (perpage && !(lat = malloc(npages * sizeof(*lat))))
		die("malloc");

	for (int rep = 0; rep < reps; rep++) {
		double wait = 0, t0, t1, t2;
		struct prezero_count c0, c1;
		int fd = -1;
		char *p;

		if (wsecs)
			sleep(wsecs);
		if (wzero)
			wait = wait_pool_zeroed(kb, timeout);

		if (!strcmp(type, "private"))
			p = map_hpages_anon(kb, len, 0);
		else if (!strcmp(type, "shared"))
			p = map_hpages_memfd("fault_bench", kb, len, MAP_SHARED, &fd);
		else
			p = map_hpages_memfd("fault_bench", kb, len, MAP_PRIVATE, &fd);
		if (p == MAP_FAILED)
			die_mmap(npages, kb);

		c0 = read_prezero_count();
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
		c1 = read_prezero_count();

		if (munmap(p, len))
			die("munmap");
		if (fd >= 0)
			close(fd);
		t2 = now_us();

		printf(FIGURE "{\"bench\":\"fault\",\"size_kb\":%lu,\"pages\":%ld,\"mode\":\"%s\","
		       "\"type\":\"%s\",\"rep\":%d,\"total_us\":%.1f,\"per_page_us\":%.3f,"
		       "\"unmap_us\":%.1f", kb, npages, mode, type, rep, t1 - t0,
		       (t1 - t0) / npages, t2 - t1);
		if (wzero)
			printf(",\"wait_us\":%.0f", wait);	/* -1: no zeroed_hugepages */
		print_prezero_delta(c0, c1);
		if (perpage) {
			printf(",\"lat_us\":[");
			for (long i = 0; i < npages; i++)
				printf("%s%.2f", i ? "," : "", lat[i]);
			printf("]");
			qsort(lat, npages, sizeof(*lat), cmp_double);
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
