#!/bin/sh
# detect-accel.sh KERNEL IMAGE: print "kvm" or "tcg". ACCEL=kvm|tcg forces
# one; ACCEL=auto (the default) probes KVM once with a short boot and
# caches the answer in build/BASE/accel, since /dev/kvm can exist and still
# hang guests.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

case ${ACCEL:-auto} in
kvm|tcg) echo "$ACCEL"; exit 0 ;;
auto) ;;
*) die "ACCEL must be auto, kvm or tcg" ;;
esac
cache=$BUILD/accel
if [ -f "$cache" ]; then cat "$cache"; exit 0; fi
mkdir -p "$BUILD"
result=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	out=$BUILD/accel-probe.log
	timeout 30 qemu-system-x86_64 -accel kvm -cpu host -m 512 -smp 1 \
		-display none -monitor none -no-reboot -serial "file:$out" \
		-kernel "$1" -initrd "$2" \
		-append "console=ttyS0 harness.plan=probe panic=-1" >/dev/null 2>&1 || true
	grep -q 'guest: done' "$out" 2>/dev/null && result=kvm
fi
echo "$result" > "$cache"
echo "$result"
