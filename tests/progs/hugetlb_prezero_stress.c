// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency stress test for background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO).
 *
 * Worker processes get huge pages through many paths (private and shared
 * mappings, fallocate and hole punching, SysV shm, fork and COW,
 * MADV_DONTNEED, mremap).  Every newly faulted page must be zero in full;
 * the workers then fill it with a pattern that names them and free it
 * again.  Meanwhile a chaos thread resizes the pools, flips zeroed_reserve
 * and vm.hugetlb_prezero_workers, zeroes pages itself through zeroed_fill,
 * migrates and soft offlines huge pages and demotes 1 GiB pages, so that
 * the khugezerod threads are interrupted and robbed in every way.  At the
 * end the pool counters must be consistent and the pool must still work.
 *
 * It soft-offlines pages (lost until unpoisoned) and demotes 1 GiB pages,
 * so it is the project's own test, run by make check in the guest, and not
 * part of the series. Must run as root.  Every sysfs value changed is
 * restored on exit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
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
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/mempolicy.h>

#include "kselftest.h"

#include "prezero_test_util.h"

#ifndef MFD_HUGETLB
#define MFD_HUGETLB		0x0004U
#endif
#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE	0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE	0x02
#endif
#ifndef MADV_HWPOISON
#define MADV_HWPOISON		100
#endif
#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE	101
#endif

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#define SOFT_OFFLINE_PATH	"/sys/devices/system/memory/soft_offline_page"

#define MAX_SIZES		4
#define MAX_WORKERS		64

#define SZ_2M			(2UL * 1024 * 1024)
#define SZ_1G			(1024UL * 1024 * 1024)
#define POOL_MIN		64UL	/* 2 MiB pool kept within [64, 128] */
#define POOL_MAX		128UL
#define KMAX_SMALL		4	/* pages per worker mapping, 2 MiB */
#define MAX_REPORTS		5	/* detailed reports per process */
#define MAX_OFFLINE		4	/* soft offline successes per run */
#define MAX_DEMOTE		1
#define MAX_HWPOISON		2
#define PROGRESS_S		10
#define STOP_GRACE_S		120

/* Pattern word: magic, writer id, iteration, page index */
#define PAT_MAGIC		0xa5ULL
#define ID_COW			0x80
#define ID_FINAL		0xfe
#define ID_CHAOS		0xff

/* COW child exit codes */
#define CHILD_SIGBUS		2
#define CHILD_CORRUPT		3

enum mode { M_ANON, M_MEMFD, M_PUNCH, M_SHM, M_COW, M_DONTNEED, M_MREMAP, NR_MODES };

static unsigned int pshift(void)
{
	return __builtin_ctzl(getpagesize());
}

/* /proc/self/pagemap: the page is present */
#define PM_PRESENT		(1ULL << 63)

static const char * const mode_name[NR_MODES] = {
	"anon", "memfd", "punch-hole", "sysv-shm", "fork-cow", "dontneed",
	"mremap",
};

enum cop {
	C_POOL, C_POOL_NODE, C_RESERVE, C_MIGRATE, C_OFFLINE, C_OFFLINE_FREE,
	C_DEMOTE, C_HWPOISON, C_WORKERS, C_FILL, NR_COPS
};

static const char * const cop_name[NR_COPS] = {
	"nr_hugepages", "node nr_hugepages", "zeroed_reserve", "move_pages",
	"MADV_SOFT_OFFLINE", "soft_offline_page", "demote", "MADV_HWPOISON",
	"prezero_workers", "zeroed_fill",
};

static const unsigned int cop_weight[NR_COPS] = {
	20, 20, 30, 15, 3, 3, 2, 2, 5, 10,
};

#define WORKERS_PATH	"/proc/sys/vm/hugetlb_prezero_workers"
/* vm.hugetlb_prezero_workers before the run; empty if the kernel has none */
static char orig_workers[VAL_LEN];

struct pstats {
	unsigned long iters;
	unsigned long checked;	/* newly faulted pages scanned */
	unsigned long leaks;	/* ... that were not zero */
	unsigned long corrupt;	/* pages in use that lost their pattern */
	unsigned long sigbus;	/* faults without a free page */
	unsigned long nomem;	/* ENOMEM/ENOSPC/EAGAIN */
	unsigned long errors;	/* anything else */
	unsigned long reports;
	unsigned long mode[NR_MODES];
	int shm_off;
};

struct shared {
	int stop;
	struct pstats w[MAX_WORKERS];
};

struct ctx {
	unsigned int id;
	unsigned long iter;
	unsigned long hsize;
	unsigned int hshift;
	uint64_t rnd;
	struct pstats *st;
	char name[48];
};

struct hsize {
	unsigned long kb;
	unsigned long bytes;
	char dir[PATH_LEN];
	char orig_reserve[VAL_LEN];
	unsigned long orig_nr;
	unsigned long orig_node_nr[MAX_NODES];
	unsigned long in_use0;
	bool saved;
	bool pool_changed;
	bool demote;
};

/* zeroed_hugepages is a count of the size alone: a node has none */
struct snap {
	unsigned long nr, free, resv, surp, zeroed;
	unsigned long nnr[MAX_NODES], nfree[MAX_NODES], nsurp[MAX_NODES];
};

static unsigned long opt_secs = 60;
static int opt_nproc = 4;
static unsigned long opt_size = SZ_2M;
static bool opt_hwpoison;

static struct hsize sizes[MAX_SIZES];
static int nr_sizes;
static struct hsize *hs2m, *hs1g, *hs_work;
static int node_id[MAX_NODES];
static bool node_mem[MAX_NODES];
static int nr_nodes, nr_mem_nodes;
static unsigned long pool_lo, pool_hi;

static pid_t parent_pid;
static pid_t workers[MAX_WORKERS];
static struct shared *sh;
static double deadline;
static int got_signal;
static pthread_t chaos_tid;
static bool chaos_running;
static bool soft_offline_free_ok;

static struct pstats chaos_st, final_st;
static unsigned long cop_tried[NR_COPS], cop_done[NR_COPS];
static unsigned long offline_done;

static __thread sigjmp_buf bus_jmp;
static __thread int bus_armed;

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static unsigned long rnd_below(struct ctx *c, unsigned long n)
{
	return n ? rnd_next(&c->rnd) % n : 0;
}

static void ctx_init(struct ctx *c, unsigned int id, unsigned long hsize,
		     struct pstats *st, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->hsize = hsize;
	c->hshift = __builtin_ctzl(hsize);
	c->st = st;
	c->rnd = ((uint64_t)getpid() << 32 ^ (uint64_t)(now() * 1e9) ^
		  (uint64_t)id * 0x9e3779b97f4a7c15ULL) | 1;
	snprintf(c->name, sizeof(c->name), "%s", name);
}

/* sysfs helpers */

/* A file of size @h, globally (@node < 0) or of node index @node */
static void hs_path(char *buf, size_t len, const struct hsize *h, int node,
		    const char *name)
{
	if (node < 0)
		snprintf(buf, len, "%s/%s", h->dir, name);
	else
		snprintf(buf, len, NODE_SYSFS "/node%d/hugepages/hugepages-%lukB/%s",
			 node_id[node], h->kb, name);
}

