#!/bin/sh
# Build the harness's own test programs of tests/progs/ (static) into
# build/BASE/progs, for the guest image. They may use the kselftest headers of
# the work tree (kselftest.h, kselftest_harness.h).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

start=$(now)
mkdir -p "$BUILD/progs"
for c in "$ROOT"/tests/progs/*.c; do
	p=$BUILD/progs/$(basename "$c" .c)
	gcc -O2 -std=gnu11 -Wall -Wextra -Werror -static -pthread \
		-isystem "$TREE/tools/testing/selftests" -o "$p" "$c" ||
		die "test program $(basename "$c") did not build"
done
stage_done test-programs "$start"
