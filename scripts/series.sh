#!/bin/sh
# A ready-to-send series in build/series/: the work tree's commits with
# format-patch --base, and patches/0000-cover-letter.patch as the cover.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

out=$BUILD/series
rm -rf "$out"
mkdir -p "$out"
git -C "$TREE" format-patch -q --cover-letter --base=base --thread \
	-o "$out" base..HEAD
cover=$PATCHES/0000-cover-letter.patch
if [ -f "$cover" ]; then
	# Keep format-patch's base-commit trailer, take everything else from ours.
	trailer=$(sed -n '/^base-commit:/,$p' "$out"/0000-cover-letter.patch)
	n=$(grep -c . "$PATCHES/series")
	sed -e "s/^Subject: \[PATCH[^]]*\]/Subject: [PATCH 0\/$n]/" "$cover" > "$out/0000-cover-letter.patch"
	printf '\n%s\n' "$trailer" >> "$out/0000-cover-letter.patch"
fi
say "series: $(find "$out" -name "*.patch" | wc -l) files in $out"
