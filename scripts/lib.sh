# shellcheck shell=sh
# Common settings for the harness scripts; sourced, never run.

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
TREE=${TREE:-$BUILD/linux}
# shellcheck disable=SC2034 # used by the scripts that source this
LOGS=$BUILD/logs
# shellcheck source=/dev/null
. "$ROOT/BASE"

# Identity used for the work tree's commits and the exported patches.
PROJECT_NAME="hugetlb-prezero project"
PROJECT_EMAIL="hugetlb-prezero@example.org"
export GIT_AUTHOR_NAME="$PROJECT_NAME" GIT_AUTHOR_EMAIL="$PROJECT_EMAIL"
export GIT_COMMITTER_NAME="$PROJECT_NAME" GIT_COMMITTER_EMAIL="$PROJECT_EMAIL"

JOBS=${JOBS:-$(nproc)}

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# now: seconds since the epoch, for stage timings.
now() { date +%s; }

# stage_done NAME START: print how long a stage took.
stage_done() { printf '[time] %s: %ss\n' "$1" "$(( $(now) - $2 ))"; }
