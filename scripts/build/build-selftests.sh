#!/bin/sh
# Build the mm selftests of the work tree, statically linked, into
# build/BASE/selftests (after installing the tree's uapi headers).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

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
# Every program of run_vmtests.sh's hugetlb category (their names differ
# between 6.12 and 7.x) and of the series' hugetlb_prezero category, where
# the tree has it, and the others guest/plans/upstream-hugetlb runs.
hugetlb=$(sed -n 's|^CATEGORY="hugetlb\(_prezero\)*" run_test \./\([^ .]*\)\( .*\)*$|\2|p' \
	"$src/tools/testing/selftests/mm/run_vmtests.sh")
for f in $hugetlb gup_test uffd-unit-tests uffd-stress write_to_hugetlbfs; do
	[ -x "$out/$f" ] || die "selftest $f did not build, see $log"
done
cp "$src"/tools/testing/selftests/mm/*.sh "$out/"
stage_done selftests "$start"
