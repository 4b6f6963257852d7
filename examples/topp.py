#!/usr/bin/env python3
"""Top-k and top-p (nucleus) sampling of the next token for a batch of sequences with
scankit's Python package, as a language model's decoder does after each step: from every row
of logits,

1. ``scankit.topk(logits, k)``: the k largest logits of each row and their token ids, sorted;
2. their unnormalised probabilities, ``exp((logit - the row's largest) / temperature)``;
3. ``scankit.cumsum(w, axis=-1)``: their running sums within each row;
4. the nucleus: the shortest prefix whose mass reaches p of the row's;
5. a draw u in [0, the nucleus's mass): the first token whose running sum passes it.

NumPy arrays run on the CPU backend; when CuPy or PyTorch with CUDA can be imported and a GPU
is there, the same code runs again on their GPU arrays, and with PyTorch the same steps written
with PyTorch calls alone (torch.topk, torch.cumsum) run beside it, with the time of each. Every
run is checked against NumPy
alone (a stable argsort of each row, float64 sums): the same k tokens in the same order,
running sums within a stated tolerance, and the same sampled token (a draw within that
tolerance of a boundary is accepted either way).

    python3 examples/topp.py [ROWS] [VOCAB] [K] [P]   (default 256 x 32000, k = 50, p = 0.9)

Exit status: 0 every run matched NumPy, 1 one did not.
"""

import sys

import numpy as np

import scankit

TEMPERATURE = 0.8


def module_of(x):
    """The array library of x, for its elementwise functions (exp, comparisons, sums)."""
    name = type(x).__module__.split(".")[0]
    if name == "cupy":
        import cupy

        return cupy
    if name == "torch":
        import torch

        return torch
    return np


def column(xp, a, idx):
    """a[r, idx[r]] for every row r."""
    if xp is np or xp.__name__ == "cupy":
        return xp.take_along_axis(a, idx[:, None], axis=1)[:, 0]
    return xp.gather(a, 1, idx[:, None])[:, 0]


def at_most(xp, a, m):
    return a.clamp(max=m) if xp.__name__ == "torch" else xp.minimum(a, m)


def sample(logits, k, p, u):
    """Steps 1 to 5 with scankit on whatever library's arrays it is given: (token ids of the k
    candidates, their running sums, the sampled candidate's place in each row)."""
    xp = module_of(logits)
    values, tokens = scankit.topk(logits, k, axis=-1)
    w = xp.exp((values - values[:, :1]) / TEMPERATURE)
    running = scankit.cumsum(w, axis=-1)
    # The nucleus: the candidates before the first whose running sum reaches p of the row's
    # total, and that one.
    cut = at_most(xp, (running < p * running[:, -1:]).sum(1), k - 1)
    target = u[:, 0] * column(xp, running, cut)
    place = at_most(xp, (running <= target[:, None]).sum(1), cut)
    return tokens, running, place


def sample_torch(logits, k, p, u):
    """The same steps written with PyTorch calls alone (torch.topk, torch.cumsum), for the time."""
    import torch

    values, tokens = torch.topk(logits, k, dim=-1)
    running = torch.cumsum(torch.exp((values - values[:, :1]) / TEMPERATURE), dim=-1)
    cut = (running < p * running[:, -1:]).sum(1).clamp(max=k - 1)
    target = u[:, 0] * torch.gather(running, 1, cut[:, None])[:, 0]
    place = torch.minimum((running <= target[:, None]).sum(1), cut)
    return tokens, running, place


def time_ms(f, reps=20):
    """The median time of f() on the current CUDA stream, by CUDA events (PyTorch)."""
    import torch

    f()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        f()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def reference(logits, k, p, u):
    """The same with NumPy alone, in float64: a stable argsort of each row, largest first."""
    order = np.argsort(-logits, axis=1, kind="stable")[:, :k]
    top = np.take_along_axis(logits, order, axis=1).astype(np.float64)
    running = np.cumsum(np.exp((top - top[:, :1]) / TEMPERATURE), axis=1)
    cut = np.minimum((running < p * running[:, -1:]).sum(axis=1), k - 1)
    mass = np.take_along_axis(running, cut[:, None], axis=1)
    place = np.minimum((running <= u * mass).sum(axis=1), cut)
    return order, running, place


