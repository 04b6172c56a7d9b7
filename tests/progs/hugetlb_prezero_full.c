// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO): the zeroed_reserve and zeroed_hugepages sysfs
 * files, the khugezerod threads that zero free huge pages in place, and,
 * above all, that a huge page handed to user space is always zero, whether
 * it was zeroed in advance or not.
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

struct hp_node {
	int nid;
	bool has_memory;
	char dir[PATH_LEN];
	char orig_reserve[VAL_LEN];
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

/* The directory of node index @node's files, the global one if @node < 0 */
static const char *node_dir(FIXTURE_DATA(prezero) *self, int node)
{
	return node < 0 ? self->gdir : self->nodes[node].dir;
}

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

struct pool_snap {
	unsigned long free;
	unsigned long zeroed;
	unsigned long nr;
	unsigned long resv;
	unsigned long surp;
	unsigned long meminfo_free;
	unsigned long node_free[MAX_NODES];
	unsigned long node_zeroed[MAX_NODES];
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
				   &s->node_nr[i]) ||
		    dir_read_ulong(self->nodes[i].dir, "zeroed_hugepages",
				   &s->node_zeroed[i]))
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

/*
 * Set the global zeroed_reserve; "max" sets every node to max, through 0,
 * as a global "max" changes nothing while one node is at max already.
 */
