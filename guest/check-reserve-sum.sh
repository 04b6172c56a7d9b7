#!/bin/sh
# check-reserve-sum.sh SIZE_KB: the global zeroed_reserve of that size reads
# the sum of the per-node values of the nodes with memory ("max" if one of
# them is max; nodes without memory are left out), and writing back what
# any of the files reads changes none of them.
g=/sys/kernel/mm/hugepages/hugepages-$1kB/zeroed_reserve
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
nodes=
for n in $(mem_nodes); do
	nodes="$nodes $n"
done
state() {
	cat "$g"
	for f in /sys/devices/system/node/node*/hugepages/hugepages-"$1"kB/zeroed_reserve; do
		echo "$f $(cat "$f")"
	done
}
want=0
for n in $nodes; do
	v=$(cat /sys/devices/system/node/node"$n"/hugepages/hugepages-"$1"kB/zeroed_reserve)
	if [ "$v" = max ] || [ "$want" = max ]; then want=max; else want=$((want + v)); fi
done
got=$(cat "$g")
echo "# nodes with memory:$nodes; global $got, expected $want"
[ "$got" = "$want" ] || exit 1
before=$(state "$1")
for f in "$g" /sys/devices/system/node/node*/hugepages/hugepages-"$1"kB/zeroed_reserve; do
	v=$(cat "$f")
	echo "$v" > "$f" || { echo "# cannot write back $f"; exit 1; }
	[ "$(state "$1")" = "$before" ] || { echo "# writing back $f changed:"; state "$1" | sed 's/^/# /'; exit 1; }
done