static int hs_read(const struct hsize *h, int node, const char *name,
		   char *buf, size_t len)
{
	char path[2 * PATH_LEN];

	hs_path(path, sizeof(path), h, node, name);
	return read_path(path, buf, len);
}

static int hs_write(const struct hsize *h, int node, const char *name,
		    const char *val)
{
	char path[2 * PATH_LEN];

	hs_path(path, sizeof(path), h, node, name);
	return write_path(path, val);
}

static int hs_read_ul(const struct hsize *h, int node, const char *name,
		      unsigned long *val)
{
	char buf[VAL_LEN], *end;

	if (hs_read(h, node, name, buf, sizeof(buf)) <= 0 ||
	    !isdigit((unsigned char)buf[0]))
		return -1;
	*val = strtoul(buf, &end, 10);
	return *end && *end != '\n' ? -1 : 0;
}

static int hs_write_ul(const struct hsize *h, int node, const char *name,
		       unsigned long val)
{
	char buf[VAL_LEN];

	snprintf(buf, sizeof(buf), "%lu", val);
	return hs_write(h, node, name, buf);
}

/* Strip the trailing newline of a value read back */
static const char *chomp(char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		s[n - 1] = '\0';
	return s;
}

static const char * const vm_events[4] = {
	"htlb_prezero_zeroed", "htlb_prezero_hit", "htlb_prezero_miss",
	"htlb_prezero_steal",
};

static void read_events(long long *v)
{
	int i;

	for (i = 0; i < 4; i++)
		v[i] = vmstat_read(vm_events[i]);
}

/* Discovery, saving and restoring */

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int cmp_size(const void *a, const void *b)
{
	const struct hsize *x = a, *y = b;

	return x->kb < y->kb ? -1 : x->kb > y->kb;
}

static void discover(void)
{
	bool has_mem[MAX_NODES] = { false }, mem_known;
	char path[PATH_LEN + 64], buf[PATH_LEN];
	struct dirent *de;
	unsigned long kb;
	DIR *dir;
	int i, nid;

	dir = opendir(HP_SYSFS);
	while (dir && (de = readdir(dir)) && nr_sizes < MAX_SIZES) {
		if (sscanf(de->d_name, "hugepages-%lukB", &kb) != 1)
			continue;
		sizes[nr_sizes].kb = kb;
		sizes[nr_sizes].bytes = kb << 10;
		snprintf(sizes[nr_sizes].dir, PATH_LEN, HP_SYSFS "/hugepages-%lukB", kb);
		nr_sizes++;
	}
	if (dir)
		closedir(dir);
	qsort(sizes, nr_sizes, sizeof(sizes[0]), cmp_size);
	for (i = 0; i < nr_sizes; i++) {
		if (sizes[i].bytes == SZ_2M)
			hs2m = &sizes[i];
		if (sizes[i].bytes == SZ_1G)
			hs1g = &sizes[i];
	}

	mem_known = read_path(NODE_SYSFS "/has_memory", buf, sizeof(buf)) > 0;
	if (mem_known)
		parse_node_list(buf, has_mem, MAX_NODES);
	dir = opendir(NODE_SYSFS);
	while (dir && (de = readdir(dir)) && nr_nodes < MAX_NODES) {
		if (sscanf(de->d_name, "node%d", &nid) != 1 || nid < 0 ||
		    nid >= MAX_NODES)
			continue;
		snprintf(path, sizeof(path), NODE_SYSFS "/%s/hugepages", de->d_name);
		if (!access(path, F_OK))
			node_id[nr_nodes++] = nid;
	}
	if (dir)
		closedir(dir);
	qsort(node_id, nr_nodes, sizeof(node_id[0]), cmp_int);
	for (i = 0; i < nr_nodes; i++) {
		node_mem[i] = !mem_known || has_mem[node_id[i]];
		nr_mem_nodes += node_mem[i];
	}
}

static void save_state(void)
{
	char buf[VAL_LEN];
	struct hsize *h;
	int i, n;

	if (read_path(WORKERS_PATH, orig_workers, VAL_LEN) <= 0)
		orig_workers[0] = '\0';
	for (i = 0; i < nr_sizes; i++) {
		h = &sizes[i];
		if (hs_read(h, -1, "zeroed_reserve", h->orig_reserve,
			    VAL_LEN) <= 0 ||
		    hs_read_ul(h, -1, "nr_hugepages", &h->orig_nr))
			ksft_exit_fail_msg("cannot read %s\n", h->dir);
		for (n = 0; n < nr_nodes; n++) {
			if (hs_read_ul(h, n, "nr_hugepages", &h->orig_node_nr[n]))
				ksft_exit_fail_msg("cannot read node%d %lu kB files\n",
						   node_id[n], h->kb);
		}
		/* demote only to 2 MiB pages, whose pool this test owns */
		h->demote = h == hs1g &&
			    hs_read(h, -1, "demote_size", buf, sizeof(buf)) > 0 &&
			    !strcmp(buf, "2048kB\n");
		h->saved = true;
	}
}

static void restore_pool(struct hsize *h)
{
	unsigned long cur;
	int pass, n;

	/* shrink first, then grow, so that each node gets its pages back */
	for (pass = 0; pass < 2; pass++) {
		for (n = 0; n < nr_nodes; n++) {
			if (hs_read_ul(h, n, "nr_hugepages", &cur))
				continue;
			if ((!pass && cur > h->orig_node_nr[n]) ||
			    (pass && cur < h->orig_node_nr[n]))
				hs_write_ul(h, n, "nr_hugepages", h->orig_node_nr[n]);
		}
	}
	if (!hs_read_ul(h, -1, "nr_hugepages", &cur) && cur != h->orig_nr)
		hs_write_ul(h, -1, "nr_hugepages", h->orig_nr);
	if (hs_read_ul(h, -1, "nr_hugepages", &cur) || cur != h->orig_nr)
		ksft_print_msg("WARNING: could not restore %lu kB nr_hugepages to %lu (now %lu)\n",
			       h->kb, h->orig_nr, cur);
}

/* Stop the workers and the chaos thread; @join: wait for the thread too */
static void stop_all(bool join)
{
	int i;

	if (sh)
		WRITE_ONCE(sh->stop, 1);
	if (join && chaos_running && !pthread_equal(pthread_self(), chaos_tid)) {
		pthread_join(chaos_tid, NULL);
		chaos_running = false;
	}
	for (i = 0; i < opt_nproc; i++) {
		if (workers[i] <= 0)
			continue;
		kill(workers[i], SIGKILL);
		waitpid(workers[i], NULL, 0);
		workers[i] = 0;
	}
}

