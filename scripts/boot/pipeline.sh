#!/bin/sh
# pipeline.sh LIST: boot a boot list (tests/boots/LIST) from scratch, with
# the time of each stage: the guest image and every program in it (the
# same for every list: scripts/build/build-userspace.sh), each kernel the
# picked boots name (the KERNEL column: FLAVOUR, or SOURCE/FLAVOUR with
# SOURCE base, knobs or stable, see scripts/build/worktree.sh), then the
# boots (scripts/boot/run-boots.sh); the summary line comes last. Exit 1
# if a boot failed.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

list=${1:?usage: pipeline.sh LIST}
[ -f "$list" ] || list=$ROOT/tests/boots/$list
start=$(now)
rm -f "$LOGS/summary.txt"
if [ -n "$(git -C "$TREE" rev-list base..HEAD 2>/dev/null)" ] || [ -s "$PATCHES/series" ]; then
	tree_n=$(git -C "$TREE" rev-list --count base..HEAD)
	series_n=$(series_files | grep -c . || true)
	[ "$tree_n" = "$series_n" ] ||
		say "note: $TREE has $tree_n commits, the series $series_n patches: testing it as it is"
fi
kernels=$(boot_list "$list" | awk '{ print $2 }' | sort -u)
[ -n "$kernels" ] || die "no boot in $list matches ONLY=${ONLY:-}"
# No result of an earlier run may be read as this one's, if a build fails.
mkdir -p "$LOGS"
for b in $(boot_list "$list" | awk '{ print $1 }'); do
	rm -f "$LOGS/$b.tap" "$LOGS/$b.verdict" "$LOGS/$b.console" "$LOGS/$b.qemu"
done

"$ROOT/scripts/build/build-userspace.sh"
for k in $kernels; do
	case $k in
	*/*) src=${k%%/*} flavour=${k#*/} ;;
	*) src=series flavour=$k ;;
	esac
	case $src in
	series) tree=$TREE ;;
	base) tree=$("$ROOT/scripts/build/worktree.sh" base base) ;;
	knobs) tree=$("$ROOT/scripts/build/worktree.sh" knobs HEAD "$ROOT/bench/kernel-patches/$BASE") ;;
	stable) tree=$("$ROOT/scripts/build/worktree.sh" stable base "$ROOT/docs/stable/$BASE") ;;
	*) die "$list: kernel $k: no source $src (base, knobs, stable)" ;;
	esac
	"$ROOT/scripts/build/build-kernel.sh" "$flavour" "$tree" "$(kernel_obj "$k")"
done
rc=0
"$ROOT/scripts/boot/run-boots.sh" "$list" || rc=$?
stage_done "all of $(basename "$list")" "$start"
# The summary line comes last, for CI.
[ ! -f "$LOGS/summary.txt" ] || cat "$LOGS/summary.txt"
exit "$rc"
