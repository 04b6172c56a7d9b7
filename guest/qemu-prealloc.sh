#!/bin/sh
# qemu-prealloc.sh SIZE_KB PAGES memfd|file THREADS [NODE]: start QEMU (TCG,
# "pc" machine, paused with -S) whose guest RAM is PAGES huge pages of
# SIZE_KB from a memfd (hugetlb=on) or a file on hugetlbfs, preallocated by
# THREADS threads, from a pool whose pages were all dirtied and then zeroed
# by the threads: PAGES pages, or with NODE, PAGES pages on every node and
# the backend bound to NODE (host-nodes=NODE,policy=bind), as for a
# NUMA-pinned VM. QEMU must be ready with PAGES pages taken from the pool
# (all from NODE's), every one a prezero hit and none a miss, and the first
# and last 64 bytes of every page, read through QEMU's monitor (xp), must
# be zero.
sz=$1 pages=$2 backend=$3 threads=$4 node=${5:-}
dir=$(dirname "$0")
# shellcheck source=guest/guest-lib.sh
. "$dir/guest-lib.sh"
h=/sys/kernel/mm/hugepages/hugepages-${sz}kB
mb=$((sz * pages / 1024))
want=$("$dir/prezeroed-pool.sh" "$sz" "$pages" ${node:+"$node"}) || exit $?
bind=
[ -z "$node" ] || bind=",host-nodes=$node,policy=bind"
case $backend in
memfd)
	obj=memory-backend-memfd,id=m,size=${mb}M,hugetlb=on,hugetlbsize=${sz}K ;;
file)
	mnt=$(hugetlbfs_mount "$sz") || exit 1
	obj=memory-backend-file,id=m,size=${mb}M,mem-path=$mnt,share=on ;;
*)
	echo "# unknown backend $backend"
	exit 1 ;;
esac
set --
i=0
while [ "$i" -lt "$pages" ]; do
	set -- "$@" -x "xp /8gx $((i * sz * 1024))" -x "xp /8gx $(((i + 1) * sz * 1024 - 64))"
	i=$((i + 1))
done
out=$(/bench/qemu_start -l "$backend-${sz}kB-$threads${node:+-node$node}" -S "$sz" "$@" -- \
	qemu-system-x86_64 -machine pc,memory-backend=m -nodefaults -S -display none \
	-m "${mb}M" -object "$obj,prealloc=on,prealloc-threads=$threads$bind")
rc=$?
echo "# $out"
[ "$rc" = 0 ] || exit 1
val() { echo "$out" | sed -n "s/.*\"$1\":\([0-9-]*\).*/\1/p"; }
nodes() { echo "$out" | sed -n 's/.*"node_pages_used":"\([^"]*\)".*/\1/p'; }
ok=1
[ "$(val pages_used)" = "$pages" ] || { echo "# QEMU took $(val pages_used) pages of the pool, not $pages"; ok=; }
if [ -n "$node" ]; then
	for u in $(nodes | tr , ' '); do
		exp=0
		[ "${u%%:*}" != "$node" ] || exp=$pages
		[ "${u#*:}" = "$exp" ] || { echo "# QEMU took ${u#*:} pages of node ${u%%:*}, not $exp"; ok=; }
	done
fi
[ "$(val prezero_hit)" = "$pages" ] || { echo "# $(val prezero_hit) prezero hits, not $pages"; ok=; }
[ "$(val prezero_miss)" = 0 ] || { echo "# $(val prezero_miss) prezero misses"; ok=; }
[ "$(val words_read)" = $((pages * 16)) ] || { echo "# read $(val words_read) words, not $((pages * 16))"; ok=; }
[ "$(val words_nonzero)" = 0 ] || { echo "# $(val words_nonzero) non-zero words"; ok=; }
[ "$(cat "$h/free_hugepages")" = "$want" ] || { echo "# $(cat "$h/free_hugepages") of $want pages free after QEMU quit"; ok=; }
echo 0 > "$h/zeroed_reserve"
[ -n "$ok" ]
