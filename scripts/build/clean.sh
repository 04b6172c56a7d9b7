#!/bin/sh
# Remove build/BASE/, unless its work tree holds commits that were not
# exported. The fetched packages (build/apt/) stay.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ -d "$TREE/.git" ] && [ "${FORCE:-0}" != 1 ]; then
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
		die "$TREE has uncommitted changes (FORCE=1 to remove anyway)"
	n=$(git -C "$TREE" rev-list --count base..HEAD)
	[ "$n" = "$(series_files | grep -c . || true)" ] ||
		die "$TREE has commits that differ from the series: 'make export' first (FORCE=1 to remove anyway)"
fi
rm -rf "$BUILD"
