#!/bin/sh
# Fetch the base's source and config packages from a Debian suite that the
# machine's apt sources do not have (BASE's SUITE column), with a private
# sources list and state under build/apt/, and unpack them there. The
# machine's own apt configuration is never read for sources or changed.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ "$SUITE" != - ] || exit 0
cfg=$DEBIAN_CONFIG_DIR/config.amd64_none_amd64.xz
stamp=$APT/root/.$PACKAGE
[ -f "$TARBALL" ] && [ -f "$cfg" ] && [ -f "$stamp" ] && exit 0

start=$(now)
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/debs" "$APT/root"
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' \
	"$SUITE" > "$APT/sources.list"
aptp() {
	apt-get -q -o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" \
		-o APT::Sandbox::User=root "$@"
}
say "fetching $PACKAGE $VERSION from Debian $SUITE (private list in $APT)"
aptp update >"$APT/update.log" 2>&1 || die "apt-get update of $SUITE failed: see $APT/update.log"
cd "$APT/debs"
rm -f ./*.deb
for p in "$PACKAGE" "linux-config-$KVER"; do
	if ! aptp download "$p=$VERSION" >>"$APT/download.log" 2>&1; then
		say "warning: $p $VERSION is not in $SUITE any more; taking its current version"
		aptp download "$p" >>"$APT/download.log" 2>&1 || die "cannot download $p: see $APT/download.log"
	fi
done
rm -rf "$APT/root"
mkdir -p "$APT/root"
for d in ./*.deb; do
	dpkg-deb -x "$d" "$APT/root"
done
[ -f "$TARBALL" ] || die "$PACKAGE did not contain $TARBALL"
dpkg-deb -f "$(ls ./"$PACKAGE"_*.deb)" Version > "$stamp"
stage_done "fetch $PACKAGE $(cat "$stamp")" "$start"
