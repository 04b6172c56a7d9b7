#!/bin/sh
# cover-letter.sh: write the base's 0000-cover-letter.patch from the work
# tree's commits (subject count, shortlog, diffstat) and the text of
# docs/cover-letter-BASE.txt, with a fixed date so that the file only
# changes when they do. With a part 2 (the file BASE), v1 ends at
# the branch v1, and part 2's cover letter is written the same way
# from v1..HEAD and docs/cover-letter-part2-BASE.txt. The letter is the
# only text of the body: "make letters" fails when a 0000 file's body is
# not its letter, and "scripts/series/letters.py --write" puts an edited
# letter in without a work tree (shortlog and diffstat kept).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

# A backport's subject names its base, as stable backports do.
prefix=PATCH
[ "$BASE" = "$DEFAULT_BASE" ] || prefix="PATCH $BASE"

# cover RANGE DIR BODY SUBJECT
cover() {
	[ -f "$3" ] || die "no cover letter text $3"
	out=$BUILD/cover.tmp
	rm -rf "$out"
	git -C "$TREE" format-patch -q --cover-letter --zero-commit --no-signature \
		-o "$out" "$1"
	n=$(git -C "$TREE" rev-list --count "$1")
	awk -v body="$3" -v n="$n" -v prefix="$prefix" -v subject="$4" '
		/^Date: / { print "Date: Mon, 30 Nov 2026 00:00:00 +0000"; next }
		/^Subject: / { print "Subject: [" prefix " 0/" n "] " subject; next }
		/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < body) > 0) print l; next }
		{ print }
	' "$out/0000-cover-letter.patch" > "$2/0000-cover-letter.patch"
	rm -rf "$out"
	say "cover letter: ${2#"$ROOT"/}/0000-cover-letter.patch ($n patches)"
}

subject="mm/hugetlb: pre-zero free hugetlb pages in the background"
if [ -z "$PART2" ]; then
	cover base..HEAD "$PATCHES" "$ROOT/docs/cover-letter-$BASE.txt" "$subject"
else
	cover base..v1 "$PATCHES" "$ROOT/docs/cover-letter-$BASE.txt" "$subject"
	cover v1..HEAD "$PART2" "$ROOT/docs/cover-letter-part2-$BASE.txt" \
		"mm/hugetlb: pre-zeroing, part 2: stats, workers, zeroed_fill, non-temporal clearing"
fi
