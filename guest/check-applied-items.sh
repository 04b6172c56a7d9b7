#!/bin/sh
# check-applied-items.sh SIZE_KB:VALUE[/VALUE...][,...]: the kernel logs
# "hugetlb_prezero: hugepages-SIZE_KBkB: zeroed_reserve=VALUE" for every
# hugepage_prezero= item it applies, once for each size the item sets (an
# item without a size: every size). Those lines must give, for each size
# named, exactly its VALUEs in this order, and name no other size.
rc=0
applied=$(dmesg | sed -n 's/.*hugetlb_prezero: hugepages-\([0-9]*\)kB: zeroed_reserve=\([^ ]*\)$/\1 \2/p')
printf '%s\n' "$applied" | grep . | sed 's/^/# applied: /'
left=$(printf '%s\n' "$applied" | awk 'NF { print $1 }' | sort -u)
for e in $(echo "${1-}" | tr , ' '); do
	sz=${e%%:*}
	want=${e#*:}
	got=$(printf '%s\n' "$applied" | awk -v s="$sz" '$1 == s { printf "%s%s", sep, $2; sep = "/" }')
	echo "# hugepages-${sz}kB: applied ${got:-nothing} (expected $want)"
	[ "$got" = "$want" ] || rc=1
	left=$(printf '%s\n' "$left" | grep -vx "$sz")
done
for sz in $left; do
	echo "# hugepages-${sz}kB: applied, but no value was expected"
	rc=1
done
exit $rc
