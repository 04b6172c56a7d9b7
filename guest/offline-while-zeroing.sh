#!/bin/sh
# offline-while-zeroing.sh NODE: set the 2 MiB zeroed_reserve to max, make
# every free 2 MiB page dirty (all on NODE: the other nodes have none, so
# the size's counts are NODE's; its khugezerod thread zeroes them again as
# they are freed), and offline NODE's memory at once, while the thread
# zeroes them:
# offlining dissolves free huge pages, and takes back the one being zeroed.
# Prints, and leaves in /tmp/offline-while-zeroing as "ZEROED FREE STEALS",
# how many pages were zeroed when the offlining began and how many pages
# it took from the thread (htlb_prezero_steal).
g=/sys/kernel/mm/hugepages/hugepages-2048kB
dir=$(dirname "$0")
# shellcheck source=guest/guest-lib.sh
. "$dir/guest-lib.sh"
# The threads run while a reserve is set: the pool is dirtied under them.
echo max > "$g/zeroed_reserve" || exit 1
"$dir/dirty-free-pages.sh" 2048 || exit 1
steal=$(vmstat_get htlb_prezero_steal)
zeroed=$(cat "$g/zeroed_hugepages")
free=$(cat "$g/free_hugepages")
"$dir/node-memory.sh" "$1" offline
rc=$?
steal=$(( $(vmstat_get htlb_prezero_steal) - steal ))
echo "$zeroed $free $steal" > /tmp/offline-while-zeroing
echo "# offlining began with $zeroed of $free free pages zeroed; $steal taken from the thread"
exit $rc
