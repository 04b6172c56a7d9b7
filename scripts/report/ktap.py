"""Read a boot's result stream, build/BASE/logs/NAME.tap, and its .verdict.

This docstring is the written contract between the guest's test runner
(guest/plans/lib.sh, guest/init), which writes the stream to the guest's
second serial port, and its readers here. One stream per boot, KTAP, each
line ending in LF (CRs before it are dropped), no kernel messages:

    KTAP version 1
    # plan PLAN on RELEASE, ...          a plan-level diagnostic
    # bench-config kernel=K config=C     kernel and config of the figures
    # bench: {"bench":"boot",...}        a figure: one JSON object
    # ---- NAME: COMMAND                 test NAME starts
    # TEXT                               a line it printed
    # ---- NAME failed (exit=R), run I of N: COMMAND
                                         it runs again: the lines above
                                         were a failed run
    ok N NAME # time=3s                  its result: ok, not ok, or ok
    not ok N NAME # exit=1 time=4s       with "# SKIP" (a skip); the text
    ok N NAME # SKIP REASON              after "# " is the note
    Bail out! REASON                     fatal for the boot
    1..N                                 the plan had N tests
    # guest: done                        the plan ran to its end

A test's output is the diagnostics ("# TEXT", or "#" for an empty line)
from its start line to its result line; the others are plan-level. A
figure belongs to the test it is in, or to none; it takes "kernel" and
"config" from the latest "# bench-config" line unless it has them, and a
figure {"bench":"boot","kernel":K} sets the kernel of those after it too.
"""
import json
import os
import re

RESULT = re.compile(r"(not )?ok (\d+) (\S+)[^#]*(?:#\s?(.*))?$")
START = re.compile(r"---- (\S+?):(?: |$)")
RETRY = re.compile(r"---- (\S+) failed \(")
CONFIG = re.compile(r"bench-config kernel=(\S+) config=(\S+)")


class Test:
    """One test: number, name, result ("ok", "fail" or "skip"), note (the
    directive text), line (the result line), output (the lines of its last
    run) and failed_runs (the lines of each earlier run, which failed)."""

    def __init__(self, name):
        self.name, self.number, self.result, self.note = name, None, None, ""
        self.line = None
        self.output, self.failed_runs = [], []


class Stream:
    """A parsed stream: tests and figures in order, bails (the reasons of
    "Bail out!" lines), plan (N of "1..N", or None) and done."""

    def __init__(self):
        self.tests, self.figures, self.bails = [], [], []
        self.plan, self.done = None, False


def parse(lines):
    """The Stream of an iterable of lines."""
    s, test, kernel, config = Stream(), None, None, None
    for line in lines:
        line = line.rstrip("\r\n")
        m = RESULT.match(line)
        if m:
            if test is None or test.name != m.group(3):
                test = Test(m.group(3))     # a skip reported without a start
            test.number, test.line = int(m.group(2)), line
            test.note = m.group(4) or ""
            test.result = "fail" if m.group(1) else \
                "skip" if test.note.startswith("SKIP") else "ok"
            s.tests.append(test)
            test = None
        elif line.startswith("Bail out!"):
            s.bails.append(line[len("Bail out!"):].strip())
        elif re.match(r"1\.\.\d+$", line):
            s.plan = int(line[3:])
        elif line == "#" or line.startswith("# "):
            text = line[2:]
            start, retry = START.match(text), RETRY.match(text)
            if start:
                test = Test(start.group(1))
                continue
            if retry and test and retry.group(1) == test.name:
                test.failed_runs.append(test.output)
                test.output = []
                continue
            if test:
                test.output.append(text)
            if text == "guest: done":
                s.done = True
            elif CONFIG.match(text):
                kernel, config = CONFIG.match(text).groups()
            elif text.startswith("bench: "):
                fig = figure(text[len("bench: "):])
                if fig:
                    if fig["bench"] == "boot":
                        kernel = fig.get("kernel", kernel)
                    fig.setdefault("kernel", kernel)
                    fig.setdefault("config", config)
                    fig["test"] = test.name if test else None
                    s.figures.append(fig)
    return s


def figure(text):
    """The JSON object of a figure, or None if it is not one."""
    try:
        fig = json.loads(text)
    except ValueError:
        return None
    return fig if isinstance(fig, dict) and "bench" in fig else None


def read(path):
    """The Stream of the file PATH; an empty one if there is no such file."""
    try:
        with open(path, encoding="utf-8", errors="replace",
                  newline="\n") as f:
            return parse(f)
    except FileNotFoundError:
        return Stream()


def figures(logs, *boots):
    """The figures of LOGS/BOOT.tap of each BOOT, in that order."""
    return [f for b in boots
            for f in read(os.path.join(logs, b + ".tap")).figures]


def verdict(logs, boot):
    """LOGS/BOOT.verdict (scripts/boot/run-vm.sh's): {"ran": False} if
    there is none, else ran, accel and secs of its first line and problems,
    its "boot-fail:" and "kernel:" lines."""
    try:
        with open(os.path.join(logs, boot + ".verdict")) as f:
            lines = f.read().splitlines()
    except OSError:
        return {"ran": False}
    first = dict(re.findall(r"(\w+)=(\S+)", lines[0])) if lines else {}
    return {"ran": True, "accel": first.get("accel"),
            "secs": first.get("secs"),
            "problems": [x for x in lines[1:]
                         if x.startswith(("boot-fail:", "kernel:"))]}
