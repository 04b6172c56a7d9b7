#!/bin/sh
# post-prep.sh: a ready-to-post copy of the base's series in
# build/BASE/post/ (its part 2, if the file BASE names one, in
# build/BASE/post-part2/), from the poster's identity instead of the
# project's placeholder, checked with checkpatch --strict.
#
# It copies the series folder (the cover letter, then the patches in
# `series` order) as committed, not scripts/series/series.sh's output: the
# committed files are the reviewed series, whatever state the work tree is
# in, and the rewrite needs no kernel tree (checkpatch alone does). In
# each file it rewrites only exact placeholder lines: the From: header (in
# the mail header), the placeholder's Signed-off-by: (in the commit
# message, never below its "---"), and the cover letter's shortlog
# heading "hugetlb-prezero project (N):"; no other header, trailer or text.
#
# The poster: NAME and EMAIL when both are set, else GIT_AUTHOR_NAME and
# GIT_AUTHOR_EMAIL, else git config user.name and user.email, as git takes
# them. An unset, placeholder, or throwaway (example.*, noreply, ...)
# identity is refused. A name with non-ASCII characters is written as
# git format-patch writes it: an RFC 2047 encoded From: (=?UTF-8?q?...?=)
# and MIME headers declaring the UTF-8 of the Signed-off-by: line.
#
# Then every patch (not the cover letter) must pass the tree's
# scripts/checkpatch.pl --strict, except the types tests/checkpatch-ignore
# accepts, as in make lint; it needs a kernel tree, $TREE (build/BASE/linux,
# made by make tree; TREE=/path/to/linux for another). build/BASE/post/
# holds only a series that passed: the copy is written to post.tmp/ and
# moved there at the end.
set -eu
# lib.sh sets GIT_AUTHOR_* to the placeholder: take the user's first.
if [ -n "${NAME:-}" ] && [ -n "${EMAIL:-}" ]; then
	name=$NAME email=$EMAIL from="NAME and EMAIL"
else
	name=${GIT_AUTHOR_NAME:-} email=${GIT_AUTHOR_EMAIL:-} from=
fi
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ -z "$from" ]; then
	if [ -n "$name" ]; then
		from=GIT_AUTHOR_NAME
	else
		name=$(git -C "$ROOT" config user.name || true)
		from="git config user.name"
	fi
	if [ -n "$email" ]; then
		from="$from, GIT_AUTHOR_EMAIL"
	else
		email=$(git -C "$ROOT" config user.email || true)
		from="$from, user.email"
	fi
fi
# A posted series carries the poster's real identity (the DCO asks for it).
refuse() {
	die "$1
Set the name and address you sign off with, in this repository or globally:
    git config user.name \"Your Name\"
    git config user.email \"you@your.domain\"
or for one run: NAME=\"Your Name\" EMAIL=\"you@your.domain\" make post-prep"
}
[ -n "$name" ] || refuse "no name to post as: git config user.name is unset"
[ -n "$email" ] || refuse "no address to post as: git config user.email is unset"
if [ "$name" = "$PROJECT_NAME" ] || [ "$email" = "$PROJECT_EMAIL" ]; then
	refuse "\"$name <$email>\" ($from) is the project's placeholder, not a person"
fi
case $name in
*[\<\>]* | *[[:cntrl:]]* | [[:space:]]* | *[[:space:]])
	refuse "\"$name\" ($from) is not a name: no <, > or control characters, no leading or trailing blanks" ;;
esac
printf '%s' "$name" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 ||
	refuse "\"$name\" ($from) is not valid UTF-8"
case $email in *[[:space:][:cntrl:]]*) refuse "\"$email\" ($from) is not a mail address" ;; esac
printf '%s\n' "$email" | grep -Eq '^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$' ||
	refuse "\"$email\" ($from) is not a mail address"
# Reserved domains (RFC 2606, 6761), local ones, and no-reply addresses.
case $(printf '%s' "$email" | tr '[:upper:]' '[:lower:]') in
*@example.* | *.example | *@*.example.* | *.invalid | *.test | *.localhost | *.local | \
*.localdomain | *noreply* | *no-reply* | *no_reply* | *@localhost*)
	refuse "\"$email\" ($from) is not an address that reaches you" ;;
esac

checkpatch=$TREE/scripts/checkpatch.pl
[ -f "$checkpatch" ] ||
	die "no kernel tree at $TREE for checkpatch: run 'make tree' first (or TREE=/path/to/linux)"

