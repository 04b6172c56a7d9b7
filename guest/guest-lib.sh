# shellcheck shell=sh
# guest-lib.sh: shell functions of the guest, sourced by its checks
# (guest/*.sh, from their own directory: the image's /selftests), by the
# test runner (guest/plans/lib.sh, for every plan) and by guest/init.
# POSIX sh, for busybox ash. The functions share the caller's variables:
# their own begin with gl_, and those they leave for the caller are named
# below (waited, zeroed_seen).

# param NAME [DEFAULT]: the value of the last NAME=VALUE word of the kernel
# command line ($CMDLINE, /proc/cmdline by default). Without one, DEFAULT
# (or nothing) and status 1: "param NAME > /dev/null" tests that it is there.
param() (
	set -f
	gl_val=${2-}
	gl_rc=1
	read -r gl_line < "${CMDLINE:-/proc/cmdline}"
	for gl_w in $gl_line; do
		case $gl_w in
		"$1"=*) gl_val=${gl_w#*=} gl_rc=0 ;;
		esac
	done
	printf '%s\n' "$gl_val"
	return $gl_rc
)

# params NAME: the values of every NAME=VALUE word of the kernel command
# line, in order, one a line (a parameter given more than once).
params() (
	set -f
	read -r gl_line < "${CMDLINE:-/proc/cmdline}"
	for gl_w in $gl_line; do
		case $gl_w in
		"$1"=*) printf '%s\n' "${gl_w#*=}" ;;
		esac
	done
)

# setting NAME [DEFAULT]: a setting the harness gave this boot, the word
# harness.NAME=VALUE of the kernel command line (the kernel ignores words
# with a dot that name no built-in module); as param does.
setting() {
	param "harness.$1" "${2-}"
}

# expand_list LIST: the numbers of a CPU or node list as sysfs writes them
# ("0-2,4" gives 0, 1, 2 and 4), one a line; nothing for an empty list.
expand_list() (
	set -f
	IFS=,
	for gl_r in $1; do
		case $gl_r in
		*[!0-9-]* | '' | -* | *-) ;;
		*-*)
			gl_i=${gl_r%-*}
			while [ "$gl_i" -le "${gl_r#*-}" ]; do
				echo "$gl_i"
				gl_i=$((gl_i + 1))
			done ;;
		*) echo "$gl_r" ;;
		esac
	done
)

# mem_nodes: the NUMA nodes with memory, one a line.
mem_nodes() {
	expand_list "$(cat /sys/devices/system/node/has_memory)"
}

# pid_of NAME: the PIDs of the tasks whose name (comm) is NAME, one a line.
pid_of() (
	for gl_p in /proc/[0-9]*; do
		{ read -r gl_c < "$gl_p/comm"; } 2>/dev/null || continue
		[ "$gl_c" != "$1" ] || echo "${gl_p#/proc/}"
	done
)

# vmstat_get NAME: that counter of /proc/vmstat (nothing if there is none).
vmstat_get() {
	awk -v e="$1" '$1 == e { print $2 }' /proc/vmstat
}

# hugetlbfs_mount SIZE_KB: print /mnt/huge-SIZE_KBkB, and mount hugetlbfs
# with pages of that size there unless it is mounted already; mount's
# status if that fails.
hugetlbfs_mount() {
	echo "/mnt/huge-$1kB"
	mkdir -p "/mnt/huge-$1kB"
	grep -q " /mnt/huge-$1kB hugetlbfs " /proc/mounts ||
		mount -t hugetlbfs -o "pagesize=$1K" none "/mnt/huge-$1kB"
}

# wait_until SECS PERIOD COMMAND [ARG...]: run COMMAND until it succeeds,
# pausing PERIOD seconds (sleep's argument; 0: none) between two runs, at
# most SECS/PERIOD pauses (SECS 0, or PERIOD 0: no limit). Status 1 if
# COMMAND never succeeded. The pauses made are left in $waited. COMMAND
# must not call wait_until itself (its limits are the caller's globals).
wait_until() {
	gl_max=0
	[ "$1" = 0 ] || [ "$2" = 0 ] ||
		gl_max=$(awk -v s="$1" -v p="$2" 'BEGIN { n = int(s / p + 0.5); print (n > 0 ? n : 1) }')
	gl_period=$2
	shift 2
	waited=0
	until "$@"; do
		[ "$gl_max" = 0 ] || [ "$waited" -lt "$gl_max" ] || return 1
		[ "$gl_period" = 0 ] || sleep "$gl_period"
		waited=$((waited + 1))
	done
	return 0
}

# wait_zeroed DIR TARGET SECS [PERIOD]: wait until the zeroed_hugepages of
# DIR (a /sys/kernel/mm/hugepages/hugepages-SIZEkB directory: a node has
# no such count) reaches TARGET, a count, or "free": its free_hugepages. Polls PERIOD seconds apart (default
# 1; 0: reads again at once), SECS seconds at most (0: no limit), with the
# shell's read, which does not fork. Leaves the last count read in
# $zeroed_seen and the number of looks that fell short in $waited. On a
# timeout, or without a zeroed_hugepages file, says what it saw and
# returns 1.
wait_zeroed() {
	gl_dir=$1
	gl_target=$2
	gl_want=$2
	zeroed_seen=
	waited=0
	[ -r "$gl_dir/zeroed_hugepages" ] || { echo "# $gl_dir: no zeroed_hugepages"; return 1; }
	wait_until "$3" "${4:-1}" gl_zeroed_reached && return 0
	echo "# $gl_dir: zeroed $zeroed_seen of $gl_want after $3 s"
	return 1
}
gl_zeroed_reached() {
	read -r zeroed_seen < "$gl_dir/zeroed_hugepages" || return 1
	gl_want=$gl_target
	[ "$gl_target" != free ] || read -r gl_want < "$gl_dir/free_hugepages" || return 1
	[ "$zeroed_seen" -ge "$gl_want" ]
}

# bg_start DIR COMMAND [ARG...]: run COMMAND again and again in the
# background, output discarded, until the file DIR/stop exists; then touch
# DIR/stopped. The background PID goes to DIR/pid (and $!).
bg_start() {
	gl_bg=$1
	shift
	(
		while [ ! -e "$gl_bg/stop" ]; do
			"$@"
		done
		touch "$gl_bg/stopped"
	) < /dev/null > /dev/null 2>&1 &
	echo "$!" > "$gl_bg/pid"
}

# bg_stop DIR SECS PERIOD: ask the loop of bg_start DIR to stop (DIR/stop)
# and wait until it did (DIR/stopped) or is gone, polling PERIOD seconds
# apart, SECS seconds at most. Status 1 unless it stopped by itself.
bg_stop() {
	touch "$1/stop"
	wait_until "$2" "$3" gl_bg_ended "$1"
	[ -e "$1/stopped" ]
}
gl_bg_ended() {
	[ -e "$1/stopped" ] || ! kill -0 "$(cat "$1/pid")" 2>/dev/null
}
