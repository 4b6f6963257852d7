"""The distributed section of docs/PERFORMANCE.md, from perf/dist.json: the `scankit bench
<primitive> --gpus N` JSON documents gathered by `tools/perf-report --dist`, one entry per machine."""
import json
from pathlib import Path

from .common import load_json, md_table, ms_text, size_text
from .sections import ORDER


def render_distributed(perf):
    """The distributed section, from perf/dist.json: the `scankit bench <primitive> --gpus N` JSON
    documents (one process, and one process per GPU under mpirun) gathered by --dist."""
    d = load_json(perf / "dist.json")
    machines = dist_machines(d)
    if not machines:
        return []
    text = ["## Distributed", "",
            "`scankit bench <primitive> --gpus N` (one process driving N GPUs) and the same under "
            "`mpirun -np N` (one process per GPU): scankit::dist over NCCL. ms: the median total, CUDA events "
            "on every GPU around the call, the largest over the GPUs; 1-GPU ms: scankit's one-GPU call in the "
            "same process; phases: medians of separate runs with phase timing on (host waits included; the "
            "radix sort then runs its exchange and local sort one after the other, which the total overlaps). "
            "Regenerate: `tools/gpu-check dist-bench`, unpack its dist-bench.tar.gz, then "
            "`tools/perf-report --out docs --render-only --dist <the unpacked dist folder> --dist-commit <commit>` "
            "(it replaces the figures of a machine with the same GPUs and keeps the others').", ""]
    for m in machines:
        text += render_dist_machine(m)
    return text


def dist_machines(d):
    """perf/dist.json's documents, one per machine ({"machines": [...]}, or one document)."""
    if not d:
        return []
    return [m for m in (d["machines"] if "machines" in d else [d]) if m.get("runs")]


def order_of(prim):
    """A primitive's place in the report (one the report has no section for goes last)."""
    return ORDER.index(prim) if prim in ORDER else len(ORDER)


def render_dist_machine(d):
    m = d["meta"]
    gpus = len(m["devices"].split(", "))
    # Runs of one primitive come from one dist-bench folder; folders of several commits name each.
    commits = {}
    for run in d["runs"]:
        key = (run.get("measured_commit") or m["commit"], run.get("measured_date") or m["date"])
        commits.setdefault(key, []).append(run["primitive"])
    if len(commits) == 1:
        when = f"Measured {m['date']} at commit `{m['commit']}`."
    else:
        when = "Measured " + "; ".join(
            f"{', '.join(dict.fromkeys(prims))} at commit `{c}` ({date})" for (c, date), prims in commits.items()) + "."
    text = [f"### A machine of {gpus} GPUs ({m['devices']})", "", when, ""]

    order = ["records", "histogram", "local reduce", "local compaction", "local counts", "local sort", "samples", "pieces", "exchange",
             "all-reduce", "all-to-all", "merge", "received sort", "local scan", "balance"]

    # The radix sort's phases (it has a partition) run in their own order.
    radix_order = ["records", "histogram", "partition", "all-to-all", "local sort", "balance"]

    def phases(r):
        ph = [(k, v) for k, v in (r.get("phases_ms") or {}).items() if v is not None]
        o = radix_order if any(k == "partition" for k, _ in ph) else order
        ph.sort(key=lambda kv: o.index(kv[0]) if kv[0] in o else len(o))
        return ", ".join(f"{k} {v:.3g}" for k, v in ph)

    def who(run, r):
        procs = r.get("processes") or 1
        return [str(r.get("ranks")), "mpirun" if procs > 1 else "one"]
    weak, sort = [], []
    for run in d["runs"]:
        prim, par = run["primitive"], run["params"]
        for r in run["rows"]:
            if prim == "sort":
                keys = f"{par['type']}" + (f" + {par['value_bytes']}-byte values" if par.get("value_bytes") else "")
                vs = r.get("exchange_vs_nccl")
                sort.append((r["n"], keys, r.get("ranks"), r.get("processes") or 1, r["input"], [
                    keys, size_text(r["n"]), *who(run, r), r["input"], ms_text(r["ms"]), ms_text(r.get("one_gpu_ms")),
                    f"{r['speedup']:.2f}x" if r.get("speedup") else "n/a",
                    f"{r['exchange_gbps']:.0f}" if r.get("exchange_bytes_per_gpu") else "-",
                    f"{r['nccl_alltoall_gbps']:.0f}" if r.get("nccl_alltoall_gbps") else "-",
                    f"{vs:.2f}x" if vs else "-", phases(r), r["check"]]))
            else:
                weak.append((prim, r.get("ranks"), r.get("processes") or 1, [
                    prim, r["input"], size_text(r.get("n_per_gpu") or r["n"]), *who(run, r), ms_text(r["ms"]),
                    ms_text(r.get("one_gpu_ms")), f"{r['efficiency']:.2f}" if r.get("efficiency") else "n/a",
                    phases(r), r["check"]]))
    if weak:
        text += ["Weak scaling: every GPU holds the one-GPU input; efficiency = 1-GPU ms / ms (1 is ideal).", ""]
        text += md_table(["primitive", "input", "per GPU", "GPUs", "processes", "ms", "1-GPU ms", "efficiency", "phases (ms)",
                          "check"], [w[3] for w in sorted(weak, key=lambda w: (order_of(w[0]), w[1], w[2]))]) + [""]
    if sort:
        text += ["Sort, strong scaling: n keys in all, spread evenly; speed-up = the one-GPU sort of all n keys / ms. "
                 "exch GB/s: the bytes each GPU sends to the others over the all-to-all phase; NCCL a2a GB/s: the same "
                 "bytes through a grouped ncclSend/ncclRecv all-to-all; vs NCCL = NCCL's time / the phase's.", ""]
        text += md_table(["keys", "n", "GPUs", "processes", "input", "ms", "1-GPU ms", "speed-up", "exch GB/s",
                          "NCCL a2a GB/s", "vs NCCL", "phases (ms)", "check"],
                         [x[5] for x in sorted(sort, key=lambda x: (x[1], x[0], x[2], x[3]))]) + [""]
    return text


def gather_dist(folder, commit):
    """perf/dist.json's content from a folder of `scankit bench --gpus` JSON files."""
    runs = [json.loads(p.read_text()) for p in sorted(Path(folder).glob("*.json"))]
    if not runs:
        raise SystemExit(f"perf-report: no JSON in {folder}")
    devices = max((r["params"].get("devices", "") for r in runs), key=len)
    dates = sorted(r["date"] for r in runs)
    date = dates[-1][:10] + " " + dates[-1][11:16] + " UTC"
    for r in runs:
        r["measured_commit"], r["measured_date"] = commit, date
    return {"meta": {"devices": devices, "date": date, "commit": commit}, "runs": runs}


def merge_dist(machines, new):
    """perf/dist.json's machines with a new folder's runs: on the same machine, they replace the
    runs of their primitives and keep the others (which keep their own commit and date)."""
    out = []
    for m in machines:
        if m["meta"]["devices"] != new["meta"]["devices"]:
            out.append(m)
            continue
        prims = {r["primitive"] for r in new["runs"]}
        kept = [r for r in m["runs"] if r["primitive"] not in prims]
        for r in kept:
            r.setdefault("measured_commit", m["meta"]["commit"])
            r.setdefault("measured_date", m["meta"]["date"])
        new = {"meta": new["meta"], "runs": kept + new["runs"]}
    return sorted(out + [new], key=lambda m: len(m["meta"]["devices"]))
