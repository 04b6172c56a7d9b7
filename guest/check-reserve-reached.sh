#!/bin/sh
# check-reserve-reached.sh SIZE_KB [SECS]: the zeroed free pages of that
# size come to what its zeroed_reserve asks, and go no further. Every node
# with memory keeps min(COUNT, its free pages) of its own free pages
# zeroed ("max": all of them), so zeroed_hugepages must reach the sum of
# those over the nodes (within SECS, default 300) and then stay there for
# 2 s. The caller makes sure that no node had more pages zeroed than that
# when the reserve was set (a dirty pool, or a reserve only ever raised)
# and that the pool does not change meanwhile.
sz=${1:?usage: check-reserve-reached.sh SIZE_KB [SECS]}
d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
r=$(cat "$d/zeroed_reserve") || exit 1
want=0
per=
for n in $(mem_nodes); do
	f=$(cat "/sys/devices/system/node/node$n/hugepages/hugepages-${sz}kB/free_hugepages") || exit 1
	per="$per node$n $f"
	if [ "$r" = max ] || [ "$f" -lt "$r" ]; then
		want=$((want + f))
	else
		want=$((want + r))
	fi
done
echo "# ${sz}kB: zeroed_reserve $r; free pages:$per; expected zeroed $want"
wait_zeroed "$d" "$want" "${2:-300}" || exit 1
i=0
while [ "$i" -lt 20 ]; do
	read -r z < "$d/zeroed_hugepages" || exit 1
	[ "$z" = "$want" ] || { echo "# ${sz}kB: $z zeroed after it had reached $want"; exit 1; }
	sleep 0.1
	i=$((i + 1))
done
echo "# ${sz}kB: $want zeroed after ${waited} s, still $want 2 s later"
