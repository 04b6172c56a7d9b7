#!/bin/sh
# pack-libvirt.sh ROOTFS: copy the host's virsh and libvirt's QEMU driver
# into the guest's root file system, with their shared libraries and
# libvirt's CPU map, and add the user and group that Debian's driver
# looks up at start. The guest then starts VMs through libvirt's
# embedded driver (virsh -c qemu:///embed?root=DIR, no daemon), from the
# operator's domain XML (guest/libvirt-prealloc.sh).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

root=${1:?usage: pack-libvirt.sh ROOTFS}
virsh=$(command -v virsh) || die "no virsh on this machine (Debian package libvirt-clients)"
driver=/usr/lib/x86_64-linux-gnu/libvirt/connection-driver/libvirt_driver_qemu.so
[ -e "$driver" ] || die "no $driver (Debian package libvirt-daemon-driver-qemu)"
put_with_libs "$root" "$virsh" "$driver"
mkdir -p "$root/usr/share/libvirt"
cp -r /usr/share/libvirt/cpu_map "$root/usr/share/libvirt/"
# The driver resolves its built-in QEMU user and group even when qemu.conf
# names others.
grep -q '^libvirt-qemu:' "$root/etc/passwd" ||
	echo 'libvirt-qemu:x:64055:64055:libvirt qemu:/:/bin/false' >> "$root/etc/passwd"
grep -q '^libvirt-qemu:' "$root/etc/group" || echo 'libvirt-qemu:x:64055:' >> "$root/etc/group"
