#!/bin/sh
# Compile the objects the series touches under several configurations, with
# W=1 and sparse (C=2), in the patched tree and in the base tree with the
# same configuration (less CONFIG_HUGETLB_PREZERO), and fail on any warning
# of the patched build that the base build does not have. Also run
# kernel-doc over the files the series adds under mm/ and include/.
#
#   CONFIGS="debian numa-n"  run only these configurations (default: all)
#   OBJS="mm/hugetlb.o ..."  build these objects instead of the series' own
#   SPARSE=0                 W=1 only, no sparse
#
# Object directories: build/BASE/obj-matrix-NAME and
# build/BASE/obj-matrix-NAME-base (kept between runs, so that configuring
# and "make prepare" are incremental). Logs: build/BASE/logs/matrix-NAME.log.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

# The same messages and sort order in every build, so that they compare.
LC_ALL=C
export LC_ALL

ALL_CONFIGS="debug debian prezero-n numa-n hotplug-n memfail-n cma-n i386"
CONFIGS=${CONFIGS:-$ALL_CONFIGS}
BASE_TREE=${BASE_TREE:-}
SPARSE=${SPARSE:-1}
# Debian's own amd64 configuration, from the linux-config-X.Y package.
DEBIAN_CONFIG=${DEBIAN_CONFIG:-$DEBIAN_CONFIG_DIR/config.amd64_none_amd64.xz}
# Built in every run, besides the objects of the files the series changes.
FIXED_OBJS="mm/hugetlb.o mm/hugetlb_prezero.o fs/hugetlbfs/inode.o mm/memfd.o
mm/memory-failure.o mm/migrate.o arch/x86/lib/clear_page_64.o"

usage="CONFIGS=\"$ALL_CONFIGS\" config-matrix.sh"
[ $# -eq 0 ] || die "no arguments; usage: $usage"
for c in $CONFIGS; do
	case " $ALL_CONFIGS " in
	*" $c "*) ;;
	*) die "unknown configuration '$c'; known: $ALL_CONFIGS" ;;
	esac
done
case $SPARSE in
1) checker="W=1 + sparse" ;;
0) checker="W=1" ;;
*) die "SPARSE=$SPARSE: say 1 or 0" ;;
esac
[ -f "$TREE/Makefile" ] || die "no kernel tree at $TREE: run 'make tree'"
command -v ccache >/dev/null || die "ccache is not installed (make deps)"
# A sparse the base accepts (7.x refuses Debian 12's: build-sparse.sh).
if [ "$SPARSE" = 1 ]; then
	sparse=$("$ROOT/scripts/build/build-sparse.sh") || die "no sparse for $BASE (or SPARSE=0)"
fi

# The unpatched tree: BASE_TREE, or the worktree of tag base
# (scripts/build/worktree.sh), which must be unchanged.
[ -n "$BASE_TREE" ] || BASE_TREE=$("$ROOT/scripts/build/worktree.sh" base base)
[ -z "$(git -C "$BASE_TREE" status --porcelain --untracked-files=no)" ] ||
	die "$BASE_TREE has uncommitted changes: it must be the unpatched base"

mkdir -p "$LOGS"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A makefile that evaluates one Kbuild file against a configuration
# (include/config/auto.conf) and prints what it builds: objects, the parts
# of composite objects, and subdirectories (with a trailing /). This is
# how an object that the configuration does not build is told apart: a
# single-object "make" would compile it anyway.
cat > "$tmp/kbuild-objs.mk" <<'EOF'
include $(auto-conf)
BITS := $(if $(CONFIG_X86_32),32,64)
include $(kbuild-file)
objs := $(sort $(obj-y) $(obj-m) $(lib-y) $(lib-m) $(addsuffix /,$(subdir-y) $(subdir-m)))
parts = $(foreach c,$(filter %.o,$1),$($(c:.o=-objs)) $($(c:.o=-y)) $($(c:.o=-m)))
parts1 := $(call parts,$(objs))
.DEFAULT_GOAL := print-objs
.PHONY: print-objs
print-objs:
	@echo $(sort $(objs) $(parts1) $(call parts,$(parts1)))
EOF

# kbuild_objs SRC OBJDIR DIR: what DIR's Kbuild file builds in OBJDIR's
# configuration, on one line.
kbuild_objs() {
	ko_file=$1/$3/Kbuild
	[ -f "$ko_file" ] || ko_file=$1/$3/Makefile
	[ -f "$ko_file" ] || return 0
	MAKEFLAGS='' make -s --no-print-directory -f "$tmp/kbuild-objs.mk" \
		auto-conf="$2/include/config/auto.conf" kbuild-file="$ko_file" \
		srctree="$1" src="$1/$3" obj="$3" SRCARCH=x86 2>>"$log"
}

