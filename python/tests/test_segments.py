"""segment_reduce, segment_csr, segmented_scan, scan_by_key and reduce_by_key against plain
NumPy/Python loops, on every backend the conftest offers (and torch.segment_reduce where PyTorch
is importable)."""

import numpy as np
import pytest

import scankit
from conftest import random_array

NATIVE = ["int32", "int64", "uint32", "uint64", "float32", "float64"]
OPS = ["sum", "prod", "min", "max"]
UFUNC = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum}


def identity(op, dtype):
    dtype = np.dtype(dtype)
    if op in ("min", "max"):
        if dtype.kind == "f":
            return np.inf if op == "min" else -np.inf
        info = np.iinfo(dtype)
        return info.max if op == "min" else info.min
    return {"sum": 0, "prod": 1}[op]


def fold(items, op, dtype, start=None):
    """op over items, left to right, in dtype (integers wrap); None for no items and no start."""
    acc = None if start is None else np.array(start).astype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for v in items:
            acc = v if acc is None else UFUNC[op](acc, v, dtype=dtype)
    return acc


def segment_reduce_ref(x, offsets, reduce, initial=None, empty=None):
    """torch.segment_reduce's rules: initial starts every segment; an empty segment gets empty,
    else initial, else the identity (mean: NaN, 0 for integers); mean divides by the length."""
    dtype = x.dtype
    op = "sum" if reduce == "mean" else reduce
    out = []
    for s in range(len(offsets) - 1):
        items = x[offsets[s]:offsets[s + 1]]
        if len(items) == 0:
            if empty is not None:
                v = empty
            elif initial is not None:
                v = initial
            elif reduce == "mean":
                v = np.nan if dtype.kind == "f" else 0
            else:
                v = identity(op, dtype)
            out.append(np.array(v).astype(dtype))
            continue
        v = fold(items, op, dtype, initial)
        if reduce == "mean":
            v = (v / dtype.type(len(items))).astype(dtype) if dtype.kind == "f" else dtype.type(int(v) // len(items)) \
                if int(v) >= 0 else dtype.type(-(-int(v) // len(items)))
        out.append(np.array(v).astype(dtype))
    return np.array(out, dtype=dtype)


def random_lengths(rng, k, n_max=9, empty_share=0.3):
    lengths = rng.integers(1, n_max, k)
    lengths[rng.random(k) < empty_share] = 0
    return lengths.astype(np.int64)


def values(rng, n, dtype, op):
    x = random_array(rng, n, dtype)
    if op == "prod":
        x = (x % 3).astype(dtype) if np.dtype(dtype).kind == "u" else np.clip(x, -2, 2).astype(dtype)
    return x


def check_close(got, want, dtype):
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", NATIVE)
@pytest.mark.parametrize("reduce", OPS + ["mean"])
@pytest.mark.parametrize("k", [0, 1, 5, 300])
def test_segment_reduce_by_lengths_and_offsets(backend, rng, dtype, reduce, k):
    lengths = random_lengths(rng, k)
    n = int(lengths.sum())
    xn = values(rng, n, dtype, reduce)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    want = segment_reduce_ref(xn, offsets, reduce)
    x = backend.asarray(xn)
    by_len = scankit.segment_reduce(x, reduce, lengths=backend.asarray(lengths))
    by_off = scankit.segment_reduce(x, reduce, offsets=backend.asarray(offsets))
    by_off32 = scankit.segment_reduce(x, reduce, offsets=backend.asarray(offsets.astype(np.int32)))
    for r in (by_len, by_off, by_off32):
        assert type(r) is type(x)
        got = backend.numpy(r)
        assert got.dtype == np.dtype(dtype) and got.shape == (k,)
        check_close(got, want, dtype)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
@pytest.mark.parametrize("reduce", OPS + ["mean"])
def test_segment_reduce_initial_as_torch(backend, rng, dtype, reduce):
    lengths = np.array([3, 0, 1, 4, 0, 2], np.int64)
    xn = values(rng, int(lengths.sum()), dtype, reduce)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    got = backend.numpy(scankit.segment_reduce(backend.asarray(xn), reduce, lengths=backend.asarray(lengths),
                                               initial=2))
    check_close(got, segment_reduce_ref(xn, offsets, reduce, initial=2), dtype)


def test_mean_of_empty_segments():
    x = np.array([1.0, 3.0], np.float32)
    r = scankit.segment_reduce(x, "mean", lengths=np.array([0, 2, 0]))
    assert np.isnan(r[0]) and r[1] == 2.0 and np.isnan(r[2])
    r = scankit.segment_reduce(np.array([1, 4], np.int64), "mean", lengths=np.array([0, 2]))
    np.testing.assert_array_equal(r, [0, 2])
    r = scankit.segment_reduce(x, "mean", lengths=np.array([0, 2]), initial=1.0)
    np.testing.assert_array_equal(r, [1.0, 2.5])  # torch: (initial + sum) / length


def test_amax_amin_names_and_large(rng):
    lengths = random_lengths(rng, 20000, 40)
    xn = rng.standard_normal(int(lengths.sum()))
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    for name, op in (("amax", "max"), ("amin", "min")):
        np.testing.assert_array_equal(scankit.segment_reduce(xn, name, lengths=lengths),
                                      segment_reduce_ref(xn, offsets, op))


@pytest.mark.parametrize("reduce", ["sum", "mean", "min", "max", "mul"])
def test_segment_csr_as_torch_scatter(backend, rng, reduce):
    xn = rng.integers(-9, 9, 40).astype(np.float32)
    indptr = np.array([2, 2, 7, 7, 20, 21, 21], np.int64)  # need not start at 0 nor end at n
    want = segment_reduce_ref(xn, indptr, {"mul": "prod"}.get(reduce, reduce), empty=0)
    got = backend.numpy(scankit.segment_csr(backend.asarray(xn), backend.asarray(indptr), reduce))
    check_close(got, want, "float32")


def test_bad_segments_raise_and_leave_inputs_untouched(backend):
    xn = np.arange(10, dtype=np.float64)
    x = backend.asarray(xn)
    cases = [dict(lengths=np.array([3, 3])),  # do not add up to 10
             dict(lengths=np.array([12, -2])),
             dict(offsets=np.array([0, 5, 4, 10])),
             dict(offsets=np.array([0, 5, 11])),
             dict(offsets=np.array([1, 5, 10])),
             dict(offsets=np.array([], np.int64))]
    for kw in cases:
        kw = {k: backend.asarray(v) for k, v in kw.items()}
        before = {k: backend.numpy(v).copy() for k, v in kw.items()}
        with pytest.raises(ValueError):
            scankit.segment_reduce(x, "sum", **kw)
        for k, v in kw.items():
            np.testing.assert_array_equal(backend.numpy(v), before[k])
    np.testing.assert_array_equal(backend.numpy(x), xn)
    with pytest.raises(ValueError, match="exactly one"):
        scankit.segment_reduce(x, "sum")
    with pytest.raises(ValueError, match="exactly one"):
        scankit.segment_reduce(x, "sum", lengths=backend.asarray(np.array([10])),
                               offsets=backend.asarray(np.array([0, 10])))
    with pytest.raises(ValueError, match="unknown"):
        scankit.segment_reduce(x, "median", lengths=backend.asarray(np.array([10])))
    with pytest.raises(ValueError, match="1-D"):
        scankit.segment_reduce(backend.asarray(np.ones((2, 5))), "sum", lengths=backend.asarray(np.array([10])))
    with pytest.raises(TypeError):
        scankit.segment_reduce(x, "sum", lengths=backend.asarray(np.array([5.0, 5.0])))
    with pytest.raises(ValueError):
        scankit.segment_csr(x, backend.asarray(np.array([0, 11])))


def test_unsupported_types():
    with pytest.raises(TypeError):
        scankit.segment_reduce(np.ones(4, np.int8), "sum", lengths=np.array([4]))
    with pytest.raises(TypeError):
        scankit.segmented_scan(np.ones(4, np.float32), flags=np.ones(4, np.int32))
    with pytest.raises(TypeError):
        scankit.scan_by_key(np.ones(4, np.complex64), np.ones(4, np.float32))


def test_zero_segments_and_empty_data(backend):
    x = backend.asarray(np.array([], np.float32))
    none = backend.asarray(np.array([], np.int64))
    assert backend.numpy(scankit.segment_reduce(x, "sum", lengths=none)).shape == (0,)
    assert backend.numpy(scankit.segment_reduce(x, "sum", offsets=backend.asarray(np.array([0])))).shape == (0,)
    r = backend.numpy(scankit.segment_reduce(x, "max", lengths=backend.asarray(np.array([0, 0]))))
    np.testing.assert_array_equal(r, [-np.inf, -np.inf])
    assert backend.numpy(scankit.segmented_scan(x, lengths=backend.asarray(np.array([], np.int64)))).shape == (0,)
    u, v = scankit.reduce_by_key(backend.asarray(np.array([], np.int32)), x)
    assert backend.numpy(u).shape == (0,) and backend.numpy(v).shape == (0,)


def segmented_scan_ref(x, heads, op, exclusive, initial=None):
    dtype = x.dtype
    first = np.array(identity(op, dtype) if initial is None else initial).astype(dtype)
    out = np.empty_like(x)
    acc = first
    with np.errstate(over="ignore", invalid="ignore"):
        for i, v in enumerate(x):
            if i == 0 or heads[i]:
                acc = first
            if exclusive:
                out[i] = acc
                acc = UFUNC[op](acc, v, dtype=dtype)
            else:
                acc = UFUNC[op](acc, v, dtype=dtype)
                out[i] = acc
    return out


@pytest.mark.parametrize("dtype", NATIVE)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("exclusive", [False, True])
def test_segmented_scan(backend, rng, dtype, op, exclusive):
    lengths = random_lengths(rng, 60)
    n = int(lengths.sum())
    xn = values(rng, n, dtype, op)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    heads = np.zeros(n, bool)
    heads[offsets[:-1][lengths > 0]] = True
    want = segmented_scan_ref(xn, heads, op, exclusive)
    x = backend.asarray(xn)
    for kw in (dict(lengths=lengths), dict(offsets=offsets), dict(offsets=offsets.astype(np.int32)),
               dict(flags=heads), dict(flags=heads.astype(np.uint8))):
        kw = {k: backend.asarray(v) for k, v in kw.items()}
        got = backend.numpy(scankit.segmented_scan(x, op, exclusive=exclusive, **kw))
        check_close(got, want, dtype)
    got = backend.numpy(scankit.segmented_scan(x, op, flags=backend.asarray(heads), exclusive=exclusive,
                                               initial=1))
    check_close(got, segmented_scan_ref(xn, heads, op, exclusive, initial=1), dtype)


def test_segmented_scan_errors(backend):
    x = backend.asarray(np.arange(6, dtype=np.int64))
    with pytest.raises(ValueError, match="exactly one"):
        scankit.segmented_scan(x)
    with pytest.raises(ValueError):
        scankit.segmented_scan(x, lengths=backend.asarray(np.array([2, 2])))  # does not cover
    with pytest.raises(ValueError):
        scankit.segmented_scan(x, flags=backend.asarray(np.ones(5, bool)))
    with pytest.raises(ValueError, match="unknown"):
        scankit.segmented_scan(x, "xor", flags=backend.asarray(np.ones(6, bool)))


def runs_of(rng, n, dtype):
    """Keys in runs (a run's key may come back later)."""
    return (np.cumsum(rng.random(n) < 0.3) % (2 if dtype == "bool" else 5)).astype(dtype)


@pytest.mark.parametrize("kdtype", ["int32", "uint32", "float32", "int64", "uint64", "float64", "int8", "uint16",
                                    "bool"])
@pytest.mark.parametrize("vdtype", NATIVE)
def test_by_key(backend, rng, kdtype, vdtype):
    if backend.name.startswith("torch") and kdtype in ("uint16",):
        return
    n = 500
    keys = runs_of(rng, n, kdtype)
    xn = values(rng, n, vdtype, "sum")
    heads = np.ones(n, bool)
    heads[1:] = keys[1:] != keys[:-1]
    kx, x = backend.asarray(keys), backend.asarray(xn)
    for op in OPS:
        v = values(rng, n, vdtype, op)
        vx = backend.asarray(v)
        for exclusive in (False, True):
            got = backend.numpy(scankit.scan_by_key(kx, vx, op, exclusive))
            check_close(got, segmented_scan_ref(v, heads, op, exclusive), vdtype)
        u, agg = scankit.reduce_by_key(kx, vx, op)
        starts = np.flatnonzero(heads)
        np.testing.assert_array_equal(backend.numpy(u), keys[starts])
        assert backend.numpy(u).dtype == np.dtype(kdtype)
        want = [fold(v[a:b], op, v.dtype) for a, b in zip(starts, list(starts[1:]) + [n])]
        check_close(backend.numpy(agg), np.array(want, dtype=vdtype), vdtype)
    del x


def test_float_keys_compare_by_bits():
    keys = np.array([0.0, -0.0, np.nan, np.nan, 1.0], np.float32)
    u, s = scankit.reduce_by_key(keys, np.ones(5, np.int32))
    assert u.tobytes() == keys[[0, 1, 2, 4]].tobytes()
    np.testing.assert_array_equal(s, [1, 1, 2, 1])


def test_by_key_errors():
    with pytest.raises(ValueError):
        scankit.reduce_by_key(np.ones(4, np.int32), np.ones(5, np.float32))
    with pytest.raises(ValueError, match="unknown"):
        scankit.scan_by_key(np.ones(4, np.int32), np.ones(4, np.float32), "and")


@pytest.mark.parametrize("reduce", ["sum", "prod", "max", "min", "mean"])
def test_matches_torch_segment_reduce(rng, reduce):
    torch = pytest.importorskip("torch")
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() and scankit.device_count() > 0 else [])
    lengths = random_lengths(rng, 200)
    xn = rng.standard_normal(int(lengths.sum()))
    for dev in devices:
        x, ln = torch.from_numpy(xn).to(dev), torch.from_numpy(lengths).to(dev)
        for initial in (None, 0.5):
            want = torch.segment_reduce(x, reduce, lengths=ln, initial=initial).cpu().numpy()
            got = scankit.segment_reduce(x, reduce, lengths=ln, initial=initial).cpu().numpy()
            np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def _big_segments(rng):
    """Many short segments, empty ones and a few long ones (spanning many GPU tiles)."""
    lengths = random_lengths(rng, 40000, 60)
    lengths[::8000] = 300000
    n = int(lengths.sum())
    xn = rng.integers(-50, 50, n).astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    cs = np.concatenate([[0], np.cumsum(xn)])
    sums = cs[offsets[1:]] - cs[offsets[:-1]]
    seg_of = np.repeat(np.arange(len(lengths)), lengths)
    scans = cs[1:] - cs[offsets[:-1][seg_of]]
    return xn, lengths, offsets, sums, scans


def test_large_against_vectorized_references(backend, rng):
    xn, lengths, offsets, sums, scans = _big_segments(rng)
    x, ln = backend.asarray(xn), backend.asarray(lengths)
    for unsafe in (False, True):
        np.testing.assert_array_equal(backend.numpy(scankit.segment_reduce(x, "sum", lengths=ln, unsafe=unsafe)),
                                      sums)
        np.testing.assert_array_equal(backend.numpy(scankit.segmented_scan(x, lengths=ln, unsafe=unsafe)), scans)
    heads = np.zeros(len(xn), bool)
    heads[offsets[:-1][lengths > 0]] = True
    np.testing.assert_array_equal(backend.numpy(scankit.segmented_scan(x, flags=backend.asarray(heads))), scans)
    keys = np.repeat(np.arange(len(lengths)) % 3, lengths).astype(np.int32)  # runs of equal keys merge
    u, agg = scankit.reduce_by_key(backend.asarray(keys), x)
    starts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
    np.testing.assert_array_equal(backend.numpy(u), keys[starts])
    np.testing.assert_array_equal(backend.numpy(agg), np.add.reduceat(xn, starts))


def test_torch_side_stream_segments(rng):
    torch = pytest.importorskip("torch")
    if scankit.device_count() == 0 or not torch.cuda.is_available():
        pytest.skip("no GPU")
    xn, lengths, offsets, sums, scans = _big_segments(rng)
    x, ln = torch.from_numpy(xn).cuda(), torch.from_numpy(lengths).cuda()
    st = torch.cuda.Stream()
    st.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(st):
        r = scankit.segment_reduce(x, "sum", lengths=ln, unsafe=True)
        s = scankit.segmented_scan(x, offsets=torch.from_numpy(offsets).cuda(), unsafe=True)
        m = scankit.segment_reduce(x.double(), "mean", lengths=ln, unsafe=True)
    st.synchronize()
    np.testing.assert_array_equal(r.cpu().numpy(), sums)
    np.testing.assert_array_equal(s.cpu().numpy(), scans)
    want = torch.segment_reduce(x.double(), "mean", lengths=ln).cpu().numpy()
    np.testing.assert_allclose(m.cpu().numpy(), want, rtol=1e-12, equal_nan=True)


def segment_ids_ref(xn, ids, k, op):
    """jax.ops.segment_<op>: out[s] folds the items whose id is s, in data order; ids outside
    [0, k) are dropped; empty segments get the identity."""
    out = []
    for s in range(k):
        acc = fold(xn[ids == s], op, xn.dtype)
        out.append(np.array(identity(op, xn.dtype) if acc is None else acc).astype(xn.dtype))
    return np.array(out, dtype=xn.dtype)


SEGMENT_ID_FUNCS = {"sum": "segment_sum", "prod": "segment_prod", "max": "segment_max", "min": "segment_min"}


@pytest.mark.parametrize("dtype", NATIVE)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("n", [0, 1, 2, 257, 5000])
def test_segment_ids_as_jax(backend, rng, dtype, op, n):
    k = 37
    xn = values(rng, n, dtype, op)
    ids = rng.integers(-3, k + 3, n)  # some outside [0, k): dropped
    f = getattr(scankit, SEGMENT_ID_FUNCS[op])
    for id_type in ("int64", "int32"):
        unsorted = f(backend.asarray(xn), backend.asarray(ids.astype(id_type)), k)
        order = np.argsort(ids, kind="stable")
        ordered = f(backend.asarray(xn[order]), backend.asarray(ids[order].astype(id_type)), k, indices_are_sorted=True)
        for r in (unsorted, ordered):
            got = backend.numpy(r)
            assert got.dtype == np.dtype(dtype) and got.shape == (k,)
            check_close(got, segment_ids_ref(xn, ids, k, op), dtype)


def test_segment_ids_defaults_and_errors(rng):
    xn = rng.standard_normal(1000)
    ids = rng.integers(0, 50, 1000).astype(np.uint32)
    got = scankit.segment_sum(xn, ids)  # num_segments = max(ids) + 1
    np.testing.assert_allclose(got, segment_ids_ref(xn, ids.astype(np.int64), int(ids.max()) + 1, "sum"), rtol=1e-12)
    np.testing.assert_array_equal(scankit.segment_max(xn, ids, 60)[50:], np.full(10, -np.inf))
    assert scankit.segment_sum(np.zeros(0, np.float32), np.zeros(0, np.int64)).shape == (0,)
    with pytest.raises(TypeError, match="segment_ids must be integers"):
        scankit.segment_sum(xn, ids.astype(np.float64))
    with pytest.raises(ValueError, match="segment_ids for 1000 data items"):
        scankit.segment_sum(xn, ids[:10])
    with pytest.raises(ValueError, match="num_segments must be >= 0"):
        scankit.segment_sum(xn, ids, -1)
    with pytest.raises(ValueError, match="must be 1-D"):
        scankit.segment_sum(xn.reshape(10, 100), ids)
