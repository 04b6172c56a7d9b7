#!/bin/sh
# scan-log.sh CONSOLE_LOG: print the kernel's complaints found in a guest
# console log (one line each) and exit 1 if there is any. Only kernel lines
# (with a printk timestamp) count, so test output cannot trip it.
set -eu
log=${1:?usage: scan-log.sh CONSOLE_LOG}
found=$(grep -a -E '^\[ *[0-9]+\.[0-9]+\] .*(cut here|WARNING:|BUG:|Oops|Kernel panic|general protection fault|blocked for more than|DEBUG_LOCKS_WARN_ON|possible (circular|recursive) locking|inconsistent lock state|KASAN:|KFENCE:|UBSAN:|detected stalls|soft lockup|hard LOCKUP)' \
	"$log" | sed 's/\r$//')
[ -z "$found" ] && exit 0
printf '%s\n' "$found"
exit 1
