// SPDX-License-Identifier: GPL-2.0
/*
 * free_order SIZE_KB: which free huge page does the next fault get?
 *
 * Faults in two huge pages A and B, frees A and then B, and faults in one
 * more page C. Stock hugetlb keeps a free list in LIFO order, so C is B,
 * the page freed last. With zeroing off (every zeroed_reserve 0 and no free
 * page zeroed, whether zeroing never ran or ran and was turned off again)
 * the patched kernel must choose the same page, and must count no
 * htlb_prezero event but misses, which count every clear at a fault. Needs
 * exactly two free pages of SIZE_KB, both on the same node (the caller
 * sets the pools), and root for the PFNs.
 *
 * Exit 0 if C is B and no such event was counted, 1 otherwise, 4 (skip) if
 * the pages cannot be had.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAP_HUGE_SHIFT_ 26

static size_t size;
static int flags;

static uint64_t pfn_of(void *p)
{
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	off_t off = (uintptr_t)p / (uintptr_t)getpagesize() * sizeof(ent);

	if (fd < 0 || pread(fd, &ent, sizeof(ent), off) != sizeof(ent)) {
		perror("pagemap");
		exit(1);
	}
	close(fd);
	if (!(ent & (1ULL << 63)) || !(ent & ((1ULL << 55) - 1))) {
		fprintf(stderr, "# no PFN in pagemap (not root?)\n");
		exit(1);
	}
	return ent & ((1ULL << 55) - 1);
}

static void *fault_one(void)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);

	if (p == MAP_FAILED) {
		perror("# mmap");
		exit(4);
	}
	memset(p, 0x5a, 4096);
	return p;
}

/* The sum of the htlb_prezero_* events but misses, or 0 where none are. */
static unsigned long long prezero_events(void)
{
	unsigned long long v, sum = 0;
	char name[64];
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f) {
		perror("/proc/vmstat");
		exit(1);
	}
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (!strncmp(name, "htlb_prezero_", 13) &&
		    strcmp(name, "htlb_prezero_miss"))
			sum += v;
	fclose(f);
	return sum;
}

int main(int argc, char **argv)
{
	unsigned long kb = argc > 1 ? strtoul(argv[1], NULL, 0) : 2048;
	unsigned long long ev0, ev1;
	uint64_t a, b, c;
	void *pa, *pb, *pc;
	int shift = __builtin_ctzl(kb) + 10;

	size = kb << 10;
	flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
		(shift << MAP_HUGE_SHIFT_);
	ev0 = prezero_events();
	pa = fault_one();
	pb = fault_one();
	a = pfn_of(pa);
	b = pfn_of(pb);
	munmap(pa, size);
	munmap(pb, size);
	pc = fault_one();
	c = pfn_of(pc);
	munmap(pc, size);
	ev1 = prezero_events();
	printf("# A pfn %#llx, B pfn %#llx (freed last), C pfn %#llx: C is %s\n",
	       (unsigned long long)a, (unsigned long long)b,
	       (unsigned long long)c, c == b ? "B" : c == a ? "A" : "neither");
	printf("# htlb_prezero_* events but misses: %llu before, %llu after\n",
	       ev0, ev1);
	return c == b && ev1 == ev0 ? 0 : 1;
}
