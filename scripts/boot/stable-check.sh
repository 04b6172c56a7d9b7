#!/bin/sh
# make stable-check: the base's stable fixes (docs/stable/BASE/*.patch) on
# the base alone, without the series: boot the list tests/boots/stable,
# the hvo-* reproducers of guest/plans/base-bugs with
# hugetlb_free_vmemmap=on on the base's debug kernel and on the base with
# the fixes. Passes when the unpatched base fails its boot (the bugs are
# there) and the fixed one passes it: every check, and no kernel report in
# its log.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# Its boots compare kernels built alike: no flavour overrides one side.
unset BOOT_FLAVOUR

ls "$ROOT/docs/stable/$BASE"/*.patch >/dev/null 2>&1 ||
	die "no stable fixes for $BASE in docs/stable/$BASE/"
start=$(now)
"$ROOT/scripts/boot/pipeline.sh" stable || :
# Each boot's own verdict.
verdict() {
	if python3 "$ROOT/scripts/report/summarize.py" "$LOGS" "$BASE" "$1" >/dev/null; then
		echo pass
	else
		echo fail
	fi
}
unfixed=$(verdict stable-unfixed)
fixed=$(verdict stable-fixed)
say "reproducers on the base alone: $unfixed (must fail); with docs/stable/$BASE: $fixed (must pass)"
stage_done stable-check "$start"
[ "$unfixed" = fail ] && [ "$fixed" = pass ]
