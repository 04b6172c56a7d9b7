#!/bin/sh
# Lint: shellcheck over the harness, checkpatch --strict over every patch
# (except the checks listed in tests/checkpatch-ignore, each with a reason).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

rc=0
say "== shellcheck"
shellcheck -x "$ROOT"/scripts/*.sh "$ROOT"/.ci/run "$ROOT"/guest/init \
	"$ROOT"/guest/*.sh "$ROOT"/guest/bin/* || rc=1
shellcheck -s sh -e SC2154 "$ROOT"/guest/plans/* || rc=1
say "== checkpatch --strict"
for p in $(grep -v '^#' "$PATCHES/series"); do
	# Types accepted for this patch, with the reasons, in tests/checkpatch-ignore.
	ignore=$(grep -v '^#' "$ROOT/tests/checkpatch-ignore" | while read -r glob type _; do
		# shellcheck disable=SC2254
		case $p in $glob) printf '%s,' "$type" ;; esac
	done)
	# spdxcheck.py needs the python3 that has Debian's python3-ply.
	out=$(cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --no-summary \
		--ignore "$ignore" "$PATCHES/$p" 2>&1) || true
	if [ -n "$out" ]; then
		say "$p:"
		say "$out"
		rc=1
	else
		say "$p: clean"
	fi
done
exit "$rc"
