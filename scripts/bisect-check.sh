#!/bin/sh
# Build the debug kernel after each patch of the series in turn
# (incremental, in build/obj-bisect), and fail on a build error or on a
# compiler warning in a file the series touches.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

head=$(git -C "$TREE" symbolic-ref -q --short HEAD || git -C "$TREE" rev-parse HEAD)
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes"
rc=0
for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
	git -C "$TREE" checkout -q "$c"
	subject=$(git -C "$TREE" log -1 --format=%s)
	if ! "$ROOT/scripts/build-kernel.sh" debug "$TREE" "$BUILD/obj-bisect" >/dev/null 2>&1; then
		say "FAIL  $subject: does not build (build/logs/build-debug.log)"
		rc=1
		break
	fi
	files=$(git -C "$TREE" diff --name-only base "$c" -- '*.c' '*.h' | paste -sd'|' -)
	if [ -n "$files" ] && grep -E "$files" "$BUILD/obj-bisect/warnings.txt" 2>/dev/null; then
		say "FAIL  $subject: warnings in touched files"
		rc=1
	else
		say "PASS  $subject"
	fi
done
git -C "$TREE" checkout -q "$head"
exit "$rc"
