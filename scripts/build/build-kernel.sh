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
: >"$log"
kmake() { make -C "$src" O="$obj" CC="ccache gcc" -j"$JOBS" "$@"; }

# Every option asked for must be in the config, the feature only where the
# tree has it: the options of configs/prezero.config that the tree's
# mm/Kconfig does not define (the unpatched base's) are merged, and
# olddefconfig drops them, but not checked.
checked=
for f in $frags; do
	if [ "$f" = "$ROOT/configs/prezero.config" ]; then
		f=$obj/prezero.config.checked
		grep '^CONFIG_' "$ROOT/configs/prezero.config" | while IFS= read -r line; do
			sym=${line%%=*}
			! grep -qs "^config ${sym#CONFIG_}\$" "$src/mm/Kconfig" || echo "$line"
		done > "$f"
	fi
	checked="$checked $f"
done
kernel_config "$log" "$src" "$obj" tinyconfig "$frags" "$checked" ||
	die "the $flavour config (see $log): $why"

if ! kmake bzImage >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel build failed, see $log"
fi
grep -E ' warning: ' "$log" | sort -u > "$obj/warnings.txt" || true
[ -s "$obj/warnings.txt" ] && say "compiler warnings ($(wc -l < "$obj/warnings.txt")): see $obj/warnings.txt"
say "kernel: $obj/arch/x86/boot/bzImage"
stage_done "kernel-$flavour" "$start"
