#!/bin/sh
# check-pool.sh [wait SIZE_KB]: with "wait", wait (up to 600 s) until every
# free page of that size is zeroed (zeroed_hugepages, which counts every
# node, equal to free_hugepages). Then check that the hugetlb counters are
# consistent for every size: nothing reserved, nothing surplus but pages
# held by memory failure, zeroed_hugepages never above free_hugepages, the
# nodes' nr_hugepages and free_hugepages adding up to the size's.
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
rc=0
# Memory failure keeps an in-use huge page one of whose raw pages it
# poisoned (hugetlb-read-hwpoison leaves one): it stays in the pool, in use,
# and becomes surplus when the pool is shrunk below it. Allow as many such
# pages as there are poisoned raw pages (HardwareCorrupted, 4 kB each).
hwc=$(awk '/^HardwareCorrupted:/ { print $2 }' /proc/meminfo)
allow=$(( ${hwc:-0} / 4 ))
if [ "$1" = wait ]; then
	d=/sys/kernel/mm/hugepages/hugepages-$2kB
	wait_zeroed "$d" free 600 || exit 1
	echo "# $d: all $(cat "$d/free_hugepages") free pages zeroed after ${waited}s"
fi
for d in /sys/kernel/mm/hugepages/hugepages-*; do
	sz=${d##*/}
	[ "$(cat "$d/resv_hugepages")" = 0 ] || { echo "# $sz: resv_hugepages is $(cat "$d/resv_hugepages")"; rc=1; }
	surp=$(cat "$d/surplus_hugepages")
	if [ "$surp" -gt "$allow" ]; then
		echo "# $sz: surplus_hugepages is $surp, with $allow poisoned pages (HardwareCorrupted ${hwc:-0} kB)"
		rc=1
	elif [ "$surp" -gt 0 ]; then
		echo "# $sz: surplus_hugepages is $surp: held by memory failure (HardwareCorrupted ${hwc} kB)"
		allow=$((allow - surp))
	fi
	nr=0 free=0
	for n in /sys/devices/system/node/node*/hugepages/"$sz"; do
		nr=$((nr + $(cat "$n/nr_hugepages")))
		free=$((free + $(cat "$n/free_hugepages")))
	done
	[ "$nr" = "$(cat "$d/nr_hugepages")" ] || { echo "# $sz: nodes sum to $nr pages, global $(cat "$d/nr_hugepages")"; rc=1; }
	[ "$free" = "$(cat "$d/free_hugepages")" ] || { echo "# $sz: nodes sum to $free free, global $(cat "$d/free_hugepages")"; rc=1; }
	[ -f "$d/zeroed_hugepages" ] || { echo "# $sz: nr $nr free $free"; continue; }
	# free_hugepages first: nothing is allocated here, so the zeroed count
	# read after it can only have grown towards it.
	zeroed=$(cat "$d/zeroed_hugepages")
	[ "$zeroed" -le "$free" ] || { echo "# $sz: zeroed $zeroed > free $free"; rc=1; }
	echo "# $sz: nr $nr free $free zeroed $zeroed"
done
exit $rc
