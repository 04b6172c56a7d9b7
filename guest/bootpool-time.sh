#!/bin/sh
# bootpool-time.sh SIZE_KB: one JSON line with how long the boot-time pool
# of that size took to be zeroed: from the kernel's "zeroed_reserve=" line
# of hugepage_prezero= (late_initcall, printk time) until every free page
# was zeroed (/proc/uptime, polled every 10 ms). "late" is true if the pool
# was zeroed before this script first looked, so the time is a bound.
sz=${1:?usage: bootpool-time.sh SIZE_KB}
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
up() { cut -d' ' -f1 /proc/uptime; }
set_at=$(dmesg | sed -n "s/^\[ *\([0-9.]*\)\] hugetlb_prezero: hugepages-${sz}kB: zeroed_reserve=.*/\1/p" | head -n 1)
[ -n "$set_at" ] || { echo "# no hugepage_prezero= line for ${sz}kB in the kernel log"; exit 1; }
late=true
while [ "$(cat "$d/zeroed_hugepages")" -lt "$(cat "$d/free_hugepages")" ]; do
	late=false
	usleep 10000
done
end=$(up)
echo "{\"bench\":\"bootpool\",\"size_kb\":$sz,\"cpus\":$(grep -c ^processor /proc/cpuinfo),\"pages\":$(cat "$d/free_hugepages"),\"set_s\":$set_at,\"zeroed_s\":$end,\"secs\":$(echo "$end $set_at" | awk '{ printf "%.3f", $1 - $2 }'),\"late\":$late}"
