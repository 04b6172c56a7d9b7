// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping paths of background pre-zeroing of free hugetlb pages
 * (CONFIG_HUGETLB_PREZERO): with every free page zeroed, pages got through
 * anonymous private mappings, memfd shared and private mappings,
 * fallocate() and SysV shm all read zero, and each counts as a hit.
 *
 * One of the project's tests of the feature (prezero_fixture.h), run by
 * make check in the guest.  Must run as root.  It may raise
 * kernel.shmmax and kernel.shmall for SysV shm; they are put back at exit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/ipc.h>
#include <sys/shm.h>

/* Free pages each test starts with */
#define POOL_SMALL		32UL
#define POOL_LARGE		2UL

#include "prezero_fixture.h"

#define SHMMAX_PATH		"/proc/sys/kernel/shmmax"
#define SHMALL_PATH		"/proc/sys/kernel/shmall"
#define SHM_BIG			"18446744073692774399"

static void __attribute__((constructor)) save_settings(void)
{
	static const char * const files[] = {
		SHMMAX_PATH, SHMALL_PATH, NULL,
	};

	pz_save_settings(files);
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

/*
 * shmget() of hugetlb memory, raising kernel.shmmax and kernel.shmall (put
 * back at exit) if they are too low; -2 if the limits do not allow it.
 */
static int shm_get(struct __test_metadata *_metadata,
		   FIXTURE_DATA(prezero) *self, size_t len)
{
	int flags = IPC_CREAT | 0600 | SHM_HUGETLB;
	int id;

	flags |= __builtin_ctzl(self->size) << SHM_HUGE_SHIFT;
	id = shmget(IPC_PRIVATE, len, flags);
	if (id < 0 && (errno == EINVAL || errno == ENOSPC)) {
		write_path(SHMMAX_PATH, SHM_BIG);
		write_path(SHMALL_PATH, SHM_BIG);
		id = shmget(IPC_PRIVATE, len, flags);
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
 * With zeroed_reserve=max and every free page zeroed, pages got through
 * anonymous private mappings, memfd shared and private mappings, fallocate
 * and SysV shm are all zero, and each of them counts as htlb_prezero_hit.
 */
TEST_F_TIMEOUT(prezero, contents_are_zero, 600)
{
	unsigned long k;
	struct pz_stats s0 = { 0 }, s1;
	enum map_method m;
	long got;

	k = min_ul(self->avail, self->gigantic ? MAX_K_GIGANTIC : MAX_K_SMALL);
	if (!self->have_stats)
		TH_LOG("no htlb_prezero_* events in /proc/vmstat: hits not checked");

	ASSERT_EQ(0, set_reserve(self, "max"));
	for (m = 0; m < NR_METHODS; m++) {
		WAIT_ZEROED(0, return);
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

int main(int argc, char **argv)
{
	return pz_main(argc, argv, NULL);
}
