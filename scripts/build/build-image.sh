#!/bin/sh
# Pack the guest initramfs: busybox, bash, guest/init, the test plans, the
# guest's checks (guest/*.sh) and the operator guide they test
# (docs/OPERATOR.md), the selftests from build/BASE/selftests, the test
# programs from build/BASE/progs, the benchmarks from build/BASE/bench, and
# the host's QEMU and libvirt (scripts/build/pack-qemu.sh, pack-libvirt.sh); fail
# if a guest plan calls a program that is not in it.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

sel=${1:-$BUILD/selftests}
img=${2:-$BUILD/initramfs.cpio}
start=$(now)
root=$BUILD/rootfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/proc" \
	"$root/sys" "$root/dev" "$root/tmp" "$root/mnt" "$root/root" "$root/etc" \
	"$root/selftests" "$root/bench"
cp /bin/busybox "$root/bin/busybox"
for a in $(/bin/busybox --list-full); do
	[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
done
cp /bin/bash-static "$root/bin/bash"
# Small stand-ins for tools busybox-static lacks (guest/bin).
for f in "$ROOT"/guest/bin/*; do
	rm -f "$root/usr/bin/$(basename "$f")"
	cp "$f" "$root/usr/bin/"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
cp "$ROOT/guest/init" "$root/init"
# The guest's own checks (check-pool.sh, ...) run from the selftests' directory.
cp "$ROOT"/guest/*.sh "$root/selftests/"
# The operator guide, next to operator-guide.sh, which runs the commands
# of its marked blocks (the qemu boot of make check).
cp "$ROOT/docs/OPERATOR.md" "$root/selftests/OPERATOR.md"
# An image for v1 alone (SERIES=v1) says so, for the checks
# that need part 2.
rm -f "$root/selftests/series-v1"
[ "${SERIES:-}" != v1 ] || : > "$root/selftests/series-v1"
cp -r "$ROOT/guest/plans" "$root/plans"
[ -d "$sel" ] || die "no selftests at $sel: run scripts/build/build-selftests.sh"
for f in "$sel"/*; do
	[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$root/selftests/"
done
# The harness's own test programs (tests/progs) run from there too.
[ -d "$BUILD/progs" ] && find "$BUILD/progs" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/selftests/" \;
[ -d "$BUILD/bench" ] && find "$BUILD/bench" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/bench/" \;
strip "$root"/selftests/* "$root"/bench/* 2>/dev/null || true
# QEMU and libvirt, for the guest's own VM starts.
"$ROOT/scripts/build/pack-qemu.sh" "$root"
"$ROOT/scripts/build/pack-libvirt.sh" "$root"
"$ROOT/scripts/build/check-image-programs.sh" "$root"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$img.tmp"
mv "$img.tmp" "$img"
say "image: $img ($(du -m "$img" | cut -f1) MiB)"
stage_done image "$start"
