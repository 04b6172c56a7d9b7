#!/bin/sh
# check-warned-items.sh: every warning of the kernel about hugepage_prezero=
# (its lines "hugetlb_prezero: ...hugepage_prezero=...") is one of two, and
# is right:
#   "ignoring invalid hugepage_prezero= item 'ITEM'" names an item of the
#   last hugepage_prezero= of the command line (the only one that counts)
#   as it was given ('' for an empty one), and no item is warned about more
#   often than it stands there;
#   "hugepage_prezero= given more than once, using the last" comes once if
#   the command line has more than one hugepage_prezero=, and never if not.
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
set -f
rc=0
# Items as <ITEM>, one a line, so that an empty one shows.
items=$(params hugepage_prezero | tail -n 1 |
	awk '{ n = split($0, a, ","); if (!n) print "<>"; for (i = 1; i <= n; i++) print "<" a[i] ">" }')
log=$(dmesg | sed -n 's/.*hugetlb_prezero: \(.*hugepage_prezero=.*\)/\1/p')
printf '%s\n' "$log" | grep . | sed 's/^/# kernel: /'
warned=$(printf '%s\n' "$log" | sed -n "s/^ignoring invalid hugepage_prezero= item '\(.*\)'\$/<\1>/p")
other=$(printf '%s\n' "$log" | grep . |
	grep -v "^ignoring invalid hugepage_prezero= item '.*'\$" |
	grep -vx "hugepage_prezero= given more than once, using the last")
if [ -n "$other" ]; then
	printf '%s\n' "$other" | sed 's/^/# not a warning this kernel should give: /'
	rc=1
fi
for w in $(printf '%s\n' "$warned" | grep . | sort -u); do
	got=$(printf '%s\n' "$warned" | grep -cxF -e "$w")
	have=$(printf '%s\n' "$items" | grep -cxF -e "$w")
	q=$(printf '%s\n' "$w" | sed "s/^<\(.*\)>\$/'\1'/")
	if [ "$have" = 0 ]; then
		echo "# a warning names $q, not an item of the last hugepage_prezero="
		rc=1
	elif [ "$got" -gt "$have" ]; then
		echo "# $got warnings name $q, an item the last hugepage_prezero= has $have of"
		rc=1
	fi
done
given=$(params hugepage_prezero | wc -l)
dup=$(printf '%s\n' "$log" | grep -cx "hugepage_prezero= given more than once, using the last")
want=0
[ "$given" -le 1 ] || want=1
echo "# hugepage_prezero= on the command line: $given; warnings that it was given more than once: $dup (expected $want)"
[ "$dup" = "$want" ] || rc=1
echo "# $(printf '%s\n' "$warned" | grep -c .) warnings about invalid items"
exit $rc
