#!/bin/sh
# build-sparse.sh: print the path of a sparse that the base's kernel
# accepts. 7.x's Makefile runs scripts/checker-valid.sh and, when sparse
# fails it, skips C=2 with only a make warning; Debian 12's sparse 0.6.4
# fails it (no __typeof_unqual__). Then build the sparse of Debian's sid
# from its source package, fetched with a private deb-src list under
# build/apt-sparse/ (the machine's apt configuration is neither read for
# sources nor changed), into build/tools/sparse/. Without a
# checker-valid.sh (6.12) the machine's sparse is taken.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

valid="$TREE/scripts/checker-valid.sh"
# ok SPARSE: does the kernel accept it as a checker for x86-64?
ok() { [ "$("$valid" "$1" --arch=x86 -mlittle-endian -m64 2>/dev/null)" = 1 ]; }

sys=$(command -v sparse) || die "sparse is not installed (make deps)"
if [ ! -f "$valid" ] || ok "$sys"; then
	echo "$sys"
	exit 0
fi
tool=$ROOT/build/tools/sparse/sparse
if [ -x "$tool" ] && ok "$tool"; then
	echo "$tool"
	exit 0
fi
start=$(now)
apt=$ROOT/build/apt-sparse
rm -rf "$apt/src" "$ROOT/build/tools/sparse"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src" "$ROOT/build/tools"
echo 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main' \
	> "$apt/sources.list"
aptp() {
	apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o APT::Sandbox::User=root "$@"
}
say "$sys fails $valid: building sid's sparse (private list in $apt)" >&2
aptp update >"$apt/update.log" 2>&1 || die "apt-get update of sid's sources failed: see $apt/update.log"
(cd "$apt/src" && aptp source --download-only sparse) >"$apt/download.log" 2>&1 ||
	die "cannot download sid's sparse source: see $apt/download.log"
orig=$(ls "$apt"/src/sparse_*.orig.tar.*)
tar -xf "$orig" -C "$apt/src"
dir=$(find "$apt/src" -mindepth 1 -maxdepth 1 -type d -name 'sparse*' | head -n 1)
make -C "$dir" -j"$JOBS" sparse HAVE_LLVM=no HAVE_GTK=no HAVE_SQLITE=no HAVE_LIBXML=no \
	>"$apt/build.log" 2>&1 || die "sparse did not build: see $apt/build.log"
mkdir -p "$ROOT/build/tools/sparse"
cp "$dir/sparse" "$tool"
ok "$tool" || die "$tool ($(basename "$orig")) fails $valid too"
say "sparse: $tool from $(basename "$orig")" >&2
stage_done sparse "$start" >&2
echo "$tool"
