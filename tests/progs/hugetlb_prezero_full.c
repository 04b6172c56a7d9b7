// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO): the zeroed_reserve and zeroed_hugepages sysfs
 * files of each huge page size (a reserve is a count each node keeps of its
 * own free pages zeroed, or max; a node has no files of its own), the
 * khugezerod threads that zero free huge pages in place, and, above all,
 * that a huge page handed to user space is always zero, whether it was
 * zeroed in advance or not.
 *
 * The project's exhaustive test, run by make check in the guest; the series
 * carries the short tools/testing/selftests/mm/hugetlb_prezero.c. Built
 * against the kselftest headers of the work tree (scripts/build/build-test-progs.sh).
 *
 * Must run as root (sysfs_write_nonroot drops to uid 65534 in a child).
 * Every test restores the sysfs values it changes.
 * Pass -n <iterations> to change the number of iterations of the leak tests.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "prezero_test_util.h"

#define SHMMAX_PATH		"/proc/sys/kernel/shmmax"
#define SHMALL_PATH		"/proc/sys/kernel/shmall"
#define SHM_BIG			"18446744073692774399"

/* Poll interval of the waits */
#define POLL_US			50000

/* Free pages wanted in a small page pool; grown by the test if needed */
#define MIN_FREE_SMALL		32UL
/* Pages faulted at once in the content and leak tests */
#define MAX_K_SMALL		16UL
#define MAX_K_GIGANTIC		1UL
#define GIGANTIC_SIZE		(1024UL * 1024 * 1024)

#define NO_OFFSET		((size_t)-1)

/* wait_zeroed() flags */
#define WZ_STABLE		0x1	/* pool counters must not change */
#define WZ_QUIET		0x2	/* log only on failure */

/* Unprivileged writer, and the concurrent writers test */
#define NOBODY_ID		65534
#define NOBODY_SKIP		4	/* exit code: cannot switch users */
#define CONC_WRITERS		4
#define CONC_SECS		2.0

static unsigned long opt_iters = 50;

/* A node's hugepages directory of the size: its pool, nr and free */
struct hp_node {
	int nid;
	bool has_memory;
	char dir[PATH_LEN];
	unsigned long orig_nr;
};

struct pz_stats {
	long long zeroed;
	long long hit;
	long long miss;
	long long steal;
};

static unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static unsigned long max_ul(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

/* Make a written value printable: "\n" becomes "\\n". */
static const char *esc(const char *s)
{
	static char buf[2 * VAL_LEN];
	size_t i = 0;

	for (; *s && i < sizeof(buf) - 3; s++) {
		if (*s == '\n') {
			buf[i++] = '\\';
			buf[i++] = 'n';
		} else {
			buf[i++] = *s;
		}
	}
	buf[i] = '\0';
	return buf;
}

static int dir_read(const char *dir, const char *name, char *buf, size_t len)
{
	char path[2 * PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_path(path, buf, len);
}

static int dir_write_buf(const char *dir, const char *name, const char *buf,
			 size_t len)
{
	char path[2 * PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_path_len(path, buf, len);
}

/* One write(2) of @len bytes: what it returned (maybe short), or -errno. */
static ssize_t dir_write_once(const char *dir, const char *name,
			      const char *buf, size_t len)
{
	char path[2 * PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_path_once(path, buf, len);
}

static int dir_write(const char *dir, const char *name, const char *s)
{
	return dir_write_buf(dir, name, s, strlen(s));
}

static int dir_write_ulong(const char *dir, const char *name,
			   unsigned long val)
{
	char buf[VAL_LEN];

	snprintf(buf, sizeof(buf), "%lu", val);
	return dir_write(dir, name, buf);
}

static int parse_ulong(const char *s, unsigned long *val)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*val = strtoul(s, &end, 10);
	if (errno || (*end && strcmp(end, "\n")))
		return -EINVAL;
	return 0;
}

/* HugePages_Free of /proc/meminfo (the default size), or 0. */
static unsigned long meminfo_free_hugepages(void)
{
	long val = meminfo_read("HugePages_Free");

	return val > 0 ? val : 0;
}

static int dir_read_ulong(const char *dir, const char *name,
			  unsigned long *val)
{
	char buf[VAL_LEN];
	int ret;

	ret = dir_read(dir, name, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	return parse_ulong(buf, val);
}

/* Parse a zeroed_reserve value: "max\n" or "<count>\n". */
static int parse_reserve(const char *buf, bool *max, unsigned long *count)
{
	size_t len = strlen(buf);

	*count = 0;
	*max = !strcmp(buf, "max\n");
	if (*max)
		return 0;
	if (!len || buf[len - 1] != '\n')
		return -EINVAL;
	return parse_ulong(buf, count);
}

/* Read a zeroed_reserve file and parse it. */
static int dir_read_reserve(const char *dir, bool *max, unsigned long *count)
{
	char buf[VAL_LEN];
	int ret;

	ret = dir_read(dir, "zeroed_reserve", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	return parse_reserve(buf, max, count);
}

static int read_stats(struct pz_stats *s)
{
	s->zeroed = vmstat_read("htlb_prezero_zeroed");
	s->hit = vmstat_read("htlb_prezero_hit");
	s->miss = vmstat_read("htlb_prezero_miss");
	s->steal = vmstat_read("htlb_prezero_steal");
	if (s->zeroed < 0 || s->hit < 0 || s->miss < 0 || s->steal < 0)
		return -1;
	return 0;
}

/*
 * Offset of the first non-zero byte in @buf, or NO_OFFSET.  Reads 64 bytes
 * per step as words and only looks at single bytes once a word is non-zero.
 */
static size_t find_nonzero(const void *buf, size_t len)
{
	const unsigned long *w = buf;
	const unsigned char *b = buf;
	size_t nw = len / sizeof(*w);
	size_t i, j;

	for (i = 0; i + 8 <= nw; i += 8) {
		if (w[i] | w[i + 1] | w[i + 2] | w[i + 3] |
		    w[i + 4] | w[i + 5] | w[i + 6] | w[i + 7])
			break;
	}
	for (j = i * sizeof(*w); j < len; j++)
		if (b[j])
			return j;
	return NO_OFFSET;
}

/* A different non-zero fill byte for every iteration */
static unsigned char pattern(unsigned long iter)
{
	return (iter * 37) % 255 + 1;
}

static bool check_zero(struct __test_metadata *_metadata, const char *what,
		       const char *p, size_t len, unsigned long psize)
{
	size_t off = find_nonzero(p, len);

	if (off == NO_OFFSET)
		return true;
	TH_LOG("%s: non-zero byte 0x%02x at offset %#zx (huge page %zu, offset %#zx in it)",
	       what, (unsigned char)p[off], off, off / psize, off % psize);
	return false;
}

FIXTURE(prezero)
{
	unsigned long size;
	unsigned long size_kb;
	bool gigantic;
	bool is_default;
	bool have_stats;
	char gdir[PATH_LEN];
	int nr_nodes;
	struct hp_node nodes[MAX_NODES];
	char orig_reserve[VAL_LEN];
	unsigned long orig_nr;
	bool restore_reserve;
	/* another size whose zeroed_reserve keep_zeroing() set to 1 */
	char other_dir[PATH_LEN];
	bool restore_other;
	bool restore_pool;
	bool restore_shm;
	char orig_shmmax[VAL_LEN];
	char orig_shmall[VAL_LEN];
	/* mappings to drop before the teardown shrinks the pool */
	pid_t owner;
	char *ballast;
	size_t ballast_len;
	char *region;
	size_t region_len;
};

FIXTURE_VARIANT(prezero)
{
	unsigned long size_kb;
};

FIXTURE_VARIANT_ADD(prezero, 2M)
{
	.size_kb = 2048,
};

FIXTURE_VARIANT_ADD(prezero, 1G)
{
	.size_kb = 1048576,
};

/* Find the per-node directories of this size, sorted by node id. */
static int find_nodes(FIXTURE_DATA(prezero) *self)
{
	bool has_memory[MAX_NODES] = { false };
	char buf[PATH_LEN], path[PATH_LEN];
	struct hp_node tmp;
	struct dirent *de;
	bool mem_known;
	DIR *dir;
	int i, j, nid;

	mem_known = read_path(NODE_SYSFS "/has_memory", buf, sizeof(buf)) > 0;
	if (mem_known)
		parse_node_list(buf, has_memory, MAX_NODES);

	self->nr_nodes = 0;
	dir = opendir(NODE_SYSFS);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		if (sscanf(de->d_name, "node%d", &nid) != 1 || nid < 0)
			continue;
		snprintf(path, sizeof(path), NODE_SYSFS "/node%d/hugepages/hugepages-%lukB",
			 nid, self->size_kb);
		if (access(path, F_OK))
			continue;
		if (self->nr_nodes == MAX_NODES || nid >= MAX_NODES) {
			closedir(dir);
			return -E2BIG;
		}
		i = self->nr_nodes++;
		memset(&self->nodes[i], 0, sizeof(self->nodes[i]));
		self->nodes[i].nid = nid;
		self->nodes[i].has_memory = !mem_known || has_memory[nid];
		snprintf(self->nodes[i].dir, sizeof(self->nodes[i].dir), "%s",
			 path);
	}
	closedir(dir);

	for (i = 1; i < self->nr_nodes; i++) {
		tmp = self->nodes[i];
		for (j = i; j > 0 && self->nodes[j - 1].nid > tmp.nid; j--)
			self->nodes[j] = self->nodes[j - 1];
		self->nodes[j] = tmp;
	}
	return 0;
}

/* zeroed_hugepages counts every node: a node has no count of its own */
struct pool_snap {
	unsigned long free;
	unsigned long zeroed;
	unsigned long nr;
	unsigned long resv;
	unsigned long surp;
	unsigned long meminfo_free;
	unsigned long node_free[MAX_NODES];
	unsigned long node_nr[MAX_NODES];
};

/* free_hugepages is read before zeroed_hugepages everywhere */
static int take_snap(FIXTURE_DATA(prezero) *self, struct pool_snap *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	if (self->is_default)
		s->meminfo_free = meminfo_free_hugepages();
	if (dir_read_ulong(self->gdir, "free_hugepages", &s->free) ||
	    dir_read_ulong(self->gdir, "nr_hugepages", &s->nr) ||
	    dir_read_ulong(self->gdir, "resv_hugepages", &s->resv) ||
	    dir_read_ulong(self->gdir, "surplus_hugepages", &s->surp))
		return -1;
	for (i = 0; i < self->nr_nodes; i++) {
		if (dir_read_ulong(self->nodes[i].dir, "free_hugepages",
				   &s->node_free[i]) ||
		    dir_read_ulong(self->nodes[i].dir, "nr_hugepages",
				   &s->node_nr[i]))
			return -1;
	}
	if (dir_read_ulong(self->gdir, "zeroed_hugepages", &s->zeroed))
		return -1;
	return 0;
}

static void *map_anon(FIXTURE_DATA(prezero) *self, unsigned long npages)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB;

	flags |= __builtin_ctzl(self->size) << MAP_HUGE_SHIFT;
	return mmap(NULL, npages * self->size, PROT_READ | PROT_WRITE, flags,
		    -1, 0);
}

static int memfd_huge(FIXTURE_DATA(prezero) *self)
{
	unsigned int flags = MFD_CLOEXEC | MFD_HUGETLB;

	flags |= __builtin_ctzl(self->size) << MFD_HUGE_SHIFT;
	return memfd_create("hugetlb_prezero", flags);
}

/* Set this size's zeroed_reserve */
static int set_reserve(FIXTURE_DATA(prezero) *self, const char *val)
{
	return dir_write(self->gdir, "zeroed_reserve", val);
}

/*
 * Zeroing is on while any zeroed_reserve of any size is set: once the last
 * one is 0 the threads exit and no miss is counted. Keep it on while this
 * size's reserve goes to 0 and back, so that the threads are there to zero
 * at once when it rises again, with a reserve of 1 on another size (which
 * zeroes at most one page of that size). Nothing to do if another size has
 * a reserve already. False if there is no other size.
 */
static bool keep_zeroing(struct __test_metadata *_metadata,
			 FIXTURE_DATA(prezero) *self)
{
	char buf[VAL_LEN];
	bool found = false;
	glob_t g;
	size_t i;

	if (self->restore_other)
		return true;
	if (glob(HP_SYSFS "/hugepages-*kB", 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc && !found; i++) {
		if (!strcmp(g.gl_pathv[i], self->gdir) ||
		    dir_read(g.gl_pathv[i], "zeroed_reserve", buf,
			     sizeof(buf)) < 0)
			continue;
		found = true;
		if (strcmp(buf, "0\n"))
			continue;
		snprintf(self->other_dir, sizeof(self->other_dir), "%s",
			 g.gl_pathv[i]);
		found = !dir_write(self->other_dir, "zeroed_reserve", "1");
		self->restore_other = found;
	}
	globfree(&g);
	if (!found)
		TH_LOG("no other huge page size to keep zeroing on with");
	return found;
}

/* Undo keep_zeroing(): the other size's reserve back to 0. */
static void stop_keeping(FIXTURE_DATA(prezero) *self)
{
	if (self->restore_other &&
	    !dir_write(self->other_dir, "zeroed_reserve", "0"))
		self->restore_other = false;
}

/* Is the zeroed_reserve of any size set? */
static bool any_reserve(void)
{
	char buf[VAL_LEN];
	bool set = false;
	glob_t g;
	size_t i;

	if (glob(HP_SYSFS "/hugepages-*kB/zeroed_reserve", 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc && !set; i++)
		set = read_path(g.gl_pathv[i], buf, sizeof(buf)) > 0 &&
		      strcmp(buf, "0\n");
	globfree(&g);
	return set;
}

/* The number of khugezerod threads running */
static int nr_zeroing_threads(void)
{
	char path[2 * PATH_LEN], comm[VAL_LEN];
	struct dirent *de;
	int n = 0;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (read_path(path, comm, sizeof(comm)) > 0 &&
		    !strncmp(comm, "khugezerod", 10))
			n++;
	}
	closedir(dir);
	return n;
}

/*
 * Fault in every free page of each size that has zeroed ones, and free
 * them again, so that no free page is marked zeroed any more.
 */
static bool drain_zeroed(struct __test_metadata *_metadata)
{
	unsigned long zeroed, free, resv, size, n;
	const char *dir;
	bool ok = true;
	glob_t g;
	size_t i;
	void *p;

	if (glob(HP_SYSFS "/hugepages-*kB", 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc; i++) {
		dir = g.gl_pathv[i];
		if (dir_read_ulong(dir, "zeroed_hugepages", &zeroed) || !zeroed)
			continue;
		if (dir_read_ulong(dir, "free_hugepages", &free) ||
		    dir_read_ulong(dir, "resv_hugepages", &resv) ||
		    free <= resv) {
			ok = false;
			continue;
		}
		n = free - resv;
		size = strtoul(strrchr(dir, '-') + 1, NULL, 10) << 10;
		p = mmap(NULL, n * size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			 MAP_POPULATE | __builtin_ctzl(size) << MAP_HUGE_SHIFT,
			 -1, 0);
		if (p == MAP_FAILED) {
			TH_LOG("%s: mmap of %lu free pages: %s", dir, n,
			       strerror(errno));
			ok = false;
			continue;
		}
		munmap(p, n * size);
	}
	globfree(&g);
	return ok;
}

static void log_pool(struct __test_metadata *_metadata,
		     FIXTURE_DATA(prezero) *self, const char *what)
{
	char buf[VAL_LEN];
	struct pool_snap s;
	int i;

	if (take_snap(self, &s))
		return;
	if (dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	TH_LOG("%s: %lu kB pool: nr %lu free %lu zeroed %lu reserve %s",
	       what, self->size_kb, s.nr, s.free, s.zeroed, esc(buf));
	for (i = 0; i < self->nr_nodes; i++)
		TH_LOG("  node%d: nr %lu free %lu", self->nodes[i].nid,
		       s.node_nr[i], s.node_free[i]);
}

static unsigned long target_of(bool max, unsigned long count,
			       unsigned long free)
{
	return max ? free : min_ul(count, free);
}

/*
 * How many free pages a reserve (@max, or @count) keeps zeroed in the pool
 * of @s: every node with memory min(count, its free pages), all of them
 * for max; one node when there are no node directories.
 */
static unsigned long reserve_target(FIXTURE_DATA(prezero) *self,
				    const struct pool_snap *s, bool max,
				    unsigned long count)
{
	unsigned long sum = 0;
	int i;

	if (!self->nr_nodes)
		return target_of(max, count, s->free);
	for (i = 0; i < self->nr_nodes; i++)
		if (self->nodes[i].has_memory)
			sum += target_of(max, count, s->node_free[i]);
	return sum;
}

/*
 * Poll every 50 ms until zeroed_hugepages reaches what zeroed_reserve asks
 * for, reserve_target().  On every sample check that zeroed_hugepages never
 * exceeds free_hugepages nor that target (pages zeroed before stay zeroed:
 * nor what was zeroed at the start, where that is more; callers start from
 * a dirty pool, from max or from a lower reserve, so that no node starts
 * above its own share), and with WZ_STABLE that HugePages_Free,
 * free/resv/surplus_hugepages and each node's free_hugepages do not change
 * while zeroing runs.  The time limit assumes MIN_ZERO_RATE plus SLACK_S.
 */
static bool wait_zeroed(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self, int flags)
{
	unsigned long cnt, tgt, todo = 0, limit;
	bool max, stable = flags & WZ_STABLE;
	struct pool_snap s0, s;
	double t0, t;
	int i, samples = 0;

	if (take_snap(self, &s0) ||
	    dir_read_reserve(self->gdir, &max, &cnt)) {
		TH_LOG("cannot read the %lu kB pool state", self->size_kb);
		return false;
	}
	tgt = reserve_target(self, &s0, max, cnt);
	if (tgt > s0.zeroed)
		todo = tgt - s0.zeroed;
	limit = todo * self->size / MIN_ZERO_RATE + SLACK_S;

	t0 = now();
	for (;;) {
		if (take_snap(self, &s)) {
			TH_LOG("cannot read the %lu kB pool state",
			       self->size_kb);
			return false;
		}
		samples++;
		t = now() - t0;
		if (s.zeroed > s.free) {
			TH_LOG("after %.2f s: zeroed_hugepages %lu > free_hugepages %lu",
			       t, s.zeroed, s.free);
			return false;
		}
		if (stable && (s.free != s0.free || s.resv != s0.resv ||
			       s.surp != s0.surp ||
			       s.meminfo_free != s0.meminfo_free)) {
			TH_LOG("after %.2f s: pool changed while zeroing:", t);
			TH_LOG("free %lu->%lu resv %lu->%lu surp %lu->%lu meminfo %lu->%lu",
			       s0.free, s.free, s0.resv, s.resv, s0.surp,
			       s.surp, s0.meminfo_free, s.meminfo_free);
			return false;
		}
		for (i = 0; stable && i < self->nr_nodes; i++) {
			if (s.node_free[i] != s0.node_free[i]) {
				TH_LOG("after %.2f s: node%d free changed: %lu -> %lu",
				       t, self->nodes[i].nid,
				       s0.node_free[i], s.node_free[i]);
				return false;
			}
		}
		tgt = reserve_target(self, &s, max, cnt);
		if (s.zeroed > max_ul(tgt, s0.zeroed)) {
			TH_LOG("after %.2f s: %lu pages zeroed, the reserve (%s%lu a node) asks for %lu",
			       t, s.zeroed, max ? "max, " : "", cnt, tgt);
			log_pool(_metadata, self, "too many zeroed");
			return false;
		}
		if (s.zeroed >= tgt)
			break;
		if (t > limit) {
			TH_LOG("timeout: zeroing %lu kB pages not done after %.1f s (%d samples)",
			       self->size_kb, t, samples);
			log_pool(_metadata, self, "at timeout");
			return false;
		}
		usleep(POLL_US);
	}

	if (!(flags & WZ_QUIET))
		TH_LOG("%lu kB: %lu/%lu free zeroed (%lu to do) in %.2f s, limit %lu s, %d polls",
		       self->size_kb, s.zeroed, s.free, todo, t, limit,
		       samples);
	return true;
}

/*
 * Check that zeroed_hugepages stays within [base, base + slack * nodes]
 * for @secs seconds: nothing allocates, so it must not drop either.
 */
static bool expect_no_growth(struct __test_metadata *_metadata,
			     FIXTURE_DATA(prezero) *self, double secs,
			     unsigned long slack)
{
	unsigned long gslack = slack * max_ul(self->nr_nodes, 1);
	struct pool_snap s0, s;
	double t0, t;

	if (take_snap(self, &s0))
		return false;
	t0 = now();
	do {
		usleep(POLL_US);
		t = now() - t0;
		if (take_snap(self, &s))
			return false;
		if (s.zeroed < s0.zeroed || s.zeroed > s0.zeroed + gslack) {
			TH_LOG("after %.2f s: zeroed_hugepages went from %lu to %lu (slack %lu)",
			       t, s0.zeroed, s.zeroed, gslack);
			return false;
		}
		if (s.zeroed > s.free) {
			TH_LOG("zeroed_hugepages %lu > free_hugepages %lu",
			       s.zeroed, s.free);
			return false;
		}
	} while (t < secs);
	TH_LOG("zeroed_hugepages stayed at %lu (+%lu) for %.2f s",
	       s0.zeroed, s.zeroed - s0.zeroed, t);
	return true;
}

/* True if no free page of this size is zeroed */
static bool none_zeroed(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self)
{
	struct pool_snap s;

	if (take_snap(self, &s))
		return false;
	if (s.zeroed) {
		TH_LOG("zeroed_hugepages is %lu, expected 0", s.zeroed);
		return false;
	}
	return true;
}

/*
 * Allocate every free page of this size once, write to it and free it again,
 * so that no free page is zeroed afterwards (the caller set zeroed_reserve to
 * 0 first).  Returns the number of pages, or 0 on failure.
 */
static unsigned long dirty_pool(struct __test_metadata *_metadata,
				FIXTURE_DATA(prezero) *self)
{
	unsigned long n, i;
	double t0 = now();
	char *p;

	if (dir_read_ulong(self->gdir, "free_hugepages", &n) || !n) {
		TH_LOG("no free %lu kB pages to dirty", self->size_kb);
		return 0;
	}
	p = map_anon(self, n);
	if (p == MAP_FAILED) {
		TH_LOG("mmap of %lu %lu kB pages: %s", n, self->size_kb,
		       strerror(errno));
		return 0;
	}
	for (i = 0; i < n; i++) {
		char *page = p + i * self->size;

		memset(page, 0xd1, 4096);
		memset(page + self->size / 2, 0xd2, 4096);
		memset(page + self->size - 4096, 0xd3, 4096);
	}
	munmap(p, n * self->size);
	TH_LOG("dirtied %lu free %lu kB pages in %.2f s", n, self->size_kb,
	       now() - t0);
	return n;
}

/*
 * Make sure the pool has at least @want free pages.  A small page pool is
 * grown (restored by the teardown), a gigantic pool is never touched: one
 * free page is enough there.  Returns the number of free pages, 0 after
 * SKIP.
 */
static unsigned long need_pool(struct __test_metadata *_metadata,
			       FIXTURE_DATA(prezero) *self,
			       unsigned long want)
{
	unsigned long free, nr, want_nr;

	if (dir_read_ulong(self->gdir, "free_hugepages", &free) ||
	    dir_read_ulong(self->gdir, "nr_hugepages", &nr)) {
		TH_LOG("cannot read the %lu kB pool", self->size_kb);
		_metadata->exit_code = KSFT_FAIL;
		return 0;
	}
	if (self->gigantic) {
		if (free)
			return free;
		SKIP(return 0,
		     "no free %lu kB huge pages (boot with hugepagesz=%luM hugepages=N)",
		     self->size_kb, self->size_kb >> 10);
	}
	if (free >= want)
		return free;

	want_nr = nr + want - free;
	self->restore_pool = true;
	dir_write_ulong(self->gdir, "nr_hugepages", want_nr);
	if (dir_read_ulong(self->gdir, "free_hugepages", &free))
		free = 0;
	if (free < want)
		SKIP(return 0, "could not get %lu free %lu kB pages (have %lu)",
		     want, self->size_kb, free);
	TH_LOG("grew the %lu kB pool from %lu to %lu pages", self->size_kb,
	       nr, want_nr);
	return free;
}

/* Fault in and hold @n pages so that only the rest of the pool cycles */
static bool map_ballast(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self, unsigned long n)
{
	unsigned long i;
	char *p;

	if (!n)
		return true;
	p = map_anon(self, n);
	if (p == MAP_FAILED) {
		TH_LOG("mmap of %lu ballast pages: %s", n, strerror(errno));
		return false;
	}
	for (i = 0; i < n; i++)
		p[i * self->size] = 1;
	madvise(p, n * self->size, MADV_DONTFORK);
	self->ballast = p;
	self->ballast_len = n * self->size;
	return true;
}

static void restore_pool(struct __test_metadata *_metadata,
			 FIXTURE_DATA(prezero) *self)
{
	unsigned long cur;
	int pass, i;

	/* shrink first, then grow, so each node gets its old size back */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < self->nr_nodes; i++) {
			struct hp_node *n = &self->nodes[i];

			if (dir_read_ulong(n->dir, "nr_hugepages", &cur))
				continue;
			if ((!pass && cur > n->orig_nr) ||
			    (pass && cur < n->orig_nr))
				dir_write_ulong(n->dir, "nr_hugepages",
						n->orig_nr);
		}
	}
	if (!dir_read_ulong(self->gdir, "nr_hugepages", &cur) &&
	    cur != self->orig_nr)
		dir_write_ulong(self->gdir, "nr_hugepages", self->orig_nr);
	if (dir_read_ulong(self->gdir, "nr_hugepages", &cur) ||
	    cur != self->orig_nr)
		TH_LOG("WARNING: could not restore %lu kB nr_hugepages to %lu",
		       self->size_kb, self->orig_nr);
}

FIXTURE_SETUP(prezero)
{
	char path[2 * PATH_LEN];
	struct pz_stats st;
	unsigned long v;
	int i;

	/* Only read here: a SKIP or failure in setup skips the teardown. */
	self->size_kb = variant->size_kb;
	self->size = variant->size_kb << 10;
	self->gigantic = self->size >= GIGANTIC_SIZE;
	self->is_default = default_huge_page_size() == self->size;
	snprintf(self->gdir, sizeof(self->gdir), HP_SYSFS "/hugepages-%lukB",
		 self->size_kb);
	if (access(self->gdir, F_OK))
		SKIP(return, "no hstate for %lu kB pages", self->size_kb);
	snprintf(path, sizeof(path), "%s/zeroed_reserve", self->gdir);
	if (access(path, F_OK))
		SKIP(return, "%s missing (CONFIG_HUGETLB_PREZERO=n?)", path);

	ASSERT_EQ(0, find_nodes(self));
	ASSERT_LT(0, dir_read(self->gdir, "zeroed_reserve", self->orig_reserve,
			      sizeof(self->orig_reserve)));
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "nr_hugepages", &self->orig_nr));
	for (i = 0; i < self->nr_nodes; i++)
		ASSERT_EQ(0, dir_read_ulong(self->nodes[i].dir, "nr_hugepages",
					    &self->nodes[i].orig_nr));
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "resv_hugepages", &v));
	if (v)
		SKIP(return, "%lu kB pool has %lu reserved pages in use", self->size_kb, v);
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "surplus_hugepages", &v));
	if (v)
		SKIP(return, "%lu kB pool has %lu surplus pages", self->size_kb, v);
	self->have_stats = !read_stats(&st);
	self->owner = getpid();
	self->restore_reserve = true;
}

