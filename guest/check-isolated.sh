#!/bin/sh
# check-isolated.sh: with CPUs isolated by isolcpus= or nohz_full=, every
# khugezerod thread must be allowed on its node's housekeeping CPUs only,
# or on all housekeeping CPUs if its node has none: never on an isolated
# CPU. Starts the threads (a 2 MiB reserve) if they do not run yet.
sys=/sys/devices/system
# expand LIST: one CPU number per line ("0-2,4" gives 0 1 2 4).
expand() {
	echo "$1" | tr , '\n' | while IFS=- read -r lo hi; do
		case $lo in '' | *[!0-9]*) continue ;; esac
		seq "$lo" "${hi:-$lo}"
	done
}
# flat LIST: the numbers of a one-per-line list on one line.
flat() { echo "$1" | tr '\n' ' ' | sed 's/ $//'; }
iso=$( (expand "$(cat $sys/cpu/isolated)"; expand "$(cat $sys/cpu/nohz_full 2>/dev/null)") | sort -un)
[ -n "$iso" ] || { echo "# no CPU is isolated: boot with isolcpus= or nohz_full="; exit 1; }
hk=$(expand "$(cat $sys/cpu/online)" | grep -vxF "$iso")
echo "# isolated: $(flat "$iso"); housekeeping: $(flat "$hk")"
r=/sys/kernel/mm/hugepages/hugepages-2048kB/zeroed_reserve
if ! cat /proc/[0-9]*/comm 2>/dev/null | grep -q '^khugezerod'; then
	echo max > "$r" && "$(dirname "$0")/wait-kthread.sh" khugezerod0 present >/dev/null || exit 1
fi
rc=0
for nd in "$sys"/node/node[0-9]*; do
	n=${nd##*node}
	expand "$(cat $sys/node/has_memory)" | grep -qx "$n" || continue
	want=$(expand "$(cat "$nd/cpulist")" | grep -xF "$hk")
	[ -n "$want" ] || want=$hk
	pid=$(for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = "khugezerod$n" ] && echo "${p#/proc/}"
	done)
	[ -n "$pid" ] || { echo "# node $n: no khugezerod$n"; rc=1; continue; }
	got=$(expand "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status")")
	echo "# khugezerod$n (node cpus $(cat "$nd/cpulist")): allowed on $(flat "$got"), expected $(flat "$want")"
	# For comparison: kswapd, where the kernel places it by itself.
	kpid=$(for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = "kswapd$n" ] && echo "${p#/proc/}"
	done)
	[ -z "$kpid" ] || echo "# kswapd$n: allowed on $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$kpid/status")"
	[ "$(flat "$got")" = "$(flat "$want")" ] || rc=1
done
exit $rc
