#!/bin/sh
# base-tree.sh: make build/BASE/linux-base, the unpatched base, a detached
# worktree of build/BASE/linux at tag "base", or put it back at that tag;
# refuses a directory that is anything else.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

base=$BUILD/linux-base
git -C "$TREE" rev-parse -q --verify 'base^{commit}' >/dev/null ||
	die "$TREE has no tag base: run 'make tree'"
want=$(git -C "$TREE" rev-parse 'base^{commit}')
if [ ! -e "$base/.git" ]; then
	[ ! -e "$base" ] || [ -z "$(ls -A "$base")" ] ||
		die "$base exists and is not a worktree of $TREE: remove it"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$base" base
else
	head=$(git -C "$base" rev-parse HEAD 2>/dev/null) ||
		die "$base is a stale worktree: remove it and run again"
	if [ "$head" != "$want" ]; then
		git -C "$base" checkout -q --detach "$want" ||
			die "cannot put $base at tag base (local changes?)"
	fi
fi
