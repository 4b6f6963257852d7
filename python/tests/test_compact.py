import numpy as np
import pytest

import scankit
from conftest import SIZES, SMALL_SIZES, random_array

ITEM_TYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "float32", "float64", "complex64", "complex128"]


def skip_unsupported(backend, dtype):
    if backend.name.startswith("torch") and dtype in ("uint16", "uint32", "uint64"):
        pytest.skip("PyTorch's unsigned types have no indexing or comparisons for the reference")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("p", [0.0, 0.5, 1.0])
def test_select_mask_sizes(backend, rng, n, p):
    x = random_array(rng, n, "int32")
    m = rng.random(n) < p
    xb, mb = backend.asarray(x), backend.asarray(m)
    np.testing.assert_array_equal(backend.numpy(scankit.select(xb, mb)), x[m])
    np.testing.assert_array_equal(backend.numpy(xb), x)
    np.testing.assert_array_equal(backend.numpy(mb), m)


@pytest.mark.parametrize("dtype", ITEM_TYPES)
@pytest.mark.parametrize("n", [0, 1, 4097, 65537])
def test_select_every_type(backend, rng, dtype, n):
    x = random_array(rng, n, dtype)
    m = rng.random(n) < 0.3
    np.testing.assert_array_equal(backend.numpy(scankit.select(backend.asarray(x), backend.asarray(m))), x[m])


def test_select_nd_and_int_mask(backend, rng):
    x = random_array(rng, 600, "float64").reshape(20, 30)
    m = rng.integers(0, 3, (20, 30)).astype(np.int32)
    np.testing.assert_array_equal(backend.numpy(scankit.select(backend.asarray(x), backend.asarray(m))), x[m != 0])


@pytest.mark.parametrize("dtype", ["int32", "float32", "int64", "uint8", "int16", "float16"])
def test_select_thresholds(backend, rng, dtype):
    x = random_array(rng, 50001, dtype)
    xb = backend.asarray(x)
    np.testing.assert_array_equal(backend.numpy(scankit.select(xb)), x[x != 0])
    np.testing.assert_array_equal(backend.numpy(scankit.select(xb, less_than=3)), x[x < 3])
    np.testing.assert_array_equal(backend.numpy(scankit.select(xb, greater_than=2)), x[x > 2])


@pytest.mark.parametrize("size", [0, 1, 10, 600, 5000])
def test_select_size(backend, rng, size):
    x = random_array(rng, 1000, "float32")
    m = rng.random(1000) < 0.5
    want = x[m][:size]
    want = np.concatenate([want, np.full(size - want.size, -1, dtype=x.dtype)])
    got = scankit.select(backend.asarray(x), backend.asarray(m), size=size, fill_value=-1)
    np.testing.assert_array_equal(backend.numpy(got), want)


def test_select_size_unsupported_item(backend, rng):
    x = random_array(rng, 300, "float16")
    m = rng.random(300) < 0.5
    got = scankit.select(backend.asarray(x), backend.asarray(m), size=200, fill_value=7)
    want = np.concatenate([x[m], np.full(200 - m.sum(), 7, dtype=x.dtype)])[:200]
    np.testing.assert_array_equal(backend.numpy(got), want)


def test_compress(backend, rng):
    a = random_array(rng, 60, "int64").reshape(6, 10)
    c = rng.random(10) < 0.5
    ab, cb = backend.asarray(a), backend.asarray(c)
    np.testing.assert_array_equal(backend.numpy(scankit.compress(cb, ab, axis=1)), np.compress(c, a, axis=1))
    c6 = c[:6]
    np.testing.assert_array_equal(backend.numpy(scankit.compress(backend.asarray(c6), ab, axis=0)),
                                  np.compress(c6, a, axis=0))
    np.testing.assert_array_equal(backend.numpy(scankit.compress(cb, ab)), np.compress(c, a))


@pytest.mark.parametrize("n", SIZES)
def test_flatnonzero_sizes(backend, rng, n):
    x = (rng.random(n) < 0.3).astype(np.float32) * rng.integers(1, 5, n)
    np.testing.assert_array_equal(backend.numpy(scankit.flatnonzero(backend.asarray(x))), np.flatnonzero(x))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float16", "float32", "float64"])
def test_nonzero_every_type(backend, rng, dtype):
    skip_unsupported(backend, dtype)
    x = random_array(rng, 30000, dtype)
    if dtype.startswith("float"):
        x[:3] = np.array([-0.0, np.nan, 0.0], dtype=dtype)
    got = scankit.nonzero(backend.asarray(x))
    assert len(got) == 1
    np.testing.assert_array_equal(backend.numpy(got[0]), np.nonzero(x)[0])


@pytest.mark.parametrize("shape", [(3, 4), (5, 6, 7), (1, 1), (0, 3), (40, 1000)])
def test_nonzero_nd(backend, rng, shape):
    x = (rng.random(shape) < 0.2).astype(np.int32)
    got = scankit.nonzero(backend.asarray(x))
    want = np.nonzero(x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(backend.numpy(g), w)


def test_nonzero_size(backend, rng):
    x = (rng.random((8, 9)) < 0.2).astype(np.int32)
    want = np.nonzero(x)
    k = want[0].size
    for size in (0, k // 2, k, k + 5):
        got = scankit.nonzero(backend.asarray(x), size=size, fill_value=-7)
        for g, w in zip(got, want):
            w = np.concatenate([w, np.full(max(0, size - k), -7)])[:size]
            np.testing.assert_array_equal(backend.numpy(g), w)


@pytest.mark.parametrize("stable", [True, False])
@pytest.mark.parametrize("n", [0, 1, 2, 4097, 65537])
def test_partition(backend, rng, stable, n):
    x = random_array(rng, n, "int32")
    xb = backend.asarray(x)

    def want(sel):
        rest = x[~sel]
        return np.concatenate([x[sel], rest if stable else rest[::-1]]), int(sel.sum())

    for kwargs, sel in (({}, x != 0), ({"less_than": 5}, x < 5), ({"greater_than": -3}, x > -3)):
        got, k = scankit.partition(xb, stable=stable, **kwargs)
        w, wk = want(sel)
        assert k == wk
        np.testing.assert_array_equal(backend.numpy(got), w)
    m = rng.random(n) < 0.4
    got, k = scankit.partition(xb, backend.asarray(m), stable=stable)
    w, wk = want(m)
    assert k == wk
    np.testing.assert_array_equal(backend.numpy(got), w)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float16", "float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 5000, 100003])
