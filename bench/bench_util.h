/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the benchmark programs: an error exit, a monotonic
 * clock, size parsing, a table-driven option parser, sysfs and /proc/vmstat
 * readers, huge page mappings and the JSON fields they print alike.
 * Include it after defining _GNU_SOURCE (for memfd_create() and cpu_set_t).
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MFD_HUGE_SHIFT
#define MFD_HUGE_SHIFT 26
#endif

/*
 * The start of a figure line: the harness takes each line that starts with
 * it, followed by one JSON object {"bench":NAME,...}, as one figure.
 */
#define FIGURE "bench: "

/* Print what failed and errno's text, and exit 1. */
static inline void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(1);
}

/* CLOCK_MONOTONIC in microseconds. */
static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* qsort() comparison of doubles, ascending. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Run on CPU @cpu only; exit 1 if that cannot be set. */
static inline void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* A number with an optional K, M or G suffix, in bytes, *@end past it; 0 if none. */
static inline size_t parse_size_end(const char *s, char **end)
{
	unsigned long long v;

	errno = 0;
	v = strtoull(s, end, 0);
	if (errno || *end == s)
		return 0;
	switch (**end) {
	case 'k':
	case 'K':
		v <<= 10;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		break;
	default:
		return v;
	}
	(*end)++;
	return v;
}

/* "64M" and the like (see parse_size_end()) in bytes; 0 if @s is not a size. */
static inline size_t parse_size(const char *s)
{
	char *end;
	size_t v = parse_size_end(s, &end);

	return *end ? 0 : v;
}

/* Hugepagesize of /proc/meminfo in KiB; 2048 if it cannot be read. */
static inline unsigned long default_hpage_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long kb = 2048;

	if (!f)
		return kb;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* "2M" or "1G" (any case), or that size in KiB, to KiB; 0 for anything else. */
static inline unsigned long parse_hpage_size(const char *s)
{
	if (!strcasecmp(s, "2M") || !strcmp(s, "2048"))
		return 2048;
	if (!strcasecmp(s, "1G") || !strcmp(s, "1048576"))
		return 1048576;
	return 0;
}

/* What an option of parse_opts() takes, and so the type of its variable. */
enum opt_type {
	OPT_FLAG,	/* no argument; int, set to 1 */
	OPT_INT,	/* int, by atoi() */
	OPT_LONG,	/* long, by atol() */
	OPT_DOUBLE,	/* double, by atof() */
	OPT_STR,	/* const char *, the argument itself */
	OPT_SIZE,	/* size_t, by parse_size(); 0 is refused */
	OPT_HPAGE,	/* unsigned long, KiB by parse_hpage_size(); 0 is refused */
};

/* One option of parse_opts(): its letter, what it takes, what it sets. */
struct opt {
	char letter;
	enum opt_type type;
	void *var;
};

/* Set the variable of option @o from its argument @arg; 0 if @arg is refused. */
static inline int set_opt(const struct opt *o, const char *arg)
{
	switch (o->type) {
	case OPT_FLAG:
		*(int *)o->var = 1;
		break;
	case OPT_INT:
		*(int *)o->var = atoi(arg);
		break;
	case OPT_LONG:
		*(long *)o->var = atol(arg);
		break;
	case OPT_DOUBLE:
		*(double *)o->var = atof(arg);
		break;
	case OPT_STR:
		*(const char **)o->var = arg;
		break;
	case OPT_SIZE:
		return (*(size_t *)o->var = parse_size(arg)) != 0;
	case OPT_HPAGE:
		return (*(unsigned long *)o->var = parse_hpage_size(arg)) != 0;
	}
	return 1;
}

/*
 * getopt() over the options of @opts, a table ended by an entry with letter
 * 0: each sets its variable. Calls usage(argv[0]) on -h, an unknown option,
 * a refused argument or an operand after the options.
 */
