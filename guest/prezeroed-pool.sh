#!/bin/sh
# prezeroed-pool.sh SIZE_KB PAGES [NODE]: make the pool of that size PAGES
# pages (with NODE: PAGES pages on every node), dirty every free page, set
# zeroed_reserve to max and wait until the threads zeroed them all. Prints
# the pool's size in pages; fails if the pool did not grow to it.
sz=$1 pages=$2 node=${3:-}
dir=$(dirname "$0")
h=/sys/kernel/mm/hugepages/hugepages-${sz}kB
want=$pages
if [ -n "$node" ]; then
	want=0
	for n in /sys/devices/system/node/node[0-9]*/hugepages/hugepages-"$sz"kB; do
		echo "$pages" > "$n/nr_hugepages"
		want=$((want + pages))
	done
else
	echo "$pages" > "$h/nr_hugepages"
fi
[ "$(cat "$h/nr_hugepages")" = "$want" ] ||
	{ echo "# only $(cat "$h/nr_hugepages") of $want ${sz}kB pages" >&2; exit 4; }
"$dir/dirty-free-pages.sh" "$sz" >&2 || exit 1
echo max > "$h/zeroed_reserve" || exit 1
"$dir/check-pool.sh" wait "$sz" > /dev/null || exit 1
echo "$want"
