"""The cover letters' checker (scripts/series/letters.py): the real
letters pass; a changed figure, a figure with no source, a link that
docs/related-work.md does not record, a long line, and a
0000-cover-letter.patch whose body is not its letter all fail.
Run: python3 -m unittest discover -s tests/letters (make letters does)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "scripts", "series"))
import letters  # noqa: E402

PART2 = "docs/cover-letter-part2-7.3.txt"


def read(rel):
    with open(os.path.join(letters.ROOT, rel), encoding="utf-8") as f:
        return f.read()


class FigureTest(unittest.TestCase):
    def test_real_letters_pass(self):
        for letter, patch in letters.pairs():
            text = read(letter)
            self.assertEqual(letters.figure_errors(letter, text), [])
            self.assertEqual(letters.body_errors(patch, read(patch), text), [])

    def test_changed_figure_fails(self):
        text = read(PART2)
        self.assertIn("4.07 GB/s", text)
        errors = letters.figure_errors(PART2, text.replace("4.07 GB/s", "4.17 GB/s"))
        self.assertEqual(len(errors), 1)
        self.assertIn("4.17 not in docs/generated/BENCHMARKS.md", errors[0])

    def test_rounded_figure_fails(self):
        text = read(PART2)
        self.assertIn("41.08 GB/s", text)
        errors = letters.figure_errors(PART2, text.replace("41.08 GB/s", "41.1 GB/s"))
        self.assertEqual(len(errors), 1)
        self.assertIn("41.1 not in", errors[0])

    def test_numbers_section_needs_a_source(self):
        text = "Numbers\n-------\n\nThe fault took 6.06 ms in patch 3.\n"
        errors = letters.figure_errors("x.txt", text)
        self.assertEqual(errors, ["x.txt:4: figures 6.06 with no source"])
        sourced = text.replace(".\n", " (docs/generated/BENCHMARKS.md).\n")
        self.assertEqual(letters.figure_errors("x.txt", sourced), [])
        # Outside a Numbers section a paragraph without a source is prose.
        self.assertEqual(letters.figure_errors("x.txt", text.replace("Numbers\n-------", "Design\n------")), [])

    def test_references_and_names_are_not_figures(self):
        text = ("Numbers\n-------\n\n- Patches 3-4 and part 2, see\n"
                "  docs/native/extents-2026-12-03.txt: REP STOSB 41.08 GB/s\n"
                "  at 2 MiB, 1,234 folios.\n")
        errors = letters.figure_errors("x.txt", text)
        self.assertEqual(errors, ["x.txt:4: 1234 not in docs/native/extents-2026-12-03.txt"])

    def test_link_must_be_recorded(self):
        known = "https://lore.kernel.org/all/20260107113130.37231-1-lizhe.67@bytedance.com/"
        text = "64 pages of 1 GiB in about 16 s:\n%s\n" % known
        self.assertEqual(letters.figure_errors("x.txt", text), [])
        errors = letters.figure_errors("x.txt", text.replace("lizhe", "nobody"))
        self.assertEqual(len(errors), 1)
        self.assertIn("is not recorded in docs/related-work.md", errors[0])

    def test_long_line_fails(self):
        errors = letters.figure_errors("x.txt", "a" * 76 + "\n")
        self.assertEqual(errors, ["x.txt:1: 76 columns (at most 75)"])


class BodyTest(unittest.TestCase):
    PATCH = ("From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 0/1] x\n\n"
             "first\nsecond\n\nAuthor (1):\n  one\n\n a | 1 +\n")

    def test_body_must_equal_letter(self):
        self.assertEqual(letters.body_errors("p", self.PATCH, "first\nsecond\n"), [])
        errors = letters.body_errors("p", self.PATCH, "first\nchanged\n")
        self.assertEqual(errors, ["p:5: differs from its letter's line 2: 'changed'"])
        self.assertEqual(len(letters.body_errors("p", self.PATCH, "first\n")), 1)

    def test_write_puts_the_letter_in(self):
        new = letters.with_body(self.PATCH, "one line\n")
        self.assertEqual(letters.body_errors("p", new, "one line\n"), [])
        self.assertTrue(new.endswith("Author (1):\n  one\n\n a | 1 +\n"))
        self.assertTrue(new.startswith("From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 0/1] x\n\n"))


if __name__ == "__main__":
    unittest.main()
