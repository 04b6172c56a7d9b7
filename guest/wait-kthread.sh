#!/bin/sh
# wait-kthread.sh NAME present|absent: wait (up to 30 s) until a task named
# NAME exists, or no longer does. Exit 1 if it does not come to that.
want=$2
i=0
while :; do
	if cat /proc/[0-9]*/comm 2>/dev/null | grep -qx "$1"; then
		now=present
	else
		now=absent
	fi
	[ "$now" = "$want" ] && break
	i=$((i + 1))
	if [ "$i" -gt 30 ]; then
		echo "# $1: still $now after 30 s"
		exit 1
	fi
	sleep 1
done
echo "# $1: $now"
