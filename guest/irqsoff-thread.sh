#!/bin/sh
# irqsoff-thread.sh SIZE_KB: the longest section with interrupts off in the
# khugezerod threads themselves while they zero a dirty pool of that size:
# the preemptirq irq_disable/irq_enable events, recorded for the threads'
# PIDs only (set_event_pid), paired per CPU, leaving out the switches away
# from a thread (the next task enables interrupts) and interrupt entries.
# Prints the longest section, where it began, how many sections there were,
# their median, 99th and 99.9th percentiles (to the microsecond), and the
# longest section entered from each caller, as comments and a JSON line for
# make bench. Needs CONFIG_PREEMPTIRQ_TRACEPOINTS (the bench flavour has
# it, through the irqsoff tracer).
sz=$1
dir=$(dirname "$0")
tr=/sys/kernel/tracing
h=/sys/kernel/mm/hugepages/hugepages-${sz}kB
[ -f $tr/trace ] || mount -t tracefs nodev $tr 2>/dev/null
[ -d $tr/events/preemptirq ] || { echo "# no preemptirq events"; exit 4; }
# The threads run while a reserve is set: once they zeroed the pool they
# idle, with their PIDs known, and zero its pages again as
# dirty-free-pages.sh frees them dirty, traced from the first one.
echo max > "$h/zeroed_reserve" && "$dir/check-pool.sh" wait "$sz" > /dev/null || exit 1
pids=
for c in /proc/[0-9]*/comm; do
	case $(cat "$c" 2>/dev/null) in khugezerod*) p=${c#/proc/}; pids="$pids ${p%/comm}" ;; esac
done
[ -n "$pids" ] || { echo "# no khugezerod thread"; exit 1; }
echo 0 > $tr/tracing_on
echo > $tr/trace
echo 32768 > $tr/buffer_size_kb
echo "$pids" > $tr/set_event_pid
echo 1 > $tr/events/preemptirq/irq_disable/enable
echo 1 > $tr/events/preemptirq/irq_enable/enable
echo 1 > $tr/tracing_on
rc=1
"$dir/dirty-free-pages.sh" "$sz" && "$dir/check-pool.sh" wait "$sz" > /dev/null && rc=0
echo 0 > $tr/tracing_on
echo 0 > $tr/events/preemptirq/irq_disable/enable
echo 0 > $tr/events/preemptirq/irq_enable/enable
echo > $tr/set_event_pid
# "khugezerod0-41 [000] d..1. 12.345678: irq_disable: caller=... parent=..."
awk '/ irq_(disable|enable): / {
	cpu = $2; ts = $4; sub(":", "", ts); ts *= 1e6
	if ($5 == "irq_disable:") {
		# Not sections of the thread itself: a switch away in
		# __schedule() (the next task enables interrupts) and interrupt
		# entries (time in the handler).
		if ($6 ~ /__schedule|irqentry_enter/) { delete t0[cpu]; next }
		t0[cpu] = ts; at[cpu] = $6 " " $7; next
	}
	if (!(cpu in t0)) next
	d = ts - t0[cpu]; delete t0[cpu]; n++; b[int(d)]++
	if (d > max) { max = d; where = at[cpu] }
	f = at[cpu]; sub(/\+.*/, "", f); sub(/.*parent=/, "", f)
	if (d > fmax[f]) fmax[f] = d
}
END {
	if (!n) { print "# no sections recorded"; exit 1 }
	for (us = 0; us <= max; us++) {
		c += b[us]
		if (!med && c >= n / 2) med = us
		if (!p99 && c >= n * 0.99) p99 = us
		if (!p999 && c >= n * 0.999) p999 = us
	}
	for (f in fmax) printf "# longest section entered from %s: %.0f us\n", f, fmax[f]
	printf "# irqsoff in khugezerod, %s kB pages: %d sections, median %d us, p99 %d us, p99.9 %d us, longest %.0f us (%s)\n", sz, n, med, p99, p999, max, where
	printf "bench: {\"bench\":\"irqsoff_thread\",\"size_kb\":%s,\"sections\":%d,\"median_us\":%d,\"p99_us\":%d,\"p999_us\":%d,\"max_us\":%.0f,\"began\":\"%s\"}\n", sz, n, med, p99, p999, max, where
}' sz="$sz" $tr/trace || rc=1
echo > $tr/trace
exit $rc
