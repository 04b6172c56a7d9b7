#!/bin/sh
# A ready-to-send series in build/BASE/series/: the work tree's commits
# with format-patch --base, and the base's 0000-cover-letter.patch as the
# cover. A backport's subjects name its base ("[PATCH 6.12 n/m]"). With a
# part 2 (the file BASE), v1 ends at the branch v1, and part 2 goes to
# build/BASE/series-part2/ with its own cover letter and v1's patches as
# its prerequisites.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

prefix=PATCH
[ "$BASE" = "$DEFAULT_BASE" ] || prefix="PATCH $BASE"

# send RANGE DIR OUT: RANGE as a series in OUT, with DIR's cover letter.
send() {
	rm -rf "$3"
	mkdir -p "$3"
	git -C "$TREE" format-patch -q --cover-letter --base=base --thread \
		--subject-prefix="$prefix" -o "$3" "$1"
	cover=$2/0000-cover-letter.patch
	if [ -f "$cover" ]; then
		# Keep format-patch's base trailers, take everything else from ours.
		trailer=$(sed -n '/^base-commit:/,$p' "$3"/0000-cover-letter.patch)
		n=$(series_patches "$2" | grep -c . || true)
		sed -e "s/^Subject: \[PATCH[^]]*\]/Subject: [$prefix 0\/$n]/" "$cover" > "$3/0000-cover-letter.patch"
		printf '\n%s\n' "$trailer" >> "$3/0000-cover-letter.patch"
	fi
	say "series: $(find "$3" -name "*.patch" | wc -l) files in $3"
}

if [ -z "$PART2" ]; then
	send base..HEAD "$PATCHES" "$BUILD/series"
else
	send base..v1 "$PATCHES" "$BUILD/series"
	send v1..HEAD "$PART2" "$BUILD/series-part2"
fi
