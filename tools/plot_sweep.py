#!/usr/bin/env python3
"""Plot any `scankit sweep` result: PREFIX.json -> PREFIX.png and PREFIX.svg.

    python3 tools/plot_sweep.py sweep-scan-size.json [--out PREFIX]

Reads the JSON schema of docs/CLI.md (every primitive's sweep: scan, compact, sort, histogram).
The left panel shows the time per call (the median of the runs) against the swept value, the
right one the throughput in GB/s as the primitive defines it (params.gbps). One line per
algorithm: scankit's GPU algorithms solid, CUB thick black dashed, other baselines grey dashed,
the CPU rows dash-dotted, and the copy each row is compared with (the bandwidth floor) dotted.
Failed points are marked with a red x. The title names the primitive, the measure and the
number of runs.

Errors are reported as one line on stderr (exit status 1).
"""

import argparse
import json
import math
import sys

X_LABELS = {"size": "items (n)", "block-size": "threads per block", "bins": "bins", "mean": "mean segment length"}
GPU_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
              "#bcbd22", "#17becf", "#393b79", "#637939", "#ad494a"]
CPU_COLORS = ["#7b4173", "#8c6d31", "#3182bd", "#31a354", "#e6550d"]


def fail(message):
    print(f"plot_sweep.py: {message}", file=sys.stderr)
    sys.exit(1)


def pow2_label(v, _pos=None):
    if v <= 0:
        return ""
    k = math.log2(v)
    return f"$2^{{{int(round(k))}}}$" if abs(k - round(k)) < 1e-9 else f"{v:g}"


def style_for(name, group, index):
    if name == "cub":
        return dict(color="black", linestyle="--", linewidth=2.6, marker="D", markersize=4, zorder=5,
                    label="CUB")
    if name == "copy":
        return dict(color="black", linestyle=":", linewidth=2.2, zorder=3,
                    label="copy (device-to-device memcpy)")
    if group == "baseline":
        return dict(color="0.45", linestyle="--", linewidth=1.6, marker="s", markersize=3, zorder=4,
                    label=name)
    if group == "cpu":
        return dict(color=CPU_COLORS[index % len(CPU_COLORS)], linestyle="-.", linewidth=1.4,
                    marker="^", markersize=3, label=name)
    return dict(color=GPU_COLORS[index % len(GPU_COLORS)], linestyle="-", linewidth=1.6, marker="o",
                markersize=3, label=name)


def series(rows):
    """{algorithm: {"group", "x", "ms", "gbps", "failed": [(x, ms, gbps)]}} in row order."""
    out = {}
    for r in rows:
        s = out.setdefault(r["algorithm"], {"group": r["group"], "x": [], "ms": [], "gbps": [], "failed": []})
        ms = r.get("ms")
        if ms is None or ms <= 0:
            continue
        s["x"].append(r["x"])
        s["ms"].append(ms)
        s["gbps"].append(r.get("gbps"))
        if r.get("check") == "FAIL":
            s["failed"].append((r["x"], ms, r.get("gbps")))
    return out


