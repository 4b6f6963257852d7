"""Writing docs/PERFORMANCE.md: one part per device (a folder of OUT/perf: its results.json from
tools/perf-report's runs, its python-*.json from `python -m scankit.bench`), then the distributed
machines (perf/dist.json)."""
import json
import re
import sys

from .common import load_json, md_table, ms_text
from .dist import render_distributed
from .sections import ORDER, SECTIONS

KEEP_PLOTS = set()  # (device folder, section): a plot already drawn from the same results stays without matplotlib


def folder_of(name):
    """The perf/ folder of a device's results: its name in lower case, runs of other characters
    as one '-' (NVIDIA H100 80GB HBM3: nvidia-h100-80gb-hbm3)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unknown-device"


def anchor_of(heading):
    """The link anchor Markdown renderers give a heading."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")

def cells(r, pct_suffix=""):
    """scankit, CUB, vs CUB and bandwidth cells; a row's own pct_suffix (the floor it names)
    and cub_note (which CUB row) win over the caller's."""
    pct_suffix = r.get("pct_suffix") or pct_suffix
    cub = ms_text(r["cub_ms"]) + ((r.get("cub_note") or "") if r["cub_ms"] is not None else "")
    return [ms_text(r["ms"]), cub, "n/a" if r["vs_cub"] is None else f"{r['vs_cub']:.2f}x",
            "n/a" if r["pct"] is None else f"{r['pct']:.1f}%{pct_suffix}"]


def parsed(parse, result):
    """parse(result), or None for a run that left no JSON or JSON without the expected rows."""
    try:
        return parse(result) if result else None
    except (KeyError, TypeError, ValueError, ZeroDivisionError, IndexError, AttributeError):
        return None


def same_measurement(meta, d):
    """Whether section data d was measured with the report's header (data without its own
    record was)."""
    m = d.get("measured")
    return not m or (m.get("date"), m.get("commit")) == (meta.get("date"), meta.get("commit"))


def device_text(meta, data):
    """(the report's device line, the device's name for the plot titles), from the sections
    measured with meta first."""
    ordered = sorted(data.values(), key=lambda d: not same_measurement(meta, d))
    sysinfo = next((r["result"]["system"] for d in ordered for r in d["bench"] if r["result"]), None)
    if sysinfo is None:
        return "unknown (no run left JSON)", "unknown device"
    host = f"host: {sysinfo['cpu']['model']}, {sysinfo['cpu']['hardware_threads']} threads"
    g = sysinfo.get("gpu")
    if not g:
        return f"none, CPU only; {host}", "CPU only"

    def cuda(v):
        return f"{v // 1000}.{v % 1000 // 10}" if v else "?"
    driver = f"driver {meta['nvidia_driver']}, " if meta.get("nvidia_driver") else ""
    copy = re.search(r"device-to-device copy of ([^:]+):.*= (\d+) GB/s", meta.get("devices") or "")
    copy = f"; device-to-device copy of {copy[1]}: {copy[2]} GB/s" if copy else ""
    t = g.get("tuning")
    tuned = ""
    if t:
        bw = t.get("memory_bytes_per_second") or 0
        tuned = (f"; tuned as `{t['class']}` (peak memory {bw / 1e12:.2f} TB/s from the bus and clock, "
                 f"{g.get('l2_bytes', 0) / 2**20:.0f} MiB L2)" if bw else f"; tuned as `{t['class']}`")
    return (f"{g['name']}, compute capability {g['compute_capability']}, {g['sm_count']} SMs, "
            f"{g['total_memory_bytes'] / 2**30:.1f} GiB{tuned}; {driver}CUDA {cuda(sysinfo.get('cuda_driver_version'))} "
            f"(driver), {cuda(sysinfo.get('cuda_runtime_version'))} (runtime){copy}; {host}", g["name"])


def section_device(meta, d):
    """The name of the device that ran section data d (None where no run left JSON)."""
    try:
        name = device_text(meta, {"": d})[1]
    except (KeyError, TypeError):
        return None
    return None if name == "unknown device" else name


def plot_sweep(path, title, points, xlabel="input size n (items)"):
    """GB/s against x (log2): scankit solid, CUB dashed, the bandwidth reference dotted."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    styles = {"cub": ("CUB", "--", "black"), "copy": ("device-to-device copy", ":", "grey"),
              "read-once": ("read-once kernel", ":", "grey")}
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    for name in dict.fromkeys(k for _, v in points for k in v):
        xy = [(n.bit_length() - 1, v[name]) for n, v in points if v.get(name) is not None]
        label, style, color = styles.get(name, ("scankit" if name == "scankit" else f"scankit ({name})", "-", "tab:blue"))
        if xy:
            ax.plot(*zip(*xy), linestyle=style, color=color, marker="o", markersize=3, label=label)
    ticks = sorted({n.bit_length() - 1 for n, _ in points})
    ax.set_xticks(ticks[::2] if len(ticks) > 10 else ticks)
    ax.set_xticklabels([f"$2^{{{k}}}$" for k in ax.get_xticks()])
    ax.set_ylim(bottom=0)
    ax.set(xlabel=xlabel, ylabel="GB/s")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def measured_note(meta, data, device_name):
    """The line that says when (and where) a section was measured, for one measured apart from
    the report's header (--only); else nothing."""
    m = data.get("measured")
    if not m or same_measurement(meta, data) and m.get("device") in (None, device_name):
        return []
    on = f" on {m['device']}" if m.get("device") and m["device"] != device_name else ""
    quick = " (a quick run: no figures to quote)" if m.get("quick") and not meta.get("quick") else ""
    return [f"Measured {m.get('date', '?')} at commit `{m.get('commit', '?')}`{on}{quick}.", ""]


