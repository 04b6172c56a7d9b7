#!/bin/sh
# atboot-time.sh SIZE_KB: one figure line ("bench: " and a JSON object)
# with when this boot's pool of that size was ready: how long hugetlb's
# parallel boot allocation job took (its "HugeTLB: allocation took" line;
# with hugetlb.bench_boot_clear=1 it clears every folio as well), the
# printk time at which init started, and, where hugepage_prezero= set a
# reserve, the uptime at which the workers had zeroed every free page
# (polled every 50 ms; "late" if done before the first look). "mode" says
# which: none, threads (hugepage_prezero=) or boot (bench_boot_clear).
sz=${1:?usage: atboot-time.sh SIZE_KB}
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
at() { dmesg | sed -n "s/^\[ *\([0-9.]*\)\] $1.*/\1/p" | head -n 1; }
alloc_ms=$(dmesg | sed -n 's/.*HugeTLB: allocation took \([0-9]*\)ms.*/\1/p' | head -n 1)
init_s=$(at "Run .* as init process")
# 6.12 neither times its boot allocation job nor has the bench knob.
if [ -z "$alloc_ms" ]; then
	echo "# no \"HugeTLB: allocation took\" line: this kernel does not time its boot allocation"
	exit 4
fi
[ -n "$init_s" ] || { echo "# no \"Run /init\" line in the kernel log"; exit 1; }
mode=none zeroed_s=null late=false
if grep -qw 'hugetlb.bench_boot_clear=1' /proc/cmdline; then
	mode=boot
	zeroed_s=$init_s
elif grep -q 'hugepage_prezero=' /proc/cmdline; then
	mode=threads
	wait_zeroed "$d" free 300 0.05 || exit 1
	[ "$waited" = 0 ] && late=true
	zeroed_s=$(cut -d' ' -f1 /proc/uptime)
fi
echo "bench: {\"bench\":\"atboot\",\"mode\":\"$mode\",\"size_kb\":$sz,\"cpus\":$(grep -c ^processor /proc/cpuinfo),\"pages\":$(cat "$d/free_hugepages"),\"alloc_ms\":$alloc_ms,\"init_s\":$init_s,\"zeroed_s\":$zeroed_s,\"late\":$late}"
