#!/bin/sh
# make demo: build the bench kernel, boot it, fault in 2 MiB and 1 GiB
# pages with every page cleared at fault time and then pre-zeroed, and
# print the per-page times side by side (medians of the repetitions).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

"$ROOT/scripts/build-kernel.sh" bench
"$ROOT/scripts/build-selftests.sh"
"$ROOT/scripts/build-bench.sh"
"$ROOT/scripts/build-image.sh"
rc=0
KERNEL=$BUILD/obj-bench/arch/x86/boot/bzImage MEM=6144 TIMEOUT=1800 \
	"$ROOT/scripts/run-vm.sh" demo demo \
	"hugepagesz=1G hugepages=2 hugepagesz=2M" || rc=$?
say ""
say "Fault-in time per page (median of the repetitions, $(head -1 "$LOGS/demo.verdict" | sed 's/.*\(accel=[a-z]*\).*/\1/'), bench kernel):"
tr -d '\r' < "$LOGS/demo.console" | awk '
	/^# ---- / { sec = $3; sub(":", "", sec); next }
	/^\{"bench":"fault"/ {
		match($0, /"per_page_us":[0-9.]+/)
		v = substr($0, RSTART + 14, RLENGTH - 14)
		match($0, /"pages":[0-9]+/)
		pages[sec] = substr($0, RSTART + 8, RLENGTH - 8)
		n[sec]++; val[sec, n[sec]] = v + 0
	}
	function median(s,   i, j, t, m) {
		m = n[s]
		for (i = 1; i <= m; i++) a[i] = val[s, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	END {
		printf "%-6s %6s %16s %16s %8s\n", "size", "pages", "stock us/page", "pre-zeroed", "speedup"
		split("2M 1G", sizes, " ")
		for (k = 1; k <= 2; k++) {
			s = "fault-" sizes[k] "-stock"; p = "fault-" sizes[k] "-prezeroed"
			if (!n[s]) continue
			ms = median(s)
			if (n[p]) { mp = median(p); printf "%-6s %6d %16.1f %16.1f %7.1fx\n", sizes[k], pages[s], ms, mp, (mp > 0 ? ms / mp : 0) }
			else printf "%-6s %6d %16.1f %16s\n", sizes[k], pages[s], ms, "-"
		}
	}'
grep -a -E '^(ok|not ok) ' "$LOGS/demo.tap" | grep contents-zero || true
say "full log: $LOGS/demo.console"
exit "$rc"
