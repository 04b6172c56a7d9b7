#!/bin/sh
# check.sh [PLANFILE]: boot every line of a host test plan (default
# tests/check.plan) and summarize. A plan line is
#   NAME FLAVOUR GUEST_PLAN MEM_MIB TIMEOUT_S [VAR=VALUE...] [KERNEL CMDLINE...]
# FLAVOUR names the kernel (build/obj-FLAVOUR); leading VAR=VALUE words
# (upper-case names, e.g. HOTPLUG_MIB=1024) are settings for run-vm.sh, not
# kernel parameters. ONLY="glob ..." picks boots.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

planfile=${1:-$ROOT/tests/check.plan}
boots=
while read -r name flavour gplan mem limit cmdline; do
	case $name in ''|'#'*) continue ;; esac
	picked "$name" || continue
	boots="$boots $name"
	vmenv=
	while [ -n "$cmdline" ]; do
		word=${cmdline%% *}
		case ${word%%=*} in
		''|*[!A-Z0-9_]*|[0-9]*) break ;;
		esac
		[ "$word" != "${word%%=*}" ] || break
		vmenv="$vmenv $word"
		if [ "$word" = "$cmdline" ]; then cmdline=; else cmdline=${cmdline#* }; fi
	done
	say "== boot $name ($flavour kernel, plan $gplan, ${mem} MiB${vmenv:+,$vmenv}): $cmdline"
	# shellcheck disable=SC2086 # one VAR=VALUE per word
	env $vmenv KERNEL="$BUILD/obj-$flavour/arch/x86/boot/bzImage" MEM="$mem" TIMEOUT="$limit" \
		"$ROOT/scripts/run-vm.sh" "$name" "$gplan" "$cmdline" || :
done < "$planfile"
[ -n "$boots" ] || die "no boot in $planfile matches ONLY=${ONLY:-}"
# The verdict is the summary's alone: run-vm.sh exits 1 for any "not ok",
# known failures included, while summarize.sh knows which are listed in
# tests/known-failures and also fails a boot that did not run or finish.
# shellcheck disable=SC2086
exec "$ROOT/scripts/summarize.sh" $boots