static int set_reserve(FIXTURE_DATA(prezero) *self, const char *val)
{
	int ret = 0;

	if (!strcmp(val, "max"))
		ret = dir_write(self->gdir, "zeroed_reserve", "0");
	return ret ? ret : dir_write(self->gdir, "zeroed_reserve", val);
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

/* Is any zeroed_reserve of any size set, globally or on a node? */
static bool any_reserve(void)
{
	static const char * const pats[] = {
		HP_SYSFS "/hugepages-*kB/zeroed_reserve",
		NODE_SYSFS "/node*/hugepages/hugepages-*kB/zeroed_reserve",
	};
	char buf[VAL_LEN];
	bool set = false;
	unsigned int p;
	glob_t g;
	size_t i;

	for (p = 0; p < ARRAY_SIZE(pats) && !set; p++) {
		if (glob(pats[p], 0, NULL, &g))
			continue;
		for (i = 0; i < g.gl_pathc && !set; i++)
			set = read_path(g.gl_pathv[i], buf, sizeof(buf)) > 0 &&
			      strcmp(buf, "0\n");
		globfree(&g);
	}
	return set;
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
	for (i = 0; i < self->nr_nodes; i++) {
		if (dir_read(self->nodes[i].dir, "zeroed_reserve", buf,
			     sizeof(buf)) < 0)
			buf[0] = '\0';
		TH_LOG("  node%d: nr %lu free %lu zeroed %lu reserve %s",
		       self->nodes[i].nid, s.node_nr[i], s.node_free[i],
		       s.node_zeroed[i], esc(buf));
	}
}

static unsigned long target_of(bool max, unsigned long count,
			       unsigned long free)
{
	return max ? free : min_ul(count, free);
}

/*
 * Poll every 50 ms until each node has min(zeroed_reserve, free_hugepages)
 * zeroed pages.  On every sample check that zeroed_hugepages never exceeds
 * free_hugepages, that no node zeroes more than its reserve asks for (pages
 * zeroed before stay zeroed), and with WZ_STABLE that HugePages_Free,
 * free/resv/surplus_hugepages and each node's free_hugepages do not change
 * while zeroing runs.  The time limit assumes MIN_ZERO_RATE plus SLACK_S.
 */
static bool wait_zeroed(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self, int flags)
{
	unsigned long rcnt[MAX_NODES], gcnt, tgt, gtgt, todo = 0, limit;
	bool rmax[MAX_NODES], gmax, done, stable = flags & WZ_STABLE;
	struct pool_snap s0, s;
	double t0, t;
	int i, samples = 0;

	if (take_snap(self, &s0) ||
	    dir_read_reserve(self->gdir, &gmax, &gcnt)) {
		TH_LOG("cannot read the %lu kB pool state", self->size_kb);
		return false;
	}
	for (i = 0; i < self->nr_nodes; i++) {
		if (dir_read_reserve(self->nodes[i].dir, &rmax[i], &rcnt[i])) {
			TH_LOG("cannot read node%d zeroed_reserve",
			       self->nodes[i].nid);
			return false;
		}
		tgt = target_of(rmax[i], rcnt[i], s0.node_free[i]);
		if (tgt > s0.node_zeroed[i])
			todo += tgt - s0.node_zeroed[i];
	}
	if (!self->nr_nodes) {
		tgt = target_of(gmax, gcnt, s0.free);
		if (tgt > s0.zeroed)
			todo = tgt - s0.zeroed;
	}
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
		done = true;
		gtgt = 0;
		for (i = 0; i < self->nr_nodes; i++) {
			tgt = target_of(rmax[i], rcnt[i], s.node_free[i]);
			gtgt += tgt;
			if (s.node_zeroed[i] > s.node_free[i]) {
				TH_LOG("after %.2f s: node%d zeroed %lu > free %lu",
				       t, self->nodes[i].nid,
				       s.node_zeroed[i], s.node_free[i]);
				return false;
			}
			if (stable && s.node_free[i] != s0.node_free[i]) {
				TH_LOG("after %.2f s: node%d free changed: %lu -> %lu",
				       t, self->nodes[i].nid,
				       s0.node_free[i], s.node_free[i]);
				return false;
			}
			if (s.node_zeroed[i] > max_ul(tgt, s0.node_zeroed[i])) {
				TH_LOG("after %.2f s: node%d zeroed %lu, reserve allows %lu",
				       t, self->nodes[i].nid,
				       s.node_zeroed[i], tgt);
				return false;
			}
			if (s.node_zeroed[i] < tgt)
				done = false;
		}
		if (!self->nr_nodes) {
			gtgt = target_of(gmax, gcnt, s.free);
			if (s.zeroed > max_ul(gtgt, s0.zeroed)) {
				TH_LOG("after %.2f s: %lu zeroed pages, the reserve asks for %lu",
				       t, s.zeroed, gtgt);
				return false;
			}
		}
		if (s.zeroed < gtgt)
			done = false;
		if (done)
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
 * Check that zeroed_hugepages stays within [base, base + slack] on every
 * node for @secs seconds: nothing allocates, so it must not drop either.
 */
static bool expect_no_growth(struct __test_metadata *_metadata,
			     FIXTURE_DATA(prezero) *self, double secs,
			     unsigned long slack)
{
	unsigned long gslack = slack * max_ul(self->nr_nodes, 1);
	struct pool_snap s0, s;
	double t0, t;
	int i;

	if (take_snap(self, &s0))
		return false;
	t0 = now();
	do {
		usleep(POLL_US);
		t = now() - t0;
		if (take_snap(self, &s))
			return false;
		for (i = 0; i < self->nr_nodes; i++) {
			if (s.node_zeroed[i] < s0.node_zeroed[i] ||
			    s.node_zeroed[i] > s0.node_zeroed[i] + slack) {
				TH_LOG("after %.2f s: node%d zeroed %lu -> %lu (slack %lu)",
				       t, self->nodes[i].nid,
				       s0.node_zeroed[i], s.node_zeroed[i], slack);
				return false;
			}
		}
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

/* True if no free page of this size is zeroed, globally and on every node */
static bool none_zeroed(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self)
{
	struct pool_snap s;
	bool ok = true;
	int i;

	if (take_snap(self, &s))
		return false;
	if (s.zeroed) {
		TH_LOG("zeroed_hugepages is %lu, expected 0", s.zeroed);
		ok = false;
	}
	for (i = 0; i < self->nr_nodes; i++) {
		if (s.node_zeroed[i]) {
			TH_LOG("node%d zeroed_hugepages is %lu, expected 0",
			       self->nodes[i].nid, s.node_zeroed[i]);
			ok = false;
		}
	}
	return ok;
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
	for (i = 0; i < self->nr_nodes; i++) {
		struct hp_node *n = &self->nodes[i];

		ASSERT_LT(0, dir_read(n->dir, "zeroed_reserve", n->orig_reserve,
				      sizeof(n->orig_reserve)));
		ASSERT_EQ(0, dir_read_ulong(n->dir, "nr_hugepages",
					    &n->orig_nr));
	}
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
	int i;

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
	/* per node values are the truth, the global value follows them */
	for (i = 0; i < self->nr_nodes; i++) {
		struct hp_node *n = &self->nodes[i];

		if (dir_write(n->dir, "zeroed_reserve", n->orig_reserve) ||
		    dir_read(n->dir, "zeroed_reserve", buf, sizeof(buf)) < 0 ||
		    strcmp(buf, n->orig_reserve))
			TH_LOG("WARNING: could not restore node%d zeroed_reserve to %s",
			       n->nid, esc(n->orig_reserve));
	}
	if (!self->nr_nodes)
		dir_write(self->gdir, "zeroed_reserve", self->orig_reserve);
	if (dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf)) < 0 ||
	    strcmp(buf, self->orig_reserve)) {
		snprintf(tmp, sizeof(tmp), "%s", esc(buf));
		TH_LOG("WARNING: %lu kB zeroed_reserve reads %s after restore, was %s",
		       self->size_kb, tmp, esc(self->orig_reserve));
	}
}

/* zeroed_reserve of the global file and of every node */
struct reserve_set {
	char global[VAL_LEN];
	char node[MAX_NODES][VAL_LEN];
};

static int read_reserves(FIXTURE_DATA(prezero) *self, struct reserve_set *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	if (dir_read(self->gdir, "zeroed_reserve", r->global,
		     sizeof(r->global)) < 0)
		return -1;
	for (i = 0; i < self->nr_nodes; i++)
		if (dir_read(self->nodes[i].dir, "zeroed_reserve", r->node[i],
			     sizeof(r->node[i])) < 0)
			return -1;
	return 0;
}

static bool same_reserves(struct __test_metadata *_metadata,
			  FIXTURE_DATA(prezero) *self,
			  const struct reserve_set *a,
			  const struct reserve_set *b, const char *what)
{
	bool ok = true;
	char tmp[VAL_LEN];
	int i;

	if (strcmp(a->global, b->global)) {
		snprintf(tmp, sizeof(tmp), "%s", esc(a->global));
		TH_LOG("%s: global zeroed_reserve changed: %s -> %s", what, tmp,
		       esc(b->global));
		ok = false;
	}
	for (i = 0; i < self->nr_nodes; i++) {
		if (!strcmp(a->node[i], b->node[i]))
			continue;
		snprintf(tmp, sizeof(tmp), "%s", esc(a->node[i]));
		TH_LOG("%s: node%d zeroed_reserve changed: %s -> %s", what,
		       self->nodes[i].nid, tmp, esc(b->node[i]));
		ok = false;
	}
	return ok;
}

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
};

/* "" is special: write(2) of 0 bytes never reaches the store method */
static const char * const invalid_writes[] = {
	"\n", "-1", "-0", "abc", "5abc", "0x10", "+5", " 5", "5 ", "MAX",
	"Max", "maxx", "max ", " max", "max5", "max\n\n", "5\n\n",
	"18446744073709551616", "99999999999999999999999", "5 6",
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
 *   its full length.  kstrtoul() takes any number of leading zeros, so "5"
 *   padded with zeros is valid, and a number too large for it fails;
 * - beyond a page only the first page is parsed: if it is valid, write(2)
 *   returns PAGE_SIZE, a short count, and the rest is never looked at.
 * @len is the length in all, 0 meaning PAGE_SIZE, and @extra is added.
 */
enum lw_result {
	LW_EINVAL,	/* -EINVAL, nothing changes */
	LW_ALL,		/* taken, write(2) returns the full length */
	LW_PAGE,	/* the first page taken, write(2) returns PAGE_SIZE */
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
	{ "4095 digits", "", "1234567890", "", 4095, 0, LW_EINVAL, NULL },
	{ "8192 digits", "", "1234567890", "", 8192, 0, LW_EINVAL, NULL },
	{ "4096 'x'", "", "x", "", 4096, 0, LW_EINVAL, NULL },
	{ "'max' and 5000 spaces", "max", " ", "", 5003, 0, LW_EINVAL, NULL },
	{ "'5' and 5000 spaces", "5", " ", "", 5001, 0, LW_EINVAL, NULL },
	{ "'5' after zeros, 4000 bytes", "", "0", "5", 4000, 0, LW_ALL,
	  "5\n" },
	{ "'5\\n' after zeros, 4000 bytes", "", "0", "5\n", 4000, 0, LW_ALL,
	  "5\n" },
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

/* What zeroed_reserve holds before the writes of one check: a count, max */
static const char * const reserve_bases[] = { "7", "max" };

/*
 * A write @what to node @node's zeroed_reserve (-1: the global one, which
 * may change them all) left the other nodes' as they were in @before.
 */
static void expect_others_same(struct __test_metadata *_metadata,
			       FIXTURE_DATA(prezero) *self, int node,
			       const struct reserve_set *before,
			       const struct reserve_set *after,
			       const char *label, const char *what)
{
	int n;

	for (n = 0; node >= 0 && n < self->nr_nodes; n++) {
		if (n == node)
			continue;
		EXPECT_STREQ(before->node[n], after->node[n]) {
			TH_LOG("%s: %s changed node%d", label, what,
			       self->nodes[n].nid);
		}
	}
}

/* The long writes to one zeroed_reserve file, over a count and over max */
static void check_long_writes(struct __test_metadata *_metadata,
			      FIXTURE_DATA(prezero) *self, int node,
			      const char *label)
{
	const char *dir = node_dir(self, node);
	struct reserve_set before, after;
	size_t page = psize(), len = 0;
	const struct long_write *lw;
	unsigned int i, b;
	ssize_t ret, exp;
	const char *got;
	char *buf;

	for (b = 0; b < ARRAY_SIZE(reserve_bases); b++) {
		for (i = 0; i < ARRAY_SIZE(long_writes); i++) {
			lw = &long_writes[i];
			ASSERT_EQ(0, dir_write(dir, "zeroed_reserve",
					       reserve_bases[b]));
			ASSERT_EQ(0, read_reserves(self, &before));
			buf = long_buf(lw, page, &len);
			ASSERT_NE(NULL, buf);
			if (lw->res == LW_EINVAL)
				exp = -EINVAL;
			else
				exp = lw->res == LW_ALL ? len : page;

			ret = dir_write_once(dir, "zeroed_reserve", buf, len);
			free(buf);
			EXPECT_EQ(exp, ret) {
				TH_LOG("%s: %s (%zu bytes) over %s: got %zd (%s), want %zd",
				       label, lw->what, len, reserve_bases[b], ret,
				       ret < 0 ? strerror(-ret) : "accepted",
				       exp);
			}
			ASSERT_EQ(0, read_reserves(self, &after));
			if (lw->res == LW_EINVAL) {
				EXPECT_TRUE(same_reserves(_metadata, self,
							  &before, &after,
							  lw->what));
				continue;
			}
			got = node < 0 ? after.global : after.node[node];
			EXPECT_STREQ(lw->out, got) {
				TH_LOG("%s: after %s (%zu bytes) over %s",
				       label, lw->what, len, reserve_bases[b]);
			}
			expect_others_same(_metadata, self, node, &before,
					   &after, label, lw->what);
		}
	}
}

/* Valid and invalid writes to one zeroed_reserve file */
static void check_write_forms(struct __test_metadata *_metadata,
			      FIXTURE_DATA(prezero) *self, int node,
			      const char *label)
{
	const char *dir = node_dir(self, node);
	struct reserve_set before, after;
	char buf[VAL_LEN], exp[VAL_LEN], what[2 * VAL_LEN + 8];
	unsigned long nr;
	unsigned int i, b;
	int ret;

	for (i = 0; i < ARRAY_SIZE(valid_writes); i++) {
		ASSERT_EQ(0, read_reserves(self, &before));
		ret = dir_write(dir, "zeroed_reserve", valid_writes[i].in);
		EXPECT_EQ(0, ret) {
			TH_LOG("%s: write '%s' failed: %s", label,
			       esc(valid_writes[i].in), strerror(-ret));
		}
		ASSERT_LT(0, dir_read(dir, "zeroed_reserve", buf, sizeof(buf)));
		EXPECT_STREQ(valid_writes[i].out, buf) {
			TH_LOG("%s: after writing '%s'", label,
			       esc(valid_writes[i].in));
		}
		/* a node's write leaves the other nodes alone */
		ASSERT_EQ(0, read_reserves(self, &after));
		snprintf(what, sizeof(what), "write '%s'",
			 esc(valid_writes[i].in));
		expect_others_same(_metadata, self, node, &before, &after,
				   label, what);
	}

	/* a count above the pool size is accepted and reads back as is */
	ASSERT_EQ(0, dir_read_ulong(dir, "nr_hugepages", &nr));
	snprintf(exp, sizeof(exp), "%lu\n", nr * 4 + 1000);
	EXPECT_EQ(0, dir_write(dir, "zeroed_reserve", exp)) {
		TH_LOG("%s: write of a count above the pool (%s) failed",
		       label, esc(exp));
	}
	ASSERT_LT(0, dir_read(dir, "zeroed_reserve", buf, sizeof(buf)));
	EXPECT_STREQ(exp, buf);

	for (b = 0; b < ARRAY_SIZE(reserve_bases); b++) {
		ASSERT_EQ(0, dir_write(dir, "zeroed_reserve",
				       reserve_bases[b]));
		ASSERT_EQ(0, read_reserves(self, &before));

		/* an empty write(2) is either a no-op or -EINVAL */
		ret = dir_write_buf(dir, "zeroed_reserve", "", 0);
		EXPECT_TRUE(ret == 0 || ret == -EINVAL) {
			TH_LOG("%s: empty write returned %d", label, ret);
		}
		ASSERT_EQ(0, read_reserves(self, &after));
		EXPECT_TRUE(same_reserves(_metadata, self, &before, &after,
					  "empty write"));

		for (i = 0; i < ARRAY_SIZE(invalid_writes); i++) {
			ret = dir_write(dir, "zeroed_reserve",
					invalid_writes[i]);
			EXPECT_EQ(-EINVAL, ret) {
				TH_LOG("%s: write '%s' returned %d (%s), expected -EINVAL",
				       label, esc(invalid_writes[i]), ret,
				       ret ? strerror(-ret) : "accepted");
			}
			ASSERT_EQ(0, read_reserves(self, &after));
			EXPECT_TRUE(same_reserves(_metadata, self, &before,
						  &after, invalid_writes[i]));
		}
	}

	check_long_writes(_metadata, self, node, label);
}

/* The zeroed_reserve values of the nodes with memory; max is ULONG_MAX */
struct node_values {
	unsigned long v[MAX_NODES];
};

#define RES_MAX	ULONG_MAX

static void read_node_values(struct __test_metadata *_metadata,
			     FIXTURE_DATA(prezero) *self,
			     struct node_values *nv)
{
	bool max;
	int i;

	memset(nv, 0, sizeof(*nv));
	for (i = 0; i < self->nr_nodes; i++) {
		if (!self->nodes[i].has_memory)
			continue;
		ASSERT_EQ(0, dir_read_reserve(self->nodes[i].dir, &max,
					      &nv->v[i]));
		if (max)
			nv->v[i] = RES_MAX;
	}
}

/*
 * What a global write of @n (RES_MAX: "max") makes of the node values:
 * writing what the global file reads changes nothing; any other count is
 * shared evenly among the nodes with memory, the remainder going to the
 * lowest nids, and max sets them all to max.
 */
static void model_global_write(FIXTURE_DATA(prezero) *self,
			       struct node_values *nv, unsigned long n)
{
	unsigned long sum = 0, k = 0, j = 0;
	bool unbounded = false;
	int i;

	for (i = 0; i < self->nr_nodes; i++) {
		if (!self->nodes[i].has_memory)
			continue;
		k++;
		if (nv->v[i] == RES_MAX)
			unbounded = true;
		else
			sum += nv->v[i];
	}
	if (n == (unbounded ? RES_MAX : sum))
		return;
	for (i = 0; i < self->nr_nodes; i++)
		if (self->nodes[i].has_memory)
			nv->v[i] = n == RES_MAX ? RES_MAX :
				   n / k + (j++ < n % k);
}

/* The value the global file must read for these node values */
static void global_of(FIXTURE_DATA(prezero) *self,
		      const struct node_values *nv, char *buf, size_t len)
{
	unsigned long sum = 0;
	int i, mem = 0;

	for (i = 0; i < self->nr_nodes; i++) {
		if (!self->nodes[i].has_memory)
			continue;
		mem++;
		if (nv->v[i] == RES_MAX) {
			snprintf(buf, len, "max\n");
			return;
		}
		sum += nv->v[i];
	}
	if (mem)
		snprintf(buf, len, "%lu\n", sum);
}

static bool same_values(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self,
			const struct node_values *want,
			const struct node_values *got, const char *what)
{
	bool ok = true;
	int i;

	for (i = 0; i < self->nr_nodes; i++) {
		if (!self->nodes[i].has_memory || want->v[i] == got->v[i])
			continue;
		TH_LOG("%s: node%d zeroed_reserve %lu, expected %lu (%lu: max)",
		       what, self->nodes[i].nid, got->v[i], want->v[i],
		       RES_MAX);
		ok = false;
	}
	return ok;
}

/*
 * Writing back what a file reads changes nothing: the global file, then
 * every node's file.
 */
static void check_round_trip(struct __test_metadata *_metadata,
			     FIXTURE_DATA(prezero) *self, const char *what)
{
	struct reserve_set before, after;
	char label[2 * VAL_LEN];
	int i;

	ASSERT_EQ(0, read_reserves(self, &before));
	ASSERT_EQ(0, dir_write(self->gdir, "zeroed_reserve", before.global));
	ASSERT_EQ(0, read_reserves(self, &after));
	snprintf(label, sizeof(label), "%s: global %s written back", what,
		 esc(before.global));
	EXPECT_TRUE(same_reserves(_metadata, self, &before, &after, label));
	for (i = 0; i < self->nr_nodes; i++) {
		ASSERT_EQ(0, dir_write(self->nodes[i].dir, "zeroed_reserve",
				       before.node[i]));
		ASSERT_EQ(0, read_reserves(self, &after));
		snprintf(label, sizeof(label), "%s: node%d written back", what,
			 self->nodes[i].nid);
		EXPECT_TRUE(same_reserves(_metadata, self, &before, &after,
					  label));
	}
}

/*
 * A global write of @val from the current node values: the node values
 * become what model_global_write() says, the global file reads their sum
 * (max if one is max), and the new state round-trips.
 */
static void check_global_write(struct __test_metadata *_metadata,
			       FIXTURE_DATA(prezero) *self, const char *val)
{
	struct node_values want, got;
	char buf[VAL_LEN], exp[VAL_LEN], what[2 * VAL_LEN];
	unsigned long n;
	bool max;

	ASSERT_EQ(0, parse_reserve(val, &max, &n));
	read_node_values(_metadata, self, &want);
	model_global_write(self, &want, max ? RES_MAX : n);
	ASSERT_EQ(0, dir_write(self->gdir, "zeroed_reserve", val));
	ASSERT_LT(0, dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf)));
	snprintf(what, sizeof(what), "global write of %s", esc(val));
	if (self->nr_nodes) {
		read_node_values(_metadata, self, &got);
		EXPECT_TRUE(same_values(_metadata, self, &want, &got, what));
		global_of(self, &got, exp, sizeof(exp));
		EXPECT_STREQ(exp, buf);
	} else {
		EXPECT_STREQ(val, buf);
	}
	check_round_trip(_metadata, self, what);
}

/* Per node writes: set node @i to @val and check the global sum */
static void set_node(struct __test_metadata *_metadata,
		     FIXTURE_DATA(prezero) *self, int i, const char *val)
{
	struct node_values nv;
	char buf[VAL_LEN], exp[VAL_LEN], what[2 * VAL_LEN];

	ASSERT_EQ(0, dir_write(self->nodes[i].dir, "zeroed_reserve", val));
	read_node_values(_metadata, self, &nv);
	global_of(self, &nv, exp, sizeof(exp));
	ASSERT_LT(0, dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf)));
	EXPECT_STREQ(exp, buf) {
		TH_LOG("node%d set to %s", self->nodes[i].nid, esc(val));
	}
	snprintf(what, sizeof(what), "node%d set to %s", self->nodes[i].nid,
		 esc(val));
	check_round_trip(_metadata, self, what);
}