/*
 * The teardown runs in the parent of the test process: in the 6.12 harness a
 * failed ASSERT longjmp()s back with a clobbered "child" variable and the
 * child would skip a normal FIXTURE_TEARDOWN.  self is shared with the
 * parent in this mode.
 */
FIXTURE_TEARDOWN_PARENT(prezero)
{
	char buf[VAL_LEN], tmp[VAL_LEN];

	/* in the parent the mappings are gone with the test process */
	if (self->owner == getpid()) {
		if (self->region)
			munmap(self->region, self->region_len);
		if (self->ballast)
			munmap(self->ballast, self->ballast_len);
	}
	if (self->restore_shm) {
		write_path(SHMMAX_PATH, self->orig_shmmax);
		write_path(SHMALL_PATH, self->orig_shmall);
	}
	if (self->restore_pool)
		restore_pool(_metadata, self);
	stop_keeping(self);
	if (self->restore_other)
		TH_LOG("WARNING: could not restore %s/zeroed_reserve to 0",
		       self->other_dir);
	if (!self->restore_reserve)
		return;
	dir_write(self->gdir, "zeroed_reserve", self->orig_reserve);
	if (dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf)) < 0 ||
	    strcmp(buf, self->orig_reserve)) {
		snprintf(tmp, sizeof(tmp), "%s", esc(buf));
		TH_LOG("WARNING: %lu kB zeroed_reserve reads %s after restore, was %s",
		       self->size_kb, tmp, esc(self->orig_reserve));
	}
}

/* zeroed_reserve reads @want (with its newline) after @what */
static bool reserve_is(struct __test_metadata *_metadata,
		       FIXTURE_DATA(prezero) *self, const char *want,
		       const char *what)
{
	char buf[VAL_LEN], tmp[VAL_LEN];

	if (dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf)) < 0) {
		TH_LOG("%s: cannot read zeroed_reserve", what);
		return false;
	}
	if (!strcmp(buf, want))
		return true;
	snprintf(tmp, sizeof(tmp), "%s", esc(buf));
	TH_LOG("%s: zeroed_reserve reads %s, expected %s", what, tmp,
	       esc(want));
	return false;
}

/*
 * Valid writes and what they read back.  The reserve is an unsigned 32-bit
 * count: 4294967295 and more are kept as max.
 */
static const struct {
	const char *in;
	const char *out;
} valid_writes[] = {
	{ "0", "0\n" },
	{ "5", "5\n" },
	{ "max", "max\n" },
	{ "0\n", "0\n" },
	{ "max\n", "max\n" },
	{ "5\n", "5\n" },
	{ "1", "1\n" },
	{ "4294967294", "4294967294\n" },
	{ "4294967295", "max\n" },
	{ "4294967296\n", "max\n" },
	{ "18446744073709551615", "max\n" },
	{ "7", "7\n" },
};

