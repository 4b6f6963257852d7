#!/usr/bin/env python3
"""A group-by with scankit's Python package: the sum, the count and the max of the values of
every key of a table of (key, value) rows, as

    SELECT key, SUM(value), COUNT(*), MAX(value) FROM rows GROUP BY key ORDER BY key

``scankit.sort_by_key`` puts each group's rows next to each other; ``scankit.reduce_by_key``
then folds every run of equal keys into one row (the count: over a column of ones). NumPy
arrays run on the CPU backend; when CuPy or PyTorch with CUDA can be imported and a GPU is
there, the same code runs again on their GPU arrays. Every result is checked against a
NumPy-only group-by (np.unique, np.add.reduceat, np.maximum.reduceat).

    python3 examples/groupby.py [ROWS] [GROUPS]      (default 1000000 rows over 1000 keys)

Exit status: 0 every run matched NumPy, 1 one did not.
"""

import sys

import numpy as np

import scankit


def group_by(keys, values, ones):
    """The group-by with scankit, on whatever library's arrays it is given."""
    keys, values = scankit.sort_by_key(keys, values)
    unique, sums = scankit.reduce_by_key(keys, values, "sum")
    _, counts = scankit.reduce_by_key(keys, ones, "sum")
    _, maxima = scankit.reduce_by_key(keys, values, "max")
    return unique, sums, counts, maxima


def group_by_numpy(keys, values):
    """The same with NumPy alone: a stable argsort, the starts of the runs, and reduceat."""
    order = np.argsort(keys, kind="stable")
    k, v = keys[order], values[order]
    unique, starts, counts = np.unique(k, return_index=True, return_counts=True)
    sums = np.add.reduceat(v.astype(np.float64), starts) if len(k) else np.zeros(0)
    abs_sums = np.add.reduceat(np.abs(v.astype(np.float64)), starts) if len(k) else np.zeros(0)
    maxima = np.maximum.reduceat(v, starts) if len(k) else np.zeros(0, v.dtype)
    return unique, sums, counts, maxima, abs_sums


def to_numpy(x):
    """A NumPy copy of a NumPy, CuPy or PyTorch array."""
    if hasattr(x, "get"):  # CuPy
        return x.get()
    if hasattr(x, "cpu"):  # PyTorch
        return x.cpu().numpy()
    return np.asarray(x)


def check(where, got, ref):
    """Counts and maxima exact; float32 sums within 8 * eps * sum(|v|) * log2(count + 2) of the
    float64 ones (scankit adds in another order). Returns whether they match."""
    unique, sums, counts, maxima = map(to_numpy, got)
    r_unique, r_sums, r_counts, r_maxima, r_abs = ref
    if len(unique) != len(r_unique) or not np.array_equal(unique, r_unique):
        print(f"{where}: MISMATCH: {len(unique)} groups or their keys differ from NumPy's {len(r_unique)}")
        return False
    tol = 8 * np.finfo(np.float32).eps * r_abs * np.log2(r_counts + 2.0)
    bad = [("count", np.flatnonzero(counts != r_counts)), ("max", np.flatnonzero(maxima != r_maxima)),
           ("sum", np.flatnonzero(np.abs(sums - r_sums) > tol))]
    for what, idx in bad:
        if len(idx):
            i = idx[0]
            print(f"{where}: MISMATCH in {what} of group {i} (key {unique[i]}): "
                  f"{[sums, counts, maxima][('sum', 'count', 'max').index(what)][i]} vs NumPy's "
                  f"{[r_sums, r_counts, r_maxima][('sum', 'count', 'max').index(what)][i]}")
            return False
    print(f"{where}: {len(unique)} groups, match NumPy's group-by")
    return True


def gpu_arrays():
    """(name, converter) for each GPU array library that is importable and sees a GPU, when
    scankit itself was built with CUDA and sees one too."""
    found = []
    if not (scankit.built_with_cuda() and scankit.device_count() > 0):
        return found
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            found.append(("CuPy", cupy.asarray))
    except Exception:  # not installed, or no driver
        pass
    try:
        import torch

        if torch.cuda.is_available():
            found.append(("PyTorch CUDA", lambda a: torch.from_numpy(a).cuda()))
    except Exception:
        pass
    return found


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    distinct = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rng = np.random.default_rng(42)
    keys = rng.integers(-(distinct // 2), distinct - distinct // 2, size=rows, dtype=np.int32)
    values = rng.uniform(0, 100, size=rows).astype(np.float32)
    ones = np.ones(rows, dtype=np.int64)
    ref = group_by_numpy(keys, values)

    unique, sums, counts, maxima = map(to_numpy, group_by(keys, values, ones))
    print(f"group-by of {rows} rows with scankit (NumPy, CPU backend): {len(unique)} groups\n")
    print(f"{'key':>8} {'sum':>14} {'count':>8} {'max':>10}")
    for i in range(min(len(unique), 10)):
        print(f"{unique[i]:>8} {sums[i]:>14.3f} {counts[i]:>8} {maxima[i]:>10.4f}")
    if len(unique) > 10:
        print(f"{'...':>8}")
    print()
    ok = check("NumPy (CPU)", (unique, sums, counts, maxima), ref)

    for name, to_gpu in gpu_arrays():
        ok &= check(f"{name} (GPU)", group_by(to_gpu(keys), to_gpu(values), to_gpu(ones)), ref)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