def test_unique(backend, rng, dtype, n):
    skip_unsupported(backend, dtype)
    x = random_array(rng, n, dtype)
    xb = backend.asarray(x)
    vals, counts = np.unique(x, return_counts=True)
    got = scankit.unique(xb)
    np.testing.assert_array_equal(backend.numpy(got), vals)
    gv, gc = scankit.unique(xb, return_counts=True)
    np.testing.assert_array_equal(backend.numpy(gv), vals)
    np.testing.assert_array_equal(backend.numpy(gc), counts)
    np.testing.assert_array_equal(backend.numpy(xb), x)


def test_unique_size(backend, rng):
    x = rng.integers(0, 50, 10000).astype(np.int64)
    vals, counts = np.unique(x, return_counts=True)
    for size in (10, vals.size, vals.size + 3):
        gv, gc = scankit.unique(backend.asarray(x), return_counts=True, size=size, fill_value=-1)
        pad = max(0, size - vals.size)
        np.testing.assert_array_equal(backend.numpy(gv), np.concatenate([vals, np.full(pad, -1)])[:size])
        np.testing.assert_array_equal(backend.numpy(gc), np.concatenate([counts, np.zeros(pad, np.int64)])[:size])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 257, 100003])
def test_unique_nans(backend, rng, dtype, n):
    skip_unsupported(backend, dtype)
    x = random_array(rng, n, dtype)
    # NaNs of both signs and another payload, and both zeros, at random places.
    odd_nan = np.array([0x7FC00001 if dtype == "float32" else 0], dtype=np.uint32).view(np.float32)[0]
    specials = np.array([np.nan, -np.nan, odd_nan if dtype == "float32" else np.nan, -0.0, 0.0], dtype=dtype)
    at = rng.choice(n, size=min(n, 40), replace=False)
    x[at] = specials[rng.integers(0, specials.size, at.size)]
    xb = backend.asarray(x)
    for equal_nan in (True, False):
        vals, counts = np.unique(x, return_counts=True, equal_nan=equal_nan)
        gv, gc = scankit.unique(xb, return_counts=True, equal_nan=equal_nan)
        np.testing.assert_array_equal(backend.numpy(gv), vals)
        np.testing.assert_array_equal(backend.numpy(gc), counts)
        np.testing.assert_array_equal(backend.numpy(scankit.unique(xb, equal_nan=equal_nan)), vals)
        # The fixed-size form, padded: the same values and counts first.
        k = vals.size
        pv, pc = scankit.unique(xb, return_counts=True, equal_nan=equal_nan, size=k + 2, fill_value=7)
        np.testing.assert_array_equal(backend.numpy(pv)[:k], vals)
        np.testing.assert_array_equal(backend.numpy(pc), np.concatenate([counts, [0, 0]]))
        np.testing.assert_array_equal(backend.numpy(pv)[k:], np.array([7, 7], dtype=dtype))
    # equal_nan=True by default, as in NumPy
    assert backend.numpy(scankit.unique(xb)).size == np.unique(x).size
    np.testing.assert_array_equal(backend.numpy(xb), x)


def runs(x):
    if x.size == 0:
        return x, np.zeros(0, np.int64)
    starts = np.flatnonzero(np.concatenate([[True], x[1:] != x[:-1]]))
    return x[starts], np.diff(np.concatenate([starts, [x.size]]))


@pytest.mark.parametrize("n", SMALL_SIZES)
def test_unique_consecutive(backend, rng, n):
    x = rng.integers(0, 3, n).astype(np.float64)
    vals, counts = runs(x)
    gv, gc = scankit.unique_consecutive(backend.asarray(x), return_counts=True)
    np.testing.assert_array_equal(backend.numpy(gv), vals)
    np.testing.assert_array_equal(backend.numpy(gc), counts)
    np.testing.assert_array_equal(backend.numpy(scankit.unique_consecutive(backend.asarray(x))), vals)


def test_every_algorithm(backend, rng):
    usable = [a for a in scankit.algorithms("compact") if a.startswith("cpu-") != backend.gpu]
    x = random_array(rng, 70001, "int32")
    m = rng.random(70001) < 0.5
    for alg in usable:
        np.testing.assert_array_equal(
            backend.numpy(scankit.select(backend.asarray(x), backend.asarray(m), algorithm=alg)), x[m])
        np.testing.assert_array_equal(backend.numpy(scankit.flatnonzero(backend.asarray(x), algorithm=alg)),
                                      np.flatnonzero(x))
        np.testing.assert_array_equal(backend.numpy(scankit.unique(backend.asarray(x), algorithm=alg)), np.unique(x))


def test_numpy_items_of_the_other_byte_order(rng):
    # Read as the values they hold (converted); the result is in the machine's byte order.
    x = random_array(rng, 10007, "int32").astype(np.dtype("int32").newbyteorder("S"))
    m = rng.random(10007) < 0.3
    np.testing.assert_array_equal(scankit.select(x, m), x[m])
    np.testing.assert_array_equal(scankit.select(x, x > 0), x[x > 0])
