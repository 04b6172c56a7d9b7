#!/bin/sh
# Everything the guest image holds, built the same way for every pipeline
# (check, check-long, demo, bench, stable-check): the mm selftests of the
# work tree, the benchmarks, the test programs, then the image, which
# refuses to pack when a guest plan or check calls a program not in it.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

"$ROOT/scripts/build/build-selftests.sh"
"$ROOT/scripts/build/build-bench.sh"
"$ROOT/scripts/build/build-test-progs.sh"
"$ROOT/scripts/build/build-image.sh"
