# shellcheck shell=sh
# Guest-side test runner: sources /plans/$PLAN, whose lines call
#   t NAME COMMAND [ARGS...]   run a test: kselftest's exit codes, 0 passes,
#                               4 skips, anything else fails; a pass whose
#                               output has a line "# flaky: WHY" (a check of
#                               this harness that passed only when it tried
#                               again) is reported as flaky; t returns 1 if
#                               it failed (to stop a sequence)
#   skip NAME REASON            report a test this plan does not run, and why
#   tcg_limit SECS              cap the next test at SECS under TCG (where a
#                               test is known to need hours at emulation speed)
#   hp SIZE_KB COUNT            set the pool of that size (all nodes)
#   retries N                   run the next test again if it fails, up to
#                               N times, and report it as flaky if it passes
# and the functions of guest/guest-lib.sh (setting, wait_zeroed, ...).
# Every test runs under a timeout.
#
# The boot's one result stream is KTAP on $TAP (the host's
# build/BASE/logs/NAME.tap; its reader is scripts/report/ktap.py, which
# states the format): the result lines, and as "# " lines everything the
# plan and its tests print, each test's output after its start line
# "# ---- NAME: COMMAND" and before its result. A figure is an output line
# "bench: {JSON}". The kernel's messages stay on the console, where the
# start and result lines are copied too, to place them.
# harness.tests=GLOB (run-vm.sh's TESTS=) runs only the tests whose names
# match; the others are not run nor counted.
TEST_TIMEOUT=${TEST_TIMEOUT:-900}
n=0
# What the plan and its tests print collects in $out; flush copies what
# is new since the last flush ($shown bytes were) into the stream, each
# line whole, so that a line cut short cannot swallow the result after it.
out=/tmp/plan-output
shown=0
exec 3>>"$TAP"
: > "$out"
exec >>"$out" 2>&1

flush() {
	fl_size=$(wc -c < "$out")
	[ "$fl_size" -gt "$shown" ] || return 0
	head -c "$fl_size" "$out" | tail -c +"$((shown + 1))" |
		awk '{ gsub(/\r/, ""); sub(/^# /, ""); print "# " $0 }' >&3
	shown=$fl_size
}

# emit LINE: a line of the stream itself (a result, the plan, Bail out!).
emit() {
	flush
	echo "$*" >&3
	echo "$*" > /dev/console
}

# shellcheck disable=SC1091 # the guest path of guest/guest-lib.sh
. /selftests/guest-lib.sh

# The accelerator the runner booted with.
accel=$(setting accel)
next_limit=
next_tries=
only=$(setting tests)

# wanted NAME: the test is one harness.tests= picks (all by default).
wanted() {
	# shellcheck disable=SC2254
	case $1 in ${only:-*}) return 0 ;; esac
	next_limit=
	next_tries=
	return 1
}

retries() {
	next_tries=$(($1 + 1))
}

tcg_limit() {
	[ "$accel" = tcg ] && next_limit=$1
}

t() {
	name=$1
	shift
	wanted "$name" || return 0
	n=$((n + 1))
	limit=${next_limit:-$TEST_TIMEOUT}
	tries=${next_tries:-1}
	next_limit=
	next_tries=
	flush
	began=$shown
	echo "# ---- $name: $*"
	echo "# ---- $name: $*" > /dev/console
	try=1
	failed=
	while :; do
		start=$(date +%s)
		timeout "$limit" "$@" < /dev/null
		rc=$?
		secs=$(( $(date +%s) - start ))
		case $rc in 0|4|124|143) break ;; esac
		[ "$try" -lt "$tries" ] || break
		failed="${failed:+$failed, }exit=$rc"
		try=$((try + 1))
		echo "# ---- $name failed (exit=$rc), run $try of $tries: $*"
	done
	# A pass that says it needed another try is reported as flaky.
	[ "$rc" != 0 ] || [ -n "$failed" ] ||
		! tail -c +"$((began + 1))" "$out" | grep -q '^# flaky: ' || rc=flaky
	# A skip after a failed run is no pass: it is reported as a failure.
	case $rc in
	0) emit "ok $n $name # time=${secs}s${failed:+ flaky: failed with $failed, passed on run $try}" ;;
	flaky) emit "ok $n $name # time=${secs}s flaky: passed when it tried again"
	   rc=0 ;;
	4) if [ -n "$failed" ]; then
		emit "not ok $n $name # skipped (exit=4) on run $try after failing with $failed"
	   else
		emit "ok $n $name # SKIP exit=4 time=${secs}s"
	   fi ;;
	143|124) emit "not ok $n $name # TIMEOUT after ${limit}s${failed:+ on run $try, after failing with $failed}" ;;
	*) emit "not ok $n $name # exit=$rc time=${secs}s${failed:+ (run $try times: $failed before)}" ;;
	esac
	[ "$rc" = 0 ] || { [ "$rc" = 4 ] && [ -z "$failed" ]; }
}

skip() {
	wanted "$1" || return 0
	next_limit=
	next_tries=
	n=$((n + 1))
	emit "ok $n $1 # SKIP $2"
}

hp() {
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > /proc/sys/vm/compact_memory
	echo "$2" > "/sys/kernel/mm/hugepages/hugepages-${1}kB/nr_hugepages"
	echo "# pool ${1}kB: $(cat "/sys/kernel/mm/hugepages/hugepages-${1}kB/nr_hugepages") pages"
}

# sysfs_set FILE VALUE: write, and fail the run loudly if it was refused.
sysfs_set() {
	echo "$2" > "$1" || emit "Bail out! cannot write $2 to $1"
}

emit "KTAP version 1"
echo "# plan $PLAN on $(uname -r), $(grep -c ^processor /proc/cpuinfo) cpus, nodes with memory: $(cat /sys/devices/system/node/has_memory 2>/dev/null)"
echo "# cmdline: $(cat /proc/cmdline)"
# shellcheck disable=SC1090
. "/plans/$PLAN"
emit "1..$n"