/* Writing @n to @dir's zeroed_reserve fails with EINVAL and changes nothing */
static void check_refused(struct __test_metadata *_metadata,
			  FIXTURE_DATA(prezero) *self, const char *dir,
			  unsigned long n)
{
	struct reserve_set before, after;
	char val[VAL_LEN], label[PATH_LEN + VAL_LEN];

	snprintf(val, sizeof(val), "%lu\n", n);
	snprintf(label, sizeof(label), "%s: %s refused", dir, esc(val));
	ASSERT_EQ(0, read_reserves(self, &before));
	EXPECT_EQ(-EINVAL, dir_write(dir, "zeroed_reserve", val));
	ASSERT_EQ(0, read_reserves(self, &after));
	EXPECT_TRUE(same_reserves(_metadata, self, &before, &after, label));
}

/*
 * How global writes set the node values and how the global value is read,
 * from every kind of state: all counts, even and uneven, all max, some
 * nodes at max, large sums, counts too large for a node; and that each
 * state round-trips.
 */
static void check_global_semantics(struct __test_metadata *_metadata,
				   FIXTURE_DATA(prezero) *self)
{
	char val[VAL_LEN];
	unsigned long nr, sum = 0;
	int i, mem[MAX_NODES], k = 0;

	ASSERT_EQ(0, dir_read_ulong(self->gdir, "nr_hugepages", &nr));
	for (i = 0; i < self->nr_nodes; i++)
		if (self->nodes[i].has_memory)
			mem[k++] = i;

	/* from all 0: counts up and down, max and back */
	check_global_write(_metadata, self, "0\n");
	check_global_write(_metadata, self, "1\n");
	check_global_write(_metadata, self, "5\n");
	snprintf(val, sizeof(val), "%lu\n", nr / 2 + 3);
	check_global_write(_metadata, self, val);
	snprintf(val, sizeof(val), "%lu\n", 2 * nr + 7);
	check_global_write(_metadata, self, val);
	check_global_write(_metadata, self, "3\n");
	check_global_write(_metadata, self, "max\n");
	check_global_write(_metadata, self, "max\n");
	check_global_write(_metadata, self, "4\n");
	check_global_write(_metadata, self, "0\n");
	if (!k)
		return;
	/*
	 * A count too large for the nodes' shares is refused: a node's count
	 * stays below ULONG_MAX / MAX_NUMNODES, and node directories mean
	 * NUMA, so MAX_NUMNODES is 2 or more.
	 */
	check_refused(_metadata, self, self->gdir, RES_MAX - 1);
	check_refused(_metadata, self, self->nodes[mem[0]].dir, RES_MAX - 1);

	/* uneven per node counts, then global counts: even shares */
	for (i = 0; i < k; i++) {
		snprintf(val, sizeof(val), "%d\n", 3 + 7 * i);
		set_node(_metadata, self, mem[i], val);
		sum += 3 + 7 * i;
	}
	snprintf(val, sizeof(val), "%lu\n", sum);
	check_global_write(_metadata, self, val);
	snprintf(val, sizeof(val), "%lu\n", sum + 5);
	check_global_write(_metadata, self, val);
	snprintf(val, sizeof(val), "%lu\n", sum - 4);
	check_global_write(_metadata, self, val);

	/* one node at max, the others at counts or 0: the sum is max */
	set_node(_metadata, self, mem[0], "max\n");
	check_global_write(_metadata, self, "max\n");
	for (i = 1; i < k; i++)
		set_node(_metadata, self, mem[i], "0\n");
	check_global_write(_metadata, self, "max\n");
	/* a count turns the max nodes into counts */
	check_global_write(_metadata, self, "7\n");
	set_node(_metadata, self, mem[k - 1], "max\n");
	check_global_write(_metadata, self, "2\n");

	/* large node counts add up to a global value that round-trips */
	for (i = 0; i < k; i++)
		set_node(_metadata, self, mem[i], "1099511627776\n");
	snprintf(val, sizeof(val), "%lu\n", (1UL << 40) * k + 1);
	check_global_write(_metadata, self, val);

	check_global_write(_metadata, self, "0\n");
}

