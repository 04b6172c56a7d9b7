#!/bin/sh
# Build the benchmark programs of bench/ (static) into build/BASE/bench, for the
# guest image.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

start=$(now)
mkdir -p "$BUILD/bench"
for c in "$ROOT"/bench/*.c; do
	p=$BUILD/bench/$(basename "$c" .c)
	gcc -O2 -std=gnu11 -Wall -Wextra -Werror -static -pthread -o "$p" "$c" ||
		die "benchmark $(basename "$c") did not build"
done
stage_done bench-programs "$start"