static void restore_state(bool from_signal)
{
	static int restoring;
	char buf[VAL_LEN];
	struct hsize *h;
	int i;

	if (getpid() != parent_pid || READ_ONCE(restoring))
		return;
	WRITE_ONCE(restoring, 1);
	stop_all(!from_signal);
	/* smaller sizes first: a demoted 1 GiB page may then come back */
	for (i = 0; i < nr_sizes; i++)
		if (sizes[i].pool_changed)
			restore_pool(&sizes[i]);
	if (orig_workers[0] && write_path(WORKERS_PATH, orig_workers))
		ksft_print_msg("WARNING: hugetlb_prezero_workers not restored to %s\n",
			       chomp(orig_workers));
	for (i = 0; i < nr_sizes; i++) {
		h = &sizes[i];
		if (!h->saved)
			continue;
		hs_write(h, -1, "zeroed_reserve", h->orig_reserve);
		if (hs_read(h, -1, "zeroed_reserve", buf, sizeof(buf)) <= 0 ||
		    strcmp(buf, h->orig_reserve))
			ksft_print_msg("WARNING: %lu kB zeroed_reserve not restored to %s\n",
				       h->kb, chomp(h->orig_reserve));
	}
}

static void restore_at_exit(void)
{
	restore_state(false);
}

static void on_signal(int sig)
{
	/* a second signal: restore what can be restored and give up */
	if (READ_ONCE(got_signal)) {
		restore_state(true);
		_exit(KSFT_FAIL);
	}
	WRITE_ONCE(got_signal, sig);
	if (sh)
		WRITE_ONCE(sh->stop, 1);
}

static void on_sigbus(int sig)
{
	(void)sig;
	if (READ_ONCE(bus_armed)) {
		WRITE_ONCE(bus_armed, 0);
		siglongjmp(bus_jmp, 1);
	}
	/* not expected here: die of it on return */
	signal(SIGBUS, SIG_DFL);
}

/* The SIGBUS handler must see the flag exactly where the code sets it */
static void bus_arm(int on)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	WRITE_ONCE(bus_armed, on);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* Page contents */

static uint64_t pattern(unsigned int id, unsigned long iter, unsigned long pg)
{
	return PAT_MAGIC << 56 | (uint64_t)(id & 0xff) << 48 |
	       (uint64_t)(iter & 0xffffffff) << 16 | (pg & 0xffff);
}

/* Say whose pattern @v is, if it is one */
static void describe(uint64_t v)
{
	unsigned int id = (v >> 48) & 0xff;
	char who[48];

	if (v >> 56 != PAT_MAGIC)
		return;
	if (id == ID_CHAOS)
		snprintf(who, sizeof(who), "the chaos thread");
	else if (id == ID_FINAL)
		snprintf(who, sizeof(who), "the final check");
	else if (id & ID_COW)
		snprintf(who, sizeof(who), "the COW child of worker %u", id & ~ID_COW);
	else
		snprintf(who, sizeof(who), "worker %u", id);
	ksft_print_msg("  %#018llx is the pattern of %s, iteration %llu, page %llu\n",
		       (unsigned long long)v, who,
		       (unsigned long long)(v >> 16) & 0xffffffff,
		       (unsigned long long)v & 0xffff);
}

static bool may_report(struct ctx *c)
{
	return c->st->reports++ < MAX_REPORTS;
}

/* Word-wise scan of every 64-byte line */
static bool page_is_zero(const char *p, size_t len)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t i, n = len / sizeof(*w);

	for (i = 0; i < n; i += 8)
		if (w[i] | w[i + 1] | w[i + 2] | w[i + 3] |
		    w[i + 4] | w[i + 5] | w[i + 6] | w[i + 7])
			return false;
	return true;
}

static void report_leak(struct ctx *c, const char *what, const char *p,
			unsigned long pg)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t i, j, n = c->hsize / sizeof(*w), lines = 0;
	size_t first = 0, last = 0;
	uint64_t any, v = 0;

	c->st->leaks++;
	if (!may_report(c))
		return;
	for (i = 0; i < n; i += 8) {
		for (any = 0, j = 0; j < 8; j++)
			any |= w[i + j];
		if (!any)
			continue;
		if (!lines++) {
			for (j = 0; !w[i + j]; j++)
				;
			first = i + j;
			v = w[first];
		}
		last = i;
	}
	ksft_print_msg("LEAK: %s, %s: new %lu kB page %lu at %p is not zero\n",
		       c->name, what, c->hsize >> 10, pg, p);
	ksft_print_msg("  %zu of %zu lines dirty, first word %#018llx at %#zx, last line %#zx\n",
		       lines, n / 8, (unsigned long long)v, first * 8, last * 8);
	describe(v);
}

static void fill(char *p, size_t len, uint64_t v)
{
	uint64_t *w = (uint64_t *)p;
	size_t i;

	for (i = 0; i < len / sizeof(*w); i++)
		w[i] = v;
}

static bool check_pattern(struct ctx *c, const char *what, const char *p,
			  size_t len, uint64_t v)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t i, n = len / sizeof(*w);

	for (i = 0; i < n && w[i] == v; i++)
		;
	if (i == n)
		return true;
	c->st->corrupt++;
	if (may_report(c)) {
		ksft_print_msg("CORRUPT: %s, %s: %p + %#zx: %#018llx, expected %#018llx\n",
			       c->name, what, p, i * 8,
			       (unsigned long long)w[i], (unsigned long long)v);
		describe(w[i]);
	}
	return false;
}

/* Count a failed system call: no memory is normal, the rest is not */
static void sys_err(struct ctx *c, const char *what)
{
	int err = errno;

	if (err == ENOMEM || err == ENOSPC || err == EAGAIN) {
		c->st->nomem++;
		return;
	}
	c->st->errors++;
	if (may_report(c))
		ksft_print_msg("%s: %s: %s\n", c->name, what, strerror(err));
}

/*
 * Fault in page @pg of the mapping at @base (a read or a write fault), check
 * that all of it is zero and fill it with its pattern.  False if the fault
 * got SIGBUS: no huge page was available.
 */
static bool new_page(struct ctx *c, char *base, unsigned long pg,
		     const char *what)
{
	char *p = base + pg * c->hsize;
	bool write = rnd_below(c, 2), zero;

	if (sigsetjmp(bus_jmp, 1)) {
		c->st->sigbus++;
		return false;
	}
	bus_arm(1);
	if (write)
		WRITE_ONCE(p[c->hsize - 1], 0);
	else
		(void)READ_ONCE(*p);
	zero = page_is_zero(p, c->hsize);
	bus_arm(0);
	c->st->checked++;
	if (!zero)
		report_leak(c, what, p, pg);
	fill(p, c->hsize, pattern(c->id, c->iter, pg));
	return true;
}

/* Pages @from..@from+@n-1; returns how many were done before a SIGBUS */
static unsigned long new_pages(struct ctx *c, char *base, unsigned long from,
			       unsigned long n, const char *what)
{
	unsigned long i;

	for (i = from; i < from + n; i++)
		if (!new_page(c, base, i, what))
			break;
	return i - from;
}

static char *map_anon(struct ctx *c, unsigned long k)
{
	return mmap(NULL, k * c->hsize, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		    c->hshift << MAP_HUGE_SHIFT, -1, 0);
}

/*
 * A MAP_SHARED mapping of a new hugetlb memfd of @len bytes, its fd in *@fd,
 * allocated in full by fallocate() first if @alloc; NULL if a step failed
 * (the error counted, the memfd closed).
 */
