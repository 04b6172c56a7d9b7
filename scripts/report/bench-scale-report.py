#!/usr/bin/env python3
"""bench-scale-report.py LOGS OUT PART DOC: the make bench-scale report.

Reads the figures of guest/plans/scale-bench in the result stream of the
scale boot (LOGS/bench-scale.tap and its .verdict; ktap.py), each with its
kernel and config, and those of the 2-vCPU boots (bench-fair-stock and
bench-fair-patched, guest/plans/fair-bench) where they ran, and writes
OUT/scale.json (every figure), PART (docs/generated/BENCHMARKS-scale.md: the table,
the command and how to read it) and the same text as the last section of
DOC (docs/generated/BENCHMARKS.md), which bench-report.py keeps when it rewrites
DOC. Medians are over the repetitions; nothing here judges a figure.
"""
import datetime
import importlib.util
import json
import os
import statistics
import sys

import ktap

HERE = os.path.dirname(os.path.abspath(__file__))
HEAD = "## 7. Scale: work under hugetlb_lock against the number of workers"

spec = importlib.util.spec_from_file_location(
    "bench_report", os.path.join(HERE, "bench-report.py"))
bench_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_report)


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def fmt(v, digits=1):
    if v is None:
        return "-"
    return "%.*f" % (digits, v)


def per(rec, key, n):
    """rec[key] / n, or None if the trace did not count it."""
    v = rec.get(key)
    if v is None or v < 0 or not n:
        return None
    return v / n


def rows(recs, size_kb, prefix):
    out = []
    for w in (1, 8, 32):
        def pick(bench, config):
            return bench_report.pick(recs, bench, size_kb=size_kb, config=config)
        refill = pick("scale-refill", "%sworkers-%d" % (prefix, w))
        bursts = pick("scale-burst", "%sworkers-%d" % (prefix, w))
        idle = [r for r in bursts if r["dirty"] == 0]
        busy = [r for r in bursts if r["dirty"] > 0]
        for r in bursts:
            parts = [r.get("lock_acq_fault_" + k) for k in ("own", "workers", "other")]
            ok = all(v is not None and v >= 0 for v in parts)
            r["lock_acq_fault_all"] = sum(parts) if ok else None
        floor = pick("scale-burst", "floor-%d" % w) if not prefix else []
        if not (refill or idle or busy):
            continue
        out.append([
            str(w),
            fmt(med([per(r, "lock_acq_workers", r["zeroed"]) for r in refill])),
            fmt(med([per(r, "lock_acq_fault_own", r["pages"]) for r in idle]), 2),
            fmt(med([per(r, "lock_acq_fault_own", r["pages"]) for r in busy]), 2),
            fmt(med([per(r, "lock_acq_fault_workers", 1) for r in busy]), 0),
            fmt(med([per(r, "lock_acq_fault_other", 1) for r in busy]), 0),
            fmt(med([per(r, "lock_acq_fault_all", r["pages"]) for r in busy]), 2),
            fmt(med([r.get("dirty_before") for r in busy]), 0) + " -> " +
            fmt(med([r.get("dirty_after") for r in busy]), 0),
            fmt(med([r["lock_acq_map"] for r in idle + busy]), 0),
            fmt(med([r["lock_acq_free"] / r["pages"] for r in idle + busy]), 2),
            fmt(med([r["zeroed_meanwhile"] for r in busy]), 0),
            fmt(med([r["steal"] for r in busy]), 0),
            fmt(med([r["burst_us"] / 1000 for r in idle]), 1),
            fmt(med([r["burst_us"] / 1000 for r in busy]), 1),
            fmt(med([r["burst_us"] / 1000 for r in floor]), 1) if not prefix else "-",
            fmt(med([r["p50_us"] for r in busy]), 0),
            fmt(max([r["max_us"] for r in busy], default=None), 0),
            fmt(max([r["lock_hold_max_us"] for r in idle], default=None), 0),
            fmt(max([r["lock_hold_max_us"] for r in busy], default=None), 0),
        ])
    return out


