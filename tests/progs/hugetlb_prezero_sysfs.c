// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs interface of background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO): every accepted and refused form of a
 * zeroed_reserve write, writes longer than a page, the unsigned 32-bit
 * count (4294967295 and more read back as max), the files' modes, that
 * zeroed_hugepages is read only and that no node has pre-zeroing files of
 * its own, writers other than root, and writers racing each other.
 *
 * One of the project's tests of the feature (prezero_fixture.h), run by
 * make check in the guest.  The tests need no free page: the pools are left
 * as found.  Must run as root (sysfs_write_nonroot drops to uid 65534 in a
 * child).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <grp.h>

#define POOL_SMALL		POOL_AS_FOUND
#define POOL_LARGE		POOL_AS_FOUND

#include "prezero_fixture.h"

/* Unprivileged writer, and the concurrent writers test */
#define NOBODY_ID		65534
#define NOBODY_SKIP		4	/* exit code: cannot switch users */
#define CONC_WRITERS		4
#define CONC_SECS		2.0

static void __attribute__((constructor)) save_settings(void)
{
	pz_save_settings(NULL);
}

/* One write(2) of @len bytes: what it returned (maybe short), or -errno. */
static ssize_t dir_write_once(const char *dir, const char *name,
			      const char *buf, size_t len)
{
	char path[2 * PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_path_once(path, buf, len);
}

/* zeroed_reserve reads @want (with its newline) after @what */
static bool reserve_is(struct __test_metadata *_metadata,
		       FIXTURE_DATA(prezero) *self, const char *want,
		       const char *what)
{
	char buf[VAL_LEN], tmp[ESC_LEN];

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
	char before[VAL_LEN], exp[VAL_LEN], what[ESC_LEN + VAL_LEN];
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
 * Accepted and rejected forms of zeroed_reserve writes, writes longer
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
 * Users other than root cannot write zeroed_reserve (nor
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
 * Writers racing on zeroed_reserve: each write of a valid value
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

int main(int argc, char **argv)
{
	return pz_main(argc, argv, NULL);
}
