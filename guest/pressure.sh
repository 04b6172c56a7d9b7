#!/bin/sh
# pressure.sh start SIZE_KB | stop: keep the zeroing threads busy in the
# background while other tests run. "start" sets zeroed_reserve=max on every
# size and starts a loop that dirties every free page of SIZE_KB and frees
# it again, over and over, so that the threads re-zero that pool all the
# time. "stop" ends the loop, says how much happened, and fails unless the
# pool was really dirtied and the threads really zeroed.
state=/tmp/pressure
ev() { awk -v e="$1" '$1 == e { print $2 }' /proc/vmstat; }

case $1 in
start)
	sz=${2:?usage: pressure.sh start SIZE_KB}
	for f in /sys/kernel/mm/hugepages/hugepages-*/zeroed_reserve; do
		echo max > "$f" || { echo "# cannot write max to $f"; exit 1; }
	done
	mkdir -p "$state"
	rm -f "$state"/*
	ev htlb_prezero_zeroed > "$state/zeroed0"
	ev htlb_prezero_steal > "$state/steal0"
	# The writer under another name: charge_reserved_hugetlb runs
	# "killall write_to_hugetlbfs" and waits for its cgroup to drain.
	cp "$(dirname "$0")/write_to_hugetlbfs" "$state/pressure_writer"
	(
		while [ ! -e "$state/stop" ]; do
			if WRITER=$state/pressure_writer "$(dirname "$0")/dirty-free-pages.sh" "$sz" >/dev/null 2>&1; then
				echo x >> "$state/rounds"
			else
				sleep 1
			fi
		done
		touch "$state/stopped"
	) < /dev/null > /dev/null 2>&1 &
	echo "# pressure: dirtying the ${sz}kB pool in the background (pid $!)"
	;;
stop)
	[ -f "$state/zeroed0" ] || { echo "# pressure.sh start was not run"; exit 1; }
	touch "$state/stop"
	# A round of 1 GiB pages takes seconds under TCG.
	i=0
	while [ ! -e "$state/stopped" ] && [ "$i" -lt 300 ]; do
		sleep 1
		i=$((i + 1))
	done
	[ -e "$state/stopped" ] || { echo "# the pressure loop did not stop in 300 s"; exit 1; }
	rounds=$(grep -c x "$state/rounds" 2>/dev/null || echo 0)
	zeroed=$(( $(ev htlb_prezero_zeroed) - $(cat "$state/zeroed0") ))
	steal=$(( $(ev htlb_prezero_steal) - $(cat "$state/steal0") ))
	echo "# pressure: $rounds rounds of dirtying, htlb_prezero_zeroed +$zeroed steal +$steal"
	[ "$rounds" -gt 0 ] || { echo "# the pool was never dirtied"; exit 1; }
	[ "$zeroed" -gt 10 ] || { echo "# the threads zeroed only $zeroed pages"; exit 1; }
	;;
*)
	echo "usage: pressure.sh start SIZE_KB | stop" >&2
	exit 2
	;;
esac