def only_free_rows(recs):
    """The only-free fault by size and by what it found."""
    out = []
    for size_kb, label in ((2048, "2 MiB"), (1048576, "1 GiB")):
        rs = [r for r in recs if r["bench"] == "scale-only-free" and r["size_kb"] == size_kb]
        on = [r for r in rs if r.get("waited", 1)]
        off = [r for r in rs if not r.get("waited", 1)]
        for kind, got, of in (
                ("zeroed (hit)", [r for r in on if not r["miss"] and not r["steal"]], on),
                ("dirty (miss)", [r for r in on if r["miss"] and not r["steal"]], on),
                ("being zeroed (steal)", [r for r in on if r["steal"]], on),
                ("dirty, reserve 0 (baseline)", off, off)):
            if not got:
                continue
            us = sorted(r["us"] for r in got)
            out.append([label, kind, "%d of %d" % (len(got), len(of)),
                        fmt(med(us), 0), fmt(us[-1], 0)])
    return out


ONLY_FREE_COLS = ["size", "the fault found", "faults", "p50 us", "max us"]

COLS = ["workers", "workers' acq/zeroed folio", "fault's acq idle", "fault's acq refill",
        "workers' acq refill", "others' acq refill", "all acq/fault refill",
        "dirty folios refill", "acq mmap", "acq/page munmap", "zeroed during faults", "steals", "burst ms idle", "burst ms refill",
        "burst ms floor", "fault p50 us refill", "fault max us refill",
        "hold max us idle", "hold max us refill"]


