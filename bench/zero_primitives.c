// SPDX-License-Identifier: GPL-2.0
/*
 * zero_primitives.c - user-space microbenchmark of memory zeroing primitives
 *
 * Each primitive is applied piecewise (piece = 4K, 64K, 2M, 32M, 1G) over a
 * pre-faulted buffer; one pass zeroes the whole buffer once.  A pass is
 * repeated R times and median/min/max throughput (GB/s, 1e9 bytes/s) is
 * reported, as a table or with -j as figure lines ("bench: " and a JSON
 * object).  Runs pinned to the CPU it was started on.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <immintrin.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define SZ_4K	4096UL
#define SZ_2M	(2UL << 20)
#define MAXREPS	1000

typedef void (*zero_fn)(char *p, size_t n);

static void z_stosb_4k(char *p, size_t n)
{
	for (size_t off = 0; off < n; off += SZ_4K) {
		void *d = p + off;
		size_t c = SZ_4K;

		asm volatile("rep stosb" : "+D"(d), "+c"(c) : "a"(0) : "memory");
	}
}

static void z_stosb(char *p, size_t n)
{
	asm volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
}

static void z_stosq_4k(char *p, size_t n)
{
	for (size_t off = 0; off < n; off += SZ_4K) {
		void *d = p + off;
		size_t c = SZ_4K / 8;

		asm volatile("rep stosq" : "+D"(d), "+c"(c) : "a"(0UL) : "memory");
	}
}

static void z_movnti(char *p, size_t n)
{
	long long *q = (long long *)p, *end = (long long *)(p + n);

	for (; q < end; q += 8) {
		_mm_stream_si64(q + 0, 0);
		_mm_stream_si64(q + 1, 0);
		_mm_stream_si64(q + 2, 0);
		_mm_stream_si64(q + 3, 0);
		_mm_stream_si64(q + 4, 0);
		_mm_stream_si64(q + 5, 0);
		_mm_stream_si64(q + 6, 0);
		_mm_stream_si64(q + 7, 0);
	}
	_mm_sfence();
}

__attribute__((target("avx2")))
static void z_avx2_nt(char *p, size_t n)
{
	__m256i z = _mm256_setzero_si256();
	char *end = p + n;

	for (; p < end; p += 128) {
		_mm256_stream_si256((__m256i *)(p + 0), z);
		_mm256_stream_si256((__m256i *)(p + 32), z);
		_mm256_stream_si256((__m256i *)(p + 64), z);
		_mm256_stream_si256((__m256i *)(p + 96), z);
	}
	_mm_sfence();
}

static void z_clzero(char *p, size_t n)
{
	for (char *end = p + n; p < end; p += 64)
		asm volatile(".byte 0x0f,0x01,0xfc" : : "a"(p) : "memory");
	_mm_sfence();
}

static void z_memset(char *p, size_t n)
{
	memset(p, 0, n);
}

static int has_clzero(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000008)
		return 0;
	__get_cpuid(0x80000008, &a, &b, &c, &d);
	return b & 1;
}

struct prim {
	const char *name;
	zero_fn fn;
	int avail;
};

static struct prim prims[] = {
	{ "stosb_4k",	z_stosb_4k,	1 },
	{ "stosb",	z_stosb,	1 },
	{ "stosq_4k",	z_stosq_4k,	1 },
	{ "movnti",	z_movnti,	1 },
	{ "avx2_nt",	z_avx2_nt,	0 },
	{ "clzero",	z_clzero,	0 },
	{ "memset",	z_memset,	1 },
};
#define NPRIMS (sizeof(prims) / sizeof(prims[0]))

static const size_t pieces[] = { 4096UL, 64UL << 10, 2UL << 20, 32UL << 20,
				 1UL << 30 };
#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))

/* Selected by -p and -c; everything by default. */
static int prim_on[NPRIMS], piece_on[NPIECES];

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-s size] [-r reps] [-p prim,..] [-c piece,..] [-j]\n"
		"  -s size  buffer size, K/M/G suffix (default 1G, multiple of 2M)\n"
		"  -r reps  repetitions per measurement (default 5)\n"
		"  -p list  only these primitives (comma-separated names)\n"
		"  -c list  only these pieces (comma-separated, of 4K 64K 2M 32M 1G)\n"
		"  -j       JSON output: one line \"bench: {...}\" per result\n"
		"Primitives: stosb_4k stosb stosq_4k movnti avx2_nt clzero memset;\n"
		"pieces 4K 64K 2M 32M 1G (pieces larger than the buffer are skipped).\n",
		prog);
	exit(1);
}

/* parse_size(), also with a B after the suffix ("2MB"). */
static size_t parse_size_b(const char *s)
{
	char *end;
	size_t v = parse_size_end(s, &end);

	if (*end == 'B' || *end == 'b')
		end++;
	return *end ? 0 : v;
}

/* No -p (or no -c): select every one. */
static void select_all(int *on, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (on[i])
			return;
	for (size_t i = 0; i < n; i++)
		on[i] = 1;
}

/* -p: select the named primitives; 0 if a name is unknown. */
static int select_prims(char *list)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		size_t i;

		for (i = 0; i < NPRIMS && strcmp(tok, prims[i].name); i++)
			;
		if (i == NPRIMS)
			return 0;
		prim_on[i] = 1;
	}
	return 1;
}

