/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the hugetlb_prezero_<area> tests of background pre-zeroing
 * of free hugetlb pages (CONFIG_HUGETLB_PREZERO): variants 2M and 1G, one
 * huge page size each, and the helpers the tests share: the size's pool
 * counters, its zeroed_reserve, waiting for the khugezerod threads, and
 * checking that pages read as zero.
 *
 * Each program defines, before including this file, the free pages the
 * setup gives each of its tests: POOL_SMALL of 2 MiB pages and POOL_LARGE
 * of 1 GiB ones, or POOL_AS_FOUND for tests that need none (the pool is
 * left as it is).  The setup grows or shrinks nr_hugepages until exactly
 * that many are free, so that a run takes as long whatever pool it finds,
 * but frees no 1 GiB page that the program did not allocate (they may not
 * come back): with more free than that, the test is skipped.  Pass -k to
 * leave the pools as found (a pool with HVO must not shrink on a 6.12
 * base, see docs/KNOWN-ISSUES.md): the tests then take every free page,
 * and skip with fewer than POOL_SMALL 2 MiB pages or no 1 GiB page.
 *
 * Each program saves every size's pool and zeroed_reserve from a
 * constructor, with the other files it changes, and puts them back at exit
 * and at SIGTERM, SIGINT, SIGHUP and SIGQUIT (prezero_test_util.h); each
 * test also puts back the reserves it changed.  The threads zero at idle
 * priority: a test that waits for them skips, with the count they reached,
 * when they are slower than MIN_ZERO_RATE.
 *
 * Built against the kselftest headers of the work tree
 * (scripts/build/build-test-progs.sh).  Must run as root.
 */
#ifndef PREZERO_FIXTURE_H
#define PREZERO_FIXTURE_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "prezero_test_util.h"

#if !defined(POOL_SMALL) || !defined(POOL_LARGE)
#error "define POOL_SMALL and POOL_LARGE before including this file"
#endif

/* A test that needs no free page: the setup leaves the pool as it is */
#define POOL_AS_FOUND		ULONG_MAX

/* Poll interval of the waits */
#define POLL_US			50000

/* Pages faulted at once in the content and leak tests */
#define MAX_K_SMALL		16UL
#define MAX_K_GIGANTIC		1UL

#define NO_OFFSET		((size_t)-1)

/* What esc() returns for a value of up to VAL_LEN bytes */
#define ESC_LEN			(2 * VAL_LEN)

/* wait_zeroed() flags */
#define WZ_STABLE		0x1	/* pool counters must not change */
#define WZ_QUIET		0x2	/* log only on failure */

/* -k: the setup leaves the pools as found */
static bool opt_keep_pools;

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

