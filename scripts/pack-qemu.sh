#!/bin/sh
# pack-qemu.sh ROOTFS: copy the host's qemu-system-x86_64 into the guest's
# root file system, with what it loads to run a TCG guest: its shared
# libraries and the dynamic loader, its TCG accelerator module, SeaBIOS
# and kvmvapic.bin, at the paths QEMU looks for them. The guest then runs
# QEMU itself (guest/qemu-prealloc.sh): VM start on the patched kernel.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

root=${1:?usage: pack-qemu.sh ROOTFS}
qemu=$(command -v qemu-system-x86_64) || die "no qemu-system-x86_64 on this machine"
qemu=$(readlink -f "$qemu")
prefix=$(dirname "$(dirname "$qemu")")
libdir=$prefix/lib/x86_64-linux-gnu/qemu

# put FILE: copy FILE to the same path under ROOTFS, following symlinks.
put() {
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}
objs="$qemu $(ls "$libdir"/accel-tcg-*.so 2>/dev/null || true)"
for o in $objs; do
	put "$o"
	ldd "$o" | awk '/=> \// { print $3 } /^\t\/.*\(0x/ { print $1 }'
done | sort -u | while read -r lib; do
	put "$lib"
done
# Debian's QEMU looks for firmware in share/qemu, then share/seabios.
for f in bios-256k.bin kvmvapic.bin; do
	found=
	for d in "$prefix/share/qemu" "$prefix/share/seabios"; do
		if [ -e "$d/$f" ]; then
			put "$d/$f"
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
