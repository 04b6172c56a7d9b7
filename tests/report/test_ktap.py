"""The result stream's reader (scripts/report/ktap.py) and the summary
(scripts/report/summarize.py) on a made-up stream: which output and
figures belong to which test, retries, skips, known failures.
Run: python3 -m unittest discover -s tests/report (make lint does)."""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "scripts", "report"))
import ktap  # noqa: E402
import summarize  # noqa: E402

STREAM = """KTAP version 1
# plan demo on 7.3.0, 2 cpus
# bench: {"bench":"boot","kernel":"patched"}
# bench-config kernel=patched config=off
# ---- first: ./first
# line one
# bench: {"bench":"fault","per_page_us":5.0}
# ---- first failed (exit=1), run 2 of 2: ./first
# line two
ok 1 first # time=1s flaky: failed with exit=1, passed on run 2
# between tests
# ---- second: ./second
# bench: not json
not ok 2 second # exit=3 time=0s
ok 3 third # SKIP not here
1..3
# guest: done
"""


class StreamTest(unittest.TestCase):
    def setUp(self):
        self.s = ktap.parse(io.StringIO(STREAM))

    def test_tests(self):
        self.assertEqual([(t.number, t.name, t.result) for t in self.s.tests],
                         [(1, "first", "ok"), (2, "second", "fail"),
                          (3, "third", "skip")])
        first = self.s.tests[0]
        self.assertEqual(first.output, ["line two"])
        self.assertEqual(first.failed_runs[0][0], "line one")
        self.assertTrue(self.s.done)
        self.assertEqual(self.s.plan, 3)

    def test_figures(self):
        boot, fault = self.s.figures
        self.assertIsNone(boot["test"])
        self.assertEqual((fault["test"], fault["kernel"], fault["config"]),
                         ("first", "patched", "off"))


class SummaryTest(unittest.TestCase):
    def test_counts(self):
        with tempfile.TemporaryDirectory() as logs:
            with open(os.path.join(logs, "b.tap"), "w") as f:
                f.write(STREAM)
            with open(os.path.join(logs, "b.verdict"), "w") as f:
                f.write("boot b plan=demo accel=tcg secs=9 rc=0\n")
            out = io.StringIO()
            with redirect_stdout(out):
                rc = summarize.summarize(logs, "7.3", ["b", "missing"])
        self.assertEqual(rc, 1)
        # first (flaky) and the boot pass; second and "missing" fail.
        self.assertEqual(out.getvalue().splitlines()[-1],
                         "2 passed, 2 failed, 1 skipped")
        self.assertIn("FAIL  missing: did not run", out.getvalue())

    def test_lost_result(self):
        """A result line that did not come back fails the boot."""
        with tempfile.TemporaryDirectory() as logs:
            with open(os.path.join(logs, "b.tap"), "w") as f:
                f.write(STREAM.replace("not ok 2 second", "# not ok 2 second"))
            with open(os.path.join(logs, "b.verdict"), "w") as f:
                f.write("boot b plan=demo accel=tcg secs=9 rc=0\n")
            out = io.StringIO()
            with redirect_stdout(out):
                rc = summarize.summarize(logs, "7.3", ["b"])
        self.assertEqual(rc, 1)
        self.assertIn("2 results for a plan of 3 tests", out.getvalue())

    def test_total(self):
        out = io.StringIO()
        with redirect_stdout(out):
            summarize.total(["1 passed, 0 failed, 0 skipped",
                             "5 passed, 2 failed, 3 skipped", "garbage"])
        self.assertEqual(out.getvalue().strip(),
                         "6 passed, 3 failed, 3 skipped")


if __name__ == "__main__":
    unittest.main()
