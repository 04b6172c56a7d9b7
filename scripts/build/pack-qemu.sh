#!/bin/sh
# pack-qemu.sh ROOTFS: copy the host's qemu-system-x86_64 into the guest's
# root file system, with what it loads to run a TCG guest: its shared
# libraries and the dynamic loader, its TCG accelerator module, SeaBIOS
# and kvmvapic.bin, at the paths QEMU looks for them. The guest then runs
# QEMU itself (guest/qemu-prealloc.sh): VM start on the patched kernel.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

root=${1:?usage: pack-qemu.sh ROOTFS}
qemu=$(command -v qemu-system-x86_64) || die "no qemu-system-x86_64 on this machine"
qemu=$(readlink -f "$qemu")
prefix=$(dirname "$(dirname "$qemu")")
libdir=$prefix/lib/x86_64-linux-gnu/qemu

# shellcheck disable=SC2046
put_with_libs "$root" "$qemu" $(ls "$libdir"/accel-tcg-*.so 2>/dev/null || true)
# Debian's QEMU looks for firmware in share/qemu, then share/seabios.
for f in bios-256k.bin kvmvapic.bin; do
	found=
	for d in "$prefix/share/qemu" "$prefix/share/seabios"; do
		if [ -e "$d/$f" ]; then
			put "$root" "$d/$f"
			found=1
			break
		fi
	done
	[ -n "$found" ] || die "no $f for QEMU in $prefix/share/qemu or $prefix/share/seabios"
done
if [ "$qemu" != /usr/bin/qemu-system-x86_64 ]; then
	mkdir -p "$root/usr/bin"
	ln -sf "$qemu" "$root/usr/bin/qemu-system-x86_64"
fi
