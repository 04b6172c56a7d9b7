#!/usr/bin/env python3
"""demo-report.py LOGS: the two tables of make demo, from the figures of
its boots (LOGS/demo-stock.tap and LOGS/demo.tap, guest/plans/demo):
QEMU's time to ready by pool (its qemu_start figures, by label) and the
fault-in time per page (its fault figures, by the test they are in),
medians of the repetitions; then the result of the contents-zero test.
Exit 1 if there is no figure at all.
"""
import os
import statistics
import sys

import ktap

SIZES = ("2M", "1G")


def group(figs, bench, key):
    """The figures of one bench by their value of KEY, in order."""
    out = {}
    for f in figs:
        if f["bench"] == bench:
            out.setdefault(f.get(key), []).append(f)
    return out


def median(figs, key):
    return statistics.median(f[key] for f in figs)


def runs(figs, key):
    """The values of KEY, one per run, each after a space."""
    return "".join(" %s" % ("" if f.get(key) is None else f[key])
                   for f in figs)


def qemu_table(figs):
    print("QEMU's time to ready, its RAM preallocated from hugetlb by 2 "
          "threads (median of 3, TCG inside the guest;")
    print("stock: the unpatched kernel; dirty and pre-zeroed pool: the "
          "patched one; pages used: per run):")
    print("%-5s %10s %-12s %15s %-12s %15s %-12s %8s" % (
        "size", "stock (s)", " pages used", "dirty pool (s)", " pages used",
        "pre-zeroed (s)", " hits", "speedup"))
    qemu = group(figs, "qemu_start", "label")
    for size in SIZES:
        s, o, p = (qemu.get("qemu-%s-%s" % (size, c))
                   for c in ("stock", "off", "prezeroed"))
        if not o or not p:
            continue
        ms = median(s, "ready_us") / 1e6 if s else None
        mp = median(p, "ready_us") / 1e6
        print("%-5s %10s %-12s %15.2f %-12s %15.2f %-12s %7s" % (
            size, "-" if ms is None else "%.2f" % ms,
            runs(s, "pages_used") if s else " -",
            median(o, "ready_us") / 1e6, runs(o, "pages_used"),
            mp, runs(p, "prezero_hit"),
            "%.1fx" % (ms / mp) if s and mp > 0 else "-"))


def fault_table(figs, accel):
    print("Fault-in time per page (median of the repetitions, accel=%s, "
          "bench kernel):" % accel)
    print("%-6s %6s %16s %16s %8s" % (
        "size", "pages", "stock us/page", "pre-zeroed", "speedup"))
    fault = group(figs, "fault", "test")
    for size in SIZES:
        s, p = (fault.get("fault-%s-%s" % (size, c))
                for c in ("stock", "prezeroed"))
        if not s:
            continue
        ms = median(s, "per_page_us")
        if p:
            mp = median(p, "per_page_us")
            print("%-6s %6d %16.1f %16.1f %7.1fx" % (
                size, s[-1]["pages"], ms, mp, ms / mp if mp > 0 else 0))
        else:
            print("%-6s %6d %16.1f %16s" % (size, s[-1]["pages"], ms, "-"))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: demo-report.py LOGS")
    logs = sys.argv[1]
    stock, demo = (ktap.read(os.path.join(logs, b + ".tap"))
                   for b in ("demo-stock", "demo"))
    figs = stock.figures + demo.figures
    qemu_table(figs)
    print()
    fault_table(figs, ktap.verdict(logs, "demo").get("accel") or "?")
    for t in demo.tests:
        if t.name == "contents-zero":
            print(t.line)
    if not figs:
        sys.exit("error: no figures in %s/demo-stock.tap and demo.tap" % logs)


if __name__ == "__main__":
    main()