/* zeroed_hugepages is read only, also for root */
static void check_zeroed_ro(struct __test_metadata *_metadata,
			    const char *dir, const char *label)
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
			TH_LOG("%s: open(O_WRONLY) of zeroed_hugepages: %s",
			       label, strerror(errno));
		}
	} else {
		ret = write(fd, val, strlen(val));
		EXPECT_GT(0, ret) {
			TH_LOG("%s: write to zeroed_hugepages succeeded", label);
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

static const char *file_label(FIXTURE_DATA(prezero) *self, int i,
			      char *buf, size_t len)
{
	if (i < 0)
		return "global";
	snprintf(buf, len, "node%d", self->nodes[i].nid);
	return buf;
}

/*
 * With no writer running: every zeroed_reserve file reads a well formed
 * value, the global one the sum of the nodes with memory, or "max" if one
 * of them is at max (hugetlb_prezero_reserve_show()), and every file
 * round-trips.
 */
static void check_global_sum(struct __test_metadata *_metadata,
			     FIXTURE_DATA(prezero) *self, const char *what)
{
	char buf[VAL_LEN], exp[VAL_LEN];
	struct node_values nv;
	unsigned long cnt;
	bool max;
	int i;

	for (i = 0; i < self->nr_nodes; i++) {
		ASSERT_LT(0, dir_read(self->nodes[i].dir, "zeroed_reserve",
				      buf, sizeof(buf)));
		EXPECT_EQ(0, parse_reserve(buf, &max, &cnt)) {
			TH_LOG("%s: node%d zeroed_reserve reads '%s'", what,
			       self->nodes[i].nid, esc(buf));
		}
	}
	ASSERT_LT(0, dir_read(self->gdir, "zeroed_reserve", buf, sizeof(buf)));
	EXPECT_EQ(0, parse_reserve(buf, &max, &cnt)) {
		TH_LOG("%s: global zeroed_reserve reads '%s'", what, esc(buf));
	}
	read_node_values(_metadata, self, &nv);
	exp[0] = '\0';
	global_of(self, &nv, exp, sizeof(exp));
	if (exp[0]) {
		EXPECT_STREQ(exp, buf) {
			TH_LOG("%s: global zeroed_reserve does not match the nodes:",
			       what);
			log_pool(_metadata, self, what);
		}
	}
	check_round_trip(_metadata, self, what);
}

/*
 * Try to open @dir's zeroed_reserve and zeroed_hugepages for writing, as
 * uid 65534: they are 0644 and 0444 and owned by root, so
 * generic_permission(), through kernfs_iop_permission(), refuses with
 * EACCES.  Should an open succeed, write "3" so that the parent sees it.
 * Reading stays allowed.
 */
static bool nobody_try(struct __test_metadata *_metadata, const char *dir,
		       const char *label)
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
				TH_LOG("%s: uid %d opened %s %s, a write of '3' returned %zd",
				       label, NOBODY_ID, names[i],
				       flag_names[f], ret);
				close(fd);
				ok = false;
			} else if (errno != EACCES) {
				TH_LOG("%s: uid %d open(%s, %s): %s, expected EACCES",
				       label, NOBODY_ID, names[i],
				       flag_names[f], strerror(errno));
				ok = false;
			}
		}
	}

	ret = dir_read(dir, "zeroed_reserve", buf, sizeof(buf));
	if (ret < 0) {
		TH_LOG("%s: uid %d cannot read zeroed_reserve: %s", label,
		       NOBODY_ID, strerror(-ret));
		ok = false;
	} else if (parse_reserve(buf, &max, &cnt)) {
		TH_LOG("%s: uid %d reads zeroed_reserve '%s'", label, NOBODY_ID,
		       esc(buf));
		ok = false;
	}
	if (dir_read_ulong(dir, "zeroed_hugepages", &cnt)) {
		TH_LOG("%s: uid %d cannot read zeroed_hugepages", label,
		       NOBODY_ID);
		ok = false;
	}
	return ok;
}

