#!/bin/sh
# summarize.sh BOOT...: print every test result of the named boots (from
# build/BASE/logs/BOOT.tap and .verdict), apply tests/known-failures, and end
# with "N passed, N failed, N skipped". Exit 1 if anything failed.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

known=$ROOT/tests/known-failures
pass=0 fail=0 skip=0 xfail=0
# Lines of a failed test's output shown with it, so that a CI log alone
# says why it failed.
SHOW=${SHOW:-25}

# known_reason BOOT TEST: the reason a test is expected to fail, if listed
# (the first column is a glob over BASE/BOOT).
known_reason() {
	[ -f "$known" ] || return 0
	grep -v '^#' "$known" | while read -r b t reason; do
		# shellcheck disable=SC2254
		case $BASE/$1 in $b) [ "$t" = "$2" ] && { echo "$reason"; break; } ;; esac
	done || :
}

# show_output BOOT TEST [first]: the end of what the test printed on the
# console: of its last run, or with "first" of the last run that failed
# before a retry (the lines before "# ---- TEST failed (...), run N").
show_output() {
	awk -v t="$2" -v which="${3:-last}" -v keep="$SHOW" '
		function save(   i) {
			m = 0
			for (i = (n > keep ? n - keep : 0); i < n; i++)
				failed[m++] = buf[i % keep]
		}
		index($0, "# ---- " t ": ") == 1 { on = 1; n = 0; m = 0; next }
		on && index($0, "# ---- " t " failed (") == 1 { save(); n = 0; next }
		on && (index($0, "ok ") == 1 || index($0, "not ok ") == 1) &&
		    index($0, " " t " #") > 0 { on = 0; next }
		on { buf[n++ % keep] = $0 }
		END {
			if (which == "first") {
				for (i = 0; i < m; i++)
					print "      | " failed[i]
			} else {
				for (i = (n > keep ? n - keep : 0); i < n; i++)
					print "      | " buf[i % keep]
			}
		}
	' "$LOGS/$1.console" 2>/dev/null | tr -d '\r' || :
}

for boot in "$@"; do
	tap=$LOGS/$boot.tap
	verdict=$LOGS/$boot.verdict
	if [ ! -f "$verdict" ]; then
		echo "FAIL  $boot: did not run"
		fail=$((fail + 1))
		continue
	fi
	# Tests, in order. "ok" with SKIP is a skip, never a pass.
	tmp=$(grep -a -E '^(ok|not ok) ' "$tap" || true)
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		name=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ ([^ ]+).*/\2/')
		note=$(echo "$line" | sed -n 's/.*# //p')
		reason=$(known_reason "$boot" "$name")
		case $line in
		"ok "*"# SKIP"*) echo "SKIP  $boot/$name ($note)"; skip=$((skip + 1)) ;;
		"ok "*"flaky: failed with"*)
			echo "PASS  $boot/$name (flaky: ${note#*flaky: }; the failed run, from $LOGS/$boot.console:)"
			show_output "$boot" "$name" first
			pass=$((pass + 1)) ;;
		"ok "*"flaky:"*)
			echo "PASS  $boot/$name (flaky: ${note#*flaky: }; its output, from $LOGS/$boot.console:)"
			show_output "$boot" "$name"
			pass=$((pass + 1)) ;;
		"ok "*)
			echo "PASS  $boot/$name${reason:+ (listed as a known failure: update tests/known-failures)}"
			pass=$((pass + 1)) ;;
		*)
			if [ -n "$reason" ]; then
				echo "XFAIL $boot/$name ($note): known failure: $reason"
				xfail=$((xfail + 1))
			else
				echo "FAIL  $boot/$name ($note)"
				show_output "$boot" "$name"
				fail=$((fail + 1))
			fi ;;
		esac
	done <<TAPEOF
$tmp
TAPEOF
	# The boot itself: timeouts, an unfinished plan, kernel complaints.
	if grep -q '^\(boot-fail\|kernel\):' "$verdict"; then
		echo "FAIL  $boot/boot: $(grep '^\(boot-fail\|kernel\):' "$verdict" | head -3 | tr '\n' ' ')"
		echo "      console log: $LOGS/$boot.console"
		fail=$((fail + 1))
	else
		echo "PASS  $boot/boot ($(head -1 "$verdict" | sed 's/.*\(accel=[a-z]*\) \(secs=[0-9]*\).*/\1 \2/'), no kernel warnings)"
		pass=$((pass + 1))
	fi
done
[ "$xfail" -eq 0 ] || echo "($xfail known failures, listed with their reasons in tests/known-failures, are counted as skipped)"
line="$pass passed, $fail failed, $((skip + xfail)) skipped"
mkdir -p "$LOGS"
echo "$line" > "$LOGS/summary.txt"
echo "$line"
[ "$fail" -eq 0 ]
