#!/bin/sh
# irqsoff-max.sh LABEL COMMAND...: run COMMAND under the irqsoff tracer and
# print, as a figure line for make bench ("bench: " and a JSON object), the
# longest section with interrupts off meanwhile (tracing_max_latency, in
# us), where it began and ended, and the functions on the stack where it
# ended. Needs CONFIG_IRQSOFF_TRACER (the bench flavour has it).
label=$1
shift
tr=/sys/kernel/tracing
[ -f $tr/current_tracer ] || mount -t tracefs nodev $tr 2>/dev/null
grep -qw irqsoff $tr/available_tracers 2>/dev/null || { echo "# no irqsoff tracer"; exit 4; }
echo 0 > $tr/options/function-trace
echo irqsoff > $tr/current_tracer
echo 0 > $tr/tracing_max_latency
echo 1 > $tr/tracing_on
"$@"
rc=$?
echo 0 > $tr/tracing_on
max=$(cat $tr/tracing_max_latency)
began=$(sed -n 's/^# *=> started at: *//p' $tr/trace | head -1)
ended=$(sed -n 's/^# *=> ended at: *//p' $tr/trace | head -1)
stack=$(sed -n 's/^ *=> *\([A-Za-z0-9_.]*\).*/\1/p' $tr/trace | head -6 | tr '\n' ' ')
echo nop > $tr/current_tracer
echo "# irqsoff $label: longest ${max} us, from $began to $ended; stack: $stack"
echo "bench: {\"bench\":\"irqsoff\",\"label\":\"$label\",\"max_us\":$max,\"began\":\"$began\",\"ended\":\"$ended\",\"stack\":\"$stack\"}"
exit $rc
