#!/bin/sh
# check-image-programs.sh ROOTFS: every program that a guest plan or a
# guest check calls (./NAME from the selftests' directory, /bench/NAME) is
# in the image tree ROOTFS. A program that the harness builds (guest/NAME,
# tests/progs/NAME.c, bench/NAME.c) must be there. A selftest must be there
# too, unless the work tree has no source of that name: the plans call
# some selftests by the names of the other base, behind an [ -x ] test.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

root=${1:?usage: check-image-programs.sh ROOTFS}
mm=$TREE/tools/testing/selftests/mm
missing=
calls=$(cat "$ROOT"/guest/plans/* "$ROOT"/guest/*.sh | grep -v '^[[:space:]]*#' |
	grep -oE '(^|[^A-Za-z0-9_./-])(\./|/bench/)[A-Za-z0-9_][A-Za-z0-9_.-]*' |
	sed 's/^[^./]*//' | sort -u)
for c in $calls; do
	name=${c##*/}
	case $c in
	/bench/*) [ -x "$root/bench/$name" ] || missing="$missing $c" ;;
	*)
		[ -x "$root/selftests/$name" ] && continue
		if [ -e "$ROOT/guest/$name" ] || [ -e "$ROOT/tests/progs/$name.c" ] ||
			[ -e "$mm/$name.c" ] || [ -e "$mm/$name" ]; then
			missing="$missing $c"
		fi ;;
	esac
done
[ -z "$missing" ] || die "the guest plans call programs the image does not hold:$missing"
say "image: every program the guest plans call is in it ($(printf '%s\n' "$calls" | grep -c .) names)"
