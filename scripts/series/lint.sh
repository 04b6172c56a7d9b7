#!/bin/sh
# Lint: shellcheck over the harness, the unit tests of the result stream's
# reader (tests/report), the cover letters' figures and their 0000 patches
# (scripts/series/letters.py and its unit tests, tests/letters: what
# "make letters" runs), checkpatch --strict over every patch
# (except the checks listed in tests/checkpatch-ignore, each with a reason).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

rc=0
say "== shellcheck"
shellcheck -x "$ROOT"/scripts/*.sh "$ROOT"/scripts/*/*.sh "$ROOT"/.ci/run "$ROOT"/guest/init \
	"$ROOT"/guest/*.sh "$ROOT"/guest/bin/* || rc=1
shellcheck -s sh -e SC2154 "$ROOT"/guest/plans/* || rc=1
say "== the result stream's reader"
python3 -m unittest discover -s "$ROOT/tests/report" || rc=1
say "== the cover letters"
python3 "$ROOT/scripts/series/letters.py" || rc=1
python3 -m unittest discover -s "$ROOT/tests/letters" || rc=1
say "== checkpatch --strict"
series_files > /dev/null
for p in $(series_files); do
	checkpatch "$(basename "$p")" "$p" || rc=1
done
exit "$rc"
