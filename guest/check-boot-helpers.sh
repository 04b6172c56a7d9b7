#!/bin/sh
# check-boot-helpers.sh SIZE_KB: the boot-time pool of that size, which
# hugepage_prezero= covers, is zeroed completely (zeroed_hugepages equals
# free_hugepages, htlb_prezero_zeroed counts at least as many), and on
# every node with two CPUs or more a helper worker (khugezerod<nid>.1)
# took part: it has used CPU time (utime + stime of /proc/PID/stat, in
# clock ticks).
sz=${1:?usage: check-boot-helpers.sh SIZE_KB}
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
fail() { echo "# $*"; exit 1; }
[ "$(cat "$d/zeroed_reserve")" != 0 ] || fail "no zeroed_reserve for ${sz}kB: hugepage_prezero= missing"
free=$(cat "$d/free_hugepages")
[ "$free" -gt 0 ] || fail "no boot-time ${sz}kB pool"
wait_zeroed "$d" "$free" 60 0.1 || exit 1
ev=$(vmstat_get htlb_prezero_zeroed)
[ "$ev" -ge "$free" ] || fail "htlb_prezero_zeroed is $ev, below the $free pages zeroed"
echo "# boot pool: all $free ${sz}kB pages zeroed, htlb_prezero_zeroed $ev"
checked=0
for n in /sys/devices/system/node/node[0-9]*; do
	nid=${n##*node}
	cpus=$(expand_list "$(cat "$n/cpulist")" | grep -c .)
	[ "$cpus" -ge 2 ] || continue
	[ "$(cat "$n/hugepages/hugepages-${sz}kB/free_hugepages")" -ge 2 ] || continue
	pid=$(pid_of "khugezerod$nid.1")
	[ -n "$pid" ] || fail "node $nid has $cpus CPUs but no khugezerod$nid.1"
	# the fields after the command name: utime and stime are the 12th
	# and 13th
	ticks=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')
	echo "# khugezerod$nid.1 (pid $pid) used $ticks ticks"
	[ "$ticks" -gt 0 ] || fail "khugezerod$nid.1 used no CPU time: node $nid's boot pool was zeroed by one worker"
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || { echo "# no node with two CPUs and a boot pool: nothing to check"; exit 4; }
