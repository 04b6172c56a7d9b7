#!/bin/sh
# make bench: boot the list tests/boots/bench (guest/plans/bench on the
# unpatched base and on the series as bench kernels, then the refill part
# on the series), print one table, then run the scale part
# (scripts/boot/bench-scale.sh). scripts/report/bench-report.py writes
# build/BASE/bench/results.json, table.txt and fault-latency.png, and
# docs/generated/BENCHMARKS.md (docs/generated/BENCHMARKS-6.12.md for BASE=6.12).
# Environment: BENCH_REPS (repetitions, default 5), BENCH_1G=all (every
# method and mapping for 1 GiB pages too: three more rows of 2 GiB cleared
# per repetition; not timed yet), ACCEL.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# Its boots compare kernels built alike: no flavour overrides one side.
unset BOOT_FLAVOUR

start=$(now)
rc=0
"$ROOT/scripts/boot/pipeline.sh" bench || rc=$?
say ""
# The default base's figures are docs/generated/BENCHMARKS.md, a backport's
# docs/generated/BENCHMARKS-BASE.md.
doc=$ROOT/docs/generated/BENCHMARKS.md
[ "$BASE" = "$DEFAULT_BASE" ] || doc=$ROOT/docs/generated/BENCHMARKS-$BASE.md
# The report names the base as lib.sh read it from the file BASE.
BASE_PACKAGE=$PACKAGE BASE_VERSION=$VERSION DEFAULT_BASE=$DEFAULT_BASE \
	python3 "$ROOT/scripts/report/bench-report.py" "$LOGS" "$BUILD/bench" "$doc" ||
	die "no report (see $LOGS/bench-stock.tap and bench-patched.tap)"
say ""
say "raw figures: $BUILD/bench/results.json; plot: $BUILD/bench/fault-latency.png;" \
	"written up in ${doc#"$ROOT"/}"
# The scale part: its own kernels (lock_stat) and a boot with 64 vCPUs.
"$ROOT/scripts/boot/bench-scale.sh" || rc=$?
stage_done bench "$start"
exit "$rc"
