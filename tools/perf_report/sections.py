"""The report's sections, one per primitive: what `tools/perf-report` runs for each (plans) and how
it reads the CLI's JSON (one schema for every primitive, docs/CLI.md) into table rows and sweep
lines. A section's key is what --only names; `cli` is the `scankit bench <primitive>` it runs
(the segmented sort is `bench sort --segments`)."""
from collections import namedtuple

from .common import TYPES, gib_text, pick, size_text

# title, table columns (the input), bandwidth column, what it means, bench parser, sweep parser
# (None: the section has no sweep), the CLI's primitive, which bench row heads the summary.
Section = namedtuple("Section", "title cols pct_name pct_meaning bench sweep cli headline", defaults=(0,))


# ----------------------------------------------------------------------------------------
# What runs. Bench entries: (log2 n, arguments, reps); sweeps: (min log2, max log2, arguments,
# reps), or None. Reps: host-side input generation and checking dominate the wall time, not the
# timed runs. The CLI checks every row against a reference it computes on the host (top-k's:
# the serial top-k up to 2^24 items, the parallel CPU top-k beyond); the rows case of top-k is
# the 65,536 rows of 256.

def plans(gpu, quick):
    """({section: [(log2 n, arguments, reps)]}, {section: (min log2, max log2, arguments, reps) or
    None}) for a GPU machine or the CPU rows; quick: tiny sizes, 1-2 runs."""
    def size(lg):
        return min(lg, 16) if quick else lg

    scan = ["--algo", "decoupled-lookback" if gpu else "cpu-parallel", "--compare", "cub,copy", "--device-only"]
    compact = ["--algo", "single-pass" if gpu else "cpu-parallel", "--compare", "cub,copy", "--device-only"]
    sort = ["--algo", "onesweep" if gpu else "cpu-radix"]  # the CUB row comes with a GPU row
    hist = ["--algo", "adaptive" if gpu else "cpu-parallel", "--compare", "cub,read,copy"]
    sel = compact + ["--op", "select_if", "--type"]
    red = ["--algo", "scankit" if gpu else "cpu-parallel", "--compare", "cub,read"]
    # Each --compare floor is timed only where it applies: read for the reductions, copy for the scans.
    seg = ["--algo", "scankit" if gpu else "cpu", "--compare", "cub,read,copy", "--type", "f32"]
    # The faster of the two CUB rows is the CUB column; flat: scankit's sort of all n keys at once.
    segsort = ["--algo", "scankit,cub-segmented-radix,cub-segmented-sort,flat" if gpu else "cpu-parallel",
               "--type", "u32"]
    topk = ["--algo", "scankit" if gpu else "cpu-parallel", "--compare", "read", "--type", "f32"]
    bench = {
        "scan": [(28, scan + ["--type", t], 30) for t in ("i32", "i64", "f32", "f64")]
                + [(30, scan + ["--type", "i32"], 20), (20, scan + ["--type", "i32"], 200)],
        "compact": [(28, sel + ["u32", "--selectivity", "0.5"], 30), (28, sel + ["u32", "--selectivity", "0.01"], 30),
                    (28, sel + ["u32", "--selectivity", "0.99"], 30), (28, sel + ["i32", "--selectivity", "0.5"], 30),
                    (28, compact + ["--op", "partition", "--type", "u32", "--selectivity", "0.5"], 30),
                    (28, compact + ["--op", "unique", "--type", "u32", "--selectivity", "0.5"], 30)],
        "sort": [(28, sort + ["--type", "u32"], 20), (28, sort + ["--type", "u32", "--pairs", "--value-bytes", "4"], 20)]
                + [(28, sort + ["--type", t], 20) for t in ("u64", "i32", "f32")],
        "histogram": [(30, hist + ["--type", "u8", "--bins", "256"], 30), (28, hist + ["--type", "u32", "--bins", "1024"], 30)],
        "reduce": [(28, red + ["--op", "sum", "--type", "f32"], 30), (28, red + ["--op", "sum", "--type", "i32"], 30),
                   (28, red + ["--op", "argmax", "--type", "f32"], 30), (20, red + ["--op", "sum", "--type", "f32"], 200)],
        "segments": [(28, seg + ["--op", "reduce", "--dist", "uniform", "--mean", m], 20) for m in ("8", "32", "256", "65536")]
                    + [(28, seg + ["--op", "reduce", "--dist", "powerlaw", "--mean", "256"], 20)]
                    + [(28, seg + ["--op", op, "--dist", "uniform", "--mean", "32"], 20)
                       for op in ("scan", "scan-by-key", "reduce-by-key")],
        "segmented-sort": [(26, segsort + ["--segments", "powerlaw", "--mean", "256"], 20),
                           (26, segsort + ["--segments", "uniform", "--mean", "1024"], 20)],
        # The rows case keeps rows of 256 items at every size (--rows must divide n).
        "topk": [(28, topk + ["--k", "8"], 20), (28, topk + ["--k", "1024"], 20),
                 (24, topk + ["--k", "8", "--rows", str(2 ** size(24) // 256)], 20)],
    }
    bench = {prim: [(size(lg), args, 2 if quick else reps) for lg, args, reps in runs] for prim, runs in bench.items()}
    # The segments sweep runs over the mean segment length at one n (its -n), so its range is of means.
    seg_sweep = seg + ["--op", "reduce", "--dist", "uniform", "--over", "mean", "-n", "2^12" if quick else "2^26"]
    sweep = {"scan": (10, 30, bench["scan"][0][1] + ["--over", "size"], 20),
             "compact": (10, 28, bench["compact"][0][1], 20),
             "sort": (10, 28, bench["sort"][0][1], 10),
             "histogram": (10, 30, bench["histogram"][0][1] + ["--over", "size"], 20),
             "reduce": (10, 28, bench["reduce"][0][1], 20),
             "segments": (0, 16, seg_sweep, 20),
             "segmented-sort": None,  # `sweep sort` has no --segments
             "topk": (10, 24, bench["topk"][0][1], 10)}
    if quick:
        sweep = {prim: s and ((0, 3) if prim == "segments" else (10, 13)) + (s[2], 1) for prim, s in sweep.items()}
    return bench, sweep


# ----------------------------------------------------------------------------------------
# Reading the CLI's JSON: each section's table row and sweep label are read in its own two
# functions. A bench parser returns one table row: cols (the input, one cell per table column),
# input (the same in words), algo (scankit's row), ms, cub_ms, vs_cub, pct (of the bandwidth
# limit; None without a GPU), check, and optionally pct_suffix (after the pct cell) and cub_note
# (after the CUB cell). A sweep parser returns (label, [(x, {series: GB/s})]) and optionally the
# x axis's label (default: the input size n).

def row(cols, text, mine, name, ms, cub_ms, pct, check, **extra):
    return {"cols": cols, "input": text, "algo": mine[name], "ms": ms, "cub_ms": cub_ms,
            "vs_cub": mine["vs_cub"], "pct": pct, "check": check, **extra}


def item_bytes(t):
    """Bytes of a CLI type name (u8, i32, f64, ...)."""
    return int(t[1:]) // 8


def scan_bench(j):
    rows, p = j["rows"], j["params"]
    mine = pick(rows, "group", ["gpu"]) or pick(rows, "algorithm", ["cpu-parallel", "cpu-tbb"])
    cub = pick(rows, "algorithm", ["cub"])
    t, n = TYPES[p["type"]], size_text(p["n"])
    return row([f"{t} {p['scan_kind']} {p['op']}", n], f"{t} {p['scan_kind']} {p['op']}, {n}", mine, "algorithm",
               mine["ms"], cub and cub["ms"], mine["pct_of_copy"] if mine["group"] == "gpu" else None, mine["check"])


def compact_bench(j):
    rows, p = j["rows"], j["params"]
    sel = p.get("selectivity")
    mine = pick(rows, "group", ["gpu"]) or pick(rows, "algorithm", ["cpu-parallel"])
    cub = pick(rows, "algorithm", ["cub"])
    t, n = TYPES[p["type"]], size_text(p["n"])
    text = f"{p['op']} {t}, {n}" + ("" if sel is None else f", {sel * 100:g}% selected")
    return row([p["op"], t, n, "values 0..3" if sel is None else f"{sel * 100:g}%"], text, mine, "algorithm",
               mine["ms"], cub and cub["ms"], mine["pct_of_copy"] if mine["group"] == "gpu" else None,
               mine["check"])


def sort_bench(j):
    rows, p = j["rows"], j["params"]
    vb = p["value_bytes"]
    mine = pick(rows, "algorithm", ["onesweep", "lsd-reduce-then-scan", "split-1bit", "cpu-radix"])
    cub = pick(rows, "algorithm", ["cub"])
    t, n = TYPES[p["type"]], size_text(p["n"])
    text = f"{t} keys" + (f" + {vb}-byte values" if vb else "") + f", {n}"
    return row([t, f"{vb} bytes" if vb else "-", n], text, mine, "algorithm", mine["ms"], cub and cub["ms"],
               mine["pct_of_copy"], mine["check"])


def histogram_bench(j):
    rows, p = j["rows"], j["params"]
    t = TYPES[p["type"]]
    mine = pick(rows, "group", ["gpu"]) or pick(rows, "algorithm", ["cpu-parallel"])
    cub = pick(rows, "algorithm", ["cub"])
    n, gib, bins = size_text(p["n"]), gib_text(p["n"] * item_bytes(p["type"])), f"{p['bins']:,}"
    return row([t, n + gib, bins], f"{bins} bins over {n} {t}{gib}", mine, "algorithm", mine["ms"],
               cub and cub["ms"], mine["pct_of_read"] if mine["group"] == "gpu" else None, mine["check"])


def reduce_bench(j):
    rows, p = j["rows"], j["params"]
    t = TYPES[p["type"]]
    mine = pick(rows, "group", ["gpu"]) or pick(rows, "algorithm", ["cpu-parallel", "cpu-serial"])
    cub = pick(rows, "algorithm", ["cub"])  # its ms is null where CUB has no such reduction
    n, gib = size_text(p["n"]), gib_text(p["n"] * item_bytes(p["type"]))
    # The CPU rows' pct_of_read is against a CPU read: n/a here, as in the other sections.
    return row([p["op"], t, n + gib], f"{p['op']} over {n} {t}{gib}", mine, "algorithm", mine["ms"],
               cub and cub["ms"], mine["pct_of_read"] if mine["group"] == "gpu" else None, mine["check"])


def segments_text(dist, mean):
    """The segment layout in words: "uniform, mean 32"; single and ones have no mean."""
    if dist == "single":
        return "one segment"
    if dist == "ones":
        return "segments of 1"
    return f"{dist}, mean {mean:,}"


def segments_bench(j):
    rows, p = j["rows"], j["params"]
    mine = pick(rows, "algorithm", ["scankit"]) or pick(rows, "group", ["gpu"]) or \
        pick(rows, "algorithm", ["cpu", "cpu-serial"])
    cub = pick(rows, "algorithm", ["cub"])
    # The CLI's floor: a read of the input for the reductions, a copy of the values for the scans.
    floor = "read" if p["op"] in ("reduce", "reduce-by-key") else "copy"
    t, n, seg = TYPES[p["type"]], size_text(p["n"]), segments_text(p["dist"], mine["mean"])
    return row([p["op"], t, seg, n], f"{p['op']} {t}, {seg}, {n}", mine, "algorithm", mine["ms"],
               cub and cub["ms"], mine[f"pct_of_{floor}"] if mine["group"] == "gpu" else None, mine["check"],
               pct_suffix=f" of {floor}")


CUB_SEGMENTED_SORTS = {"cub-segmented-radix": "radix", "cub-segmented-sort": "merge"}


def segmented_sort_bench(j):
    rows, p = j["rows"], j["params"]
    mine = pick(rows, "algorithm", ["scankit", "scankit-two-sort", "cpu-parallel", "cpu-serial"])
    # The CLI's vs_cub is against the faster CUB row that ran; the CUB cell names which one.
    cubs = [r for r in rows if r.get("algorithm") in CUB_SEGMENTED_SORTS and r.get("ms") is not None]
    cub = min(cubs, key=lambda r: r["ms"], default=None)
    vb = p.get("value_bytes") or 0
    t, n, seg = TYPES[p["type"]], size_text(p["n"]), segments_text(p["dist"], p["mean"])
    keys = t + (f" + {vb}-byte values" if vb else "")
    return row([keys, seg, n], f"{keys} keys, {seg}, {n}", mine, "algorithm", mine["ms"], cub and cub["ms"],
               mine["pct_of_flat"] if mine["group"] == "gpu" else None, mine["check"],
               cub_note=cub and f" ({CUB_SEGMENTED_SORTS[cub['algorithm']]})")


def topk_bench(j):
    rows, p = j["rows"], j["params"]
    mine = pick(rows, "group", ["gpu"]) or pick(rows, "algorithm", ["cpu-parallel", "cpu-serial"])
    t, n, rs = TYPES[p["type"]], size_text(p["n"]), p["matrix_rows"]
    shape = f"{rs:,} rows of {p['n'] // rs:,}" if rs else "one array"
    k = f"{p['k']:,} " + ("largest" if p["largest"] else "smallest")
    return row([f"{t}, {shape}", k, n, mine.get("path") or "-"], f"{k} of {n} {t}" + (f", {shape}" if rs else ""),
               mine, "algorithm", mine["ms"], None, mine["pct_of_read"] if mine["group"] == "gpu" else None,
               mine["check"])


def gbps_points(rows, gbps, reference=None, key="n"):
    """[(x, {algorithm: GB/s})] of scankit's and CUB's rows (and the copy row where there is
    one), and the bandwidth reference's, in order of x (the row's `key`)."""
    by_x = {}
    for r in rows:
        vals = by_x.setdefault(r[key], {})
        if r["algorithm"] != "thrust":
            vals[r["algorithm"]] = gbps(r)
        if reference and reference(r):
            vals.update(reference(r))
    return sorted(by_x.items())


def scan_sweep(j):
    return TYPES[j["params"]["type"]], gbps_points(j["rows"], lambda r: r["gbps"])


def compact_sweep(j):
    p = j["params"]
    sel = p.get("selectivity")
    label = f"{p['op']} {TYPES[p['type']]}, " + ("values 0..3" if sel is None else f"{sel:.0%} selected")
    return label, gbps_points(j["rows"], lambda r: r["gbps"])


def sort_sweep(j):
    # The CLI's GB/s of a sort: every key and value read and written once. No copy line: a sort
    # moves its data once per digit pass, far below the copy, which would squeeze the others flat.
    vb = j["params"]["value_bytes"]
    label = TYPES[j["params"]["type"]] + (f" keys + {vb}-byte values" if vb else " keys")
    return label, gbps_points(j["rows"], lambda r: r["gbps"])


def floor_line(r):
    """The floor row r was compared with, in r's GB/s: r moves the same bytes in r's time, the
    floor in its own (read_ms: the read-once kernel; copy_ms: the device-to-device copy)."""
    for field, name in (("read_ms", "read-once"), ("copy_ms", "copy")):
        if r.get(field) and r.get("ms") and r.get("gbps"):
            return {name: r["gbps"] * r["ms"] / r[field]}
    return None


def histogram_sweep(j):
    def read(r):  # the read-once kernel moves the same bytes as the row
        return {"read-once": r["gbps"] * r["ms"] / r["read_ms"]} if r.get("read_ms") and r.get("ms") else None
    label = f"{TYPES[j['params']['type']]}, {j['params']['bins']} bins"
    return label, gbps_points(j["rows"], lambda r: r["gbps"], read)


def reduce_sweep(j):
    p = j["params"]
    return f"{p['op']} {TYPES[p['type']]}", gbps_points(j["rows"], lambda r: r["gbps"], floor_line)


def segments_sweep(j):
    p = j["params"]
    by_mean = p.get("over") == "mean"
    where = f"n = {size_text(p['n'])}" if by_mean else f"mean {p['mean']:,}"
    label = f"{p['op']} {TYPES[p['type']]}, {p['dist']}, {where}"
    points = gbps_points(j["rows"], lambda r: r["gbps"], floor_line, "x")
    return label, points, "mean segment length (items)" if by_mean else "input size n (items)"


def topk_sweep(j):
    p = j["params"]
    # The read row is the read-once kernel (its time is every row's read_ms).
    rows = [dict(r, algorithm="read-once") if r["algorithm"] == "read" else r for r in j["rows"]]
    label = f"{TYPES[p['type']]}, k = {p['k']:,}" + (f", {p['matrix_rows']:,} rows" if p["matrix_rows"] else "")
    return label, gbps_points(rows, lambda r: r["gbps"])


SECTIONS = {
    "scan": Section("Prefix scan", ["input", "size"], "% of copy",
                    "the copy's time over scankit's; a scan reads and writes every item once, so 100% is the limit",
                    scan_bench, scan_sweep, "scan"),
    "compact": Section("Stream compaction", ["operation", "type", "size", "selectivity"], "% of copy",
                       "the bytes moved (input read, selected items written) per second over the copy's; for unique, "
                       "the selectivity is the fraction of items that start a new run", compact_bench, compact_sweep,
                       "compact"),
    "sort": Section("Radix sort", ["keys", "values", "size"], "% of copy",
                    "the copy's time for the same bytes (keys and values) over scankit's; a radix sort of P digit "
                    "passes reads and writes its data P times, so its limit is 100/P %", sort_bench, sort_sweep, "sort"),
    "histogram": Section("Histogram", ["samples", "size", "bins"], "% of read",
                         "the time of a kernel that only reads the samples over scankit's: a histogram reads its "
                         "input once and writes next to nothing", histogram_bench, histogram_sweep, "histogram"),
    "reduce": Section("Reduction", ["operation", "type", "size"], "% of read",
                      "the time of a kernel that only reads the input over scankit's: a reduction reads every item "
                      "once and writes next to nothing, so 100% is the limit; CUB: DeviceReduce (n/a for an operation "
                      "it lacks)", reduce_bench, reduce_sweep, "reduce"),
    "segments": Section("Segmented reduce and scans", ["operation", "values", "segments", "size"], "% of floor",
                        "the floor's time over scankit's, the floor the CLI times beside each row: for reduce and "
                        "reduce-by-key a kernel that reads the input (values and offsets, or keys) once (of read), for "
                        "the scans a device-to-device copy of the values and a read of the offsets or keys (of copy); "
                        "CUB: DeviceSegmentedReduce::Sum, DeviceScan::InclusiveSumByKey, DeviceReduce::ReduceByKey "
                        "(keys: u32 segment ids)", segments_bench, segments_sweep, "segments", 1),
    "segmented-sort": Section("Segmented sort", ["keys", "segments", "size"], "% of flat",
                              "the time of scankit's flat sort of the same n keys as one array over scankit's "
                              "segmented sort's; CUB: the faster of DeviceSegmentedRadixSort (radix) and "
                              "DeviceSegmentedSort (merge), named beside its time, and vs CUB is against it",
                              segmented_sort_bench, None, "sort"),
    "topk": Section("Top-k", ["input", "k", "size", "path"], "% of read",
                    "the time of a kernel that only reads the input over scankit's: a top-k reads every item at "
                    "least once and writes next to nothing; path: what scankit's plan chose; CUB has no top-k "
                    "(n/a)", topk_bench, topk_sweep, "topk"),
}
ORDER = tuple(SECTIONS)  # the report's order, also of the distributed section's rows
