#!/bin/sh
# machine-state.sh save FILE | compare FILE: the settings a test may change
# and must put back: every huge page size's pool (in all and per node) and
# its zeroed_reserve, vm.hugetlb_prezero_workers, the root cgroup's
# subtree_control and its child cgroups, and the hugetlbfs mounts. The
# pool's free and reserved counts are part of it: pages a test left mapped
# show there. "compare" fails, printing the difference, if the settings
# are not as saved.
state() {
	for f in /sys/kernel/mm/hugepages/hugepages-*/nr_hugepages \
		/sys/kernel/mm/hugepages/hugepages-*/nr_overcommit_hugepages \
		/sys/kernel/mm/hugepages/hugepages-*/free_hugepages \
		/sys/kernel/mm/hugepages/hugepages-*/resv_hugepages \
		/sys/kernel/mm/hugepages/hugepages-*/zeroed_reserve \
		/sys/devices/system/node/node*/hugepages/hugepages-*/nr_hugepages \
		/proc/sys/vm/hugetlb_prezero_workers \
		/sys/fs/cgroup/cgroup.subtree_control; do
		[ -e "$f" ] && echo "$f: $(cat "$f")"
	done
	find /sys/fs/cgroup -mindepth 1 -maxdepth 1 -type d | sort | sed 's/^/cgroup: /'
	grep hugetlbfs /proc/mounts | sed 's/^/mount: /'
}
case $1 in
save)
	state > "${2:?usage: machine-state.sh save FILE}"
	echo "# saved $(wc -l < "$2") settings"
	;;
compare)
	state > "$2.now"
	if diff -u "$2" "$2.now" > "$2.diff"; then
		echo "# $(wc -l < "$2") settings as saved"
	else
		sed 's/^/# /' "$2.diff"
		exit 1
	fi
	;;
*)
	echo "usage: machine-state.sh save|compare FILE" >&2
	exit 2
	;;
esac