static inline unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static inline unsigned long max_ul(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

/* Make a written value printable: "\n" becomes "\\n". */
static inline const char *esc(const char *s)
{
	static char buf[ESC_LEN];
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

static inline int dir_read(const char *dir, const char *name, char *buf, size_t len)
{
	char path[2 * PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_path(path, buf, len);
}

static inline int dir_write_buf(const char *dir, const char *name, const char *buf,
				size_t len)
{
	char path[2 * PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_path_len(path, buf, len);
}

static inline int dir_write(const char *dir, const char *name, const char *s)
{
	return dir_write_buf(dir, name, s, strlen(s));
}

static inline int dir_write_ulong(const char *dir, const char *name,
				  unsigned long val)
{
	char buf[VAL_LEN];

	snprintf(buf, sizeof(buf), "%lu", val);
	return dir_write(dir, name, buf);
}

static inline int parse_ulong(const char *s, unsigned long *val)
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
static inline unsigned long meminfo_free_hugepages(void)
{
	long val = meminfo_read("HugePages_Free");

	return val > 0 ? val : 0;
}

static inline int dir_read_ulong(const char *dir, const char *name,
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
static inline int parse_reserve(const char *buf, bool *max, unsigned long *count)
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
static inline int dir_read_reserve(const char *dir, bool *max, unsigned long *count)
{
	char buf[VAL_LEN];
	int ret;

	ret = dir_read(dir, "zeroed_reserve", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	return parse_reserve(buf, max, count);
}

static inline int read_stats(struct pz_stats *s)
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
static inline size_t find_nonzero(const void *buf, size_t len)
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

static inline bool check_zero(struct __test_metadata *_metadata,
			      const char *what, const char *p, size_t len,
			      unsigned long psize)
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
	unsigned long avail;	/* free pages the setup left for the test */
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
	/* mappings to drop before the teardown shrinks the pool */
	pid_t owner;
	char *ballast;
	size_t ballast_len;
	char *region;
	size_t region_len;
	/* how far wait_zeroed() got when it gave up */
	unsigned long wz_zeroed;
	unsigned long wz_target;
	double wz_secs;
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

static inline int find_nodes(FIXTURE_DATA(prezero) *self)
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
static inline int take_snap(FIXTURE_DATA(prezero) *self, struct pool_snap *s)
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

static inline void *map_anon(FIXTURE_DATA(prezero) *self, unsigned long npages)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB;

	flags |= __builtin_ctzl(self->size) << MAP_HUGE_SHIFT;
	return mmap(NULL, npages * self->size, PROT_READ | PROT_WRITE, flags,
		    -1, 0);
}

static inline int memfd_huge(FIXTURE_DATA(prezero) *self)
{
	unsigned int flags = MFD_CLOEXEC | MFD_HUGETLB;

	flags |= __builtin_ctzl(self->size) << MFD_HUGE_SHIFT;
	return memfd_create("hugetlb_prezero", flags);
}

/* Set this size's zeroed_reserve */
static inline int set_reserve(FIXTURE_DATA(prezero) *self, const char *val)
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
static inline bool keep_zeroing(struct __test_metadata *_metadata,
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
static inline void stop_keeping(FIXTURE_DATA(prezero) *self)
{
	if (self->restore_other &&
	    !dir_write(self->other_dir, "zeroed_reserve", "0"))
		self->restore_other = false;
}

/* Is the zeroed_reserve of any size set? */
static inline bool any_reserve(void)
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

static inline void log_pool(struct __test_metadata *_metadata,
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

static inline unsigned long target_of(bool max, unsigned long count,
				      unsigned long free)
{
	return max ? free : min_ul(count, free);
}

/*
 * How many free pages a reserve (@max, or @count) keeps zeroed in the pool
 * of @s: every node with memory min(count, its free pages), all of them
 * for max; one node when there are no node directories.
 */
static inline unsigned long reserve_target(FIXTURE_DATA(prezero) *self,
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
 * 0 once reached, -1 on a wrong count; 1 if the threads did not get there
 * in time (self->wz_* say how far they got): see WAIT_ZEROED().
 */
static inline int wait_zeroed(struct __test_metadata *_metadata,
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
		return -1;
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
			return -1;
		}
		samples++;
		t = now() - t0;
		if (s.zeroed > s.free) {
			TH_LOG("after %.2f s: zeroed_hugepages %lu > free_hugepages %lu",
			       t, s.zeroed, s.free);
			return -1;
		}
		if (stable && (s.free != s0.free || s.resv != s0.resv ||
			       s.surp != s0.surp ||
			       s.meminfo_free != s0.meminfo_free)) {
			TH_LOG("after %.2f s: pool changed while zeroing:", t);
			TH_LOG("free %lu->%lu resv %lu->%lu surp %lu->%lu meminfo %lu->%lu",
			       s0.free, s.free, s0.resv, s.resv, s0.surp,
			       s.surp, s0.meminfo_free, s.meminfo_free);
			return -1;
		}
		for (i = 0; stable && i < self->nr_nodes; i++) {
			if (s.node_free[i] != s0.node_free[i]) {
				TH_LOG("after %.2f s: node%d free changed: %lu -> %lu",
				       t, self->nodes[i].nid,
				       s0.node_free[i], s.node_free[i]);
				return -1;
			}
		}
		tgt = reserve_target(self, &s, max, cnt);
		if (s.zeroed > max_ul(tgt, s0.zeroed)) {
			TH_LOG("after %.2f s: %lu pages zeroed, the reserve (%s%lu a node) asks for %lu",
			       t, s.zeroed, max ? "max, " : "", cnt, tgt);
			log_pool(_metadata, self, "too many zeroed");
			return -1;
		}
		if (s.zeroed >= tgt)
			break;
		if (t > limit) {
			TH_LOG("zeroing %lu kB pages not done after %.1f s (%d samples)",
			       self->size_kb, t, samples);
			log_pool(_metadata, self, "too slow");
			self->wz_zeroed = s.zeroed;
			self->wz_target = tgt;
			self->wz_secs = t;
			return 1;
		}
		usleep(POLL_US);
	}

	if (!(flags & WZ_QUIET))
		TH_LOG("%lu kB: %lu/%lu free zeroed (%lu to do) in %.2f s, limit %lu s, %d polls",
		       self->size_kb, s.zeroed, s.free, todo, t, limit,
		       samples);
	return 0;
}

/*
 * A wait for the threads in a test (or a helper of one): @call is
 * wait_zeroed() or another wait that returns as it does.  A wrong count
 * fails the test.  The threads zero at idle priority, so that a busy
 * machine may starve them: if they are too slow the test is skipped, with
 * the count they reached (self->wz_*), unless it failed already.  Runs
 * @statement (a return) then.
 */
#define WAIT_THREADS(call, statement) do {				\
	int __wz = (call);						\
									\
	ASSERT_LE(0, __wz);						\
	if (__wz && _metadata->exit_code == KSFT_PASS)			\
		SKIP(statement,						\
		     "%lu of %lu %lu kB pages zeroed after %.1f s: the threads are too slow", \
		     self->wz_zeroed, self->wz_target, self->size_kb,	\
		     self->wz_secs);					\
	if (__wz)							\
		statement;						\
} while (0)

#define WAIT_ZEROED(flags, statement)					\
	WAIT_THREADS(wait_zeroed(_metadata, self, (flags)), statement)

/* True if no free page of this size is zeroed */
static inline bool none_zeroed(struct __test_metadata *_metadata,
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
static inline unsigned long dirty_pool(struct __test_metadata *_metadata,
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

static inline void restore_pool(struct __test_metadata *_metadata,
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

/*
 * Give the test its pool: exactly POOL_SMALL or POOL_LARGE free pages, or
 * with -k the pool as found, if it has POOL_SMALL free pages, or one free
 * gigantic page (all a test takes at once).  SKIPs if it cannot.
 */
static inline void size_pool(struct __test_metadata *_metadata,
			     FIXTURE_DATA(prezero) *self)
{
	unsigned long want = self->gigantic ? POOL_LARGE : POOL_SMALL;
	unsigned long free = 0;
	int ret;

	if (want == POOL_AS_FOUND)
		return;
	if (opt_keep_pools) {
		if (self->gigantic)
			want = MAX_K_GIGANTIC;
		ASSERT_EQ(0, dir_read_ulong(self->gdir, "free_hugepages", &free));
		if (free < want)
			SKIP(return, "-k: %lu free %lu kB pages, the tests need %lu",
			     free, self->size_kb, want);
		return;
	}
	ret = pz_pool_exact(self->size_kb, want, &free);
	if (ret == -EBUSY)
		SKIP(return, "%lu free %lu kB pages found, the tests take %lu: none is freed",
		     free, self->size_kb, want);
	ASSERT_NE(-ENOENT, ret) {
		TH_LOG("the %lu kB pool was not saved at the start",
		       self->size_kb);
	}
	ASSERT_NE(-EIO, ret) {
		TH_LOG("cannot read the %lu kB pool", self->size_kb);
	}
	if (ret)
		SKIP(return, "cannot get exactly %lu free %lu kB pages (have %lu)",
		     want, self->size_kb, free);
	TH_LOG("%lu kB pool: %lu free pages", self->size_kb, free);
}

/*
 * A SKIP or failure in the setup skips the teardown: nothing is changed
 * here but the pool, which the program puts back at exit.
 */
FIXTURE_SETUP(prezero)
{
	char path[2 * PATH_LEN];
	struct pz_stats st;
	unsigned long v;
	int i;

	self->size_kb = variant->size_kb;
	self->size = variant->size_kb << 10;
	self->gigantic = pz_gigantic(self->size_kb);
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
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "resv_hugepages", &v));
	if (v)
		SKIP(return, "%lu kB pool has %lu reserved pages in use", self->size_kb, v);
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "surplus_hugepages", &v));
	if (v)
		SKIP(return, "%lu kB pool has %lu surplus pages", self->size_kb, v);

	size_pool(_metadata, self);
	if (_metadata->exit_code)
		return;
	/* what the teardown puts back if the test resizes the pool */
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "nr_hugepages", &self->orig_nr));
	for (i = 0; i < self->nr_nodes; i++)
		ASSERT_EQ(0, dir_read_ulong(self->nodes[i].dir, "nr_hugepages",
					    &self->nodes[i].orig_nr));
	ASSERT_EQ(0, dir_read_ulong(self->gdir, "free_hugepages", &self->avail));
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
	char buf[VAL_LEN], tmp[ESC_LEN];

	/* in the parent the mappings are gone with the test process */
	if (self->owner == getpid()) {
		if (self->region)
			munmap(self->region, self->region_len);
		if (self->ballast)
			munmap(self->ballast, self->ballast_len);
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

static inline bool feature_present(void)
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

/*
 * The main() of each program: its own options out of @argv (-k, and -n
 * into *@iters if the program has leak loops), the rest for the harness.
 */
static inline int pz_main(int argc, char **argv, unsigned long *iters)
{
	bool list_only = false;
	char **hargv;
	int i, hargc = 0;
	char *end;

	hargv = calloc(argc + 1, sizeof(*hargv));
	if (!hargv)
		return KSFT_FAIL;
	hargv[hargc++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *val = NULL;

		if (!strcmp(argv[i], "-k")) {
			opt_keep_pools = true;
			continue;
		}
		if (iters && !strcmp(argv[i], "-n") && i + 1 < argc)
			val = argv[++i];
		else if (iters && !strncmp(argv[i], "-n", 2) && argv[i][2])
			val = argv[i] + 2;
		else if (iters && !strcmp(argv[i], "-n"))
			val = "";
		if (val) {
			errno = 0;
			*iters = strtoul(val, &end, 10);
			if (errno || !*val || *end || !*iters ||
			    *iters > 100000) {
				fprintf(stderr, "-n needs an iteration count (1-100000)\n");
				return KSFT_FAIL;
			}
			continue;
		}
		if (!strcmp(argv[i], "-h")) {
			fprintf(stderr, "Usage: %s [-k]%s [harness options]\n"
				"\t-k       leave the pools as found: take the free pages there are\n",
				argv[0], iters ? " [-n iterations]" : "");
			if (iters)
				fprintf(stderr,
					"\t-n N     iterations of the leak tests (default %lu; 1 GiB pages: N/25, at least 1)\n",
					*iters);
		}
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

#endif
