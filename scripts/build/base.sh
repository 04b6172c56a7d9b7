#!/bin/sh
# base.sh VAR...: print what scripts/lib.sh sets VAR to, one a line, for the
# base and series that BASE= and SERIES= pick: DEFAULT_BASE (the first
# line of the file BASE), BASE, or LOGS (build/BASE[-v1]/logs). For the
# Makefile and .ci/run, which do not source lib.sh.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

for v in "$@"; do
	case $v in
	DEFAULT_BASE) say "$DEFAULT_BASE" ;;
	BASE) say "$BASE" ;;
	LOGS) say "$LOGS" ;;
	*) die "base.sh: no value $v (DEFAULT_BASE, BASE, LOGS)" ;;
	esac
done
