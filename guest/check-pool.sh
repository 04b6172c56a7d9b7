#!/bin/sh
# check-pool.sh [wait SIZE_KB]: with "wait", wait (up to 600 s) until every
# free page of that size is zeroed, on every node. Then check that the
# hugetlb counters are consistent for every size and node: nothing reserved,
# nothing surplus but pages held by memory failure, zeroed_hugepages never
# above free_hugepages, the node sums equal to the global values.
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
	for n in /sys/devices/system/node/node*/hugepages/hugepages-"$2"kB; do
		echo "# $n: free $(cat "$n/free_hugepages") zeroed $(cat "$n/zeroed_hugepages")"
		[ "$(cat "$n/free_hugepages")" = "$(cat "$n/zeroed_hugepages")" ] || rc=1
	done
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
	[ -f "$d/zeroed_hugepages" ] || continue
	# The threads may still be zeroing (a test just freed dirty pages):
	# sum the nodes again until the global count did not move meanwhile.
	tries=0
	while :; do
		g0=$(cat "$d/zeroed_hugepages")
		nr=0 free=0 zeroed=0
		for n in /sys/devices/system/node/node*/hugepages/"$sz"; do
			nf=$(cat "$n/free_hugepages")
			nz=$(cat "$n/zeroed_hugepages")
			[ "$nz" -le "$nf" ] || { echo "# $n: zeroed $nz > free $nf"; rc=1; }
			nr=$((nr + $(cat "$n/nr_hugepages")))
			free=$((free + nf))
			zeroed=$((zeroed + nz))
		done
		tries=$((tries + 1))
		g1=$(cat "$d/zeroed_hugepages")
		if [ "$g0" = "$g1" ] || [ "$tries" -ge 30 ]; then
			break
		fi
		sleep 1
	done
	# Compare with the global count read around the sums, not a later
	# one: a page may finish zeroing meanwhile.
	[ "$nr" = "$(cat "$d/nr_hugepages")" ] || { echo "# $sz: nodes sum to $nr pages, global $(cat "$d/nr_hugepages")"; rc=1; }
	[ "$free" = "$(cat "$d/free_hugepages")" ] || { echo "# $sz: nodes sum to $free free, global $(cat "$d/free_hugepages")"; rc=1; }
	[ "$zeroed" = "$g1" ] || { echo "# $sz: nodes sum to $zeroed zeroed, global $g0 then $g1"; rc=1; }
	echo "# $sz: nr $nr free $free zeroed $zeroed"
done
exit $rc
