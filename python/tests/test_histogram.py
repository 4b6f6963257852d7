import numpy as np
import pytest

import scankit
from conftest import SIZES, NumpyBackend, random_array


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


@pytest.mark.parametrize("top", [0, 1, 4094, 4095, 4096, 4097, 100000])
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "uint16"])
def test_bincount_largest_key(backend, rng, top, dtype):
    # On the GPU one pass counts keys below 4,096 (below 256 and 65,536 for 1- and 2-byte keys)
    # and finds the largest; larger keys are counted again. Keys on either side of that.
    if backend.name.startswith("torch") and dtype == "uint16":
        pytest.skip("PyTorch has no max() for its unsigned types")
    top = min(top, np.iinfo(dtype).max)
    for n in (1, 4097, 300001):
        x = rng.integers(0, top + 1, n).astype(dtype)
        x[rng.integers(0, n)] = top
        ref = x.astype(np.int64)
        for minlength in (0, top + 1, top + 5000):
            got = backend.numpy(scankit.bincount(backend.asarray(x), minlength=minlength))
            np.testing.assert_array_equal(got, np.bincount(ref, minlength=minlength))
        if dtype.startswith("int") and n > 1:
            x[n // 2] = -1
            with pytest.raises(ValueError, match="negative"):
                scankit.bincount(backend.asarray(x))


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
        # uint16 keys: on the GPU one pass counts all 65,536 values, more bins than the shared
        # layouts hold; a forced one counts with the maximum's bins instead.
        k16 = (k * 50).astype(np.uint16)
        if not backend.name.startswith("torch"):  # PyTorch has no max() for uint16
            np.testing.assert_array_equal(backend.numpy(scankit.bincount(backend.asarray(k16), algorithm=alg)),
                                          np.bincount(k16))


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


def _even_counts(backend, x, bins, lo, hi, mode):
    """Counts of the C ABI's histogram_even for float32 samples x on the backend's device."""
    from scankit import _capi
    from scankit._arrays import wrap
    from scankit._core import stream

    a = wrap(backend.asarray(x))
    counts = a.ops.zeros((bins,), "int64", a.device)
    _capi.call("histogram_even", a.device, _capi.DTYPE_CODES["float32"], a.ops.ptr(a.x), a.size, a.ops.ptr(counts),
               bins, float(lo), float(hi), mode, b"", stream(a))
    return backend.numpy(counts)


def _edge_samples(rng, lo, hi, bins, n):
    """Random float32 samples in and around [lo, hi] with every edge of numpy's float32 bins and
    the floats just below and above each among them."""
    edges = np.linspace(lo, hi, bins + 1).astype(np.float32)
    near = np.concatenate([edges, np.nextafter(edges, np.float32(-np.inf)), np.nextafter(edges, np.float32(np.inf))])
    span = hi - lo
    x = rng.uniform(lo - 0.01 * span, hi + 0.01 * span, n).astype(np.float32)
    x[: near.size] = near
    x[near.size] = np.nan
    return rng.permutation(x)


@pytest.mark.parametrize("lo,hi,bins", [(0, 1, 1024), (0, 100, 1000), (-3.7, 2.1, 1000), (0.25, 0.75, 37),
                                        (-1, 1, 4096), (1e6, 1e6 + 1000, 1000), (0.1, 0.2, 65536), (-5, 5, 1)])
def test_histogram_float32_fast_bins(backend, rng, lo, hi, bins):
    # Float32 samples take float32 arithmetic where it gives numpy's bins and the double
    # arithmetic elsewhere: both against numpy and against the double arithmetic forced
    # (mode 2), on samples that sit on every edge and next to it.
    from scankit._histogram import _edge_arithmetic

    x = _edge_samples(rng, lo, hi, bins, 3 * (bins + 1) + 50001)
    want, edges = np.histogram(x, bins=bins, range=(lo, hi))
    mode = _edge_arithmetic(edges, float(lo), float(hi), bins, "float32")
    assert mode is not None
    np.testing.assert_array_equal(_even_counts(backend, x, bins, lo, hi, mode), want)
    np.testing.assert_array_equal(_even_counts(backend, x, bins, lo, hi, mode | 2), want)
    c, _ = scankit.histogram(backend.asarray(x), bins=bins, range=(lo, hi))
    np.testing.assert_array_equal(backend.numpy(c), want)


def test_histogram_float32_fast_bins_random_ranges(rng):
    # Random ranges and bin counts: the float32 arithmetic (where taken) and the double one agree
    # on every sample, for double (mode 0) and float32 (mode 1) edge arithmetic.
    for _ in range(40):
        lo = float(np.float32(rng.uniform(-100, 100)))
        hi = float(np.float32(lo + 10.0 ** rng.uniform(-3, 3)))
        bins = int(rng.integers(1, 3000))
        x = _edge_samples(rng, lo, hi, bins, 3 * (bins + 1) + 1000)
        for mode in (0, 1):
            got = _even_counts(NumpyBackend(), x, bins, lo, hi, mode)
            exact = _even_counts(NumpyBackend(), x, bins, lo, hi, mode | 2)
            np.testing.assert_array_equal(got, exact)
            assert got.sum() == np.count_nonzero((x >= np.float32(lo)) & (x <= np.float32(hi)))


def test_numpy_samples_of_the_other_byte_order(rng):
    # Read as the values they hold (converted), as NumPy reads them.
    f = rng.random(10007).astype(np.dtype("float64").newbyteorder("S"))
    got, edges = scankit.histogram(f, 64, (0.0, 1.0))
    want, want_edges = np.histogram(f, 64, (0.0, 1.0))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(edges, want_edges)
    k = rng.integers(0, 300, 10007).astype(np.dtype("int64").newbyteorder("S"))
    np.testing.assert_array_equal(scankit.bincount(k), np.bincount(k))