/* "" is special: write(2) of 0 bytes never reaches the store method */
static const char * const invalid_writes[] = {
	"\n", "-1", "-0", "abc", "5abc", "0x10", "+5", " 5", "5 ", "MAX",
	"Max", "maxx", "max ", " max", "max5", "max\n\n", "5\n\n", "5 6",
	"-4294967295", "4294967295 ",
};

/*
 * Counts too large for 64 bits: refused with -EINVAL, changing nothing, or
 * taken as a count of 4294967295 or more, that is max.
 */
static const char * const huge_writes[] = {
	"18446744073709551616", "99999999999999999999999",
};

/*
 * Writes of up to two pages.  A sysfs attribute has no atomic_write_len,
 * so kernfs_fop_write_iter() (fs/kernfs/file.c) cuts every write to
 * PAGE_SIZE bytes, NUL terminates them and passes them through
 * sysfs_kf_write() (fs/sysfs/file.c) to the store method, and write(2)
 * returns what the store returned.  -E2BIG is only for files with an
 * atomic_write_len (cgroup files), never for these.  So:
 * - up to a page the whole value is parsed: an invalid one fails with
 *   -EINVAL and changes nothing, a valid one is taken and write(2) returns
 *   its full length.  A count may have any number of leading zeros, so
 *   "5" padded with zeros is valid; a number too large for 64 bits is
 *   refused or taken as max (LW_HUGE);
 * - beyond a page only the first page is parsed: if it is valid, write(2)
 *   returns PAGE_SIZE, a short count, and the rest is never looked at.
 * @len is the length in all, 0 meaning PAGE_SIZE, and @extra is added.
 */
enum lw_result {
	LW_EINVAL,	/* -EINVAL, nothing changes */
	LW_ALL,		/* taken, write(2) returns the full length */
	LW_PAGE,	/* the first page taken, write(2) returns PAGE_SIZE */
	LW_HUGE,	/* -EINVAL, or taken as max as LW_ALL or LW_PAGE are */
};

struct long_write {
	const char *what;
	const char *head;	/* at the start */
	const char *fill;	/* repeated after @head */
	const char *tail;	/* at the end */
	size_t len;
	size_t extra;
	enum lw_result res;
	const char *out;	/* read back after an accepted write */
};

static const struct long_write long_writes[] = {
	{ "4095 digits", "", "1234567890", "", 4095, 0, LW_HUGE, "max\n" },
	{ "8192 digits", "", "1234567890", "", 8192, 0, LW_HUGE, "max\n" },
	{ "4096 'x'", "", "x", "", 4096, 0, LW_EINVAL, NULL },
	{ "'max' and 5000 spaces", "max", " ", "", 5003, 0, LW_EINVAL, NULL },
	{ "'5' and 5000 spaces", "5", " ", "", 5001, 0, LW_EINVAL, NULL },
	{ "'5' after zeros, 4000 bytes", "", "0", "5", 4000, 0, LW_ALL,
	  "5\n" },
	{ "'5\\n' after zeros, 4000 bytes", "", "0", "5\n", 4000, 0, LW_ALL,
	  "5\n" },
	{ "'4294967295' after zeros, 4000 bytes", "", "0", "4294967295",
	  4000, 0, LW_ALL, "max\n" },
	{ "'5' after zeros, a page", "", "0", "5", 0, 0, LW_ALL, "5\n" },
	/* the '5' is cut off: the store sees a page of zeros */
	{ "a page of zeros, then '5'", "", "0", "5", 0, 1, LW_PAGE, "0\n" },
	/* the junk is cut off: the store sees "0...05" */
	{ "'5' ending a page, then junk", "", "0", "5junk", 0, 4, LW_PAGE,
	  "5\n" },
};

/* Build long write @lw for pages of @page bytes; its length in @lenp. */
static char *long_buf(const struct long_write *lw, size_t page,
		      size_t *lenp)
{
	size_t len = (lw->len ? lw->len : page) + lw->extra;
	size_t hl = strlen(lw->head), fl = strlen(lw->fill);
	size_t tl = strlen(lw->tail), i;
	char *buf;

	if (hl + tl > len || !fl)
		return NULL;
	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	memcpy(buf, lw->head, hl);
	for (i = hl; i < len - tl; i++)
		buf[i] = lw->fill[(i - hl) % fl];
	memcpy(buf + len - tl, lw->tail, tl);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

/* What zeroed_reserve holds before the writes of one check */
static const char * const reserve_bases[] = { "7", "max", "4294967294" };

/* The long writes to zeroed_reserve, over each of reserve_bases[] */
static void check_long_writes(struct __test_metadata *_metadata,
			      FIXTURE_DATA(prezero) *self)
{
	char before[VAL_LEN], what[2 * VAL_LEN];
	size_t page = psize(), len = 0;
	const struct long_write *lw;
	ssize_t ret, exp;
	unsigned int i, b;
	char *buf;

	for (b = 0; b < ARRAY_SIZE(reserve_bases); b++) {
		for (i = 0; i < ARRAY_SIZE(long_writes); i++) {
			lw = &long_writes[i];
			ASSERT_EQ(0, set_reserve(self, reserve_bases[b]));
			ASSERT_LT(0, dir_read(self->gdir, "zeroed_reserve",
					      before, sizeof(before)));
			buf = long_buf(lw, page, &len);
			ASSERT_NE(NULL, buf);
			exp = len > page ? (ssize_t)page : (ssize_t)len;
			if (lw->res == LW_EINVAL)
				exp = -EINVAL;
			else if (lw->res == LW_ALL)
				exp = len;

			ret = dir_write_once(self->gdir, "zeroed_reserve", buf,
					     len);
			free(buf);
			snprintf(what, sizeof(what), "%s (%zu bytes) over %s",
				 lw->what, len, reserve_bases[b]);
			if (lw->res == LW_HUGE && ret == -EINVAL)
				exp = -EINVAL;
			EXPECT_EQ(exp, ret) {
				TH_LOG("%s: got %zd (%s), want %zd", what, ret,
				       ret < 0 ? strerror(-ret) : "accepted",
				       exp);
			}
			EXPECT_TRUE(reserve_is(_metadata, self,
					       ret < 0 ? before : lw->out,
					       what));
		}
	}
}

/* Valid, invalid and too large writes to zeroed_reserve */
static void check_write_forms(struct __test_metadata *_metadata,
			      FIXTURE_DATA(prezero) *self)
{
	char before[VAL_LEN], exp[VAL_LEN], what[2 * VAL_LEN];
	unsigned int i, b, k;
	unsigned long nr;
	int ret;

	/* each value twice: taken again, and read back the same */
	for (i = 0; i < ARRAY_SIZE(valid_writes); i++) {
		for (k = 0; k < 2; k++) {
			snprintf(what, sizeof(what), "write '%s', %s time",
				 esc(valid_writes[i].in), k ? "second" : "first");
			ret = set_reserve(self, valid_writes[i].in);
			EXPECT_EQ(0, ret) {
				TH_LOG("%s: %s", what, strerror(-ret));
			}
			EXPECT_TRUE(reserve_is(_metadata, self,
					       valid_writes[i].out, what));
		}
	}

	/* a count above the pool size is accepted and reads back as is */
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "nr_hugepages", &nr));
	snprintf(exp, sizeof(exp), "%lu\n", nr * 4 + 1000);
	EXPECT_EQ(0, set_reserve(self, exp)) {
		TH_LOG("write of a count above the pool (%s) failed", esc(exp));
	}
	EXPECT_TRUE(reserve_is(_metadata, self, exp, "a count above the pool"));

	for (b = 0; b < ARRAY_SIZE(reserve_bases); b++) {
		ASSERT_EQ(0, set_reserve(self, reserve_bases[b]));
		ASSERT_LT(0, dir_read(self->gdir, "zeroed_reserve", before,
				      sizeof(before)));

		/* an empty write(2) is either a no-op or -EINVAL */
		ret = dir_write_buf(self->gdir, "zeroed_reserve", "", 0);
		EXPECT_TRUE(ret == 0 || ret == -EINVAL) {
			TH_LOG("empty write returned %d", ret);
		}
		EXPECT_TRUE(reserve_is(_metadata, self, before, "empty write"));

		for (i = 0; i < ARRAY_SIZE(invalid_writes); i++) {
			snprintf(what, sizeof(what), "write '%s' over %s",
				 esc(invalid_writes[i]), reserve_bases[b]);
			ret = set_reserve(self, invalid_writes[i]);
			EXPECT_EQ(-EINVAL, ret) {
				TH_LOG("%s returned %d (%s), expected -EINVAL",
				       what, ret,
				       ret ? strerror(-ret) : "accepted");
			}
			EXPECT_TRUE(reserve_is(_metadata, self, before, what));
		}

		for (i = 0; i < ARRAY_SIZE(huge_writes); i++) {
			snprintf(what, sizeof(what), "write '%s' over %s",
				 huge_writes[i], reserve_bases[b]);
			ret = set_reserve(self, huge_writes[i]);
			EXPECT_TRUE(!ret || ret == -EINVAL) {
				TH_LOG("%s returned %d (%s), expected -EINVAL or max",
				       what, ret, strerror(-ret));
			}
			EXPECT_TRUE(reserve_is(_metadata, self,
					       ret ? before : "max\n", what));
		}
	}

	check_long_writes(_metadata, self);
}

/* A node has no pre-zeroing files: they belong to the size alone */
static void check_no_node_files(struct __test_metadata *_metadata,
				FIXTURE_DATA(prezero) *self)
{
	static const char * const names[] = {
		"zeroed_reserve", "zeroed_hugepages", "zeroed_fill",
	};
	char path[2 * PATH_LEN];
	unsigned int f;
	int i, ret;

	for (i = 0; i < self->nr_nodes; i++) {
		for (f = 0; f < ARRAY_SIZE(names); f++) {
			snprintf(path, sizeof(path), "%s/%s",
				 self->nodes[i].dir, names[f]);
			ret = access(path, F_OK);
			EXPECT_TRUE(ret && errno == ENOENT) {
				TH_LOG("%s: %s", path,
				       ret ? strerror(errno) : "exists");
			}
		}
	}
}

