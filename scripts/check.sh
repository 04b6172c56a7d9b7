#!/bin/sh
# check.sh [PLANFILE]: boot every line of a host test plan (default
# tests/check.plan) and summarize. A plan line is
#   NAME FLAVOUR GUEST_PLAN MEM_MIB TIMEOUT_S [VAR=VALUE...] [KERNEL CMDLINE...]
# FLAVOUR names the kernel (build/BASE/obj-FLAVOUR); leading VAR=VALUE words
# (upper-case names, e.g. HOTPLUG_MIB=1024) are settings for run-vm.sh, not
# kernel parameters. ONLY="glob ..." picks boots; BOOT_FLAVOUR=NAME boots
# them all on that flavour instead of the plan's.
#
# VMS boots (default 2) run at once, in the plan's order, as long as their
# memory fits in what the host had available at the start less 3 GiB; a
# boot whose line says SOLO=1 runs alone. Under TCG most tests keep one
# vCPU busy of two (uffd-unit-tests and charge_reserved_hugetlb took
# 1.1-1.2 host CPUs), so two guests on two cores take little longer than
# one; but a guest that sends many IPIs (TLB shootdowns) waits whenever
# the other guest holds the host CPU its target vCPU needs:
# uffd-unit-tests took 740 s next to another one, 322 s alone. Each boot's
# output is printed whole when it ends.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

planfile=${1:-$ROOT/tests/check.plan}
vms=${VMS:-2}
case $vms in ''|*[!0-9]*|0) die "VMS=$vms: a number of boots, 1 or more" ;; esac
budget=$(( $(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo) - 3072 ))
mkdir -p "$LOGS"

# Words NAME:MEM:PID of the boots running now, and the memory they take.
running=
used=0
# Interrupted: take the guests down too.
trap 'trap - INT TERM; kill 0' INT TERM

# Wait for one running boot to end, and print what it printed.
reap() {
	while :; do
		for r in $running; do
			n=${r%%:*} m=${r#*:}
			# Ended, or gone without saying so (summarize.sh fails it).
			[ -f "$LOGS/$n.exit" ] || ! kill -0 "${m#*:}" 2>/dev/null || continue
			cat "$LOGS/$n.out"
			rm -f "$LOGS/$n.exit" "$LOGS/$n.out"
			used=$((used - ${m%:*}))
			left=
			for o in $running; do [ "$o" = "$r" ] || left="$left $o"; done
			running=$left
			return
		done
		sleep 2
	done
}

boots=
while read -r name flavour gplan mem limit cmdline; do
	case $name in ''|'#'*) continue ;; esac
	picked "$name" || continue
	flavour=${BOOT_FLAVOUR:-$flavour}
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
	solo=
	case " $vmenv " in *" SOLO=1 "*) solo=1 ;; esac
	# shellcheck disable=SC2086 # one word per boot
	while [ -n "$running" ] &&
	      { [ -n "$solo" ] || [ "$(set -- $running; echo $#)" -ge "$vms" ] ||
		[ $((used + mem)) -gt "$budget" ]; }; do
		reap
	done
	say "== boot $name ($flavour kernel, plan $gplan, ${mem} MiB${vmenv:+,$vmenv}): $cmdline"
	rm -f "$LOGS/$name.exit"
	# shellcheck disable=SC2086 # one VAR=VALUE per word
	( rc=0
	  env $vmenv KERNEL="$BUILD/obj-$flavour/arch/x86/boot/bzImage" MEM="$mem" TIMEOUT="$limit" \
		"$ROOT/scripts/run-vm.sh" "$name" "$gplan" "$cmdline" || rc=$?
	  echo "$rc" > "$LOGS/$name.exit" ) < /dev/null > "$LOGS/$name.out" 2>&1 &
	running="$running $name:$mem:$!"
	used=$((used + mem))
	[ -z "$solo" ] || reap
done < "$planfile"
while [ -n "$running" ]; do
	reap
done
[ -n "$boots" ] || die "no boot in $planfile matches ONLY=${ONLY:-}"
# The verdict is the summary's alone: run-vm.sh exits 1 for any "not ok",
# known failures included, while summarize.sh knows which are listed in
# tests/known-failures and also fails a boot that did not run or finish.
# shellcheck disable=SC2086
exec "$ROOT/scripts/summarize.sh" $boots
