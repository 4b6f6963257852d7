"""``python -m scankit.bench``: scankit's Python calls beside what NumPy, PyTorch and CuPy users
call today, for the same work in the same process.

On a GPU (PyTorch and/or CuPy present), each row times the median of ``--reps`` runs with CUDA
events on the current stream, after an untimed warm-up run (a call whose timed run takes over
200 ms is timed once: the slow baselines); without a GPU it times scankit's CPU backend
against NumPy with a wall clock. Columns: the work, scankit's time, then each baseline's time
and scankit's speedup over it (baseline time / scankit time).

    python -m scankit.bench                 # 2^28 items on the GPU, 2^27 on the CPU
    python -m scankit.bench --log2n 24      # smaller inputs
    python -m scankit.bench --cpu           # the CPU rows even with a GPU
"""

import argparse
import statistics
import sys
import time

import numpy as np

import scankit
from scankit import _capi


def _median(samples):
    return statistics.median(samples)


class GpuTimer:
    """Times a callable with CUDA events of PyTorch or CuPy on the current stream."""

    def __init__(self, torch=None, cupy=None):
        self.torch, self.cupy = torch, cupy

    def __call__(self, f, reps):
        f()  # first-use costs: kernel loading, pool growth
        self.sync()
        out = []
        for _ in range(reps):
            if out and out[0] > 200:
                break  # a slow baseline: one timed run is enough to show it
            if self.torch is not None:
                a, b = self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True)
                a.record()
                f()
                b.record()
                b.synchronize()
                out.append(a.elapsed_time(b))
            else:
                a, b = self.cupy.cuda.Event(), self.cupy.cuda.Event()
                a.record()
                f()
                b.record()
                b.synchronize()
                out.append(self.cupy.cuda.get_elapsed_time(a, b))
        return _median(out)

    def sync(self):
        if self.torch is not None:
            self.torch.cuda.synchronize()
        if self.cupy is not None:
            self.cupy.cuda.get_current_stream().synchronize()


def _cpu_time(f, reps):
    f()
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        out.append((time.perf_counter() - t) * 1e3)
    return _median(out)


# Set by main() with --json: rows are written as they come, so a run cut short keeps them.
_json_out = None


def _row(rows, work, mine, baselines):
    rows.append((work, mine, [(name, ms) for name, ms in baselines if ms is not None]))
    _print_row(rows[-1])
    if _json_out is not None:
        _json_out(rows)


def _fmt(ms):
    return f"{ms:9.3f} ms" if ms >= 0.01 else f"{ms * 1e3:8.2f} us"


def _print_row(row):
    work, mine, baselines = row
    cells = "  ".join(f"{name} {_fmt(ms)} ({ms / mine:5.2f}x)" for name, ms in baselines)
    print(f"{work:<52} scankit {_fmt(mine)}   {cells}", flush=True)