/* zeroed_hugepages is read only, also for root */
static void check_zeroed_ro(struct __test_metadata *_metadata,
			    const char *dir)
{
	char path[2 * PATH_LEN], val[VAL_LEN];
	unsigned long before, after;
	ssize_t ret;
	int fd;

	ASSERT_EQ(0, dir_read_ulong(dir, "zeroed_hugepages", &before));
	snprintf(val, sizeof(val), "%lu", before + 12345);
	snprintf(path, sizeof(path), "%s/zeroed_hugepages", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		EXPECT_EQ(EACCES, errno) {
			TH_LOG("open(O_WRONLY) of zeroed_hugepages: %s",
			       strerror(errno));
		}
	} else {
		ret = write(fd, val, strlen(val));
		EXPECT_GT(0, ret) {
			TH_LOG("write to zeroed_hugepages succeeded");
		}
		close(fd);
	}
	ASSERT_EQ(0, dir_read_ulong(dir, "zeroed_hugepages", &after));
	EXPECT_NE(before + 12345, after);
}

static void check_modes(struct __test_metadata *_metadata, const char *dir)
{
	char path[2 * PATH_LEN];
	struct stat st;

	snprintf(path, sizeof(path), "%s/zeroed_reserve", dir);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0644U, st.st_mode & 07777) {
		TH_LOG("%s mode %o", path, st.st_mode & 07777);
	}
	snprintf(path, sizeof(path), "%s/zeroed_hugepages", dir);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0444U, st.st_mode & 07777) {
		TH_LOG("%s mode %o", path, st.st_mode & 07777);
	}
}

/*
 * Try to open @dir's zeroed_reserve and zeroed_hugepages for writing, as
 * uid 65534: they are 0644 and 0444 and owned by root, so
 * generic_permission(), through kernfs_iop_permission(), refuses with
 * EACCES.  Should an open succeed, write "3" so that the parent sees it.
 * Reading stays allowed.
 */
static bool nobody_try(struct __test_metadata *_metadata, const char *dir)
{
	static const char * const names[] = {
		"zeroed_reserve", "zeroed_hugepages",
	};
	static const int flags[] = { O_WRONLY, O_RDWR };
	static const char * const flag_names[] = { "O_WRONLY", "O_RDWR" };
	char path[2 * PATH_LEN], buf[VAL_LEN];
	unsigned long cnt;
	unsigned int i, f;
	bool ok = true, max;
	ssize_t ret;
	int fd;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		for (f = 0; f < ARRAY_SIZE(flags); f++) {
			fd = open(path, flags[f]);
			if (fd >= 0) {
				ret = write(fd, "3", 1);
				TH_LOG("uid %d opened %s %s, a write of '3' returned %zd",
				       NOBODY_ID, names[i], flag_names[f], ret);
				close(fd);
				ok = false;
			} else if (errno != EACCES) {
				TH_LOG("uid %d open(%s, %s): %s, expected EACCES",
				       NOBODY_ID, names[i], flag_names[f],
				       strerror(errno));
				ok = false;
			}
		}
	}

	ret = dir_read(dir, "zeroed_reserve", buf, sizeof(buf));
	if (ret < 0) {
		TH_LOG("uid %d cannot read zeroed_reserve: %s", NOBODY_ID,
		       strerror(-ret));
		ok = false;
	} else if (parse_reserve(buf, &max, &cnt)) {
		TH_LOG("uid %d reads zeroed_reserve '%s'", NOBODY_ID, esc(buf));
		ok = false;
	}
	if (dir_read_ulong(dir, "zeroed_hugepages", &cnt)) {
		TH_LOG("uid %d cannot read zeroed_hugepages", NOBODY_ID);
		ok = false;
	}
	return ok;
}

/* The child of sysfs_write_nonroot: its exit code */
static int nobody_child(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self)
{
	if (setgroups(0, NULL) ||
	    setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID) ||
	    setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID)) {
		TH_LOG("cannot switch to uid and gid %d: %s", NOBODY_ID,
		       strerror(errno));
		return NOBODY_SKIP;
	}
	return nobody_try(_metadata, self->gdir) ? 0 : 1;
}

/* Valid values the concurrent writers write: counts, max, a count kept as max */
static const char * const conc_values[] = {
	"0", "1", "5", "max", "13\n", "max\n", "64", "4294967295",
};

/* What zeroed_reserve reads after each of conc_values[] */
static const char * const conc_reads[] = {
	"0\n", "1\n", "5\n", "max\n", "13\n", "max\n", "64\n", "max\n",
};

/* One writer's results, in memory shared with the test */
struct conc_stats {
	unsigned long writes;
	unsigned long failed;
	int err;		/* errno of the first failed write, */
	unsigned int val;	/* and its value in conc_values[] */
};

/* Writer @w: cycle through the values until @end. */
static void conc_writer(FIXTURE_DATA(prezero) *self, int w, double end,
			struct conc_stats *st)
{
	unsigned long k;
	unsigned int v;
	int ret;

	for (k = 0; now() < end; k++) {
		v = (k * (w + 1) + w) % ARRAY_SIZE(conc_values);
		ret = set_reserve(self, conc_values[v]);
		st->writes++;
		if (ret && !st->failed++) {
			st->err = -ret;
			st->val = v;
		}
	}
}

/* zeroed_reserve reads one of the values the writers write */
static bool conc_read(struct __test_metadata *_metadata,
		      FIXTURE_DATA(prezero) *self, const char *what)
{
	char buf[VAL_LEN];
	unsigned int i;
	int ret;

	ret = dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf));
	if (ret < 0) {
		TH_LOG("%s: reading zeroed_reserve: %s", what, strerror(-ret));
		return false;
	}
	for (i = 0; i < ARRAY_SIZE(conc_reads); i++)
		if (!strcmp(buf, conc_reads[i]))
			return true;
	TH_LOG("%s: zeroed_reserve reads '%s', which no writer wrote", what,
	       esc(buf));
	return false;
}

/*
 * 1. Accepted and rejected forms of zeroed_reserve writes, writes longer
 * than a page among them, the 32-bit count (4294967295 and more read back
 * as max), the same value written twice, that zeroed_hugepages is read
 * only, and that no node has pre-zeroing files of its own.  Needs no free
 * pages.
 */
TEST_F_TIMEOUT(prezero, sysfs_write_forms, 120)
{
	check_modes(_metadata, self->gdir);
	check_no_node_files(_metadata, self);
	check_write_forms(_metadata, self);
	check_zeroed_ro(_metadata, self->gdir);
	TH_LOG("checked %zu valid, %zu invalid, %zu too large and %zu long forms; %d node directories",
	       ARRAY_SIZE(valid_writes), ARRAY_SIZE(invalid_writes) + 1,
	       ARRAY_SIZE(huge_writes), ARRAY_SIZE(long_writes),
	       self->nr_nodes);
}

/*
 * 1b. Users other than root cannot write zeroed_reserve (nor
 * zeroed_hugepages): a child switched to uid and gid 65534 gets EACCES
 * from open() for writing, can still read them, and zeroed_reserve does
 * not change.
 */
TEST_F_TIMEOUT(prezero, sysfs_write_nonroot, 60)
{
	int status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "not root: cannot switch to uid %d", NOBODY_ID);
	/* 0: a stray write of "3" would show */
	ASSERT_EQ(0, set_reserve(self, "0"));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(nobody_child(_metadata, self));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) {
		TH_LOG("uid %d child: wait status %#x", NOBODY_ID, status);
	}
	if (WEXITSTATUS(status) == NOBODY_SKIP)
		SKIP(return, "cannot switch to uid and gid %d", NOBODY_ID);
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(reserve_is(_metadata, self, "0\n", "writes as non-root"));
	TH_LOG("uid %d: opening for writing refused", NOBODY_ID);
}

/*
 * 1c. Writers racing on zeroed_reserve: each write of a valid value
 * succeeds, every value read meanwhile and after is one of those written,
 * and each value written once more afterwards reads back exactly.
 */
