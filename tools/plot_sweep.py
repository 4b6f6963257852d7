#!/usr/bin/env python3
"""Plot a `scankit sweep` result: PREFIX.json -> PREFIX.png and PREFIX.svg.

    python3 tools/plot_sweep.py sweep-scan-size.json [--out PREFIX]

A size sweep is drawn log-log (time per call against the number of items), a block-size
sweep as time against block size; a second panel shows the throughput (GB/s, 2*n*sizeof(T)
per call). One line per algorithm: scankit's GPU algorithms solid, CUB thick black dashed,
Thrust grey dashed, the CPU scans dash-dotted, and the device-to-device copy (the bandwidth
floor) as a dotted black line over a shaded band. Failed points are marked with a red x;
rows that raised an error have no points.
"""

import argparse
import json
import math
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
except ImportError:  # pragma: no cover - environment problem, reported plainly
    sys.exit("plot_sweep.py needs matplotlib (e.g. apt install python3-matplotlib, or set "
             "SCANKIT_PYTHON to a Python that has it)")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def series(points, over):
    """{row name: {"group": ..., "x": [...], "ms": [...], "gbps": [...], "failed": [(x, ms)]}}"""
    out = {}
    for p in points:
        x = p["n"] if over == "size" else p["block_size"]
        for row in p["rows"]:
            s = out.setdefault(row["name"], {"group": row["group"], "x": [], "ms": [], "gbps": [],
                                             "failed": []})
            ms = row.get("device_ms")
            if ms is None or ms <= 0:
                continue
            if row["status"] == "FAIL":
                s["failed"].append((x, ms, row.get("gbps")))
            s["x"].append(x)
            s["ms"].append(ms)
            s["gbps"].append(row.get("gbps"))
    return out


def floor_series(points, over, key):
    xs, ms, gbps = [], [], []
    for p in points:
        c = p.get(key)
        if not c or c.get("ms") is None:
            continue
        xs.append(p["n"] if over == "size" else p["block_size"])
        ms.append(c["ms"])
        gbps.append(c.get("gbps"))
    return xs, ms, gbps


def pow2_label(v, _pos=None):
    if v <= 0:
        return ""
    k = math.log2(v)
    return f"$2^{{{int(round(k))}}}$" if abs(k - round(k)) < 1e-9 else f"{v:g}"


# Distinct colours, none of them grey (grey is for Thrust and the CPU copy floor).
GPU_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
              "#bcbd22", "#17becf", "#393b79", "#637939", "#ad494a"]
CPU_COLORS = ["#7b4173", "#8c6d31", "#3182bd", "#31a354", "#e6550d"]


def pow2_text(v):
    k = math.log2(v) if v > 0 else 0.5
    return f"2^{int(round(k))}" if v > 0 and abs(k - round(k)) < 1e-9 else f"{v}"


