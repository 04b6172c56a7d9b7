#!/bin/sh
# Build the mm selftests of the work tree, statically linked, into
# build/selftests (after installing the tree's uapi headers).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

src=${1:-$TREE}
out=${2:-$BUILD/selftests}
start=$(now)
hdr=$BUILD/headers
mkdir -p "$LOGS" "$out"
log=$LOGS/build-selftests.log
make -C "$src" O="$hdr" headers >"$log" 2>&1 || die "make headers failed, see $log"
# Some tests need libraries a static link cannot always find; build what
# builds, and report what did not.
make -C "$src/tools/testing/selftests/mm" OUTPUT="$out" \
	KHDR_INCLUDES="-isystem $hdr/usr/include" LDFLAGS=-static \
	CC="ccache gcc" -j"$JOBS" -k >>"$log" 2>&1 || true
for f in hugepage-mmap hugepage-shm map_hugetlb hugepage-mremap hugepage-vmemmap \
	hugetlb-madvise hugetlb_dio hugetlb_fault_after_madv hugetlb_madv_vs_map \
	gup_test uffd-unit-tests uffd-stress thuge-gen hugetlb-soft-offline \
	hugetlb-read-hwpoison write_to_hugetlbfs; do
	[ -x "$out/$f" ] || die "selftest $f did not build, see $log"
done
# The series' own tests, where the tree has them.
for f in $(sed -n 's/^TEST_GEN_FILES += \(hugetlb_prezero[a-z_]*\)$/\1/p' \
	"$src/tools/testing/selftests/mm/Makefile"); do
	[ -x "$out/$f" ] || die "selftest $f did not build, see $log"
done
cp "$src"/tools/testing/selftests/mm/*.sh "$out/"
stage_done selftests "$start"
