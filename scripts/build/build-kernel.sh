#!/bin/sh
# Build a guest kernel out of tree: build-kernel.sh FLAVOUR [SRC [OBJ]]
# FLAVOUR is debug, bench or kasan: configs/common.config,
# configs/prezero.config, the flavours named by "# include: NAME" lines of
# configs/FLAVOUR.config, and configs/FLAVOUR.config, each with its
# NAME-$BASE.config where there is one, on top of tinyconfig.
# The config is only replaced when it changed, so rebuilds are incremental;
# ccache is used.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

flavour=${1:?usage: build-kernel.sh FLAVOUR [SRC [OBJ]]}
src=${2:-$TREE}
obj=${3:-$BUILD/obj-$flavour}
[ -f "$ROOT/configs/$flavour.config" ] || die "no configs/$flavour.config"
[ -f "$src/Makefile" ] || die "no kernel tree at $src: run 'make tree'"
src=$(cd "$src" && pwd)
mkdir -p "$obj"
obj=$(cd "$obj" && pwd)

frags="$ROOT/configs/common.config $ROOT/configs/prezero.config"
for inc in $(sed -n 's/^# include: *//p' "$ROOT/configs/$flavour.config"); do
	[ -f "$ROOT/configs/$inc.config" ] || die "configs/$flavour.config includes a missing configs/$inc.config"
	frags="$frags $ROOT/configs/$inc.config"
done
frags="$frags $ROOT/configs/$flavour.config"
# configs/NAME-BASE.config, where there is one, adds to NAME.config what
# differs on that base (renamed options, the preemption model).
for f in $frags; do
	[ ! -f "${f%.config}-$BASE.config" ] || frags="$frags ${f%.config}-$BASE.config"
done

start=$(now)
mkdir -p "$obj" "$LOGS"
log=$LOGS/build-$(basename "$obj").log
kmake() { make -C "$src" O="$obj" CC="ccache gcc" -j"$JOBS" "$@"; }

new=$obj/config.new
kmake tinyconfig KCONFIG_CONFIG=config.new >"$log" 2>&1
# shellcheck disable=SC2086
(cd "$obj" && KCONFIG_CONFIG=config.new "$src/scripts/kconfig/merge_config.sh" \
	-m -O "$obj" "$new" $frags) >>"$log" 2>&1
kmake olddefconfig KCONFIG_CONFIG=config.new >>"$log" 2>&1

# Every option asked for must be in the result (the feature only where the
# tree has it), or the guest would silently test less than it claims. A
# later fragment may set an option again (configs/lockstat.config raises
# CONFIG_NR_CPUS): the last setting is the one asked for.
bad=
for f in $frags; do
	grep '^CONFIG_' "$f" | while IFS= read -r line; do
		sym=${line%%=*}
		if [ "$f" = "$ROOT/configs/prezero.config" ] &&
			! grep -rqs "^config ${sym#CONFIG_}\$" "$src/mm/Kconfig"; then
			continue
		fi
		echo "$line"
	done
done | awk -F= '{ last[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	END { for (i = 0; i < n; i++) print last[order[i]] }' |
	while IFS= read -r line; do
		grep -qx "$line" "$new" || echo "$line"
	done > "$obj/config.missing"
bad=$(cat "$obj/config.missing")
[ -z "$bad" ] || die "options not in the $flavour config (see $log): $(echo "$bad" | tr '\n' ' ')"

if ! cmp -s "$new" "$obj/.config"; then
	cp "$new" "$obj/.config"
fi
if ! kmake bzImage >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel build failed, see $log"
fi
grep -E ' warning: ' "$log" | sort -u > "$obj/warnings.txt" || true
[ -s "$obj/warnings.txt" ] && say "compiler warnings ($(wc -l < "$obj/warnings.txt")): see $obj/warnings.txt"
say "kernel: $obj/arch/x86/boot/bzImage"
stage_done "kernel-$flavour" "$start"