def style_for(name, group, palette_index):
    if name == "cub":
        return dict(color="black", linestyle="--", linewidth=2.6, marker="D", markersize=4,
                    zorder=5, label="CUB (DeviceScan)")
    if name == "thrust":
        return dict(color="0.45", linestyle="--", linewidth=1.6, marker="s", markersize=3,
                    zorder=4, label="Thrust")
    if group == "cpu":
        return dict(color=CPU_COLORS[palette_index % len(CPU_COLORS)], linestyle="-.",
                    linewidth=1.4, marker="^", markersize=3, label=name)
    return dict(color=GPU_COLORS[palette_index % len(GPU_COLORS)], linestyle="-", linewidth=1.6,
                marker="o", markersize=3, label=name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="the sweep's PREFIX.json")
    ap.add_argument("--out", help="output prefix (default: the JSON path without .json)")
    args = ap.parse_args()

    data = load(args.json)
    over = data.get("over", "size")
    points = data.get("points", [])
    if not points:
        sys.exit(f"{args.json}: no points to plot")
    prefix = args.out or (args.json[:-5] if args.json.endswith(".json") else args.json)

    params = data.get("params", {})
    system = data.get("system", {})
    gpu = system.get("gpu")
    device = gpu["name"] if gpu else "CPU only: " + system.get("cpu", {}).get("model", "?")
    title = (f"scankit {params.get('kind', '')} scan, {params.get('op', '')} over "
             f"{params.get('type', '')} — {device}")
    subtitle = f"{data.get('date', '')}   median of {params.get('reps', '?')} runs"
    if over == "block-size":
        subtitle += f"   n = {pow2_text(params.get('n', 0))}"

    fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(14, 6.2))
    all_series = series(points, over)
    palette = {"gpu": 0, "cpu": 0, "baseline": 0}
    for name, s in all_series.items():
        if name == "copy" or not s["x"]:
            continue  # the copy row is drawn as the floor below
        st = style_for(name, s["group"], palette.get(s["group"], 0))
        palette[s["group"]] = palette.get(s["group"], 0) + 1
        ax_t.plot(s["x"], s["ms"], **st)
        gx = [x for x, g in zip(s["x"], s["gbps"]) if g is not None]
        gy = [g for g in s["gbps"] if g is not None]
        ax_b.plot(gx, gy, **st)
        if s["failed"]:
            ax_t.scatter([f[0] for f in s["failed"]], [f[1] for f in s["failed"]], marker="x",
                         color="red", s=60, zorder=6)
            ax_b.scatter([f[0] for f in s["failed"] if f[2] is not None],
                         [f[2] for f in s["failed"] if f[2] is not None], marker="x",
                         color="red", s=60, zorder=6)

    # The bandwidth floors: a device-to-device copy (GPU) and cpu::parallel_copy (CPU rows).
    for key, label, color, shade in (
            ("copy", "copy floor (device-to-device memcpy)", "black", "0.9"),
            ("cpu_copy", "CPU copy floor (cpu::parallel_copy)", "0.55", None)):
        xs, ms, gbps = floor_series(points, over, key)
        if not xs:
            continue
        ax_t.plot(xs, ms, color=color, linestyle=":", linewidth=2.2, label=label, zorder=3)
        if shade:  # everything below the copy time is out of reach for a read-once-write-once op
            ax_t.fill_between(xs, [m * 1e-3 for m in ms], ms, color=shade, zorder=0)
        ax_b.plot(xs, gbps, color=color, linestyle=":", linewidth=2.2, label=label, zorder=3)

    if over == "size":
        for ax in (ax_t, ax_b):
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(FuncFormatter(pow2_label))
            ax.set_xlabel("items (n)")
        ax_t.set_yscale("log")
        ax_t.set_title("time per call (lower is better)")
    else:
        blocks = sorted({p["block_size"] for p in points})
        for ax in (ax_t, ax_b):
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_locator(FixedLocator(blocks))
            ax.xaxis.set_minor_locator(NullLocator())
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{int(v)}"))
            ax.set_xlabel("threads per block")
        ax_t.set_yscale("log")
        ax_t.set_title("time per call vs block size (lower is better)")
    ax_t.set_ylabel("ms (median)")
    ax_b.set_ylim(bottom=0)
    ax_b.set_ylabel("GB/s  (2·n·sizeof(T) / time)")
    ax_b.set_title("throughput (higher is better)")
    lows = [v for s in all_series.values() for v in s["ms"]]
    for key in ("copy", "cpu_copy"):
        lows += floor_series(points, over, key)[1]
    if lows:
        ax_t.set_ylim(bottom=min(lows) / 2)
    for ax in (ax_t, ax_b):
        ax.grid(True, which="major", alpha=0.35)
        ax.grid(True, which="minor", alpha=0.12)

    handles, labels = ax_t.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(6, max(1, len(labels))),
               frameon=False, fontsize=9)
    fig.suptitle(title + "\n" + subtitle, fontsize=11)
    rows = max(1, math.ceil(len(labels) / 6))
    fig.tight_layout(rect=(0, 0.04 + 0.035 * rows, 1, 0.94))

    written = []
    for ext in ("png", "svg"):
        path = f"{prefix}.{ext}"
        fig.savefig(path, dpi=130 if ext == "png" else None)
        written.append(path)
    print("plot_sweep.py: wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
