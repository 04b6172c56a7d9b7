#!/bin/sh
# libvirt-prealloc.sh SIZE_KB PAGES file|memfd [NODE]: start a VM through
# libvirt (virsh and its embedded QEMU driver, no daemon) from the domain
# XML of the operator guide (docs/OPERATOR.md): PAGES huge pages of
# SIZE_KB as guest RAM, <memoryBacking> with <hugepages>, <source
# type='memfd'/> for memfd, and <allocation mode='immediate'
# threads='2'/>; with NODE, PAGES pages on every node and <numatune>
# strict on NODE. The pool is pre-zeroed first (prezeroed-pool.sh).
# libvirt must have asked QEMU for the backend with prealloc and 2 threads
# (bound to NODE); the paused VM must hold PAGES pages of the pool (all of
# NODE's), every one a prezero hit and none a miss, and the first and last
# 64 bytes of every page, read through the monitor (virsh
# qemu-monitor-command --hmp xp), must be zero.
sz=$1 pages=$2 backend=$3 node=${4:-}
dir=$(dirname "$0")
# shellcheck source=guest/guest-lib.sh
. "$dir/guest-lib.sh"
h=/sys/kernel/mm/hugepages/hugepages-${sz}kB
name=prezero-$backend-${sz}kB${node:+-node$node}
lv=/tmp/libvirt
xml=$lv/$name.xml
in=$lv/$name.in
out=$lv/$name.out
log=$lv/root/log/qemu/$name.log
want=$("$dir/prezeroed-pool.sh" "$sz" "$pages" ${node:+"$node"}) || exit $?
# A hugetlbfs mount of that page size, for libvirt's file backend.
hugetlbfs_mount "$sz" > /dev/null || exit 1
mkdir -p "$lv/root/etc"
# The embedded driver runs QEMU as root, and its output to a file (there
# is no virtlogd).
printf 'user = "root"\ngroup = "root"\nstdio_handler = "file"\n' > "$lv/root/etc/qemu.conf"
src=
[ "$backend" = memfd ] && src="<source type='memfd'/>"
tune=
[ -z "$node" ] || tune="<numatune><memory mode='strict' nodeset='$node'/></numatune>"
cat > "$xml" <<XML
<domain type='qemu'>
  <name>$name</name>
  <memory unit='KiB'>$((sz * pages))</memory>
  <memoryBacking>
    <hugepages><page size='$sz' unit='KiB'/></hugepages>
    $src
    <allocation mode='immediate' threads='2'/>
  </memoryBacking>
  <vcpu>1</vcpu>
  $tune
  <os><type arch='x86_64' machine='pc'>hvm</type></os>
  <devices><emulator>/usr/bin/qemu-system-x86_64</emulator></devices>
</domain>
XML

# node_free: the free pages of that size on every node, "N:FREE,...".
node_free() {
	for n in /sys/devices/system/node/node[0-9]*; do
		printf '%s:%s,' "${n##*node}" "$(cat "$n/hugepages/hugepages-${sz}kB/free_hugepages")"
	done
}
free0=$(cat "$h/free_hugepages")
nodes0=$(node_free)
hit0=$(vmstat_get htlb_prezero_hit)
miss0=$(vmstat_get htlb_prezero_miss)
# The VM lives as long as this one virsh: commands go in through a FIFO.
rm -f "$in" "$out" "$log"
mkfifo "$in"
virsh -q -c "qemu:///embed?root=$lv/root" < "$in" > "$out" 2>&1 &
vpid=$!
exec 3> "$in"
echo "domxml-to-native qemu-argv $xml" >&3
echo "define $xml" >&3
echo "start $name --paused" >&3
echo "domstate $name" >&3
# settled: virsh said that the VM is paused, or an error.
settled() { grep -q '^paused' "$out" || grep -q '^error:' "$out"; }
wait_until 120 0.1 settled
i=$waited
ok=1
if grep -q '^paused' "$out"; then
	free1=$(cat "$h/free_hugepages")
	nodes1=$(node_free)
	j=0
	while [ "$j" -lt "$pages" ]; do
		echo "qemu-monitor-command $name --hmp 'xp /8gx $((j * sz * 1024))'" >&3
		echo "qemu-monitor-command $name --hmp 'xp /8gx $(((j + 1) * sz * 1024 - 64))'" >&3
		j=$((j + 1))
	done
else
	echo "# the VM was not paused after $((i / 10)) s"
	ok=
fi
echo "destroy $name" >&3
echo "undefine $name" >&3
exec 3>&-
wait "$vpid"
grep '^error:' "$out" | sed 's/^/# virsh: /'
grep -q '^error:' "$out" && ok=
[ -n "$ok" ] || { sed 's/^/# /' "$out" | tail -20; exit 1; }
echo "# started in $((i / 10)).$((i % 10)) s"

# What libvirt asked QEMU for: the backend of the command line it ran QEMU
# with, and of the one domxml-to-native prints.
type=memory-backend-file
[ "$backend" = memfd ] && type=memory-backend-memfd
for f in "$log" "$out"; do
	line=$(grep -o "{\"qom-type\":\"$type\"[^}]*}" "$f" | head -1)
	echo "# libvirt ($f): $line"
	[ -n "$line" ] || { echo "# no $type in $f"; ok=; }
	for arg in '"prealloc":true' '"prealloc-threads":2' \
		${node:+"\"host-nodes\":[$node]"} ${node:+'"policy":"bind"'}; do
		case $line in
		*"$arg"*) ;;
		*) echo "# no $arg in the backend of $f"; ok= ;;
		esac
	done
done
[ "$((free0 - free1))" = "$pages" ] || { echo "# the VM took $((free0 - free1)) pages of the pool, not $pages"; ok=; }
if [ -n "$node" ]; then
	for u in $(echo "$nodes0" | tr , ' '); do
		n=${u%%:*}
		now=$(echo "$nodes1" | tr , '\n' | sed -n "s/^$n://p")
		exp=0
		[ "$n" != "$node" ] || exp=$pages
		[ "$((${u#*:} - now))" = "$exp" ] || { echo "# the VM took $((${u#*:} - now)) pages of node $n, not $exp"; ok=; }
	done
fi
hits=$(($(vmstat_get htlb_prezero_hit) - hit0))
misses=$(($(vmstat_get htlb_prezero_miss) - miss0))
[ "$hits" = "$pages" ] || { echo "# $hits prezero hits, not $pages"; ok=; }
[ "$misses" = 0 ] || { echo "# $misses prezero misses"; ok=; }
words=$(grep -Eo '0x[0-9a-f]{16}' "$out" | wc -l)
nonzero=$(grep -Eo '0x[0-9a-f]{16}' "$out" | grep -vc '^0x0000000000000000$')
[ "$words" = $((pages * 16)) ] || { echo "# read $words words, not $((pages * 16))"; ok=; }
[ "$nonzero" = 0 ] || { echo "# $nonzero non-zero words"; ok=; }
[ "$(cat "$h/free_hugepages")" = "$want" ] || { echo "# $(cat "$h/free_hugepages") of $want pages free after the VM quit"; ok=; }
echo "# $pages pages, $hits hits, $misses misses, $words words read, $nonzero non-zero"
echo 0 > "$h/zeroed_reserve"
[ -n "$ok" ]
