#!/bin/sh
# check-node-sysfs.sh NODE: the pre-zeroing files of every huge page size of
# NUMA node NODE exist and behave: zeroed_reserve reads back what was
# written (a count, "max"), refuses garbage and keeps its value then, and is
# restored; zeroed_hugepages is read-only and not above free_hugepages.
rc=0
fail() { echo "# $*"; rc=1; }
found=0
for d in /sys/devices/system/node/node"$1"/hugepages/hugepages-*; do
	[ -d "$d" ] || continue
	found=1
	for f in nr_hugepages free_hugepages surplus_hugepages zeroed_reserve zeroed_hugepages; do
		[ -f "$d/$f" ] || fail "$d/$f is missing"
	done
	[ -f "$d/zeroed_reserve" ] || continue
	orig=$(cat "$d/zeroed_reserve") || fail "$d/zeroed_reserve: cannot read"
	for v in 3 max 0; do
		echo "$v" > "$d/zeroed_reserve" || fail "$d/zeroed_reserve: cannot write $v"
		got=$(cat "$d/zeroed_reserve")
		[ "$got" = "$v" ] || fail "$d/zeroed_reserve: wrote $v, read $got"
	done
	if echo garbage > "$d/zeroed_reserve" 2>/dev/null; then
		fail "$d/zeroed_reserve: took garbage"
	fi
	got=$(cat "$d/zeroed_reserve")
	[ "$got" = 0 ] || fail "$d/zeroed_reserve: $got after a refused write (was 0)"
	echo "$orig" > "$d/zeroed_reserve" || fail "$d/zeroed_reserve: cannot restore $orig"
	if echo 1 > "$d/zeroed_hugepages" 2>/dev/null; then
		fail "$d/zeroed_hugepages: writable"
	fi
	free=$(cat "$d/free_hugepages")
	zeroed=$(cat "$d/zeroed_hugepages") || fail "$d/zeroed_hugepages: cannot read"
	[ "$zeroed" -le "$free" ] || fail "$d: zeroed $zeroed > free $free"
	echo "# $d: nr $(cat "$d/nr_hugepages") free $free zeroed $zeroed reserve $(cat "$d/zeroed_reserve")"
done
[ "$found" = 1 ] || fail "node$1 has no hugepages directory"
exit $rc
