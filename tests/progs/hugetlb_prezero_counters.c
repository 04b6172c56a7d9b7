// SPDX-License-Identifier: GPL-2.0
/*
 * The events of background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO) in /proc/vmstat: htlb_prezero_zeroed counts the
 * pages the threads zero, htlb_prezero_miss the dirty pages cleared at
 * fault time, htlb_prezero_hit the zeroed ones taken as they are, and
 * htlb_prezero_steal the pages taken from a thread that was zeroing them;
 * with zeroing off, every fault is a miss.
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

static void __attribute__((constructor)) save_settings(void)
{
	pz_save_settings(NULL);
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
 * htlb_prezero_zeroed counts the pages the threads zero,
 * htlb_prezero_miss the dirty pages cleared at fault time, and
 * htlb_prezero_steal exists. Once every reserve is 0 and no free page is
 * zeroed, zeroing is off: faults still count as misses, none as a hit.
 */
TEST_F_TIMEOUT(prezero, vmstat_counters, 600)
{
	unsigned long k, n, i;
	struct pz_stats s0, s1;
	char *p;

	if (!self->have_stats)
		SKIP(return, "no htlb_prezero_* events in /proc/vmstat");
	k = min_ul(self->avail, self->gigantic ? MAX_K_GIGANTIC : MAX_K_SMALL);

	/* htlb_prezero_zeroed: reserve 0 -> max on a dirty pool */
	ASSERT_EQ(0, set_reserve(self, "0"));
	n = dirty_pool(_metadata, self);
	ASSERT_NE(0UL, n);
	ASSERT_TRUE(none_zeroed(_metadata, self));
	ASSERT_EQ(0, read_stats(&s0));
	ASSERT_EQ(0, set_reserve(self, "max"));
	WAIT_ZEROED(WZ_STABLE, return);
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

int main(int argc, char **argv)
{
	return pz_main(argc, argv, NULL);
}