TEST_F_TIMEOUT(prezero, sysfs_concurrent_writers, 60)
{
	pid_t pids[CONC_WRITERS];
	unsigned long reads = 0, writes = 0;
	struct conc_stats *st;
	bool reads_ok = true;
	unsigned int i;
	int w, status;
	double t0, end;

	ASSERT_EQ(0, set_reserve(self, "0"));
	st = mmap(NULL, CONC_WRITERS * sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st);

	t0 = now();
	end = t0 + CONC_SECS;
	for (w = 0; w < CONC_WRITERS; w++) {
		pids[w] = fork();
		ASSERT_LE(0, pids[w]);
		if (!pids[w]) {
			conc_writer(self, w, end, &st[w]);
			_exit(0);
		}
	}
	while (reads_ok && now() < end) {
		reads_ok = conc_read(_metadata, self, "while writers run");
		reads++;
	}
	/* the writers stop at @end by themselves */
	for (w = 0; w < CONC_WRITERS; w++) {
		ASSERT_EQ(pids[w], waitpid(pids[w], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
			TH_LOG("writer %d: wait status %#x", w, status);
		}
		writes += st[w].writes;
		EXPECT_EQ(0UL, st[w].failed) {
			TH_LOG("writer %d: %lu of %lu writes failed, the first '%s': %s",
			       w, st[w].failed, st[w].writes,
			       esc(conc_values[st[w].val]),
			       strerror(st[w].err));
		}
	}
	EXPECT_TRUE(reads_ok);
	TH_LOG("%d writers: %lu writes in %.2f s, %lu reads", CONC_WRITERS,
	       writes, now() - t0, reads);
	munmap(st, CONC_WRITERS * sizeof(*st));

	EXPECT_TRUE(conc_read(_metadata, self, "after the writers"));
	for (i = 0; i < ARRAY_SIZE(conc_values); i++) {
		EXPECT_EQ(0, set_reserve(self, conc_values[i]));
		EXPECT_TRUE(reserve_is(_metadata, self, conc_reads[i],
				       "a value written after the writers"));
	}
}

/*
 * 2. zeroed_hugepages reaches what zeroed_reserve asks for, in bounded
 * time, and goes no further: a count is per node, so every node with memory
 * keeps min(count, its free pages) zeroed and the size's count is their sum
 * (with pages on two nodes a count of r zeroes 2r pages, not r); max zeroes
 * every free page.  It never exceeds free_hugepages, and zeroing does not
 * change the pool counters.
 */
TEST_F_TIMEOUT(prezero, zeroing_reaches_reserve, 600)
{
	unsigned long avail, r, fmin = 0, want, d, i, zb;
	unsigned long dirty[MAX_NODES] = { 0 };
	struct pool_snap s, m;
	int n, k = 0;
	char *p;

	avail = need_pool(_metadata, self, MIN_FREE_SMALL);
	if (!avail)
		return;

	/* start from a pool with no zeroed page */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_TRUE(none_zeroed(_metadata, self));

	/* a count of half the smallest node pool: that many on each node */
	ASSERT_EQ(0, take_snap(self, &s));
	for (n = 0; n < self->nr_nodes; n++) {
		if (!self->nodes[n].has_memory || !s.node_free[n])
			continue;
		k++;
		if (!fmin || s.node_free[n] < fmin)
			fmin = s.node_free[n];
	}
	if (!self->nr_nodes)
		fmin = s.free;
	r = fmin / 2 ? fmin / 2 : 1;
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "zeroed_reserve", r));
	log_pool(_metadata, self, "a count of half the smallest node pool");
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, take_snap(self, &s));
	want = reserve_target(self, &s, false, r);
	TH_LOG("a count of %lu, %d nodes with free pages: %lu zeroed, expected %lu",
	       r, k, s.zeroed, want);
	EXPECT_EQ(want, s.zeroed);
	/* and it stays there */
	EXPECT_TRUE(expect_no_growth(_metadata, self, 0.5, 0));

	/* one more: a page more on every node that has one */
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "zeroed_reserve", r + 1));
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, take_snap(self, &s));
	want = reserve_target(self, &s, false, r + 1);
	TH_LOG("a count of %lu: %lu zeroed, expected %lu", r + 1, s.zeroed,
	       want);
	EXPECT_EQ(want, s.zeroed);
	EXPECT_TRUE(expect_no_growth(_metadata, self, 0.5, 0));

	/* a count above every node's pool zeroes every free page */
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "zeroed_reserve", s.free + 1));
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, take_snap(self, &s));
	EXPECT_EQ(s.free, s.zeroed);

	/* "max" on a fully dirty pool */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_TRUE(none_zeroed(_metadata, self));
	ASSERT_EQ(0, set_reserve(self, "max"));
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, take_snap(self, &s));
	EXPECT_EQ(s.free, s.zeroed);

	if (self->gigantic) {
		TH_LOG("gigantic pages: pool growth and shrink not checked");
		return;
	}

	/* "max" follows the pool as it grows */
	self->restore_pool = true;
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "nr_hugepages", s.nr + 8));
	log_pool(_metadata, self, "pool grown by 8 pages");
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, take_snap(self, &s));
	EXPECT_EQ(s.free, s.zeroed);

	/*
	 * Shrinking a node's pool frees its dirty pages first.  With the
	 * reserve at 0 the pages zeroed stay zeroed: d of them are taken and
	 * come back dirty, on the nodes whose free count they lowered.
	 */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_EQ(0, take_snap(self, &s));
	d = min_ul(8, s.free);
	p = map_anon(self, d);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < d; i++)
		p[i * self->size] = 1;
	ASSERT_EQ(0, take_snap(self, &m));
	for (n = 0; n < self->nr_nodes; n++)
		dirty[n] = s.node_free[n] - m.node_free[n];
	munmap(p, d * self->size);
	ASSERT_EQ(0, take_snap(self, &s));
	zb = s.zeroed;
	EXPECT_EQ(s.free - d, zb);
	for (n = 0; n < self->nr_nodes; n++) {
		if (!dirty[n])
			continue;
		ASSERT_EQ(0, dir_write_ulong(self->nodes[n].dir, "nr_hugepages",
					     s.node_nr[n] - dirty[n]));
	}
	if (!self->nr_nodes)
		ASSERT_EQ(0, dir_write_ulong(self->gdir, "nr_hugepages",
					     s.nr - d));
	ASSERT_EQ(0, take_snap(self, &s));
	EXPECT_EQ(zb, s.zeroed) {
		TH_LOG("shrinking the pools by their dirty pages dropped zeroed pages");
	}
	EXPECT_EQ(s.free, s.zeroed);
	log_pool(_metadata, self, "after shrinking the dirty pages away");
}

enum map_method {
	M_ANON_PRIVATE,
	M_MEMFD_SHARED,
	M_MEMFD_PRIVATE,
	M_FALLOCATE,
	M_SYSV_SHM,
	NR_METHODS
};

static const char * const method_name[NR_METHODS] = {
	[M_ANON_PRIVATE] = "MAP_PRIVATE|MAP_HUGETLB",
	[M_MEMFD_SHARED] = "memfd MAP_SHARED",
	[M_MEMFD_PRIVATE] = "memfd MAP_PRIVATE",
	[M_FALLOCATE] = "memfd fallocate",
	[M_SYSV_SHM] = "SysV SHM_HUGETLB",
};

/* shmget() of hugetlb memory; -2 if the limits do not allow it */
static int shm_get(struct __test_metadata *_metadata,
		   FIXTURE_DATA(prezero) *self, size_t len)
{
	int flags = IPC_CREAT | 0600 | SHM_HUGETLB;
	int id;

	flags |= __builtin_ctzl(self->size) << SHM_HUGE_SHIFT;
	id = shmget(IPC_PRIVATE, len, flags);
	if (id < 0 && (errno == EINVAL || errno == ENOSPC) &&
	    !self->restore_shm) {
		if (read_path(SHMMAX_PATH, self->orig_shmmax,
			      sizeof(self->orig_shmmax)) > 0 &&
		    read_path(SHMALL_PATH, self->orig_shmall,
			      sizeof(self->orig_shmall)) > 0) {
			self->restore_shm = true;
			write_path(SHMMAX_PATH, SHM_BIG);
			write_path(SHMALL_PATH, SHM_BIG);
			id = shmget(IPC_PRIVATE, len, flags);
		}
	}
	if (id >= 0)
		return id;
	if (errno == EPERM || errno == ENOMEM || errno == EINVAL ||
	    errno == ENOSPC) {
		TH_LOG("SysV shm part skipped: shmget(%zu, SHM_HUGETLB): %s",
		       len, strerror(errno));
		return -2;
	}
	TH_LOG("shmget(%zu, SHM_HUGETLB): %s", len, strerror(errno));
	return -1;
}

/* Map @k pages with method @m and check every byte. */
static long map_and_check(struct __test_metadata *_metadata,
			  FIXTURE_DATA(prezero) *self, enum map_method m,
			  unsigned long k)
{
	size_t len = k * self->size;
	char *p = MAP_FAILED;
	int fd = -1, id;
	long ret = -1;
	double t0;

	switch (m) {
	case M_ANON_PRIVATE:
		p = map_anon(self, k);
		break;
	case M_MEMFD_SHARED:
	case M_MEMFD_PRIVATE:
	case M_FALLOCATE:
		fd = memfd_huge(self);
		if (fd < 0) {
			TH_LOG("memfd_create(MFD_HUGETLB): %s", strerror(errno));
			return -1;
		}
		if (ftruncate(fd, len)) {
			TH_LOG("ftruncate: %s", strerror(errno));
			goto out;
		}
		t0 = now();
		if (m == M_FALLOCATE && fallocate(fd, 0, 0, len)) {
			TH_LOG("fallocate: %s", strerror(errno));
			goto out;
		}
		if (m == M_FALLOCATE)
			TH_LOG("fallocate of %lu pages took %.2f s", k,
			       now() - t0);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 m == M_MEMFD_PRIVATE ? MAP_PRIVATE : MAP_SHARED, fd, 0);
		break;
	case M_SYSV_SHM:
		id = shm_get(_metadata, self, len);
		if (id < 0)
			return id == -2 ? 0 : -1;
		p = shmat(id, NULL, 0);
		shmctl(id, IPC_RMID, NULL);
		if (p == (void *)-1)
			p = MAP_FAILED;
		break;
	default:
		return -1;
	}
	if (p == MAP_FAILED) {
		TH_LOG("%s: mapping %lu pages: %s", method_name[m], k,
		       strerror(errno));
		goto out;
	}
	t0 = now();
	if (check_zero(_metadata, method_name[m], p, len, self->size))
		ret = k;
	TH_LOG("%s: read %lu pages (%zu MiB) in %.2f s", method_name[m], k,
	       len >> 20, now() - t0);
	if (m == M_SYSV_SHM)
		shmdt(p);
	else
		munmap(p, len);
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * 3. With zeroed_reserve=max and every free page zeroed, pages got through
 * anonymous private mappings, memfd shared and private mappings, fallocate
 * and SysV shm are all zero, and each of them counts as htlb_prezero_hit.
 */
TEST_F_TIMEOUT(prezero, contents_are_zero, 600)
{
	unsigned long avail, k;
	struct pz_stats s0, s1;
	enum map_method m;
	long got;

	avail = need_pool(_metadata, self, MIN_FREE_SMALL);
	if (!avail)
		return;
	k = min_ul(avail, self->gigantic ? MAX_K_GIGANTIC : MAX_K_SMALL);
	if (!self->have_stats)
		TH_LOG("no htlb_prezero_* events in /proc/vmstat: hits not checked");

	ASSERT_EQ(0, set_reserve(self, "max"));
	for (m = 0; m < NR_METHODS; m++) {
		ASSERT_TRUE(wait_zeroed(_metadata, self, 0));
		ASSERT_EQ(0, self->have_stats ? read_stats(&s0) : 0);
		got = map_and_check(_metadata, self, m, k);
		ASSERT_LE(0, got);
		if (!got || !self->have_stats)
			continue;
		ASSERT_EQ(0, read_stats(&s1));
		TH_LOG("%s: htlb_prezero_hit +%lld miss +%lld steal +%lld",
		       method_name[m], s1.hit - s0.hit, s1.miss - s0.miss,
		       s1.steal - s0.steal);
		EXPECT_LE(got, s1.hit - s0.hit) {
			TH_LOG("%s: %ld pages from a zeroed pool, htlb_prezero_hit +%lld",
			       method_name[m], got, s1.hit - s0.hit);
		}
	}
}

