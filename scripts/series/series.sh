#!/bin/sh
# A ready-to-send series in build/BASE/series/: the work tree's commits
# with format-patch --base, and the base's 0000-cover-letter.patch as the
# cover. A backport's subjects name its base ("[PATCH 6.12 n/m]").
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

out=$BUILD/series
rm -rf "$out"
mkdir -p "$out"
prefix=PATCH
[ "$BASE" = "$DEFAULT_BASE" ] || prefix="PATCH $BASE"
git -C "$TREE" format-patch -q --cover-letter --base=base --thread \
	--subject-prefix="$prefix" -o "$out" base..HEAD
cover=$PATCHES/0000-cover-letter.patch
if [ -f "$cover" ]; then
	# Keep format-patch's base-commit trailer, take everything else from ours.
	trailer=$(sed -n '/^base-commit:/,$p' "$out"/0000-cover-letter.patch)
	n=$(grep -c . "$PATCHES/series")
	sed -e "s/^Subject: \[PATCH[^]]*\]/Subject: [$prefix 0\/$n]/" "$cover" > "$out/0000-cover-letter.patch"
	printf '\n%s\n' "$trailer" >> "$out/0000-cover-letter.patch"
fi
say "series: $(find "$out" -name "*.patch" | wc -l) files in $out"
