#!/bin/sh
# check-node-files.sh [NODE...]: the hugepages-* directories of those NUMA
# nodes (default: every node) hold the pool's files, nr_hugepages,
# free_hugepages and surplus_hugepages, with free not above nr, and none
# of pre-zeroing: zeroed_reserve, zeroed_hugepages and zeroed_fill are
# files of each size alone (/sys/kernel/mm/hugepages), not of a node.
rc=0
fail() { echo "# $*"; rc=1; }
if [ "$#" = 0 ]; then
	for d in /sys/devices/system/node/node[0-9]*; do
		set -- "$@" "${d##*/node}"
	done
fi
for n in "$@"; do
	found=0
	for d in /sys/devices/system/node/node"$n"/hugepages/hugepages-*; do
		[ -d "$d" ] || continue
		found=1
		for f in nr_hugepages free_hugepages surplus_hugepages; do
			[ -f "$d/$f" ] || fail "$d/$f is missing"
		done
		for f in zeroed_reserve zeroed_hugepages zeroed_fill; do
			[ ! -e "$d/$f" ] || fail "$d/$f exists: a node has no pre-zeroing files"
		done
		free=$(cat "$d/free_hugepages") || { fail "$d/free_hugepages: cannot read"; continue; }
		nr=$(cat "$d/nr_hugepages") || { fail "$d/nr_hugepages: cannot read"; continue; }
		[ "$free" -le "$nr" ] || fail "$d: free $free > nr $nr"
		echo "# $d: nr $nr free $free"
	done
	[ "$found" = 1 ] || fail "node$n has no hugepages directory"
done
exit $rc
