#!/bin/sh
# make bench: build the unpatched base (build/BASE/linux-base, a worktree of
# build/BASE/linux at tag "base") and the patched tree as bench kernels, boot each
# with the same QEMU settings to run guest/plans/bench, boot the patched one
# twice more on one node (1 and 2 vCPUs) for guest/plans/refill-bench,
# print one table, then run the scale part (scripts/bench-scale.sh).
# scripts/bench-report.py writes build/BASE/bench/results.json, table.txt
# and fault-latency.png, and docs/BENCHMARKS.md (docs/BENCHMARKS-6.12.md
# for BASE=6.12).
# Environment: BENCH_REPS (repetitions, default 5), BENCH_1G=all (every
# method and mapping for 1 GiB pages too: three more rows of 2 GiB cleared
# per repetition; not timed yet), ACCEL, TIMEOUT (per boot, default 1800 s).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

start=$(now)
base=$BUILD/linux-base
"$ROOT/scripts/build-userspace.sh"
"$ROOT/scripts/base-tree.sh"

"$ROOT/scripts/build-kernel.sh" bench "$base" "$BUILD/obj-base-bench"
"$ROOT/scripts/build-kernel.sh" bench

cmdline="hugepagesz=1G hugepages=2 hugepagesz=2M"
[ -z "${BENCH_REPS:-}" ] || cmdline="$cmdline bench_reps=$BENCH_REPS"
[ -z "${BENCH_1G:-}" ] || cmdline="$cmdline bench_1g=$BENCH_1G"
rc=0
KERNEL=$BUILD/obj-base-bench/arch/x86/boot/bzImage MEM=6144 TIMEOUT=${TIMEOUT:-1800} \
	"$ROOT/scripts/run-vm.sh" bench-stock bench "$cmdline" || rc=$?
KERNEL=$BUILD/obj-bench/arch/x86/boot/bzImage MEM=6144 TIMEOUT=${TIMEOUT:-1800} \
	"$ROOT/scripts/run-vm.sh" bench-patched bench "$cmdline" || rc=$?
# The refill part, patched kernel only: one node with 1, then 2 vCPUs, and
# a 6 GiB boot-time pool of 2 MiB pages that hugepage_prezero= has zeroed
# from late_initcall on, by as many workers as the node has vCPUs. PREALLOC:
# otherwise that first zeroing would also pay QEMU's first touch of the
# guest's memory, which no later one does.
rcmd="hugepagesz=2M hugepages=3072 hugepage_prezero=max"
[ -z "${BENCH_REPS:-}" ] || rcmd="$rcmd bench_reps=$BENCH_REPS"
for c in 1 2; do
	KERNEL=$BUILD/obj-bench/arch/x86/boot/bzImage MEM=8192 CPUS=$c NODES=1 PREALLOC=1 \
		TIMEOUT=${TIMEOUT:-1800} "$ROOT/scripts/run-vm.sh" "bench-refill-${c}cpu" \
		refill-bench "$rcmd sysctl.vm.hugetlb_prezero_workers=$c" || rc=$?
done

say ""
# The default base's figures are docs/BENCHMARKS.md, a backport's
# docs/BENCHMARKS-BASE.md.
doc=$ROOT/docs/BENCHMARKS.md
[ "$BASE" = "$DEFAULT_BASE" ] || doc=$ROOT/docs/BENCHMARKS-$BASE.md
python3 "$ROOT/scripts/bench-report.py" "$LOGS" "$BUILD/bench" "$doc" ||
	die "no report (see $LOGS/bench-stock.console and bench-patched.console)"
say ""
say "raw figures: $BUILD/bench/results.json; plot: $BUILD/bench/fault-latency.png;" \
	"written up in ${doc#"$ROOT"/}"
[ "$rc" -eq 0 ] || say "a boot failed: see $LOGS/bench-stock.verdict and bench-patched.verdict"
# The scale part: its own kernel (lock_stat) and a boot with 64 vCPUs.
"$ROOT/scripts/bench-scale.sh" || rc=$?
stage_done bench "$start"
exit "$rc"