static char *map_memfd(struct ctx *c, size_t len, bool alloc, int *fd)
{
	char *p;

	*fd = memfd_create("hugetlb_prezero_stress", MFD_CLOEXEC |
			   MFD_HUGETLB | c->hshift << MFD_HUGE_SHIFT);
	if (*fd < 0) {
		sys_err(c, "memfd_create(MFD_HUGETLB)");
		return NULL;
	}
	if (ftruncate(*fd, len)) {
		sys_err(c, "ftruncate");
		goto out;
	}
	if (alloc && fallocate(*fd, 0, 0, len)) {
		sys_err(c, "fallocate");
		goto out;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p != MAP_FAILED)
		return p;
	sys_err(c, "mmap(memfd)");
out:
	close(*fd);
	return NULL;
}

/* Worker modes, each on @k huge pages */

static void mode_anon(struct ctx *c, unsigned long k)
{
	char *p = map_anon(c, k);

	if (p == MAP_FAILED) {
		sys_err(c, "mmap(MAP_HUGETLB)");
		return;
	}
	new_pages(c, p, 0, k, mode_name[M_ANON]);
	munmap(p, k * c->hsize);
}

static void mode_memfd(struct ctx *c, unsigned long k)
{
	size_t len = k * c->hsize;
	unsigned long n, i;
	char *p, *q;
	int fd;

	p = map_memfd(c, len, false, &fd);
	if (!p)
		return;
	n = new_pages(c, p, 0, k, mode_name[M_MEMFD]);
	/* a second mapping of the file sees what the first one wrote */
	q = mmap(NULL, n * c->hsize, PROT_READ, MAP_SHARED, fd, 0);
	if (n && q != MAP_FAILED) {
		for (i = 0; i < n; i++)
			check_pattern(c, "memfd second mapping", q + i * c->hsize,
				      c->hsize, pattern(c->id, c->iter, i));
		munmap(q, n * c->hsize);
	}
	munmap(p, len);
	if (rnd_below(c, 2) && ftruncate(fd, 0))
		sys_err(c, "ftruncate(0)");
	close(fd);
}

static void mode_punch(struct ctx *c, unsigned long k)
{
	unsigned long i, j, iter = c->iter;
	size_t hs = c->hsize, len = k * hs;
	char *p;
	int fd;

	p = map_memfd(c, len, true, &fd);
	if (!p)
		return;
	/* pages allocated by fallocate, never written: zero too */
	if (new_pages(c, p, 0, k, "fallocate") < k)
		goto unmap;
	j = rnd_below(c, k);
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, j * hs, hs)) {
		sys_err(c, "fallocate(PUNCH_HOLE)");
		goto unmap;
	}
	c->iter++;
	/* refill the hole by fallocate or by a fault */
	if (rnd_below(c, 2) && fallocate(fd, 0, j * hs, hs))
		sys_err(c, "fallocate of the hole");
	new_pages(c, p, j, 1, mode_name[M_PUNCH]);
	for (i = 0; i < k; i++)
		if (i != j)
			check_pattern(c, "next to a punched hole", p + i * hs,
				      hs, pattern(c->id, iter, i));
unmap:
	munmap(p, len);
	close(fd);
}

static void mode_shm(struct ctx *c, unsigned long k)
{
	size_t len = k * c->hsize;
	int id;
	char *p;

	id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600 | SHM_HUGETLB |
		    c->hshift << SHM_HUGE_SHIFT);
	if (id < 0) {
		if (errno == ENOMEM) {
			c->st->nomem++;
			return;
		}
		ksft_print_msg("%s: shmget(SHM_HUGETLB): %s: SysV shm mode off\n",
			       c->name, strerror(errno));
		c->st->shm_off = 1;
		return;
	}
	p = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL);
	if (p == (void *)-1) {
		sys_err(c, "shmat");
		return;
	}
	new_pages(c, p, 0, k, mode_name[M_SHM]);
	shmdt(p);
}

/* Write the first half of each page (a COW fault), check the copied half */
static __noreturn void cow_child(struct ctx *c, char *p, unsigned long n)
{
	size_t hs = c->hsize, half = hs / 2;
	struct pstats st = { 0 };
	struct ctx cc = *c;
	unsigned long i;

	cc.st = &st;
	cc.id |= ID_COW;
	snprintf(cc.name, sizeof(cc.name), "worker %u COW child", c->id);
	for (i = 0; i < n; i++) {
		if (sigsetjmp(bus_jmp, 1))
			_exit(CHILD_SIGBUS);
		bus_arm(1);
		fill(p + i * hs, half, pattern(cc.id, cc.iter, i));
		bus_arm(0);
		if (!check_pattern(&cc, "copied half", p + i * hs + half,
				   hs - half, pattern(c->id, c->iter, i)))
			_exit(CHILD_CORRUPT);
	}
	_exit(0);
}

static void mode_cow(struct ctx *c, unsigned long k)
{
	size_t len = k * c->hsize;
	unsigned long n, i;
	int status;
	pid_t pid;
	char *p;

	p = map_anon(c, k);
	if (p == MAP_FAILED) {
		sys_err(c, "mmap(MAP_HUGETLB)");
		return;
	}
	n = new_pages(c, p, 0, k, mode_name[M_COW]);
	if (!n)
		goto out;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		sys_err(c, "fork");
		goto out;
	}
	if (!pid)
		cow_child(c, p, n);
	if (waitpid(pid, &status, 0) != pid) {
		sys_err(c, "waitpid");
		goto out;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_SIGBUS) {
		c->st->sigbus++;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_CORRUPT) {
		c->st->corrupt++;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		c->st->errors++;
		ksft_print_msg("%s: COW child ended with status %#x\n", c->name,
			       status);
	}
	/* the parent's copy is untouched by the child's writes */
	for (i = 0; i < n; i++)
		check_pattern(c, "COW parent copy", p + i * c->hsize, c->hsize,
			      pattern(c->id, c->iter, i));
out:
	munmap(p, len);
}

static void mode_dontneed(struct ctx *c, unsigned long k)
{
	size_t len = k * c->hsize;
	char *p = map_anon(c, k);

	if (p == MAP_FAILED) {
		sys_err(c, "mmap(MAP_HUGETLB)");
		return;
	}
	new_pages(c, p, 0, k, mode_name[M_DONTNEED]);
	if (madvise(p, len, MADV_DONTNEED)) {
		sys_err(c, "madvise(MADV_DONTNEED)");
	} else {
		c->iter++;
		new_pages(c, p, 0, k, "refault after MADV_DONTNEED");
	}
	munmap(p, len);
}

