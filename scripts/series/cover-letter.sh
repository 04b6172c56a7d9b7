#!/bin/sh
# cover-letter.sh [BODY]: write the base's 0000-cover-letter.patch from
# the work tree's commits (subject count, shortlog, diffstat) and the text
# in BODY (default docs/cover-letter-$BASE.txt), with a fixed date so that
# the file only changes when they do.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

body=${1:-$ROOT/docs/cover-letter-$BASE.txt}
[ -f "$body" ] || die "no cover letter text $body"
out=$BUILD/cover.tmp
rm -rf "$out"
git -C "$TREE" format-patch -q --cover-letter --zero-commit --no-signature \
	-o "$out" base..HEAD
n=$(git -C "$TREE" rev-list --count base..HEAD)
# A backport's subject names its base, as stable backports do.
prefix=PATCH
[ "$BASE" = "$DEFAULT_BASE" ] || prefix="PATCH $BASE"
awk -v body="$body" -v n="$n" -v prefix="$prefix" '
	/^Date: / { print "Date: Mon, 30 Nov 2026 00:00:00 +0000"; next }
	/^Subject: / { print "Subject: [" prefix " 0/" n "] mm/hugetlb: pre-zero free hugetlb pages in the background"; next }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < body) > 0) print l; next }
	{ print }
' "$out/0000-cover-letter.patch" > "$PATCHES/0000-cover-letter.patch"
rm -rf "$out"
say "cover letter: $PATCHES_DIR/0000-cover-letter.patch ($n patches)"
