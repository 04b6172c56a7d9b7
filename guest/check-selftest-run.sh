#!/bin/sh
# check-selftest-run.sh strict|busy: run the series' selftest and judge its
# skips.
# strict: the way "make kselftest" runs it, through run_vmtests.sh -t
#   hugetlb_prezero, which sets up no huge page pool (the selftest sets up
#   its own); fails if the run fails, or if a test skipped for another
#   reason than what the guest lacks or a race it could not arrange:
#   demotion for the smallest size, a node with two CPUs for the helper
#   workers, pages of the largest size it could not allocate, or a thread
#   that never started on the page the steal test took.
# busy: the smallest size's tests only (-v smallest), while other work
#   keeps the CPUs busy; fails if a test fails or skips without a reason.
mode=${1:?usage: check-selftest-run.sh strict|busy}
out=/tmp/selftest-run.$$
case $mode in
strict) bash ./run_vmtests.sh -t hugetlb_prezero > "$out" 2>&1 ;;
busy) ./hugetlb_prezero -v smallest > "$out" 2>&1 ;;
*) echo "# unknown mode $mode"; exit 1 ;;
esac
rc=$?
cat "$out"
# 4: every test skipped, which the busy mode allows
if [ "$rc" != 0 ] && ! { [ "$mode" = busy ] && [ "$rc" = 4 ]; }; then
	echo "# the selftest exited $rc"
	exit 1
fi
grep -Eq '^(# *)?ok [0-9]+ prezero\.smallest\.' "$out" ||
	{ echo "# no test ran"; exit 1; }
skips=$(grep -E '^(# *)?ok [0-9]+ prezero\.[a-z]+\.[a-z_]+ # SKIP' "$out" |
	sed -E 's/^(# *)?ok [0-9]+ //')
[ -z "$skips" ] || echo "$skips" | sed 's/^/# skipped: /'
if [ "$mode" = strict ]; then
	bad=$(echo "$skips" | grep -v -e '^$' \
		-e '^prezero\.[a-z]*\.demote # SKIP no demote for ' \
		-e '^prezero\.[a-z]*\.workers # SKIP no node with memory has two CPUs$' \
		-e '^prezero\.[a-z]*\.steal # SKIP the thread had not started in ' \
		-e '^prezero\.largest\.[a-z_]* # SKIP cannot allocate ')
else
	bad=$(echo "$skips" | grep -v -e '^$' -e ' # SKIP ..*')
fi
if [ -n "$bad" ]; then
	echo "# skips not allowed here:"
	echo "$bad" | sed 's/^/#   /'
	exit 1
fi
exit 0
