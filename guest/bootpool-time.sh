#!/bin/sh
# bootpool-time.sh SIZE_KB: one figure line ("bench: " and a JSON object)
# with how long the boot-time pool of that size took to be zeroed: from
# the kernel's "zeroed_reserve=" line of hugepage_prezero= (late_initcall,
# printk time) until every free page was zeroed (/proc/uptime, polled
# every 50 ms). "late" is true if the pool was zeroed before this script
# first looked, so the time is a bound.
sz=${1:?usage: bootpool-time.sh SIZE_KB}
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
up() { cut -d' ' -f1 /proc/uptime; }
set_at=$(dmesg | sed -n "s/^\[ *\([0-9.]*\)\] hugetlb_prezero: hugepages-${sz}kB: zeroed_reserve=.*/\1/p" | head -n 1)
[ -n "$set_at" ] || { echo "# no hugepage_prezero= line for ${sz}kB in the kernel log"; exit 1; }
# wait_zeroed polls with shell builtins, here every 50 ms: with one vCPU,
# a polling loop that forks takes the CPU from the SCHED_IDLE workers it is
# timing.
wait_zeroed "$d" free 0 0.05 || exit 1
late=true
[ "$waited" = 0 ] || late=false
end=$(up)
echo "bench: {\"bench\":\"bootpool\",\"size_kb\":$sz,\"cpus\":$(grep -c ^processor /proc/cpuinfo),\"pages\":$(cat "$d/free_hugepages"),\"set_s\":$set_at,\"zeroed_s\":$end,\"secs\":$(echo "$end $set_at" | awk '{ printf "%.3f", $1 - $2 }'),\"late\":$late}"