def render_sweep(prim, s, perf, device_name):
    """The sweep's Markdown lines: its plot (in the device's folder `perf`), or why there is none."""
    label, points, *xlabel = parsed(SECTIONS[prim].sweep, s["result"]) or (None, [])
    png = f"{prim}-sweep.png"
    plot_title = f"scankit {prim} {label}: GB/s, median of {s['reps']} run{'s' * (s['reps'] != 1)}, {device_name}"
    if not points:
        return [f"Sweep: `{s['command']}` left no data (exit {s['exit_code']}).", ""]
    if plot_sweep(perf / png, plot_title, points, *xlabel[:1]) or ((perf.name, prim) in KEEP_PLOTS and (perf / png).exists()):
        # --render-only (and --only, for the sections it did not run) without matplotlib keeps
        # the plots drawn from the same results.json.
        return [f"![{plot_title}](perf/{perf.name}/{png})", "", f"Sweep: `{s['command']}`.", ""]
    print("perf-report: no matplotlib: the sweep is not drawn", file=sys.stderr)
    return [f"Sweep: `{s['command']}` (not drawn: no matplotlib; `tools/perf-report --render-only` "
            f"draws it from perf/{perf.name}/results.json).", ""]


def render_section(prim, data, perf, meta, device_name):
    """(the section's Markdown lines, its summary row)"""
    sec = SECTIONS[prim]
    title, cols, pct_name = sec.title, sec.cols, sec.pct_name
    runs, s = data["bench"], data.get("sweep")
    note = measured_note(meta, data, device_name)
    device_name = (data.get("measured") or {}).get("device") or device_name  # the device that ran it
    rows = [parsed(sec.bench, r["result"]) for r in runs]
    table = [r["cols"] + cells(r) + [r["check"]] if r else
             [f"`{run['command']}` " + (f"failed (exit {run['exit_code']})" if run["exit_code"] else "wrote unreadable JSON")]
             + [""] * (len(cols) - 1) + ["n/a"] * 4 + ["ERROR"]
             for run, r in zip(runs, rows)]
    at = sec.headline if sec.headline < len(runs) else 0
    head = rows[at] if rows else None
    summary = [title, head["input"], *cells(head, "" if pct_name == "% of copy" else pct_name[1:])] if head else \
        [title, f"`{runs[at]['command']}` failed" if runs else "no run", *["n/a"] * 4]
    algos = "`, `".join(sorted({r["algo"] for r in rows if r})) or "?"
    reps = "/".join(str(x) for x in sorted({r["reps"] for r in runs}))
    example = f", e.g. `{runs[at]['command']}`" if runs else ""
    raw = f"perf/{perf.name}/results.json"
    text = [f"### {title}", "", *note,
            f"scankit: the `{algos}` row. {pct_name}: {sec.pct_meaning}. Median of {reps} runs, one `scankit` process "
            f"per row{example} (every command and its raw JSON: [{raw}]({raw})).", "",
            *md_table(cols + ["scankit", "CUB", "vs CUB", pct_name, "check"], table), ""]
    if s:
        text += render_sweep(prim, s, perf, device_name)
    return text, summary


def python_runs(perf):
    """The `python -m scankit.bench --json` documents kept in a device's folder."""
    return [json.loads(p.read_text()) for p in sorted(perf.glob("python-*.json"))]


def render_python(runs):
    """A device's Python rows (the method is said once, at the report's start)."""
    text = []
    for run in runs:
        m = run["meta"]
        libs = ", ".join(f"{k} {v}" for k, v in m.get("libraries", {}).items())
        text += [f"### Python: {m['backend']}", "",
                 f"On {m['device']}, n = 2^{m['log2n']}, median of {m['reps']} runs; "
                 f"{libs}; measured {m['date']}" + (f" at commit `{m['commit']}`" if m.get("commit") else "") + ".", ""]
        rows = [[r["work"], ms_text(r["scankit_ms"]),
                 "; ".join(f"{b['name']} {ms_text(b['ms'])} ({b['ms'] / r['scankit_ms']:.2f}x)" for b in r["baselines"]) or "-"]
                for r in run["rows"]]
        text += md_table(["work", "scankit", "baselines (speed-up)"], rows) + [""]
    return text


