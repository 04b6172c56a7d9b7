#!/bin/sh
# check-zero-readback.sh SIZE_KB COUNT: allocate COUNT huge pages of that
# size with fallocate() on a hugetlbfs file, and check that every one was
# a page zeroed in advance (htlb_prezero_hit in /proc/vmstat, no miss) and
# that every byte of the file reads back zero. The caller makes sure that
# COUNT zeroed pages are free.
sz=$1
count=$2
mnt=/mnt/huge-${sz}kB
mkdir -p "$mnt"
grep -q " $mnt hugetlbfs " /proc/mounts || mount -t hugetlbfs -o "pagesize=${sz}K" none "$mnt" || exit 1
ev() { awk -v e="$1" '$1 == e { print $2 }' /proc/vmstat; }
f=$mnt/readback
hit=$(ev htlb_prezero_hit)
miss=$(ev htlb_prezero_miss)
fallocate -l $((count * sz * 1024)) "$f" || { rm -f "$f"; exit 1; }
hit=$(( $(ev htlb_prezero_hit) - hit ))
miss=$(( $(ev htlb_prezero_miss) - miss ))
nonzero=$(tr -d '\000' < "$f" | wc -c)
size=$(wc -c < "$f")
rm -f "$f"
echo "# $count ${sz}kB pages: $hit zeroed in advance, $miss cleared at allocation; $size bytes read, $nonzero not zero"
[ "$hit" = "$count" ] && [ "$miss" = 0 ] && [ "$nonzero" = 0 ] && [ "$size" = $((count * sz * 1024)) ]
