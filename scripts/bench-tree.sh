#!/bin/sh
# bench-tree.sh: make build/BASE/linux-bench, a detached worktree of
# build/BASE/linux at its HEAD with the bench-only kernel patches of
# bench/kernel-patches/BASE/ applied on top (knobs that benchmarks turn and
# the series must not have), or bring it up to date. Prints its path.
# Refuses a directory that is anything else.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

wt=$BUILD/linux-bench
head=$(git -C "$TREE" rev-parse -q --verify 'HEAD^{commit}') ||
	die "$TREE has no commits: run 'make tree'"
if [ ! -e "$wt/.git" ]; then
	[ ! -e "$wt" ] || [ -z "$(ls -A "$wt")" ] ||
		die "$wt exists and is not a worktree of $TREE: remove it"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" "$head" >&2
else
	git -C "$wt" rev-parse -q --verify HEAD >/dev/null ||
		die "$wt is a stale worktree: remove it and run again"
	git -C "$wt" checkout -q --detach "$head" ||
		die "cannot put $wt at $TREE's HEAD (local changes?)"
fi
for p in "$ROOT/bench/kernel-patches/$BASE"/*.patch; do
	[ -f "$p" ] || continue
	git -C "$wt" am -q --committer-date-is-author-date "$p" ||
		die "bench patch ${p#"$ROOT"/} does not apply to $TREE's HEAD"
done
say "$wt"