/* Fault the first half, move the mapping, fault the second half there */
static void mode_mremap(struct ctx *c, unsigned long k)
{
	size_t hs = c->hsize, len = k * hs;
	unsigned long first = (k + 1) / 2, n, i;
	char *p, *r, *d, *q;

	p = map_anon(c, k);
	if (p == MAP_FAILED) {
		sys_err(c, "mmap(MAP_HUGETLB)");
		return;
	}
	n = new_pages(c, p, 0, first, mode_name[M_MREMAP]);
	r = mmap(NULL, len + hs, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED) {
		sys_err(c, "mmap(PROT_NONE)");
		munmap(p, len);
		return;
	}
	/* keep a huge page aligned range of @len for the destination */
	d = (char *)(((uintptr_t)r + hs - 1) & ~(uintptr_t)(hs - 1));
	if (d > r)
		munmap(r, d - r);
	munmap(d + len, r + hs - d);
	q = mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, d);
	if (q == MAP_FAILED) {
		sys_err(c, "mremap");
		munmap(d, len);
		munmap(p, len);
		return;
	}
	for (i = 0; i < n; i++)
		check_pattern(c, "after mremap", q + i * hs, hs,
			      pattern(c->id, c->iter, i));
	if (n == first)
		new_pages(c, q, first, k - first, "after mremap");
	munmap(q, len);
}

static void (* const mode_fn[NR_MODES])(struct ctx *c, unsigned long k) = {
	[M_ANON] = mode_anon,
	[M_MEMFD] = mode_memfd,
	[M_PUNCH] = mode_punch,
	[M_SHM] = mode_shm,
	[M_COW] = mode_cow,
	[M_DONTNEED] = mode_dontneed,
	[M_MREMAP] = mode_mremap,
};

static __noreturn void worker_main(int id)
{
	unsigned long kmax = opt_size == SZ_2M ? KMAX_SMALL : 1;
	struct pstats *st = &sh->w[id];
	unsigned long fails;
	char name[32];
	struct ctx c;
	int m;

	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	snprintf(name, sizeof(name), "worker %d", id);
	ctx_init(&c, id, opt_size, st, name);
	while (!READ_ONCE(sh->stop) && now() < deadline) {
		do {
			m = rnd_below(&c, NR_MODES);
		} while (m == M_SHM && st->shm_off);
		st->mode[m]++;
		fails = st->nomem + st->sigbus;
		mode_fn[m](&c, 1 + rnd_below(&c, kmax));
		c.iter++;
		st->iters++;
		/* back off without pages; pause now and then to let zeroing run */
		if (st->nomem + st->sigbus != fails || !rnd_below(&c, 4))
			usleep(1000 + rnd_below(&c, 20000));
	}
	_exit(0);
}

/* The chaos thread */

static int rnd_mem_node(struct ctx *c, int not)
{
	int n, i = rnd_below(c, nr_nodes);

	for (n = 0; n < nr_nodes; n++, i = (i + 1) % nr_nodes)
		if (node_mem[i] && i != not)
			return i;
	return -1;
}

/* Resize the 2 MiB pool, globally or on one node, within [lo, hi] */
static bool chaos_pool(struct ctx *c, int node)
{
	unsigned long t = pool_lo + rnd_below(c, pool_hi - pool_lo + 1), g, n;

	if (node < 0)
		return !hs_write_ul(hs2m, -1, "nr_hugepages", t);
	if (hs_read_ul(hs2m, -1, "nr_hugepages", &g) ||
	    hs_read_ul(hs2m, node, "nr_hugepages", &n))
		return false;
	/* the other nodes' pages */
	g = g > n ? g - n : 0;
	return !hs_write_ul(hs2m, node, "nr_hugepages", t > g ? t - g : 0);
}

/*
 * vm.hugetlb_prezero_workers: 1, 2 or one per CPU, so that helpers start
 * and stop
 */
static bool chaos_workers(struct ctx *c)
{
	char val[VAL_LEN];
	long n[] = { 1, 2, sysconf(_SC_NPROCESSORS_CONF) };

	snprintf(val, sizeof(val), "%ld", n[rnd_below(c, 3)]);
	return !write_path(WORKERS_PATH, val);
}

/*
 * zeroed_fill of a random size: a target 1-8 pages above the zeroed count
 * just read (of every node), zeroed in this thread's context, racing the
 * workers; EAGAIN (too few dirty pages) is a success.
 */
static bool chaos_fill(struct ctx *c)
{
	struct hsize *h = &sizes[rnd_below(c, nr_sizes)];
	unsigned long zeroed;
	int ret;

	if (hs_read_ul(h, -1, "zeroed_hugepages", &zeroed))
		return false;
	ret = hs_write_ul(h, -1, "zeroed_fill", zeroed + 1 + rnd_below(c, 8));
	return !ret || ret == -EAGAIN;
}

/*
 * zeroed_reserve of a random size: 0, a count up to the pool's size (each
 * node keeps that many of its pages zeroed), a count too large to keep
 * (read back as max), or max
 */
static bool chaos_reserve(struct ctx *c)
{
	struct hsize *h = &sizes[rnd_below(c, nr_sizes)];
	unsigned long r = rnd_below(c, 100), nr = 0;
	char val[VAL_LEN] = "max";

	if (r < 25) {
		snprintf(val, sizeof(val), "0");
	} else if (r < 60) {
		hs_read_ul(h, -1, "nr_hugepages", &nr);
		snprintf(val, sizeof(val), "%lu", rnd_below(c, nr + 2));
	} else if (r < 65) {
		snprintf(val, sizeof(val), "%lu", 4294967295UL + rnd_below(c, 2));
	}
	return !hs_write(h, -1, "zeroed_reserve", val);
}

static unsigned long pfn_of(int fd, const char *p)
{
	uint64_t e;

	if (fd < 0 || pread(fd, &e, sizeof(e),
			    (uintptr_t)p / psize() * sizeof(e)) != sizeof(e))
		return 0;
	return e & PM_PRESENT ? e & 0x7fffffffffffffULL : 0;
}

/*
 * Operations on a huge page of the chaos thread's own: move it to another
 * node, soft offline it in use or after freeing it, or poison it.
 */
static bool chaos_page_op(struct ctx *c, enum cop op, int pagemap)
{
	int nodes[1], status[1] = { -1 }, node;
	unsigned long pfn = 0;
	char *p, buf[VAL_LEN];
	void *pages[1];
	bool ok = false;

	p = map_anon(c, 1);
	if (p == MAP_FAILED) {
		sys_err(c, "mmap(MAP_HUGETLB)");
		return false;
	}
	if (!new_page(c, p, 0, cop_name[op]))
		goto out;
	pages[0] = p;
	switch (op) {
	case C_MIGRATE:
		if (syscall(__NR_move_pages, 0, 1UL, pages, NULL, status, 0) ||
		    status[0] < 0)
			break;
		for (node = 0; node < nr_nodes && node_id[node] != status[0]; node++)
			;
		node = rnd_mem_node(c, node);
		if (node < 0)
			break;
		nodes[0] = node_id[node];
		ok = !syscall(__NR_move_pages, 0, 1UL, pages, nodes, status,
			      MPOL_MF_MOVE) && status[0] == nodes[0];
		break;
	case C_OFFLINE:
		ok = !madvise(p, c->hsize, MADV_SOFT_OFFLINE);
		break;
	case C_OFFLINE_FREE:
		/* free the page, then offline it while it is being zeroed */
		pfn = pfn_of(pagemap, p);
		munmap(p, c->hsize);
		if (!pfn)
			return false;
		usleep(rnd_below(c, 2000));
		snprintf(buf, sizeof(buf), "%#llx",
			 (unsigned long long)pfn << pshift());
		return !write_path(SOFT_OFFLINE_PATH, buf);
	case C_HWPOISON:
		/* MADV_HWPOISON sends this thread SIGBUS (action required) */
		if (sigsetjmp(bus_jmp, 1))
			goto out_poisoned;
		bus_arm(1);
		ok = !madvise(p, c->hsize, MADV_HWPOISON);
		bus_arm(0);
		goto out;
	default:
		break;
	}
	/* migration and soft offline keep the contents */
	check_pattern(c, cop_name[op], p, c->hsize, pattern(c->id, c->iter, 0));
out:
	munmap(p, c->hsize);
	return ok;
out_poisoned:
	munmap(p, c->hsize);
	return true;
}

