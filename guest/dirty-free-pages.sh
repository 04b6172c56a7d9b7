#!/bin/sh
# dirty-free-pages.sh SIZE_KB [COUNT]: write non-zero bytes into COUNT free
# huge pages of that size (default: every free one) through a hugetlbfs
# file, then free them again, so that they go back to the pool dirty.
sz=$1
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
count=${2:-$(cat "$d/free_hugepages")}
mnt=/mnt/huge-${sz}kB
mkdir -p "$mnt"
grep -q " $mnt hugetlbfs " /proc/mounts || mount -t hugetlbfs -o "pagesize=${sz}K" none "$mnt" || exit 1
[ "$count" -gt 0 ] || { echo "# no free ${sz}kB pages to dirty"; exit 0; }
f=$mnt/dirty
if ! out=$("$(dirname "$0")/write_to_hugetlbfs" -p "$f" -s $((count * sz * 1024)) -m 0 -w 2>&1); then
	echo "$out" | sed 's/^/# /'
	rm -f "$f"
	exit 1
fi
rm -f "$f"
echo "# dirtied $count ${sz}kB pages; free $(cat "$d/free_hugepages") zeroed $(cat "$d/zeroed_hugepages")"
