import numpy as np
import pytest

import scankit
from conftest import SIZES, random_array


def check_hist(backend, x, bins=10, range=None, **kw):  # noqa: A002
    want_c, want_e = np.histogram(x, bins=bins, range=range)
    got_c, got_e = scankit.histogram(backend.asarray(x), bins=bins, range=range, **kw)
    got_c, got_e = backend.numpy(got_c), backend.numpy(got_e)
    assert got_c.dtype == np.int64
    np.testing.assert_array_equal(got_c, want_c)
    np.testing.assert_array_equal(got_e, want_e)


@pytest.mark.parametrize("n", SIZES)
def test_histogram_sizes(backend, rng, n):
    check_hist(backend, rng.random(n).astype(np.float32), bins=37)
    check_hist(backend, rng.random(n), bins=10, range=(0.25, 0.75))


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int32", "uint32", "int64", "float32", "float64", "int8",
                                   "int16", "uint64", "float16"])
@pytest.mark.parametrize("bins", [1, 7, 256, 1000])
def test_histogram_types(backend, rng, dtype, bins):
    x = random_array(rng, 20001, dtype)
    if backend.name.startswith("torch") and dtype in ("uint16", "uint32", "uint64"):
        pytest.skip("PyTorch has no min() and max() for its unsigned types")
    if dtype == "float16":
        x = x.astype(np.float32).astype(np.float16)
        # numpy bins float16 samples with float16 edges, scankit with float32 ones: use exact edges
        check_hist(backend, x, bins=16, range=(-8, 8))
        return
    check_hist(backend, x, bins=bins)
    check_hist(backend, x, bins=bins, range=(-3, 100))


def test_histogram_edges_and_closed_last_bin(backend):
    # Samples on every edge: numpy puts each in the bin it starts, and upper in the last bin.
    x = np.linspace(0, 1, 11).astype(np.float32)
    check_hist(backend, x, bins=10, range=(0, 1))
    check_hist(backend, np.arange(257, dtype=np.int32), bins=256, range=(0, 256))
    check_hist(backend, np.arange(256, dtype=np.uint8).repeat(3), bins=256, range=(0, 256))
    check_hist(backend, np.array([0.1, 0.2, 0.3, 0.7, np.nan, 1.0, -1.0, 2.0]), bins=3, range=(0.1, 1.0))


def test_histogram_constant_and_empty(backend):
    check_hist(backend, np.full(100, 3.0), bins=4)
    check_hist(backend, np.zeros(0, np.float64), bins=5)
    check_hist(backend, np.full(10, 7, dtype=np.int64), bins=3)


@pytest.mark.parametrize("edges", [[0, 1, 2, 5, 10], [0.5, 1.25, 3.0, 8.75], [-10, 0, 10], [0.1, 0.2, 0.3, 0.9]])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "uint8"])
def test_histogram_bin_edges(backend, rng, edges, dtype):
    x = random_array(rng, 10001, dtype)
    if dtype.startswith("float"):
        x = (x / 4).astype(dtype)
        x[:len(edges)] = np.asarray(edges, dtype=dtype)
    want_c, want_e = np.histogram(x, bins=np.asarray(edges))
    got_c, got_e = scankit.histogram(backend.asarray(x), bins=edges)
    np.testing.assert_array_equal(backend.numpy(got_c), want_c)
    np.testing.assert_array_equal(backend.numpy(got_e), want_e)


@pytest.mark.parametrize("n", SIZES)
def test_bincount_sizes(backend, rng, n):
    x = rng.integers(0, 1024, n).astype(np.int64)
    np.testing.assert_array_equal(backend.numpy(scankit.bincount(backend.asarray(x))), np.bincount(x))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_bincount_types(backend, rng, dtype):
    if backend.name.startswith("torch") and dtype in ("uint16", "uint32", "uint64"):
        pytest.skip("PyTorch has no max() for its unsigned types")
    x = np.abs(random_array(rng, 5000, dtype).astype(np.int64) % 100).astype(dtype)
    ref = x.astype(np.int64)  # numpy.bincount refuses uint64
    np.testing.assert_array_equal(backend.numpy(scankit.bincount(backend.asarray(x))), np.bincount(ref))
    np.testing.assert_array_equal(backend.numpy(scankit.bincount(backend.asarray(x), minlength=3000)),
                                  np.bincount(ref, minlength=3000))


def test_bincount_length(backend, rng):
    x = rng.integers(-5, 300, 10000).astype(np.int32)
    got = backend.numpy(scankit.bincount(backend.asarray(x), length=256))
    keep = x[(x >= 0) & (x < 256)]
    np.testing.assert_array_equal(got, np.bincount(keep, minlength=256)[:256])
    assert backend.numpy(scankit.bincount(backend.asarray(np.zeros(0, np.int32)))).size == 0


def test_every_algorithm(backend, rng):
    usable = [a for a in scankit.algorithms("histogram") if a.startswith("cpu-") != backend.gpu]
    x = rng.random(100001).astype(np.float32)
    k = rng.integers(0, 1024, 100001).astype(np.int32)
    for alg in usable:
        c, _ = scankit.histogram(backend.asarray(x), bins=100, algorithm=alg)
        np.testing.assert_array_equal(backend.numpy(c), np.histogram(x, bins=100)[0])
        np.testing.assert_array_equal(backend.numpy(scankit.bincount(backend.asarray(k), algorithm=alg)),
                                      np.bincount(k))


def test_float32_edge_arithmetic_of_numpy_2():
    # NumPy 2 computes the edges of float32 samples without a range in float32 arithmetic;
    # the counting functor reproduces that when asked (the CPU runs the same functor as the GPU).
    import ctypes

    from scankit import _capi

    rng = np.random.default_rng(7)
    x = rng.random(100003).astype(np.float32)
    lo, hi, bins = np.float32(x.min()), np.float32(x.max()), 37
    step = (hi - lo) / np.float32(bins)
    edges = np.arange(bins + 1).astype(np.float32) * step + lo
    edges[-1] = hi
    x[:bins + 1] = edges  # samples on every edge
    want = np.searchsorted(edges, x, side="right") - 1
    want[x == hi] = bins - 1
    want = np.bincount(want[(x >= lo) & (x <= hi)], minlength=bins)
    counts = np.zeros(bins, np.int64)
    _capi.call("histogram_even", -1, _capi.DTYPE_CODES["float32"], x.ctypes.data, x.size, counts.ctypes.data, bins,
               float(lo), float(hi), 1, b"", 0)
    np.testing.assert_array_equal(counts, want)
    assert ctypes.sizeof(ctypes.c_double) == 8


def test_edge_arithmetic_choice():
    from scankit._histogram import _edge_arithmetic

    e64 = np.linspace(0.25, 0.75, 11).astype(np.float32)
    assert _edge_arithmetic(e64, 0.25, 0.75, 10, "float32") == 0
    lo, hi = np.float32(0.1), np.float32(0.9)
    e32 = np.arange(11).astype(np.float32) * ((hi - lo) / np.float32(10)) + lo
    e32[-1] = hi
    assert _edge_arithmetic(e32, float(lo), float(hi), 10, "float32") in (0, 1)
    assert _edge_arithmetic(np.linspace(0, 10, 6), 0.0, 10.0, 5, "int32") == 0
    assert _edge_arithmetic(np.array([0.0, 1.0, 5.0]), 0.0, 5.0, 2, "float64") is None
