#!/bin/sh
# series-diff.sh [--show PATCH FILE]: the drift check between the two
# series, patches/ (7.3) and patches-6.12/ (6.12). It pairs the patches by
# their position in the two series files and, for each pair, holds what
# differs between them against tests/series-differences, which records the
# expected differences with a reason each. It fails when a difference is
# not as recorded: a fix made in one series and not the other, a hunk
# changed on one side, a subject that changed. It reads the patch files
# only (no kernel tree, no build), so it runs in seconds on a fresh clone.
#
# What is compared, per patch pair:
# - the subjects (without the "[PATCH]" prefix), as the row "(subject)";
# - each file the patches touch, as one row per file: the patch's text
#   for that file, normalized (no "index" lines, hunk headers reduced to
#   "@@": their line numbers and function names come from the base),
#   is diffed (diff -U0, hunk headers again reduced) between the two
#   bases. A row holds the first 12 hex digits of the sha256 of that
#   diff, its count of changed lines and the reason. A file touched by
#   one base's patch only is a row too (its whole text is the difference).
# Not compared: the commit messages (From, Date, the message, the
# diffstat, the "-- " version footer). They are written for each base and
# legitimately differ in most pairs (6.12's explain its own
# hotplug rebinding, memory notifier and clear_page_*()); fingerprinting
# them would make every wording change on one side fail, when what must
# not drift is the code, and it is the code's differences that are
# recorded with a reason. Nor the cover letters, which differ as a whole.
#
# UPDATE=1 (UPDATE=1 make series-diff) rewrites the rows of
# tests/series-differences with today's fingerprints and drops the rows
# whose difference is gone. A row that is the same keeps its reason; a new
# row gets the reason "TODO: say why", and a row whose difference changed
# "TODO: say why (was: REASON)". A reason that starts with "TODO: say why"
# fails the check until a person replaces it with the reason for the
# difference as it is now. The comment lines at the top of the file are
# kept; rows are rewritten in patch and file order.
# --show PATCH FILE prints that row's current difference (PATCH is the
# number, 0003; FILE a path or "(subject)"): a line that starts with "-"
# is patches/'s, "+" patches-6.12/'s, followed by the patch line itself
# ("-+x": 7.3's patch adds x, 6.12's does not).
# SERIES_A, SERIES_B and EXPECT override the two folders and the list.
# Where both bases have a part 2 (the file BASE), their part 2 folders are
# held against tests/series-differences-part2 the same way, first.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ -z "${SERIES_A:-}" ]; then
	# shellcheck disable=SC2046 # two folder names
	set -- $(base_lines | awk 'NR <= 2 { print $5, ($6 == "" ? "-" : $6) }') "$@"
	if [ "$2" != - ] && [ "$4" != - ] && [ "${5:-}" != --show ]; then
		SERIES_A=$ROOT/$2 SERIES_B=$ROOT/$4 EXPECT=$ROOT/tests/series-differences-part2 \
			"$0" || exit 1
	fi
	SERIES_A=$ROOT/$1 SERIES_B=$ROOT/$3
	shift 4
fi
A=$SERIES_A
B=${SERIES_B:?}
EXPECT=${EXPECT:-$ROOT/tests/series-differences}
TODO="TODO: say why"
an=$(basename "$A")
bn=$(basename "$B")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# split_patch PATCH OUT: write the patch's subject to OUT/(subject) and the
# normalized text of each file it touches to OUT/files/PATH.
split_patch() {
	mkdir -p "$2/files"
	awk -v out="$2" '
		{ line[NR] = $0 }
		END {
			# The format-patch footer: "-- ", then the git version.
			n = NR
			while (n > 0 && line[n] == "") n--
			if (n > 1 && line[n] ~ /^[0-9]+(\.[0-9A-Za-z]+)+$/ && line[n - 1] == "-- ")
				n -= 2
			subj = ""; insubj = 0; f = ""
			for (i = 1; i <= n; i++) {
				l = line[i]
				if (f == "") {
					# The header: only the subject, unfolded.
					if (l ~ /^Subject: /) { subj = substr(l, 10); insubj = 1; continue }
					if (insubj && l ~ /^[ \t]/) { sub(/^[ \t]+/, " ", l); subj = subj l; continue }
					insubj = 0
				}
				if (l ~ /^diff --git a\/.* b\//) {
					if (f != "") close(f)
					p = l
					sub(/.* b\//, "", p)
					f = out "/files/" p
					d = f
					sub(/\/[^\/]*$/, "", d)
					system("mkdir -p \047" d "\047")
					print l > f
					continue
				}
				if (f == "") continue
				if (l ~ /^index [0-9a-f]+\.\.[0-9a-f]+/) continue
				if (l ~ /^@@ /) l = "@@"
				print l > f
			}
			sub(/^\[[^]]*\] /, "", subj)
			print subj > (out "/(subject)")
		}
	' "$1"
}

