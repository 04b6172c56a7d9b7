#!/usr/bin/env python3
"""The cover letters, docs/cover-letter-[part2-]BASE.txt, checked without
a kernel tree (make letters; make lint and CI run it):

- Figures. A paragraph (or list item) that names a source is checked:
  every number in it must occur in a file it names. A source is a file of
  docs/generated/ or docs/native/, docs/related-work.md, or a
  lore.kernel.org link, whose Message-ID must be recorded in
  docs/related-work.md and which stands for that file. In a section headed "Numbers", a paragraph
  with a number must name a source. Patch and part numbers ("patch 3",
  "part 2", "patches 3-4") are references, not figures; the numbers in a
  source's own name are not checked. A number is matched as written,
  thousands commas aside: quote "41.08" where the file says 41.08.
- Width: no line of a letter is longer than 75 columns.
- One text. Each letter is the body of its series' 0000-cover-letter.patch
  (the file BASE names the series of each base): the lines between the
  mail's headers and the shortlog must be the letter's. --write puts each
  letter's text there, keeping the headers, shortlog and diffstat
  (scripts/series/cover-letter.sh writes the whole file from a work tree).

Usage: letters.py [--write]; exit 1 on any error, each printed as
FILE:LINE: what.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RELATED = "docs/related-work.md"
SOURCE = re.compile(r"(?:https?://)?lore\.kernel\.org/\S+"
                    r"|docs/(?:generated|native)/[\w.-]+|docs/related-work\.md")
REFERENCE = re.compile(r"\b(?:parts?|patch(?:es)?)\s+\d+"
                       r"(?:\s*(?:-|,|and|or)\s*\d+)*", re.I)
NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")
UNDERLINE = re.compile(r"^-{3,}$")
ITEM = re.compile(r"^(?:- |\d+\. )")
WIDTH = 75


def numbers(text):
    """The numbers of TEXT as written, without thousands commas."""
    return [n.replace(",", "") for n in NUMBER.findall(text.replace("..", " .. "))]


def blocks(text):
    """(first line number, section title, text) of each paragraph or list
    item of a letter; a title is the line above a line of dashes."""
    lines = text.split("\n")
    out, title, cur, start = [], "", [], 0
    for i, line in enumerate(lines):
        heading = i + 1 < len(lines) and UNDERLINE.match(lines[i + 1])
        if not line.strip() or heading or UNDERLINE.match(line) or ITEM.match(line):
            if cur:
                out.append((start, title, " ".join(cur)))
            cur = []
            if heading:
                title = line.strip()
            if not line.strip() or heading or UNDERLINE.match(line):
                continue
        if not cur:
            start = i + 1
            line = ITEM.sub("", line)
        cur.append(line.strip())
    if cur:
        out.append((start, title, " ".join(cur)))
    return out


def _read(root, rel, cache):
    if rel not in cache:
        try:
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                cache[rel] = f.read()
        except OSError:
            cache[rel] = None
    return cache[rel]


def _message_id(url):
    """The Message-ID of a lore link (lore.kernel.org/all/ID/, /r/ID, ...)."""
    return url.rstrip("/").rsplit("/", 1)[-1]


def figure_errors(name, text, root=ROOT, cache=None):
    """The figure and width errors of the letter NAME whose text is TEXT."""
    cache = {} if cache is None else cache
    errors = ["%s:%d: %d columns (at most %d)" % (name, i + 1, len(line), WIDTH)
              for i, line in enumerate(text.split("\n")) if len(line) > WIDTH]
    for line, title, block in blocks(text):
        names = [s.rstrip(".,;:)>") for s in SOURCE.findall(block)]
        figures = numbers(REFERENCE.sub(" ", SOURCE.sub(" ", block)))
        if not names:
            if figures and title.lower().startswith("numbers"):
                errors.append("%s:%d: figures %s with no source" %
                              (name, line, ", ".join(figures)))
            continue
        found = set()
        for src in names:
            rel = src
            if "lore.kernel.org" in src:
                rel = RELATED
                related = _read(root, RELATED, cache) or ""
                if _message_id(src) not in related:
                    errors.append("%s:%d: %s is not recorded in %s" %
                                  (name, line, src, RELATED))
            body = _read(root, rel, cache)
            if body is None:
                errors.append("%s:%d: no file %s" % (name, line, rel))
                continue
            found.update(numbers(body))
        missing = [n for n in figures if n not in found]
        if missing:
            errors.append("%s:%d: %s not in %s" % (name, line, ", ".join(
                dict.fromkeys(missing)), ", ".join(dict.fromkeys(names))))
    return errors


def _shortlog(lines):
    """The index of the shortlog's heading line ("Author (N):")."""
    for i in range(len(lines) - 1, 0, -1):
        if re.match(r"^\S.* \(\d+\):$", lines[i]) and not lines[i - 1]:
            return i
    return None


def split_patch(patch):
    """(headers, body, rest) of a 0000-cover-letter.patch, as line lists;
    the body is the text between the headers and the blank line before
    the shortlog, None if there is no shortlog."""
    lines = patch.split("\n")
    h = lines.index("") if "" in lines else len(lines)
    s = _shortlog(lines)
    if s is None or s <= h:
        return lines[:h + 1], None, []
    return lines[:h + 1], lines[h + 1:s - 1], lines[s - 1:]


def body_errors(name, patch, letter):
    head, body, _ = split_patch(patch)
    if body is None:
        return ["%s: no shortlog found" % name]
    want = letter.rstrip("\n").split("\n")
    for i, (a, b) in enumerate(zip(body, want)):
        if a != b:
            return ["%s:%d: differs from its letter's line %d: %r" %
                    (name, len(head) + i + 1, i + 1, b)]
    if len(body) != len(want):
        return ["%s: body has %d lines, its letter %d" %
                (name, len(body), len(want))]
    return []


def with_body(patch, letter):
    head, body, rest = split_patch(patch)
    if body is None:
        return patch
    return "\n".join(head + letter.rstrip("\n").split("\n") + rest)


def pairs(root=ROOT):
    """(letter, its 0000-cover-letter.patch) for every series of BASE."""
    out = []
    with open(os.path.join(root, "BASE")) as f:
        for line in f:
            col = line.split()
            if not col or col[0].startswith("#") or len(col) < 5:
                continue
            out.append(("docs/cover-letter-%s.txt" % col[0],
                        "%s/0000-cover-letter.patch" % col[4]))
            if len(col) > 5 and col[5] != "-":
                out.append(("docs/cover-letter-part2-%s.txt" % col[0],
                            "%s/0000-cover-letter.patch" % col[5]))
    return out


def main(argv):
    write = "--write" in argv
    errors, cache = [], {}
    for letter, patch in pairs():
        text = _read(ROOT, letter, cache)
        if text is None:
            errors.append("%s: missing" % letter)
            continue
        errors += figure_errors(letter, text, ROOT, cache)
        path = os.path.join(ROOT, patch)
        if not os.path.exists(path):
            errors.append("%s: missing" % patch)
            continue
        with open(path, encoding="utf-8") as f:
            mail = f.read()
        if write and with_body(mail, text) != mail:
            with open(path, "w", encoding="utf-8") as f:
                f.write(with_body(mail, text))
            print("wrote %s from %s" % (patch, letter))
            mail = with_body(mail, text)
        errors += body_errors(patch, mail, text)
    for e in errors:
        print(e)
    print("cover letters: %d error(s) in %d letters" % (len(errors), len(pairs())))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
