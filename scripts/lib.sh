# shellcheck shell=sh
# Common settings for the harness scripts; sourced, never run.

# Every script that sources this file is in a room of scripts/.
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# base_lines: the bases of the file BASE, one a line without its comments
# and blank lines: NAME PACKAGE VERSION SUITE PATCHES PART2, the default
# base first. The one reader of the file: the Makefile and .ci/run ask
# scripts/build/base.sh, the bench reports get the values from bench.sh
# and bench-scale.sh.
base_lines() { grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/BASE"; }

# The base kernel: BASE=NAME picks a line of the file BASE (the first one
# by default), which names the Debian package, its version, the suite it
# comes from and the series' folder. What is built for a base goes to
# build/NAME/.
bases=$(base_lines)
base_line=$(printf '%s\n' "$bases" | awk -v want="${BASE:-}" 'want == "" || $1 == want { print; exit }')
[ -n "$base_line" ] ||
	die "BASE=${BASE:-}: not a line of $ROOT/BASE (known: $(printf '%s\n' "$bases" | awk '{ printf "%s ", $1 }'))"
# shellcheck disable=SC2034 # used by the scripts that source this
read -r BASE PACKAGE VERSION SUITE PATCHES_DIR PART2_DIR <<EOF
$base_line
EOF
export BASE
# shellcheck disable=SC2034
DEFAULT_BASE=$(printf '%s\n' "$bases" | awk 'NR == 1 { print $1 }')
# KVER: the package's X.Y. A package of another suite is unpacked (not
# installed) below APT, the private apt state of scripts/build/fetch-base.sh.
KVER=${PACKAGE#linux-source-}
APT=$ROOT/build/apt
PKGROOT=
[ "$SUITE" = - ] || PKGROOT=$APT/root
# shellcheck disable=SC2034 # used by the scripts that source this
TARBALL=$PKGROOT/usr/src/linux-source-$KVER.tar.xz
# shellcheck disable=SC2034
DEBIAN_CONFIG_DIR=$PKGROOT/usr/src/linux-config-$KVER
# shellcheck disable=SC2034
PATCHES=$ROOT/$PATCHES_DIR
# PATCHES is v1's folder, PART2 that of part 2, on top of v1, or nothing.
# In the work tree the branch v1 marks v1's last commit.
PART2=
[ "${PART2_DIR:--}" = - ] || PART2=$ROOT/$PART2_DIR
# SERIES=v1: v1 alone, without part 2, in its own
# build/BASE-v1/ (work tree, kernels, logs), so that v1 is built and
# tested as it is posted.
case ${SERIES:-} in
'') ;;
v1)
	PART2=
	BUILD=${BUILD:-$ROOT/build/$BASE-v1}
	;;
*) die "SERIES=$SERIES: only SERIES=v1 is known" ;;
esac
# SERIES_DIRS: the series' folders, in the order they apply.
# shellcheck disable=SC2034
SERIES_DIRS="$PATCHES${PART2:+ $PART2}"
BUILD=${BUILD:-$ROOT/build/$BASE}
TREE=${TREE:-$BUILD/linux}
# shellcheck disable=SC2034
LOGS=$BUILD/logs

# Identity used for the work tree's commits and the exported patches.
PROJECT_NAME="hugetlb-prezero project"
PROJECT_EMAIL="hugetlb-prezero@example.org"
export GIT_AUTHOR_NAME="$PROJECT_NAME" GIT_AUTHOR_EMAIL="$PROJECT_EMAIL"
export GIT_COMMITTER_NAME="$PROJECT_NAME" GIT_COMMITTER_EMAIL="$PROJECT_EMAIL"

JOBS=${JOBS:-$(nproc)}
# ccache sees the paths below the repository as relative ones, so that
# the same file of two work trees (build/BASE/linux, build/BASE-v1/linux,
# the worktrees) is compiled once.
export CCACHE_BASEDIR="$ROOT"

# now: seconds since the epoch, for stage timings.
now() { date +%s; }

# stage_done NAME START: print how long a stage took.
stage_done() { printf '[time] %s: %ss\n' "$1" "$(( $(now) - $2 ))"; }