/*
 * 4. Fault pages in, check they are zero, fill them with a pattern, free
 * them, and again; @wait: let the threads zero them first, else re-fault
 * at once (racing with the zeroing thread).  All but @k free pages are held
 * by a ballast mapping so that the same pages cycle.
 */
static void leak_loop(struct __test_metadata *_metadata,
		      FIXTURE_DATA(prezero) *self, bool wait)
{
	unsigned long avail, k, iters, i, j;
	struct pz_stats s0 = { 0 }, s1 = { 0 }, h0, h1;
	char what[VAL_LEN];
	size_t len;
	double t0;
	char *p;

	avail = need_pool(_metadata, self, MIN_FREE_SMALL);
	if (!avail)
		return;
	k = min_ul(avail, self->gigantic ? MAX_K_GIGANTIC : MAX_K_SMALL);
	iters = self->gigantic ? (opt_iters + 24) / 25 : opt_iters;
	len = k * self->size;

	ASSERT_EQ(0, set_reserve(self, "max"));
	ASSERT_TRUE(map_ballast(_metadata, self, avail - k));
	TH_LOG("%lu iterations of %lu %lu kB pages, %lu ballast pages, %s",
	       iters, k, self->size_kb, avail - k,
	       wait ? "waiting for zeroing" : "re-faulting at once");
	ASSERT_EQ(0, self->have_stats ? read_stats(&s0) : 0);

	t0 = now();
	for (i = 0; i < iters; i++) {
		ASSERT_TRUE(!wait || wait_zeroed(_metadata, self, WZ_QUIET));
		ASSERT_EQ(0, wait && self->have_stats ? read_stats(&h0) : 0);
		p = map_anon(self, k);
		ASSERT_NE(MAP_FAILED, p);
		self->region = p;
		self->region_len = len;
		/* odd iterations: write faults (of a zero byte) */
		if (i & 1)
			for (j = 0; j < k; j++)
				p[(j + 1) * self->size - 1] = 0;
		snprintf(what, sizeof(what), "iteration %lu (%s fault)", i,
			 i & 1 ? "write" : "read");
		ASSERT_TRUE(check_zero(_metadata, what, p, len, self->size)) {
			TH_LOG("previous iteration's pattern byte: 0x%02x",
			       i ? pattern(i - 1) : 0);
		}
		if (wait && self->have_stats) {
			ASSERT_EQ(0, read_stats(&h1));
			EXPECT_LE((long long)k, h1.hit - h0.hit) {
				TH_LOG("%s: %lu pages from a zeroed pool, htlb_prezero_hit +%lld",
				       what, k, h1.hit - h0.hit);
			}
		}
		memset(p, pattern(i), len);
		munmap(p, len);
		self->region = NULL;
	}
	ASSERT_EQ(0, self->have_stats ? read_stats(&s1) : 0);
	TH_LOG("%lu iterations, %lu pages checked in %.2f s: hit +%lld miss +%lld steal +%lld",
	       iters, iters * k, now() - t0, s1.hit - s0.hit,
	       s1.miss - s0.miss, s1.steal - s0.steal);
}

TEST_F_TIMEOUT(prezero, no_leak_immediate_refault, 600)
{
	leak_loop(_metadata, self, false);
}

TEST_F_TIMEOUT(prezero, no_leak_after_zeroing, 600)
{
	leak_loop(_metadata, self, true);
}

/*
 * 4c. The only free page is being zeroed: a fault must still get it, at
 * once, with no SIGBUS, and read zero, and the pool must count it as used
 * and then as free again. Each round dirties the page and sets the reserve,
 * so that the thread claims it, and faults it right away: with 1 GiB pages
 * most rounds take it from the thread mid-way (htlb_prezero_steal, logged).
 * keep_zeroing() keeps the threads running meanwhile, so that the fault
 * races the zeroing and not the threads' start.
 */
TEST_F_TIMEOUT(prezero, alloc_while_only_busy, 600)
{
	unsigned long avail, rounds, i, free;
	struct pz_stats s0, s1;
	char *p;

	avail = need_pool(_metadata, self, 1);
	if (!avail)
		return;
	ASSERT_TRUE(map_ballast(_metadata, self, avail - 1));
	keep_zeroing(_metadata, self);
	rounds = self->gigantic ? 4 : 32;
	if (self->have_stats)
		ASSERT_EQ(0, read_stats(&s0));
	for (i = 0; i < rounds; i++) {
		ASSERT_EQ(0, set_reserve(self, "0"));
		ASSERT_EQ(1UL, dirty_pool(_metadata, self));
		ASSERT_EQ(0, set_reserve(self, "max"));
		p = map_anon(self, 1);
		ASSERT_NE(MAP_FAILED, p);
		self->region = p;
		self->region_len = self->size;
		/* The first read faults the page in. */
		ASSERT_TRUE(check_zero(_metadata, "the page taken while zeroed",
				       p, self->size, self->size));
		ASSERT_EQ(0, dir_read_ulong(self->gdir, "free_hugepages", &free));
		EXPECT_EQ(0UL, free);
		munmap(p, self->size);
		self->region = NULL;
		ASSERT_EQ(0, dir_read_ulong(self->gdir, "free_hugepages", &free));
		EXPECT_EQ(1UL, free);
	}
	if (self->have_stats) {
		ASSERT_EQ(0, read_stats(&s1));
		TH_LOG("%lu faults of the only free page: steal +%lld hit +%lld miss +%lld",
		       rounds, s1.steal - s0.steal, s1.hit - s0.hit,
		       s1.miss - s0.miss);
	}
}

/*
 * 4b. A child fills a page of a shared hugetlb memfd and exits; the parent
 * truncates or closes the file and must get a zero page next time.  Only one
 * free page is left outside the ballast, so the dirty page is reused.
 */
TEST_F_TIMEOUT(prezero, no_leak_fork_shared, 600)
{
	unsigned long avail, iters, i;
	unsigned char pat;
	char what[VAL_LEN];
	int fd, status;
	double t0;
	pid_t pid;
	char *p;

	avail = need_pool(_metadata, self, MIN_FREE_SMALL);
	if (!avail)
		return;
	iters = self->gigantic ? 2 : min_ul(opt_iters, 20);
	ASSERT_EQ(0, set_reserve(self, "max"));
	ASSERT_TRUE(map_ballast(_metadata, self, avail - 1));

	fd = memfd_huge(self);
	ASSERT_LE(0, fd);
	t0 = now();
	for (i = 0; i < iters; i++) {
		pat = pattern(i);
		ASSERT_EQ(0, ftruncate(fd, self->size));
		/* odd iterations allocate through fallocate */
		ASSERT_EQ(0, i & 1 ? fallocate(fd, 0, 0, self->size) : 0);
		p = mmap(NULL, self->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
		ASSERT_NE(MAP_FAILED, p);
		self->region = p;
		self->region_len = self->size;
		snprintf(what, sizeof(what), "iteration %lu (%s)", i,
			 i & 1 ? "fallocate" : "fault");
		ASSERT_TRUE(check_zero(_metadata, what, p, self->size,
				       self->size));

		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			char *q = mmap(NULL, self->size, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);

			if (q == MAP_FAILED)
				_exit(1);
			memset(q, pat, self->size);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		/* the page is shared: the parent sees what the child wrote */
		ASSERT_EQ(pat, (unsigned char)p[0]);
		ASSERT_EQ(pat, (unsigned char)p[self->size - 1]);
		munmap(p, self->size);
		self->region = NULL;

		if ((i / 2) & 1) {
			close(fd);
			fd = memfd_huge(self);
			ASSERT_LE(0, fd);
		} else {
			ASSERT_EQ(0, ftruncate(fd, 0));
		}
	}
	/* and the page freed by the last iteration */
	ASSERT_EQ(0, ftruncate(fd, self->size));
	p = mmap(NULL, self->size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_TRUE(check_zero(_metadata, "last", p, self->size, self->size));
	munmap(p, self->size);
	close(fd);
	TH_LOG("%lu iterations with one %lu kB page in %.2f s", iters + 1,
	       self->size_kb, now() - t0);
}

/*
 * Fault in @k pages, check that they read as zero and free them; @s0 and
 * @s1 get the counts from before and after.
 */
static void fault_counted(struct __test_metadata *_metadata,
			  FIXTURE_DATA(prezero) *self, unsigned long k,
			  const char *what, struct pz_stats *s0,
			  struct pz_stats *s1)
{
	char *p;

	ASSERT_EQ(0, read_stats(s0));
	p = map_anon(self, k);
	ASSERT_NE(MAP_FAILED, p);
	self->region = p;
	self->region_len = k * self->size;
	ASSERT_TRUE(check_zero(_metadata, what, p, k * self->size,
			       self->size));
	munmap(p, k * self->size);
	self->region = NULL;
	ASSERT_EQ(0, read_stats(s1));
	TH_LOG("%lu faults, %s: miss +%lld hit +%lld", k, what,
	       s1->miss - s0->miss, s1->hit - s0->hit);
}

/*
 * 5. htlb_prezero_zeroed counts the pages the threads zero,
 * htlb_prezero_miss the dirty pages cleared at fault time, and
 * htlb_prezero_steal exists. Once every reserve is 0 and no free page is
 * zeroed, zeroing is off: faults still count as misses, none as a hit.
 */
TEST_F_TIMEOUT(prezero, vmstat_counters, 600)
{
	unsigned long avail, k, n, i;
	struct pz_stats s0, s1;
	char *p;

	if (!self->have_stats)
		SKIP(return, "no htlb_prezero_* events in /proc/vmstat");
	avail = need_pool(_metadata, self, MIN_FREE_SMALL);
	if (!avail)
		return;
	k = min_ul(avail, self->gigantic ? MAX_K_GIGANTIC : MAX_K_SMALL);

	/* htlb_prezero_zeroed: reserve 0 -> max on a dirty pool */
	ASSERT_EQ(0, set_reserve(self, "0"));
	n = dirty_pool(_metadata, self);
	ASSERT_NE(0UL, n);
	ASSERT_TRUE(none_zeroed(_metadata, self));
	ASSERT_EQ(0, read_stats(&s0));
	ASSERT_EQ(0, set_reserve(self, "max"));
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, read_stats(&s1));
	TH_LOG("zeroing %lu dirty pages: htlb_prezero_zeroed +%lld", n,
	       s1.zeroed - s0.zeroed);
	EXPECT_LE((long long)n, s1.zeroed - s0.zeroed);

	/* htlb_prezero_miss: faults on a dirty pool with reserve 0 */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_TRUE(none_zeroed(_metadata, self));
	fault_counted(_metadata, self, k, "dirty pool", &s0, &s1);
	EXPECT_LE((long long)k, s1.miss - s0.miss);

	/* htlb_prezero_steal: fault everything while the threads zero */
	ASSERT_EQ(0, set_reserve(self, "0"));
	n = dirty_pool(_metadata, self);
	ASSERT_NE(0UL, n);
	ASSERT_EQ(0, read_stats(&s0));
	ASSERT_EQ(0, set_reserve(self, "max"));
	p = map_anon(self, n);
	ASSERT_NE(MAP_FAILED, p);
	self->region = p;
	self->region_len = n * self->size;
	for (i = 0; i < n; i++)
		p[i * self->size] = 0;
	ASSERT_TRUE(check_zero(_metadata, "racing with zeroing", p,
			       min_ul(n, k) * self->size, self->size));
	munmap(p, n * self->size);
	self->region = NULL;
	ASSERT_EQ(0, read_stats(&s1));
	TH_LOG("%lu faults racing with zeroing: steal +%lld (total %lld) hit +%lld miss +%lld",
	       n, s1.steal - s0.steal, s1.steal, s1.hit - s0.hit,
	       s1.miss - s0.miss);
	EXPECT_LE(s0.steal, s1.steal);
	EXPECT_LE((long long)n, (s1.hit - s0.hit) + (s1.miss - s0.miss));

	/* zeroing off: every reserve 0 and no free page zeroed */
	ASSERT_EQ(0, set_reserve(self, "0"));
	if (any_reserve()) {
		TH_LOG("another reserve is set: zeroing off not checked");
		return;
	}
	ASSERT_TRUE(drain_zeroed(_metadata));
	ASSERT_TRUE(none_zeroed(_metadata, self));
	fault_counted(_metadata, self, k, "zeroing off", &s0, &s1);
	EXPECT_LE((long long)k, s1.miss - s0.miss);
	EXPECT_EQ(s0.hit, s1.hit);
}

/*
 * 6. zeroed_reserve=0 stops zeroing: dirty pages stay dirty, a zeroing in
 * progress stops (one page per node may still complete while the threads
 * stay for another size's reserve) and pages already zeroed stay zeroed;
 * raising the reserve again resumes. When it is the last reserve set, the
 * threads have exited once the write returns: nothing is zeroed after it.
 */
TEST_F_TIMEOUT(prezero, reserve_zero_stops_zeroing, 600)
{
	struct pool_snap s;
	bool last;

	if (!need_pool(_metadata, self, MIN_FREE_SMALL))
		return;

	keep_zeroing(_metadata, self);
	ASSERT_EQ(0, set_reserve(self, "max"));
	usleep(100000);
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_TRUE(none_zeroed(_metadata, self));
	ASSERT_TRUE(expect_no_growth(_metadata, self, 1.5, 0));

	/* stop while zeroing runs */
	ASSERT_EQ(0, set_reserve(self, "max"));
	usleep(50000);
	ASSERT_EQ(0, set_reserve(self, "0"));
	usleep(300000);
	ASSERT_EQ(0, take_snap(self, &s));
	TH_LOG("zeroing stopped at %lu of %lu free pages", s.zeroed, s.free);
	ASSERT_TRUE(expect_no_growth(_metadata, self, 1.5, 1));

	ASSERT_EQ(0, set_reserve(self, "max"));
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));

	/* stop while zeroing runs, by the last reserve set */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_EQ(0, set_reserve(self, "max"));
	/* at once: under TCG a 2 MiB pool is zeroed in 50 ms */
	stop_keeping(self);
	ASSERT_EQ(0, set_reserve(self, "0"));
	last = !any_reserve();
	ASSERT_EQ(0, take_snap(self, &s));
	TH_LOG("zeroing stopped at %lu of %lu free pages, %s", s.zeroed,
	       s.free, last ? "no reserve left" : "another reserve set");
	ASSERT_TRUE(expect_no_growth(_metadata, self, 1.5, last ? 0 : 1));
}

