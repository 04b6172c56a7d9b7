#!/bin/sh
# check-warned-items.sh: every "invalid hugepage_prezero= item '...'"
# warning names an item of a hugepage_prezero= of the command line whole,
# as it was given.
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
items=$(params hugepage_prezero | tr , '\n')
rc=0
n=0
for w in $(dmesg | sed -n "s/.*invalid hugepage_prezero= item '\([^']*\)': .*/\1/p" | sed 's/^$/<empty>/'); do
	n=$((n + 1))
	[ "$w" = '<empty>' ] && w=
	if ! printf '%s\n' "$items" | grep -qxF -e "$w"; then
		echo "# a warning names '$w', not an item of the command line"
		rc=1
	fi
done
echo "# $n warnings about invalid items, each naming an item"
exit $rc
