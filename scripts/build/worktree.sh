#!/bin/sh
# worktree.sh NAME REV [PATCHES]: make build/BASE/linux-NAME, a detached
# worktree of the work tree (build/BASE/linux) at REV (a tag or commit of
# it), with the patches of the folder PATCHES applied on top, or put it
# back to that; prints its path. Refuses a directory that is anything else.
# The kernels of the boot lists are built from these: "base" (the tag
# base), "knobs" (the series with bench/kernel-patches/BASE/) and
# "stable" (the base with docs/stable/BASE/). v1 alone, of a base with a
# part 2, has a work tree of its own: SERIES=v1 (lib.sh).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

name=${1:?usage: worktree.sh NAME REV [PATCHES]}
rev=${2:?usage: worktree.sh NAME REV [PATCHES]}
patches=${3:-}
wt=$BUILD/linux-$name
want=$(git -C "$TREE" rev-parse -q --verify "$rev^{commit}") ||
	die "$TREE has no $rev: run 'make tree'"
if [ ! -e "$wt/.git" ]; then
	[ ! -e "$wt" ] || [ -z "$(ls -A "$wt")" ] ||
		die "$wt exists and is not a worktree of $TREE: remove it"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" "$want" >&2
else
	git -C "$wt" rev-parse -q --verify HEAD >/dev/null ||
		die "$wt is a stale worktree: remove it and run again"
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	[ "$(git -C "$wt" rev-parse HEAD)" = "$want" ] ||
		git -C "$wt" checkout -q --detach "$want" ||
		die "cannot put $wt at $rev (local changes?)"
fi
if [ -n "$patches" ]; then
	for p in "$patches"/*.patch; do
		[ -f "$p" ] || continue
		git -C "$wt" am -q --committer-date-is-author-date "$p" >&2 ||
			die "${p#"$ROOT"/} does not apply to $rev"
	done
fi
say "$wt"
