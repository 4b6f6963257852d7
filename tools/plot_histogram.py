#!/usr/bin/env python3
"""Plots for scankit's histograms.

    python3 tools/plot_histogram.py --counts counts.json --out bytes.png   (scankit histogram FILE --plot)

--counts draws a byte-frequency bar chart (log count axis when the counts span more than
three decades) to a .png, .svg or .pdf. (`scankit sweep histogram` plots with plot_sweep.py.)
Errors are reported as one line on stderr (exit status 1).
"""

import argparse
import json
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--counts", required=True, help="JSON written by `scankit histogram FILE --plot`")
    ap.add_argument("--out", required=True, help="image to write (.png, .svg or .pdf)")
    a = ap.parse_args()
    with open(a.counts, encoding="utf-8") as f:
        data = json.load(f)
    plot_counts(data, a.out)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as e:  # one line, not a traceback: the CLI shows the last line
        print(f"plot_histogram.py: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
