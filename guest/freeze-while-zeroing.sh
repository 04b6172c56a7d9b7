#!/bin/sh
# freeze-while-zeroing.sh LEVEL QUARTERS: set the 2 MiB reserve to max,
# make every free 2 MiB page dirty (the threads zero them again as they are
# freed), wait until QUARTERS/4 of the pages are zeroed, and suspend to
# idle with pm_test=LEVEL (freezer: freeze every freezable task, wait
# pm_test_delay seconds, thaw; devices: suspend and resume the devices too)
# while the threads still zero. The suspend must succeed.
# Prints, and leaves in /tmp/freeze-while-zeroing as "ZEROED FREE", how
# many pages were zeroed when the suspend began.
d=/sys/kernel/mm/hugepages/hugepages-2048kB
dir=$(dirname "$0")
# shellcheck source=guest/guest-lib.sh
. "$dir/guest-lib.sh"
# The threads run while a reserve is set: the pool is dirtied under them.
echo max > "$d/zeroed_reserve" || exit 1
"$dir/dirty-free-pages.sh" 2048 || exit 1
read -r free < "$d/free_hugepages"
want=$((free * $2 / 4))
echo "$1" > /sys/power/pm_test || exit 1
# No pause and no fork between two looks at the counter.
wait_zeroed "$d" "$want" 0 0 || exit 1
zeroed=$zeroed_seen
start=$(date +%s)
rc=0
echo freeze > /sys/power/state || rc=1
secs=$(( $(date +%s) - start ))
echo none > /sys/power/pm_test
echo "$zeroed $free" > /tmp/freeze-while-zeroing
echo "# pm_test=$1 began with $zeroed of $free free pages zeroed; exit $rc after ${secs}s"
exit $rc
