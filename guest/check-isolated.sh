#!/bin/sh
# check-isolated.sh: with CPUs isolated by isolcpus= or nohz_full=, every
# khugezerod thread must be allowed on its node's housekeeping CPUs only,
# or on all housekeeping CPUs if its node has none: never on an isolated
# CPU. Starts the threads (a 2 MiB reserve) if they do not run yet.
sys=/sys/devices/system
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
# flat LIST: the numbers of a one-per-line list on one line.
flat() { echo "$1" | tr '\n' ' ' | sed 's/ $//'; }
iso=$( (expand_list "$(cat $sys/cpu/isolated)"; expand_list "$(cat $sys/cpu/nohz_full 2>/dev/null)") | sort -un)
[ -n "$iso" ] || { echo "# no CPU is isolated: boot with isolcpus= or nohz_full="; exit 1; }
hk=$(expand_list "$(cat $sys/cpu/online)" | grep -vxF "$iso")
echo "# isolated: $(flat "$iso"); housekeeping: $(flat "$hk")"
r=/sys/kernel/mm/hugepages/hugepages-2048kB/zeroed_reserve
if ! cat /proc/[0-9]*/comm 2>/dev/null | grep -q '^khugezerod'; then
	echo max > "$r" && "$(dirname "$0")/wait-kthread.sh" khugezerod0 present >/dev/null || exit 1
fi
rc=0
for nd in "$sys"/node/node[0-9]*; do
	n=${nd##*node}
	mem_nodes | grep -qx "$n" || continue
	want=$(expand_list "$(cat "$nd/cpulist")" | grep -xF "$hk")
	[ -n "$want" ] || want=$hk
	pid=$(pid_of "khugezerod$n")
	[ -n "$pid" ] || { echo "# node $n: no khugezerod$n"; rc=1; continue; }
	got=$(expand_list "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status")")
	echo "# khugezerod$n (node cpus $(cat "$nd/cpulist")): allowed on $(flat "$got"), expected $(flat "$want")"
	# For comparison: kswapd, where the kernel places it by itself.
	kpid=$(pid_of "kswapd$n")
	[ -z "$kpid" ] || echo "# kswapd$n: allowed on $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$kpid/status")"
	[ "$(flat "$got")" = "$(flat "$want")" ] || rc=1
done
exit $rc
