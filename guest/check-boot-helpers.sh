#!/bin/sh
# check-boot-helpers.sh SIZE_KB: the boot-time pool of that size, which
# hugepage_prezero= covers, is zeroed completely (zeroed_hugepages equals
# free_hugepages, htlb_prezero_zeroed counts at least as many), and on
# every node with two CPUs or more a helper worker (khugezerod<nid>.1)
# took part: it has used CPU time (utime + stime of /proc/PID/stat, in
# clock ticks).
sz=${1:?usage: check-boot-helpers.sh SIZE_KB}
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
fail() { echo "# $*"; exit 1; }
[ "$(cat "$d/zeroed_reserve")" != 0 ] || fail "no zeroed_reserve for ${sz}kB: hugepage_prezero= missing"
free=$(cat "$d/free_hugepages")
[ "$free" -gt 0 ] || fail "no boot-time ${sz}kB pool"
i=0
while [ "$(cat "$d/zeroed_hugepages")" -lt "$free" ] && [ "$i" -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
z=$(cat "$d/zeroed_hugepages")
[ "$z" -eq "$free" ] || fail "boot pool: $z of $free pages zeroed after 60 s"
ev=$(awk '$1 == "htlb_prezero_zeroed" { print $2 }' /proc/vmstat)
[ "$ev" -ge "$free" ] || fail "htlb_prezero_zeroed is $ev, below the $free pages zeroed"
echo "# boot pool: all $free ${sz}kB pages zeroed, htlb_prezero_zeroed $ev"
checked=0
for n in /sys/devices/system/node/node[0-9]*; do
	nid=${n##*node}
	cpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { split($i, r, "-"); c += (r[2] == "" ? 1 : r[2] - r[1] + 1) } } END { print c + 0 }' "$n/cpulist")
	[ "$cpus" -ge 2 ] || continue
	[ "$(cat "$n/hugepages/hugepages-${sz}kB/free_hugepages")" -ge 2 ] || continue
	pid=
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = "khugezerod$nid.1" ] && pid=${p#/proc/} && break
	done
	[ -n "$pid" ] || fail "node $nid has $cpus CPUs but no khugezerod$nid.1"
	# the fields after the command name: utime and stime are the 12th
	# and 13th
	ticks=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')
	echo "# khugezerod$nid.1 (pid $pid) used $ticks ticks"
	[ "$ticks" -gt 0 ] || fail "khugezerod$nid.1 used no CPU time: node $nid's boot pool was zeroed by one worker"
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || { echo "# no node with two CPUs and a boot pool: nothing to check"; exit 4; }
