// SPDX-License-Identifier: GPL-2.0
/*
 * scale_bench.c - hugetlb_lock work of allocations while a node refills
 *
 * From CPU -c (and its node), for -r repetitions:
 *   1. waits until the free pages of the size are all zeroed (the counts of
 *      the size, as a node has none of its own: the other nodes' pages are
 *      all zeroed and left alone, so what is dirty is the node's);
 *   2. with -d D, a child on the same CPU maps D pages, writes them and
 *      exits, so that D dirty folios go back to the node and its zeroing
 *      workers start on them;
 *   3. at once maps -n pages and faults them in one by one, timing each
 *      fault, then unmaps them.
 * With -b B, B busy loops run in user space on the node's other CPUs
 * meanwhile (the floor of a guest whose vCPUs outnumber the host's cores).
 * Around each step it reads hugetlb_lock's acquisitions from /proc/lock_stat
 * (CONFIG_LOCK_STAT; the counts are 0 without it) and the htlb_prezero_*
 * vm events, and prints one figure line per repetition ("bench: " and a
 * JSON object; see FIGURE in bench_util.h). Over the faults and
 * the refill it also traces lockdep's lock_acquire event for hugetlb_lock
 * and counts the acquisitions by task: its own (the faults'), the zeroing
 * workers' (khugezerod*) and the rest (-1 each without the event, or if
 * the trace buffers overflowed). With -R it only
 * measures a refill: D dirty folios freed, then the acquisitions until the
 * node has zeroed them all. With -W it times the fault of the node's only
 * free folio, freed dirty just before, so that the fault finds it dirty
 * (a miss), being zeroed (a steal, which waits for at most one extent and
 * then clears the folio itself) or zeroed (a hit): one figure line per
 * repetition, with the node's other free folios held mapped throughout.
 * -N does not wait for the node to be zeroed first: the baseline, with the
 * size's zeroed_reserve at 0, where every such fault is a miss. On a stock
 * kernel (no zeroed_hugepages) nothing is waited for, the prezero counts
 * read 0 and every fault clears its folio: the same fault load, unpatched.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_BUSY 256
#define MAX_WORKERS 256

static unsigned long kb = 2048;
static int cpu, nid;

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-S 2M|1G] [-c cpu] [-n pages] [-d dirty] [-b busy] [-r reps] [-R|-W [-N]]\n",
		prog);
	exit(2);
}

/* hugetlb_lock's longest hold (us), as of the last lock_acquisitions(). */
static double hold_max;

/* hugetlb_lock's acquisitions since /proc/lock_stat was last cleared. */
static long lock_acquisitions(void)
{
	FILE *f = fopen("/proc/lock_stat", "r");
	char line[512];
	double v[11];
	long ret = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "hugetlb_lock:");

		if (!p || sscanf(p + strlen("hugetlb_lock:"),
				 "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
				 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
				 &v[7], &v[8], &v[9], &v[10]) != 11)
			continue;
		/* acq-bounces, acquisitions, then hold times: min, max, ... */
		ret += (long)v[7];
		if (v[9] > hold_max)
			hold_max = v[9];
	}
	fclose(f);
	return ret;
}

static long node_attr(const char *attr)
{
	char path[160];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-%lukB/%s",
		 nid, kb, attr);
	return read_long(path);
}

/* The free folios of the size not zeroed, on all nodes. */
static long dirty_free(void)
{
	return hp_attr(kb, "free_hugepages") - hp_attr(kb, "zeroed_hugepages");
}

/*
 * Until the free folios of the size are all zeroed, the node's with them;
 * at once on a stock kernel.
 */
static int wait_zeroed(void)
{
	int i;

	if (hp_attr(kb, "zeroed_hugepages") < 0)
		return 0;
	for (i = 0; i < 30000; i++) {
		if (dirty_free() <= 0)
			return 0;
		usleep(10000);
	}
	return -1;
}

/* The @i-th CPU of the node other than the bench's own, or -1. */
static int node_cpu(int i)
{
	char path[96], buf[1024], *p = buf;
	FILE *f;
	long a, b, c;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", nid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	while (*p && *p != '\n') {
		char *q = p;

		a = strtol(p, &p, 10);
		if (p == q)
			break;
		b = *p == '-' ? strtol(p + 1, &p, 10) : a;
		for (c = a; c <= b; c++)
			if (c != cpu && !i--)
				return c;
		if (*p == ',')
			p++;
	}
	return -1;
}

