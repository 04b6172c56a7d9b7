// SPDX-License-Identifier: GPL-2.0
/*
 * churn_bench.c - hugetlb refill under churn
 *
 * Repeatedly maps K huge pages (anon MAP_HUGETLB or a MFD_HUGETLB memfd),
 * writes one byte per page (timing each fault), unmaps and starts again
 * at once, for D seconds or I iterations, i.e. faster than a background
 * zeroing thread can refill the pool of pre-zeroed pages.  Reports one
 * figure line ("bench: " and a JSON object) with iteration count, per-page
 * fault latency statistics and htlb_prezero_hit/htlb_prezero_miss deltas
 * from /proc/vmstat.
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
		"usage: %s [-S 2M|1G] [-k pages] [-t anon|memfd] [-d secs] [-i iters]\n"
		"  -S  huge page size (default: system default huge page size)\n"
		"  -k  pages mapped per iteration (default: all free pages of that size)\n"
		"  -t  anon: MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB; memfd: MAP_SHARED\n"
		"      MFD_HUGETLB memfd (default anon)\n"
		"  -d  duration in seconds (default 5)\n"
		"  -i  stop after this many iterations (default 0: duration only)\n",
		prog);
	exit(1);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned long kb = 0;
	long k = -1, maxit = 0, iters = 0;
	struct prezero_count c0, c1;
	const char *type = "anon";
	double dur = 5, t0, t, sum = 0;
	size_t nlat = 0, cap = 1 << 16, psz, len;
	float *lat;
	int memfd;
	const struct opt opts[] = {
		{ 'S', OPT_HPAGE, &kb }, { 'k', OPT_LONG, &k }, { 't', OPT_STR, &type },
		{ 'd', OPT_DOUBLE, &dur }, { 'i', OPT_LONG, &maxit }, { 0 }
	};

	parse_opts(argc, argv, opts, usage);
	memfd = !strcmp(type, "memfd");
	if ((!memfd && strcmp(type, "anon")) || dur <= 0 || maxit < 0 || k == 0)
		usage(argv[0]);
	if (!kb)
		kb = default_hpage_kb();
	if (k < 0)
		k = hp_attr(kb, "free_hugepages");
	if (k <= 0) {
		fprintf(stderr, "no free %lu kB huge pages\n", kb);
		return 1;
	}
	psz = kb << 10;
	len = psz * k;
	lat = malloc(cap * sizeof(*lat));
	if (!lat)
		die("malloc");

	c0 = read_prezero_count();
	t0 = t = now_us();
	while ((!maxit || iters < maxit) && t - t0 < dur * 1e6) {
		int fd = -1;
		char *p;

		if (memfd)
			p = map_hpages_memfd("churn_bench", kb, len, MAP_SHARED, &fd);
		else
			p = map_hpages_anon(kb, len, 0);
		if (p == MAP_FAILED)
			die_mmap(k, kb);
		for (long i = 0; i < k; i++) {
			double s = now_us(), d;

			*(volatile char *)(p + i * psz) = 1;
			d = now_us() - s;
			sum += d;
			if (nlat == cap) {
				float *n = realloc(lat, 2 * cap * sizeof(*lat));

				if (!n)
					die("realloc");
				lat = n;
				cap *= 2;
			}
			lat[nlat++] = d;
		}
		if (munmap(p, len))
			die("munmap");
		if (fd >= 0)
			close(fd);
		iters++;
		t = now_us();
	}
	c1 = read_prezero_count();

	qsort(lat, nlat, sizeof(*lat), cmp_float);
	printf(FIGURE "{\"bench\":\"churn\",\"size_kb\":%lu,\"pages\":%ld,\"type\":\"%s\","
	       "\"duration_s\":%.3f,\"iterations\":%ld,\"faults\":%zu,"
	       "\"lat_mean_us\":%.3f,\"lat_median_us\":%.3f,\"lat_p99_us\":%.3f,"
	       "\"lat_max_us\":%.3f", kb, k, type,
	       (t - t0) / 1e6, iters, nlat, sum / nlat, lat[nlat / 2],
	       lat[nlat * 99 / 100], lat[nlat - 1]);
	print_prezero_delta(c0, c1);
	printf("}\n");
	free(lat);
	return 0;
}
