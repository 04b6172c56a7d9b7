// SPDX-License-Identifier: GPL-2.0
/*
 * bgzero_bench.c - rate at which the pre-zeroing threads clear a dirty pool
 *
 * Sets zeroed_reserve of one huge page size to "max" (unless -n), then polls
 * the htlb_prezero_zeroed counter of /proc/vmstat (folios zeroed, any size)
 * and zeroed_hugepages of that size until every free page of the size is
 * zeroed, and reports bytes zeroed / time as GB/s with the samples.  Make
 * the pool dirty first (zeroed_reserve=0 on every size, then fault the pages
 * in and free them, or shrink and regrow the pool) and keep the other sizes
 * from having work, or their folios are counted too.  One figure line
 * ("bench: " and a JSON object); the samples are [ms since the reserve was
 * set, folios zeroed] at every poll where the counter moved.
 *
 * With -F STEP it zeroes the pool itself instead, in its own context: it
 * writes to the size's zeroed_fill a target STEP pages higher each time
 * until the write fails with EAGAIN (no dirty free page left), so the CPU
 * time is this process's and its cgroup's; "mode" says which. Leave
 * zeroed_reserve at 0 for that.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define MAXSAMPLES 20000

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-S 2M|1G] [-i ms] [-X secs] [-n | -F step]\n"
		"  -S  huge page size (default: system default huge page size)\n"
		"  -i  sampling interval in milliseconds (default 20)\n"
		"  -X  give up after this many seconds (default 120)\n"
		"  -n  do not write max to zeroed_reserve, only watch\n"
		"  -F  zero in this process, step pages a write to zeroed_fill, until EAGAIN\n"
		"Exits 4 if the kernel has no pre-zeroing (no zeroed_hugepages).\n",
		prog);
	exit(1);
}

static struct sample {
	double ms;
	long zeroed;
} samples[MAXSAMPLES];

int main(int argc, char **argv)
{
	unsigned long kb = 0;
	int interval = 20, timeout = 120, watch = 0, ns = 0, timed_out = 0;
	long step = 0;
	long free0, zeroed0, dirty, vm0, vm = 0, last = 0, z = 0, f = 0, target;
	double t0, t = 0, first = -1;
	char path[128];
	size_t psz;
	FILE *rf;
	const struct opt opts[] = {
		{ 'S', OPT_HPAGE, &kb }, { 'i', OPT_INT, &interval },
		{ 'X', OPT_INT, &timeout }, { 'n', OPT_FLAG, &watch },
		{ 'F', OPT_LONG, &step }, { 0 }
	};

	parse_opts(argc, argv, opts, usage);
	if (interval < 1 || timeout < 1 || step < 0 || (step && watch))
		usage(argv[0]);
	if (!kb)
		kb = default_hpage_kb();
	psz = kb << 10;

	zeroed0 = hp_attr(kb, "zeroed_hugepages");
	vm0 = vmstat("htlb_prezero_zeroed");
	if (zeroed0 < 0 || vm0 < 0) {
		printf(FIGURE "{\"bench\":\"bgzero\",\"size_kb\":%lu,\"available\":false}\n", kb);
		return 4;
	}
	free0 = hp_attr(kb, "free_hugepages");
	dirty = free0 - zeroed0;
	if (dirty <= 0) {
		fprintf(stderr, "no dirty free %lu kB pages (free %ld, zeroed %ld): set "
			"zeroed_reserve to 0, then dirty the pool\n", kb, free0, zeroed0);
		return 1;
	}

	t0 = now_us();
	if (step) {
		char val[32];
		int fd;

		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/hugepages/hugepages-%lukB/zeroed_fill", kb);
		fd = open(path, O_WRONLY);
		if (fd < 0) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			return 1;
		}
		/* zeroed_fill takes a target: step more pages zeroed a write */
		for (target = zeroed0 + step;; target += step) {
			snprintf(val, sizeof(val), "%ld", target);
			if (write(fd, val, strlen(val)) <= 0)
				break;
			if (now_us() - t0 > timeout * 1e6) {
				timed_out = 1;
				break;
			}
		}
		if (!timed_out && errno != EAGAIN) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			return 1;
		}
		close(fd);
		t = now_us();
		vm = vmstat("htlb_prezero_zeroed") - vm0;
		samples[ns++] = (struct sample){ (t - t0) / 1e3, vm };
	} else if (!watch) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/hugepages/hugepages-%lukB/zeroed_reserve", kb);
		rf = fopen(path, "w");
		if (!rf || fputs("max\n", rf) == EOF || fclose(rf)) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	for (; !step;) {
		usleep(interval * 1000);
		t = now_us();
		vm = vmstat("htlb_prezero_zeroed") - vm0;
		z = hp_attr(kb, "zeroed_hugepages");
		f = hp_attr(kb, "free_hugepages");
		if (vm > 0 && first < 0)
			first = t - t0;
		if (z < f && t - t0 > timeout * 1e6) {
			timed_out = 1;
			fprintf(stderr, "warning: timeout: zeroed %ld < free %ld\n", z, f);
		}
		/* Samples where the counter moved, and the last one. */
		if (ns < MAXSAMPLES && (vm != last || z >= f || timed_out))
			samples[ns++] = (struct sample){ (t - t0) / 1e3, vm };
		last = vm;
		if (z >= f || timed_out)
			break;
	}

	printf(FIGURE "{\"bench\":\"bgzero\",\"size_kb\":%lu,\"available\":true,\"mode\":\"%s\","
	       "\"step\":%ld,\"interval_ms\":%d,"
	       "\"dirty_pages\":%ld,\"bytes\":%zu,\"zeroed_pages\":%ld,\"total_us\":%.0f,"
	       "\"first_us\":%.0f,\"gbps\":%.3f,\"timeout\":%s,\"samples\":[",
	       kb, step ? "fill" : "threads", step, interval, dirty, dirty * psz, vm,
	       t - t0, first,
	       vm * (double)psz / ((t - t0) * 1e3), timed_out ? "true" : "false");
	for (int i = 0; i < ns; i++)
		printf("%s[%.1f,%ld]", i ? "," : "", samples[i].ms, samples[i].zeroed);
	printf("]}\n");
	return timed_out;
}