def fair_lines(logs):
    """The 2-vCPU part: stock and patched streams, or nothing if not run."""
    recs = ktap.figures(logs, "bench-fair-stock", "bench-fair-patched")
    if not any(r["bench"].startswith("scale-") for r in recs):
        return [], recs
    boots = {r["kernel"]: r for r in recs if r["bench"] == "boot"}
    vers = {k: ktap.verdict(logs, "bench-fair-" + k) for k in ("stock", "patched")}
    b = boots.get("patched", boots.get("stock", {}))
    lines = [
        "### At 2 vCPUs: fault latency, hugetlb_lock's longest hold and interrupts off "
        "against stock",
        "",
        "* Guests: %s vCPUs on one node, %s MiB, stock boot %s s, patched boot %s s "
        "(accelerator %s); the same lock_stat flavour built from the base and from the "
        "series with the bench-only patches of bench/kernel-patches/ (guest/plans/fair-bench)" % (
            b.get("cpus", "?"), b.get("mem_kb", 0) // 1024, vers["stock"].get("secs", "?"),
            vers["patched"].get("secs", "?"), vers["patched"].get("accel", "?")),
        "* Repetitions: %s; p50 and p99 are medians over them, max the maximum" % b.get("reps", "?"),
        "",
        "128 faults of 2 MiB pages from CPU 1; burst = right after 512 dirty folios were "
        "freed on the node:",
        "",
        "```",
    ]
    rows_ = []
    for kernel, config, what in (("patched", "idle", "pre-zeroed, worker idle"),
                                 ("patched", "burst", "pre-zeroed, worker zeroing"),
                                 ("stock", "burst", "stock, each fault clears")):
        rs = [r for r in recs if r["bench"] == "scale-burst" and r["kernel"] == kernel
              and r["config"] == config]
        if not rs:
            continue
        rows_.append([kernel, config, what, "%d x %d" % (len(rs), rs[0]["pages"]),
                      fmt(med([r["p50_us"] for r in rs]), 0),
                      fmt(med([r.get("p99_us") for r in rs]), 0),
                      fmt(max(r["max_us"] for r in rs), 0),
                      fmt(med([r["hit"] for r in rs]), 0),
                      fmt(med([r["steal"] for r in rs]), 0),
                      fmt(med([r["zeroed_meanwhile"] for r in rs]), 0),
                      fmt(max(r["lock_hold_max_us"] for r in rs), 0),
                      fmt(med([per(r, "lock_acq_fault_own", r["pages"]) for r in rs]), 2)])
    lines += bench_report.table(rows_, [
        "kernel", "config", "what", "reps x faults", "p50 us", "p99 us", "max us", "hits",
        "steals", "zeroed meanwhile", "hold max us", "fault's acq/fault"])
    lines += ["```", "", "The threads' refill of 512 dirty 2 MiB folios (patched; from the end "
              "of the frees until the node's free folios are all zeroed; GB/s of the folios "
              "still dirty when the frees ended):", "", "```"]
    rows_ = []
    for w in (1, 2):
        for ext in ("2048K", "64K"):
            rs = [r for r in recs if r["bench"] == "scale-refill"
                  and r["config"] == "refill-%d-%s" % (w, ext)]
            if not rs:
                continue
            secs = med([r["us"] / 1e6 for r in rs])
            gbs = med([r["dirty_start"] * r["size_kb"] * 1024 / (r["us"] * 1e3)
                       for r in rs if r.get("dirty_start", -1) > 0 and r["us"] > 0])
            rows_.append([str(w), ext.replace("2048K", "2 MiB").replace("64K", "64 KiB"),
                          str(len(rs)), fmt(secs, 2), fmt(gbs, 2),
                          fmt(med([per(r, "lock_acq_workers", r["zeroed"]) for r in rs])),
                          fmt(max(r["lock_hold_max_us"] for r in rs), 0)])
    lines += bench_report.table(rows_, ["workers", "extent", "reps", "time s", "GB/s",
                                        "workers' acq/folio", "hold max us"])
    lines += ["```", "", "Longest sections with interrupts off (irqsoff tracer over the whole "
              "guest during a burst; preemptirq events of the workers alone while they zero "
              "a dirty pool):", "", "```"]
    rows_ = []
    for r in recs:
        if r["bench"] == "irqsoff":
            rows_.append([r["kernel"], "whole guest, " + r["label"], "-", "-", "-",
                          fmt(r["max_us"], 0), r["began"] + " .. " + r["ended"]])
        elif r["bench"] == "irqsoff_thread":
            rows_.append([r["kernel"], "workers, zeroing", str(r["sections"]),
                          str(r["median_us"]), str(r["p99_us"]), fmt(r["max_us"], 0), r["began"]])
    lines += bench_report.table(rows_, ["kernel", "sections of", "sections", "median us",
                                        "p99 us", "longest us", "where"])
    lines += [
        "```",
        "",
        "How to read it. Two busy vCPUs at most (the faulting task and one worker, or two "
        "workers in the refill) on 2 host cores: no overcommit, so these times compare. "
        "The fault columns are pre-zeroed faults with the worker idle against the same "
        "faults while it zeroes; stock's row is the same fault load on the unpatched "
        "kernel, where each fault clears its folio, for hugetlb_lock's longest hold "
        "(lock_stat, every task, lockdep's bookkeeping and TCG included) against "
        "stock's. The 64 KiB extent is the earlier chunk size on the new protocol; it "
        "leaves out the earlier per-chunk lock and interrupt toggling, so it understates "
        "what the chunks cost. Under TCG a clear runs at emulation speed whatever the "
        "extent, so the extent's native speed is in part 6, not here.",
        "",
    ]
    return lines, recs


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: bench-scale-report.py LOGS OUT PART DOC")
    logs, outdir, part, doc = sys.argv[1:]
    recs = ktap.figures(logs, "bench-scale")
    if not any(r["bench"].startswith("scale-") for r in recs):
        sys.exit("no scale figures in %s/bench-scale.tap" % logs)
    fair, fair_recs = fair_lines(logs)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "scale.json"), "w") as f:
        json.dump(recs + fair_recs, f, indent=1)
    boot = next((r for r in recs if r["bench"] == "boot"), {})
    ver = ktap.verdict(logs, "bench-scale")
    name = bench_report.base("BASE")
    cmd = "make bench-scale" if name == bench_report.base("DEFAULT_BASE") else \
        "BASE=%s make bench-scale" % name
    lines = [
        HEAD,
        "",
        "Written by `%s` (scripts/boot/bench-scale.sh, guest/plans/scale-bench, "
        "guest/plans/fair-bench, bench/scale_bench.c, "
        "scripts/report/bench-scale-report.py) on %s." % (
            cmd, datetime.date.today().isoformat()),
        "",
        "* Guest: %s vCPUs on 2 NUMA nodes, %s MiB, accelerator %s, boot %s s; kernel %s "
        "(lock_stat flavour, configs/lockstat.config)" % (
            boot.get("cpus", "?"), boot.get("mem_kb", 0) // 1024, ver.get("accel", "?"),
            ver.get("secs", "?"), boot.get("release", "?")),
        "* Repetitions: %s; each column's median over them (the fault max and the hold max "
        "are the maximum)" % boot.get("reps", "?"),
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
        # Counts, then times, each row led by the number of workers.
        lines += ["%s pages (%s):" % (label, what), "", "```"]
        lines += bench_report.table([x[:12] for x in r], COLS[:12])
        lines += [""]
        lines += bench_report.table([x[:1] + x[12:] for x in r], COLS[:1] + COLS[12:])
        lines += ["```", ""]
    r = only_free_rows(recs)
    if r:
        lines += ["The fault of the node's only free folio, freed dirty just before (one "
                  "worker a node; node 0 with 2 MiB pages, node 1 with 1 GiB pages):", "", "```"]
        lines += bench_report.table(r, ONLY_FREE_COLS)
        lines += ["```", ""]
    lines += [
        "How to read it. acq = acquisitions of hugetlb_lock. The per-task counts come "
        "from lockdep's lock_acquire event, traced for hugetlb_lock over the faults and "
        "the refill: \"fault's acq\" is the faulting task's own, per fault, with nothing "
        "being zeroed (idle) and while the node's workers zero the dirty folios "
        "(refill); \"workers' acq refill\" and \"others' acq refill\" are every "
        "worker's and every other task's over those faults, \"all acq/fault refill\" "
        "the three together per fault, and \"dirty folios refill\" the node's dirty "
        "free folios when the faults began and when they ended (the workers' backlog), "
        "beside the folios zeroed meanwhile, counted from just before the first of "
        "those (so they may exceed it); "
        "\"workers' acq/zeroed folio\" is the workers' over a whole refill, per folio "
        "zeroed (claim and publish). What an allocation does under the lock is the same "
        "with 1, 8 or 32 workers when the fault's columns do not grow with the workers. "
        "\"acq mmap\" and \"acq/page munmap\" are lock_stat's counts of every task "
        "over the mmap() and the munmap(). \"burst ms\" is the faults' time. "
        "The only-free fault finds the folio zeroed (hit), dirty and not yet claimed "
        "(miss: it clears the folio), or being zeroed (steal: it waits for the extent "
        "in flight, 2 MiB at most, then clears the folio itself); the baseline is the "
        "same fault with the size's reserve at 0, which clears the folio with no worker "
        "about: a steal's time less the baseline's is its wait. "
        "The times are TCG's: with more busy vCPUs than host cores they measure the "
        "emulator's overcommit, which the floor column shows (the idle burst beside "
        "workers - 1 user-space busy loops on the node's other CPUs, one worker); read "
        "the refill burst against its floor, not against the idle one. \"hold max\": "
        "the longest hold of hugetlb_lock in any of the repetitions (lock_stat; "
        "lockdep's bookkeeping, the tracing and TCG included), with nothing being zeroed and while "
        "the workers zero.",
        "",
    ]
    lines += fair
    text = "\n".join(lines).rstrip("\n") + "\n"
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
