#!/usr/bin/env python3
"""Plot of a `scankit sweep sort` run: sorting rate against the number of keys.

    python3 tools/plot_sort.py sweep-sort-u32.json --out sweep-sort-u32.png

One line per row of the sweep (G keys per second, higher is better): scankit's GPU sorts
solid, CUB black dashed, the CPU rows thin. Where the sweep measured a device-to-device copy
of the keys, its rate is drawn dotted: no pass over the keys can be faster than that, so a
radix sort with k passes sits at best near 1/k of it.
"""

import argparse
import json
import math
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter
except ImportError:  # pragma: no cover - environment problem, reported plainly
    sys.exit("plot_sort.py needs matplotlib (e.g. apt install python3-matplotlib, or set "
             "SCANKIT_PYTHON to a Python that has it)")


def pow2_label(v, _pos=None):
    if v <= 0:
        return ""
    e = round(math.log2(v))
    return f"$2^{{{e}}}$" if abs(2**e - v) < 1e-9 * v else ""


def rates(points):
    """{row: ([n], [G keys/s])} over the sweep's points, in order of n."""
    out = {}
    for p in sorted(points, key=lambda q: q["n"]):
        for r in p["rows"]:
            if r.get("ms") and r["ms"] > 0:
                xs, ys = out.setdefault(r["row"], ([], []))
                xs.append(p["n"])
                ys.append(p["n"] / (r["ms"] * 1e6))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="the JSON written by scankit sweep sort")
    ap.add_argument("--out", help="image to write (default: the JSON's name with .png)")
    a = ap.parse_args()
    with open(a.json) as f:
        data = json.load(f)
    points = data.get("points", [])
    if not points:
        sys.exit(f"{a.json}: no points to plot")
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for name, (xs, ys) in rates(points).items():
        if name == "cub":
            ax.plot(xs, ys, "k--", label="CUB DeviceRadixSort", linewidth=1.6)
        elif name.startswith("cpu-"):
            ax.plot(xs, ys, marker=".", linewidth=0.9, alpha=0.8, label=name)
        else:
            ax.plot(xs, ys, marker="o", markersize=3.5, linewidth=1.8, label=name)
    copy = [(p["n"], p["n"] / (p["copy_ms"] * 1e6)) for p in points if p.get("copy_ms")]
    if copy:
        ax.plot([c[0] for c in copy], [c[1] for c in copy], "k:", label="one copy of the keys")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(pow2_label))
    ax.set_xlabel("keys")
    ax.set_ylabel("G keys / s (higher is better)")
    system = data.get("system", {})
    gpu = (system.get("gpu") or {}).get("name") if isinstance(system.get("gpu"), dict) else None
    where = gpu or "CPU only"
    pairs = f", pairs with {data['value_bytes']}-byte values" if data.get("value_bytes") else ""
    ax.set_title(f"scankit sweep sort: {data.get('type', '')} keys{pairs} ({where}, {data.get('date', '')[:10]})")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    out = a.out or a.json.rsplit(".", 1)[0] + ".png"
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
