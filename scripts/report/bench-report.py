#!/usr/bin/env python3
"""bench-report.py LOGS OUT DOC: the make bench report.

Reads the figures of guest/plans/bench in the result streams of the two
bench boots (LOGS/bench-stock.tap and LOGS/bench-patched.tap, with their
.verdict files; ktap.py), each with its kernel and config, and writes
OUT/results.json (every figure), OUT/table.txt (the table, also printed),
OUT/fault-latency.dat and OUT/qemu-ready.dat and, with gnuplot and
bench-plot.gp and bench-plot-ready.gp of this folder, OUT/fault-latency.png
and OUT/qemu-ready.png; then rewrites DOC
(docs/generated/BENCHMARKS.md) with the table, the machine, the accelerator, the
kernels and the command. Medians, minima and maxima are over the
repetitions; nothing here judges a timing.
"""
import datetime
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

import ktap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BOOTS = ("stock", "patched")
CONFIGS = ("stock", "off", "prezeroed")
SIZES = ((2048, "2M"), (1048576, "1G"))
MODES = ("touch", "populate")
TYPES = ("private", "shared", "memfd-private")


def stats(vals):
    vals = [v for v in vals if v is not None]
    if not vals:
        return None
    return {"n": len(vals), "median": statistics.median(vals),
            "min": min(vals), "max": max(vals)}


def time_unit(us):
    for div, unit in ((1e6, "s"), (1e3, "ms"), (1, "us")):
        if abs(us) >= div:
            return div, unit
    return 1, "us"


def num(v):
    return "%.3g" % v if abs(v) < 1000 else "%.0f" % v


def fmt_time(us):
    """Microseconds, shown with 3 significant digits in us, ms or s."""
    if us is None:
        return "-"
    div, unit = time_unit(us)
    return "%s %s" % (num(us / div), unit)


# Repetitions the plan ran (from its boot line); fewer are marked n=.
REPS = 5


def fmt_span(s):
    """median [min..max], all in the unit of the median."""
    if not s:
        return "-"
    div, unit = time_unit(s["median"])
    return "%s [%s..%s] %s%s" % (num(s["median"] / div), num(s["min"] / div),
                                 num(s["max"] / div), unit,
                                 "" if s["n"] == REPS else " n=%d" % s["n"])


def fmt_ratio(a, b):
    if not a or not b:
        return "-"
    return num(a / b) + "x"


def fmt_si(v):
    if v is None:
        return "-"
    for div, p in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            return "%.3g%s" % (v / div, p)
    return "%.3g" % v


def table(rows, head):
    """Left-aligned columns, the header underlined."""
    rows = [head] + rows
    w = [max(len(str(r[i])) for r in rows) for i in range(len(head))]
    out = ["  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()
           for r in rows]
    out.insert(1, "  ".join("-" * x for x in w))
    return out


def pick(recs, bench, **kw):
    return [r for r in recs if r["bench"] == bench
            and all(r.get(k) == v for k, v in kw.items())]


