// SPDX-License-Identifier: GPL-2.0
/*
 * interference_bench.c - foreground workload to measure interference
 *
 * Runs a pinned workload for a fixed time and reports its throughput
 * (overall and per sampling interval) in one figure line ("bench: " and a
 * JSON object), to compare with and without a background hugetlb zeroing
 * thread being active:
 *   cpu:    integer hash/LCG loop over a 4 KiB table (L1 resident), iter/s
 *   mem:    random dependent reads (pointer chase, 64 B lines), accesses/s
 *   memseq: sequential 8-byte reads over the buffer, GB/s
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define MAXSAMPLES 4096

static volatile uint64_t sink;

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-k cpu|mem|memseq] [-c cpu] [-d secs] [-i secs] [-b size]\n"
		"  -k  workload (default cpu):\n"
		"        cpu     integer hash/LCG loop in L1, reports iterations/s\n"
		"        mem     random pointer chase over the buffer, reports accesses/s\n"
		"        memseq  sequential reads over the buffer, reports GB/s\n"
		"  -c  CPU to pin to (default: the current CPU)\n"
		"  -d  duration in seconds (default 5)\n"
		"  -i  sampling interval in seconds (default 1, fractions allowed)\n"
		"  -b  buffer size for mem/memseq, K/M/G suffix (default 64M)\n",
		prog);
	exit(1);
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* One chunk of work; returns the number of units done (iterations/accesses/bytes). */
static uint64_t chunk_cpu(void)
{
	static uint32_t tab[1024];
	static uint32_t h = 12345;
	const uint64_t n = 1 << 20;

	for (uint64_t i = 0; i < n; i++) {
		h = h * 1664525u + 1013904223u;
		tab[h >> 22] ^= h;
		h ^= tab[(h >> 12) & 1023] >> 3;
	}
	sink = h;
	return n;
}

static void **chase_pos;

static uint64_t chunk_mem(void)
{
	const uint64_t n = 1 << 16;
	void **p = chase_pos;

	for (uint64_t i = 0; i < n; i++)
		p = *p;
	chase_pos = p;
	return n;
}

static uint64_t *seq_buf;
static size_t seq_len;

static uint64_t chunk_memseq(void)
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	size_t n = seq_len / 8;

	for (size_t i = 0; i < n; i += 4) {
		s0 += seq_buf[i];
		s1 += seq_buf[i + 1];
		s2 += seq_buf[i + 2];
		s3 += seq_buf[i + 3];
	}
	sink = s0 + s1 + s2 + s3;
	return seq_len;
}

static char *alloc_buf(size_t size)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "mmap %zu bytes: %s\n", size, strerror(errno));
		exit(1);
	}
	madvise(p, size, MADV_HUGEPAGE);	/* best effort */
	return p;
}

int main(int argc, char **argv)
{
	const char *kind = "cpu", *unit;
	double dur = 5, ival = 1, t0, tl, t, samples[MAXSAMPLES];
	size_t bufsz = 64UL << 20;
	uint64_t (*chunk)(void), total = 0, since = 0;
	int cpu = -1, ns = 0;
	cpu_set_t set;
	const struct opt opts[] = {
		{ 'k', OPT_STR, &kind }, { 'c', OPT_INT, &cpu },
		{ 'd', OPT_DOUBLE, &dur }, { 'i', OPT_DOUBLE, &ival },
		{ 'b', OPT_SIZE, &bufsz }, { 0 }
	};

	parse_opts(argc, argv, opts, usage);
	if (dur <= 0 || ival <= 0 || bufsz < 4096)
		usage(argv[0]);

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "bad cpu %d\n", cpu);
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "cannot pin to cpu %d: %s\n", cpu, strerror(errno));
		return 1;
	}

	if (!strcmp(kind, "cpu")) {
		chunk = chunk_cpu;
		unit = "iter/s";
	} else if (!strcmp(kind, "mem")) {
		size_t n = bufsz / 64, *perm;
		char *b = alloc_buf(bufsz);
		uint64_t s = 88172645463325252ULL;

		/* Sattolo's algorithm: a single random cycle over all lines. */
		perm = malloc(n * sizeof(*perm));
		if (!perm) {
			fprintf(stderr, "malloc: %s\n", strerror(errno));
			return 1;
		}
		for (size_t i = 0; i < n; i++)
			perm[i] = i;
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = xorshift(&s) % i, tmp = perm[i];

			perm[i] = perm[j];
			perm[j] = tmp;
		}
		for (size_t i = 0; i < n; i++)
			*(void **)(b + perm[i] * 64) = b + perm[(i + 1) % n] * 64;
		free(perm);
		chase_pos = (void **)b;
		chunk = chunk_mem;
		unit = "accesses/s";
	} else if (!strcmp(kind, "memseq")) {
		seq_len = bufsz & ~31UL;
		seq_buf = (uint64_t *)alloc_buf(bufsz);
		memset(seq_buf, 1, bufsz);
		chunk = chunk_memseq;
		unit = "GB/s";
	} else {
		usage(argv[0]);
	}

	t0 = tl = now_us() / 1e6;
	do {
		uint64_t n = chunk();

		total += n;
		since += n;
		t = now_us() / 1e6;
		if (t - tl >= ival) {
			if (ns < MAXSAMPLES)
				samples[ns++] = since / (t - tl);
			since = 0;
			tl = t;
		}
	} while (t - t0 < dur);

	t -= t0;
	printf(FIGURE "{\"bench\":\"interference\",\"kind\":\"%s\",\"cpu\":%d,\"duration_s\":%.3f,"
	       "\"unit\":\"%s\",\"units\":%llu", kind, cpu, t, unit,
	       (unsigned long long)total);
	if (!strcmp(kind, "memseq")) {
		printf(",\"buf_bytes\":%zu,\"rate\":%.3f,\"samples\":[", bufsz, total / t / 1e9);
		for (int i = 0; i < ns; i++)
			printf("%s%.3f", i ? "," : "", samples[i] / 1e9);
	} else {
		if (kind[0] == 'm')
			printf(",\"buf_bytes\":%zu,\"ns_per_access\":%.2f", bufsz, t * 1e9 / total);
		printf(",\"rate\":%.0f,\"samples\":[", total / t);
		for (int i = 0; i < ns; i++)
			printf("%s%.0f", i ? "," : "", samples[i]);
	}
	printf("]}\n");
	return 0;
}
