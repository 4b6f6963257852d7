"""reduce, argmin, argmax and min_max against NumPy, on every backend the conftest offers."""

import numpy as np
import pytest

import scankit
from conftest import SMALL_SIZES, random_array

NATIVE = ["int32", "int64", "uint32", "uint64", "float32", "float64"]
UFUNC = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
         "or": np.bitwise_or, "xor": np.bitwise_xor}


def identity(op, dtype):
    dtype = np.dtype(dtype)
    if op in ("min", "max"):
        if dtype.kind == "f":
            return np.inf if op == "min" else -np.inf
        info = np.iinfo(dtype)
        return info.max if op == "min" else info.min
    if op == "and":
        return np.array(-1).astype(dtype) if dtype.kind == "i" else np.iinfo(dtype).max
    return {"sum": 0, "prod": 1, "or": 0, "xor": 0}[op]


def serial(x, op, dtype):
    """The reduction as a plain left-to-right loop in `dtype` (integers wrap)."""
    acc = np.array(identity(op, dtype)).astype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for v in np.asarray(x).astype(dtype):
            acc = UFUNC[op](acc, v, dtype=dtype)
    return acc


def as_host(backend, r):
    """A result (NumPy scalar or 0-d array) as a NumPy value."""
    if isinstance(r, np.generic):
        return r
    out = backend.numpy(r)
    assert out.shape == ()
    return out[()]


@pytest.mark.parametrize("dtype", NATIVE)
@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "and", "or", "xor"])
@pytest.mark.parametrize("n", [0, 1, 2, 33, 4097])
def test_reduce_matches_a_serial_loop(backend, rng, dtype, op, n):
    if op in ("and", "or", "xor") and dtype.startswith("float"):
        return
    xn = random_array(rng, n, dtype)
    if op == "prod":
        xn = (xn % 3).astype(dtype) if dtype.startswith("u") else np.clip(xn, -2, 2).astype(dtype)
    r = scankit.reduce(backend.asarray(xn), op)
    if backend.name == "numpy":
        assert isinstance(r, np.generic) and r.dtype == np.dtype(dtype)
    got = as_host(backend, r)
    want = serial(xn, op, dtype)
    if dtype.startswith("float") and op == "sum":
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:
        assert got == want, (got, want)


@pytest.mark.parametrize("n", SMALL_SIZES)
def test_float_sum_is_close_and_deterministic(backend, rng, n):
    xn = rng.standard_normal(n)
    x = backend.asarray(xn)
    a, b = as_host(backend, scankit.reduce(x)), as_host(backend, scankit.reduce(x))
    assert a.tobytes() == b.tobytes()
    np.testing.assert_allclose(a, np.sum(xn), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype,want", [("int8", "int64"), ("uint16", "uint64"), ("bool", "int64"),
                                        ("float16", "float16")])
def test_narrow_types_widen_as_numpy(rng, dtype, want):
    xn = random_array(rng, 1000, dtype)
    r = scankit.reduce(xn, "sum")
    assert r.dtype == np.dtype(want)
    if dtype != "float16":
        assert r == np.sum(xn, dtype=want)
    assert scankit.reduce(xn, "max") == np.max(xn) and scankit.reduce(xn, "max").dtype == xn.dtype
    if dtype in ("int8", "uint16"):
        assert scankit.reduce(np.array([], dtype=dtype), "min") == identity("min", dtype)
        assert scankit.reduce(np.array([], dtype=dtype), "max") == identity("max", dtype)


def test_reduce_dtype_and_names():
    x = np.arange(1, 11, dtype=np.int32)
    assert scankit.reduce(x, "add", dtype=np.float64) == 55.0
    assert scankit.reduce(x, "multiply", dtype="int64") == 3628800
    assert scankit.reduce(x, "maximum") == 10 and scankit.reduce(x, "minimum") == 1
    assert scankit.reduce(np.ones((3, 4), np.float32)) == 12  # flattened
    with pytest.raises(ValueError, match="unknown operator"):
        scankit.reduce(x, "median")
    with pytest.raises(TypeError, match="bitwise"):
        scankit.reduce(x.astype(np.float32), "and")
    with pytest.raises(TypeError):
        scankit.reduce(x.astype(np.complex64))