/* @n pages of the size, with mmap() flags @flags besides the usual ones. */
static char *map_pages_flags(long n, int flags)
{
	char *p = map_hpages_anon(kb, n * kb * 1024, flags);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static char *map_pages(long n)
{
	return map_pages_flags(n, 0);
}

/* Free @n dirty folios to the node, from a child on the same CPU. */
static void free_dirty(long n)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		die("fork");
	if (!pid) {
		char *p = map_pages(n);
		long i;

		for (i = 0; i < n; i++)
			memset(p + i * kb * 1024, 0x5a, 4096);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		exit(1);
}

#define TRACING "/sys/kernel/tracing"
#define LOCK_EVENT TRACING "/events/lock/lock_acquire"
#define MARK "scale_bench"

/* hugetlb_lock's acquisitions by task over a trace_start()/trace_stop(). */
struct acq {
	long own, workers, other;
};

static int put(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(val, f) < 0;
	return fclose(f) || ret ? -1 : 0;
}

/* The zeroing workers' pids (khugezerod*), the trace's task names aside. */
static pid_t workers[MAX_WORKERS];
static int nr_workers;

static void find_workers(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	nr_workers = 0;
	while (d && (e = readdir(d)) && nr_workers < MAX_WORKERS) {
		char path[64], comm[32] = "";
		long pid = atol(e->d_name);
		FILE *f;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "khugezerod", 10))
			workers[nr_workers++] = pid;
		fclose(f);
	}
	if (d)
		closedir(d);
}

/* Trace every acquisition of hugetlb_lock from now on; false if no event. */
static int trace_start(void)
{
	if (access(LOCK_EVENT "/enable", W_OK) &&
	    mount("nodev", TRACING, "tracefs", 0, NULL))
		return 0;
	/* Opening "trace" for writing with O_TRUNC empties the buffers. */
	return !put(LOCK_EVENT "/filter", "name == \"hugetlb_lock\"") &&
	       !put(TRACING "/trace", "") &&
	       !put(LOCK_EVENT "/enable", "1");
}

/* Mark the trace: trace_stop(traced, true) counts from here on. */
static void trace_mark(int traced)
{
	if (traced)
		put(TRACING "/trace_marker", MARK);
}

/*
 * The acquisitions traced since trace_start(), or since trace_mark() if
 * @marked: a marked trace is counted in a window that holds only the
 * faults, without the time it takes to start tracing.
 */
static struct acq trace_stop(int traced, int marked)
{
	struct acq a = { -1, -1, -1 };
	char line[512], task[64];
	int counting = !marked;
	FILE *f;

	if (!traced)
		return a;
	trace_mark(marked);
	put(LOCK_EVENT "/enable", "0");
	f = fopen(TRACING "/trace", "r");
	if (!f)
		return a;
	a.own = a.workers = a.other = 0;
	while (fgets(line, sizeof(line), f)) {
		long kept, written;
		char *dash;
		pid_t pid;
		int i;

		/* Every event written must still be in the buffers. */
		if (sscanf(line, "# entries-in-buffer/entries-written: %ld/%ld",
			   &kept, &written) == 2 && kept != written) {
			a.own = a.workers = a.other = -1;
			break;
		}
		if (marked && strstr(line, "tracing_mark_write: " MARK)) {
			counting = !counting;
			continue;
		}
		/* "  comm-pid  [cpu] flags  time: lock_acquire: ... hugetlb_lock" */
		if (!counting || line[0] == '#' || !strstr(line, "lock_acquire:") ||
		    sscanf(line, "%63s", task) != 1)
			continue;
		dash = strrchr(task, '-');
		pid = dash ? atoi(dash + 1) : -1;
		for (i = 0; i < nr_workers && workers[i] != pid; i++)
			;
		if (pid == getpid())
			a.own++;
		else if (i < nr_workers)
			a.workers++;
		else
			a.other++;
	}
	fclose(f);
	return a;
}

