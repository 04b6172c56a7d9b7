#!/bin/sh
# operator-guide.sh: run the run-time commands of the operator guide,
# docs/OPERATOR.md, read from the guide itself, and check what each block
# of them should do. The guide marks a block to run here with the line
#   <!-- operator-guide.sh: NAME -->
# right before its opening fence (``` or ```sh). The blocks, in order:
#   reserve  a 1 GiB reserve of max and a 2 MiB reserve of 16 (16 pages
#            zeroed on each node), zeroed_hugepages and the htlb_prezero
#            lines of /proc/vmstat
#   workers  vm.hugetlb_prezero_workers
#   fill     zeroed_fill from a cgroup with cpu.max (512 pages zeroed in
#            all)
# Each block runs in a shell of its own (sh -e: every command must
# succeed), as in an operator's root shell; the fill block moves that
# shell ($$) into its cgroup. The test fails before it runs anything if
# the guide is missing, if one of these blocks is not marked there (or
# twice, or not closed, or empty), or if the guide marks a block this
# script does not know. Pools: the command line's 1 GiB pages, and 512
# and 16 dirty 2 MiB pages on nodes 0 and 1.
# The workers and fill blocks need part 2 of the series: where the image
# was built for v1 alone (SERIES=v1), scripts/build/
# build-image.sh puts a file "series-v1" next to this script, and they are
# read from the guide but not run.
# The guide is OPERATOR.md next to this script (scripts/build/build-image.sh
# puts it there in the guest image), or OPERATOR_MD=FILE.
#   operator-guide.sh --show [FILE]
# prints the blocks as they would run and exits, changing nothing (on the
# host: guest/operator-guide.sh --show docs/OPERATOR.md).
dir=$(dirname "$0")
doc=${OPERATOR_MD:-$dir/OPERATOR.md}
blocks="reserve workers fill"
marker='<!-- operator-guide.sh: '

# guide_block FILE NAME: the lines of the fenced block that FILE marks
# NAME. Fails, saying why on stderr, unless FILE has exactly one such
# marker, followed at once by an opening fence, with a closing fence after
# one line or more.
guide_block() {
	awk -v mark="$marker$2 -->" '
		open && /^```[ \t]*$/ { open = 0; closed = 1; next }
		open { print; lines++; next }
		after { after = 0; if (/^```(sh)?[ \t]*$/) open = 1; else nofence = 1; next }
		$0 == mark { marks++; after = 1 }
		END {
			if (marks != 1) why = marks + 0 " lines \"" mark "\", not 1"
			else if (nofence) why = "no fenced block right after \"" mark "\""
			else if (!closed) why = "the block after \"" mark "\" is not closed"
			else if (!lines) why = "the block after \"" mark "\" is empty"
			if (why != "") { print FILENAME ": " why | "cat >&2"; exit 1 }
		}' "$1"
}

# guide_marks FILE: the NAME of every marker line of FILE.
guide_marks() {
	awk -v m="$marker" 'index($0, m) == 1 && / -->$/ {
		print substr($0, length(m) + 1, length($0) - length(m) - 4)
	}' "$1"
}

# guide_load FILE: each block's commands into the variable cmd_NAME; fails,
# saying why, if the guide does not mark exactly the blocks of $blocks.
guide_load() {
	[ -r "$1" ] || { echo "# no operator guide at $1" >&2; return 1; }
	for m in $(guide_marks "$1"); do
		case " $blocks " in
		*" $m "*) ;;
		*) echo "# $1 marks a block \"$m\" that operator-guide.sh does not run" >&2
		   return 1 ;;
		esac
	done
	for b in $blocks; do
		c=$(guide_block "$1" "$b") || return 1
		eval "cmd_$b=\$c"
	done
}

if [ "${1:-}" = --show ]; then
	guide_load "${2:-$doc}" || exit 1
	for b in $blocks; do
		echo "# block $b"
		eval "printf '%s\n' \"\$cmd_$b\""
	done
	exit 0
fi
guide_load "$doc" || { echo "# the operator guide's commands cannot be read: failing"; exit 1; }

H=/sys/kernel/mm/hugepages
N0=/sys/devices/system/node/node0/hugepages/hugepages-2048kB
N1=/sys/devices/system/node/node1/hugepages/hugepages-2048kB
ok=1
bad() { echo "# $*"; ok=; }
# expect FILE VALUE: FILE reads VALUE.
expect() { [ "$(cat "$1")" = "$2" ] || bad "$1 reads $(cat "$1"), not $2"; }
# wait_for FILE VALUE: until FILE reads VALUE (300 s at most).
wait_for() {
	i=0
	while [ "$(cat "$1")" != "$2" ] && [ "$i" -lt 3000 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect "$1" "$2"
}
# run NAME: the guide's block NAME, as the guide gives it.
run() {
	eval "c=\$cmd_$1"
	echo "# the guide's $1 block:"
	printf '%s\n' "$c" | sed 's/^/#   /'
	sh -e -c "$c" || bad "the guide's $1 block failed"
}
for f in "$H"/hugepages-*/zeroed_reserve; do echo 0 > "$f"; done
echo 0 > $H/hugepages-2048kB/nr_hugepages
echo 512 > $N0/nr_hugepages
echo 16 > $N1/nr_hugepages
expect $N0/nr_hugepages 512
expect $N1/nr_hugepages 16
"$dir/dirty-free-pages.sh" 2048 || exit 1
"$dir/dirty-free-pages.sh" 1048576 || exit 1
g=$(cat $H/hugepages-1048576kB/free_hugepages)

run reserve
expect $H/hugepages-1048576kB/zeroed_reserve max
expect $H/hugepages-2048kB/zeroed_reserve 16
wait_for $H/hugepages-1048576kB/zeroed_hugepages "$g"
# 16 on each node: node 1's 16 pages and 16 of node 0's 512, no more.
wait_for $H/hugepages-2048kB/zeroed_hugepages 32
sleep 1
expect $H/hugepages-2048kB/zeroed_hugepages 32
for e in htlb_prezero_zeroed htlb_prezero_hit htlb_prezero_miss; do
	grep -q "^$e " /proc/vmstat || bad "no $e in /proc/vmstat"
done

if [ -e "$dir/series-v1" ]; then
	echo "# v1 alone: the workers and fill blocks (part 2) not run"
else
	W=/proc/sys/vm/hugetlb_prezero_workers
	expect $W 1
	run workers
	expect $W 2
	sysctl -w vm.hugetlb_prezero_workers=1
	expect $W 1

	# zeroed_fill from a cgroup of its own: the block's shell joins it.
	run fill
	expect /sys/fs/cgroup/prezero/cpu.max "50000 100000"
	expect $H/hugepages-2048kB/zeroed_hugepages 512
	u=$(sed -n 's/^usage_usec //p' /sys/fs/cgroup/prezero/cpu.stat)
	echo "# the cgroup was charged ${u} us for zeroing 512 pages"
	[ "${u:-0}" -gt 0 ] || bad "nothing charged to the cgroup"
	rmdir /sys/fs/cgroup/prezero
fi

for f in "$H"/hugepages-*/zeroed_reserve; do echo 0 > "$f"; done
echo 0 > $H/hugepages-2048kB/nr_hugepages
[ -n "$ok" ]
