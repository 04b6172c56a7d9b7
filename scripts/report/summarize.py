#!/usr/bin/env python3
"""summarize.py LOGS BASE BOOT...: every test result of the named boots
(from LOGS/BOOT.tap and LOGS/BOOT.verdict), tests/known-failures applied,
ending with "N passed, N failed, N skipped", which also goes to
LOGS/summary.txt. Exit 1 if anything failed.

summarize.py --total LINE...: the sum of such lines, as one (a line that
is not one counts as a failure); exit 0.

SHOW=N (default 25): the lines of a failed or flaky test's output shown
with it, so that a CI log alone says why it failed.
"""
import collections
import fnmatch
import os
import re
import sys

import ktap

HERE = os.path.dirname(os.path.abspath(__file__))
KNOWN = os.path.join(os.path.dirname(os.path.dirname(HERE)),
                     "tests", "known-failures")
COUNTS = re.compile(r"(\d+) passed, (\d+) failed, (\d+) skipped$")


def known_failures():
    """(glob over BASE/BOOT, test, reason) of each line of
    tests/known-failures."""
    try:
        with open(KNOWN) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    rows = [x.split(None, 2) for x in lines if not x.startswith("#")]
    return [(r + [""])[:3] for r in rows if len(r) >= 2]


def show(lines, keep):
    """The last KEEP lines of a test's output."""
    for line in lines[max(len(lines) - keep, 0):] if keep > 0 else []:
        print("      | " + line)


def report_test(boot, t, reason, tap, keep):
    """Print one test's result, with REASON if it is a known failure;
    return what it counts as: passed, failed, skipped or xfail."""
    name = "%s/%s" % (boot, t.name)
    flaky = t.note.partition("flaky: ")[2]
    if t.result == "skip":
        print("SKIP  %s (%s)" % (name, t.note))
        return "skipped"
    if t.result == "ok" and flaky:
        first = flaky.startswith("failed with")
        print("PASS  %s (flaky: %s; %s, from %s:)" % (
            name, flaky, "the failed run" if first else "its output", tap))
        runs = t.failed_runs if first else [t.output]
        show(runs[-1] if runs else [], keep)
        return "passed"
    if t.result == "ok":
        print("PASS  %s%s" % (name, reason and " (listed as a known failure: "
                              "update tests/known-failures)"))
        return "passed"
    if reason:
        print("XFAIL %s (%s): known failure: %s" % (name, t.note, reason))
        return "xfail"
    print("FAIL  %s (%s)" % (name, t.note))
    show(t.output, keep)
    return "failed"


def summarize(logs, base, boots):
    known = known_failures()
    keep = int(os.environ.get("SHOW", "25"))
    n = collections.Counter()
    for boot in boots:
        ver = ktap.verdict(logs, boot)
        if not ver["ran"]:
            print("FAIL  %s: did not run" % boot)
            n["failed"] += 1
            continue
        tap = os.path.join(logs, boot + ".tap")
        stream = ktap.read(tap)
        problems = list(ver["problems"])
        if stream.plan is not None and stream.plan != len(stream.tests):
            problems.append("boot-fail: %d results for a plan of %d tests"
                            % (len(stream.tests), stream.plan))
        for t in stream.tests:
            reason = next((r for g, name, r in known if name == t.name and
                           fnmatch.fnmatchcase(base + "/" + boot, g)), "")
            n[report_test(boot, t, reason, tap, keep)] += 1
        # The boot itself: timeouts, an unfinished plan, kernel complaints.
        if problems:
            print("FAIL  %s/boot: %s" % (boot, " ".join(problems[:3])))
            print("      console log: %s/%s.console" % (logs, boot))
            n["failed"] += 1
        else:
            print("PASS  %s/boot (accel=%s secs=%s, no kernel warnings)" % (
                boot, ver["accel"], ver["secs"]))
            n["passed"] += 1
    if n["xfail"]:
        print("(%d known failures, listed with their reasons in "
              "tests/known-failures, are counted as skipped)" % n["xfail"])
    line = "%d passed, %d failed, %d skipped" % (
        n["passed"], n["failed"], n["skipped"] + n["xfail"])
    os.makedirs(logs, exist_ok=True)
    with open(os.path.join(logs, "summary.txt"), "w") as f:
        f.write(line + "\n")
    print(line)
    return 1 if n["failed"] else 0


def total(lines):
    sums = [0, 0, 0]
    for line in lines:
        m = COUNTS.search(line.strip())
        for i, x in enumerate(map(int, m.groups()) if m else (0, 1, 0)):
            sums[i] += x
    print("%d passed, %d failed, %d skipped" % tuple(sums))
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--total":
        return total(sys.argv[2:])
    if len(sys.argv) < 3:
        sys.exit("usage: summarize.py LOGS BASE BOOT... | --total LINE...")
    return summarize(sys.argv[1], sys.argv[2], sys.argv[3:])


if __name__ == "__main__":
    sys.exit(main())
