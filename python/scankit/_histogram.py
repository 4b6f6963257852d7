"""Histograms: histogram (numpy.histogram's bins) and bincount."""

import ctypes
import operator

import numpy as np

from . import _capi
from ._arrays import wrap
from ._core import flat, run

# Sample types the library counts, and what the others are counted as.
_NATIVE = ("uint8", "uint16", "int32", "uint32", "int64", "float32", "float64")
_AS = {"bool": "uint8", "int8": "int32", "int16": "int32", "uint64": "float64", "float16": "float32",
       "bfloat16": "float32"}
SUPPORTED = _NATIVE + tuple(_AS)


def _samples(a, what):
    """The flattened samples in a type the library counts."""
    ops = a.ops
    x = flat(a)
    if a.dtype in _NATIVE:
        return x, a.dtype
    if a.dtype == "bool":
        return ops.view(x, "uint8"), "uint8"
    if a.dtype in _AS:
        return ops.astype(x, _AS[a.dtype]), _AS[a.dtype]
    raise TypeError(f"{what} does not take {a.dtype} samples; supported: {', '.join(SUPPORTED)}")


def _numpy_dtype(a):
    """The dtype numpy would see for a's samples (bool is counted as uint8, bfloat16 as float32)."""
    return {"bool": "uint8", "bfloat16": "float32"}.get(a.dtype, a.dtype)


def _numpy_edges(a, bins, rng):
    """(lower, upper, edges) as numpy.histogram computes them for these samples: the range
    (checked by numpy), or the samples' min and max (one round trip on the GPU), widened by 0.5
    each way when equal; the edges from numpy.histogram_bin_edges itself."""
    dt = _numpy_dtype(a)
    if rng is None and a.size > 0:
        x = flat(a)
        if a.dtype == "bool":
            x = a.ops.view(x, "uint8")
        lo, hi = a.ops.minmax(x)
        probe = np.array([lo, hi], dtype=dt)
        edges = np.histogram_bin_edges(probe, bins=bins)
        first, last = float(lo), float(hi)
    else:
        edges = np.histogram_bin_edges(np.empty(0, dtype=dt), bins=bins, range=rng)
        first, last = (0.0, 1.0) if rng is None else (float(rng[0]), float(rng[1]))
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last, edges


# (sample dtype, bins, range with its types) -> _even_bins' result for a given range: a script
# that histograms with one range again and again computes numpy's edges once.
_EVEN_BINS_CACHE = {}
_EVEN_BINS_CACHE_SIZE = 64


def _even_bins(a, nb, rng, st):
    """(first, last, edges, mode): _numpy_edges and _edge_arithmetic, remembered for a range."""
    key = None
    if rng is not None:
        try:
            lo, hi = rng
            key = (a.dtype, st, nb, type(lo), lo, type(hi), hi)
            hash(key)
        except (TypeError, ValueError):
            key = None
    if key is not None and key in _EVEN_BINS_CACHE:
        return _EVEN_BINS_CACHE[key]
    first, last, edges = _numpy_edges(a, nb, rng)
    got = (first, last, edges, _edge_arithmetic(edges, first, last, nb, st))
    if key is not None:
        if len(_EVEN_BINS_CACHE) >= _EVEN_BINS_CACHE_SIZE:
            _EVEN_BINS_CACHE.clear()
        _EVEN_BINS_CACHE[key] = got
    return got


def _edge_arithmetic(edges, first, last, bins, st):
    """0 when numpy computed the edges in double (scankit/histogram_numpy.hpp's default), 1 when in float32
    (numpy 2 with float32 bounds), None when neither reproduces them bit for bit."""
    level = np.dtype(st) if st in ("float32", "float64") else np.dtype(np.float64)
    if edges.dtype.kind != "f" or not np.array_equal(edges.astype(level).astype(edges.dtype), edges):
        return None
    i = np.arange(bins + 1)
    want = edges.astype(level)
    with np.errstate(all="ignore"):
        cand = (i.astype(np.float64) * ((last - first) / bins) + first).astype(level)
        cand[-1] = last
        if np.array_equal(cand, want):
            return 0
        if level == np.float32:
            lo, hi = np.float32(first), np.float32(last)
            step = (hi - lo) / np.float32(bins)
            cand = i.astype(np.float32) * step + lo
            cand[-1] = hi
            if np.array_equal(cand, want):
                return 1
    return None


