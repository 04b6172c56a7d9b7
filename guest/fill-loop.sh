#!/bin/sh
# fill-loop.sh start SIZE_KB | stop | check: a writer of zeroed_fill in the
# background while other tests run, so that claims of a caller race the
# workers' claims, allocations and reserve changes. "start" writes to the
# global zeroed_fill of SIZE_KB, in a loop, a target 4 pages above the
# zeroed count it just read (EAGAIN, when nothing is dirty, is expected);
# "stop" ends it; "check" fails unless some writes reached their target:
# each needed 4 more pages zeroed, by the writer or the workers.
state=/tmp/fill-loop
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
fail() { echo "# $*"; exit 1; }

case $1 in
start)
	f=/sys/kernel/mm/hugepages/hugepages-${2:?usage: fill-loop.sh start SIZE_KB}kB/zeroed_fill
	[ -w "$f" ] || fail "no $f"
	z=${f%/zeroed_fill}/zeroed_hugepages
	rm -rf "$state"
	mkdir -p "$state"
	: > "$state/done"
	fill() {
		if echo $(($(cat "$z") + 4)) > "$f" 2>/dev/null; then
			echo ok >> "$state/done"
		fi
		sleep 0.05
	}
	bg_start "$state" fill
	echo "# fill-loop: writing $f in the background (pid $!)"
	;;
stop)
	[ -f "$state/pid" ] || fail "fill-loop.sh start was not run"
	bg_stop "$state" 10 0.1 || kill "$(cat "$state/pid")" 2>/dev/null
	wc -l < "$state/done" > "$state/writes"
	echo "# fill-loop: $(cat "$state/writes") writes reached their target"
	;;
check)
	[ -f "$state/writes" ] || fail "fill-loop.sh stop was not run"
	n=$(cat "$state/writes")
	echo "# $n writes of the background writer reached their target"
	[ "$n" -gt 0 ] || fail "no write of the background writer reached its target"
	;;
*)
	fail "usage: fill-loop.sh start SIZE_KB | stop | check"
	;;
esac