static bool cop_possible(enum cop op)
{
	unsigned long free;

	switch (op) {
	case C_POOL_NODE:
		return nr_mem_nodes > 0;
	case C_MIGRATE:
		return nr_mem_nodes > 1;
	case C_OFFLINE:
		return offline_done < MAX_OFFLINE;
	case C_OFFLINE_FREE:
		return soft_offline_free_ok && offline_done < MAX_OFFLINE;
	case C_DEMOTE:
		/* keep a free 1 GiB page */
		return hs1g && hs1g->demote && cop_done[op] < MAX_DEMOTE &&
		       !hs_read_ul(hs1g, -1, "free_hugepages", &free) &&
		       free >= 2;
	case C_HWPOISON:
		return opt_hwpoison && cop_done[op] < MAX_HWPOISON;
	case C_WORKERS:
	case C_FILL:
		return orig_workers[0];
	default:
		return true;
	}
}

static void *chaos(void *arg)
{
	unsigned int total = 0, w;
	int pagemap, op, node;
	struct ctx c;
	sigset_t set;
	bool ok;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	ctx_init(&c, ID_CHAOS, SZ_2M, &chaos_st, "chaos");
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	for (op = 0; op < NR_COPS; op++)
		total += cop_weight[op];

	while (!READ_ONCE(sh->stop) && now() < deadline) {
		w = rnd_below(&c, total);
		for (op = 0; w >= cop_weight[op]; op++)
			w -= cop_weight[op];
		if (!cop_possible(op))
			continue;
		cop_tried[op]++;
		/* C_POOL_NODE acts on a random node with memory */
		node = op == C_POOL_NODE ? rnd_mem_node(&c, -1) : -1;
		switch (op) {
		case C_POOL:
		case C_POOL_NODE:
			ok = chaos_pool(&c, node);
			break;
		case C_RESERVE:
			ok = chaos_reserve(&c);
			break;
		case C_WORKERS:
			ok = chaos_workers(&c);
			break;
		case C_FILL:
			ok = chaos_fill(&c);
			break;
		case C_DEMOTE:
			hs1g->pool_changed = true;
			ok = !hs_write(hs1g, -1, "demote", "1");
			break;
		default:
			ok = chaos_page_op(&c, op, pagemap);
			break;
		}
		if (ok)
			cop_done[op]++;
		if (ok && (op == C_OFFLINE || op == C_OFFLINE_FREE))
			offline_done++;
		c.iter++;
		usleep(10000 + rnd_below(&c, 40000));
	}
	if (pagemap >= 0)
		close(pagemap);
	return arg;
}

/* The end of the run */

/* Reap the workers that ended; returns how many still run */
static int reap(bool *ok)
{
	int i, status, alive = 0;

	for (i = 0; i < opt_nproc; i++) {
		if (workers[i] <= 0)
			continue;
		if (waitpid(workers[i], &status, WNOHANG) != workers[i]) {
			alive++;
			continue;
		}
		workers[i] = 0;
		if (WIFEXITED(status) && !WEXITSTATUS(status))
			continue;
		*ok = false;
		if (WIFSIGNALED(status))
			ksft_print_msg("worker %d killed by signal %d\n", i,
				       WTERMSIG(status));
		else
			ksft_print_msg("worker %d exited with %d\n", i,
				       WEXITSTATUS(status));
	}
	return alive;
}

static void sum_stats(struct pstats *t)
{
	struct pstats *s;
	int i, m;

	memset(t, 0, sizeof(*t));
	for (i = 0; i <= opt_nproc; i++) {
		s = i < opt_nproc ? &sh->w[i] : &chaos_st;
		t->iters += s->iters;
		t->checked += s->checked;
		t->leaks += s->leaks;
		t->corrupt += s->corrupt;
		t->sigbus += s->sigbus;
		t->nomem += s->nomem;
		t->errors += s->errors;
		t->shm_off += s->shm_off;
		for (m = 0; m < NR_MODES; m++)
			t->mode[m] += s->mode[m];
	}
}

/* free_hugepages is read before zeroed_hugepages */
static int take_snap(const struct hsize *h, struct snap *s)
{
	int n;

	memset(s, 0, sizeof(*s));
	if (hs_read_ul(h, -1, "free_hugepages", &s->free) ||
	    hs_read_ul(h, -1, "nr_hugepages", &s->nr) ||
	    hs_read_ul(h, -1, "resv_hugepages", &s->resv) ||
	    hs_read_ul(h, -1, "surplus_hugepages", &s->surp))
		return -1;
	for (n = 0; n < nr_nodes; n++)
		if (hs_read_ul(h, n, "free_hugepages", &s->nfree[n]) ||
		    hs_read_ul(h, n, "nr_hugepages", &s->nnr[n]) ||
		    hs_read_ul(h, n, "surplus_hugepages", &s->nsurp[n]))
			return -1;
	return hs_read_ul(h, -1, "zeroed_hugepages", &s->zeroed);
}

/* Two equal snapshots in a row */
static int stable_snap(const struct hsize *h, struct snap *s)
{
	struct snap t;
	int i;

	for (i = 0; i < 20; i++) {
		if (take_snap(h, s))
			return -1;
		usleep(50000);
		if (take_snap(h, &t))
			return -1;
		if (!memcmp(s, &t, sizeof(t)))
			return 0;
	}
	ksft_print_msg("%lu kB counters did not settle, checking the last values\n",
		       h->kb);
	return 0;
}

/* Is every free page of every size zeroed, on all nodes? */
static bool all_zeroed(bool log)
{
	unsigned long slack;
	bool ok, done = true;
	struct snap s;
	int i;

	for (i = 0; i < nr_sizes; i++) {
		if (take_snap(&sizes[i], &s))
			return false;
		/* a poisoned free page may never be zeroed */
		slack = &sizes[i] == hs2m ? cop_done[C_HWPOISON] : 0;
		ok = s.zeroed + slack >= s.free;
		if (!ok && log)
			ksft_print_msg("%lu kB: %lu of %lu free pages zeroed\n",
				       sizes[i].kb, s.zeroed, s.free);
		done &= ok;
	}
	return done;
}

