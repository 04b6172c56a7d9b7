#!/bin/sh
# node-memory.sh NODE STATE: set every memory block of NUMA node NODE to
# STATE (online_movable, online_kernel, online or offline), block by block.
# A block that refuses (offlining migrates and dissolves pages, and gives
# up with EBUSY or EAGAIN when it cannot) is tried again, up to 30 times a
# second apart. Exit 1 if a block does not get there, or if the node is not
# then listed in has_memory (all blocks online) or is (all offline).
node=/sys/devices/system/node/node$1
want=$2
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
case $want in
online*) final=online ;;
*) final=offline ;;
esac
rc=0
blocks=0
for m in "$node"/memory[0-9]*; do
	[ -f "$m/state" ] || continue
	blocks=$((blocks + 1))
	[ "$(cat "$m/state")" = "$final" ] && continue
	tries=1
	while ! err=$( { echo "$want" > "$m/state"; } 2>&1 ); do
		if [ "$tries" -ge 30 ]; then
			echo "# ${m##*/}: still $(cat "$m/state") after $tries tries: $err"
			rc=1
			break
		fi
		tries=$((tries + 1))
		sleep 1
	done
	[ "$tries" = 1 ] || echo "# ${m##*/}: $want took $tries tries (last refusal: $err)"
done
[ "$blocks" -gt 0 ] || { echo "# node$1 has no memory blocks"; exit 1; }
has=$(cat /sys/devices/system/node/has_memory)
echo "# node$1: $blocks memory blocks $final; nodes with memory: $has"
# Is node $1 in the list (such as 0-1,3)?
listed=
expand_list "$has" | grep -qx "$1" && listed=yes
if [ "$final" = online ] && [ -z "$listed" ]; then
	echo "# node$1 is online but has no memory"
	rc=1
elif [ "$final" = offline ] && [ -n "$listed" ]; then
	echo "# node$1 is offline but has memory"
	rc=1
fi
exit $rc