# The summary's note on the bandwidth column, one clause per section beyond the first four (the
# note's start covers those), said only when the section is in the report.
LIMIT_NOTES = {
    "reduce": "a reduction reads its input once, and is given against the same read-once kernel",
    "segments": "the segmented operations against the floor the CLI times for each (a read for the reductions, "
                "a copy for the scans)",
    "segmented-sort": "the segmented sort against scankit's flat sort of the same keys",
    "topk": "a top-k against the read-once kernel",
}


def device_parts(perf):
    """[(folder, meta, data, python runs, heading)] of every device folder under perf/: the GPUs
    first, by name, then the CPU-only parts."""
    parts = []
    for folder in sorted(p for p in perf.iterdir() if p.is_dir()) if perf.is_dir() else []:
        results = load_json(folder / "results.json")
        meta, data = (results.pop("meta"), results) if isinstance(results, dict) and "meta" in results else (None, {})
        py = python_runs(folder)
        if meta is None and not py:
            continue
        if meta is not None:
            heading = device_text(meta, data)[1]
            gpu = bool(meta.get("gpu"))
        else:
            heading = py[0]["meta"]["device"]
            gpu = any(r["meta"].get("backend") == "GPU" for r in py)
        parts.append((folder, meta, data, py, heading, gpu))
    parts.sort(key=lambda p: (not p[5], p[4]))
    return [p[:5] for p in parts]


def render_part(folder, meta, data, py):
    """(the Markdown lines of one device's part, its summary table's lines)."""
    text, summary_md = [], []
    if meta is not None:
        device, device_name = device_text(meta, data)
        sections, summary = [], []
        for prim in ORDER:
            if prim in data:
                lines, row = render_section(prim, data[prim], folder, meta, device_name)
                sections += lines
                summary.append(row)
        summary_md = md_table(["primitive", "input", "scankit", "CUB", "vs CUB", "% of copy"], summary)
        quick = ["**Quick run** (`--quick`: tiny sizes, 1-2 runs): a test of the report, no figures to quote.", ""]
        text = [*(quick if meta["quick"] else []), f"**Device:** {device}.", "",
                f"**Measured** {meta['date']} at commit `{meta['commit']}` ({meta.get('version') or 'scankit'}).", "",
                "### Summary", "", *summary_md, "", *sections]
    return text + render_python(py), summary_md


def render(out):
    """Writes OUT/PERFORMANCE.md and the plots from every device folder of OUT/perf; returns the
    summary tables' lines. Sections without data (older results, --only) are left out."""
    perf = out / "perf"
    parts = device_parts(perf)
    body, summaries, present = [], [], set()
    for folder, meta, data, py, heading in parts:
        text, summary_md = render_part(folder, meta, data, py)
        body += [f"## {heading}", "", *text]
        summaries += [f"{heading}:", *summary_md, ""] if summary_md else []
        present.update(data)
    limits = [LIMIT_NOTES[p] for p in ORDER if p in present and p in LIMIT_NOTES]
    limits = f"; {'; '.join(limits)}." if limits else "."
    index = [f"- [{heading}](#{anchor_of(heading)})" for *_, heading in parts]
    doc = ["# Performance", "", "Generated by `tools/perf-report`: current figures only, one part per device, each "
           "from that device's own runs.", "", *index, "",
           "**Regenerate** on a GPU machine: `tools/gpu-check report` (that device's part; the others stay).", "",
           "Each row times scankit, CUB and a device-to-device copy of the same bytes in one process on the "
           "same input: device time, the median of the runs, timed with CUDA events around the call, "
           "workspace allocated ahead, L2 flushed before each run; every row is checked against the CPU "
           "reference (check). **vs CUB** = CUB's time / scankit's (above 1.00x: scankit is faster). "
           "Without a GPU, scankit's CPU rows run and the CUB and copy columns read n/a.", "",
           "% of copy: a device-to-device copy's time for the same bytes over scankit's, the limit of a "
           "primitive that reads and writes its data once; a radix sort of P digit passes has a limit of "
           "100/P % (25% for 32-bit keys), and a histogram, which only reads, is given against a kernel "
           f"that reads the samples once{limits}", "",
           "Python: `python -m scankit.bench`, scankit's Python calls beside what PyTorch, CuPy and NumPy users "
           "call for the same work, in one Python process on the same arrays. GPU rows: the median of the runs "
           "(one run where that takes over 200 ms), timed with CUDA events on the current stream after an "
           "untimed warm-up run (the exact-size calls include their one host round trip); CPU rows: wall "
           "time. Speed-up = the baseline's time / scankit's. Regenerate: `tools/gpu-check python-bench`, then "
           "`tools/perf-report --out docs --render-only --python <its python-gpu.json and python-cpu.json>`.", "",
           *body, *render_distributed(perf)]
    (out / "PERFORMANCE.md").write_text("\n".join(doc).rstrip() + "\n")
    return summaries
