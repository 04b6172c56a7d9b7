/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the pre-zeroing test programs of this directory (the
 * hugetlb_prezero_<area>.c tests, through prezero_fixture.h, and
 * hugetlb_prezero_stress.c): sysfs and procfs file access, the clock, node
 * lists, the limits and timing assumptions the tests make, and the pools
 * and settings a program found, saved at its start and put back at its
 * exit.  Include it after defining _GNU_SOURCE.
 */
#ifndef PREZERO_TEST_UTIL_H
#define PREZERO_TEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
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

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

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

/*
 * The settings a test program found, saved by pz_save_settings() from a
 * constructor and put back at its exit, also at a SIGTERM, SIGINT, SIGHUP
 * or SIGQUIT (exit() runs the atexit() handler): for every huge page size
 * nr_hugepages, of the size and of each node, and zeroed_reserve; and the
 * other files the program names.  Only the process that saved them puts
 * them back, not the test processes the harness forks from it; those get a
 * SIGTERM when their parent dies, so that none goes on once the settings
 * are back.
 */
#define PZ_MAX_SIZES		8
#define PZ_MAX_FILES		8
#define PZ_EXIT_FAIL		1	/* KSFT_FAIL */

struct pz_size_state {
	unsigned long kb;
	unsigned long nr;
	int nr_nodes;
	int nid[MAX_NODES];
	unsigned long node_nr[MAX_NODES];
	char reserve[VAL_LEN];		/* "" if the size has none */
};

struct pz_file_state {
	const char *path;
	char val[VAL_LEN];
};

struct pz_state {
	pid_t owner;			/* 0 until saved */
	int nr_sizes;
	struct pz_size_state sizes[PZ_MAX_SIZES];
	int nr_files;
	struct pz_file_state files[PZ_MAX_FILES];
};

static inline struct pz_state *pz_state(void)
{
	static struct pz_state state;

	return &state;
}

/* Pages of 1 GiB or more: a test frees none that it did not allocate */
static inline bool pz_gigantic(unsigned long kb)
{
	return kb >= 1024UL * 1024;
}