def copy_floor(rows, groups):
    """(x, copy ms) of the rows in `groups` that name a copy, once per x."""
    seen = {}
    for r in rows:
        if r["group"] in groups and r.get("copy_ms") and r["algorithm"] != "copy":
            seen.setdefault(r["x"], r["copy_ms"])
    xs = sorted(seen)
    return xs, [seen[x] for x in xs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="the sweep's PREFIX.json")
    ap.add_argument("--out", help="output prefix (default: the JSON path without .json)")
    args = ap.parse_args()

    try:
        with open(args.json, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {args.json}: {e}")
    if data.get("kind") != "sweep" or "rows" not in data:
        fail(f"{args.json} is not the JSON of a scankit sweep (docs/CLI.md)")
    rows = data["rows"]
    if not rows:
        fail(f"{args.json}: no rows to plot")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter
    except ImportError:
        fail("needs matplotlib (e.g. apt install python3-matplotlib, or set SCANKIT_PYTHON to a "
             "Python that has it)")
    prefix = args.out or (args.json[:-5] if args.json.endswith(".json") else args.json)

    primitive = data.get("primitive", "?")
    over = data.get("over", "size")
    params = data.get("params", {})
    system = data.get("system", {})
    gpu = system.get("gpu")
    device = gpu["name"] if gpu else "CPU only: " + system.get("cpu", {}).get("model", "?")
    what = ", ".join(f"{k} {params[k]}" for k in ("type", "op", "scan_kind", "bins", "distribution", "dist", "mean")
                     if params.get(k) not in (None, "") and not (k == "bins" and over == "bins")
                     and not (k == "mean" and over == "mean"))
    title = f"scankit sweep {primitive} over {over}" + (f": {what}" if what else "") + f" — {device}"
    subtitle = (f"{data.get('date', '')}   time: median of {params.get('reps', '?')} runs per point;   "
                f"GB/s = {params.get('gbps', '?')}")

    fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(14, 6.2))
    palette = {}
    for name, s in series(rows).items():
        if not s["x"]:
            continue
        st = style_for(name, s["group"], palette.get(s["group"], 0))
        palette[s["group"]] = palette.get(s["group"], 0) + 1
        ax_t.plot(s["x"], s["ms"], **st)
        pts = [(x, g) for x, g in zip(s["x"], s["gbps"]) if g is not None]
        if pts:
            ax_b.plot([p[0] for p in pts], [p[1] for p in pts], **st)
        if s["failed"]:
            ax_t.scatter([f[0] for f in s["failed"]], [f[1] for f in s["failed"]], marker="x", color="red",
                         s=60, zorder=6)
    names = {r["algorithm"] for r in rows}
    for groups, label, color in ((("gpu", "baseline"), "copy floor (device-to-device memcpy)", "black"),
                                 (("cpu",), "CPU copy floor (cpu::parallel_copy)", "0.55")):
        if "copy" in names and color == "black":
            continue  # drawn as the copy row
        xs, ms = copy_floor(rows, groups)
        if xs:
            ax_t.plot(xs, ms, color=color, linestyle=":", linewidth=2.2, label=label, zorder=3)

    for ax in (ax_t, ax_b):
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(pow2_label if over != "block-size" else
                                                   (lambda v, _p: f"{int(v)}")))
        ax.set_xlabel(X_LABELS.get(over, over))
        ax.grid(True, which="major", alpha=0.35)
        ax.grid(True, which="minor", alpha=0.12)
    ax_t.set_yscale("log")
    ax_t.set_ylabel(f"ms per call (median of {params.get('reps', '?')} runs)")
    ax_t.set_title("time per call (lower is better)")
    ax_b.set_ylim(bottom=0)
    ax_b.set_ylabel(f"GB/s  ({params.get('gbps', '?')})")
    ax_b.set_title("throughput (higher is better)")

    handles, labels = ax_t.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(6, max(1, len(labels))), frameon=False,
               fontsize=9)
    fig.suptitle(title + "\n" + subtitle, fontsize=10)
    lines = max(1, math.ceil(len(labels) / 6))
    fig.tight_layout(rect=(0, 0.04 + 0.035 * lines, 1, 0.93))
    written = []
    for ext in ("png", "svg"):
        path = f"{prefix}.{ext}"
        try:
            fig.savefig(path, dpi=130 if ext == "png" else None,
                        metadata={"Title": f"{title}; {subtitle}"})
        except (OSError, ValueError) as e:
            fail(f"cannot write {path}: {e}")
        written.append(path)
    print("plot_sweep.py: wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SystemExit:
        raise
    except Exception as e:  # one line, not a traceback: the CLI shows the last line
        fail(f"{type(e).__name__}: {e}")