/* The child of sysfs_write_nonroot: its exit code */
static int nobody_child(struct __test_metadata *_metadata,
			FIXTURE_DATA(prezero) *self)
{
	char label[VAL_LEN];
	bool ok;
	int i;

	if (setgroups(0, NULL) ||
	    setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID) ||
	    setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID)) {
		TH_LOG("cannot switch to uid and gid %d: %s", NOBODY_ID,
		       strerror(errno));
		return NOBODY_SKIP;
	}
	ok = nobody_try(_metadata, self->gdir, "global");
	for (i = 0; i < self->nr_nodes; i++) {
		if (!nobody_try(_metadata, self->nodes[i].dir,
				file_label(self, i, label, sizeof(label))))
			ok = false;
	}
	return ok ? 0 : 1;
}

/* Valid values the concurrent writers write, counts and max */
static const char * const conc_values[] = {
	"0", "1", "5", "max", "13\n", "max\n", "64",
};

/* One writer's results, in memory shared with the test */
struct conc_stats {
	unsigned long writes;
	unsigned long failed;
	int err;		/* errno of the first failed write, */
	int file;		/* its file (-1: global, else a node), */
	unsigned int val;	/* and its value in conc_values[] */
};

/* Writer @w: cycle through the files and the values until @end. */
static void conc_writer(FIXTURE_DATA(prezero) *self, int w, double end,
			struct conc_stats *st)
{
	unsigned long files = self->nr_nodes + 1, k;
	unsigned int v;
	int f, ret;

