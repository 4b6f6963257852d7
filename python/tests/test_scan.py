import numpy as np
import pytest

import scankit
from conftest import SIZES, SMALL_SIZES, random_array

NATIVE = ["int32", "int64", "uint32", "uint64", "float32", "float64"]
UFUNC = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
         "or": np.bitwise_or, "xor": np.bitwise_xor}
IDENTITY = {"sum": 0, "prod": 1, "and": -1, "or": 0, "xor": 0}


def identity(op, dtype):
    dtype = np.dtype(dtype)
    if op in ("min", "max"):
        if dtype.kind == "f":
            return np.inf if op == "min" else -np.inf
        info = np.iinfo(dtype)
        return info.max if op == "min" else info.min
    if op == "and":
        return np.array(-1).astype(dtype) if dtype.kind == "i" else np.iinfo(dtype).max
    return IDENTITY[op]


def reference(x, op, axis=None, exclusive=False, initial=None, dtype=None):
    """The scan with NumPy's ufunc accumulate (sequential), widened as scankit widens."""
    dtype = np.dtype(dtype or x.dtype)
    x = np.asarray(x).astype(dtype)
    if axis is None:
        x, axis = x.reshape(-1), 0
    u = UFUNC[op]
    first = identity(op, dtype) if initial is None else initial
    first = np.array(first).astype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        if exclusive:
            shape = list(x.shape)
            shape[axis] = 1
            pad = np.full(shape, first, dtype=dtype)
            body = np.take(x, range(x.shape[axis] - 1), axis=axis) if x.shape[axis] > 0 else x
            shifted = np.concatenate([pad, body], axis=axis) if x.shape[axis] > 0 else x
            res = u.accumulate(shifted, axis=axis, dtype=dtype) if shifted.size else shifted
            return res
        if x.size == 0:
            return x.copy()
        if initial is not None:
            x = np.moveaxis(x, axis, 0).copy()
            x[0] = u(first, x[0])
            return np.moveaxis(u.accumulate(x, axis=0, dtype=dtype), 0, axis)
        return u.accumulate(x, axis=axis, dtype=dtype)


def check(got, want):
    got = np.asarray(got)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", NATIVE)
def test_cumsum_sizes(backend, rng, n, dtype):
    x = random_array(rng, n, dtype)
    before = x.copy()
    xb = backend.asarray(x)
    got = scankit.cumsum(xb)
    check(backend.numpy(got), reference(x, "sum"))
    np.testing.assert_array_equal(backend.numpy(xb), before)


@pytest.mark.parametrize("op", list(UFUNC))
@pytest.mark.parametrize("dtype", NATIVE)
@pytest.mark.parametrize("n", [0, 1, 257, 4097, 104729])
def test_every_operator(backend, rng, op, dtype, n):
    if op in ("and", "or", "xor") and dtype.startswith("float"):
        pytest.skip("bitwise operators are for integers")
    x = random_array(rng, n, dtype)
    if op == "prod":
        x = (x % 3 + 1).astype(dtype) if dtype.startswith("float") else x
    got = scankit.scan(backend.asarray(x), op)
    want = reference(x, op)
    if op == "prod" and dtype.startswith("float"):
        with np.errstate(over="ignore"):
            np.testing.assert_allclose(backend.numpy(got), want, rtol=1e-4)
    else:
        check(backend.numpy(got), want)


@pytest.mark.parametrize("op", list(UFUNC))
@pytest.mark.parametrize("dtype", NATIVE)
@pytest.mark.parametrize("shape", [(50, 300), (4, 5000)])
def test_every_operator_along_the_last_axis(backend, rng, op, dtype, shape):
    if op in ("and", "or", "xor") and dtype.startswith("float"):
        pytest.skip("bitwise operators are for integers")
    x = random_array(rng, int(np.prod(shape)), dtype).reshape(shape)
    if op == "prod":
        x = (x % 3 + 1).astype(dtype) if dtype.startswith("float") else x
    for exclusive in (False, True):
        got = backend.numpy(scankit.scan(backend.asarray(x), op, axis=-1, exclusive=exclusive))
        want = reference(x, op, axis=-1, exclusive=exclusive)
        if op == "prod" and dtype.startswith("float"):
            with np.errstate(over="ignore"):
                np.testing.assert_allclose(got, want, rtol=1e-4)
        else:
            check(got, want)