static inline int pz_read_ulong(const char *path, unsigned long *val)
{
	char buf[VAL_LEN], *end;

	if (read_path(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	*val = strtoul(buf, &end, 10);
	return errno || end == buf ? -1 : 0;
}

static inline int pz_write_ulong(const char *path, unsigned long val)
{
	char buf[VAL_LEN];

	snprintf(buf, sizeof(buf), "%lu", val);
	return write_path(path, buf);
}

static inline void pz_hp_path(char *path, size_t len, unsigned long kb,
			      const char *file)
{
	snprintf(path, len, HP_SYSFS "/hugepages-%lukB/%s", kb, file);
}

static inline void pz_node_path(char *path, size_t len, int nid,
				unsigned long kb)
{
	snprintf(path, len, NODE_SYSFS "/node%d/hugepages/hugepages-%lukB/nr_hugepages",
		 nid, kb);
}

/* The saved state of the size of @kb pages, or NULL */
static inline struct pz_size_state *pz_saved_size(unsigned long kb)
{
	struct pz_state *st = pz_state();
	int i;

	for (i = 0; i < st->nr_sizes; i++)
		if (st->sizes[i].kb == kb)
			return &st->sizes[i];
	return NULL;
}

/* Save the pool of @s->kb pages: the size's nr_hugepages and each node's. */
static inline int pz_save_pool(struct pz_size_state *s)
{
	char path[PATH_LEN];
	struct dirent *de;
	DIR *dir;
	int nid;

	pz_hp_path(path, sizeof(path), s->kb, "nr_hugepages");
	if (pz_read_ulong(path, &s->nr))
		return -1;
	pz_hp_path(path, sizeof(path), s->kb, "zeroed_reserve");
	if (read_path(path, s->reserve, sizeof(s->reserve)) <= 0)
		s->reserve[0] = '\0';
	dir = opendir(NODE_SYSFS);
	if (!dir)
		return 0;
	while ((de = readdir(dir)) && s->nr_nodes < MAX_NODES) {
		if (sscanf(de->d_name, "node%d", &nid) != 1)
			continue;
		pz_node_path(path, sizeof(path), nid, s->kb);
		if (pz_read_ulong(path, &s->node_nr[s->nr_nodes]))
			continue;
		s->nid[s->nr_nodes++] = nid;
	}
	closedir(dir);
	return 0;
}

/*
 * Put the pool of @s->kb pages back: each node's first, shrinking before
 * growing so that every node gets its own count back, then the size's.  A
 * gigantic pool only by the size's count: it is never shrunk below what
 * was found, and a node's count would free a page found there.
 */
static inline void pz_restore_pool(const struct pz_size_state *s)
{
	unsigned long cur;
	char path[PATH_LEN];
	int pass, i;

	for (pass = 0; pass < 2 && !pz_gigantic(s->kb); pass++) {
		for (i = 0; i < s->nr_nodes; i++) {
			pz_node_path(path, sizeof(path), s->nid[i], s->kb);
			if (pz_read_ulong(path, &cur))
				continue;
			if ((!pass && cur > s->node_nr[i]) ||
			    (pass && cur < s->node_nr[i]))
				pz_write_ulong(path, s->node_nr[i]);
		}
	}
	pz_hp_path(path, sizeof(path), s->kb, "nr_hugepages");
	if (!pz_read_ulong(path, &cur) && cur != s->nr)
		pz_write_ulong(path, s->nr);
	if (pz_read_ulong(path, &cur) || cur != s->nr)
		fprintf(stderr, "# WARNING: could not restore %lu kB nr_hugepages to %lu\n",
			s->kb, s->nr);
}

/* Write @val to @path unless it reads so already; warn if it does not after. */
static inline void pz_restore_file(const char *path, const char *val)
{
	char buf[VAL_LEN];

	if (read_path(path, buf, sizeof(buf)) > 0 && !strcmp(buf, val))
		return;
	write_path(path, val);
	if (read_path(path, buf, sizeof(buf)) <= 0 || strcmp(buf, val))
		fprintf(stderr, "# WARNING: could not restore %s\n", path);
}

/* The atexit() handler: everything back as it was found. */
static inline void pz_restore_settings(void)
{
	struct pz_state *st = pz_state();
	char path[PATH_LEN];
	int i;

	if (!st->owner || st->owner != getpid())
		return;
	/* the reserves, then the pools, then the other files */
	for (i = 0; i < st->nr_sizes; i++) {
		if (!st->sizes[i].reserve[0])
			continue;
		pz_hp_path(path, sizeof(path), st->sizes[i].kb, "zeroed_reserve");
		pz_restore_file(path, st->sizes[i].reserve);
	}
	for (i = 0; i < st->nr_sizes; i++)
		pz_restore_pool(&st->sizes[i]);
	for (i = 0; i < st->nr_files; i++)
		pz_restore_file(st->files[i].path, st->files[i].val);
}

/*
 * SIGTERM, SIGINT, SIGHUP, SIGQUIT: the process that saved the settings
 * exits, so that its atexit() handler puts them back; a test process the
 * harness forked dies of the signal as it would without this handler.
 */
static inline void pz_on_signal(int sig)
{
	if (getpid() == pz_state()->owner)
		exit(PZ_EXIT_FAIL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* pthread_atfork() child handler: die with the parent */
static inline void pz_on_fork(void)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
}

/*
 * Save every size's pool and zeroed_reserve, and the files of the
 * NULL-terminated list @files (which may be NULL), if run as root; put
 * them back at exit.  Call it from a constructor.
 */
static inline void pz_save_settings(const char * const *files)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };
	struct pz_state *st = pz_state();
	struct pz_size_state *s;
	struct sigaction sa;
	struct dirent *de;
	unsigned long kb;
	unsigned int i;
	DIR *dir;

	if (geteuid() || st->owner)
		return;
	dir = opendir(HP_SYSFS);
	if (dir) {
		while ((de = readdir(dir)) && st->nr_sizes < PZ_MAX_SIZES) {
			if (sscanf(de->d_name, "hugepages-%lukB", &kb) != 1)
				continue;
			s = &st->sizes[st->nr_sizes];
			memset(s, 0, sizeof(*s));
			s->kb = kb;
			if (!pz_save_pool(s))
				st->nr_sizes++;
		}
		closedir(dir);
	}
	for (; files && *files && st->nr_files < PZ_MAX_FILES; files++) {
		struct pz_file_state *f = &st->files[st->nr_files];

		if (read_path(*files, f->val, sizeof(f->val)) <= 0)
			continue;
		f->path = *files;
		st->nr_files++;
	}

	st->owner = getpid();
	atexit(pz_restore_settings);
	pthread_atfork(NULL, NULL, pz_on_fork);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = pz_on_signal;
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Size the pool of @kb pages so that exactly @want pages are free, growing
 * or shrinking nr_hugepages; *@free gets the free count after.  A gigantic
 * pool is never shrunk below the nr_hugepages saved at the start: those
 * pages may not come back.  0, or -EBUSY if that would free gigantic pages
 * found there, -ENOENT if the size was not saved, -EIO if the pool cannot
 * be read, -ENOSPC if the pool did not reach that count.
 */
static inline int pz_pool_exact(unsigned long kb, unsigned long want,
				unsigned long *free)
{
	struct pz_size_state *s = pz_saved_size(kb);
	char nr_path[PATH_LEN], free_path[PATH_LEN];
	unsigned long nr, target;

	if (!s)
		return -ENOENT;
	pz_hp_path(nr_path, sizeof(nr_path), kb, "nr_hugepages");
	pz_hp_path(free_path, sizeof(free_path), kb, "free_hugepages");
	if (pz_read_ulong(nr_path, &nr) || pz_read_ulong(free_path, free))
		return -EIO;
	if (*free == want)
		return 0;
	/* free pages are part of nr_hugepages: this never goes below 0 */
	target = nr + want - *free;
	if (pz_gigantic(kb) && target < s->nr)
		return -EBUSY;
	pz_write_ulong(nr_path, target);
	if (pz_read_ulong(free_path, free))
		return -EIO;
	return *free == want ? 0 : -ENOSPC;
}

#endif