	for (k = 0; now() < end; k++) {
		f = (int)((k + w) % files) - 1;
		v = (k * (w + 1) + w) % ARRAY_SIZE(conc_values);
		ret = dir_write(node_dir(self, f), "zeroed_reserve",
				conc_values[v]);
		st->writes++;
		if (ret && !st->failed++) {
			st->err = -ret;
			st->file = f;
			st->val = v;
		}
	}
}

/*
 * Read every zeroed_reserve file once while the writers run: each must be
 * well formed, a node's value at most @cmax unless it is max, the global
 * value at most @gmax unless it is max.
 */
static bool conc_read(struct __test_metadata *_metadata,
		      FIXTURE_DATA(prezero) *self, unsigned long cmax,
		      unsigned long gmax)
{
	char buf[VAL_LEN], label[VAL_LEN];
	unsigned long cnt, lim;
	bool max;
	int i, ret;

	for (i = -1; i < self->nr_nodes; i++) {
		lim = i < 0 ? gmax : cmax;
		ret = dir_read(node_dir(self, i), "zeroed_reserve", buf,
			       sizeof(buf));
		if (ret < 0) {
			TH_LOG("%s: reading zeroed_reserve while writers run: %s",
			       file_label(self, i, label, sizeof(label)),
			       strerror(-ret));
			return false;
		}
		if (parse_reserve(buf, &max, &cnt) || (!max && cnt > lim)) {
			TH_LOG("%s: reads '%s' while writers run (at most %lu or max)",
			       file_label(self, i, label, sizeof(label)),
			       esc(buf), lim);
			return false;
		}
	}
	return true;
}