@pytest.mark.parametrize("op", ["sum", "max", "xor"])
@pytest.mark.parametrize("n", [1, 2, 4097, 65537])
def test_exclusive_and_initial(backend, rng, op, n):
    x = random_array(rng, n, "int64")
    for exclusive in (False, True):
        for initial in (None, 7):
            got = scankit.scan(backend.asarray(x), op, exclusive=exclusive, initial=initial)
            check(backend.numpy(got), reference(x, op, exclusive=exclusive, initial=initial))


@pytest.mark.parametrize("dtype,result", [("bool", "int64"), ("int8", "int64"), ("int16", "int64"),
                                          ("uint8", "uint64"), ("uint16", "uint64")])
def test_small_types_widen_like_numpy(backend, rng, dtype, result):
    x = random_array(rng, 1000, dtype)
    got = backend.numpy(scankit.cumsum(backend.asarray(x)))
    assert got.dtype == np.dtype(result)
    np.testing.assert_array_equal(got, np.cumsum(x))
    mx = backend.numpy(scankit.cummax(backend.asarray(x)))
    assert mx.dtype == x.dtype
    np.testing.assert_array_equal(mx, np.maximum.accumulate(x))


@pytest.mark.parametrize("dtype,result", [("int32", "int32"), ("uint64", "uint64"), ("float32", "float32"),
                                          ("float64", "float64"), ("int16", "int64")])
def test_numpy_inputs_of_the_other_byte_order(rng, dtype, result):
    # NumPy arrays of the other byte order are read as the values they hold (converted): the
    # result is in the machine's order, and an out= of the other order gets the values.
    swapped = np.dtype(dtype).newbyteorder("S")
    x = random_array(rng, 4097, dtype).astype(swapped)
    assert not x.dtype.isnative
    plain = x.astype(dtype)
    check(scankit.cumsum(x), reference(plain, "sum", dtype=result))
    check(scankit.cummax(x, exclusive=True), reference(plain, "max", exclusive=True))
    m = x[:4096].reshape(16, 256)
    check(scankit.cumsum(m, axis=0), reference(plain[:4096].reshape(16, 256), "sum", axis=0, dtype=result))
    out = np.zeros(4097, np.dtype(result).newbyteorder("S"))
    assert scankit.cumsum(x, out=out) is out
    check(out.astype(result), reference(plain, "sum", dtype=result))


@pytest.mark.parametrize("dtype", NATIVE)
def test_numpy_one_dimensional_inputs_the_short_path_passes_on(rng, dtype):
    # The short path of 1-D contiguous NumPy arrays leaves these to the general one.
    x = random_array(rng, 1031, dtype)
    frozen = x.copy()
    frozen.flags.writeable = False
    check(scankit.cumsum(frozen), reference(x, "sum"))
    check(scankit.cumsum(x[::3]), reference(x[::3], "sum"))
    check(scankit.cumsum(x[5]), reference(x[5:6], "sum"))
    check(scankit.cumsum(list(x[:7])), reference(np.asarray(list(x[:7])), "sum"))
    check(scankit.scan(x, "min", exclusive=True), reference(x, "min", exclusive=True))
    if np.dtype(dtype).kind == "f":
        with pytest.raises(TypeError, match="integer"):
            scankit.scan(x, "xor")
    else:
        check(scankit.scan(x, "xor"), reference(x, "xor"))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "uint8", "uint16"])
@pytest.mark.parametrize("op", ["min", "max"])
def test_exclusive_min_max_of_small_types_start_at_their_own_identity(backend, rng, dtype, op):
    # Scanned in a wider type and returned in their own: the first item is int8's -128 for
    # max, not the wider type's smallest value converted.
    x = random_array(rng, 1000, dtype)
    for a, axis in ((x, None), (x.reshape(40, 25), 0), (x.reshape(40, 25), 1)):
        got = backend.numpy(scankit.scan(backend.asarray(a), op, axis=axis, exclusive=True))
        assert got.dtype == x.dtype
        # bool's identities as uint8's, converted (False for max, True for min)
        plain = a.astype(np.uint8) if dtype == "bool" else a
        np.testing.assert_array_equal(got, reference(plain, op, axis=axis, exclusive=True).astype(a.dtype))


def test_float16_accumulates_in_float32(backend, rng):
    x = random_array(rng, 5000, "float16")
    got = backend.numpy(scankit.cumsum(backend.asarray(x)))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, np.cumsum(x.astype(np.float32)).astype(np.float16))


