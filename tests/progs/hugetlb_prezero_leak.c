// SPDX-License-Identifier: GPL-2.0
/*
 * The guarantee of background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO): a huge page handed to user space is always
 * zero, whether it was zeroed in advance or not.  Pages are faulted in,
 * checked, filled with a pattern and freed, over and over: re-faulted at
 * once, while the threads zero them, or once they are done; the only free
 * page taken while a thread zeroes it; a page a child wrote through a
 * shared memfd, freed by truncating or closing the file.
 *
 * One of the project's tests of the feature (prezero_fixture.h), run by
 * make check in the guest.  Must run as root.  Pass -n <iterations> to
 * change the number of iterations of the leak loops.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

/* Free pages each test starts with */
#define POOL_SMALL		32UL
#define POOL_LARGE		2UL

#include "prezero_fixture.h"

static unsigned long opt_iters = 50;

static void __attribute__((constructor)) save_settings(void)
{
	pz_save_settings(NULL);
}

/* A different non-zero fill byte for every iteration */
static unsigned char pattern(unsigned long iter)
{
	return (iter * 37) % 255 + 1;
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


/*
 * Fault pages in, check they are zero, fill them with a pattern, free
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

	avail = self->avail;
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
		if (wait)
			WAIT_ZEROED(WZ_QUIET, return);
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
 * The only free page is being zeroed: a fault must still get it, at
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

	avail = self->avail;
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
 * A child fills a page of a shared hugetlb memfd and exits; the parent
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

	avail = self->avail;
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

int main(int argc, char **argv)
{
	return pz_main(argc, argv, &opt_iters);
}