/* zeroed_reserve is max everywhere: wait until every free page is zeroed */
static bool wait_zeroed(void)
{
	unsigned long todo = 0, limit;
	double t0 = now();
	struct snap s;
	int i;

	for (i = 0; i < nr_sizes; i++)
		if (!take_snap(&sizes[i], &s) && s.free > s.zeroed)
			todo += (s.free - s.zeroed) * sizes[i].bytes;
	limit = todo / MIN_ZERO_RATE + SLACK_S;
	while (!all_zeroed(false)) {
		if (now() - t0 > limit) {
			ksft_print_msg("zeroing not done after %.0f s (limit %lu s)\n",
				       now() - t0, limit);
			all_zeroed(true);
			return false;
		}
		usleep(100000);
	}
	ksft_print_msg("every free page zeroed %.1f s after the run\n",
		       now() - t0);
	return true;
}

static bool check_counters(const struct hsize *h)
{
	unsigned long nr = 0, free = 0, surp = 0;
	bool ok = true;
	struct snap s;
	int n;

	if (stable_snap(h, &s))
		return false;
	ksft_print_msg("%lu kB: nr %lu free %lu resv %lu surplus %lu zeroed %lu\n",
		       h->kb, s.nr, s.free, s.resv, s.surp, s.zeroed);
	if (s.resv || s.surp || s.zeroed > s.free) {
		ksft_print_msg("%lu kB: expected resv 0, surplus 0, zeroed <= free\n",
			       h->kb);
		ok = false;
	}
	for (n = 0; n < nr_nodes; n++) {
		if (s.nfree[n] > s.nnr[n] || s.nsurp[n]) {
			ksft_print_msg("%lu kB node%d: nr %lu free %lu surplus %lu\n",
				       h->kb, node_id[n], s.nnr[n], s.nfree[n],
				       s.nsurp[n]);
			ok = false;
		}
		nr += s.nnr[n];
		free += s.nfree[n];
		surp += s.nsurp[n];
	}
	if (nr_nodes && (nr != s.nr || free != s.free || surp != s.surp)) {
		ksft_print_msg("%lu kB node sums differ: nr %lu free %lu surplus %lu\n",
			       h->kb, nr, free, surp);
		ok = false;
	}
	return ok;
}

/* Every page is free again; /proc/meminfo agrees for the default size */
static bool check_in_use(void)
{
	unsigned long def = default_huge_page_size(), slack;
	bool ok = true;
	struct snap s;
	int i;

	for (i = 0; i < nr_sizes; i++) {
		const struct hsize *h = &sizes[i];

		if (stable_snap(h, &s))
			return false;
		slack = h == hs2m ? cop_done[C_HWPOISON] : 0;
		if (s.nr - s.free < h->in_use0 ||
		    s.nr - s.free > h->in_use0 + slack) {
			ksft_print_msg("%lu kB: %lu pages in use after the run, %lu before\n",
				       h->kb, s.nr - s.free, h->in_use0);
			ok = false;
		}
		if (h->bytes != def)
			continue;
		if (meminfo_read("HugePages_Total") != (long)s.nr ||
		    meminfo_read("HugePages_Free") != (long)s.free ||
		    meminfo_read("HugePages_Rsvd") != (long)s.resv ||
		    meminfo_read("HugePages_Surp") != (long)s.surp) {
			ksft_print_msg("meminfo: HugePages_Total %ld Free %ld Rsvd %ld Surp %ld\n",
				       meminfo_read("HugePages_Total"),
				       meminfo_read("HugePages_Free"),
				       meminfo_read("HugePages_Rsvd"),
				       meminfo_read("HugePages_Surp"));
			ok = false;
		}
	}
	return ok;
}

/* A few new pages of size @h are still zero */
static bool pool_works(struct hsize *h)
{
	unsigned long free, k, n;
	struct ctx c;
	char *p;

	ctx_init(&c, ID_FINAL, h->bytes, &final_st, "final check");
	if (hs_read_ul(h, -1, "free_hugepages", &free))
		return false;
	k = free < (h == hs2m ? 8 : 1) ? free : (h == hs2m ? 8 : 1);
	if (!k) {
		ksft_print_msg("no free %lu kB page left to fault\n", h->kb);
		return false;
	}
	p = map_anon(&c, k);
	if (p == MAP_FAILED) {
		ksft_print_msg("mmap of %lu free %lu kB pages: %s\n", k, h->kb,
			       strerror(errno));
		return false;
	}
	n = new_pages(&c, p, 0, k, "final check");
	munmap(p, k * h->bytes);
	ksft_print_msg("final check: %lu of %lu new %lu kB pages faulted\n", n,
		       k, h->kb);
	return n == k;
}

static void print_summary(void)
{
	char buf[512];
	struct pstats t;
	size_t len;
	int i;

	sum_stats(&t);
	ksft_print_msg("%d workers, %lu iterations: %lu new pages checked, %lu not zero\n",
		       opt_nproc, t.iters, t.checked, t.leaks);
	ksft_print_msg("%lu corrupted, %lu SIGBUS, %lu no memory, %lu errors\n",
		       t.corrupt, t.sigbus, t.nomem, t.errors);
	for (len = 0, i = 0; i < NR_MODES; i++)
		len += snprintf(buf + len, sizeof(buf) - len, " %s %lu",
				mode_name[i], t.mode[i]);
	ksft_print_msg("modes:%s%s\n", buf,
		       t.shm_off ? " (SysV shm off in some workers)" : "");
	for (len = 0, i = 0; i < NR_COPS; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s %s %lu/%lu",
				i ? "," : "", cop_name[i], cop_done[i],
				cop_tried[i]);
	ksft_print_msg("chaos (done/tried):%s; %lu own pages checked\n", buf,
		       chaos_st.checked);
}

static void usage(const char *prog)
{
	printf("Usage: %s [-t seconds] [-p nproc] [-s 2M|1G] [-H] [-h]\n"
	       "  -t N  time budget in seconds (default 60)\n"
	       "  -p N  worker processes (default 4, at most %d)\n"
	       "  -s S  huge page size of the workers: 2M (default) or 1G\n"
	       "  -H    also MADV_HWPOISON a few pages (lost until reboot)\n",
	       prog, MAX_WORKERS);
}

static unsigned long parse_size(const char *s)
{
	unsigned long v;
	char *end;

	v = strtoul(s, &end, 10);
	if (end == s || !*end || end[1])
		return 0;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		return v << 10;
	case 'M':
		return v << 20;
	case 'G':
		return v << 30;
	}
	return 0;
}