/*
 * 1. Accepted and rejected forms of zeroed_reserve writes, on the global
 * file and on every node's file, writes longer than a page among them, how
 * global writes set the node values, how the global value is read back,
 * that writing back what was read changes nothing, and that
 * zeroed_hugepages is read only.  Needs no free pages.
 */
TEST_F_TIMEOUT(prezero, sysfs_write_forms, 120)
{
	char label[VAL_LEN];
	int i;

	check_modes(_metadata, self->gdir);
	for (i = 0; i < self->nr_nodes; i++)
		check_modes(_metadata, self->nodes[i].dir);

	check_write_forms(_metadata, self, -1, "global");
	for (i = 0; i < self->nr_nodes; i++) {
		snprintf(label, sizeof(label), "node%d", self->nodes[i].nid);
		check_write_forms(_metadata, self, i, label);
	}
	if (!self->nr_nodes)
		TH_LOG("no per node hugepages directories: per node checks skipped");

	check_global_semantics(_metadata, self);

	check_zeroed_ro(_metadata, self->gdir, "global");
	for (i = 0; i < self->nr_nodes; i++) {
		snprintf(label, sizeof(label), "node%d", self->nodes[i].nid);
		check_zeroed_ro(_metadata, self->nodes[i].dir, label);
	}
	TH_LOG("checked %zu valid, %zu invalid and %zu long forms on %d files",
	       ARRAY_SIZE(valid_writes), ARRAY_SIZE(invalid_writes) + 1,
	       ARRAY_SIZE(long_writes), self->nr_nodes + 1);
}

/*
 * 1b. Users other than root cannot write zeroed_reserve (nor
 * zeroed_hugepages): a child switched to uid and gid 65534 gets EACCES
 * from open() for writing on the global file and on every node's file,
 * can still read them, and no zeroed_reserve value changes.
 */
TEST_F_TIMEOUT(prezero, sysfs_write_nonroot, 60)
{
	struct reserve_set before, after;
	int status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "not root: cannot switch to uid %d", NOBODY_ID);
	/* all counts 0: a stray write of "3" would show */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_EQ(0, read_reserves(self, &before));

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
	ASSERT_EQ(0, read_reserves(self, &after));
	EXPECT_TRUE(same_reserves(_metadata, self, &before, &after,
				  "writes as non-root"));
	TH_LOG("uid %d: opening for writing refused on %d directories",
	       NOBODY_ID, self->nr_nodes + 1);
}

/*
 * 1c. Writers racing on the global and per node files: each write of a
 * valid value succeeds, every value read meanwhile is well formed and in
 * range, and once they are done the global value agrees with the node
 * values, and known values written afterwards read back exactly.
 */
