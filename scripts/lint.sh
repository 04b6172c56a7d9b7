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
ignore=$(grep -v '^#' "$ROOT/tests/checkpatch-ignore" | awk 'NF {print $1}' | paste -sd, -)
for p in $(grep -v '^#' "$ROOT/patches/series"); do
	out=$("$TREE/scripts/checkpatch.pl" --strict --quiet --no-summary \
		${ignore:+--ignore "$ignore"} "$ROOT/patches/$p" 2>&1) || true
	if [ -n "$out" ]; then
		say "$p:"
		say "$out"
		rc=1
	else
		say "$p: clean"
	fi
done
exit "$rc"
