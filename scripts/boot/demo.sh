#!/bin/sh
# make demo: boot the list tests/boots/demo (the unpatched base and the
# series as bench kernels, guest/plans/demo): QEMU's start with its RAM
# preallocated from hugetlb on the stock kernel, from a dirty pool and from
# a pre-zeroed one on the patched kernel; then, on the patched kernel,
# fault in 2 MiB and 1 GiB pages with every page cleared at fault time and
# then pre-zeroed. Prints both tables (scripts/report/demo-report.py).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
# Its boots compare kernels built alike: no flavour overrides one side.
unset BOOT_FLAVOUR

rc=0
"$ROOT/scripts/boot/pipeline.sh" demo || rc=$?
say ""
python3 "$ROOT/scripts/report/demo-report.py" "$LOGS" || rc=1
say "full logs: $LOGS/demo-stock.tap, $LOGS/demo.tap"
exit "$rc"