TEST_F_TIMEOUT(prezero, sysfs_concurrent_writers, 60)
{
	unsigned long cmax = 0, gmax = 0, v, reads = 0, writes = 0;
	pid_t pids[CONC_WRITERS];
	char label[VAL_LEN];
	struct conc_stats *st;
	bool reads_ok = true;
	int i, w, status;
	double t0, end;

	/* a global write gives no node more than its count */
	for (i = 0; i < (int)ARRAY_SIZE(conc_values); i++)
		if (!parse_ulong(conc_values[i], &v))
			cmax = max_ul(cmax, v);
	/* the global value is the sum of the nodes with memory, or max */
	for (i = 0; i < self->nr_nodes; i++)
		if (self->nodes[i].has_memory)
			gmax += cmax;
	if (!self->nr_nodes)
		gmax = cmax;

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
		reads_ok = conc_read(_metadata, self, cmax, gmax);
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
			TH_LOG("writer %d: %lu of %lu writes failed, the first '%s' to %s: %s",
			       w, st[w].failed, st[w].writes,
			       esc(conc_values[st[w].val]),
			       file_label(self, st[w].file, label,
					  sizeof(label)),
			       strerror(st[w].err));
		}
	}
	EXPECT_TRUE(reads_ok);
	TH_LOG("%d writers: %lu writes to %d files in %.2f s, %lu rounds of reads",
	       CONC_WRITERS, writes, self->nr_nodes + 1, now() - t0, reads);
	munmap(st, CONC_WRITERS * sizeof(*st));

	check_global_sum(_metadata, self, "after the writers");
	/* known global counts, max, per node counts and a node at max */
	check_global_semantics(_metadata, self);
	check_global_sum(_metadata, self, "after known writes");
}

/*
 * 2. zeroed_hugepages reaches min(zeroed_reserve, free_hugepages), globally
 * and per node, in bounded time, never goes beyond it, never exceeds
 * free_hugepages, and zeroing does not change the pool counters.
 */
TEST_F_TIMEOUT(prezero, zeroing_reaches_reserve, 600)
{
	unsigned long avail, r, cnt, zb[MAX_NODES], d, i, want, k;
	struct node_values nv;
	struct pool_snap s;
	int a = -1, b = -1, n;
	char *p;

	avail = need_pool(_metadata, self, MIN_FREE_SMALL);
	if (!avail)
		return;

	/* start from a pool with no zeroed page */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_TRUE(none_zeroed(_metadata, self));

	/* a global count: half of the pool, split evenly over the nodes */
	r = avail / 2 ? avail / 2 : 1;
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "zeroed_reserve", r));
	log_pool(_metadata, self, "global reserve of half the pool");
	ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
	ASSERT_EQ(0, take_snap(self, &s));
	read_node_values(_metadata, self, &nv);
	want = self->nr_nodes ? 0 : min_ul(r, s.free);
	for (n = 0; n < self->nr_nodes; n++)
		if (self->nodes[n].has_memory)
			want += min_ul(nv.v[n], s.node_free[n]);
	EXPECT_TRUE(s.free != s.nr || s.zeroed == want) {
		TH_LOG("global reserve %lu, %lu pages zeroed, expected %lu",
		       r, s.zeroed, want);
	}
	/* and it stays there */
	EXPECT_TRUE(expect_no_growth(_metadata, self, 0.5, 0));

	/* per node values */
	for (n = 0; n < self->nr_nodes; n++) {
		if (!self->nodes[n].has_memory || !s.node_free[n])
			continue;
		if (a < 0)
			a = n;
		else if (b < 0)
			b = n;
	}
	if (a >= 0) {
		ASSERT_EQ(0, dir_write(self->nodes[a].dir, "zeroed_reserve",
				       "max"));
		log_pool(_metadata, self, "one node at max");
		ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
		ASSERT_EQ(0, take_snap(self, &s));
		EXPECT_EQ(s.node_free[a], s.node_zeroed[a]);
	}
	if (b >= 0 && s.node_zeroed[b] < s.node_free[b]) {
		cnt = s.node_zeroed[b] + 1;
		ASSERT_EQ(0, dir_write_ulong(self->nodes[b].dir,
					     "zeroed_reserve", cnt));
		log_pool(_metadata, self, "second node one page more");
		ASSERT_TRUE(wait_zeroed(_metadata, self, WZ_STABLE));
		ASSERT_EQ(0, take_snap(self, &s));
		EXPECT_EQ(cnt, s.node_zeroed[b]);
		EXPECT_TRUE(expect_no_growth(_metadata, self, 0.5, 0));
	}

	/* a count above the pool on every node zeroes every free page */
	for (n = 0, k = 0; n < self->nr_nodes; n++)
		k += self->nodes[n].has_memory;
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "zeroed_reserve",
				     max_ul(k, 1) * avail + 1));
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
	for (n = 0; n < self->nr_nodes; n++) {
		EXPECT_EQ(s.node_free[n], s.node_zeroed[n]) {
			TH_LOG("node%d", self->nodes[n].nid);
		}
	}

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

	/* shrinking a node's pool frees its dirty pages first */
	ASSERT_EQ(0, set_reserve(self, "0"));
	d = min_ul(8, s.free);
	p = map_anon(self, d);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < d; i++)
		p[i * self->size] = 1;
	munmap(p, d * self->size);
	ASSERT_EQ(0, take_snap(self, &s));
	for (n = 0; n < self->nr_nodes; n++) {
		zb[n] = s.node_zeroed[n];
		if (s.node_free[n] == zb[n])
			continue;
		ASSERT_EQ(0, dir_write_ulong(self->nodes[n].dir, "nr_hugepages",
					     s.node_nr[n] - (s.node_free[n] - zb[n])));
	}
	ASSERT_EQ(0, take_snap(self, &s));
	for (n = 0; n < self->nr_nodes; n++) {
		EXPECT_EQ(zb[n], s.node_zeroed[n]) {
			TH_LOG("node%d: shrinking by its dirty pages dropped zeroed pages",
			       self->nodes[n].nid);
		}
		EXPECT_EQ(s.node_free[n], s.node_zeroed[n]);
	}
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
