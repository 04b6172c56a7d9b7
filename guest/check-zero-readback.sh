#!/bin/sh
# check-zero-readback.sh SIZE_KB COUNT: allocate COUNT huge pages of that
# size with fallocate() on a hugetlbfs file, and check that every one was
# a page zeroed in advance (htlb_prezero_hit in /proc/vmstat, no miss) and
# that every byte of the file reads back zero. The caller makes sure that
# COUNT zeroed pages are free.
sz=$1
count=$2
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
mnt=$(hugetlbfs_mount "$sz") || exit 1
f=$mnt/readback
hit=$(vmstat_get htlb_prezero_hit)
miss=$(vmstat_get htlb_prezero_miss)
fallocate -l $((count * sz * 1024)) "$f" || { rm -f "$f"; exit 1; }
hit=$(( $(vmstat_get htlb_prezero_hit) - hit ))
miss=$(( $(vmstat_get htlb_prezero_miss) - miss ))
nonzero=$(tr -d '\000' < "$f" | wc -c)
size=$(wc -c < "$f")
rm -f "$f"
echo "# $count ${sz}kB pages: $hit zeroed in advance, $miss cleared at allocation; $size bytes read, $nonzero not zero"
[ "$hit" = "$count" ] && [ "$miss" = 0 ] && [ "$nonzero" = 0 ] && [ "$size" = $((count * sz * 1024)) ]
