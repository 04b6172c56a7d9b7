#!/bin/sh
# Install the Debian packages the harness needs, or say which are missing;
# then fetch the base's source if it comes from another suite.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

PKGS="build-essential bc bison flex cpio kmod libelf-dev libssl-dev ccache
rsync git qemu-system-x86 busybox-static bash-static libnuma-dev libcap-dev
shellcheck gnuplot-nox python3 python3-ply python3-git sparse libvirt-clients
libvirt-daemon-driver-qemu"
# A base from the machine's own suite is installed as a package.
[ "$SUITE" != - ] || PKGS="$PKGS $PACKAGE linux-config-$KVER"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		say "Missing packages:$missing"
		say "Install them with:  sudo apt-get install -y$missing"
		exit 1
	fi
	say "Installing:$missing"
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
fi
exec "$ROOT/scripts/build/fetch-base.sh"