# kernel_config LOG SRC OBJ START FRAGMENTS CHECKED [MAKE_ARG...]: the one
# builder of kernel configurations (scripts/build/build-kernel.sh,
# scripts/series/config-matrix.sh). It writes OBJ/config.new: START
# (tinyconfig, or a config file, .xz or plain), the files FRAGMENTS (a
# list of words) merged in order by the tree's merge_config.sh -m, then
# olddefconfig. Every option the files CHECKED (a list of words) ask for
# must then be in it as asked, or the guest would test less than it
# claims: CONFIG_X=V as that line, "# CONFIG_X is not set" and CONFIG_X=n
# as no CONFIG_X= line; where several files name an option, the last one
# counts (configs/lockstat.config raises CONFIG_NR_CPUS). What is missing
# goes to OBJ/config.missing. Last, OBJ/.config becomes config.new if it
# differs, so that rebuilds stay incremental. MAKE_ARGs go to every make
# (ARCH=i386). Output is appended to LOG; on failure it returns 1 with
# the reason in $why.
kernel_config() {
	kc_log=$1 kc_src=$2 kc_obj=$3 kc_start=$4 kc_frags=$5 kc_checked=$6
	shift 6
	mkdir -p "$kc_obj"
	case $kc_start in
	tinyconfig)
		make -C "$kc_src" O="$kc_obj" CC="ccache gcc" -j"$JOBS" "$@" \
			tinyconfig KCONFIG_CONFIG=config.new >>"$kc_log" 2>&1 ||
			{ why="make tinyconfig failed"; return 1; }
		;;
	*.xz) xz -dc "$kc_start" > "$kc_obj/config.new" || { why="cannot read $kc_start"; return 1; } ;;
	*) cp "$kc_start" "$kc_obj/config.new" || { why="cannot read $kc_start"; return 1; } ;;
	esac
	# shellcheck disable=SC2086 # $kc_frags is a list of files
	(cd "$kc_obj" && KCONFIG_CONFIG=config.new "$kc_src/scripts/kconfig/merge_config.sh" \
		-m -O "$kc_obj" "$kc_obj/config.new" $kc_frags) >>"$kc_log" 2>&1 ||
		{ why="merge_config.sh failed"; return 1; }
	make -C "$kc_src" O="$kc_obj" CC="ccache gcc" -j"$JOBS" "$@" \
		olddefconfig KCONFIG_CONFIG=config.new >>"$kc_log" 2>&1 ||
		{ why="make olddefconfig failed"; return 1; }
	# shellcheck disable=SC2086 # $kc_checked is a list of files
	awk -v cfg="$kc_obj/config.new" '
		FILENAME == cfg {
			if (/^CONFIG_[^=]*=/) { s = $0; sub(/=.*/, "", s); have[s] = $0 }
			next
		}
		/^CONFIG_[^=]*=/ || /^# CONFIG_[^ ]* is not set$/ {
			s = $0
			sub(/^# /, "", s)
			sub(/[= ].*/, "", s)
			if (!(s in want)) order[n++] = s
			want[s] = $0
		}
		END {
			for (i = 0; i < n; i++) {
				s = order[i]
				if (want[s] ~ /^#/ || want[s] == s "=n") {
					if (s in have) print want[s]
				} else if (!(s in have) || have[s] != want[s]) {
					print want[s]
				}
			}
		}' $kc_checked "$kc_obj/config.new" > "$kc_obj/config.missing" ||
		{ why="cannot check $kc_obj/config.new"; return 1; }
	if [ -s "$kc_obj/config.missing" ]; then
		why="after olddefconfig, $kc_obj/config.new does not have: $(tr '\n' ' ' < "$kc_obj/config.missing")"
		why=${why% }
		return 1
	fi
	cmp -s "$kc_obj/config.new" "$kc_obj/.config" || cp "$kc_obj/config.new" "$kc_obj/.config"
}

# put ROOTFS FILE: copy FILE to the same path under ROOTFS, following
# symlinks.
put() {
	mkdir -p "$1$(dirname "$2")"
	cp -L "$2" "$1$2"
}

# put_with_libs ROOTFS FILE...: put each FILE, the shared libraries it
# loads and the dynamic loader.
put_with_libs() {
	r=$1
	shift
	for o in "$@"; do
		put "$r" "$o"
		ldd "$o" | awk '/=> \// { print $3 } /^\t\/.*\(0x/ { print $1 }'
	done | sort -u | while read -r lib; do
		put "$r" "$lib"
	done
}

# matches NAME GLOB...: does NAME match one of the GLOBs?
matches() {
	m_name=$1
	shift
	for m_glob in "$@"; do
		# shellcheck disable=SC2254
		case $m_name in $m_glob) return 0 ;; esac
	done
	return 1
}

# picked NAME: does NAME match one of the globs of ONLY (all when unset)?
picked() {
	[ -n "${ONLY:-}" ] || return 0
	set -f
	# shellcheck disable=SC2086 # one glob a word
	set -- "$1" $ONLY
	set +f
	matches "$@"
}

