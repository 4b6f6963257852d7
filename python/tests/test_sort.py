import numpy as np
import pytest

import scankit
from conftest import SIZES, SMALL_SIZES, random_array

KEY_TYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
             "float32", "float64"]


def ordered(x):
    """The unsigned 'ordered bits' scankit sorts by: IEEE total order for floats, NaNs last."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.view(np.uint8)
    bits = x.dtype.itemsize * 8
    u = np.dtype(f"uint{bits}")
    b = x.view(u)
    sign = u.type(1 << (bits - 1))
    if x.dtype.kind == "u":
        return b
    if x.dtype.kind == "i":
        return b ^ sign
    mant = {16: 10, 32: 23, 64: 52}[bits]
    t = np.where(b & sign, ~b, b | sign).astype(u)
    with np.errstate(over="ignore"):
        return (t - u.type((1 << mant) - 1)).astype(u)


def reference_argsort(x, descending=False):
    o = ordered(x)
    return np.argsort(~o if descending else o, kind="stable")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["int32", "float32", "uint64"])
def test_sort_sizes(backend, rng, n, dtype):
    x = random_array(rng, n, dtype)
    before = x.copy()
    xb = backend.asarray(x)
    np.testing.assert_array_equal(backend.numpy(scankit.sort(xb)), np.sort(x, kind="stable"))
    np.testing.assert_array_equal(backend.numpy(scankit.argsort(xb)), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(backend.numpy(xb), before)


@pytest.mark.parametrize("dtype", KEY_TYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 1000, 70001])
@pytest.mark.parametrize("descending", [False, True])
def test_every_key_type(backend, rng, dtype, n, descending):
    x = random_array(rng, n, dtype)
    if dtype.startswith("float") and n >= 8:
        x[:8] = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -1.5], dtype=dtype)
        rng.shuffle(x)
    p = reference_argsort(x, descending)
    got_keys = backend.numpy(scankit.sort(backend.asarray(x), descending=descending))
    assert got_keys.dtype == x.dtype
    u = ordered(x).dtype
    np.testing.assert_array_equal(got_keys.view(u), x[p].view(u))
    np.testing.assert_array_equal(backend.numpy(scankit.argsort(backend.asarray(x), descending=descending)), p)


def test_bfloat16_keys(rng):
    torch = pytest.importorskip("torch")
    devices = ["cpu"] + (["cuda"] if scankit.device_count() > 0 and torch.cuda.is_available() else [])
    for device in devices:
        x = torch.tensor(rng.integers(-50, 50, 10000), dtype=torch.bfloat16, device=device)
        x[:4] = torch.tensor([float("nan"), float("inf"), -float("inf"), -0.0])
        got = scankit.sort(x)
        want, _ = torch.sort(x.float().cpu(), stable=True)
        assert torch.equal(got.float().cpu()[:-1], want[:-1])  # NaN last in both
        assert torch.isnan(got[-1])


@pytest.mark.parametrize("shape,axis", [((3, 50), -1), ((3, 50), 0), ((4, 5, 6), 1), ((2, 0), 1), ((100, 3), None),
                                        ((1000, 7), -1), ((7, 1000), 0), ((1, 5), 0)])
def test_sort_along_axes(backend, rng, shape, axis):
    x = random_array(rng, int(np.prod(shape)), "int32").reshape(shape)
    xb = backend.asarray(x)
    np.testing.assert_array_equal(backend.numpy(scankit.sort(xb, axis=axis)), np.sort(x, axis=axis, kind="stable"))
    np.testing.assert_array_equal(backend.numpy(scankit.argsort(xb, axis=axis)),
                                  np.argsort(x, axis=axis, kind="stable"))
    k, i = scankit.sort(xb, axis=axis, return_indices=True)
    np.testing.assert_array_equal(backend.numpy(i), np.argsort(x, axis=axis, kind="stable"))
    np.testing.assert_array_equal(backend.numpy(k), np.sort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", KEY_TYPES)
@pytest.mark.parametrize("shape,axis", [((5, 3001), -1), ((4100, 2), 0), ((64, 256), -1), ((3, 2048), 1)])
@pytest.mark.parametrize("descending", [False, True])
def test_every_key_type_along_an_axis(backend, rng, dtype, shape, axis, descending):
    # Lines longer than the GPU segmented sort's 2,048-key pieces go through its merge rounds.
    x = random_array(rng, int(np.prod(shape)), dtype)
    if dtype.startswith("float"):
        x[:8] = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -1.5], dtype=dtype)
        rng.shuffle(x)
    x = x.reshape(shape)
    lines = np.moveaxis(x, axis, -1).reshape(-1, shape[axis])
    want_i = np.stack([reference_argsort(line, descending) for line in lines])
    want_k = np.take_along_axis(lines, want_i, axis=-1)
    k, i = scankit.sort(backend.asarray(x), axis=axis, descending=descending, return_indices=True)
    u = ordered(x).dtype
    got_k = np.moveaxis(backend.numpy(k), axis, -1).reshape(lines.shape)
    got_i = np.moveaxis(backend.numpy(i), axis, -1).reshape(lines.shape)
    np.testing.assert_array_equal(got_i, want_i)
    np.testing.assert_array_equal(got_k.view(u), want_k.view(u))


@pytest.mark.parametrize("n", SMALL_SIZES)
@pytest.mark.parametrize("vdtype,vshape", [("int32", ()), ("float64", ()), ("complex128", ()), ("float16", ()),
                                           ("int8", (3,)), ("int32", (2,)), ("bool", ())])
def test_sort_by_key(backend, rng, n, vdtype, vshape):
    keys = random_array(rng, n, "int64")
    values = random_array(rng, n * int(np.prod(vshape)), vdtype).reshape((n,) + vshape)
    k0, v0 = keys.copy(), values.copy()
    kb, vb = backend.asarray(keys), backend.asarray(values)
    sk, sv = scankit.sort_by_key(kb, vb, descending=False)
    p = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(backend.numpy(sk), keys[p])
    np.testing.assert_array_equal(backend.numpy(sv), values[p])
    np.testing.assert_array_equal(backend.numpy(kb), k0)
    np.testing.assert_array_equal(backend.numpy(vb), v0)


def test_every_algorithm(backend, rng):
    usable = [a for a in scankit.algorithms("sort") if a.startswith("cpu-") != backend.gpu]
    x = random_array(rng, 50001, "int32")
    for alg in usable:
        np.testing.assert_array_equal(backend.numpy(scankit.sort(backend.asarray(x), algorithm=alg)), np.sort(x))
        np.testing.assert_array_equal(backend.numpy(scankit.argsort(backend.asarray(x), algorithm=alg)),
                                      np.argsort(x, kind="stable"))


def test_strided_keys(backend, rng):
    x = random_array(rng, 20000, "float32").reshape(100, 200)
    xb = backend.asarray(x)
    col = xb[:, 3]
    np.testing.assert_array_equal(backend.numpy(scankit.sort(col)), np.sort(x[:, 3]))


@pytest.mark.parametrize("dtype", ["int32", "uint64", "float32", "int16"])
def test_numpy_keys_of_the_other_byte_order(rng, dtype):
    # Read as the values they hold (converted); the results are in the machine's byte order.
    k = random_array(rng, 10007, dtype).astype(np.dtype(dtype).newbyteorder("S"))
    v = random_array(rng, 10007, "float64").astype(np.dtype("float64").newbyteorder("S"))
    order = np.argsort(k, kind="stable")
    np.testing.assert_array_equal(scankit.sort(k), np.sort(k))
    np.testing.assert_array_equal(scankit.argsort(k), order)
    sk, sv = scankit.sort_by_key(k, v)
    np.testing.assert_array_equal(sk, k[order])
    np.testing.assert_array_equal(sv, v[order])
    u, c = scankit.unique(k, return_counts=True)
    wu, wc = np.unique(k, return_counts=True)
    np.testing.assert_array_equal(u, wu)
    np.testing.assert_array_equal(c, wc)


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint64", "float64"])
def test_numpy_sort_above_the_hybrids_threshold(rng, dtype):
    # From 16 MiB the CPU sort runs MSD-first; keys alone of 4 or 8 bytes have their buckets
    # sorted by a quicksort (scankit/cpu/sort.hpp), against NumPy's order of the ordered bits.
    n = (16 << 20) // np.dtype(dtype).itemsize + 4097
    x = random_array(rng, n, dtype)
    if dtype.startswith("float"):
        at = rng.choice(n, size=64, replace=False)
        x[at] = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -1.5], dtype=dtype)[np.arange(64) % 8]
    for descending in (False, True):
        want = np.sort(ordered(x))
        if descending:
            want = want[::-1]
        got = scankit.sort(x, descending=descending)
        np.testing.assert_array_equal(ordered(got), want)
