#!/usr/bin/env python3
"""bench-scale-report.py LOGS OUT PART DOC: the make bench-scale report.

Reads the console of the scale boot (LOGS/bench-scale.console and its
.verdict), which holds the JSON lines of guest/plans/scale-bench after
"# bench-config kernel=patched config=C" markers, and writes OUT/scale.json
(every record), PART (docs/BENCHMARKS-scale.md: the table, the command and
how to read it) and the same text as the last section of DOC
(docs/BENCHMARKS.md), which scripts/bench-report.py keeps when it rewrites
DOC. Medians are over the repetitions; nothing here judges a figure.
"""
import datetime
import importlib.util
import json
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = "## 7. Scale: work under hugetlb_lock against the number of workers"

spec = importlib.util.spec_from_file_location(
    "bench_report", os.path.join(ROOT, "scripts", "bench-report.py"))
bench_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_report)


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def fmt(v, digits=1):
    if v is None:
        return "-"
    return "%.*f" % (digits, v)


def rows(recs, size_kb, prefix):
    out = []
    for w in (1, 8, 32):
        def pick(bench, config):
            return bench_report.pick(recs, bench, size_kb=size_kb, config=config)
        refill = pick("scale-refill", "%sworkers-%d" % (prefix, w))
        bursts = pick("scale-burst", "%sworkers-%d" % (prefix, w))
        idle = [r for r in bursts if r["dirty"] == 0]
        busy = [r for r in bursts if r["dirty"] > 0]
        floor = pick("scale-burst", "floor-%d" % w) if not prefix else []
        if not (refill or idle or busy):
            continue
        per_zeroed = med([r["lock_acq"] / r["zeroed"] for r in refill if r["zeroed"]])
        # The burst's acquisitions include the workers' own, per folio
        # they zeroed meanwhile: the rest is the allocations'.
        own = med([(r["lock_acq_fault"] - (per_zeroed or 0) * r["zeroed_meanwhile"])
                   / r["pages"] for r in busy])
        out.append([
            str(w),
            fmt(per_zeroed),
            fmt(med([r["lock_acq_fault"] / r["pages"] for r in idle]), 2),
            fmt(med([r["lock_acq_fault"] / r["pages"] for r in busy]), 2),
            fmt(own, 2),
            fmt(med([r["lock_acq_map"] for r in idle + busy]), 0),
            fmt(med([r["lock_acq_free"] / r["pages"] for r in idle + busy]), 2),
            fmt(med([r["zeroed_meanwhile"] for r in busy]), 0),
            fmt(med([r["steal"] for r in busy]), 0),
            fmt(med([r["burst_us"] / 1000 for r in idle]), 1),
            fmt(med([r["burst_us"] / 1000 for r in busy]), 1),
            fmt(med([r["burst_us"] / 1000 for r in floor]), 1) if not prefix else "-",
            fmt(med([r["p50_us"] for r in busy]), 0),
            fmt(max([r["max_us"] for r in busy], default=None), 0),
        ])
    return out


COLS = ["workers", "acq/zeroed folio", "acq/fault idle", "acq/fault refill",
        "acq/fault refill, less workers'", "acq mmap", "acq/page munmap",
        "zeroed meanwhile", "steals", "burst ms idle", "burst ms refill",
        "burst ms floor", "fault p50 us refill", "fault max us refill"]


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: bench-scale-report.py LOGS OUT PART DOC")
    logs, outdir, part, doc = sys.argv[1:]
    recs, lost = bench_report.parse_console(os.path.join(logs, "bench-scale.console"))
    if not any(r["bench"].startswith("scale-") for r in recs):
        sys.exit("no scale figures in %s/bench-scale.console" % logs)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "scale.json"), "w") as f:
        json.dump(recs, f, indent=1)
    boot = next((r for r in recs if r["bench"] == "boot"), {})
    ver = bench_report.verdict(logs, "bench-scale")
    name = bench_report.base_line()[0]
    cmd = "make bench-scale" if name == bench_report.first_base()[0] else \
        "BASE=%s make bench-scale" % name
    lines = [
        HEAD,
        "",
        "Written by `%s` (scripts/bench-scale.sh, guest/plans/scale-bench, "
        "bench/scale_bench.c, scripts/bench-scale-report.py) on %s." % (
            cmd, datetime.date.today().isoformat()),
        "",
        "* Guest: %s vCPUs on 2 NUMA nodes, %s MiB, accelerator %s, boot %s s; kernel %s "
        "(lock_stat flavour, configs/lockstat.config)" % (
            boot.get("cpus", "?"), boot.get("mem_kb", 0) // 1024, ver.get("accel", "?"),
            ver.get("secs", "?"), boot.get("release", "?")),
        "* Repetitions: %s; medians over them (the fault max is the maximum)%s" % (
            boot.get("reps", "?"), "; %d lines lost to the console" % lost if lost else ""),
        "",
    ]
    for size_kb, label, prefix, what in (
            (2048, "2 MiB", "", "node 0, CPU 0: 128 faults; refill = 1024 dirty folios freed "
             "just before"),
            (1048576, "1 GiB", "1G-", "node 1, its first CPU: 1 fault; refill = 1 dirty folio "
             "freed just before")):
        r = rows(recs, size_kb, prefix)
        if not r:
            continue
        lines += ["%s pages (%s):" % (label, what), "", "```"]
        lines += bench_report.table(r, COLS)
        lines += ["```", ""]
    lines += [
        "How to read it. acq = acquisitions of hugetlb_lock counted by lock_stat. "
        "\"acq/zeroed folio\": a worker's, per folio it zeroed (claim and publish). "
        "\"acq/fault idle\": per fault, nothing being zeroed. \"acq/fault refill\": per "
        "fault while the node's workers zero the dirty folios, their own acquisitions "
        "included; \"less workers'\" takes out acq/zeroed folio times the folios they "
        "zeroed during the burst. What an allocation does under the lock is the same "
        "with 1, 8 or 32 workers when those columns do not grow with the workers. "
        "The times are TCG's: with more busy vCPUs than host cores they measure the "
        "emulator's overcommit, which the floor column shows (the idle burst beside "
        "workers - 1 user-space busy loops on the node's other CPUs, one worker); read "
        "the refill burst against its floor, not against the idle one.",
    ]
    text = "\n".join(lines) + "\n"
    with open(part, "w") as f:
        f.write(text)
    if os.path.exists(doc):
        old = open(doc).read()
        if HEAD in old:
            old = old[:old.index(HEAD)]
        with open(doc, "w") as f:
            f.write(old.rstrip("\n") + "\n\n" + text)
    print(text, end="")


if __name__ == "__main__":
    main()