def report(recs):
    out, summary, plot = [], {}, []
    med = lambda s: s["median"] if s else None

    # 0. QEMU's start.
    qs = pick(recs, "qemu_start")
    if qs:
        out.append("0. QEMU start: time until QEMU's monitor answers, its guest RAM "
                   "allocated from hugetlb (TCG inside the TCG guest), median "
                   "[min..max]; pages: huge pages QEMU took from the pool (min..max)")
        rows, summary["qemu_start"] = [], []
        labels = []
        for r in qs:
            if (r["config"] in CONFIGS and r["label"] not in labels
                    and not r["label"].startswith("size-")):
                labels.append(r["label"])
        for lab in labels:
            backend, size, thr = lab.split("-")
            row = [size.replace("1048576kB", "1G").replace("2048kB", "2M"), backend,
                   "none" if thr == "0" else thr]
            spans = {}
            for c in CONFIGS:
                rs = pick(recs, "qemu_start", config=c, label=lab)
                spans[c] = stats([r["ready_us"] for r in rs])
                used = [r["pages_used"] for r in rs]
                row.append(fmt_span(spans[c]) if spans[c] else "-")
                row.append("%d..%d" % (min(used), max(used)) if used else "-")
                summary["qemu_start"].append({"label": lab, "config": c,
                                              "ready_us": spans[c], "pages_used": used,
                                              "hits": [r["prezero_hit"] for r in rs]})
            hits = [r["prezero_hit"] for r in pick(recs, "qemu_start", config="prezeroed",
                                                    label=lab)]
            row.append("%d..%d" % (min(hits), max(hits)) if hits else "-")
            row.append(fmt_ratio(med(spans["stock"]), med(spans["prezeroed"])))
            rows.append(row)
        out += table(rows, ["size", "backend", "prealloc threads", "stock", "pages",
                            "off", "pages", "prezeroed", "pages", "hits",
                            "stock/prezeroed"])
        sweep = sorted({int(r["label"][5:-1]) for r in qs
                        if r["label"].startswith("size-")})
        if sweep:
            out.append("")
            out.append("Time to ready against guest RAM size: memfd, 2 MiB pages, "
                       "2 prealloc threads (plot: qemu-ready.png)")
            rows, summary["qemu_sizes"] = [], []
            for mb in sweep:
                lab = "size-%dM" % mb
                row = ["%d MiB" % mb]
                spans = {}
                for c in CONFIGS:
                    rs = pick(recs, "qemu_start", config=c, label=lab)
                    spans[c] = stats([r["ready_us"] for r in rs])
                    row.append(fmt_span(spans[c]))
                hits = [r["prezero_hit"] for r in pick(recs, "qemu_start",
                                                       config="prezeroed", label=lab)]
                row.append("%d..%d of %d" % (min(hits), max(hits), mb // 2) if hits else "-")
                row.append(fmt_ratio(med(spans["stock"]), med(spans["prezeroed"])))
                rows.append(row)
                summary["qemu_sizes"].append({"mb": mb, "ready_us": spans, "hits": hits})
            out += table(rows, ["guest RAM", "stock", "off", "prezeroed", "hits",
                                "stock/prezeroed"])
        b2b = pick(recs, "qemu_start", config="b2b")
        refill = pick(recs, "qemu_refill")
        if b2b or refill:
            out.append("")
            out.append("Back to back: VM A quits (memfd, 2 prealloc threads); how long the "
                       "threads take to zero its pages again, and VM B's start right "
                       "after A quit against C's after the refill")
            rows = []
            for r in refill:
                kb = r["size_kb"]
                size = "1G" if kb == 1048576 else "2M"
                get = lambda who: [x["ready_us"] for x in b2b
                                   if x["label"] == "%s-%dkB" % (who, kb)]
                rows.append([size, str(r["pages"]), "%.2f s" % r["refill_s"],
                             fmt_span(stats(get("A"))), fmt_span(stats(get("B"))),
                             fmt_span(stats(get("C")))])
            summary["qemu_b2b"] = {"refill": refill, "starts": b2b}
            out += table(rows, ["size", "pages", "refill", "A (zeroed pool)",
                                "B (right after A)", "C (after the refill)"])
        out.append("")

    # 1. Fault-in.
    out.append("1. Fault-in: time per page (total / pages), median [min..max] of %d "
               "repetitions" % REPS)
    rows, rows2, summary["fault"] = [], [], []
    for kb, size in SIZES:
        for mode in MODES:
            for typ in TYPES:
                per, tot, hits = {}, {}, {}
                for c in CONFIGS:
                    rs = pick(recs, "fault", config=c, size_kb=kb, mode=mode, type=typ)
                    per[c] = stats([r["per_page_us"] for r in rs])
                    tot[c] = stats([r["total_us"] for r in rs])
                    h = sum(r.get("prezero_hit") or 0 for r in rs)
                    m = sum(r.get("prezero_miss") or 0 for r in rs)
                    hits[c] = h / (h + m) if h + m else None
                if not any(per.values()):
                    continue
                pages = next(r["pages"] for r in recs if r["bench"] == "fault"
                             and r["size_kb"] == kb)
                off_stock = med(per["off"]) / med(per["stock"]) \
                    if per["off"] and per["stock"] else None
                stock_prez = med(per["stock"]) / med(per["prezeroed"]) \
                    if per["stock"] and per["prezeroed"] else None
                summary["fault"].append({
                    "size_kb": kb, "pages": pages, "mode": mode, "type": typ,
                    "per_page_us": per, "total_us": tot, "hit_fraction": hits,
                    "off_over_stock": off_stock, "stock_over_prezeroed": stock_prez})
                rows.append([size, mode, typ] + [fmt_span(per[c]) for c in CONFIGS]
                            + [fmt_ratio(med(per["off"]), med(per["stock"])),
                               fmt_ratio(med(per["stock"]), med(per["prezeroed"]))])
                rows2.append([size, "%d" % pages, mode, typ]
                             + [fmt_time(med(tot[c])) for c in CONFIGS]
                             + ["-" if hits["prezeroed"] is None
                                else "%.0f%%" % (100 * hits["prezeroed"])])
                plot.append(["%s %s %s" % (size, mode, typ)]
                            + [x for c in CONFIGS for x in
                               ((per[c]["median"], per[c]["min"], per[c]["max"])
                                if per[c] else (None, None, None))])
    out += table(rows, ["size", "method", "mapping", "stock", "off", "prezeroed",
                        "off/stock", "stock/prezeroed"])
    out.append("")
    out.append("   Totals (median time to fault in all pages) and pre-zeroed hits")
    out += table(rows2, ["size", "pages", "method", "mapping", "stock", "off",
                         "prezeroed", "prezeroed hits"])

    # 2. Preallocation.
    out.append("")
    out.append("2. VM-style preallocation: 512 MiB memfd, MAP_SHARED, MADV_POPULATE_WRITE "
               "by T threads: time, median [min..max] of %d repetitions" % REPS)
    rows, summary["prealloc"] = [], []
    for thr in sorted({r["threads"] for r in pick(recs, "prealloc")}):
        tot = {c: stats([r["total_us"] for r in
                         pick(recs, "prealloc", config=c, threads=thr)]) for c in CONFIGS}
        gb = {c: stats([r["gbps"] for r in
                        pick(recs, "prealloc", config=c, threads=thr)]) for c in CONFIGS}
        summary["prealloc"].append({"threads": thr, "total_us": tot, "gbps": gb})
        rows.append([str(thr)] + [fmt_span(tot[c]) for c in CONFIGS]
                    + ["%.3g" % med(gb["prezeroed"]) if gb["prezeroed"] else "-",
                       fmt_ratio(med(tot["off"]), med(tot["stock"])),
                       fmt_ratio(med(tot["stock"]), med(tot["prezeroed"]))])
    out += table(rows, ["threads", "stock", "off", "prezeroed", "prezeroed GB/s",
                        "off/stock", "stock/prezeroed"])

    # 3. Throughput.
    out.append("")
    out.append("3. Zeroing throughput, GB/s (1e9 bytes/s)")
    rows, summary["throughput"] = [], {}
    for kb, size in SIZES:
        bg = pick(recs, "bgzero", size_kb=kb, available=True)
        for r in bg:
            rows.append(["threads, %s pool (%d pages dirty)" % (size, r["dirty_pages"]),
                         "%.3g" % r["gbps"], "%s until all zeroed%s" % (
                             fmt_time(r["total_us"]),
                             ", TIMED OUT" if r.get("timeout") else "")])
        summary["throughput"]["bgzero_" + size] = bg
    for kb, size in SIZES:
        for c in ("stock", "off"):
            s = stats([r["per_page_us"] for r in
                       pick(recs, "fault", config=c, size_kb=kb, mode="touch",
                            type="private")])
            if s:
                g = kb * 1024 / (s["median"] * 1e3)
                summary["throughput"]["fault_%s_%s" % (size, c)] = g
                rows.append(["fault path, %s, %s (touch, private)" % (
                    size, "stock kernel" if c == "stock" else "patched kernel, off"), "%.3g" % g,
                    "page size / median time per page"])
    for b in BOOTS:
        z = pick(recs, "zero", kernel=b, prim="memset")
        s = stats([r["median_gbps"] for r in z])
        if z:
            summary["throughput"]["memset_" + b] = z
            rows.append(["user-space memset, %s guest" % b, "%.3g" % s["median"],
                         "%d MiB in 2 MiB pieces, median of %d [%.3g..%.3g]" % (
                             z[0]["bytes"] >> 20, z[0]["reps"], z[0]["min_gbps"],
                             z[0]["max_gbps"])])
    out += table(rows, ["what", "GB/s", "how"])

    # 4. Interference.
    out.append("")
    out.append("4. Interference: a pinned workload's rate with the threads idle and while "
               "they zero fresh pages")
    rows, summary["interference"] = [], []
    for kind in ("cpu", "mem"):
        rate = {}
        for c in ("stock", "idle", "busy"):
            rs = pick(recs, "interference", config=c, kind=kind)
            rate[c] = rs[0]["rate"] if rs else None
        if not any(rate.values()):
            continue
        unit = pick(recs, "interference", kind=kind)[0]["unit"]
        load = pick(recs, "bgload", kind=kind)
        load = load[0] if load else {}
        slow = 100 * (1 - rate["busy"] / rate["idle"]) \
            if rate["busy"] and rate["idle"] else None
        summary["interference"].append({"kind": kind, "unit": unit, "rate": rate,
                                        "slowdown_pct": slow, "load": load})
        rows.append([kind, unit] + [fmt_si(rate[c]) for c in ("stock", "idle", "busy")]
                    + ["-" if slow is None else "%.1f%%" % slow,
                       "%s of %s" % (load.get("zeroed_pages", "-"),
                                     load.get("dirty_pages", "-")),
                       "-" if not load else ("yes" if load["dirty_left"] > 0 else "no")])
    out += table(rows, ["workload", "unit", "stock", "idle", "busy", "slowdown",
                        "pages zeroed", "busy throughout"])

    # 5. Churn.
    out.append("")
    out.append("5. Refill under churn: fault in, free and fault in again all 2 MiB pages "
               "for 5 s")
    rows, summary["churn"] = [], []
    for c in CONFIGS:
        for r in pick(recs, "churn", config=c):
            summary["churn"].append(r)
            h, m = r.get("prezero_hit"), r.get("prezero_miss")
            rows.append([c, str(r["iterations"]), str(r["faults"]),
                         "-" if h is None else str(h), "-" if m is None else str(m),
                         "-" if not h and not m else "%.0f%%" % (100 * h / (h + m)),
                         fmt_time(r["lat_mean_us"]), fmt_time(r["lat_median_us"]),
                         fmt_time(r["lat_p99_us"])])
    out += table(rows, ["config", "iterations", "faults", "hits", "misses", "hit rate",
                        "mean", "median", "p99"])

    # 6. Interrupts off: the whole guest, then the zeroing threads alone.
    for bench, title, head, cells in (
            ("irqsoff", "6. Longest section with interrupts off (irqsoff tracer), while "
             "idle, while faulting in 2 MiB pages, and while the threads zero a dirty pool",
             ["kernel", "while", "longest", "began at", "ended at", "stack where it ended"],
             lambda r: [r["kernel"], r["label"], fmt_time(r["max_us"]), r["began"],
                        r["ended"], r["stack"]]),
            ("irqsoff_thread", "6b. Sections with interrupts off in the zeroing threads "
             "themselves (preemptirq events of their PIDs), while they zero a dirty 2 MiB "
             "pool",
             ["kernel", "sections", "median", "p99", "p99.9", "longest", "longest began at"],
             lambda r: [r["kernel"], str(r["sections"])] + [
                 fmt_time(r[k]) for k in ("median_us", "p99_us", "p999_us", "max_us")]
             + [r["began"]])):
        rs = pick(recs, bench)
        if rs:
            summary[bench] = rs
            out += ["", title] + table([cells(r) for r in rs], head)
    return out, summary, plot


def cmd(*argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def machine():
    lscpu = dict(re.findall(r"^([^:\n]+):\s*(.*)$", cmd("lscpu"), re.M))
    mem = re.search(r"^Mem:\s+(\d+)", cmd("free", "-m"), re.M)
    return {"cpu": lscpu.get("Model name", "?"),
            "cpus": cmd("nproc"),
            "hypervisor": lscpu.get("Hypervisor vendor"),
            "mem_mib": int(mem.group(1)) if mem else None}


def base(what):
    """The base's BASE, BASE_PACKAGE, BASE_VERSION or DEFAULT_BASE, as
    scripts/lib.sh reads them from the file BASE: bench.sh and
    bench-scale.sh pass them in the environment."""
    value = os.environ.get(what)
    if not value:
        sys.exit("error: %s is not set: make bench runs this report "
                 "(scripts/boot/bench.sh)" % what)
    return value


def kernels(bootrecs):
    name, package, version = base("BASE"), base("BASE_PACKAGE"), base("BASE_VERSION")
    work = "build/%s/linux" % name
    tree = os.environ.get("TREE", os.path.join(ROOT, work))
    k = {"base": "%s %s (tag base of %s)" % (package, version, work)}
    n = cmd("git", "-C", tree, "rev-list", "--count", "base..HEAD")
    head = cmd("git", "-C", tree, "rev-parse", "--short", "HEAD")
    k["patched_tree"] = "base + %s commits (%s at %s)" % (n or "?", work, head or "?")
    for b, r in bootrecs.items():
        k[b] = "%s %s" % (r.get("release", "?"), r.get("version", "")) if r else "did not boot"
    return k


REFILL_BOOTS = ("refill-1cpu", "refill-2cpu")


def refill_report(logs):
    """The refill table: the bench-refill-* boots (one node)."""
    recs = ktap.figures(logs, *("bench-" + b for b in REFILL_BOOTS))
    if not recs:
        return [], {}
    out, summary = ["", "7. Refill on one node, 2 MiB pages: by how many workers, and who pays"], {}

    rows = []
    boot = {r["cpus"]: r for r in pick(recs, "bootpool")}
    summary["bootpool"] = boot
    for c in sorted(boot):
        r = boot[c]
        rows.append(["boot pool, %d vCPU%s" % (c, "s" if c > 1 else ""),
                     "%d pages (%d MiB)" % (r["pages"], r["pages"] * 2),
                     "%s%.2f s" % ("<= " if r["late"] else "", r["secs"]),
                     "%.2f GB/s" % (r["pages"] * 2 * 2**20 / r["secs"] / 1e9)
                     if r["secs"] > 0 else "-"])
    if 1 in boot and 2 in boot and boot[2]["secs"] > 0:
        rows.append(["", "1 vCPU / 2 vCPUs", fmt_ratio(boot[1]["secs"], boot[2]["secs"]), ""])
    rate = {}
    for w in (1, 2):
        rate[w] = stats([r["gbps"] for r in pick(recs, "bgzero", config="workers-%d" % w)])
        if rate[w]:
            rows.append(["refill, %d worker%s" % (w, "s" if w > 1 else ""),
                         "%d pages, n=%d" % (pick(recs, "bgzero", config="workers-%d" % w)[0]
                                             ["dirty_pages"], rate[w]["n"]),
                         "", "%.2f [%.2f..%.2f] GB/s" % (rate[w]["median"], rate[w]["min"],
                                                         rate[w]["max"])])
    if rate.get(1) and rate.get(2):
        rows.append(["", "2 workers / 1 worker", "",
                     fmt_ratio(rate[2]["median"], rate[1]["median"])])
    summary["refill"] = rate
    fill = {}
    for lim in ("max", "50000"):
        rs = pick(recs, "bgzero", config="fill-" + lim)
        us = [r["usage_us"] for r in pick(recs, "fillcharge", limit=lim)]
        fill[lim] = stats([r["gbps"] for r in rs])
        if not fill[lim]:
            continue
        secs = statistics.median([r["total_us"] / 1e6 for r in rs])
        rows.append(["zeroed_fill, cpu.max %s" % ("unlimited" if lim == "max" else
                                                 "%d%%" % (int(lim) // 1000)),
                     "16 pages a write, n=%d" % fill[lim]["n"],
                     "%.2f s, %.2f s charged" % (secs, statistics.median(us) / 1e6)
                     if us else "%.2f s" % secs,
                     "%.2f [%.2f..%.2f] GB/s" % (fill[lim]["median"], fill[lim]["min"],
                                                 fill[lim]["max"])])
    summary["fill"] = fill
    out += table(rows, ["what", "size", "time", "rate"])

    rows, summary["interference"] = [], []
    for kind in ("cpu", "mem"):
        r = {c: pick(recs, "interference", config=c, kind=kind) for c in ("idle", "busy")}
        if not r["idle"] or not r["busy"]:
            continue
        idle = statistics.median(x["rate"] for x in r["idle"])
        busy = statistics.median(x["rate"] for x in r["busy"])
        slow = 100 * (1 - busy / idle)
        load = pick(recs, "bgload", kind=kind)
        left = min(x["dirty_left"] for x in load) if load else None
        summary["interference"].append({"kind": kind, "idle": idle, "busy": busy,
                                        "slowdown_pct": slow, "dirty_left": left})
        rows.append([kind, r["idle"][0]["unit"], fmt_si(idle), fmt_si(busy), "%.1f%%" % slow,
                     "n=%d" % len(r["busy"]),
                     "-" if left is None else ("yes (%d dirty at least)" % left if left else "no")])
    if rows:
        out.append("")
        out.append("   foreground on CPU 0 for %.1f s, workers idle, then with 2 workers zeroing "
                   "the whole pool (medians)" % pick(recs, "interference")[0]["duration_s"])
        out += table(rows, ["workload", "unit", "idle", "busy", "slowdown", "runs",
                            "busy throughout"])
    return out, summary


ATBOOT_BOOTS = ("none", "threads", "boot")


def atboot_report(logs):
    """The boot-time pool zeroed at boot or after it: the bench-atboot-* boots."""
    recs = [r for m in ATBOOT_BOOTS
            for r in ktap.figures(logs, *("bench-atboot-%s-%d" % (m, i) for i in (1, 2)))
            if r["bench"] == "atboot"]
    if not recs:
        return [], {}
    out = ["", "8. The boot-time pool of 2 MiB pages: zeroed at boot, in hugetlb's allocation "
           "job, or after boot by the workers"]
    rows, summary = [], {}
    label = {"none": "not zeroed", "threads": "workers after boot (hugepage_prezero=max)",
             "boot": "in the boot allocation job (bench_boot_clear)"}
    for m in ATBOOT_BOOTS:
        rs = [r for r in recs if r["mode"] == m]
        if not rs:
            continue
        med = {k: statistics.median(r[k] for r in rs) for k in ("alloc_ms", "init_s")}
        zs = [r["zeroed_s"] for r in rs if r["zeroed_s"] is not None]
        med["zeroed_s"] = statistics.median(zs) if zs else None
        summary[m] = dict(med, n=len(rs), pages=rs[0]["pages"], cpus=rs[0]["cpus"])
        rows.append([label[m], "%d pages, n=%d" % (rs[0]["pages"], len(rs)),
                     "%d ms" % med["alloc_ms"], "%.2f s" % med["init_s"],
                     "-" if med["zeroed_s"] is None else "%s%.2f s" % (
                         "<= " if any(r["late"] for r in rs) else "", med["zeroed_s"])])
    out += table(rows, ["zeroed", "pool", "allocation job", "init started at",
                        "pool zeroed at"])
    if "none" in summary and "boot" in summary:
        out.append("   clearing in the allocation job delays init by %.2f s"
                   % (summary["boot"]["init_s"] - summary["none"]["init_s"]))
    if "none" in summary and "threads" in summary and summary["threads"]["zeroed_s"]:
        out.append("   the workers delay init by %.2f s and have the pool zeroed %.2f s "
                   "after init started" % (summary["threads"]["init_s"] - summary["none"]["init_s"],
                                           summary["threads"]["zeroed_s"]
                                           - summary["threads"]["init_s"]))
    return out, summary


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--refill":
        # Only the refill table, from the bench-refill-* boots of LOGS.
        lines = refill_report(sys.argv[2])[0]
        if not lines:
            sys.exit("error: no refill figures in %s/bench-refill-*.tap" % sys.argv[2])
        print("\n".join(lines[1:]))
        return
    if len(sys.argv) != 4:
        sys.exit("usage: bench-report.py LOGS OUT DOC | --refill LOGS")
    logs, outdir, doc = sys.argv[1:]
    for what in ("BASE", "BASE_PACKAGE", "BASE_VERSION", "DEFAULT_BASE"):
        base(what)
    os.makedirs(outdir, exist_ok=True)
    recs, boots = [], {}
    for b in BOOTS:
        r = ktap.figures(logs, "bench-" + b)
        recs += r
        boots[b] = ktap.verdict(logs, "bench-" + b)
        boots[b]["boot"] = next((x for x in r if x["bench"] == "boot"), None)
    if not any(x["bench"] != "boot" for x in recs):
        sys.exit("error: no benchmark figures in %s/bench-*.tap" % logs)

    global REPS
    REPS = next((b["boot"]["reps"] for b in boots.values() if b["boot"]), REPS)
    lines, summary, plot = report(recs)
    rlines, summary["refill"] = refill_report(logs)
    lines += rlines
    alines, summary["atboot"] = atboot_report(logs)
    lines += alines
    accels = {b: boots[b].get("accel") for b in BOOTS}
    head = ["make bench: %s; stock = unpatched base kernel, patched = the series "
            "(off: zeroed_reserve=0, prezeroed: zeroed_reserve=max, all free pages "
            "zeroed first)" % ", ".join("%s boot %s, %ss" % (
                b, accels[b] or "did not run", boots[b].get("secs") or "?") for b in BOOTS)]
    if len(set(accels.values())) != 1:
        head.append("WARNING: the two boots did not use the same accelerator: %s" % accels)
    for b in BOOTS:
        if boots[b].get("problems"):
            head.append("WARNING: %s boot: %s" % (b, "; ".join(boots[b]["problems"])))
    text = "\n".join(head + [""] + lines) + "\n"
    print(text, end="")
    with open(os.path.join(outdir, "table.txt"), "w") as f:
        f.write(text)

    mach = machine()
    kern = kernels({b: boots[b]["boot"] for b in BOOTS})
    date = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump({"command": "make bench", "date": date, "machine": mach,
                   "kernels": kern, "boots": boots,
                   "summary": summary, "records": recs}, f, indent=1)
        f.write("\n")

    dat = os.path.join(outdir, "fault-latency.dat")
    with open(dat, "w") as f:
        f.write("# label, then median min max per-page us for %s\n" % " ".join(CONFIGS))
        for p in plot:
            f.write('"%s" %s\n' % (p[0], " ".join("-" if v is None else "%.3f" % v
                                                  for v in p[1:])))
    title = "per-page fault latency: median and min..max of %d repetitions, %s" % (
        REPS, accels["patched"] or accels["stock"] or "?")
    vals = [v for p in plot for v in p[1:] if v]
    ymin = 10 ** math.floor(math.log10(min(vals))) if vals else 1
    gnuplot("bench-plot.gp", dat, os.path.join(outdir, "fault-latency.png"), title,
            "ymin=%g" % ymin)
    plot_sizes(outdir, summary.get("qemu_sizes"), accels["patched"] or accels["stock"] or "?")
    write_doc(doc, text, mach, kern, accels, boots, date, outdir)


def gnuplot(script, dat, png, title, extra=""):
    """Plot DAT into PNG with SCRIPT of this folder; a warning, and no PNG, when
    gnuplot is missing or fails."""
    if os.path.exists(png):
        os.remove(png)
    try:
        subprocess.run(["gnuplot", "-e", "data='%s'; out='%s'; label='%s'; %s" % (
                        dat, png, title, extra), os.path.join(HERE, script)],
                       check=True, capture_output=True, text=True)
    except OSError as e:
        print("warning: no plot: %s" % e, file=sys.stderr)
    except subprocess.CalledProcessError as e:
        print("warning: no plot: gnuplot failed: %s" % e.stderr.strip().splitlines()[-1:],
              file=sys.stderr)
        if os.path.exists(png):
            os.remove(png)


def plot_sizes(outdir, sizes, accel):
    """OUT/qemu-ready.dat and, with gnuplot, OUT/qemu-ready.png: QEMU's time
    to ready against its guest RAM, stock, off and pre-zeroed."""
    png = os.path.join(outdir, "qemu-ready.png")
    if not sizes:
        if os.path.exists(png):
            os.remove(png)
        return
    dat = os.path.join(outdir, "qemu-ready.dat")
    with open(dat, "w") as f:
        f.write("# guest RAM GiB, then median min max seconds for %s\n" % " ".join(CONFIGS))
        for s in sizes:
            vals = []
            for c in CONFIGS:
                sp = s["ready_us"][c]
                vals += ["-"] * 3 if not sp else ["%.3f" % (sp[k] / 1e6)
                                                  for k in ("median", "min", "max")]
            f.write("%g %s\n" % (s["mb"] / 1024, " ".join(vals)))
    gnuplot("bench-plot-ready.gp", dat, png,
            "QEMU ready (memfd, 2 MiB pages, prealloc-threads=2): median, min..max, %s" % accel)


NOTES = """\
## How to read it

Both kernels are the bench flavour (configs/common, prezero and bench
fragments: no debugging options, the preemption model Debian ships for the
base: voluntary on 6.12, lazy on 7.3), built from the unpatched base
(build/BASE/linux-base, a worktree of build/BASE/linux at tag `base`)
and from the patched tree, and booted with the same QEMU settings (2 vCPUs,
2 NUMA nodes, 6144 MiB, `hugepagesz=1G hugepages=2 hugepagesz=2M`, the same
image). guest/plans/bench runs in both; timings are never asserted.

* **stock** is the unpatched kernel: every huge page is cleared when it is
  faulted in. **off** is the patched kernel after the threads ran once and
  were turned off again: `zeroed_reserve=0` on every size and no free page
  zeroed, so the threads are gone, the hooks are patched out and the pool is
  dirty: off/stock is the cost of having the feature built in and off, and
  should be 1 within the noise. **prezeroed** is `zeroed_reserve=max`, every free
  page zeroed by the threads before each repetition: stock/prezeroed is the
  gain at fault time.
* **0. QEMU start**: bench/qemu_start runs qemu-system-x86_64 (TCG inside
  the guest, `-machine pc -S`) with its RAM from a hugetlb memfd or a file
  on hugetlbfs, and times it from its start until its QMP monitor answers;
  "pages" is what it took from the pool, "hits" its htlb_prezero_hit
  count. The size sweep starts a memfd VM of 256 MiB to 2 GiB of 2 MiB
  pages with 2 prealloc threads, 3 times each (plot: qemu-ready.png). Back
  to back: guest/plans/bench's back_to_back().
* **1. Fault-in**: bench/fault_bench maps N pages (256 x 2 MiB, 2 x 1 GiB),
  faults them in by writing one byte per page (touch) or with one
  MADV_POPULATE_WRITE over the range (populate), through MAP_PRIVATE
  anonymous memory (private), a MAP_SHARED hugetlb memfd (shared) or a
  MAP_PRIVATE one (memfd-private), then unmaps it. Per page is the total
  divided by the pages, median [min..max] over the repetitions (5 unless
  BENCH_REPS= says otherwise); a warm-up repetition before them pays QEMU's
  first touch of guest memory. The 1 GiB rows are the three combinations
  that cover each method and mapping (BENCH_1G=all runs all six). "prezeroed
  hits" is the share of faults counted as htlb_prezero_hit: 100% means every
  page came zeroed.
* **2. Preallocation**: bench/prealloc_bench populates a 512 MiB memfd
  (MAP_SHARED) with 1, 2 and 4 threads, each MADV_POPULATE_WRITE over its
  share, as QEMU -mem-prealloc does. With 2 vCPUs, 4 threads cannot beat 2.
* **3. Throughput**: bench/bgzero_bench makes the threads zero a dirty pool
  of one size (zeroed_reserve=max after zeroed_reserve=0) and times it with
  the htlb_prezero_zeroed counter of /proc/vmstat; it sums every thread that
  had work (2 MiB pages are on both nodes; 1 GiB pages may all be on one
  node, so one thread). The fault path's rate is the page size over the
  median stock time per page; memset is bench/zero_primitives (glibc memset
  of 2 MiB pieces over a 512 MiB hugetlb buffer) in each guest.
* **4. Interference**: bench/interference_bench runs a CPU-bound loop (cpu)
  and a random pointer chase over 32 MiB (mem), pinned to one CPU, for 3 s:
  with the threads idle (every free page zeroed) and right after 2.5 GiB of
  new 2 MiB pages were made dirty with zeroed_reserve=max (busy). Slowdown is
  1 - busy/idle; "pages zeroed" counts what the threads zeroed during the
  busy run, "busy throughout" says whether dirty pages were left at its end.
  The threads run as SCHED_IDLE, so the one on the workload's CPU barely
  runs; the other zeroes on the other vCPU. stock is the same workload on the
  unpatched kernel.
* **5. Churn**: bench/churn_bench faults in all 256 pages, frees them and
  starts again at once for 5 s, faster than the threads can zero them:
  hits and misses are the htlb_prezero counters over the run, the latencies
  those of single faults.
* **7. Refill**: guest/plans/refill-bench on the patched bench kernel, in
  two more boots with one NUMA node, 1 and then 2 vCPUs, 8192 MiB and
  `hugepagesz=2M hugepages=3072 hugepage_prezero=2M:max`. Boot pool: from the
  kernel's `zeroed_reserve=max` line (late_initcall) until every free page
  was zeroed (guest/bootpool-time.sh; "<=" when it was done before the
  script looked). Refill: the whole pool made dirty, then
  `zeroed_reserve=max` with `vm.hugetlb_prezero_workers` 1 and 2 in turn, timed by
  bench/bgzero_bench. zeroed_fill: bench/bgzero_bench -F 16 zeroes the dirty
  pool itself, 32 MiB a write, from a cgroup without and with `cpu.max`
  50000 100000; "charged" is the cgroup's cpu.stat usage_usec over the run.
  Foreground: bench/interference_bench on CPU 0 for 0.8 s with the pool
  zeroed, then right after it was made dirty again ("busy throughout": pages
  were still dirty at its end); the worker on CPU 0 is SCHED_IDLE.
  With 2 vCPUs on a 2-core host the second worker only scales as far as the
  host gives QEMU's second vCPU thread a core.
* **8. At boot or after it**: guest/atboot-time.sh in six more boots of the
  series with the bench-only knobs (bench/kernel-patches/BASE/), one node,
  2 vCPUs, 8192 MiB, `hugepagesz=2M hugepages=3072
  hugepage_alloc_threads=2`, two boots each: nothing more (not zeroed),
  `hugepage_prezero=max` with 2 workers, or `hugetlb.bench_boot_clear=1`,
  which clears each folio in hugetlb's parallel boot allocation job.
  "allocation job" is the kernel's "HugeTLB: allocation took" line, "init
  started at" the printk time of "Run /init", "pool zeroed at" the uptime
  at which the pool was zeroed (for the allocation job: when init started;
  "<=" when it was done before the script looked). Medians of two boots.
* On 6.12 the threads clear with the non-temporal clear_page_nocache()
  (part 2, patch 7), which TCG emulates several times faster than the fault path's
  REP STOSB, so part 3's thread rate says little about hardware, where part
  6 holds the native figures of both. On 7.3 the threads clear with
  clear_pages_nocache() (part 2, patches 6-7), the fault path with clear_pages().
* Under TCG (software emulation) clearing runs at a few hundred MB/s, ~30
  times slower than on the host, while the rest of a fault is slowed less,
  so the ratios overstate the gain of real hardware; under KVM they are the
  hardware's. Figures move with the load of the host: compare within one run.
"""


def write_doc(doc, text, mach, kern, accels, boots, date, outdir):
    name = base("BASE")
    acc = accels["patched"] or accels["stock"] or "?"
    # The size plot goes next to DOC: qemu-ready.png for BENCHMARKS.md,
    # qemu-ready-6.12.png for BENCHMARKS-6.12.md.
    png = os.path.join(outdir, "qemu-ready.png")
    plot = "qemu-ready%s.png" % os.path.basename(doc)[len("BENCHMARKS"):-len(".md")]
    fig = []
    if os.path.exists(png):
        shutil.copyfile(png, os.path.join(os.path.dirname(doc), plot))
        fig = ["![QEMU's time to ready against guest RAM size, stock, off and pre-zeroed]"
               "(%s)" % plot, ""]
    lines = [
        "# make bench: stock against pre-zeroed",
        "",
        "Written by `make bench` (scripts/boot/bench.sh, scripts/report/bench-report.py) "
        "on %s." % date,
        "",
        "* Command: `%s%smake bench`" % (
            "" if name == base("DEFAULT_BASE") else "BASE=%s " % name,
            "".join("%s=%s " % (v, os.environ[v]) for v in ("BENCH_REPS", "BENCH_1G")
                    if os.environ.get(v))),
        "* Machine: %s, %s CPUs (nproc)%s, %s MiB of memory (free -m)" % (
            mach["cpu"], mach["cpus"],
            ", under %s" % mach["hypervisor"] if mach.get("hypervisor") else "",
            mach["mem_mib"]),
        "* Accelerator: %s (build/%s/logs/bench-stock.verdict: %s, bench-patched.verdict: %s)" % (
            acc, name, accels["stock"], accels["patched"]),
        "* Guests: 2 vCPUs, 2 NUMA nodes, 6144 MiB, `hugepagesz=1G hugepages=2 hugepagesz=2M`; "
        "boots took %s s (stock) and %s s (patched)" % (
            boots["stock"].get("secs", "?"), boots["patched"].get("secs", "?")),
        "* Kernels: stock %s: `%s`; patched %s: `%s`" % (
            kern["base"], kern["stock"], kern["patched_tree"], kern["patched"]),
        "* Raw figures: build/%s/bench/results.json; plots: build/%s/bench/fault-latency.png "
        "(per-page fault latency), build/%s/bench/qemu-ready.png (QEMU's time to ready "
        "against guest RAM size)" % (name, name, name),
        "",
        "```",
        text.rstrip("\n"),
        "```",
        "",
    ] + fig + [
        NOTES.rstrip("\n"),
    ]
    if name == "6.12":
        nfile = "native-result.txt"
        nnote = (" stosb_4k is what clear_page() does; the zeroing threads clear 2 MiB"
                 " extents, a page at a time with clear_page_nocache() and a fence at the"
                 " end: CLZERO where the CPU has it, MOVNTI otherwise (part 2, patches 6-7).")
    else:
        nfile = "extents-2026-12-03.txt"
        nnote = (" stosb (one REP STOSB per piece) is what clear_pages() does on this CPU;"
                 " the zeroing threads clear 2 MiB extents (v1, patch 3) with"
                 " clear_pages_nocache(): clzero where the CPU has it, movnti otherwise"
                 " (part 2, patches 6-7). docs/native/idle-2026-12-01.txt has the earlier run with"
                 " every primitive at 4K, 64K, 2M and 1G.")
    native = os.path.join(ROOT, "docs", "native", nfile)
    if os.path.exists(native):
        with open(native) as f:
            ntext = f.read().rstrip("\n")
        lines += [
            "",
            "## 6. Native zeroing primitives (on the host, not in a guest)",
            "",
            "bench/zero_primitives, one core, 1 GiB buffer, GB/s; run by hand on the host"
            " (see bench/README.md), copied here from docs/native/%s." % nfile + nnote,
            "",
            "```",
            ntext,
            "```",
        ]
    # The scale part (make bench-scale) is its own run: keep its last text.
    part = doc[:-len(".md")].replace("BENCHMARKS", "BENCHMARKS-scale", 1) + ".md"
    if os.path.exists(part):
        with open(part) as f:
            lines += ["", f.read().rstrip("\n")]
    with open(doc, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