@pytest.mark.parametrize("dtype", NATIVE + ["int8", "uint16", "bool", "float16"])
@pytest.mark.parametrize("n", [1, 2, 3, 257, 4097, 65537])
def test_argmin_argmax_first_on_ties(backend, rng, dtype, n):
    if backend.name.startswith("torch") and dtype == "uint16":
        return
    xn = (rng.integers(0, 5, n) % 2 if dtype == "bool" else rng.integers(0, 7, n)).astype(dtype)
    x = backend.asarray(xn)
    for f, ref in ((scankit.argmin, np.argmin), (scankit.argmax, np.argmax)):
        r = f(x)
        if backend.name == "numpy":
            assert isinstance(r, np.int64)
        assert as_host(backend, r) == ref(xn)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nan_wins_as_numpy(backend, dtype):
    xn = np.array([3, 1, np.nan, -5, np.nan, 9], dtype=dtype)
    x = backend.asarray(xn)
    assert as_host(backend, scankit.argmin(x)) == np.argmin(xn) == 2
    assert as_host(backend, scankit.argmax(x)) == np.argmax(xn) == 2
    lo, hi = scankit.min_max(x)
    assert np.isnan(as_host(backend, lo)) and np.isnan(as_host(backend, hi))


@pytest.mark.parametrize("dtype", NATIVE + ["int16", "float16"])
@pytest.mark.parametrize("n", [1, 2, 100, 4097])
def test_min_max(backend, rng, dtype, n):
    if backend.name.startswith("torch") and dtype == "uint16":
        return
    xn = random_array(rng, n, dtype)
    lo, hi = scankit.min_max(backend.asarray(xn))
    assert as_host(backend, lo) == xn.min() and as_host(backend, hi) == xn.max()
    if backend.name == "numpy":
        assert lo.dtype == xn.dtype and hi.dtype == xn.dtype


def test_empty_inputs():
    e = np.array([], dtype=np.float32)
    for f in (scankit.argmin, scankit.argmax, scankit.min_max):
        with pytest.raises(ValueError, match="empty"):
            f(e)
    assert scankit.reduce(e) == 0 and scankit.reduce(e, "prod") == 1
    assert scankit.reduce(e, "min") == np.inf and scankit.reduce(e, "max") == -np.inf
    assert scankit.reduce(np.array([], np.uint32), "and") == 0xFFFFFFFF


def test_gpu_results_stay_on_the_device(gpu_backend, rng):
    xn = rng.integers(-100, 100, 100000).astype(np.int64)
    x = gpu_backend.asarray(xn)
    s, i, (lo, hi) = scankit.reduce(x), scankit.argmax(x), scankit.min_max(x)
    for r in (s, i, lo, hi):
        assert tuple(r.shape) == () and type(r) is type(x)
    if gpu_backend.name.startswith("torch"):
        assert s.device == x.device and i.dtype == gpu_backend.torch.int64
    gpu_backend.sync()
    assert as_host(gpu_backend, s) == xn.sum() and as_host(gpu_backend, i) == np.argmax(xn)
    assert (as_host(gpu_backend, lo), as_host(gpu_backend, hi)) == (xn.min(), xn.max())


def test_torch_side_stream_reduce(rng):
    torch = pytest.importorskip("torch")
    if scankit.device_count() == 0 or not torch.cuda.is_available():
        pytest.skip("no GPU")
    x = torch.from_numpy(rng.standard_normal(1 << 20)).cuda()
    st = torch.cuda.Stream()
    st.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(st):
        s, i = scankit.reduce(x, "max"), scankit.argmin(x)
    st.synchronize()
    assert s.item() == x.max().item() and i.item() == x.argmin().item()
