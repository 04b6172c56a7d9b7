#!/bin/sh
# operator-guide.sh: the run-time commands of the README's operator guide,
# as the README gives them, each checked: a 1 GiB reserve of max and a
# node 1 reserve of 16 2 MiB pages, zeroed_hugepages and the htlb_prezero
# lines of /proc/vmstat, vm.hugetlb_prezero_workers, and zeroed_fill from a cgroup
# with cpu.max. Pools: the command line's 1 GiB pages, and 512 and 16
# dirty 2 MiB pages on nodes 0 and 1.
dir=$(dirname "$0")
H=/sys/kernel/mm/hugepages
N0=/sys/devices/system/node/node0/hugepages/hugepages-2048kB
N1=/sys/devices/system/node/node1/hugepages/hugepages-2048kB
ok=1
bad() { echo "# $*"; ok=; }
# expect FILE VALUE: FILE reads VALUE.
expect() { [ "$(cat "$1")" = "$2" ] || bad "$1 reads $(cat "$1"), not $2"; }
# wait_for FILE VALUE: until FILE reads VALUE (300 s at most).
wait_for() {
	i=0
	while [ "$(cat "$1")" != "$2" ] && [ "$i" -lt 3000 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect "$1" "$2"
}
for f in "$H"/hugepages-*/zeroed_reserve; do echo 0 > "$f"; done
echo 0 > $H/hugepages-2048kB/nr_hugepages
echo 512 > $N0/nr_hugepages
echo 16 > $N1/nr_hugepages
expect $N0/nr_hugepages 512
expect $N1/nr_hugepages 16
"$dir/dirty-free-pages.sh" 2048 || exit 1
"$dir/dirty-free-pages.sh" 1048576 || exit 1
g=$(cat $H/hugepages-1048576kB/free_hugepages)

# The README's commands.
echo max > /sys/kernel/mm/hugepages/hugepages-1048576kB/zeroed_reserve
echo 16  > /sys/devices/system/node/node1/hugepages/hugepages-2048kB/zeroed_reserve
cat /sys/kernel/mm/hugepages/hugepages-1048576kB/zeroed_hugepages
grep htlb_prezero /proc/vmstat
expect $H/hugepages-1048576kB/zeroed_reserve max
expect $H/hugepages-2048kB/zeroed_reserve 16
wait_for $H/hugepages-1048576kB/zeroed_hugepages "$g"
wait_for $N1/zeroed_hugepages 16
expect $N0/zeroed_hugepages 0
for e in htlb_prezero_zeroed htlb_prezero_hit htlb_prezero_miss; do
	grep -q "^$e " /proc/vmstat || bad "no $e in /proc/vmstat"
done

W=/proc/sys/vm/hugetlb_prezero_workers
expect $W 1
sysctl -w vm.hugetlb_prezero_workers=2     # 1, the default, to go back
expect $W 2
sysctl -w vm.hugetlb_prezero_workers=1
expect $W 1

# zeroed_fill from a cgroup of its own, in a shell of its own ($$).
before=$(cat $N0/zeroed_fill)
echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/prezero
echo "50000 100000" > /sys/fs/cgroup/prezero/cpu.max
sh -c 'echo $$ > /sys/fs/cgroup/prezero/cgroup.procs
echo 512 > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/zeroed_fill' ||
	bad "the zeroed_fill write failed"
expect /sys/fs/cgroup/prezero/cpu.max "50000 100000"
expect $N0/zeroed_hugepages 512
expect $N0/zeroed_fill $((before + 512))
u=$(sed -n 's/^usage_usec //p' /sys/fs/cgroup/prezero/cpu.stat)
echo "# the cgroup was charged ${u} us for zeroing 512 pages"
[ "${u:-0}" -gt 0 ] || bad "nothing charged to the cgroup"
rmdir /sys/fs/cgroup/prezero

for f in "$H"/hugepages-*/zeroed_reserve; do echo 0 > "$f"; done
echo 0 > $H/hugepages-2048kB/nr_hugepages
[ -n "$ok" ]