static void clear_lock_stat(void)
{
	FILE *f = fopen("/proc/lock_stat", "w");

	hold_max = 0;
	if (f) {
		fputs("0\n", f);
		fclose(f);
	}
}

static void refill(long dirty, int rep)
{
	long z0, a, n, d0;
	double t0, t;
	struct acq tr;
	int traced;

	/* Traced from before the frees: the workers start on the first. */
	traced = trace_start();
	z0 = vmstat("htlb_prezero_zeroed");
	free_dirty(dirty);
	clear_lock_stat();
	/* The workers start during the frees: the rate is of what is left. */
	d0 = dirty_free();
	t0 = now_us();
	if (wait_zeroed())
		fprintf(stderr, "# node %d did not zero its pool in 300 s\n", nid);
	t = now_us() - t0;
	a = lock_acquisitions();
	tr = trace_stop(traced, 0);
	n = vmstat("htlb_prezero_zeroed") - z0;
	printf(FIGURE "{\"bench\":\"scale-refill\",\"size_kb\":%lu,\"rep\":%d,\"dirty\":%ld,"
	       "\"zeroed\":%ld,\"dirty_start\":%ld,\"lock_acq\":%ld,"
	       "\"lock_acq_workers\":%ld,\"lock_hold_max_us\":%.2f,\"us\":%.0f}\n",
	       kb, rep, dirty, n, d0, a, tr.workers, hold_max, t);
}

/* The pages of the node's free folios but one, mapped and faulted. */
static char *hold_all_but_one(long *held)
{
	char *p;
	long i;

	*held = node_attr("free_hugepages") - 1;
	if (*held < 1)
		return NULL;
	p = map_pages(*held);
	for (i = 0; i < *held; i++)
		p[i * kb * 1024] = 1;
	return p;
}

/*
 * The deltas include the child's fault, a hit when the node was zeroed
 * before (no -N): a miss or a steal is the timed fault's.
 */
static void only_free(int rep, int waited)
{
	long hit0, miss0, steal0, held;
	char *hold, *p;
	double t;

	hold = hold_all_but_one(&held);
	if (!hold)
		die("the node has fewer than 2 free folios");
	/* No reservation: the child's mapping needs the last free folio. */
	p = map_pages_flags(1, MAP_NORESERVE);
	/* Read first, so that the fault follows the free at once. */
	hit0 = vmstat("htlb_prezero_hit");
	miss0 = vmstat("htlb_prezero_miss");
	steal0 = vmstat("htlb_prezero_steal");
	free_dirty(1);
	t = now_us();
	p[0] = 1;
	t = now_us() - t;
	printf(FIGURE "{\"bench\":\"scale-only-free\",\"size_kb\":%lu,\"rep\":%d,\"held\":%ld,"
	       "\"waited\":%d,\"us\":%.1f,\"hit\":%ld,\"miss\":%ld,\"steal\":%ld}\n",
	       kb, rep, held, waited, t, vmstat("htlb_prezero_hit") - hit0,
	       vmstat("htlb_prezero_miss") - miss0,
	       vmstat("htlb_prezero_steal") - steal0);
	munmap(p, kb * 1024);
	munmap(hold, held * kb * 1024);
}