# series_patches DIR: the patches that DIR's series file names, in the
# order they apply, one a line: every line of it but blank ones and
# comments (#). The one reader of series files.
series_patches() {
	[ -f "$1/series" ] || die "no series file in $1"
	grep -v '^[[:space:]]*\(#\|$\)' "$1/series" || [ $? = 1 ]
}

# series_files: the patch files of the series (SERIES_DIRS), in the
# order they apply, one a line with its folder.
series_files() {
	for sf_dir in $SERIES_DIRS; do
		# Not in a pipe, so that a missing series file stops the caller.
		sf_list=$(series_patches "$sf_dir") || exit 1
		[ -z "$sf_list" ] || printf '%s\n' "$sf_list" | sed "s|^|$sf_dir/|"
	done
}

# list_rows FILE: the rows of the boot list FILE, one a line without
# comments, where a line
#   pick LIST GLOB...
# stands for the rows of the list LIST, in the same folder, whose NAME
# matches a GLOB, in LIST's order (boot_list checks that LIST is a list
# without pick lines of its own).
list_rows() {
	lr_dir=$(dirname "$1")
	grep -v '^[[:space:]]*\(#\|$\)' "$1" | while read -r lr_name lr_list lr_globs; do
		if [ "$lr_name" != pick ]; then
			printf '%s %s %s\n' "$lr_name" "$lr_list" "$lr_globs"
			continue
		fi
		list_rows "$lr_dir/$lr_list" | while read -r lr_row; do
			set -f
			# shellcheck disable=SC2086 # one glob a word
			set -- "${lr_row%% *}" $lr_globs
			set +f
			! matches "$@" || printf '%s\n' "$lr_row"
		done
	done
}

# boot_list FILE: the boots of a boot list (tests/boots/, columns in
# tests/boots/README.md) that ONLY= picks, one a line without comments:
#   NAME KERNEL PLAN MEM CPUS NODES TIMEOUT VM [KERNEL COMMAND LINE...]
# with the flavour BOOT_FLAVOUR= names for the series' kernels.
boot_list() {
	[ -f "$1" ] || die "no boot list $1"
	for bl_from in $(sed -n 's/^[[:space:]]*pick[[:space:]]\{1,\}\([^[:space:]]\{1,\}\).*/\1/p' "$1"); do
		bl_from=$(dirname "$1")/$bl_from
		[ -f "$bl_from" ] || die "$1 picks from $bl_from, which is not a boot list"
		! grep -q '^[[:space:]]*pick[[:space:]]' "$bl_from" ||
			die "$1 picks from $bl_from, which has pick lines itself"
	done
	list_rows "$1" | while read -r bl_name bl_kernel bl_rest; do
		picked "$bl_name" || continue
		case $bl_kernel in */*) ;; *) bl_kernel=${BOOT_FLAVOUR:-$bl_kernel} ;; esac
		printf '%s %s %s\n' "$bl_name" "$bl_kernel" "$bl_rest"
	done
}

# kernel_obj KERNEL: the object folder of a kernel of the boot lists:
# FLAVOUR, the series built as configs/FLAVOUR.config says, in
# build/BASE/obj-FLAVOUR; SOURCE/FLAVOUR, the worktree linux-SOURCE
# (scripts/build/worktree.sh), in build/BASE/obj-SOURCE-FLAVOUR.
kernel_obj() {
	case $1 in
	*/*) echo "$BUILD/obj-${1%%/*}-${1#*/}" ;;
	*) echo "$BUILD/obj-$1" ;;
	esac
}

# checkpatch NAME FILE: checkpatch --strict of the tree ($TREE) over FILE,
# the patch of the series named NAME, less the types tests/checkpatch-ignore
# accepts for NAME (each there with its reason). Prints "NAME: clean", or
# NAME and what checkpatch said, and then fails.
checkpatch() {
	cp_ignore=$(grep -v '^#' "$ROOT/tests/checkpatch-ignore" | while read -r glob type _; do
		# shellcheck disable=SC2254
		case $1 in $glob) printf '%s,' "$type" ;; esac
	done)
	# spdxcheck.py needs the python3 that has Debian's python3-ply.
	cp_out=$(cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet \
		--no-summary --ignore "$cp_ignore" "$2" 2>&1) || true
	if [ -n "$cp_out" ]; then
		say "$1:"
		say "$cp_out"
		return 1
	fi
	say "$1: clean"
}