def test_dtype_argument(backend, rng):
    x = random_array(rng, 3000, "int32")
    got = backend.numpy(scankit.cumsum(backend.asarray(x), dtype=np.int64))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, np.cumsum(x, dtype=np.int64))


SHAPES_AXES = [
    ((5, 7, 3), 0), ((5, 7, 3), 1), ((5, 7, 3), 2), ((5, 7, 3), -1),
    ((1000, 2), 0), ((2, 1000), 1), ((2, 1000), 0), ((3, 100, 40), 1), ((4, 3, 33), 2), ((4, 300, 33), 1),
    ((1, 1, 1), 1), ((0, 4), 0), ((4, 0), 1), ((3, 1), 1), ((64, 64), 0), ((70000, 3), 0), ((3, 70000), 1),
    ((8, 1500, 7), 1), ((2, 5000, 31), 1), ((2, 5000, 32), 1), ((2, 300, 65), 1), ((300, 5, 2), 0),
    ((200000, 2), 0),
    # along the last axis: rows of 1, 5, 255-257 and 2,048 items, several to a GPU work item,
    # and rows of 2,049 or more items, cut into chunks
    ((3000, 1), 1), ((1200, 5), -1), ((600, 255), 1), ((300, 256), 1), ((300, 257), 1),
    ((40, 2048), 1), ((9, 2049), 1), ((20, 9973), 1),
    # lines of 2 or 4 interleaved columns: whole planes to a work item, and chunks of long lines
    ((3, 500, 2), 1), ((1000, 3, 4), 1), ((70000, 4), 0), ((5, 9001, 2), 1),
]


@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@pytest.mark.parametrize("dtype", ["int32", "float64", "uint64"])
def test_axes(backend, rng, shape, axis, dtype):
    x = random_array(rng, int(np.prod(shape)), dtype).reshape(shape)
    before = x.copy()
    xb = backend.asarray(x)
    check(backend.numpy(scankit.cumsum(xb, axis=axis)), reference(x, "sum", axis=axis))
    check(backend.numpy(scankit.cummin(xb, axis=axis)), reference(x, "min", axis=axis))
    check(backend.numpy(scankit.scan(xb, "sum", axis=axis, exclusive=True, initial=3)),
          reference(x, "sum", axis=axis, exclusive=True, initial=3))
    np.testing.assert_array_equal(backend.numpy(xb), before)


def test_axis_scans_of_views_one_item_in(backend, rng):
    """Contiguous views that start one item into their buffer: their rows of 2 or 4 columns are
    not aligned to a whole row (on the GPU the narrow kernel scans them)."""
    for shape, axis in (((5000, 2), 0), ((3000, 4), 0), ((4, 600, 2), 1), ((700, 3, 4), 1)):
        x = random_array(rng, int(np.prod(shape)) + 1, "int32")
        view = backend.asarray(x)[1:].reshape(shape)
        want = reference(x[1:].reshape(shape), "sum", axis=axis)
        check(backend.numpy(scankit.cumsum(view, axis=axis)), want)


def test_axis_none_flattens(backend, rng):
    x = random_array(rng, 60, "int64").reshape(3, 4, 5)
    got = backend.numpy(scankit.cumsum(backend.asarray(x)))
    np.testing.assert_array_equal(got, np.cumsum(x))


@pytest.mark.parametrize("n", [0, 1, 3, 4097])
def test_strided_inputs(backend, rng, n):
    x = random_array(rng, 2 * n * 3, "int32").reshape(2 * n, 3)
    xb = backend.asarray(x)
    strided = xb[::2]
    check(backend.numpy(scankit.cumsum(strided, axis=0)), reference(x[::2], "sum", axis=0))
    t = xb.T if hasattr(xb, "T") else xb.t()
    check(backend.numpy(scankit.cumsum(t, axis=1)), reference(x.T, "sum", axis=1))


