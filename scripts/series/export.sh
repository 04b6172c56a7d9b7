#!/bin/sh
# Write the work tree's commits after "base" back to the base's series
# (one file per commit, stable names, the cover letter 0000 kept as it
# is) and the series file.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -d "$TREE/.git" ] || die "no work tree at $TREE: run 'make tree'"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them first"

out=$BUILD/export.tmp
rm -rf "$out"
mkdir -p "$out"
git -C "$TREE" format-patch -q --no-signature --zero-commit --no-numbered \
	--full-index --abbrev=12 -o "$out" base..HEAD
find "$PATCHES" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -delete
: > "$PATCHES/series.tmp"
for p in "$out"/*.patch; do
	[ -f "$p" ] || continue
	n=$(basename "$p")
	mv "$p" "$PATCHES/$n"
	printf '%s\n' "$n" >> "$PATCHES/series.tmp"
done
mv "$PATCHES/series.tmp" "$PATCHES/series"
rm -rf "$out"
say "exported $(wc -l < "$PATCHES/series") patches to $PATCHES_DIR/"