# from_header: the From: header of $name and $email as git format-patch
# writes it (pretty.c): RFC 2047 "q" words of whole characters, at most 76
# columns a line, when the name is not ASCII; "quoted" when it has an RFC
# 822 special; and " <email>" on a line of its own when it does not fit.
from_header() {
	printf '%s' "$name" | od -An -tu1 -v | awk -v email="$email" '
	{ for (i = 1; i <= NF; i++) b[++n] = $i }
	END {
		for (i = 1; i <= n; i++) {
			c = sprintf("%c", b[i])
			if (b[i] > 127 || (c == "=" && i < n && b[i + 1] == 63)) enc = 1
			if (index("()<>[]:;@,.\"\\", c)) quote = 1
		}
		max = 78
		if (enc) {
			max = 76
			out = "=?UTF-8?q?"
			len = 16
			for (i = 1; i <= n; i += clen) {
				clen = b[i] >= 240 ? 4 : b[i] >= 224 ? 3 : b[i] >= 192 ? 2 : 1
				c = sprintf("%c", b[i])
				special = clen > 1 || c !~ /[A-Za-z0-9!*+\/-]/
				elen = special ? 3 * clen : 1
				if (len + elen + 2 > max) {
					out = out "?=\n =?UTF-8?q?"
					len = 11
				}
				for (j = i; j < i + clen; j++)
					out = out (special ? sprintf("=%02X", b[j]) : sprintf("%c", b[j]))
				len += elen
			}
			out = "From: " out "?="
		} else {
			for (i = 1; i <= n; i++) {
				c = sprintf("%c", b[i])
				out = out (quote && (c == "\"" || c == "\\") ? "\\" : "") c
			}
			if (quote)
				out = "\"" out "\""
			# Wrapped at blanks to 78 columns, as strbuf_add_wrapped_bytes().
			nw = split(out, w, / /)
			out = "From:"
			len = 5
			for (i = 1; i <= nw; i++) {
				if (len + 1 + length(w[i]) > max) {
					out = out (i == 1 ? " " : "") "\n"
					len = 0
				}
				out = out " " w[i]
				len += 1 + length(w[i])
			}
		}
		last = out
		sub(/.*\n/, "", last)
		if (max < length(last) + length(email) + 3)
			out = out "\n"
		print out " <" email ">"
	}'
}

export OLD_FROM="From: $PROJECT_NAME <$PROJECT_EMAIL>"
export OLD_SOB="Signed-off-by: $PROJECT_NAME <$PROJECT_EMAIL>"
export OLD_NAME="$PROJECT_NAME"
NEW_FROM=$(from_header)
export NEW_FROM
export NEW_SOB="Signed-off-by: $name <$email>"
export NEW_NAME="$name"
# Non-ASCII in the body needs the MIME headers format-patch would add.
mime=0
if printf '%s' "$name" | LC_ALL=C grep -q '[^ -~]'; then
	mime=1
fi

# rewrite FILE [SUBJECT_PREFIX]: FILE with the placeholder's lines, and
# only those, rewritten; with SUBJECT_PREFIX, its "Subject: [PATCH]" too.
rewrite() {
	awk -v mime="$mime" -v cover="$(case $1 in */0000-*) echo 1 ;; *) echo 0 ;; esac)" \
		-v subject="${2:-}" '
	BEGIN { part = "header" }
	part == "header" && subject != "" && index($0, "Subject: [PATCH] ") == 1 {
		print "Subject: [" subject "] " substr($0, 18)
		next
	}
	part == "header" && $0 == "" {
		if (mime && !ctype)
			print "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit"
		part = "message"
	}
	part == "header" && /^Content-Type:/ { ctype = 1 }
	part == "header" && $0 == ENVIRON["OLD_FROM"] { print ENVIRON["NEW_FROM"]; next }
	part == "message" && !cover && $0 == "---" { part = "diff" }
	part == "message" && !cover && $0 == ENVIRON["OLD_SOB"] { print ENVIRON["NEW_SOB"]; next }
	part == "message" && cover && index($0, ENVIRON["OLD_NAME"] " (") == 1 &&
	    substr($0, length(ENVIRON["OLD_NAME"]) + 3) ~ /^[0-9]+\):$/ {
		print ENVIRON["NEW_NAME"] substr($0, length(ENVIRON["OLD_NAME"]) + 1)
		next
	}
	{ print }
	' "$1"
}

prefix=PATCH
[ "$BASE" = "$DEFAULT_BASE" ] || prefix="PATCH $BASE"

# prep DIR OUT: the series of DIR rewritten into OUT, and checked.
prep() {
	say "post-prep: posting ${1#"$ROOT"/}/ as $name <$email> ($from)"
	tmp=$2.tmp
	rm -rf "$2" "$tmp"
	mkdir -p "$tmp"
	patches=$(series_patches "$1")
	# Numbered subjects, as make series gives them ("[PATCH 01/13]"; a
	# backport's name its base: "[PATCH 6.12 01/13]").
	total=$(printf '%s\n' "$patches" | grep -c .)
	[ ! -f "$1/0000-cover-letter.patch" ] ||
		rewrite "$1/0000-cover-letter.patch" > "$tmp/0000-cover-letter.patch"
	i=0
	for p in $patches; do
		[ -f "$1/$p" ] || die "${1#"$ROOT"/}/$p: in its series file, but missing"
		i=$((i + 1))
		rewrite "$1/$p" "$prefix $(printf '%0*d' "${#total}" "$i")/$total" > "$tmp/$p"
	done

	rc=0
	left=$(grep -rlF -e "$PROJECT_EMAIL" -e "$PROJECT_NAME" "$tmp" || true)
	if [ -n "$left" ]; then
		say "the placeholder is still in:"
		say "$left"
		rc=1
	fi
	say "== checkpatch --strict ($checkpatch)"
	for p in $patches; do
		n=$(grep -cxF "$NEW_SOB" "$tmp/$p" || true)
		if [ "$n" != 1 ]; then
			say "$p: $n Signed-off-by: lines of $name <$email>, not 1"
			rc=1
		fi
		checkpatch "$p" "$tmp/$p" || rc=1
	done
	[ "$rc" = 0 ] || die "not ready to post; the rewritten copy is in $tmp"
	mv "$tmp" "$2"
	say "post-prep: $(find "$2" -name '*.patch' | wc -l) files in $2, from $name <$email>"
}

prep "$PATCHES" "$BUILD/post"
[ -z "$PART2" ] || prep "$PART2" "$BUILD/post-part2"
