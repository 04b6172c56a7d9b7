#!/bin/sh
# wait-kthread.sh NAME present|absent: wait (up to 30 s) until a task named
# NAME exists, or no longer does. Exit 1 if it does not come to that.
# shellcheck source=guest/guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"
want=$2
# reached NAME: whether the task NAME is $want (present or absent); what
# it is in $now.
reached() {
	if cat /proc/[0-9]*/comm 2>/dev/null | grep -qx "$1"; then
		now=present
	else
		now=absent
	fi
	[ "$now" = "$want" ]
}
if ! wait_until 30 1 reached "$1"; then
	echo "# $1: still $now after 30 s"
	exit 1
fi
echo "# $1: $now"