/*
 * 7. Off keeps what was zeroed: with every reserve at 0 no khugezerod
 * thread runs, but the free pages zeroed before stay zeroed and keep
 * counting in zeroed_hugepages; a fault still takes them without clearing
 * (a hit), and the count falls by the pages taken, which come back dirty,
 * and never rises.
 */
TEST_F_TIMEOUT(prezero, off_keeps_zeroed, 600)
{
	struct pz_stats s0, s1;
	struct pool_snap a, b;
	unsigned long avail, k;
	double t0;
	char *p;
	int n;

	avail = need_pool(_metadata, self, MIN_FREE_SMALL);
	if (!avail)
		return;
	k = min_ul(avail, self->gigantic ? MAX_K_GIGANTIC : MAX_K_SMALL);

	ASSERT_EQ(0, set_reserve(self, "max"));
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, take_snap(self, &a));
	ASSERT_EQ(a.free, a.zeroed);

	ASSERT_EQ(0, set_reserve(self, "0"));
	if (any_reserve())
		SKIP(return, "another size's zeroed_reserve is set: zeroing cannot be turned off here");
	/* a stopped thread's task may take a moment to leave /proc */
	t0 = now();
	while ((n = nr_zeroing_threads()) > 0 && now() - t0 < 5)
		usleep(POLL_US);
	EXPECT_EQ(0, n) {
		TH_LOG("%d khugezerod threads %.1f s after the last reserve went to 0",
		       n, now() - t0);
	}
	ASSERT_EQ(0, take_snap(self, &b));
	EXPECT_EQ(a.zeroed, b.zeroed) {
		TH_LOG("turning zeroing off changed zeroed_hugepages");
	}
	EXPECT_TRUE(expect_no_growth(_metadata, self, 1.0, 0));

	/* k of the zeroed pages, faulted: zero, and hits; freed dirty */
	ASSERT_EQ(0, self->have_stats ? read_stats(&s0) : 0);
	p = map_anon(self, k);
	ASSERT_NE(MAP_FAILED, p);
	self->region = p;
	self->region_len = k * self->size;
	ASSERT_TRUE(check_zero(_metadata, "zeroing off, pool zeroed", p,
			       k * self->size, self->size));
	munmap(p, k * self->size);
	self->region = NULL;
	if (self->have_stats) {
		ASSERT_EQ(0, read_stats(&s1));
		TH_LOG("%lu faults with zeroing off: hit +%lld miss +%lld",
		       k, s1.hit - s0.hit, s1.miss - s0.miss);
		EXPECT_LE((long long)k, s1.hit - s0.hit);
	} else {
		TH_LOG("no htlb_prezero_* events in /proc/vmstat: hits not checked");
	}
	ASSERT_EQ(0, take_snap(self, &b));
	EXPECT_EQ(a.zeroed - k, b.zeroed) {
		TH_LOG("%lu pages taken from %lu zeroed ones", k, a.zeroed);
	}
	EXPECT_EQ(a.free, b.free);
	/* nothing zeroes them again */
	EXPECT_TRUE(expect_no_growth(_metadata, self, 1.0, 0));
}

/* All four events exist once the feature is there */
TEST(vmstat_events)
{
	static const char * const names[] = {
		"htlb_prezero_zeroed", "htlb_prezero_hit",
		"htlb_prezero_miss", "htlb_prezero_steal",
	};
	unsigned int i;
	long long v;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		v = vmstat_read(names[i]);
		EXPECT_LE(0, v) {
			TH_LOG("%s missing from /proc/vmstat", names[i]);
		}
		TH_LOG("%s %lld", names[i], v);
	}
}

static bool feature_present(void)
{
	char path[PATH_LEN + 64];
	struct dirent *de;
	bool found = false;
	DIR *dir;

	dir = opendir(HP_SYSFS);
	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		if (strncmp(de->d_name, "hugepages-", 10))
			continue;
		snprintf(path, sizeof(path), HP_SYSFS "/%s/zeroed_reserve",
			 de->d_name);
		found = !access(path, F_OK);
	}
	closedir(dir);
	return found;
}

int main(int argc, char **argv)
{
	bool list_only = false;
	char **hargv;
	int i, hargc = 0;
	char *end;

	/* strip our own options, pass the rest on to the harness */
	hargv = calloc(argc + 1, sizeof(*hargv));
	if (!hargv)
		return KSFT_FAIL;
	hargv[hargc++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *val = NULL;

		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			val = argv[++i];
		else if (!strncmp(argv[i], "-n", 2) && argv[i][2])
			val = argv[i] + 2;
		else if (!strcmp(argv[i], "-n"))
			val = "";
		if (val) {
			errno = 0;
			opt_iters = strtoul(val, &end, 10);
			if (errno || !*val || *end || !opt_iters ||
			    opt_iters > 100000) {
				fprintf(stderr, "-n needs an iteration count (1-100000)\n");
				return KSFT_FAIL;
			}
			continue;
		}
		if (!strcmp(argv[i], "-h"))
			fprintf(stderr,
				"Usage: %s [-n iterations] [harness options]\n"
				"\t-n N     iterations of the leak tests (default 50; 1 GiB pages: N/25, at least 1)\n",
				argv[0]);
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "-l"))
			list_only = true;
		hargv[hargc++] = argv[i];
	}

	if (!list_only) {
		if (access(HP_SYSFS, F_OK)) {
			ksft_print_header();
			ksft_exit_skip("%s missing: no hugetlb support\n",
				       HP_SYSFS);
		}
		if (!feature_present()) {
			ksft_print_header();
			ksft_exit_skip("no %s/hugepages-*/zeroed_reserve: %s\n",
				       HP_SYSFS,
				       "CONFIG_HUGETLB_PREZERO not available");
		}
		if (geteuid()) {
			ksft_print_header();
			ksft_exit_skip("must be run as root\n");
		}
	}
	return test_harness_run(hargc, hargv);
}
