#!/bin/sh
# Build the debug kernel after each patch of the series in turn
# (incremental, in build/BASE/obj-bisect), and fail on a build error, on a
# compiler warning in a file the series touches, or on a W=1 or sparse
# warning that the base does not have in the objects the patch touches
# (config-matrix.sh with the debug configuration; logs in
# build/BASE/logs/bisect-matrix-N.log).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

head=$(git -C "$TREE" symbolic-ref -q --short HEAD || git -C "$TREE" rev-parse HEAD)
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes"
rc=0
n=0
for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
	n=$((n + 1))
	git -C "$TREE" checkout -q "$c"
	subject=$(git -C "$TREE" log -1 --format=%s)
	if ! "$ROOT/scripts/build/build-kernel.sh" debug "$TREE" "$BUILD/obj-bisect" >/dev/null 2>&1; then
		say "FAIL  $subject: does not build (${LOGS#"$ROOT"/}/build-obj-bisect.log)"
		rc=1
		break
	fi
	files=$(git -C "$TREE" diff --name-only base "$c" -- '*.c' '*.h' | paste -sd'|' -)
	if [ -n "$files" ] && grep -E "$files" "$BUILD/obj-bisect/warnings.txt" 2>/dev/null; then
		say "FAIL  $subject: warnings in touched files"
		rc=1
		continue
	fi
	# W=1 and sparse against the base: the objects of the C and assembly
	# files this patch changes, or all of the series' objects (OBJS empty:
	# config-matrix.sh's own list) when it changes a header.
	objs=$(git -C "$TREE" diff --name-only --diff-filter=d "$c^" "$c" -- \
		'mm/*.c' 'mm/*.S' 'fs/*.c' 'fs/*.S' 'arch/x86/*.c' 'arch/x86/*.S' |
		sed 's/\.[cS]$/.o/' | tr '\n' ' ')
	if git -C "$TREE" diff --name-only "$c^" "$c" -- \
		'include/*.h' 'mm/*.h' 'fs/*.h' 'arch/x86/*.h' | grep -q .; then
		objs=
	elif [ -z "$objs" ]; then
		say "PASS  $subject (no kernel objects to check with W=1)"
		continue
	fi
	mlog=$LOGS/bisect-matrix-$n.log
	if ! OBJS=$objs CONFIGS=debug "$ROOT/scripts/series/config-matrix.sh" >"$mlog" 2>&1; then
		say "FAIL  $subject: new W=1/sparse warnings or kernel-doc output (${mlog#"$ROOT"/}):"
		grep -v '^\[time\]' "$mlog" | sed 's/^/      /'
		rc=1
	else
		say "PASS  $subject"
	fi
done
git -C "$TREE" checkout -q "$head"
exit "$rc"
