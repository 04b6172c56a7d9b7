// SPDX-License-Identifier: GPL-2.0
/*
 * prealloc_bench.c - VM-style (QEMU -mem-prealloc) hugetlb preallocation
 *
 * Creates a MFD_HUGETLB memfd of the given size, maps it MAP_SHARED and
 * populates it with T threads, each handling a contiguous share: one write
 * per huge page (touch) or one MADV_POPULATE_WRITE per share (populate).
 * Timing includes thread creation and join.  One figure line ("bench: " and
 * a JSON object) per rep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define MAXT 256

struct share {
	pthread_t tid;
	char *p;
	size_t len, psz;
	int populate, err;
};

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-S 2M|1G] [-s size] [-T t1,t2,..] [-m touch|populate] [-r reps]\n"
		"          [-w secs | -W] [-X secs]\n"
		"  -S  huge page size (default: system default huge page size)\n"
		"  -s  region size, K/M/G suffix (default: all free pages of that size)\n"
		"  -T  comma-separated thread counts, each run in turn (default 1,2,4)\n"
		"  -m  touch: one write per huge page; populate: MADV_POPULATE_WRITE\n"
		"      per thread share (default touch)\n"
		"  -r  repetitions per thread count (default 5)\n"
		"  -w  sleep this many seconds before each rep\n"
		"  -W  before each rep wait until zeroed_hugepages == free_hugepages\n"
		"      (no wait if the file does not exist); -X timeout secs (default 60)\n",
		prog);
	exit(1);
}

static void *worker(void *arg)
{
	struct share *s = arg;

	if (s->populate) {
		if (s->len && madvise(s->p, s->len, MADV_POPULATE_WRITE))
			s->err = errno;
	} else {
		for (size_t off = 0; off < s->len; off += s->psz)
			*(volatile char *)(s->p + off) = 1;
	}
	return NULL;
}

/* -T: the comma-separated counts of @list in @threads; how many, 0 if one is bad */
static int parse_threads(const char *list, int *threads, int max)
{
	int n;

	for (n = 0; n < max && *list; n++) {
		threads[n] = atoi(list);
		if (threads[n] < 1 || threads[n] > MAXT)
			return 0;
		list += strcspn(list, ",");
		list += *list == ',';
	}
	return n;
}

int main(int argc, char **argv)
{
	unsigned long kb = 0;
	size_t size = 0, psz, npages;
	int reps = 5, wsecs = 0, wzero = 0, timeout = 60, populate;
	int threads[16] = { 1, 2, 4 }, nthr = 3;
	static struct share sh[MAXT];
	const char *tlist = NULL, *mode = "touch";
	const struct opt opts[] = {
		{ 'S', OPT_HPAGE, &kb }, { 's', OPT_SIZE, &size },
		{ 'T', OPT_STR, &tlist }, { 'm', OPT_STR, &mode },
		{ 'r', OPT_INT, &reps }, { 'w', OPT_INT, &wsecs },
		{ 'W', OPT_FLAG, &wzero }, { 'X', OPT_INT, &timeout }, { 0 }
	};

	parse_opts(argc, argv, opts, usage);
	populate = !strcmp(mode, "populate");
	if (tlist)
		nthr = parse_threads(tlist, threads, sizeof(threads) / sizeof(threads[0]));
	if (!nthr || (!populate && strcmp(mode, "touch")) || reps < 1 || wsecs < 0 ||
	    timeout < 0)
		usage(argv[0]);
	if (!kb)
		kb = default_hpage_kb();
	psz = kb << 10;
	if (!size)
		size = free_hpages(kb) * psz;
	if (size % psz) {
		fprintf(stderr, "size %zu is not a multiple of the huge page size %zu\n", size, psz);
		return 1;
	}
	npages = size / psz;

	for (int ti = 0; ti < nthr; ti++) {
		int t = threads[ti];

		for (int rep = 0; rep < reps; rep++) {
			struct prezero_count c0, c1;
			double wait = 0, t0, t1;
			size_t start = 0;
			char *p;
			int fd;

			if (wsecs)
				sleep(wsecs);
			if (wzero)
				wait = wait_pool_zeroed(kb, timeout);
			p = map_hpages_memfd("prealloc_bench", kb, size, MAP_SHARED, &fd);
			if (p == MAP_FAILED)
				die_mmap(npages, kb);

			c0 = read_prezero_count();
			t0 = now_us();
			for (int i = 0; i < t; i++) {
				/* contiguous shares, remainder spread over the first ones */
				size_t n = npages / t + ((size_t)i < npages % t);

				sh[i] = (struct share){ .p = p + start * psz, .len = n * psz,
							.psz = psz, .populate = populate };
				start += n;
				errno = pthread_create(&sh[i].tid, NULL, worker, &sh[i]);
				if (errno)
					die("pthread_create");
			}
			for (int i = 0; i < t; i++) {
				pthread_join(sh[i].tid, NULL);
				if (sh[i].err) {
					errno = sh[i].err;
					die("madvise(MADV_POPULATE_WRITE)");
				}
			}
			t1 = now_us();
			c1 = read_prezero_count();
			if (munmap(p, size))
				die("munmap");
			close(fd);

			printf(FIGURE "{\"bench\":\"prealloc\",\"size_kb\":%lu,\"bytes\":%zu,"
			       "\"pages\":%zu,\"threads\":%d,\"mode\":\"%s\",\"rep\":%d,"
			       "\"total_us\":%.1f,\"gbps\":%.3f", kb, size, npages, t, mode,
			       rep, t1 - t0, size / ((t1 - t0) * 1e3));
			if (wzero)
				printf(",\"wait_us\":%.0f", wait);
			print_prezero_delta(c0, c1);
			printf("}\n");
			fflush(stdout);
		}
	}
	return 0;
}
