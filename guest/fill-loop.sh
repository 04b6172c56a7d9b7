#!/bin/sh
# fill-loop.sh start SIZE_KB | stop | check: a writer of zeroed_fill in the
# background while other tests run, so that claims of a caller race the
# workers' claims, allocations and reserve changes. "start" writes 4 to
# the global zeroed_fill of SIZE_KB in a loop (EAGAIN, when nothing is
# dirty, is expected); "stop" ends it; "check" fails unless some writes
# zeroed pages.
state=/tmp/fill-loop
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
fail() { echo "# $*"; exit 1; }

case $1 in
start)
	f=/sys/kernel/mm/hugepages/hugepages-${2:?usage: fill-loop.sh start SIZE_KB}kB/zeroed_fill
	[ -w "$f" ] || fail "no $f"
	rm -rf "$state"
	mkdir -p "$state"
	cat "$f" > "$state/filled0"
	echo "$f" > "$state/file"
	fill() {
		echo 4 > "$f" 2>/dev/null
		sleep 0.05
	}
	bg_start "$state" fill
	echo "# fill-loop: writing $f in the background (pid $!)"
	;;
stop)
	[ -f "$state/pid" ] || fail "fill-loop.sh start was not run"
	bg_stop "$state" 10 0.1 || kill "$(cat "$state/pid")" 2>/dev/null
	cat "$(cat "$state/file")" > "$state/filled1"
	echo "# fill-loop: $(( $(cat "$state/filled1") - $(cat "$state/filled0") )) pages zeroed by the writer"
	;;
check)
	[ -f "$state/filled1" ] || fail "fill-loop.sh stop was not run"
	n=$(( $(cat "$state/filled1") - $(cat "$state/filled0") ))
	echo "# the background writer zeroed $n pages"
	[ "$n" -gt 0 ] || fail "the background writer zeroed nothing"
	;;
*)
	fail "usage: fill-loop.sh start SIZE_KB | stop | check"
	;;
esac