def _try(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - a baseline that cannot run is left out
        print(f"    (baseline skipped: {type(e).__name__}: {e})", file=sys.stderr)
        return None


def gpu_rows(log2n, reps):
    try:
        import torch
    except ImportError:
        torch = None
    try:
        import cupy as cp
    except ImportError:
        cp = None
    if torch is not None and not torch.cuda.is_available():
        torch = None
    if torch is None and cp is None:
        raise RuntimeError("the GPU rows need PyTorch or CuPy")
    timer_t = GpuTimer(torch=torch) if torch is not None else None
    timer_c = GpuTimer(cupy=cp) if cp is not None else None
    n = 1 << log2n
    rng = np.random.default_rng(1)
    rows = []
    name = torch.cuda.get_device_name() if torch is not None else cp.cuda.runtime.getDeviceProperties(0)["name"]
    print(f"scankit {scankit.__version__} on {name}, n = 2^{log2n}, median of {reps} runs")

    def T(a):
        return torch.from_numpy(a).cuda() if torch is not None else None

    def C(a):
        return cp.asarray(a) if cp is not None else None

    # cumsum
    for dt in (np.int32, np.float32, np.int64):
        a = rng.integers(0, 8, n).astype(dt)
        xt, xc = T(a), C(a)
        x = xt if xt is not None else xc
        timer = timer_t or timer_c
        mine = timer(lambda: scankit.cumsum(x), reps)
        base = [("torch.cumsum", _try(lambda: timer_t(lambda: torch.cumsum(xt, 0), reps)) if xt is not None else None),
                ("cupy.cumsum", _try(lambda: timer_c(lambda: cp.cumsum(xc), reps)) if xc is not None else None)]
        _row(rows, f"cumsum {np.dtype(dt).name} 2^{log2n}", mine, base)
        del xt, xc, x
    # scans along an axis: the same bytes as the 1-D int32 scan
    a = rng.integers(0, 8, n).astype(np.int32)
    for shape, axis in (((n // 2, 2), 0), ((2, n // 2), 1), ((1 << (log2n // 2), n >> (log2n // 2)), 0),
                        ((n // 1024, 1024), 1), ((n // 1024, 1024), 0)):
        xt, xc = T(a.reshape(shape)), C(a.reshape(shape))
        x = xt if xt is not None else xc
        timer = timer_t or timer_c
        mine = timer(lambda: scankit.cumsum(x, axis=axis), reps)
        flat = timer(lambda: scankit.cumsum(x.reshape(-1)), reps)
        base = [("scankit 1-D", flat),
                ("torch.cumsum", _try(lambda: timer_t(lambda: torch.cumsum(xt, axis), reps)) if xt is not None else None),
                ("cupy.cumsum", _try(lambda: timer_c(lambda: cp.cumsum(xc, axis=axis), reps)) if xc is not None else None)]
        _row(rows, f"cumsum int32 {shape[0]}x{shape[1]} axis {axis}", mine, base)
        del xt, xc, x
    # sorts
    a = rng.integers(-(2**31), 2**31 - 1, n, dtype=np.int64).astype(np.int32)
    xt, xc = T(a), C(a)
    x = xt if xt is not None else xc
    timer = timer_t or timer_c
    _row(rows, f"sort int32 2^{log2n} (keys)", timer(lambda: scankit.sort(x), reps),
         [("cupy.sort", _try(lambda: timer_c(lambda: cp.sort(xc), reps)) if xc is not None else None),
          ("torch.sort", _try(lambda: timer_t(lambda: torch.sort(xt, stable=True), reps)) if xt is not None else None)])
    _row(rows, f"argsort int32 2^{log2n}", timer(lambda: scankit.argsort(x), reps),
         [("cupy.argsort", _try(lambda: timer_c(lambda: cp.argsort(xc), reps)) if xc is not None else None),
          ("torch.argsort", _try(lambda: timer_t(lambda: torch.argsort(xt, stable=True), reps)) if xt is not None else None)])
    _row(rows, f"sort int32 2^{log2n} values + int64 indices", timer(lambda: scankit.sort(x, return_indices=True), reps),
         [("torch.sort", _try(lambda: timer_t(lambda: torch.sort(xt, stable=True), reps)) if xt is not None else None)])
    del xt, xc, x
    # sorts of rows (the segmented sort) and top-k, float32, the shapes that fit n
    a = rng.random(n, dtype=np.float32)
    xt, xc = T(a), C(a)
    timer = timer_t or timer_c
    for r, c in ((1 << 16, 256), (1 << 12, 1 << 14), (64, 1 << 20)):
        if r * c > n:
            continue
        yt = xt[: r * c].reshape(r, c) if xt is not None else None
        yc = xc[: r * c].reshape(r, c) if xc is not None else None
        y = yt if yt is not None else yc
        _row(rows, f"sort rows float32 {r}x{c} + int64 indices", timer(lambda: scankit.sort(y, return_indices=True), reps),
             [("torch.sort(dim=-1)", _try(lambda: timer_t(lambda: torch.sort(yt, dim=-1), reps)) if yt is not None else None),
              ("cupy.argsort(axis=-1)", _try(lambda: timer_c(lambda: cp.argsort(yc, axis=-1), reps)) if yc is not None else None)])
        del yt, yc, y
    x = xt if xt is not None else xc
    for k in (8, 1024, 1 << 20):
        if k <= n:
            _row(rows, f"topk float32 2^{log2n}, k = {k}", timer(lambda: scankit.topk(x, k), reps),
                 [("torch.topk", _try(lambda: timer_t(lambda: torch.topk(xt, k), reps)) if xt is not None else None)])
    for r, c, k in ((256, 1 << 17, 50), (1 << 16, 256, 8), (1 << 12, 1 << 14, 1024), (64, 1 << 20, 1024)):
        if r * c > n:
            continue
        yt = xt[: r * c].reshape(r, c) if xt is not None else None
        y = yt if yt is not None else xc[: r * c].reshape(r, c)
        _row(rows, f"topk rows float32 {r}x{c}, k = {k}", timer(lambda: scankit.topk(y, k), reps),
             [("torch.topk(dim=-1)", _try(lambda: timer_t(lambda: torch.topk(yt, k, dim=-1), reps)) if yt is not None else None)])
        del yt, y
    del xt, xc, x
    # select 50%
    a = rng.integers(0, 1 << 30, n).astype(np.int32)
    m = rng.random(n) < 0.5
    xt, xc, mt, mc = T(a), C(a), T(m), C(m)
    x, mk = (xt, mt) if xt is not None else (xc, mc)
    timer = timer_t or timer_c
    _row(rows, f"select 50% int32 2^{log2n} (mask)", timer(lambda: scankit.select(x, mk), reps),
         [("torch.masked_select", _try(lambda: timer_t(lambda: torch.masked_select(xt, mt), reps)) if xt is not None else None),
          ("cupy x[mask]", _try(lambda: timer_c(lambda: xc[mc], reps)) if xc is not None else None)])
    _row(rows, f"select 50% int32 2^{log2n} (size=, no sync)", timer(lambda: scankit.select(x, mk, size=n // 2), reps),
         [("torch.masked_select", _try(lambda: timer_t(lambda: torch.masked_select(xt, mt), reps)) if xt is not None else None)])
    del xt, xc, mt, mc, x, mk
    # bincount / histogram, 1024 bins
    a = rng.integers(0, 1024, n).astype(np.int64)
    xt, xc = T(a), C(a)
    x = xt if xt is not None else xc
    timer = timer_t or timer_c
    _row(rows, f"bincount 1024 bins int64 2^{log2n}", timer(lambda: scankit.bincount(x), reps),
         [("torch.bincount", _try(lambda: timer_t(lambda: torch.bincount(xt), reps)) if xt is not None else None),
          ("cupy.bincount", _try(lambda: timer_c(lambda: cp.bincount(xc), reps)) if xc is not None else None)])
    _row(rows, f"bincount 1024 bins int64 2^{log2n} (length=)", timer(lambda: scankit.bincount(x, length=1024), reps),
         [("torch.bincount", _try(lambda: timer_t(lambda: torch.bincount(xt, minlength=1024), reps)) if xt is not None else None)])
    del xt, xc, x
    a = rng.random(n, dtype=np.float32)
    xt, xc = T(a), C(a)
    x = xt if xt is not None else xc
    timer = timer_t or timer_c
    _row(rows, f"histogram 1024 even bins float32 2^{log2n}", timer(lambda: scankit.histogram(x, 1024, (0.0, 1.0)), reps),
         [("cupy.histogram", _try(lambda: timer_c(lambda: cp.histogram(xc, 1024, (0.0, 1.0)), reps)) if xc is not None else None),
          ("torch.histc", _try(lambda: timer_t(lambda: torch.histc(xt, 1024, 0.0, 1.0), reps)) if xt is not None else None)])
    del xt, xc, x
    # the 256-bin count of 1 GiB of bytes
    nb = 1 << 30 if log2n >= 28 else n
    a = rng.integers(0, 256, nb, dtype=np.uint8)
    xt, xc = T(a), C(a)
    x = xt if xt is not None else xc
    timer = timer_t or timer_c
    _row(rows, f"256-bin count of {nb >> 20} MiB uint8", timer(lambda: scankit.bincount(x, length=256), reps),
         [("torch.histc (float copy)", _try(lambda: timer_t(lambda: torch.histc(xt.float(), 256, 0, 255), reps)) if xt is not None else None),
          ("torch.bincount", _try(lambda: timer_t(lambda: torch.bincount(xt, minlength=256), reps)) if xt is not None else None),
          ("cupy.bincount", _try(lambda: timer_c(lambda: cp.bincount(xc, minlength=256), reps)) if xc is not None else None)])
    del xt, xc, x, a
    # unique with counts, 65,536 distinct values
    a = rng.integers(0, 65536, n).astype(np.int32)
    xt, xc = T(a), C(a)
    x = xt if xt is not None else xc
    timer = timer_t or timer_c
    _row(rows, f"unique with counts int32 2^{log2n}, 65,536 distinct",
         timer(lambda: scankit.unique(x, return_counts=True), reps),
         [("cupy.unique", _try(lambda: timer_c(lambda: cp.unique(xc, return_counts=True), reps)) if xc is not None else None),
          ("torch.unique", _try(lambda: timer_t(lambda: torch.unique(xt, return_counts=True), reps)) if xt is not None else None)])
    del xt, xc, x
    # reductions (the result left on the device) and segments of mean lengths 8, 32 and 256
    a = rng.random(n, dtype=np.float32)
    xt, xc = T(a), C(a)
    x = xt if xt is not None else xc
    timer = timer_t or timer_c
    _row(rows, f"sum float32 2^{log2n}", timer(lambda: scankit.reduce(x), reps),
         [("torch.sum", _try(lambda: timer_t(lambda: torch.sum(xt), reps)) if xt is not None else None),
          ("cupy.sum", _try(lambda: timer_c(lambda: cp.sum(xc), reps)) if xc is not None else None)])
    _row(rows, f"argmax float32 2^{log2n}", timer(lambda: scankit.argmax(x), reps),
         [("torch.argmax", _try(lambda: timer_t(lambda: torch.argmax(xt), reps)) if xt is not None else None),
          ("cupy.argmax", _try(lambda: timer_c(lambda: cp.argmax(xc), reps)) if xc is not None else None)])
    del xt, xc, x
    for mean in (8, 32, 256):  # lengths uniform in [0, 2 * mean], about n items in all
        lengths = rng.integers(0, 2 * mean + 1, max(1, n // mean)).astype(np.int64)
        a = rng.random(int(lengths.sum()), dtype=np.float32)
        xt, xc, lt, lc = T(a), C(a), T(lengths), C(lengths)
        x, ln = (xt, lt) if xt is not None else (xc, lc)
        _row(rows, f"segment_reduce sum float32 ~2^{log2n}, mean length {mean} (unsafe)",
             timer(lambda: scankit.segment_reduce(x, "sum", lengths=ln, unsafe=True), reps),
             [("torch.segment_reduce", _try(lambda: timer_t(lambda: torch.segment_reduce(xt, "sum", lengths=lt,
                                                                                           unsafe=True), reps))
               if xt is not None else None)])
        del xt, xc, x, lt, lc, ln
    # the cost of the Python call: small inputs, where the kernels take a few microseconds
    a = rng.integers(0, 8, 1 << 12).astype(np.int32)
    for label, x, tm in (("torch", T(a), timer_t), ("cupy", C(a), timer_c)):
        if x is None:
            continue
        calls = 2000

        def per_call(f):
            # wall clock over many calls, the queue drained at the end: what a Python loop sees
            def loop():
                for _ in range(calls):
                    f()
                tm.sync()
            return _cpu_time(loop, 3) / calls

        ours = per_call(lambda: scankit.cumsum(x))
        theirs = per_call((lambda: torch.cumsum(x, 0)) if label == "torch" else (lambda: cp.cumsum(x)))
        # A C++ caller's cost per call is the CLI's (`scankit bench scan -n 4096`); the steps below
        # time the C entry (sk_scan) through ctypes beside the rest of the Python call.
        _row(rows, f"cumsum int32 2^12 per call, {label} arrays", ours, [(f"{label}.cumsum", theirs)])
        _print_steps(per_call_steps(x, calls))
    return rows


def per_call_steps(x, calls=2000):
    """What one small ``scankit.cumsum(x)`` call is made of (x: a 1-D contiguous int32 array of
    NumPy, PyTorch or CuPy): [(step, microseconds per call)], each step run `calls` times in a
    loop (fewest of 3 loops), the GPU queue drained after the loops that queue work. The steps
    are the ones the call takes, in its order (_core.scan_gpu_flat for GPU arrays,
    _core.scan_numpy_flat for NumPy's); "the rest" is the total less their sum (the Python code
    between them)."""
    from scankit import _arrays, _core, _scan

    a = _arrays.wrap(x)
    ops, dev = a.ops, a.device
    n = int(x.shape[0])
    code = _capi.DTYPE_CODES[a.dtype]
    if ops.name == "torch":
        sync = ops.torch.cuda.synchronize
    elif ops.name == "cupy":
        sync = lambda: ops.cp.cuda.get_current_stream().synchronize()  # noqa: E731
    else:
        sync = lambda: None  # noqa: E731

    def per_call(f, drain=False):
        best = None
        for _ in range(3):
            sync()
            t = time.perf_counter()
            for _ in range(calls):
                f()
            if drain:
                sync()
            dt = (time.perf_counter() - t) / calls * 1e6
            best = dt if best is None else min(best, dt)
        return best

    scankit.cumsum(x)  # fills the per-shape entry of the GPU path
    if dev >= 0:
        s = ops.stream(dev)
        key = ("scan", x.dtype, dev, s, x.shape[0])
        entry = _core.kept_shapes()[key]
        res = ops.empty_flat_like(x, dev)
        xp, rp = ops.ptr(x), ops.ptr(res)
        steps = [("array kind and layout", per_call(lambda: ops.flat_device(x))),
                 ("current stream", per_call(lambda: ops.stream(dev))),
                 ("per-shape entry (type, workspace)", per_call(lambda: _core.kept_shapes().get(key))),
                 ("result allocation", per_call(lambda: ops.empty_flat_like(x, dev))),
                 ("2 data pointers", per_call(lambda: (ops.ptr(x), ops.ptr(res)))),
                 ("C call (capture check, ctypes, the C++ call)",
                  per_call(lambda: _capi.scan(dev, code, 0, 0, 0, xp, rp, 1, n, 1, b"", entry[3], entry[2], s,
                                              _capi.SCAN_KEPT_WORKSPACE if entry[3] else 0), drain=True))]
    else:
        res = ops.empty_like(a.x, a.dtype, dev)
        xp, rp = ops.ptr(x), ops.ptr(res)
        if type(x) is np.ndarray:
            steps = [("1-D, contiguous, type code", per_call(lambda: (x.ndim, x.flags.c_contiguous,
                                                                     _core._NUMPY_SCAN_CODES.get(x.dtype)))),
                     ("result allocation", per_call(lambda: np.empty(n, x.dtype)))]
        else:
            steps = [("wrap (library, device, dtype)", per_call(lambda: _arrays.wrap(x))),
                     ("1-D and contiguous", per_call(lambda: _scan._flat_ok(a, "sum", None))),
                     ("result allocation", per_call(lambda: ops.empty_like(a.x, a.dtype, dev)))]
        steps += [("2 data pointers", per_call(lambda: (ops.ptr(x), ops.ptr(res)))),
                  ("C call (ctypes and the C++ call)",
                   per_call(lambda: _capi.scan(dev, code, 0, 0, 0, xp, rp, 1, n, 1, b"", 0, 0, 0)))]
    total = per_call(lambda: scankit.cumsum(x), drain=True)
    steps.append(("the rest", total - sum(us for _, us in steps)))
    steps.append(("total: scankit.cumsum", total))
    # For comparison, not part of the call: the library's own allocation of an array like x.
    like = {"torch": lambda: ops.torch.empty_like(x), "cupy": lambda: ops.cp.empty_like(x)}.get(ops.name)
    if like is not None:
        steps.append((f"(for comparison: {ops.name}.empty_like)", per_call(like)))
    return steps


def _print_steps(steps):
    for step, us in steps:
        print(f"      {step:<36} {us:7.2f} us")


def cpu_rows(log2n, reps):
    import os

    n = 1 << log2n
    rng = np.random.default_rng(1)
    rows = []
    print(f"scankit {scankit.__version__} CPU backend ({os.cpu_count()} CPUs), NumPy {np.__version__}, "
          f"n = 2^{log2n}, median of {reps} runs")
    for dt in (np.int32, np.float32, np.int64):
        a = rng.integers(0, 8, n).astype(dt)
        _row(rows, f"cumsum {np.dtype(dt).name} 2^{log2n}", _cpu_time(lambda: scankit.cumsum(a), reps),
             [("numpy.cumsum", _cpu_time(lambda: np.cumsum(a, dtype=dt), reps))])
    a = rng.integers(0, 8, n).astype(np.int32).reshape(n // 2, 2)
    _row(rows, f"cumsum int32 {n // 2}x2 axis 0", _cpu_time(lambda: scankit.cumsum(a, axis=0), reps),
         [("numpy.cumsum", _cpu_time(lambda: np.cumsum(a, axis=0, dtype=np.int32), reps))])
    a = rng.integers(-(2**31), 2**31 - 1, n, dtype=np.int64).astype(np.int32)
    _row(rows, f"sort int32 2^{log2n}", _cpu_time(lambda: scankit.sort(a), reps),
         [("numpy.sort", _cpu_time(lambda: np.sort(a), reps))])
    # Next to the sort, ahead of the slower baselines, so that a run cut short still has it; the
    # same samples, bins and range for both calls, and the GPU rows' name for the same work.
    f = rng.random(n, dtype=np.float32)
    _row(rows, f"histogram 1024 even bins float32 2^{log2n}",
         _cpu_time(lambda: scankit.histogram(f, 1024, (0.0, 1.0)), reps),
         [("numpy.histogram", _cpu_time(lambda: np.histogram(f, 1024, (0.0, 1.0)), reps))])
    del f
    _row(rows, f"argsort int32 2^{log2n}", _cpu_time(lambda: scankit.argsort(a), reps),
         [("numpy.argsort stable", _cpu_time(lambda: np.argsort(a, kind="stable"), reps))])
    m = rng.random(n) < 0.5
    _row(rows, f"select 50% int32 2^{log2n}", _cpu_time(lambda: scankit.select(a, m), reps),
         [("numpy a[mask]", _cpu_time(lambda: a[m], reps))])
    k = rng.integers(0, 1024, n).astype(np.int64)
    _row(rows, f"bincount 1024 bins int64 2^{log2n}", _cpu_time(lambda: scankit.bincount(k), reps),
         [("numpy.bincount", _cpu_time(lambda: np.bincount(k), reps))])
    u = rng.integers(0, 65536, n).astype(np.int32)
    _row(rows, f"unique with counts int32 2^{log2n}", _cpu_time(lambda: scankit.unique(u, return_counts=True), reps),
         [("numpy.unique", _cpu_time(lambda: np.unique(u, return_counts=True), reps))])
    f = rng.random(n, dtype=np.float32)
    _row(rows, f"sum float32 2^{log2n}", _cpu_time(lambda: scankit.reduce(f), reps),
         [("numpy.sum", _cpu_time(lambda: np.sum(f), reps))])
    # segments of 1 to 64 items (numpy.add.reduceat gives an empty segment an item)
    starts = np.concatenate([[0], np.cumsum(rng.integers(1, 65, max(1, n // 32)))])
    starts = starts[starts < n]
    offsets = np.concatenate([starts, [n]]).astype(np.int64)
    _row(rows, f"segment_reduce sum float32 2^{log2n}, mean length 32",
         _cpu_time(lambda: scankit.segment_reduce(f, "sum", offsets=offsets), reps),
         [("numpy.add.reduceat", _cpu_time(lambda: np.add.reduceat(f, starts), reps))])
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m scankit.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--log2n", type=int, default=None, help="log2 of the item count (default 28 GPU, 27 CPU)")
    p.add_argument("--reps", type=int, default=10, help="timed runs per row (the median is shown)")
    p.add_argument("--cpu", action="store_true", help="the CPU rows (NumPy arrays), also with a GPU")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON (tools/perf-report renders them)")
    p.add_argument("--commit", help="the source commit, recorded in the JSON")
    args = p.parse_args(argv)
    gpu = not args.cpu and scankit.built_with_cuda() and scankit.device_count() > 0
    log2n = args.log2n or (28 if gpu else 27)
    if args.json:
        global _json_out
        _json_out = lambda rows: _write_json(args.json, gpu, log2n, args.reps, rows, args.commit)  # noqa: E731
        try:
            _json_out([])  # an unwritable path fails before any work
        except OSError as e:
            p.error(f"--json {args.json}: {e.strerror}")
    if gpu:
        gpu_rows(log2n, args.reps)
    else:
        if not args.cpu:
            print("no GPU for scankit here: the CPU rows")
        cpu_rows(log2n, args.reps)
    return 0


def _write_json(path, gpu, log2n, reps, rows, commit):
    import datetime
    import json
    import os
    import platform

    libraries = {"scankit": scankit.__version__, "numpy": np.__version__}
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    device = f"{cpu}, {os.cpu_count()} CPUs"
    if gpu:
        for lib in ("torch", "cupy"):
            try:
                libraries[lib] = __import__(lib).__version__
            except ImportError:
                pass
        try:
            import torch

            device = torch.cuda.get_device_name()
        except Exception:  # noqa: BLE001 - CuPy alone names the device
            import cupy

            device = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    meta = {"backend": "GPU" if gpu else "CPU backend", "device": device, "log2n": log2n, "reps": reps,
            "libraries": libraries, "commit": commit, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    out = [{"work": w, "scankit_ms": mine, "baselines": [{"name": b, "ms": ms} for b, ms in base]} for w, mine, base in rows]
    with open(path, "w") as f:
        json.dump({"meta": meta, "rows": out}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
