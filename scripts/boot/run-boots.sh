#!/bin/sh
# run-boots.sh LIST: boot every boot of a boot list (tests/boots/LIST, or a
# path) that ONLY= picks, and summarize (scripts/report/summarize.py). The
# columns are in tests/boots/README.md; the kernels must be built
# (scripts/boot/pipeline.sh builds them first).
#
# VMS boots (default 2) run at once, in the list's order, as long as their
# memory fits in what the host had available at the start less 3 GiB; a
# boot whose VM column says solo runs alone. Under TCG most tests keep one
# vCPU busy of two, so two guests on two cores take little longer than
# one; but a guest that sends many IPIs (TLB shootdowns) waits whenever
# the other guest holds the host CPU its target vCPU needs, and takes far
# longer (docs/TIMINGS.md, "Two guests at once"). Each boot's output is
# printed whole when it ends.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

list=${1:?usage: run-boots.sh LIST}
[ -f "$list" ] || list=$ROOT/tests/boots/$list
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
			# Ended, or gone without saying so (the summary fails it).
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
picked=$(boot_list "$list")
[ -n "$picked" ] || die "no boot in $list matches ONLY=${ONLY:-}"
while read -r name kernel gplan mem cpus nodes limit vm cmdline; do
	boots="$boots $name"
	# The VM column: settings of run-vm.sh.
	solo='' vmenv=''
	set -f
	for o in $(echo "$vm" | tr , ' '); do
		case $o in
		-) ;;
		solo) solo=1 ;;
		prealloc) vmenv="$vmenv PREALLOC=1" ;;
		hotplug=[0-9]*) vmenv="$vmenv HOTPLUG_MIB=${o#*=}" ;;
		tests=?*) vmenv="$vmenv TESTS=${o#*=}" ;;
		*) die "$list: boot $name: unknown VM setting '$o' (solo, prealloc, hotplug=MIB, tests=GLOB)" ;;
		esac
	done
	set +f
	# shellcheck disable=SC2086 # one word per boot
	while [ -n "$running" ] &&
	      { [ -n "$solo" ] || [ "$(set -- $running; echo $#)" -ge "$vms" ] ||
		[ $((used + mem)) -gt "$budget" ]; }; do
		reap
	done
	say "== boot $name ($kernel kernel, plan $gplan, ${mem} MiB, $cpus CPUs, $nodes nodes, VM $vm): $cmdline"
	rm -f "$LOGS/$name.exit"
	# shellcheck disable=SC2086 # one VAR=VALUE per word
	( set -f
	  rc=0
	  env $vmenv KERNEL="$(kernel_obj "$kernel")/arch/x86/boot/bzImage" MEM="$mem" \
		CPUS="$cpus" NODES="$nodes" TIMEOUT="$limit" \
		"$ROOT/scripts/boot/run-vm.sh" "$name" "$gplan" "$cmdline" || rc=$?
	  echo "$rc" > "$LOGS/$name.exit" ) < /dev/null > "$LOGS/$name.out" 2>&1 &
	running="$running $name:$mem:$!"
	used=$((used + mem))
	[ -z "$solo" ] || reap
done <<EOF
$picked
EOF
while [ -n "$running" ]; do
	reap
done
# The verdict is the summary's alone: run-vm.sh exits 1 for any "not ok",
# known failures included, while the summary knows which are listed in
# tests/known-failures and also fails a boot that did not run or finish.
# shellcheck disable=SC2086
exec python3 "$ROOT/scripts/report/summarize.py" "$LOGS" "$BASE" $boots
