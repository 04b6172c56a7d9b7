#!/bin/sh
# Test the base's stable fixes (docs/stable/BASE/*.patch) on the base
# alone, without the series: build the base's debug kernel in a worktree
# of the work tree (build/BASE/stable/), boot the hvo-* reproducers of
# guest/plans/base-bugs on it with hugetlb_free_vmemmap=on, then apply the
# fixes, build and boot again. Passes when the unpatched base fails that
# boot (the bugs are there) and the fixed one passes it: every check, and
# no kernel report in its log.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

fixes=$ROOT/docs/stable/$BASE
ls "$fixes"/*.patch >/dev/null 2>&1 || die "no stable fixes for $BASE in docs/stable/$BASE/"
wt=$BUILD/stable/linux
obj=$BUILD/stable/obj
start=$(now)
if [ -d "$wt" ]; then
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach base
else
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base
fi
# The worktree sits where the work tree does relative to its objects, so
# that ccache finds the objects of the files the series does not change.
export CCACHE_BASEDIR="$BUILD" CCACHE_NOHASHDIR=1

boot() {
	KERNEL=$obj/arch/x86/boot/bzImage MEM=6144 TESTS='hvo-*' \
		"$ROOT/scripts/run-vm.sh" "$1" base-bugs hugetlb_free_vmemmap=on
}

"$ROOT/scripts/build-kernel.sh" debug "$wt" "$obj"
unfixed=pass
boot stable-unfixed || unfixed=fail
git -C "$wt" am -q "$fixes"/*.patch
"$ROOT/scripts/build-kernel.sh" debug "$wt" "$obj"
fixed=pass
boot stable-fixed || fixed=fail
git -C "$wt" checkout -q -f --detach base

say "reproducers on the base alone: $unfixed (must fail); with docs/stable/$BASE: $fixed (must pass)"
stage_done stable-check "$start"
[ "$unfixed" = fail ] && [ "$fixed" = pass ]
