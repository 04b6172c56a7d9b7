#!/bin/sh
# bootpool-time.sh SIZE_KB: one JSON line with how long the boot-time pool
# of that size took to be zeroed: from the kernel's "zeroed_reserve=" line
# of hugepage_prezero= (late_initcall, printk time) until every free page
# was zeroed (/proc/uptime, polled every 50 ms). "late" is true if the pool
# was zeroed before this script first looked, so the time is a bound.
sz=${1:?usage: bootpool-time.sh SIZE_KB}
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
up() { cut -d' ' -f1 /proc/uptime; }
set_at=$(dmesg | sed -n "s/^\[ *\([0-9.]*\)\] hugetlb_prezero: hugepages-${sz}kB: zeroed_reserve=.*/\1/p" | head -n 1)
[ -n "$set_at" ] || { echo "# no hugepage_prezero= line for ${sz}kB in the kernel log"; exit 1; }
# Shell builtins only, and a 50 ms period: with one vCPU, a polling loop
# that forks takes the CPU from the SCHED_IDLE workers it is timing.
late=true
read -r z < "$d/zeroed_hugepages"
read -r f < "$d/free_hugepages"
while [ "$z" -lt "$f" ]; do
	late=false
	sleep 0.05
	read -r z < "$d/zeroed_hugepages"
	read -r f < "$d/free_hugepages"
done
end=$(up)
echo "{\"bench\":\"bootpool\",\"size_kb\":$sz,\"cpus\":$(grep -c ^processor /proc/cpuinfo),\"pages\":$(cat "$d/free_hugepages"),\"set_s\":$set_at,\"zeroed_s\":$end,\"secs\":$(echo "$end $set_at" | awk '{ printf "%.3f", $1 - $2 }'),\"late\":$late}"
