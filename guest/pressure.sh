#!/bin/sh
# pressure.sh start SIZE_KB | stop | check: keep the zeroing threads busy in
# the background while other tests run. "start" sets zeroed_reserve=max on
# every size and starts a loop that dirties every free page of SIZE_KB and
# frees it again, over and over, so that the threads re-zero that pool all
# the time. "stop" ends the loop (plans run it outside any test, so that
# it always runs) and says how much happened; "check" fails unless the pool
# was really dirtied and the threads really zeroed it again in between.
state=/tmp/pressure
dir=$(dirname "$0")
# shellcheck source=guest/guest-lib.sh
. "$dir/guest-lib.sh"
fail() { echo "# $*"; exit 1; }

case $1 in
start)
	sz=${2:?usage: pressure.sh start SIZE_KB}
	d=/sys/kernel/mm/hugepages/hugepages-${sz}kB
	[ "$(cat "$d/free_hugepages" 2>/dev/null || echo 0)" -gt 0 ] ||
		fail "no free ${sz}kB pages to keep dirtying"
	for f in /sys/kernel/mm/hugepages/hugepages-*/zeroed_reserve; do
		echo max > "$f" || fail "cannot write max to $f"
	done
	rm -rf "$state"
	mkdir -p "$state"
	vmstat_get htlb_prezero_zeroed > "$state/zeroed0"
	vmstat_get htlb_prezero_steal > "$state/steal0"
	# The writer under another name: charge_reserved_hugetlb runs
	# "killall write_to_hugetlbfs" and waits for its cgroup to drain.
	cp "$dir/write_to_hugetlbfs" "$state/pressure_writer" || fail "no write_to_hugetlbfs"
	# started: the threads zeroed some of the pool, or stop was asked for.
	started() {
		[ "$(cat "$d/zeroed_hugepages")" -ne 0 ] || [ -e "$state/stop" ]
	}
	# round: a round counts if it dirtied pages; "refilled" if the threads
	# had zeroed some of them again since the last round.
	round() {
		free=$(cat "$d/free_hugepages")
		zeroed=$(cat "$d/zeroed_hugepages")
		if [ "$free" -gt 0 ] &&
			WRITER=$state/pressure_writer "$dir/dirty-free-pages.sh" "$sz" >/dev/null 2>&1; then
			[ ! -e "$state/rounds" ] || [ "$zeroed" -eq 0 ] ||
				echo "$zeroed" >> "$state/refilled"
			echo "$free" >> "$state/rounds"
			# Let the threads start on it (up to 10 s) before the
			# next round takes the pages again.
			wait_until 10 1 started
		else
			sleep 1
		fi
	}
	bg_start "$state" round
	echo "# pressure: dirtying the ${sz}kB pool in the background (pid $!)"
	;;
stop)
	[ -f "$state/pid" ] || fail "pressure.sh start was not run"
	# A round of 1 GiB pages takes seconds under TCG.
	bg_stop "$state" 300 1 || echo "# the pressure loop did not stop by itself"
	rounds=$(grep -c . "$state/rounds" 2>/dev/null)
	refilled=$(grep -c . "$state/refilled" 2>/dev/null)
	zeroed=$(( $(vmstat_get htlb_prezero_zeroed) - $(cat "$state/zeroed0") ))
	steal=$(( $(vmstat_get htlb_prezero_steal) - $(cat "$state/steal0") ))
	echo "${rounds:-0} ${refilled:-0}" > "$state/result"
	echo "# pressure: ${rounds:-0} rounds of dirtying the pool, ${refilled:-0} after the threads had zeroed some of it again; all sizes: htlb_prezero_zeroed +$zeroed steal +$steal"
	;;
check)
	[ -f "$state/result" ] || fail "pressure.sh stop was not run"
	read -r rounds refilled < "$state/result"
	[ -e "$state/stopped" ] || fail "the pressure loop did not stop"
	[ "$rounds" -gt 1 ] || fail "the pool was dirtied $rounds times"
	[ "$refilled" -gt 0 ] || fail "the threads never zeroed the pool again between rounds"
	echo "# pressure: $rounds rounds, $refilled refills by the threads"
	;;
*)
	echo "usage: pressure.sh start SIZE_KB | stop | check" >&2
	exit 2
	;;
esac