def histogram(x, bins=10, range=None, *, algorithm=None):  # noqa: A002 - numpy's name
    """``numpy.histogram``: ``(counts, bin_edges)``, counts as int64.

    ``bins`` is a number of equal bins over ``range`` (default: the samples' min and max, one
    round trip on the GPU) or a strictly increasing sequence of edges. The bins are the
    installed NumPy's exactly: its edges (``numpy.histogram_bin_edges``), every bin half-open
    but the last, which includes its upper edge; NaN and samples outside the range are not
    counted. Samples: bool, integers, float16, bfloat16 (as float32), float32, float64. No
    ``weights``, ``density`` or bin estimators. ``algorithm``: one of
    ``scankit.algorithms("histogram")``.
    """
    a = wrap(x)
    ops = a.ops
    samples, st = _samples(a, "histogram")
    n = int(samples.shape[0])
    _capi.algo(algorithm)  # a bad name's type is an error before anything runs
    if isinstance(bins, str):
        raise ValueError("histogram: bins must be a number of bins or a sequence of edges (no estimators)")
    if np.ndim(bins) == 0 and not _is_array(bins):
        try:
            nb = operator.index(bins)
        except TypeError:
            raise TypeError("histogram: bins must be an integer or a sequence of edges") from None
        if nb < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last, edges, mode = _even_bins(a, nb, range, st)
        if mode is not None:
            # The edges go to the device ahead of the count: a blocking copy there waits for
            # nothing of this call.
            d_edges = ops.from_numpy(edges.copy(), a.device)
            counts = ops.empty((nb,), "int64", a.device)
            run("histogram_even", a, dtype=_capi.DTYPE_CODES[st], samples=samples, n=n, counts=counts, bins=nb,
                lower=first, upper=last, mode=mode, algorithm=algorithm)
            return ops.wrap_result(counts), ops.wrap_result(d_edges)
        # Edges neither arithmetic gives (float16 samples, say): count between numpy's edges.
        edges = edges.copy()
        level, samples, st = _levels(a, samples, st, edges)
        counts = ops.empty((nb,), "int64", a.device)
        d_edges = ops.from_numpy(level, a.device)
        run("histogram_edges", a, dtype=_capi.DTYPE_CODES[st], samples=samples, n=n, counts=counts, edges=d_edges,
            num_edges=level.size, algorithm=algorithm)
        return ops.wrap_result(counts), ops.wrap_result(ops.from_numpy(edges, a.device))
    e = np.asarray(bins.get() if hasattr(bins, "get") and not isinstance(bins, np.ndarray) else
                   (bins.cpu().numpy() if hasattr(bins, "cpu") else bins))
    if e.ndim != 1 or e.size < 2:
        raise ValueError("histogram: bins must be a 1-D sequence of at least two edges")
    if np.any(e[:-1] > e[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    if np.any(e[:-1] == e[1:]):
        raise ValueError("histogram: scankit needs strictly increasing edges")
    level, samples, st = _levels(a, samples, st, e)
    counts = ops.empty((e.size - 1,), "int64", a.device)
    d_edges = ops.from_numpy(level, a.device)
    run("histogram_edges", a, dtype=_capi.DTYPE_CODES[st], samples=samples, n=n, counts=counts, edges=d_edges,
        num_edges=level.size, algorithm=algorithm)
    return ops.wrap_result(counts), ops.wrap_result(ops.from_numpy(e, a.device))


def _is_array(b):
    return hasattr(b, "__array_interface__") or hasattr(b, "__cuda_array_interface__") or hasattr(b, "__dlpack__")


def _levels(a, samples, st, e):
    """Edges in the library's level type (the sample type for floats, int64 for integers), the
    last one moved up so that the last bin includes it; samples cast to float64 where the edges
    are not exact in that type."""
    if st in ("float32", "float64"):
        lv = e.astype(st)
        if not np.array_equal(lv.astype(np.float64), e.astype(np.float64)):
            samples, st = a.ops.astype(samples, "float64"), "float64"
            lv = e.astype(np.float64)
        lv = lv.copy()
        lv[-1] = np.nextafter(lv[-1], lv.dtype.type(np.inf))
        return lv, samples, st
    ef = e.astype(np.float64)
    if np.all(np.floor(ef) == ef) and np.all(np.abs(ef) < 2.0**62):
        lv = e.astype(np.int64)
        lv[-1] += 1
        return lv, samples, st
    samples = a.ops.astype(samples, "float64")
    lv = ef.copy()
    lv[-1] = np.nextafter(lv[-1], np.inf)
    return lv, samples, "float64"


# The bins the GPU's one-pass bincount counts before it knows the largest key: every value of
# 1- and 2-byte keys, else 4,096 (wider keys with a larger maximum are counted again, after a
# pass for the maximum). 4,096 32-bit counters per block in shared memory keep the count at the
# speed of its reads.
_BINCOUNT_CAPACITY = {"uint8": 256, "uint16": 65536, None: 4096}
_MAX_BINCOUNT_CAPACITY = (1 << 24) - 2


def _bincount_one_pass(a, samples, st, n, capacity, minlength, algorithm):
    """numpy.bincount in one pass over the keys on the GPU when they all lie below capacity
    (None otherwise, then the caller counts again; False for negative keys). The result is a
    view of the count buffer (capacity + 5 counters)."""
    ops = a.ops
    counts = ops.empty((capacity + 5,), "int64", a.device)
    summary = (ctypes.c_int64 * 3)()
    run("bincount_capped", a, dtype=_capi.DTYPE_CODES[st], samples=samples, n=n, counts=counts, capacity=capacity,
        algorithm=algorithm, summary=summary)
    negative, above, largest = summary[0], summary[1], summary[2]
    if negative > 0:
        return False
    if above > 0:
        return None
    return counts[: max(largest + 1, minlength)]


def bincount(x, minlength=0, *, length=None, algorithm=None):
    """``numpy.bincount``: int64 counts of each value 0, 1, ..., of a 1-D array of non-negative
    integers; ``max(x) + 1`` bins, at least ``minlength`` (one round trip on the GPU: one pass
    counts the keys below a few thousand and finds the largest; larger keys take a pass for
    the max and min and a second count). ``length=`` counts exactly that many bins without the round trip, ignoring
    values outside ``[0, length)``. No ``weights``."""
    a = wrap(x)
    ops = a.ops
    if a.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D, not {a.ndim}-D")
    if a.dtype.startswith("float") or a.dtype == "bfloat16":
        raise TypeError(f"bincount needs integer samples, not {a.dtype}")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if a.dtype in ("int8", "int16"):
        samples, st = ops.astype(flat(a), "int32"), "int32"
    elif a.dtype == "uint64":
        samples, st = ops.view(flat(a), "int64"), "int64"
    elif a.dtype == "bool":
        samples, st = ops.view(flat(a), "uint8"), "uint8"
    elif a.dtype in ("uint8", "uint16", "int32", "uint32", "int64"):
        samples, st = flat(a), a.dtype
    else:
        raise TypeError(f"bincount does not take {a.dtype} samples")
    n = a.size
    if length is not None:
        nb = operator.index(length)
        if nb < 0:
            raise ValueError("bincount: length must not be negative")
    elif n == 0:
        nb = minlength
    else:
        if a.device >= 0:
            capacity = max(minlength, _BINCOUNT_CAPACITY.get(st, _BINCOUNT_CAPACITY[None]))
            if capacity <= _MAX_BINCOUNT_CAPACITY:
                try:
                    got = _bincount_one_pass(a, samples, st, n, capacity, minlength, algorithm)
                except ValueError:
                    # A forced shared-memory layout that cannot hold the capacity's bins: count
                    # with the maximum's (an unknown name fails there too).
                    if algorithm is None:
                        raise
                    got = None
                if got is False:
                    raise ValueError("'list' argument must have no negative elements")
                if got is not None:
                    return ops.wrap_result(got)
        lo, hi = ops.minmax(samples)
        if lo < 0:
            raise ValueError("'list' argument must have no negative elements")
        nb = max(int(hi) + 1, minlength)
    counts = ops.zeros((nb,), "int64", a.device) if nb == 0 else ops.empty((nb,), "int64", a.device)
    if nb > 0:
        run("bincount", a, dtype=_capi.DTYPE_CODES[st], samples=samples, n=n, counts=counts, bins=nb,
            algorithm=algorithm)
    return ops.wrap_result(counts)