def to_numpy(x):
    """A NumPy copy of a NumPy, CuPy or PyTorch array."""
    if hasattr(x, "get"):  # CuPy
        return x.get()
    if hasattr(x, "cpu"):  # PyTorch
        return x.cpu().numpy()
    return np.asarray(x)


def check(where, got, ref, k, p, u):
    tokens, running, place = map(to_numpy, got)
    r_tokens, r_running, r_place = ref
    bad = np.flatnonzero((tokens != r_tokens).any(axis=1))
    if len(bad):
        r = bad[0]
        print(f"{where}: MISMATCH: row {r}'s candidates {tokens[r][:8]}... differ from NumPy's {r_tokens[r][:8]}...")
        return False
    # float32 sums of k terms in another order: within 4 k eps(float32) of the row's total.
    tol = 4 * k * np.finfo(np.float32).eps * r_running[:, -1:]
    if (np.abs(running - r_running) > tol).any():
        r = int(np.flatnonzero((np.abs(running - r_running) > tol).any(axis=1))[0])
        print(f"{where}: MISMATCH: row {r}'s running sums differ from NumPy's beyond {tol[r, 0]:.3g}")
        return False
    for r in np.flatnonzero(place != r_place):
        # Accepted only where the nucleus's edge or the draw lies within the tolerance of a sum.
        edge = np.abs(r_running[r] - p * r_running[r, -1]).min() <= 2 * tol[r, 0]
        mass = r_running[r, min(place[r], r_place[r])]
        near = np.abs(r_running[r] - u[r, 0] * mass).min() <= 2 * tol[r, 0]
        if not (edge or near):
            print(f"{where}: MISMATCH: row {r} sampled candidate {place[r]}, NumPy {r_place[r]}")
            return False
    print(f"{where}: {len(tokens)} rows, match NumPy")
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
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    vocab = int(sys.argv[2]) if len(sys.argv) > 2 else 32000
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    p = float(sys.argv[4]) if len(sys.argv) > 4 else 0.9
    rng = np.random.default_rng(42)
    # A few strong tokens over a Gaussian floor, rounded to 1/64 so that ties occur (+ 0.0: no
    # -0.0, which ranks below +0.0 in scankit's order but equals it in NumPy's).
    logits = np.round(rng.normal(0.0, 2.0, size=(rows, vocab)) * 64) / 64 + 0.0
    logits = logits.astype(np.float32)
    for s in range(5):
        logits[np.arange(rows), rng.integers(0, vocab, size=rows)] += 6.0 + s
    u = rng.uniform(0.0, 1.0, size=(rows, 1))
    ref = reference(logits, k, p, u)

    got = sample(logits, k, p, u.astype(np.float32))
    tokens, _, place = map(to_numpy, got)
    print(f"top-{k} / top-p {p} sampling of {rows} rows of {vocab} logits with scankit (NumPy, CPU backend)\n")
    print(f"{'row':>6} {'token':>8} {'logit':>10}")
    for r in range(min(rows, 8)):
        t = tokens[r, place[r]]
        print(f"{r:>6} {t:>8} {logits[r, t]:>10.4f}")
    print()
    ok = check("NumPy (CPU)", got, ref, k, p, u)
    for name, to_gpu in gpu_arrays():
        ok &= check(f"{name} (GPU)", sample(to_gpu(logits), k, p, to_gpu(u.astype(np.float32))), ref, k, p, u)
        if name == "PyTorch CUDA":
            x, uu = to_gpu(logits), to_gpu(u.astype(np.float32))
            ok &= check("PyTorch alone (GPU)", sample_torch(x, k, p, uu), ref, k, p, u)
            t_sk, t_torch = time_ms(lambda: sample(x, k, p, uu)), time_ms(lambda: sample_torch(x, k, p, uu))
            print(f"time on the GPU: scankit {t_sk:.3f} ms, PyTorch alone {t_torch:.3f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
