#!/bin/sh
# check-cma-pool.sh SIZE_KB COUNT: grow the pool of that (gigantic) size to
# COUNT pages at run time and check that they come from CMA (hugetlb_cma=:
# that much more CMA is in use), get zeroed, and that the counters agree;
# shrink it to 0 and check that CMA has them back; grow it again and shrink
# it at once, while the pages are being zeroed; then grow it once more and
# leave it zeroed, for the tests that follow.
sz=$1
count=$2
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
dir=$(dirname "$0")
# shellcheck source=guest/guest-lib.sh
. "$dir/guest-lib.sh"
want=$((count * sz))
# A little CMA memory may come and go with other movable allocations.
slack=16384
cma() { awk -v f="Cma$1:" '$1 == f { print $2 }' /proc/meminfo; }
fail() { echo "# $*"; exit 1; }
# set_pool N: set the pool size, check it got there.
set_pool() {
	echo "$1" > "$d/nr_hugepages" || fail "cannot write $1 to $d/nr_hugepages"
	[ "$(cat "$d/nr_hugepages")" = "$1" ] || fail "asked for $1 pages, got $(cat "$d/nr_hugepages")"
}
# cma_stats: what each CMA area says of itself (CONFIG_CMA_SYSFS).
cma_stats() {
	for a in /sys/kernel/mm/cma/*; do
		[ -r "$a/alloc_pages_fail" ] || continue
		echo "# $(basename "$a"): alloc_pages_success $(cat "$a/alloc_pages_success") alloc_pages_fail $(cat "$a/alloc_pages_fail")"
	done
}
# grow: grow the pool from 0 to COUNT pages, all of them from CMA. Taking a
# gigantic page from an area as big as the page needs every page in it to
# migrate, which alloc_contig_range() can fail to do for a moment (-EBUSY:
# a page pinned or locked meanwhile); hugetlb then takes the page from
# outside CMA, or does without. Then give the pages back and try again, up
# to 3 times, saying each time what happened; a pass then says "# flaky:"
# on its output, which the harness reports as a flaky pass, with these lines.
retried=0
grow() {
	try=1
	while :; do
		echo "$count" > "$d/nr_hugepages" || fail "cannot write $count to $d/nr_hugepages"
		got=$(cat "$d/nr_hugepages")
		# All of CMA in use, not the drop in CmaFree: growing the pool
		# drops caches and may migrate other users out of CMA, which
		# frees some of it meanwhile.
		inuse=$((total - $(cma Free)))
		[ "$got" != "$count" ] || [ "$inuse" -lt "$want" ] || return 0
		echo "# attempt $try: asked for $count ${sz}kB pages, got $got; $inuse kB of CMA in use, $want kB wanted"
		cma_stats
		[ "$try" -lt 3 ] || fail "the pages did not come from CMA in $try attempts"
		set_pool 0
		sleep 1
		try=$((try + 1))
		retried=$((retried + 1))
	done
}
# cma_back: CMA has every page back.
cma_back() {
	now=$(cma Free)
	echo "# pool $(cat "$d/nr_hugepages"): CmaFree ${now} kB (${free0} kB before)"
	[ "$now" -ge $((free0 - slack)) ] || fail "CMA did not get the pages back: CmaFree $now kB, was $free0 kB"
}

total=$(cma Total)
free0=$(cma Free)
echo "# CmaTotal $total kB, CmaFree $free0 kB"
[ "${total:-0}" -ge "$want" ] || fail "not enough CMA for $count ${sz}kB pages (hugetlb_cma= on the command line?)"
[ "$(cat "$d/nr_hugepages")" = 0 ] || fail "the ${sz}kB pool is not empty at the start"

grow
echo "# $count ${sz}kB pages allocated: $inuse kB of CMA in use"
"$dir/check-pool.sh" wait "$sz" || exit 1
set_pool 0
cma_back

# Shrink while the pages are being zeroed: each is taken back from the thread.
steal=$(vmstat_get htlb_prezero_steal)
grow
echo "# zeroed $(cat "$d/zeroed_hugepages") of $(cat "$d/free_hugepages") when shrinking"
set_pool 0
echo "# $(( $(vmstat_get htlb_prezero_steal) - steal )) pages taken from the threads"
cma_back
"$dir/check-pool.sh" || exit 1

grow
"$dir/check-pool.sh" wait "$sz" || exit 1
if [ "$retried" -gt 0 ]; then
	echo "# flaky: passed, but $retried attempts to take the pages from CMA failed"
fi
