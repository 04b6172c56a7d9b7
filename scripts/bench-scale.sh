#!/bin/sh
# make bench-scale: build the patched tree, with the bench-only patches of
# bench/kernel-patches/BASE/ (scripts/bench-tree.sh), and the unpatched base
# as lock_stat kernels (configs/lockstat.config, room for 64 CPUs). Boot the
# patched one with SCALE_CPUS vCPUs (default 64) on 2 nodes to run
# guest/plans/scale-bench: hugetlb_lock acquisitions per allocation and per
# zeroed folio with 1, 8 and 32 zeroing workers per node, the TCG floor of
# its timings, and the time of a fault that finds the node's only free
# folio being zeroed. Then boot each kernel with 2 vCPUs on one node, where
# TCG times fairly, to run guest/plans/fair-bench: fault latency while the
# worker zeroes, hugetlb_lock's longest hold and the longest interrupts-off
# sections against stock's, and the threads' refill rate by extent size and
# worker count.
# scripts/bench-scale-report.py writes build/BASE/bench/scale.json,
# docs/BENCHMARKS-scale.md (docs/BENCHMARKS-scale-BASE.md for a backport)
# and the same text as the last section of docs/BENCHMARKS.md.
# Environment: BENCH_REPS (repetitions, default 3), SCALE_CPUS, ACCEL,
# TIMEOUT (default 3600 s).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

start=$(now)
"$ROOT/scripts/build-userspace.sh"
"$ROOT/scripts/base-tree.sh"
"$ROOT/scripts/build-kernel.sh" lockstat "$BUILD/linux-base" "$BUILD/obj-base-lockstat"
bench=$("$ROOT/scripts/bench-tree.sh")
"$ROOT/scripts/build-kernel.sh" lockstat "$bench"

# 12 GiB, 6 GiB a node: per node 1280 pages of 2 MiB (the 1024 freed dirty,
# the 128 faulted and room) and two of 1 GiB, all zeroed from boot on
# (hugepage_prezero before any hugepagesz applies to every size).
cmdline="hugepage_prezero=max hugepagesz=1G hugepages=4 hugepagesz=2M hugepages=2560"
[ -z "${BENCH_REPS:-}" ] || cmdline="$cmdline bench_reps=$BENCH_REPS"
rc=0
KERNEL=$BUILD/obj-lockstat/arch/x86/boot/bzImage MEM=12288 CPUS=${SCALE_CPUS:-64} NODES=2 \
	PREALLOC=1 TIMEOUT=${TIMEOUT:-3600} \
	"$ROOT/scripts/run-vm.sh" bench-scale scale-bench "$cmdline" || rc=$?

# 4 GiB on one node: 1024 pages of 2 MiB (the 512 freed dirty, the 128
# faulted and room), zeroed from boot on in the patched kernel.
fcmd="hugepage_prezero=max hugepagesz=2M hugepages=1024"
[ -z "${BENCH_REPS:-}" ] || fcmd="$fcmd bench_reps=$BENCH_REPS"
for k in stock patched; do
	obj=$BUILD/obj-lockstat
	[ "$k" = patched ] || obj=$BUILD/obj-base-lockstat
	KERNEL=$obj/arch/x86/boot/bzImage MEM=4096 CPUS=2 NODES=1 PREALLOC=1 \
		TIMEOUT=${TIMEOUT:-3600} \
		"$ROOT/scripts/run-vm.sh" "bench-fair-$k" fair-bench "$fcmd" || rc=$?
done

suffix=
[ "$BASE" = "$DEFAULT_BASE" ] || suffix=-$BASE
python3 "$ROOT/scripts/bench-scale-report.py" "$LOGS" "$BUILD/bench" \
	"$ROOT/docs/BENCHMARKS-scale$suffix.md" "$ROOT/docs/BENCHMARKS$suffix.md" ||
	die "no report (see $LOGS/bench-scale.console)"
[ "$rc" -eq 0 ] || say "a boot failed: see $LOGS/bench-scale.verdict, bench-fair-stock.verdict and bench-fair-patched.verdict"
stage_done bench-scale "$start"
exit "$rc"
