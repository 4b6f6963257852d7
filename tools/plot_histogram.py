#!/usr/bin/env python3
"""Plots for scankit's histograms.

    python3 tools/plot_histogram.py --counts counts.json --out bytes.png   (scankit histogram FILE --plot)
    python3 tools/plot_histogram.py --sweep sweep-histogram-bins.json --out sweep.png

--counts draws a byte-frequency bar chart (log count axis when the counts span more than
three decades). --sweep draws time per call against the swept bin count or size, one line per
algorithm: scankit's GPU algorithms solid, CUB black dashed, the read-once floor dotted.
"""

import argparse
import json
import math
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:  # pragma: no cover - environment problem, reported plainly
    sys.exit("plot_histogram.py needs matplotlib (e.g. apt install python3-matplotlib, or set "
             "SCANKIT_PYTHON to a Python that has it)")


def plot_counts(data, out):
    values, counts = data["values"], data["counts"]
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 256 / max(len(values), 1)
    ax.bar(values, counts, width=width * 0.9, align="edge", color="#1f77b4")
    positive = [c for c in counts if c > 0]
    if positive and max(positive) / min(positive) > 1000:
        ax.set_yscale("log")
    ax.set_xlim(0, 256)
    ax.set_xticks(range(0, 257, 32))
    ax.set_xlabel("byte value")
    ax.set_ylabel("count")
    ax.set_title(f"{data.get('file', '')}: {data.get('bytes', 0):,} bytes in {data.get('bins', 0)} bins "
                 f"({data.get('device', '')})")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def plot_sweep(data, out):
    over = data.get("over", "bins")
    rows = {}
    for p in data.get("points", []):
        for r in p["rows"]:
            if r.get("ms") is None or r["status"] in ("n/a", "ERROR"):
                continue
            s = rows.setdefault(r["name"], {"group": r["group"], "x": [], "ms": []})
            s["x"].append(p["x"])
            s["ms"].append(r["ms"])
    read = [(p["x"], p["read_ms"]) for p in data.get("points", []) if p.get("read_ms")]
    fig, ax = plt.subplots(figsize=(10, 6))
    for name, s in rows.items():
        if name == "cub":
            style = dict(color="black", linestyle="--", linewidth=2.2)
        elif s["group"] == "cpu":
            style = dict(linestyle="-.")
        else:
            style = dict(marker="o", markersize=3)
        ax.plot(s["x"], s["ms"], label=name, **style)
    if read:
        ax.plot([x for x, _ in read], [m for _, m in read], color="grey", linestyle=":", linewidth=2,
                label="read once (floor)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("bins" if over == "bins" else "samples")
    ax.set_ylabel("ms per call (median)")
    params = data.get("params", {})
    system = data.get("system", {})
    gpu = system.get("gpu")
    device = gpu["name"] if gpu else "CPU only"
    ax.set_title(f"scankit histogram over {over}: {params.get('type', '')} samples, "
                 f"{params.get('distribution', '')} — {device}\n{data.get('date', '')}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--counts", help="JSON written by `scankit histogram FILE --plot`")
    g.add_argument("--sweep", help="JSON written by `scankit sweep histogram`")
    ap.add_argument("--out", required=True, help="image to write (.png or .svg)")
    a = ap.parse_args()
    with open(a.counts or a.sweep, encoding="utf-8") as f:
        data = json.load(f)
    if a.counts:
        plot_counts(data, a.out)
    else:
        plot_sweep(data, a.out)


if __name__ == "__main__":
    main()
