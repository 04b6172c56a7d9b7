#!/bin/sh
# Unpack the base kernel into the work tree (a git repository whose first
# commit is the base, tagged "base") and apply the base's v1 (patches/ for
# the default base, patches-6.12/ for BASE=6.12) with git am; then its
# part 2, if the file BASE names one, with the branch v1 left at v1's last
# commit (rebase.updateRefs keeps it there through a git rebase -i).
#
# KERNEL_SRC=/path/to/linux: apply the series to that git tree instead, on a
# new branch "hugetlb-prezero" (the tree must be clean).
# FORCE=1: discard commits of the work tree that were not exported.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

# ids_of_tree DIR: patch ids of the commits after "base".
ids_of_tree() {
	git -C "$1" rev-list --reverse base..HEAD | while read -r c; do
		git -C "$1" show "$c" | git patch-id --stable | cut -d' ' -f1
	done | sort
}

ids_of_patches() {
	series_files | while read -r p; do
		git patch-id --stable < "$p" | cut -d' ' -f1
	done | sort
}

apply_series() {
	dir=$1
	series_files | while read -r p; do
		[ -f "$p" ] || die "series names $p, which does not exist"
		# The first patch of part 2: v1 is the commit before it.
		if [ -n "$PART2" ] && [ -z "${v1_marked:-}" ] && [ "${p#"$PART2"/}" != "$p" ]; then
			git -C "$dir" branch -f v1 HEAD
			v1_marked=1
		fi
		if ! git -C "$dir" am -q --keep-cr "$p"; then
			git -C "$dir" am --abort || true
			die "patch does not apply: $(basename "$p")"
		fi
	done
	git -C "$dir" config rebase.updateRefs true
	say "applied $(series_files | wc -l) patches on $(git -C "$dir" describe --always base)"
}

# Every series file is there (series_files dies otherwise, which a pipe
# or a command substitution would not pass on).
series_files > /dev/null

if [ -n "${KERNEL_SRC:-}" ]; then
	git -C "$KERNEL_SRC" rev-parse --git-dir >/dev/null 2>&1 ||
		die "KERNEL_SRC=$KERNEL_SRC is not a git tree"
	[ -z "$(git -C "$KERNEL_SRC" status --porcelain --untracked-files=no)" ] ||
		die "KERNEL_SRC=$KERNEL_SRC has uncommitted changes"
	git -C "$KERNEL_SRC" checkout -b hugetlb-prezero
	git -C "$KERNEL_SRC" tag -f base HEAD >/dev/null
	apply_series "$KERNEL_SRC"
	exit 0
fi

start=$(now)
if [ -d "$TREE/.git" ]; then
	if [ "$(ids_of_tree "$TREE")" != "$(ids_of_patches)" ] && [ "${FORCE:-0}" != 1 ]; then
		die "$TREE has commits that differ from the series: run 'make export' first (or FORCE=1 make tree to drop them)"
	fi
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] || [ "${FORCE:-0}" = 1 ] ||
		die "$TREE has uncommitted changes: commit and 'make export' them first (or FORCE=1)"
	git -C "$TREE" checkout -q -f -B main base
	git -C "$TREE" branch -D v1 >/dev/null 2>&1 || :
else
	[ -f "$TARBALL" ] || die "$TARBALL missing: run 'make deps' (package $PACKAGE)"
	if [ -n "$PKGROOT" ]; then
		have=$(cat "$PKGROOT/.$PACKAGE" 2>/dev/null || echo unknown)
	else
		have=$(dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null || echo unknown)
	fi
	[ "$have" = "$VERSION" ] ||
		say "warning: installed $PACKAGE is $have, BASE says $VERSION; trying anyway"
	rm -rf "$TREE" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf "$TARBALL" -C "$TREE.tmp" --strip-components=1
	mv "$TREE.tmp" "$TREE"
	git -C "$TREE" init -q -b main
	git -C "$TREE" config core.autocrlf false
	git -C "$TREE" config user.name "$PROJECT_NAME"
	git -C "$TREE" config user.email "$PROJECT_EMAIL"
	# Debian's .gitignore ignores everything at the top level, which
	# would hide the files the series adds: drop those lines.
	sed -i '/^# Debian packaging: ignore everything/,$d' "$TREE/.gitignore"
	sed -i '$d' "$TREE/.gitignore"
	git -C "$TREE" add -A -f .
	git -C "$TREE" commit -q -m "Base: $PACKAGE $have

Debian's .gitignore lines that ignore everything at the top level are
dropped, so that files the series adds can be committed."
	git -C "$TREE" tag base
fi
apply_series "$TREE"
stage_done tree "$start"
