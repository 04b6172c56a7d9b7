#!/bin/sh
# check-all.sh PLANFILE: everything "make check" does, in order, with the
# time of each stage: the guest image and the programs in it, the debug
# kernel (and any other flavour the plan names), then every boot of the
# plan.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

planfile=${1:?usage: check-all.sh PLANFILE}
start=$(now)
rm -f "$LOGS/summary.txt"
if [ -n "$(git -C "$TREE" rev-list base..HEAD 2>/dev/null)" ] || [ -s "$PATCHES/series" ]; then
	tree_n=$(git -C "$TREE" rev-list --count base..HEAD)
	series_n=$(grep -c . "$PATCHES/series" || true)
	[ "$tree_n" = "$series_n" ] ||
		say "note: $TREE has $tree_n commits, $PATCHES_DIR/series $series_n: testing it as it is"
fi
# The flavours of the boots that ONLY= picks (all by default), or the one
# BOOT_FLAVOUR names.
flavours=$(grep -v '^#' "$planfile" | while read -r name flavour _; do
	[ -n "$name" ] && picked "$name" && echo "${BOOT_FLAVOUR:-$flavour}"
done | sort -u)
"$ROOT/scripts/build-userspace.sh"
for f in $flavours; do
	"$ROOT/scripts/build-kernel.sh" "$f"
done
rc=0
"$ROOT/scripts/check.sh" "$planfile" || rc=$?
stage_done "all of $(basename "$planfile")" "$start"
# The summary line comes last, for CI.
[ -f "$LOGS/summary.txt" ] && cat "$LOGS/summary.txt"
exit "$rc"