# configured SRC OBJDIR PATH: whether OBJDIR's configuration builds PATH,
# an object or a directory (with a trailing /): PATH is in its directory's
# Kbuild file, and that directory in its parent's, up to a top-level
# directory (always descended; arch/x86/lib/ through libs-y). Returns 2
# when a Kbuild file cannot be evaluated.
configured() {
	cd_path=$3
	while :; do
		case $cd_path in
		arch/x86/lib/ | arch/x86/) return 0 ;;
		*/*/) ;;
		*/) return 0 ;;
		esac
		cd_dir=${cd_path%/}
		cd_name=${cd_dir##*/}
		cd_dir=${cd_dir%/*}
		[ "${cd_path%/}" = "$cd_path" ] || cd_name=$cd_name/
		cd_list=$(kbuild_objs "$1" "$2" "$cd_dir") || return 2
		case " $cd_list " in
		*" $cd_name "*) ;;
		*) return 1 ;;
		esac
		cd_path=$cd_dir/
	done
}

# kmake SRC OBJDIR ARGS...: make in SRC with objects in OBJDIR, for $arch.
kmake() {
	km_src=$1 km_obj=$2
	shift 2
	make -C "$km_src" O="$km_obj" ARCH="$arch" CC="ccache gcc" -j"$JOBS" "$@"
}

# fragment NAME: the options configuration NAME sets on top of its base
# (Debian's config, or tinyconfig + configs/common.config +
# configs/debug.config), each checked after olddefconfig.
fragment() {
	case $1 in
	debug | debian) echo CONFIG_HUGETLB_PREZERO=y ;;
	prezero-n) echo '# CONFIG_HUGETLB_PREZERO is not set' ;;
	numa-n) printf '%s\n' CONFIG_HUGETLB_PREZERO=y '# CONFIG_NUMA is not set' ;;
	hotplug-n) printf '%s\n' CONFIG_HUGETLB_PREZERO=y '# CONFIG_MEMORY_HOTPLUG is not set' ;;
	memfail-n) printf '%s\n' CONFIG_HUGETLB_PREZERO=y '# CONFIG_MEMORY_FAILURE is not set' ;;
	cma-n) printf '%s\n' CONFIG_HUGETLB_PREZERO=y '# CONFIG_CMA is not set' ;;
	i386)
		# 32-bit with highmem (4 MiB huge pages without PAE); the 64-bit
		# options of common.config drop out. FLATMEM, as memory failure
		# on 32-bit needs !SPARSEMEM.
		printf '%s\n' '# CONFIG_64BIT is not set' CONFIG_X86_32=y \
			'# CONFIG_NOHIGHMEM is not set' CONFIG_HIGHMEM4G=y CONFIG_HIGHMEM=y \
			CONFIG_FLATMEM_MANUAL=y CONFIG_SMP=y CONFIG_HUGETLBFS=y CONFIG_HUGETLB_PAGE=y \
			CONFIG_HUGETLB_PREZERO=y CONFIG_MIGRATION=y CONFIG_COMPACTION=y \
			CONFIG_CMA=y CONFIG_X86_MCE=y CONFIG_MEMORY_FAILURE=y \
			CONFIG_DEBUG_VM=y
		;;
	esac
}

# configure NAME SRC OBJDIR FRAGMENT: OBJDIR/.config (lib.sh's
# kernel_config): Debian's config, or tinyconfig with the harness's
# common.config and debug.config, and FRAGMENT on top; FRAGMENT's options
# and required.config's checked; then make prepare. The config is only
# replaced when it changed, so reruns are incremental. Output to $log; on
# failure, returns 1 with the reason in $why.
configure() {
	cf_name=$1 cf_src=$2 cf_obj=$3 cf_frag=$4
	case $cf_name in
	debian) cf_start=$DEBIAN_CONFIG cf_frags=$cf_frag ;;
	*) cf_start=tinyconfig cf_frags="$ROOT/configs/common.config $ROOT/configs/debug.config $cf_frag" ;;
	esac
	kernel_config "$log" "$cf_src" "$cf_obj" "$cf_start" "$cf_frags" "$cf_frag $tmp/required.config" \
		ARCH="$arch" || return 1
	# W=1 here too: prepare's own compiles then match the object build's
	# flags, and are not redone there.
	if ! kmake "$cf_src" "$cf_obj" W=1 prepare >>"$log" 2>&1; then
		why="make prepare failed"
		return 1
	fi
}

# select_objs SRC OBJDIR: split $objs into $built (those OBJDIR's
# configuration builds), $unbuilt and $nosrc (no source in SRC, as the
# series' new files in the base); $why on failure.
select_objs() {
	built='' unbuilt='' nosrc=''
	for so_o in $objs; do
		so_stem=${so_o%.o}
		if [ ! -f "$1/$so_stem.c" ] && [ ! -f "$1/$so_stem.S" ]; then
			nosrc="$nosrc $so_o"
			continue
		fi
		so_rc=0
		configured "$1" "$2" "$so_o" || so_rc=$?
		case $so_rc in
		0) built="$built $so_o" ;;
		1) unbuilt="$unbuilt $so_o" ;;
		*) why="cannot evaluate the Kbuild files for $so_o (see $log)"; return 1 ;;
		esac
	done
}

# build_objs SRC OBJDIR OUT: compile $built afresh (ccache replays the
# warnings of a cached compile) with W=1 and sparse; output to OUT.
build_objs() {
	for bo_o in $built; do rm -f "$2/$bo_o"; done
	bo_rc=0
	# Objects under arch/ first, on their own and with one job: Kbuild
	# reaches arch/x86/lib/ twice in one descent (core-y and libs-y), and
	# two jobs racing on one single-target object fail in fixdep.
	bo_arch='' bo_rest=''
	for bo_o in $built; do
		case $bo_o in
		arch/*) bo_arch="$bo_arch $bo_o" ;;
		*) bo_rest="$bo_rest $bo_o" ;;
		esac
	done
	: >"$3"
	if [ -n "$bo_arch" ]; then
		# shellcheck disable=SC2086 # $bo_arch and $check are lists of words
		kmake "$1" "$2" -j1 -k W=1 $check $bo_arch >>"$3" 2>&1 || bo_rc=$?
	fi
	if [ -n "$bo_rest" ]; then
		# shellcheck disable=SC2086 # $bo_rest and $check are lists of words
		kmake "$1" "$2" -k --output-sync=target W=1 $check $bo_rest >>"$3" 2>&1 || bo_rc=$?
	fi
	cat "$3" >>"$log"
	# The kernel skips a checker it finds wanting with only this warning.
	if [ "$SPARSE" = 1 ] && grep -q 'specified, but .* is not available or not up to date' "$3"; then
		why="the kernel did not run $sparse"
		return 1
	fi
	missing=''
	for bo_o in $built; do
		[ -f "$2/$bo_o" ] || missing="$missing $bo_o"
	done
	if [ "$bo_rc" -ne 0 ] || [ -n "$missing" ]; then
		why="build failed${missing:+ for$missing}"
		return 1
	fi
}
if [ "$SPARSE" = 1 ]; then check="C=2 CHECK=$sparse"; else check=; fi

# warnings SRC OBJDIR OUT: the warnings and errors (gcc, sparse,
# kernel-doc, objtool, as) in the output OUT of a build, as lines
# "NORMALISED<tab>SHOWN": SHOWN without the tree and object directory
# prefixes, NORMALISED also without line and column numbers and code
# offsets, so that a warning of the base and of the series compare equal.
warnings() {
	awk -v src="$1/" -v obj="$2/" '
	function cut(s, p,   i) {
		while ((i = index(s, p)) > 0)
			s = substr(s, 1, i - 1) substr(s, i + length(p))
		return s
	}
	/: ([Ww]arning|[Ee]rror): / {
		shown = cut(cut($0, src), obj)
		sub(/^\.\//, "", shown)
		s = shown
		if (match(s, /:[0-9]+(:[0-9]+)?: /))
			s = substr(s, 1, RSTART - 1) ": " substr(s, RSTART + RLENGTH)
		gsub(/\+0x[0-9a-f]+(\/0x[0-9a-f]+)?/, "", s)
		print s "\t" shown
	}' "$3" | sort -u
}

printf '%s\n' CONFIG_HUGETLBFS=y CONFIG_HUGETLB_PAGE=y > "$tmp/required.config"

# The objects: those of the C and assembly files the series changes under
# mm/, fs/ and arch/x86/ (the work tree against base), and FIXED_OBJS.
if [ -n "${OBJS:-}" ]; then
	objs=$OBJS
else
	objs=$({
		git -C "$TREE" diff --name-only --diff-filter=d base -- \
			'mm/*.c' 'mm/*.S' 'fs/*.c' 'fs/*.S' 'arch/x86/*.c' 'arch/x86/*.S' |
			sed 's/\.[cS]$/.o/'
		printf '%s\n' "$FIXED_OBJS" | tr ' ' '\n'
	} | sort -u | tr '\n' ' ')
fi

passed=0 failed=0 skipped=0
total_start=$(now)

# kernel-doc over the files the series adds under mm/ and include/.
log=$LOGS/matrix-kernel-doc.log
kdoc=$(git -C "$TREE" diff --name-only --diff-filter=A base -- \
	'mm/*.c' 'mm/*.h' 'include/*.c' 'include/*.h' | tr '\n' ' ')
kdoc=${kdoc% }
if [ -z "$kdoc" ]; then
	say "PASS kernel-doc: the series adds no file under mm/ or include/"
	passed=$((passed + 1))
else
	rc=0
	# shellcheck disable=SC2086 # $kdoc is a list of paths
	(cd "$TREE" && ./scripts/kernel-doc -none $kdoc) >"$log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$log" ]; then
		say "FAIL kernel-doc -none $kdoc (exit $rc):"
		sed 's/^/      /' "$log"
		failed=$((failed + 1))
	else
		say "PASS kernel-doc: no output for $kdoc"
		passed=$((passed + 1))
	fi
fi

for name in $CONFIGS; do
	start=$(now)
	log=$LOGS/matrix-$name.log
	: >"$log"
	rel=${log#"$ROOT"/}
	arch=x86
	if [ "$name" = i386 ]; then
		arch=i386
		if ! echo 'int x;' | gcc -m32 -c -x c - -o /dev/null 2>"$tmp/m32.err"; then
			say "SKIP i386: gcc -m32 does not work here ($(head -1 "$tmp/m32.err"); apt-get install gcc-multilib)"
			skipped=$((skipped + 1))
			continue
		fi
	fi
	if [ "$name" = debian ] && [ ! -f "$DEBIAN_CONFIG" ]; then
		say "FAIL debian: no $DEBIAN_CONFIG (make deps fetches linux-config-$KVER, or set DEBIAN_CONFIG)"
		failed=$((failed + 1))
		continue
	fi
	obj=$BUILD/obj-matrix-$name
	bobj=$BUILD/obj-matrix-$name-base
	fragment "$name" >"$tmp/$name.config"
	grep -v 'CONFIG_HUGETLB_PREZERO[= ]' "$tmp/$name.config" >"$tmp/$name-base.config" || true

	# Both trees: configure, pick the objects the configuration builds,
	# compile them, collect the warnings.
	why=
	for side in patched base; do
		if [ "$side" = patched ]; then
			src=$TREE odir=$obj frag=$tmp/$name.config
		elif [ ! -s "$tmp/patched.warn" ]; then
			# Nothing to compare: the base build is not needed.
			: >"$tmp/base.warn"
			break
		else
			src=$BASE_TREE odir=$bobj frag=$tmp/$name-base.config
		fi
		echo "==== $side: $src, objects in $odir" >>"$log"
		configure "$name" "$src" "$odir" "$frag" || break
		select_objs "$src" "$odir" || break
		[ "$side" = base ] || { pbuilt=$built punbuilt=$unbuilt pnosrc=$nosrc; }
		echo "==== $side: make W=1${check:+ $check}$built" >>"$log"
		if [ -n "$built" ]; then
			build_objs "$src" "$odir" "$tmp/$side.out" || break
		else
			: >"$tmp/$side.out"
		fi
		warnings "$src" "$odir" "$tmp/$side.out" >"$tmp/$side.warn"
	done
	if [ -n "$why" ]; then
		say "FAIL $name: $side tree: $why (see $rel)"
		case $why in
		*failed*)
			{ grep -E ' error|Error|\*\*\*' "$log" || tail -5 "$log"; } |
				tail -15 | sed 's/^/      /'
			;;
		esac
		failed=$((failed + 1))
		stage_done "matrix-$name" "$start"
		continue
	fi

	cut -f1 "$tmp/patched.warn" | sort -u >"$tmp/patched.set"
	cut -f1 "$tmp/base.warn" | sort -u >"$tmp/base.set"
	comm -23 "$tmp/patched.set" "$tmp/base.set" >"$tmp/new.set"
	n_new=$(grep -c . "$tmp/new.set" || true)
	n_old=$(comm -12 "$tmp/patched.set" "$tmp/base.set" | grep -c . || true)
	n_objs=$(echo "$pbuilt" | wc -w)
	{
		echo "==== new warnings: $n_new"
		cat "$tmp/new.set"
	} >>"$log"
	line="$name: $n_objs objects, $n_new new warnings ($checker), $n_old pre-existing"
	if [ "$n_new" -eq 0 ]; then
		say "PASS $line"
		passed=$((passed + 1))
	else
		say "FAIL $line:"
		awk -F '\t' 'NR == FNR { new[$0]; next } $1 in new { print "      " $2 }' \
			"$tmp/new.set" "$tmp/patched.warn" | head -40
		failed=$((failed + 1))
	fi
	[ -z "$punbuilt" ] || say "      not built in this config:$punbuilt"
	[ -z "$pnosrc" ] || say "      no such source in $TREE:$pnosrc"
	stage_done "matrix-$name" "$start"
done

stage_done "config-matrix" "$total_start"
say "config-matrix: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
