#!/bin/sh
# make demo: build the unpatched base and the patched tree as bench
# kernels, boot both with guest/plans/demo: QEMU's start with its RAM
# preallocated from hugetlb on the stock kernel, from a dirty pool and from
# a pre-zeroed one on the patched kernel; then, on the patched kernel,
# fault in 2 MiB and 1 GiB pages with every page cleared at fault time and
# then pre-zeroed. Prints both tables (medians of the repetitions).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

"$ROOT/scripts/build-userspace.sh"
"$ROOT/scripts/base-tree.sh"
"$ROOT/scripts/build-kernel.sh" bench "$BUILD/linux-base" "$BUILD/obj-base-bench"
"$ROOT/scripts/build-kernel.sh" bench
rc=0
KERNEL=$BUILD/obj-base-bench/arch/x86/boot/bzImage MEM=6144 TIMEOUT=1800 \
	"$ROOT/scripts/run-vm.sh" demo-stock demo \
	"hugepagesz=1G hugepages=2 hugepagesz=2M" || rc=$?
KERNEL=$BUILD/obj-bench/arch/x86/boot/bzImage MEM=6144 TIMEOUT=1800 \
	"$ROOT/scripts/run-vm.sh" demo demo \
	"hugepagesz=1G hugepages=2 hugepagesz=2M" || rc=$?
# The median of the n[s] values val[s, 1..n[s]], for both tables.
median='
	function median(s,   i, j, t, m) {
		m = n[s]
		for (i = 1; i <= m; i++) a[i] = val[s, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}'
say ""
say "QEMU's time to ready, its RAM preallocated from hugetlb by 2 threads (median of 3, TCG inside the guest;"
say "stock: the unpatched kernel; dirty and pre-zeroed pool: the patched one; pages used: per run):"
cat "$LOGS/demo-stock.console" "$LOGS/demo.console" | tr -d '\r' | awk "$median"'
	/^\{"bench":"qemu_start"/ {
		match($0, /"label":"[^"]*"/); l = substr($0, RSTART + 9, RLENGTH - 10)
		match($0, /"ready_us":[0-9]+/); v = substr($0, RSTART + 11, RLENGTH - 11) / 1e6
		match($0, /"pages_used":[0-9-]+/); u = substr($0, RSTART + 13, RLENGTH - 13)
		match($0, /"prezero_hit":[0-9-]+/); h = substr($0, RSTART + 14, RLENGTH - 14)
		n[l]++; val[l, n[l]] = v; used[l] = used[l] " " u; hits[l] = hits[l] " " h
	}
	END {
		printf "%-5s %10s %-12s %15s %-12s %15s %-12s %8s\n", "size", "stock (s)", " pages used", "dirty pool (s)", " pages used", "pre-zeroed (s)", " hits", "speedup"
		for (k = 1; k <= 2; k++) {
			sz = (k == 1) ? "2M" : "1G"
			s = "qemu-" sz "-stock"; o = "qemu-" sz "-off"; p = "qemu-" sz "-prezeroed"
			if (!n[o] || !n[p]) continue
			ms = n[s] ? median(s) : 0; mo = median(o); mp = median(p)
			printf "%-5s %10s %-12s %15.2f %-12s %15.2f %-12s %7s\n", sz,
				(n[s] ? sprintf("%.2f", ms) : "-"), (n[s] ? used[s] : " -"), mo, used[o], mp, hits[p],
				(n[s] && mp > 0 ? sprintf("%.1fx", ms / mp) : "-")
		}
	}'
say ""
say "Fault-in time per page (median of the repetitions, $(head -1 "$LOGS/demo.verdict" | sed 's/.*\(accel=[a-z]*\).*/\1/'), bench kernel):"
tr -d '\r' < "$LOGS/demo.console" | awk "$median"'
	/^# ---- / { sec = $3; sub(":", "", sec); next }
	/^\{"bench":"fault"/ {
		match($0, /"per_page_us":[0-9.]+/)
		v = substr($0, RSTART + 14, RLENGTH - 14)
		match($0, /"pages":[0-9]+/)
		pages[sec] = substr($0, RSTART + 8, RLENGTH - 8)
		n[sec]++; val[sec, n[sec]] = v + 0
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
