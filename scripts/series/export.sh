#!/bin/sh
# Write the work tree's commits after "base" back to the base's series
# (one file per commit, stable names, the cover letter 0000 kept as it
# is) and its series file; with a part 2 (the file BASE), the commits up
# to the branch v1 to v1 and the ones after it to part 2.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -d "$TREE/.git" ] || die "no work tree at $TREE: run 'make tree'"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them first"

# export_range RANGE DIR: the commits of RANGE as DIR's patches.
export_range() {
	out=$BUILD/export.tmp
	rm -rf "$out"
	mkdir -p "$out"
	git -C "$TREE" format-patch -q --no-signature --zero-commit --no-numbered \
		--full-index --abbrev=12 -o "$out" "$1"
	find "$2" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -delete
	: > "$2/series.tmp"
	for p in "$out"/*.patch; do
		[ -f "$p" ] || continue
		n=$(basename "$p")
		mv "$p" "$2/$n"
		printf '%s\n' "$n" >> "$2/series.tmp"
	done
	mv "$2/series.tmp" "$2/series"
	rm -rf "$out"
	say "exported $(series_patches "$2" | wc -l) patches to ${2#"$ROOT"/}/"
}

if [ -z "$PART2" ]; then
	export_range base..HEAD "$PATCHES"
	exit 0
fi
git -C "$TREE" merge-base --is-ancestor v1 HEAD 2>/dev/null ||
	die "$TREE: no branch v1 below HEAD to end v1 at (git branch -f v1 COMMIT)"
export_range base..v1 "$PATCHES"
mkdir -p "$PART2"
export_range v1..HEAD "$PART2"
