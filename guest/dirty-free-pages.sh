#!/bin/sh
# dirty-free-pages.sh SIZE_KB [COUNT]: write non-zero bytes into COUNT free
# huge pages of that size (default: every free one) through a hugetlbfs
# file, then free them again, so that they go back to the pool dirty.
sz=$1
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
count=${2:-$(cat "$d/free_hugepages")}
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
mnt=$(hugetlbfs_mount "$sz") || exit 1
[ "$count" -gt 0 ] || { echo "# no free ${sz}kB pages to dirty"; exit 0; }
# write_to_hugetlbfs takes the size as an int: files of at most 1 GiB,
# all kept until the last is written, so that every page is taken.
per=$((1048576 / sz))
[ "$per" -ge 1 ] || per=1
left=$count i=0
while [ "$left" -gt 0 ]; do
	n=$per
	[ "$n" -le "$left" ] || n=$left
	i=$((i + 1))
	if ! out=$("${WRITER:-$(dirname "$0")/write_to_hugetlbfs}" -p "$mnt/dirty.$i" -s $((n * sz * 1024)) -m 0 -w 2>&1); then
		echo "$out" | sed 's/^/# /'
		rm -f "$mnt"/dirty.*
		exit 1
	fi
	left=$((left - n))
done
rm -f "$mnt"/dirty.*
echo "# dirtied $count ${sz}kB pages; free $(cat "$d/free_hugepages") zeroed $(cat "$d/zeroed_hugepages")"
