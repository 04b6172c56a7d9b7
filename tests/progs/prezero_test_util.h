/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the pre-zeroing tests hugetlb_prezero_full.c and
 * hugetlb_prezero_stress.c: sysfs and procfs file access, the clock, node
 * lists, and the limits and timing assumptions both tests make.  Include it
 * after defining _GNU_SOURCE.
 */
#ifndef PREZERO_TEST_UTIL_H
#define PREZERO_TEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT		26
#endif
#ifndef MFD_HUGE_SHIFT
#define MFD_HUGE_SHIFT		26
#endif
#ifndef SHM_HUGE_SHIFT
#define SHM_HUGE_SHIFT		26
#endif

#define HP_SYSFS		"/sys/kernel/mm/hugepages"
#define NODE_SYSFS		"/sys/devices/system/node"

#define MAX_NODES		64
#define PATH_LEN		256
#define VAL_LEN			64

/* Assumed worst case zeroing rate of the guest (bytes/s), and slack on top */
#define MIN_ZERO_RATE		(100UL * 1000 * 1000)
#define SLACK_S			30

/* CLOCK_MONOTONIC in seconds. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The base page size. */
static inline size_t psize(void)
{
	return getpagesize();
}

/* Read up to @len - 1 bytes of @path into @buf, NUL-terminated: the count or -errno. */
static inline int read_path(const char *path, char *buf, size_t len)
{
	ssize_t ret;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	ret = read(fd, buf, len - 1);
	if (ret < 0)
		ret = -errno;
	else
		buf[ret] = '\0';
	close(fd);
	return ret;
}

/* One write(2) of @len bytes to @path: what it returned (maybe short), or -errno. */
static inline ssize_t write_path_once(const char *path, const char *buf, size_t len)
{
	ssize_t ret;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Write @len bytes to @path in one write(2): 0 if all were written, else -errno. */
static inline int write_path_len(const char *path, const char *buf, size_t len)
{
	ssize_t ret = write_path_once(path, buf, len);

	if (ret < 0)
		return ret;
	return (size_t)ret == len ? 0 : -EIO;
}

/* Write the string @s to @path: 0 if all of it was written, else -errno. */
static inline int write_path(const char *path, const char *s)
{
	return write_path_len(path, s, strlen(s));
}

/* The number after "@name@sep" at the start of a line of @file; -1 if there is none. */
static inline long long read_field(const char *file, const char *name, char sep)
{
	size_t nlen = strlen(name), linelen = 0;
	long long val = -1;
	char *line = NULL;
	FILE *f;

	f = fopen(file, "r");
	if (!f)
		return -1;
	while (getline(&line, &linelen, f) > 0) {
		if (!strncmp(line, name, nlen) && line[nlen] == sep) {
			val = strtoll(line + nlen + 1, NULL, 10);
			break;
		}
	}
	free(line);
	fclose(f);
	return val;
}

/* The /proc/meminfo field @name (in kB where it has a unit); -1 if absent. */
static inline long meminfo_read(const char *name)
{
	return read_field("/proc/meminfo", name, ':');
}

/* The /proc/vmstat event @name; -1 if it does not exist. */
static inline long long vmstat_read(const char *name)
{
	return read_field("/proc/vmstat", name, ' ');
}

/* Hugepagesize of /proc/meminfo, in bytes, or 0. */
static inline unsigned long default_huge_page_size(void)
{
	long kb = meminfo_read("Hugepagesize");

	return kb > 0 ? (unsigned long)kb << 10 : 0;
}

/* Set @set[i] for every node i < @max of a node list such as "0-1,3". */
static inline void parse_node_list(const char *s, bool *set, int max)
{
	char *end;
	long a, b, i;

	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s)
			return;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			s = end;
		}
		for (i = a; i <= b && i < max; i++)
			if (i >= 0)
				set[i] = true;
		if (*s++ != ',')
			return;
	}
}

#endif