# row N FILE: the diff between the bases for one row; empty if none.
row() {
	fa=$tmp/a/$1/$2 fb=$tmp/b/$1/$2
	[ "$2" = "(subject)" ] || fa=$tmp/a/$1/files/$2 fb=$tmp/b/$1/files/$2
	[ -f "$fa" ] || fa=/dev/null
	[ -f "$fb" ] || fb=/dev/null
	diff -U0 "$fa" "$fb" | sed -e '1,2d' -e 's/^@@ .* @@$/@@/' || true
}

# The series files: one patch a line.
series_patches "$A" > "$tmp/series.a"
series_patches "$B" > "$tmp/series.b"
na=$(($(wc -l < "$tmp/series.a")))
nb=$(($(wc -l < "$tmp/series.b")))
[ "$na" = "$nb" ] ||
	die "$an/series has $na patches, $bn/series $nb: the series must have the same patches in the same order"
i=0
while [ "$i" -lt "$na" ]; do
	i=$((i + 1))
	n=$(printf '%04d' "$i")
	pa=$(sed -n "${i}p" "$tmp/series.a")
	pb=$(sed -n "${i}p" "$tmp/series.b")
	[ -f "$A/$pa" ] || die "$an/series names $pa, which is not in $an/"
	[ -f "$B/$pb" ] || die "$bn/series names $pb, which is not in $bn/"
	split_patch "$A/$pa" "$tmp/a/$n"
	split_patch "$B/$pb" "$tmp/b/$n"
	printf '%s %s %s\n' "$n" "$pa" "$pb" >> "$tmp/names"
done