def test_small_gpu_calls_after_the_kept_workspace_grows(gpu_backend, rng):
    """1-D GPU scans remember, per (dtype, device, stream, length), the kept workspace's address:
    a call whose workspace outgrows the kept buffer replaces it, and the shapes seen before it
    must not go on using the freed one."""
    from scankit import _capi

    code = _capi.DTYPE_CODES["int32"]  # the arrays live on GPU 0
    big = next(1 << k for k in range(12, 30)
               if _capi.workspace_bytes("scan", 0, code, 1, 1 << k, 1, b"") > (64 << 10))
    for n in (5000, big, 5000, 3, 2 * big, 5000, 3):
        x = random_array(rng, n, "int32")
        xb = gpu_backend.asarray(x)
        check(gpu_backend.numpy(scankit.cumsum(xb)), reference(x, "sum"))
        check(gpu_backend.numpy(scankit.scan(xb, "max", exclusive=True)), reference(x, "max", exclusive=True))
    f = gpu_backend.asarray(random_array(rng, 5000, "float32"))
    scankit.cumsum(f)
    with pytest.raises(TypeError):
        scankit.scan(f, "xor")


def test_out_and_in_place(backend, rng):
    x = random_array(rng, 5000, "int64")
    xb = backend.asarray(x)
    out = backend.asarray(np.zeros_like(x))
    res = scankit.cumsum(xb, out=out)
    np.testing.assert_array_equal(backend.numpy(out), np.cumsum(x))
    assert res is out
    scankit.cumsum(xb, out=xb)
    np.testing.assert_array_equal(backend.numpy(xb), np.cumsum(x))
    m = random_array(rng, 600, "int32").reshape(20, 30)
    mb = backend.asarray(m)
    scankit.cumsum(mb, axis=0, out=mb)
    np.testing.assert_array_equal(backend.numpy(mb), np.cumsum(m, axis=0, dtype=np.int32))
    for shape in ((300, 257), (3, 70001)):  # rows several to a work item; rows cut into chunks
        m = random_array(rng, int(np.prod(shape)), "int32").reshape(shape)
        mb = backend.asarray(m)
        scankit.scan(mb, "sum", axis=1, exclusive=True, out=mb)
        np.testing.assert_array_equal(backend.numpy(mb), reference(m, "sum", axis=1, exclusive=True))


def test_every_algorithm(backend, rng):
    names = scankit.algorithms("scan")
    usable = [a for a in names if a.startswith("cpu-") != backend.gpu]
    assert usable
    x = random_array(rng, 70001, "int32")
    m = random_array(rng, 3 * 500 * 4, "int32").reshape(3, 500, 4)
    for alg in usable:
        check(backend.numpy(scankit.cumsum(backend.asarray(x), algorithm=alg)), reference(x, "sum"))
        check(backend.numpy(scankit.cumsum(backend.asarray(x), algorithm=alg, exclusive=True)),
              reference(x, "sum", exclusive=True))
        check(backend.numpy(scankit.cumsum(backend.asarray(m), axis=1, algorithm=alg)), reference(m, "sum", axis=1))


@pytest.mark.parametrize("n", SMALL_SIZES)
def test_float_sums_close_to_sequential(backend, rng, n):
    x = rng.random(n).astype(np.float32)
    got = backend.numpy(scankit.cumsum(backend.asarray(x)))
    np.testing.assert_allclose(got, np.cumsum(x, dtype=np.float64), rtol=1e-4, atol=1e-3)


def test_integer_sums_wrap(backend):
    x = np.array([2**31 - 1, 1, 1], dtype=np.int32)
    np.testing.assert_array_equal(backend.numpy(scankit.cumsum(backend.asarray(x))),
                                  np.array([2**31 - 1, -(2**31), -(2**31) + 1], dtype=np.int32))


@pytest.mark.parametrize("op", ["sum", "max", "xor"])
@pytest.mark.parametrize("exclusive", [False, True])
def test_one_dimensional_calls_take_every_axis_spelling(backend, rng, op, exclusive):
    # 1-D contiguous inputs with nothing else asked for take a short path: every spelling of
    # the axis gives the general path's result, and the general path's errors stay.
    x = random_array(rng, 1000, "int32")
    want = reference(x, op, exclusive=exclusive)
    for axis in (None, 0, -1, np.int64(0)):
        check(backend.numpy(scankit.scan(backend.asarray(x), op, axis=axis, exclusive=exclusive)), want)
    with pytest.raises(TypeError):
        scankit.cumsum(backend.asarray(x), axis=0.0)
    with pytest.raises(ValueError):
        scankit.cumsum(backend.asarray(x), axis=1)
    with pytest.raises(TypeError):
        scankit.scan(backend.asarray(x.astype(np.float32)), "xor")
