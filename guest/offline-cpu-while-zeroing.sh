#!/bin/sh
# offline-cpu-while-zeroing.sh CPU QUARTERS: set the 2 MiB reserve to max,
# make every free 2 MiB page dirty (the threads zero them again as they are
# freed), wait until QUARTERS/4 of them are zeroed, and take CPU offline:
# it must be the only CPU of its node, and every free 2 MiB page must be
# that node's, so that the size's counts are the node's. The node's thread
# must go on elsewhere and zero all of its node's pages while the CPU is
# offline; once the CPU is back, the thread must be allowed on its node's
# CPUs again, and only on them.
cpu=$1
c=/sys/devices/system/cpu/cpu$cpu
node=$(basename "$(ls -d "$c"/node[0-9]*)")
node=${node#node}
nd=/sys/devices/system/node/node$node
nh=$nd/hugepages/hugepages-2048kB
g=/sys/kernel/mm/hugepages/hugepages-2048kB
dir=$(dirname "$0")
# shellcheck source=guest/guest-lib.sh
. "$dir/guest-lib.sh"
[ "$(cat "$nd/cpulist")" = "$cpu" ] || { echo "# cpu$cpu is not alone on node $node: $(cat "$nd/cpulist")"; exit 1; }
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status"; }
# on_cpu: khugezerod$node is allowed on $cpu only.
# shellcheck disable=SC2317 # called through wait_until
on_cpu() { [ "$(allowed)" = "$cpu" ]; }
[ "$(cat "$nh/free_hugepages")" = "$(cat "$g/free_hugepages")" ] ||
	{ echo "# node $node has $(cat "$nh/free_hugepages") of the $(cat "$g/free_hugepages") free 2 MiB pages, not all"; exit 1; }

# The threads run while a reserve is set: the pool is dirtied under them.
echo max > "$g/zeroed_reserve" || exit 1
pid=$(pid_of "khugezerod$node")
[ -n "$pid" ] || { echo "# no khugezerod$node"; exit 1; }
"$dir/dirty-free-pages.sh" 2048 || exit 1
read -r free < "$g/free_hugepages"
want=$((free * $2 / 4))
# No pause and no fork between two looks at the counter.
wait_zeroed "$g" "$want" 0 0 || exit 1
zeroed=$zeroed_seen
echo 0 > "$c/online" || { echo "# cannot take cpu$cpu offline"; exit 1; }
read -r z1 < "$g/zeroed_hugepages"
echo "$zeroed $free" > /tmp/offline-cpu-while-zeroing
echo "# cpu$cpu offlining began with $zeroed of node $node's $free free pages zeroed, ended with $z1; khugezerod$node allowed on $(allowed)"
rc=0
if wait_zeroed "$g" "$free" 120; then
	echo "# node $node: all $free pages zeroed with cpu$cpu offline, khugezerod$node on $(allowed)"
else
	echo "# node $node: not all zeroed with cpu$cpu offline"
	rc=1
fi
echo 1 > "$c/online" || { echo "# cannot bring cpu$cpu back"; exit 1; }
if ! wait_until 10 1 on_cpu; then
	echo "# khugezerod$node allowed on $(allowed) 10 s after cpu$cpu came back, not on $cpu"
	exit 1
fi
echo "# cpu$cpu back: khugezerod$node allowed on $(allowed)"
exit $rc
