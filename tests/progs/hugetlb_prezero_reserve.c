// SPDX-License-Identifier: GPL-2.0
/*
 * What zeroed_reserve asks of background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO): zeroed_hugepages reaches the reserve in
 * bounded time and goes no further, a count on each node, max on every
 * free page, following the pool as it grows and shrinks; a reserve of 0
 * stops zeroing, also one in progress; with every reserve at 0 no thread
 * runs, and the pages zeroed before stay zeroed.
 *
 * One of the project's tests of the feature (prezero_fixture.h), run by
 * make check in the guest.  Must run as root.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

/* Free pages each test starts with */
#define POOL_SMALL		32UL
#define POOL_LARGE		2UL

#include "prezero_fixture.h"

/* Poll interval while waiting for zeroing to begin */
#define START_POLL_US		1000

static void __attribute__((constructor)) save_settings(void)
{
	pz_save_settings(NULL);
}

/*
 * Poll every millisecond until the threads have zeroed a page of this size
 * since @z0 zeroed ones were counted, or every free page is zeroed: they
 * are at work.  As wait_zeroed(): 0, -1 if the pool cannot be read, 1 if
 * they zeroed none in the time a page takes at MIN_ZERO_RATE, plus SLACK_S.
 */
static int wait_begun(struct __test_metadata *_metadata,
		      FIXTURE_DATA(prezero) *self, unsigned long z0)
{
	unsigned long limit = self->size / MIN_ZERO_RATE + SLACK_S;
	unsigned long zeroed, free;
	double t0 = now(), t;

	for (;;) {
		if (dir_read_ulong(self->gdir, "free_hugepages", &free) ||
		    dir_read_ulong(self->gdir, "zeroed_hugepages", &zeroed)) {
			TH_LOG("cannot read the %lu kB pool", self->size_kb);
			return -1;
		}
		if (zeroed > z0 || zeroed >= free)
			return 0;
		t = now() - t0;
		if (t > limit) {
			TH_LOG("no %lu kB page zeroed after %.1f s", self->size_kb, t);
			self->wz_zeroed = zeroed;
			self->wz_target = z0 + 1;
			self->wz_secs = t;
			return 1;
		}
		usleep(START_POLL_US);
	}
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



/*
 * zeroed_hugepages reaches what zeroed_reserve asks for, in bounded
 * time, and goes no further: a count is per node, so every node with memory
 * keeps min(count, its free pages) zeroed and the size's count is their sum
 * (with pages on two nodes a count of r zeroes 2r pages, not r); max zeroes
 * every free page.  It never exceeds free_hugepages, and zeroing does not
 * change the pool counters.
 */
TEST_F_TIMEOUT(prezero, zeroing_reaches_reserve, 600)
{
	unsigned long r, fmin = 0, want, d, i, zb;
	unsigned long dirty[MAX_NODES] = { 0 };
	struct pool_snap s, m;
	int n, k = 0;
	char *p;

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
	WAIT_ZEROED(WZ_STABLE, return);
	ASSERT_EQ(0, take_snap(self, &s));
	want = reserve_target(self, &s, false, r);
	TH_LOG("a count of %lu, %d nodes with free pages: %lu zeroed, expected %lu",
	       r, k, s.zeroed, want);
	EXPECT_EQ(want, s.zeroed);
	/* and it stays there */
	EXPECT_TRUE(expect_no_growth(_metadata, self, 0.5, 0));

	/* one more: a page more on every node that has one */
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "zeroed_reserve", r + 1));
	WAIT_ZEROED(WZ_STABLE, return);
	ASSERT_EQ(0, take_snap(self, &s));
	want = reserve_target(self, &s, false, r + 1);
	TH_LOG("a count of %lu: %lu zeroed, expected %lu", r + 1, s.zeroed,
	       want);
	EXPECT_EQ(want, s.zeroed);
	EXPECT_TRUE(expect_no_growth(_metadata, self, 0.5, 0));

	/* a count above every node's pool zeroes every free page */
	ASSERT_EQ(0, dir_write_ulong(self->gdir, "zeroed_reserve", s.free + 1));
	WAIT_ZEROED(WZ_STABLE, return);
	ASSERT_EQ(0, take_snap(self, &s));
	EXPECT_EQ(s.free, s.zeroed);

	/* "max" on a fully dirty pool */
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_TRUE(none_zeroed(_metadata, self));
	ASSERT_EQ(0, set_reserve(self, "max"));
	WAIT_ZEROED(WZ_STABLE, return);
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
	WAIT_ZEROED(WZ_STABLE, return);
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

/*
 * zeroed_reserve=0 stops zeroing: dirty pages stay dirty, a zeroing in
 * progress stops (one page per node may still complete while the threads
 * stay for another size's reserve) and pages already zeroed stay zeroed;
 * raising the reserve again resumes. When it is the last reserve set, the
 * threads have exited once the write returns: nothing is zeroed after it.
 */
TEST_F_TIMEOUT(prezero, reserve_zero_stops_zeroing, 600)
{
	struct pool_snap s;
	bool last;

	/* the threads at work when the reserve goes to 0 */
	keep_zeroing(_metadata, self);
	ASSERT_EQ(0, take_snap(self, &s));
	ASSERT_EQ(0, set_reserve(self, "max"));
	WAIT_THREADS(wait_begun(_metadata, self, s.zeroed), return);
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_NE(0UL, dirty_pool(_metadata, self));
	ASSERT_TRUE(none_zeroed(_metadata, self));
	ASSERT_TRUE(expect_no_growth(_metadata, self, 1.5, 0));

	/*
	 * Stop while zeroing runs, as soon as a page is zeroed; a page in
	 * progress on each node may still complete: the slack of 1.
	 */
	ASSERT_EQ(0, set_reserve(self, "max"));
	WAIT_THREADS(wait_begun(_metadata, self, 0), return);
	ASSERT_EQ(0, set_reserve(self, "0"));
	ASSERT_EQ(0, take_snap(self, &s));
	TH_LOG("zeroing stopped at %lu of %lu free pages", s.zeroed, s.free);
	ASSERT_TRUE(expect_no_growth(_metadata, self, 1.5, 1));

	ASSERT_EQ(0, set_reserve(self, "max"));
	WAIT_ZEROED(WZ_STABLE, return);

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
 * Off keeps what was zeroed: with every reserve at 0 no khugezerod
 * thread runs, but the free pages zeroed before stay zeroed and keep
 * counting in zeroed_hugepages; a fault still takes them without clearing
 * (a hit), and the count falls by the pages taken, which come back dirty,
 * and never rises.
 */
TEST_F_TIMEOUT(prezero, off_keeps_zeroed, 600)
{
	struct pz_stats s0, s1;
	struct pool_snap a, b;
	unsigned long k;
	double t0;
	char *p;
	int n;

	k = min_ul(self->avail, self->gigantic ? MAX_K_GIGANTIC : MAX_K_SMALL);

	ASSERT_EQ(0, set_reserve(self, "max"));
	WAIT_ZEROED(WZ_STABLE, return);
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


int main(int argc, char **argv)
{
	return pz_main(argc, argv, NULL);
}
