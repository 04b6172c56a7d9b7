/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the benchmark programs: an error exit, a monotonic
 * clock, sysfs and /proc/vmstat readers, the default huge page size.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Print what failed and errno's text, and exit 1. */
static inline void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(1);
}

static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

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

static inline long hp_attr(unsigned long kb, const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%lukB/%s", kb, attr);
	return read_long(path);
}

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

/* "2M" or "1G" (any case) to KiB; 0 for anything else. */
static inline unsigned long parse_hpage_size(const char *s)
{
	if (!strcasecmp(s, "2M"))
		return 2048;
	if (!strcasecmp(s, "1G"))
		return 1048576;
	return 0;
}

#endif
