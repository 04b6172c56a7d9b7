#!/bin/sh
# cover-letter.sh BODY: write patches/0000-cover-letter.patch from the
# work tree's commits (subject count, shortlog, diffstat) and the text in
# BODY, with a fixed date so that the file only changes when they do.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

body=${1:?usage: cover-letter.sh BODY}
out=$BUILD/cover.tmp
rm -rf "$out"
git -C "$TREE" format-patch -q --cover-letter --zero-commit --no-signature \
	-o "$out" base..HEAD
n=$(git -C "$TREE" rev-list --count base..HEAD)
awk -v body="$body" -v n="$n" '
	/^Date: / { print "Date: Mon, 30 Nov 2026 00:00:00 +0000"; next }
	/^Subject: / { print "Subject: [PATCH 0/" n "] mm/hugetlb: pre-zero free hugetlb pages in the background"; next }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < body) > 0) print l; next }
	{ print }
' "$out/0000-cover-letter.patch" > "$PATCHES/0000-cover-letter.patch"
rm -rf "$out"
say "cover letter: $PATCHES_DIR/0000-cover-letter.patch ($n patches)"
