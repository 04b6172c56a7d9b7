#!/bin/sh
# run-vm.sh NAME PLAN [CMDLINE EXTRAS...]
# Boot KERNEL (default: the debug kernel) with IMAGE (default: the initramfs)
# in QEMU, run the guest test plan PLAN (guest/plans/PLAN), and judge the
# boot: the guest's result stream (KTAP, scripts/report/ktap.py) goes to
# build/BASE/logs/NAME.tap, the serial console to
# build/BASE/logs/NAME.console, the verdict to build/BASE/logs/NAME.verdict
# (build/7.3/logs/... for the default base). Exit 0 only if every test passed or
# skipped and the kernel complained about nothing.
# Environment: KERNEL, IMAGE, MEM (MiB, default 4096), CPUS (2), NODES (2),
# TIMEOUT (s, default 1800), ACCEL (auto|kvm|tcg), QEMU_EXTRA, and
# TESTS (a glob: run only the plan's tests of those names), PREALLOC=1
# (QEMU allocates and touches all guest RAM before the boot, so that the
# guest's first writes to a page do not pay the host's page faults), and
# HOTPLUG_MIB: add one more NUMA node, with no CPU and no boot memory, and a
# pc-dimm of that many MiB on it (its memory blocks start offline);
# BENCH_REPS and BENCH_1G, settings of the bench plans. scripts/boot/run-boots.sh
# sets these from a boot list's columns. The guest's settings are words
# harness.NAME=VALUE of the kernel command line (guest/guest-lib.sh's
# setting): plan, boot, accel, tests, hotplug, reps, bench_1g here, and any
# the boot list's command line adds.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

name=${1:?usage: run-vm.sh NAME PLAN [CMDLINE...]}
plan=${2:?usage: run-vm.sh NAME PLAN [CMDLINE...]}
shift 2
kernel=${KERNEL:-$BUILD/obj-debug/arch/x86/boot/bzImage}
image=${IMAGE:-$BUILD/initramfs.cpio}
mem=${MEM:-4096}
cpus=${CPUS:-2}
nodes=${NODES:-2}
limit=${TIMEOUT:-1800}
hotplug=${HOTPLUG_MIB:-0}
mkdir -p "$LOGS"
con=$LOGS/$name.console
tap=$LOGS/$name.tap
verdict=$LOGS/$name.verdict
# No result of an earlier run may survive a boot that does not happen.
rm -f "$con" "$tap" "$verdict"
[ -f "$kernel" ] || die "no kernel $kernel: run 'make kernel'"
[ -f "$image" ] || die "no image $image: run 'make image'"
: > "$tap"

accel=$("$ROOT/scripts/boot/detect-accel.sh" "$kernel" "$image")
if [ "$accel" = kvm ]; then
	cpu="-accel kvm -cpu host"
else
	cpu="-accel tcg,thread=multi -cpu max"
fi

# One memory backend per node, CPUs spread over the nodes.
numa=
i=0
while [ "$i" -lt "$nodes" ]; do
	numa="$numa -object memory-backend-ram,id=m$i,size=$((mem / nodes))M${PREALLOC:+,prealloc=on}"
	numa="$numa -numa node,nodeid=$i,memdev=m$i"
	i=$((i + 1))
done
c=0
while [ "$c" -lt "$cpus" ]; do
	numa="$numa -numa cpu,node-id=$((c % nodes)),socket-id=$c"
	c=$((c + 1))
done
# The hot-pluggable node: QEMU's SRAT gives the hotplug range to the last
# node, and the dimm's _PXM names it, so all its memory is the dimm's.
case ${TESTS:-} in *[[:space:]]*) die "TESTS='$TESTS': one glob, without spaces" ;; esac
hwords="harness.plan=$plan harness.boot=$name harness.accel=$accel"
hwords="$hwords${TESTS:+ harness.tests=$TESTS}${BENCH_REPS:+ harness.reps=$BENCH_REPS}"
hwords="$hwords${BENCH_1G:+ harness.bench_1g=$BENCH_1G}"
if [ "$hotplug" -gt 0 ]; then
	hwords="$hwords harness.hotplug=$hotplug"
	numa="$numa -numa node,nodeid=$nodes"
	numa="$numa -object memory-backend-ram,id=hp0,size=${hotplug}M"
	numa="$numa -device pc-dimm,id=dimm0,memdev=hp0,node=$nodes"
fi

start=$(now)
rc=0
# shellcheck disable=SC2086
timeout --foreground "$limit" qemu-system-x86_64 $cpu -machine pc \
	-smp "$cpus",sockets="$cpus" -m "${mem}M,slots=4,maxmem=$((mem + hotplug + 4096))M" $numa \
	-display none -monitor none -no-reboot -nodefaults \
	-serial "file:$con" -serial "file:$tap" \
	-kernel "$kernel" -initrd "$image" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 $hwords $*" \
	${QEMU_EXTRA:-} </dev/null >"$LOGS/$name.qemu" 2>&1 || rc=$?
secs=$(( $(now) - start ))

problems=$("$ROOT/scripts/boot/scan-log.sh" "$con" || true)
{
	echo "boot $name plan=$plan accel=$accel secs=$secs rc=$rc"
	if [ "$rc" -eq 124 ]; then
		echo "boot-fail: timed out after ${limit}s"
	elif ! grep -q '^# guest: done' "$tap"; then
		echo "boot-fail: the guest did not finish its plan (qemu exit $rc)"
	fi
	grep -q '^1\.\.' "$tap" || echo "boot-fail: no KTAP plan line from the guest"
	grep '^Bail out!' "$tap" | sed 's/^/boot-fail: /'
	[ -z "$problems" ] || echo "$problems" | sed 's/^/kernel: /'
} > "$verdict"
stage_done "boot $name" "$start"
if grep -q '^\(boot-fail\|kernel\):' "$verdict" || grep -q '^not ok' "$tap"; then
	exit 1
fi
exit 0