static void burst(long pages, long dirty, int busy, int rep)
{
	long a_map, a_fault, a_free, hit0, miss0, steal0, z0, d0, d1, i;
	double *lat, t0, t;
	struct acq tr;
	int traced;
	char *p;

	lat = calloc(pages, sizeof(*lat));
	if (!lat)
		die("calloc");
	clear_lock_stat();
	p = map_pages(pages);
	a_map = lock_acquisitions();
	/* Tracing starts before the frees, and counts from the mark on. */
	traced = trace_start();
	if (dirty)
		free_dirty(dirty);
	hit0 = vmstat("htlb_prezero_hit");
	miss0 = vmstat("htlb_prezero_miss");
	steal0 = vmstat("htlb_prezero_steal");
	z0 = vmstat("htlb_prezero_zeroed");
	d0 = dirty_free();
	trace_mark(traced);
	t0 = now_us();
	for (i = 0; i < pages; i++) {
		t = now_us();
		p[i * kb * 1024] = 1;
		lat[i] = now_us() - t;
	}
	t = now_us() - t0;
	/* Before the trace is read, which takes longer than the faults. */
	d1 = dirty_free();
	z0 = vmstat("htlb_prezero_zeroed") - z0;
	tr = trace_stop(traced, 1);
	/* From the mmap() to the last fault, the frees included. */
	a_fault = lock_acquisitions() - a_map;
	munmap(p, pages * kb * 1024);
	a_free = lock_acquisitions() - a_map - a_fault;
	qsort(lat, pages, sizeof(*lat), cmp_double);
	printf(FIGURE "{\"bench\":\"scale-burst\",\"size_kb\":%lu,\"rep\":%d,\"pages\":%ld,"
	       "\"dirty\":%ld,\"busy\":%d,\"burst_us\":%.0f,\"p50_us\":%.1f,"
	       "\"p99_us\":%.1f,\"max_us\":%.1f,\"lock_acq_map\":%ld,\"lock_acq_fault\":%ld,"
	       "\"lock_acq_free\":%ld,\"lock_acq_fault_own\":%ld,"
	       "\"lock_acq_fault_workers\":%ld,\"lock_acq_fault_other\":%ld,"
	       "\"lock_hold_max_us\":%.2f,\"dirty_before\":%ld,\"dirty_after\":%ld,"
	       "\"zeroed_meanwhile\":%ld,\"hit\":%ld,\"miss\":%ld,\"steal\":%ld}\n",
	       kb, rep, pages, dirty, busy, t, lat[pages / 2], lat[(pages * 99 - 1) / 100],
	       lat[pages - 1],
	       a_map, a_fault, a_free, tr.own, tr.workers, tr.other, hold_max, d0, d1, z0,
	       vmstat("htlb_prezero_hit") - hit0,
	       vmstat("htlb_prezero_miss") - miss0,
	       vmstat("htlb_prezero_steal") - steal0);
	free(lat);
}

int main(int argc, char **argv)
{
	long pages = 128, dirty = 0;
	int busy = 0, reps = 1, refill_only = 0, only_free_mode = 0, no_wait = 0;
	int r, i;
	pid_t kids[MAX_BUSY];
	const struct opt opts[] = {
		{ 'S', OPT_HPAGE, &kb }, { 'c', OPT_INT, &cpu },
		{ 'n', OPT_LONG, &pages }, { 'd', OPT_LONG, &dirty },
		{ 'b', OPT_INT, &busy }, { 'r', OPT_INT, &reps },
		{ 'R', OPT_FLAG, &refill_only }, { 'W', OPT_FLAG, &only_free_mode },
		{ 'N', OPT_FLAG, &no_wait }, { 0 }
	};

	parse_opts(argc, argv, opts, usage);
	if (pages < 1 || dirty < 0 || busy < 0 || busy > MAX_BUSY || reps < 1 ||
	    (refill_only && dirty < 1) || (refill_only && only_free_mode) ||
	    (no_wait && !only_free_mode))
		usage(argv[0]);
	pin_cpu(cpu);
	/* The sysctl started or stopped them before this program ran. */
	find_workers();
	{
		char path[96];

		for (nid = 0; nid < 64; nid++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/node%d", cpu, nid);
			if (!access(path, F_OK))
				break;
		}
		if (nid == 64)
			nid = 0;
	}
	for (i = 0; i < busy; i++) {
		int c = node_cpu(i);

		if (c < 0) {
			fprintf(stderr, "node %d has fewer than %d other CPUs\n", nid, busy);
			busy = i;
			reps = 0;
			break;
		}
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (!kids[i]) {
			pin_cpu(c);
			for (;;)
				;
		}
	}
	for (r = 1; r <= reps; r++) {
		if (!no_wait && wait_zeroed()) {
			fprintf(stderr, "# node %d is not zeroed: is zeroed_reserve set?\n", nid);
			break;
		}
		if (only_free_mode)
			only_free(r, !no_wait);
		else if (refill_only)
			refill(dirty, r);
		else
			burst(pages, dirty, busy, r);
		fflush(stdout);
	}
	for (i = 0; i < busy; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	return reps && r > reps ? 0 : 1;
}
