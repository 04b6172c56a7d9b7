#!/bin/sh
# offline-cpu-while-zeroing.sh CPU QUARTERS: make every free 2 MiB page
# dirty, set every reserve to max, wait until QUARTERS/4 of the pages of
# CPU's node are zeroed, and take CPU offline: it must be the only CPU of
# its node. The node's thread must go on elsewhere and zero all of its
# node's pages while the CPU is offline; once the CPU is back, the thread
# must be allowed on its node's CPUs again, and only on them.
cpu=$1
c=/sys/devices/system/cpu/cpu$cpu
node=$(basename "$(ls -d "$c"/node[0-9]*)")
node=${node#node}
nd=/sys/devices/system/node/node$node
nh=$nd/hugepages/hugepages-2048kB
dir=$(dirname "$0")
[ "$(cat "$nd/cpulist")" = "$cpu" ] || { echo "# cpu$cpu is not alone on node $node: $(cat "$nd/cpulist")"; exit 1; }
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status"; }
r=/sys/kernel/mm/hugepages/hugepages-2048kB/zeroed_reserve

# The first reserve starts the threads.
echo max > "$r" && "$dir/wait-kthread.sh" "khugezerod$node" present > /dev/null || exit 1
pid=$(for p in /proc/[0-9]*; do [ "$(cat "$p/comm" 2>/dev/null)" = "khugezerod$node" ] && echo "${p#/proc/}"; done)
echo 0 > "$r" || exit 1
"$dir/dirty-free-pages.sh" 2048 || exit 1
read -r free < "$nh/free_hugepages"
want=$((free * $2 / 4))
echo max > "$r" || exit 1
while read -r zeroed < "$nh/zeroed_hugepages" && [ "$zeroed" -lt "$want" ]; do
	:
done
echo 0 > "$c/online" || { echo "# cannot take cpu$cpu offline"; exit 1; }
read -r z1 < "$nh/zeroed_hugepages"
echo "$zeroed $free" > /tmp/offline-cpu-while-zeroing
echo "# cpu$cpu offlining began with $zeroed of node $node's $free free pages zeroed, ended with $z1; khugezerod$node allowed on $(allowed)"
rc=0
i=0
while read -r z < "$nh/zeroed_hugepages" && [ "$z" -lt "$free" ]; do
	i=$((i + 1))
	if [ "$i" -gt 120 ]; then
		echo "# node $node: $z of $free zeroed after 120 s with cpu$cpu offline"
		rc=1
		break
	fi
	sleep 1
done
[ "$rc" = 1 ] || echo "# node $node: all $free pages zeroed with cpu$cpu offline, khugezerod$node on $(allowed)"
echo 1 > "$c/online" || { echo "# cannot bring cpu$cpu back"; exit 1; }
i=0
while [ "$(allowed)" != "$cpu" ]; do
	i=$((i + 1))
	if [ "$i" -gt 10 ]; then
		echo "# khugezerod$node allowed on $(allowed) 10 s after cpu$cpu came back, not on $cpu"
		exit 1
	fi
	sleep 1
done
echo "# cpu$cpu back: khugezerod$node allowed on $(allowed)"
exit $rc
