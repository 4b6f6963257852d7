"""scankit.topk against a NumPy reference: a stable argsort of the items' ordered bits (the sorts'
IEEE total order, NaNs above +inf, -0.0 below +0.0), complemented for the largest, sliced at k."""

import numpy as np
import pytest

import scankit
from conftest import random_array

KEY_TYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
             "float32", "float64"]
SPECIALS = [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -1.5]
SIZES_1D = [0, 1, 2, 3, 7, 31, 33, 100, 255, 257, 1000, 1025, 2049, 3001]
LARGE = 2**17 + 3  # from 2^17 items the CPU top-k of one array runs on the pool


def ordered_bits(b, mant):
    """The ordered bits of float bits b (unsigned) with `mant` mantissa bits."""
    u = b.dtype
    sign = u.type(1 << (u.itemsize * 8 - 1))
    t = np.where(b & sign, ~b, b | sign).astype(u)
    with np.errstate(over="ignore"):
        return (t - u.type((1 << mant) - 1)).astype(u)


def ordered(x):
    """The unsigned ordered bits the library ranks by (as python/tests/test_sort.py's)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.view(np.uint8)
    bits = x.dtype.itemsize * 8
    u = np.dtype(f"uint{bits}")
    b = x.view(u)
    if x.dtype.kind == "u":
        return b
    if x.dtype.kind == "i":
        return b ^ u.type(1 << (bits - 1))
    return ordered_bits(b, {16: 10, 32: 23, 64: 52}[bits])


def reference_topk(x, k, axis=-1, largest=True, key=None):
    """(values, int64 indices) of the top-k along axis; key: the ordered bits (default ordered(x))."""
    if axis is None:
        x = x.reshape(-1)
        key = None if key is None else key.reshape(-1)
        axis = 0
    o = ordered(x) if key is None else key
    idx = np.argsort(~o if largest else o, axis=axis, kind="stable")
    idx = np.take(idx, np.arange(k), axis=axis).astype(np.int64)
    return np.take_along_axis(x, idx, axis=axis), idx


def bits(v):
    v = np.asarray(v)
    return v.view(np.uint8) if v.dtype == np.bool_ else v.view(f"uint{v.dtype.itemsize * 8}")


def data(rng, n, dtype, distinct=None):
    """n items of dtype: random (many ties for small types and floats), with the float specials
    (NaNs of both signs, infinities, -0.0 and +0.0) at random positions; distinct: that many
    different values only."""
    if distinct is not None:
        x = rng.integers(0, distinct, n).astype(dtype)
    else:
        x = random_array(rng, n, dtype)
    if np.dtype(dtype).kind == "f" and n > 0:
        at = rng.choice(n, size=min(n, 2 * len(SPECIALS)), replace=False)
        x[at] = np.array(SPECIALS * 2, dtype=dtype)[: len(at)]
    return x


def check(backend, x, k, axis=-1, largest=True):
    xb = backend.asarray(x)
    before = x.copy()
    res = scankit.topk(xb, k, axis=axis, largest=largest)
    values, indices = res
    assert res.values is values and res.indices is indices
    assert type(values) is type(xb) and type(indices) is type(xb)
    v, i = backend.numpy(values), backend.numpy(indices)
    want_v, want_i = reference_topk(x, k, axis, largest)
    assert v.dtype == x.dtype
    assert i.dtype == np.int64
    assert v.shape == want_v.shape and i.shape == want_i.shape
    np.testing.assert_array_equal(i, want_i)
    np.testing.assert_array_equal(bits(v), bits(want_v))
    np.testing.assert_array_equal(bits(backend.numpy(xb)), bits(before))  # the input is intact
    return values, indices


def ks_for(n):
    return sorted({k for k in (0, 1, 2, 5, n // 3, n - 1, n) if 0 <= k <= n})


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", KEY_TYPES)
def test_topk_1d(backend, rng, dtype, largest):
    for n in SIZES_1D:
        x = data(rng, n, dtype)
        for k in ks_for(n):
            check(backend, x, k, largest=largest)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint64", "float16", "float32", "float64"])
def test_topk_few_distinct_values(backend, rng, dtype, largest):
    # Ties everywhere: the smaller position first among equal items.
    for n in (10, 1000, 3001):
        for distinct in (1, 2, 3):
            x = data(rng, n, dtype, distinct=distinct)
            for k in ks_for(n):
                check(backend, x, k, largest=largest)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_topk_large(backend, rng, dtype, largest):
    # The CPU's heap (k <= 256) and radix (larger k) selections, the GPU's sampled and radix ones.
    x = data(rng, LARGE, dtype)
    if np.dtype(dtype).kind in "iu" and np.dtype(dtype).itemsize >= 2:
        x = rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, LARGE, dtype=dtype, endpoint=True)
    for k in (1, 100, 256, 257, 5000, LARGE // 2, LARGE):
        check(backend, x, k, largest=largest)


def test_topk_large_float_ties_and_specials(backend, rng):
    n = 2**20 + 7
    x = rng.integers(-4, 5, n).astype(np.float32)
    at = rng.choice(n, size=4000, replace=False)
    x[at] = np.array(SPECIALS, dtype=np.float32)[np.arange(4000) % len(SPECIALS)]
    for largest in (True, False):
        for k in (1, 1000, 3000, 200000):
            check(backend, x, k, largest=largest)


@pytest.mark.parametrize("shape,axis", [((3, 50), -1), ((3, 50), 0), ((4, 5, 6), 1), ((4, 5, 6), 0), ((4, 5, 6), -1),
                                        ((2, 0), 1), ((0, 5), 1), ((0, 5), 0), ((100, 3), None), ((7, 1000), 0),
                                        ((7, 1000), 1), ((1, 5000), 1), ((5000, 1), 0), ((64, 2049), -1),
                                        ((5, 3001), 1), ((2, 3, 1), 2)])
@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8", "float64"])
def test_topk_along_axes(backend, rng, shape, axis, dtype):
    x = data(rng, int(np.prod(shape)), dtype).reshape(shape)
    length = x.size if axis is None else shape[axis]
    for k in sorted({0, 1, 3, length // 2, min(length, 1025), length} & set(range(length + 1))):
        for largest in (True, False):
            v, i = check(backend, x, k, axis=axis, largest=largest)
            want = [k] if axis is None else [k if d == axis % len(shape) else s for d, s in enumerate(shape)]
            assert tuple(v.shape) == tuple(want) and tuple(i.shape) == tuple(want)


def test_topk_specials_order(backend):
    # NaN above +inf (as torch.topk), -0.0 below +0.0, ties to the smaller position.
    x = np.array([1.0, np.nan, -0.0, 0.0, np.inf, -np.inf, np.nan, 1.0, -0.0], dtype=np.float32)
    v, i = scankit.topk(backend.asarray(x), 4)
    np.testing.assert_array_equal(backend.numpy(i), [1, 6, 4, 0])
    assert np.isnan(backend.numpy(v)[:2]).all()
    v, i = scankit.topk(backend.asarray(x), 5, largest=False)
    np.testing.assert_array_equal(backend.numpy(i), [5, 2, 8, 3, 0])
    np.testing.assert_array_equal(bits(backend.numpy(v)), bits(x[[5, 2, 8, 3, 0]]))
    assert np.signbit(backend.numpy(v)[1]) and not np.signbit(backend.numpy(v)[3])
    # Unsigned and signed extremes.
    u = np.array([0, 2**64 - 1, 5, 2**63], dtype=np.uint64)
    np.testing.assert_array_equal(backend.numpy(scankit.topk(backend.asarray(u), 2).indices), [1, 3])
    s = np.array([0, -(2**63), 5, 2**63 - 1, -1], dtype=np.int64)
    np.testing.assert_array_equal(backend.numpy(scankit.topk(backend.asarray(s), 2).indices), [3, 2])
    np.testing.assert_array_equal(backend.numpy(scankit.topk(backend.asarray(s), 2, largest=False).indices), [1, 4])


def test_topk_sorted_false_is_sorted(backend, rng):
    x = data(rng, 5000, "float32")
    a = scankit.topk(backend.asarray(x), 300, sorted=False)
    b = scankit.topk(backend.asarray(x), 300, sorted=True)
    np.testing.assert_array_equal(backend.numpy(a.indices), backend.numpy(b.indices))
    np.testing.assert_array_equal(backend.numpy(a.indices), reference_topk(x, 300)[1])


def test_topk_strided_input(backend, rng):
    x = data(rng, 20000, "float64").reshape(100, 200)
    xb = backend.asarray(x)
    v, i = scankit.topk(xb[:, 3], 10)
    want_v, want_i = reference_topk(np.ascontiguousarray(x[:, 3]), 10)
    np.testing.assert_array_equal(backend.numpy(i), want_i)
    np.testing.assert_array_equal(bits(backend.numpy(v)), bits(want_v))


def test_topk_positional_and_keyword_arguments(backend, rng):
    x = data(rng, 600, "int32").reshape(20, 30)
    xb = backend.asarray(x)
    a = scankit.topk(xb, 4, 0, False, True)
    b = scankit.topk(xb, k=4, axis=0, largest=False, sorted=True)
    np.testing.assert_array_equal(backend.numpy(a.indices), backend.numpy(b.indices))
    np.testing.assert_array_equal(backend.numpy(a.indices), reference_topk(x, 4, 0, False)[1])


def test_topk_errors(backend):
    x = backend.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    with pytest.raises(ValueError, match="k = 5"):
        scankit.topk(x, 5)
    with pytest.raises(ValueError, match="k = 4"):
        scankit.topk(x, 4, axis=0)
    with pytest.raises(ValueError, match="k = -1"):
        scankit.topk(x, -1)
    with pytest.raises(ValueError, match="out of bounds"):
        scankit.topk(x, 1, axis=2)
    with pytest.raises(ValueError, match="out of bounds"):
        scankit.topk(x, 1, axis=-3)
    with pytest.raises(TypeError, match="axis"):
        scankit.topk(x, 1, axis=1.5)
    with pytest.raises(TypeError, match="k must be an integer"):
        scankit.topk(x, 1.0)
    with pytest.raises(ValueError, match="0-d"):
        scankit.topk(backend.asarray(np.array([3], dtype=np.int32)).reshape(()), 1)
    with pytest.raises(TypeError, match="float32"):
        scankit.topk(backend.asarray(np.ones(10, dtype=np.complex64)), 1)
    with pytest.raises(TypeError, match="float32"):
        scankit.topk(backend.asarray(np.ones(10, dtype=np.complex64)), 0)
    # k == 0 and empty arrays are no errors.
    v, i = scankit.topk(backend.asarray(np.zeros((0,), dtype=np.float32)), 0)
    assert tuple(v.shape) == (0,) and tuple(i.shape) == (0,)


def test_topk_errors_of_the_c_abi():
    # The C entry checks its block too (a caller other than the package).
    x = np.arange(10, dtype=np.int32)
    v = np.empty(10, np.int32)
    i = np.empty(10, np.int64)
    code = scankit._capi.DTYPE_CODES["int32"]
    with pytest.raises(ValueError, match="k = 11"):
        scankit._capi.call("topk", -1, code, x.ctypes.data, v.ctypes.data, i.ctypes.data, 1, 10, 11, 1, 0, 0, 0)
    with pytest.raises(ValueError, match="rows"):
        scankit._capi.call("topk", -1, code, x.ctypes.data, v.ctypes.data, i.ctypes.data, -1, 10, 1, 1, 0, 0, 0)
    with pytest.raises(ValueError, match="null"):
        scankit._capi.call("topk", -1, code, 0, v.ctypes.data, i.ctypes.data, 1, 10, 1, 1, 0, 0, 0)
    with pytest.raises(TypeError, match="topk"):
        scankit._capi.call("topk", -1, 99, x.ctypes.data, v.ctypes.data, i.ctypes.data, 1, 10, 1, 1, 0, 0, 0)
    scankit._capi.call("topk", -1, code, x.ctypes.data, v.ctypes.data, i.ctypes.data, 2, 5, 2, 0, 0, 0, 0)
    np.testing.assert_array_equal(v[:4], [0, 1, 5, 6])
    np.testing.assert_array_equal(i[:4], [0, 1, 0, 1])


def test_topk_is_public():
    assert "topk" in scankit.__all__
    assert callable(scankit.topk)


def test_topk_bfloat16(rng):
    torch = pytest.importorskip("torch")
    devices = ["cpu"] + (["cuda"] if scankit.device_count() > 0 and torch.cuda.is_available() else [])
    for device in devices:
        for n in (0, 1, 100, 3001, LARGE):
            x = torch.tensor(rng.integers(-50, 50, n), dtype=torch.bfloat16, device=device)
            if n >= 6:
                x[:6] = torch.tensor([float("nan"), float("inf"), -float("inf"), -0.0, 0.0, -float("nan")])
            b = x.view(torch.int16).cpu().numpy().view(np.uint16)
            key = ordered_bits(b, 7)
            for k in ks_for(n):
                for largest in (True, False):
                    v, i = scankit.topk(x, k, largest=largest)
                    assert v.dtype == torch.bfloat16 and i.dtype == torch.int64 and v.device == x.device
                    want_v, want_i = reference_topk(b, k, largest=largest, key=key)
                    np.testing.assert_array_equal(i.cpu().numpy(), want_i)
                    np.testing.assert_array_equal(v.view(torch.int16).cpu().numpy().view(np.uint16), want_v)


def test_topk_matches_torch_topk(rng):
    torch = pytest.importorskip("torch")
    devices = ["cpu"] + (["cuda"] if scankit.device_count() > 0 and torch.cuda.is_available() else [])
    for device in devices:
        # Distinct values: torch.topk's order is then the only one (its ties are unspecified).
        x = torch.from_numpy(rng.permutation(50000).astype(np.float32).reshape(50, 1000)).to(device)
        for dim in (0, 1, -1):
            for largest in (True, False):
                got = scankit.topk(x, 17, dim, largest)
                want = torch.topk(x, 17, dim=dim, largest=largest, sorted=True)
                assert torch.equal(got.values, want.values)
                assert torch.equal(got.indices, want.indices)


# ---- GPU specifics (skipped without a GPU, CuPy or PyTorch) -----------------------------------

def test_topk_torch_side_stream(rng):
    torch = pytest.importorskip("torch")
    if scankit.device_count() == 0 or not torch.cuda.is_available():
        pytest.skip("no GPU")
    xn = data(rng, LARGE, "float32")
    x = torch.from_numpy(xn).cuda()
    rows = torch.from_numpy(data(rng, 64 * 3000, "int32").reshape(64, 3000)).cuda()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        v, i = scankit.topk(x, 1000)
        rv, ri = scankit.topk(rows, 1500, largest=False)
    s.synchronize()
    want_v, want_i = reference_topk(xn, 1000)
    np.testing.assert_array_equal(i.cpu().numpy(), want_i)
    np.testing.assert_array_equal(bits(v.cpu().numpy()), bits(want_v))
    np.testing.assert_array_equal(ri.cpu().numpy(), reference_topk(rows.cpu().numpy(), 1500, largest=False)[1])


def test_topk_cupy_side_stream(rng):
    cp = pytest.importorskip("cupy")
    if scankit.device_count() == 0:
        pytest.skip("no GPU")
    xn = data(rng, LARGE, "float64")
    x = cp.asarray(xn)
    cp.cuda.get_current_stream().synchronize()
    with cp.cuda.Stream(non_blocking=True) as s:
        v, i = scankit.topk(x, 333, largest=False)
        s.synchronize()
    want_v, want_i = reference_topk(xn, 333, largest=False)
    np.testing.assert_array_equal(cp.asnumpy(i), want_i)
    np.testing.assert_array_equal(bits(cp.asnumpy(v)), bits(want_v))


def test_topk_gpu_results_stay_on_the_device(gpu_backend, rng):
    x = gpu_backend.asarray(data(rng, 4096, "float32").reshape(4, 1024))
    v, i = scankit.topk(x, 8)
    assert type(v) is type(x) and type(i) is type(x)
    dev = getattr(x, "device", None)
    assert getattr(v, "device", None) == dev and getattr(i, "device", None) == dev
