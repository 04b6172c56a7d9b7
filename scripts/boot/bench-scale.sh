#!/bin/sh
# make bench-scale: boot the list tests/boots/bench-scale, on lock_stat
# kernels of the series with the bench-only knobs and of the unpatched
# base: guest/plans/scale-bench with 64 vCPUs (hugetlb_lock acquisitions
# per allocation and per zeroed folio with 1, 8 and 32 zeroing workers per
# node, the TCG floor of its timings, the time of a fault that finds the
# node's only free folio being zeroed), then guest/plans/fair-bench on
# each kernel with 2 vCPUs on one node, where TCG times fairly (fault
# latency while the worker zeroes, hugetlb_lock's longest hold and the
# longest interrupts-off sections against stock's, the threads' refill
# rate by extent size and worker count).
# scripts/report/bench-scale-report.py writes build/BASE/bench/scale.json,
# docs/generated/BENCHMARKS-scale.md (docs/generated/BENCHMARKS-scale-BASE.md for a backport)
# and the same text as the last section of docs/generated/BENCHMARKS.md.
# Environment: BENCH_REPS (repetitions, default 3), ACCEL.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# Its boots compare kernels built alike: no flavour overrides one side.
unset BOOT_FLAVOUR

start=$(now)
rc=0
"$ROOT/scripts/boot/pipeline.sh" bench-scale || rc=$?
suffix=
[ "$BASE" = "$DEFAULT_BASE" ] || suffix=-$BASE
# The report names the base as lib.sh read it from the file BASE.
DEFAULT_BASE=$DEFAULT_BASE python3 "$ROOT/scripts/report/bench-scale-report.py" "$LOGS" "$BUILD/bench" \
	"$ROOT/docs/generated/BENCHMARKS-scale$suffix.md" "$ROOT/docs/generated/BENCHMARKS$suffix.md" ||
	die "no report (see $LOGS/bench-scale.tap)"
stage_done bench-scale "$start"
exit "$rc"