/* -c: select the given piece sizes; 0 if one is not among the pieces. */
static int select_pieces(char *list)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		size_t v = parse_size_b(tok), j;

		for (j = 0; j < NPIECES && pieces[j] != v; j++)
			;
		if (j == NPIECES)
			return 0;
		piece_on[j] = 1;
	}
	return 1;
}

static const char *fmt_size(size_t n)
{
	static char b[32];

	if (n >= (1UL << 30) && !(n % (1UL << 30)))
		snprintf(b, sizeof(b), "%zuG", n >> 30);
	else if (n >= (1UL << 20) && !(n % (1UL << 20)))
		snprintf(b, sizeof(b), "%zuM", n >> 20);
	else
		snprintf(b, sizeof(b), "%zuK", n >> 10);
	return b;
}

/* AnonHugePages of this process in kB (THP-backed part of the buffer). */
static long thp_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static char *alloc_buf(size_t size, const char **kind)
{
	char *p;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);
	if (p != MAP_FAILED) {
		*kind = "hugetlb";
		return p;
	}
	/* Fallback: THP; over-allocate to align to 2M, populate after madvise. */
	p = mmap(NULL, size + SZ_2M, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "mmap %zu bytes: %s\n", size, strerror(errno));
		exit(1);
	}
	p = (char *)(((uintptr_t)p + SZ_2M - 1) & ~(SZ_2M - 1));
	if (madvise(p, size, MADV_HUGEPAGE))
		fprintf(stderr, "warning: MADV_HUGEPAGE: %s\n", strerror(errno));
	if (madvise(p, size, MADV_POPULATE_WRITE))
		memset(p, 1, size);
	*kind = "thp-madvise";
	return p;
}

int main(int argc, char **argv)
{
	size_t size = 1UL << 30;
	int reps = 5, json = 0, opt, cpu;
	long thp;
	const char *kind;
	double t[MAXREPS], med;
	char *buf;

	while ((opt = getopt(argc, argv, "s:r:p:c:jh")) != -1) {
		switch (opt) {
		case 's':
			size = parse_size_b(optarg);
			if (!size || size % SZ_2M) {
				fprintf(stderr, "bad size '%s' (must be a multiple of 2M)\n", optarg);
				return 1;
			}
			break;
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > MAXREPS) {
				fprintf(stderr, "bad reps '%s' (1..%d)\n", optarg, MAXREPS);
				return 1;
			}
			break;
		case 'p':
			if (!select_prims(optarg)) {
				fprintf(stderr, "bad primitive list '%s'\n", optarg);
				return 1;
			}
			break;
		case 'c':
			if (!select_pieces(optarg)) {
				fprintf(stderr, "bad piece list '%s' (4K 64K 2M 32M 1G)\n", optarg);
				return 1;
			}
			break;
		case 'j':
			json = 1;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc)
		usage(argv[0]);
	select_all(prim_on, NPRIMS);
	select_all(piece_on, NPIECES);

	cpu = sched_getcpu();
	if (cpu < 0) {
		fprintf(stderr, "sched_getcpu: %s\n", strerror(errno));
		return 1;
	}
	pin_cpu(cpu);

	__builtin_cpu_init();
	prims[4].avail = __builtin_cpu_supports("avx2");
	prims[5].avail = has_clzero();

	buf = alloc_buf(size, &kind);
	thp = thp_kb();
	if (!json)
		printf("# buffer %zu MiB (%s, AnonHugePages %ld kB), reps %d, cpu %d, "
		       "GB/s = 1e9 B/s\n%-9s %8s %9s %9s %9s\n", size >> 20, kind, thp, reps, cpu,
		       "primitive", "piece", "median", "min", "max");

	for (size_t i = 0; i < NPRIMS; i++) {
		if (!prim_on[i])
			continue;
		if (!prims[i].avail) {
			if (json)
				printf(FIGURE "{\"bench\":\"zero\",\"prim\":\"%s\","
				       "\"available\":false}\n", prims[i].name);
			else
				printf("%-9s %8s %9s\n", prims[i].name, "-", "n/a");
			continue;
		}
		for (size_t j = 0; j < NPIECES; j++) {
			size_t piece = pieces[j];

			if (piece > size || !piece_on[j])
				continue;
			for (int r = -1; r < reps; r++) {	/* r = -1: warm-up */
				double t0 = now_us();

				for (size_t off = 0; off + piece <= size; off += piece)
					prims[i].fn(buf + off, piece);
				if (r >= 0)
					t[r] = (double)(size / piece * piece) /
					       ((now_us() - t0) * 1e3);
			}
			qsort(t, reps, sizeof(t[0]), cmp_double);
			med = (t[(reps - 1) / 2] + t[reps / 2]) / 2;
			if (json)
				printf(FIGURE "{\"bench\":\"zero\",\"prim\":\"%s\","
				       "\"available\":true,\"piece\":%zu,\"bytes\":%zu,"
				       "\"backing\":\"%s\",\"thp_kb\":%ld,\"cpu\":%d,"
				       "\"reps\":%d,\"median_gbps\":%.3f,\"min_gbps\":%.3f,"
				       "\"max_gbps\":%.3f}\n", prims[i].name, piece, size,
				       kind, thp, cpu, reps, med, t[0], t[reps - 1]);
			else
				printf("%-9s %8s %9.2f %9.2f %9.2f\n", prims[i].name,
				       fmt_size(piece), med, t[0], t[reps - 1]);
			fflush(stdout);
		}
	}
	return 0;
}