static void setup(void)
{
	unsigned long free, nr, resv, surp;
	struct sigaction sa;
	struct hsize *h;
	int i;

	for (i = 0; i < nr_sizes; i++) {
		h = &sizes[i];
		if (hs_read_ul(h, -1, "free_hugepages", &free) ||
		    hs_read_ul(h, -1, "nr_hugepages", &nr) ||
		    hs_read_ul(h, -1, "resv_hugepages", &resv) ||
		    hs_read_ul(h, -1, "surplus_hugepages", &surp))
			ksft_exit_fail_msg("cannot read %s\n", h->dir);
		if (resv || surp)
			ksft_exit_skip("%lu kB pool: %lu reserved, %lu surplus pages in use\n",
				       h->kb, resv, surp);
		h->in_use0 = nr - free;
		if (h == hs_work && !free)
			ksft_exit_skip("no free %lu kB huge pages\n", h->kb);
	}

	parent_pid = getpid();
	save_state();
	atexit(restore_at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigbus;
	sigaction(SIGBUS, &sa, NULL);

	/* at least POOL_MIN free 2 MiB pages */
	hs2m->pool_changed = true;
	hs_read_ul(hs2m, -1, "free_hugepages", &free);
	hs_read_ul(hs2m, -1, "nr_hugepages", &nr);
	if (free < POOL_MIN) {
		nr += POOL_MIN - free;
		hs_write_ul(hs2m, -1, "nr_hugepages", nr);
		if (hs_read_ul(hs2m, -1, "free_hugepages", &free) ||
		    free < POOL_MIN)
			ksft_exit_skip("could not get %lu free 2048 kB pages (have %lu)\n",
				       POOL_MIN, free);
	}
	pool_lo = POOL_MIN;
	pool_hi = nr > POOL_MAX ? nr : POOL_MAX;

	for (i = 0; i < nr_sizes; i++)
		if (hs_write(&sizes[i], -1, "zeroed_reserve", "max"))
			ksft_exit_fail_msg("cannot write %s/zeroed_reserve\n",
					   sizes[i].dir);
	soft_offline_free_ok = !access(SOFT_OFFLINE_PATH, W_OK);
	ksft_print_msg("%d workers on %lu kB pages for %lu s, %d nodes (%d with memory)\n",
		       opt_nproc, opt_size >> 10, opt_secs, nr_nodes,
		       nr_mem_nodes);
	ksft_print_msg("2048 kB pool %lu-%lu pages, 1 GiB demote %s, soft_offline_page %s%s\n",
		       pool_lo, pool_hi, hs1g && hs1g->demote ? "yes" : "no",
		       soft_offline_free_ok ? "yes" : "no",
		       opt_hwpoison ? ", MADV_HWPOISON" : "");
}

int main(int argc, char **argv)
{
	long long ev0[4], ev1[4];
	bool workers_ok = true, ok;
	double t0, next, t;
	char path[PATH_LEN + 32];
	struct pstats tot;
	char *end;
	int opt, i;
	pid_t pid;

	while ((opt = getopt(argc, argv, "t:p:s:Hh")) != -1) {
		switch (opt) {
		case 't':
			opt_secs = strtoul(optarg, &end, 10);
			if (*end || !opt_secs || opt_secs > 86400)
				goto bad;
			break;
		case 'p':
			opt_nproc = strtol(optarg, &end, 10);
			if (*end || opt_nproc < 1 || opt_nproc > MAX_WORKERS)
				goto bad;
			break;
		case 's':
			opt_size = parse_size(optarg);
			if (opt_size != SZ_2M && opt_size != SZ_1G)
				goto bad;
			break;
		case 'H':
			opt_hwpoison = true;
			break;
		case 'h':
			usage(argv[0]);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind < argc)
		goto bad;

	ksft_print_header();
	discover();
	if (!hs2m)
		ksft_exit_skip("no %s/hugepages-2048kB: no 2 MiB hugetlb pages\n",
			       HP_SYSFS);
	snprintf(path, sizeof(path), "%s/zeroed_reserve", hs2m->dir);
	if (access(path, F_OK))
		ksft_exit_skip("%s missing: CONFIG_HUGETLB_PREZERO not available\n",
			       path);
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	hs_work = opt_size == SZ_1G ? hs1g : hs2m;
	if (!hs_work)
		ksft_exit_skip("no 1 GiB huge page size\n");
	setup();

	ksft_set_plan(6 + nr_sizes);
	read_events(ev0);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		sh = NULL;
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	}
	t0 = now();
	deadline = t0 + opt_secs;
	fflush(stdout);
	for (i = 0; i < opt_nproc; i++) {
		pid = fork();
		if (pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (!pid)
			worker_main(i);
		workers[i] = pid;
	}
	if (pthread_create(&chaos_tid, NULL, chaos, NULL))
		ksft_exit_fail_msg("pthread_create failed\n");
	chaos_running = true;

	for (next = t0 + PROGRESS_S; !READ_ONCE(got_signal) && (t = now()) < deadline;) {
		reap(&workers_ok);
		if (t >= next) {
			sum_stats(&tot);
			ksft_print_msg("%3.0f s: %lu pages, %lu not zero, %lu SIGBUS, %lu ENOMEM\n",
				       t - t0, tot.checked, tot.leaks,
				       tot.sigbus, tot.nomem);
			next += PROGRESS_S;
		}
		usleep(100000);
	}
	if (READ_ONCE(got_signal))
		ksft_print_msg("signal %d after %.0f s: stopping\n",
			       READ_ONCE(got_signal), now() - t0);
	WRITE_ONCE(sh->stop, 1);
	pthread_join(chaos_tid, NULL);
	chaos_running = false;
	for (t = now(); reap(&workers_ok); usleep(100000)) {
		if (now() - t > STOP_GRACE_S) {
			ksft_print_msg("workers still running %d s after the end: killed\n",
				       STOP_GRACE_S);
			workers_ok = false;
			stop_all(false);
		}
	}
	ksft_print_msg("run took %.1f s\n", now() - t0);

	print_summary();
	sum_stats(&tot);
	ksft_test_result(!tot.leaks, "no_leak: %lu new pages were zero\n",
			 tot.checked - tot.leaks);
	ksft_test_result(!tot.corrupt, "data_intact\n");
	ksft_test_result(workers_ok && !tot.errors, "workers_ok\n");

	for (i = 0; i < nr_sizes; i++)
		hs_write(&sizes[i], -1, "zeroed_reserve", "max");
	ksft_test_result(wait_zeroed(), "zeroing_completes\n");
	for (i = 0; i < nr_sizes; i++)
		ksft_test_result(check_counters(&sizes[i]), "counters_%lukB\n",
				 sizes[i].kb);
	ksft_test_result(check_in_use(), "pool_free_again\n");
	ok = pool_works(hs2m);
	if (hs_work != hs2m)
		ok &= pool_works(hs_work);
	ksft_test_result(ok && !final_st.leaks && !final_st.corrupt,
			 "pool_works\n");

	read_events(ev1);
	if (ev0[0] < 0 || ev1[0] < 0) {
		ksft_print_msg("no htlb_prezero_* events in /proc/vmstat\n");
	} else {
		ksft_print_msg("vmstat: zeroed +%lld hit +%lld miss +%lld steal +%lld\n",
			       ev1[0] - ev0[0], ev1[1] - ev0[1],
			       ev1[2] - ev0[2], ev1[3] - ev0[3]);
		if (ev1[3] == ev0[3])
			ksft_print_msg("steal +0: the run did not exercise the steal race\n");
	}
	restore_state(false);
	ksft_finished();

bad:
	usage(argv[0]);
	return KSFT_FAIL;
}