if [ "${1:-}" = --show ]; then
	[ $# -eq 3 ] || die "usage: $0 --show PATCH FILE"
	[ -d "$tmp/a/$2" ] || die "no patch $2 (the series have $na)"
	row "$2" "$3"
	exit 0
fi

# Today's rows: PATCH FILE FINGERPRINT LINES WHERE (both, or the one base
# whose patch touches the file).
while read -r n pa pb; do
	{
		echo "(subject)"
		(cd "$tmp/a/$n/files" && find . -type f)
		(cd "$tmp/b/$n/files" && find . -type f)
	} | sed 's|^\./||' | LC_ALL=C sort -u | while read -r f; do
		row "$n" "$f" > "$tmp/row"
		[ -s "$tmp/row" ] || continue
		where=both
		if [ "$f" != "(subject)" ]; then
			[ -f "$tmp/a/$n/files/$f" ] || where=$bn
			[ -f "$tmp/b/$n/files/$f" ] || where=$an
		fi
		printf '%s %s %s %s %s\n' "$n" "$f" \
			"$(sha256sum < "$tmp/row" | cut -c1-12)" \
			"$(grep -c '^[-+]' "$tmp/row" || true)" "$where"
	done
done < "$tmp/names" > "$tmp/now"

[ -f "$EXPECT" ] || : > "$EXPECT"
if [ "${UPDATE:-}" = 1 ]; then
	# Keep the leading comments and the reasons of the rows that remain;
	# a row whose difference changed keeps its reason behind a TODO.
	awk -v todo="$TODO" '
		{ file = FILENAME == ARGV[1] ? 1 : 2 }
		file == 1 && !/^[[:space:]]*(#|$)/ { body = 1 }
		file == 1 && !body { print; next }
		file == 1 && !/^[[:space:]]*(#|$)/ {
			r = $0
			for (k = 1; k <= 4; k++) sub(/^[^[:space:]]+[[:space:]]+/, "", r)
			if (NF < 5) r = ""
			reason[$1 " " $2] = r
			was[$1 " " $2] = $3 " " $4
			next
		}
		file == 2 {
			k = $1 " " $2
			r = k in reason ? reason[k] : ""
			if (r != "" && index(r, todo) != 1 && was[k] != $3 " " $4)
				r = todo " (was: " r ")"
			if (r == "") r = todo
			printf "%s  %-50s  %s  %4d  %s\n", $1, $2, $3, $4, r
		}
	' "$EXPECT" "$tmp/now" > "$tmp/expect"
	cat "$tmp/expect" > "$EXPECT"
	say "series-diff: wrote $(grep -vc '^[[:space:]]*\(#\|$\)' "$EXPECT" || true) rows to ${EXPECT#"$ROOT"/}"
fi

# Hold today's rows against the list; say what drifted and what to do.
rel=${EXPECT#"$ROOT"/}
awk -v an="$an" -v bn="$bn" -v rel="$rel" -v todo="$TODO" -v names="$tmp/names" '
	BEGIN {
		while ((getline l < names) > 0) {
			split(l, w, " ")
			pa[w[1]] = an "/" w[2]
			pb[w[1]] = bn "/" w[3]
			np++
		}
	}
	{ file = FILENAME == ARGV[1] ? 1 : 2 }
	/^[[:space:]]*(#|$)/ { next }
	file == 1 {
		k = $1 " " $2
		r = $0
		for (i = 1; i <= 4; i++) sub(/^[^[:space:]]+[[:space:]]+/, "", r)
		if (NF < 5) r = ""
		want[k] = $3 " " $4
		why[k] = r
		order[++nk] = k
		next
	}
	{
		k = $1 " " $2
		now[k] = $3 " " $4
		where[k] = $5
		order_now[++nn] = k
	}
	# report(KEY, MESSAGE, HOW): one row that is not as recorded; HOW 1
	# names the two patches, 2 does and has no difference to show.
	function report(k, msg, how, w, f) {
		split(k, w, " ")
		f = w[2] == "(subject)" ? "\047(subject)\047" : w[2]
		printf "DRIFT %s %s: %s\n", w[1], w[2], msg
		if (how)
			printf "      %s\n      %s\n", pa[w[1]], pb[w[1]]
		if (how < 2)
			printf "      see it: scripts/series/series-diff.sh --show %s %s\n", w[1], f
		bad++
	}
	END {
		for (i = 1; i <= nn; i++) {
			k = order_now[i]
			split(now[k], c, " ")
			side = where[k] == "both" ? "" : ", a file that only the " where[k] "/ patch touches"
			if (!(k in want))
				report(k, "the bases differ (" c[2] " lines" side ") and " rel " records no difference", 1)
			else if (want[k] != now[k]) {
				split(want[k], o, " ")
				report(k, "the difference between the bases changed" side ": recorded " o[2] " lines (" o[1] "), now " c[2] " lines (" c[1] ")", 1)
			} else if (why[k] == "" || index(why[k], todo) == 1) {
				todos++
				report(k, "recorded in " rel " without a reason: replace \"" todo "\" with why the bases differ", 0)
			}
		}
		for (i = 1; i <= nk; i++) {
			k = order[i]
			if (!(k in now))
				report(k, "recorded in " rel ", but the bases no longer differ there", 2)
		}
		if (bad) {
			print ""
			print "series-diff: " bad " row(s) of " rel " do not hold for " an "/ against " bn "/."
			if (bad > todos) {
				print "A change made to one series only: make it in the other one as well."
				print "An intended difference: record it with \"UPDATE=1 make series-diff\" (reasons"
				print "are kept), then replace each \"" todo "\" in " rel " with the reason."
			} else
				print "Replace each \"" todo "\" in " rel " with why the bases differ there."
			exit 1
		}
		printf "series-diff: %d patches, %d recorded differences between %s/ and %s/, as expected\n", np, nn, an, bn
	}
' "$EXPECT" "$tmp/now"