static inline void parse_opts(int argc, char **argv, const struct opt *opts,
			      void (*usage)(const char *))
{
	char spec[64] = "h", *s = spec + 1;
	const struct opt *o;
	int c;

	for (o = opts; o->letter && s < spec + sizeof(spec) - 2; o++) {
		*s++ = o->letter;
		if (o->type != OPT_FLAG)
			*s++ = ':';
	}
	*s = '\0';
	while ((c = getopt(argc, argv, spec)) != -1) {
		for (o = opts; o->letter && o->letter != c; o++)
			;
		if (!o->letter || !set_opt(o, optarg))
			usage(argv[0]);
	}
	if (optind != argc)
		usage(argv[0]);
}

/* One number read from a file; -1 if it cannot be read. */
static inline long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* The sysfs file @attr of the huge page size @kb; -1 if it cannot be read. */
static inline long hp_attr(unsigned long kb, const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%lukB/%s", kb, attr);
	return read_long(path);
}

/* The free pages of size @kb; exit 1 if there are none. */
static inline long free_hpages(unsigned long kb)
{
	long n = hp_attr(kb, "free_hugepages");

	if (n <= 0) {
		fprintf(stderr, "no free %lu kB huge pages (free_hugepages=%ld)\n", kb, n);
		exit(1);
	}
	return n;
}

/*
 * Wait until all free pages of size @kb are pre-zeroed, polling every 10 ms
 * for at most @timeout seconds; the microseconds waited, -1 at once if the
 * kernel has no zeroed_hugepages.
 */
static inline double wait_pool_zeroed(unsigned long kb, int timeout)
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

/* The /proc/vmstat counter @name; -1 if there is none. */
static inline long vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	long v, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, name)) {
			ret = v;
			break;
		}
	fclose(f);
	return ret;
}

/* Print ,"@name":delta, or null if a counter could not be read. */
static inline void print_delta(const char *name, long before, long after)
{
	if (before < 0 || after < 0)
		printf(",\"%s\":null", name);
	else
		printf(",\"%s\":%ld", name, after - before);
}

/* The htlb_prezero_hit and htlb_prezero_miss counters; -1 where absent. */
struct prezero_count {
	long hit, miss;
};

/* Read the counters of struct prezero_count, hit first. */
static inline struct prezero_count read_prezero_count(void)
{
	struct prezero_count c;

	c.hit = vmstat("htlb_prezero_hit");
	c.miss = vmstat("htlb_prezero_miss");
	return c;
}

/* Print the "prezero_hit" and "prezero_miss" deltas from @a to @b. */
static inline void print_prezero_delta(struct prezero_count a, struct prezero_count b)
{
	print_delta("prezero_hit", a.hit, b.hit);
	print_delta("prezero_miss", a.miss, b.miss);
}

/* Map @len bytes of private anonymous huge pages of @kb, with mmap() @flags added. */
static inline char *map_hpages_anon(unsigned long kb, size_t len, int flags)
{
	int shift = __builtin_ctzl(kb) + 10;

	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | flags |
		    (shift << MAP_HUGE_SHIFT), -1, 0);
}

/*
 * A new MFD_HUGETLB memfd @name of @len bytes of pages of @kb, its fd in
 * *@fd, mapped with @flags (MAP_SHARED or MAP_PRIVATE): MAP_FAILED if the
 * mmap() fails; exits 1 if the memfd cannot be made.
 */
static inline char *map_hpages_memfd(const char *name, unsigned long kb, size_t len,
				     int flags, int *fd)
{
	unsigned int shift = __builtin_ctzl(kb) + 10;

	*fd = memfd_create(name, MFD_CLOEXEC | MFD_HUGETLB | (shift << MFD_HUGE_SHIFT));
	if (*fd < 0)
		die("memfd_create(MFD_HUGETLB)");
	if (ftruncate(*fd, len))
		die("ftruncate");
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags, *fd, 0);
}

/* A mapping of @npages pages of @kb failed: say why and how many were free, exit 1. */
static inline void __attribute__((noreturn)) die_mmap(long npages, unsigned long kb)
{
	int err = errno;

	fprintf(stderr, "mmap %ld x %lu kB: %s (free_hugepages=%ld)\n",
		npages, kb, strerror(err), hp_attr(kb, "free_hugepages"));
	exit(1);
}

#endif
