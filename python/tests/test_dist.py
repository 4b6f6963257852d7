"""scankit.dist on CPU ranks: every rank checks its part of each call against NumPy's result
for the whole (gathered) sequence, which every rank builds from the same seed. Runs under
mpiexec (ctest: python_dist.np1 .. np4); skipped in a process that mpiexec did not start."""

import os

import numpy as np
import pytest

_UNDER_MPI = any(v in os.environ for v in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MV2_COMM_WORLD_SIZE"))
if not _UNDER_MPI:
    pytest.skip("scankit.dist's tests run under mpiexec", allow_module_level=True)
try:
    import scankit.dist as sd

    sd._library()
except ImportError as e:  # a build without MPI
    pytest.skip(str(e), allow_module_level=True)


@pytest.fixture(scope="module")
def comm():
    c = sd.Communicator()
    yield c
    c.close()


def shards(comm, total, seed):
    """The global sequence's cut into comm.size shards of random lengths (empty ones included),
    the same on every rank: [start, stop) of each rank."""
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.integers(0, total + 1, comm.size - 1)) if comm.size > 1 else np.array([], np.int64)
    if total > 3 and comm.size > 2:
        cuts[0] = cuts[1]  # an empty shard in the middle
    bounds = np.concatenate([[0], cuts, [total]]).astype(np.int64)
    return [(int(bounds[r]), int(bounds[r + 1])) for r in range(comm.size)]


def global_array(total, dtype, seed, low=0, high=100):
    rng = np.random.default_rng(seed + 1)
    if np.dtype(dtype).kind == "f":
        return (rng.random(total) * (high - low) + low).astype(dtype)
    return rng.integers(low, high, total).astype(dtype)


SIZES = [0, 1, 2, 7, 1000, 100003]


@pytest.mark.parametrize("total", SIZES)
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64", "float32", "float64"])
def test_cumsum(comm, total, dtype):
    g = global_array(total, dtype, total)
    lo, hi = shards(comm, total, total)[comm.rank]
    got, carry = sd.scan(comm, g[lo:hi], "sum", return_total=True)
    want = np.cumsum(g.astype(np.float64 if np.dtype(dtype).kind == "f" else dtype), dtype=None)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, want[lo:hi], rtol=1e-4, atol=1e-3)
        np.testing.assert_allclose(carry, want[-1] if total else 0, rtol=1e-4, atol=1e-3)
    else:
        np.testing.assert_array_equal(got, want[lo:hi].astype(dtype))
        assert carry == (want[-1] if total else 0)
    assert got.dtype == np.dtype(dtype)


@pytest.mark.parametrize("total", [0, 1, 5, 4097])
def test_exclusive_scans_with_a_carry_in(comm, total):
    g = global_array(total, "int64", 7 * total, -50, 50)
    lo, hi = shards(comm, total, 7 * total)[comm.rank]
    got = sd.scan(comm, g[lo:hi], "max", exclusive=True, initial=-7)
    want = np.maximum.accumulate(np.concatenate([[-7], g]))[:-1]
    np.testing.assert_array_equal(got, want[lo:hi])
    got = sd.cumsum(comm, g[lo:hi], exclusive=True)
    want = np.concatenate([[0], np.cumsum(g)])[:-1]
    np.testing.assert_array_equal(got, want[lo:hi])
    got = sd.scan(comm, g[lo:hi], "xor")
    np.testing.assert_array_equal(got, np.bitwise_xor.accumulate(g)[lo:hi] if total else g[lo:hi])


@pytest.mark.parametrize("total", SIZES)
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "float64"])
def test_select(comm, total, dtype):
    g = global_array(total, dtype, 3 * total)
    lo, hi = shards(comm, total, 3 * total)[comm.rank]
    kept = sd.select(comm, g[lo:hi], greater_than=40)
    want = g[g > 40]
    assert kept.total == len(want)
    np.testing.assert_array_equal(kept.values, want[kept.offset: kept.offset + len(kept.values)])
    np.testing.assert_array_equal(kept.values, g[lo:hi][g[lo:hi] > 40])
    assert kept.offset == np.count_nonzero(g[:lo] > 40)
    nonzero = sd.select(comm, g[lo:hi])
    assert nonzero.total == np.count_nonzero(g)


@pytest.mark.parametrize("total", SIZES)
def test_histogram_and_bincount(comm, total):
    f = global_array(total, "float64", 5 * total, 0, 1)
    lo, hi = shards(comm, total, 5 * total)[comm.rank]
    got = sd.histogram(comm, f[lo:hi], 17, (0.0, 1.0))
    np.testing.assert_array_equal(got, np.histogram(f, 17, (0.0, 1.0))[0])
    assert got.dtype == np.int64
    k = global_array(total, "int32", 5 * total, 0, 60)
    got = sd.bincount(comm, k[lo:hi], 50)
    np.testing.assert_array_equal(got, np.bincount(k, minlength=60)[:50])


def balanced(total, size, rank):
    q, r = divmod(total, size)
    start = q * rank + min(rank, r)
    return start, start + q + (1 if rank < r else 0)


@pytest.mark.parametrize("total", SIZES + [300007])
@pytest.mark.parametrize("dtype", ["int32", "uint64", "float32", "int8"])
def test_sort(comm, total, dtype):
    g = global_array(total, dtype, 11 * total, 0, 120 if dtype == "int8" else 1 << 20)
    if np.dtype(dtype).kind == "f" and total > 10:
        g[::7] = np.nan  # NaNs last
    lo, hi = shards(comm, total, 11 * total)[comm.rank]
    for descending in (False, True):
        got = sd.sort(comm, g[lo:hi], descending=descending)
        want = np.sort(g)
        if descending:
            # IEEE total order reversed: the NaNs first, then the numbers from the largest.
            nan = np.isnan(want) if want.dtype.kind == "f" else np.zeros(len(want), bool)
            want = np.concatenate([want[nan], want[~nan][::-1]])
        b0, b1 = balanced(total, comm.size, comm.rank)
        assert len(got) == b1 - b0
        np.testing.assert_array_equal(got, want[b0:b1])


def test_all_equal_keys_stay_balanced(comm):
    total = 50001
    lo, hi = shards(comm, total, 99)[comm.rank]
    got = sd.sort(comm, np.full(hi - lo, 42, np.int32))
    b0, b1 = balanced(total, comm.size, comm.rank)
    assert len(got) == b1 - b0 and (got == 42).all()


@pytest.mark.parametrize("total", SIZES)
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64", "float32", "float64"])
def test_reductions(comm, total, dtype):
    g = global_array(total, dtype, total + 11, 0, 50)
    lo, hi = shards(comm, total, total + 11)[comm.rank]
    x = g[lo:hi]
    if g.dtype.kind == "f":  # sums associate per block and per rank: within rounding of a double sum
        np.testing.assert_allclose(sd.reduce(comm, x), g.sum(dtype=np.float64), rtol=1e-5)
    else:
        assert sd.reduce(comm, x) == g.sum(dtype=g.dtype)
    if total:
        assert sd.reduce(comm, x, "max") == g.max()
        assert sd.argmin(comm, x) == int(np.argmin(g))
        assert sd.argmax(comm, x) == int(np.argmax(g))
        assert sd.min_max(comm, x) == (g.min(), g.max())
    else:
        with pytest.raises(ValueError):
            sd.argmax(comm, x)


@pytest.mark.parametrize("dtype", ["int8", "uint16"])
def test_extremes_of_small_integers(comm, dtype):
    g = global_array(3001, dtype, 9, 0, 100)
    lo, hi = shards(comm, 3001, 9)[comm.rank]
    assert sd.argmin(comm, g[lo:hi]) == int(np.argmin(g))
    assert sd.argmax(comm, g[lo:hi]) == int(np.argmax(g))
    assert sd.min_max(comm, g[lo:hi]) == (g.min(), g.max())
    with pytest.raises(TypeError):
        sd.reduce(comm, g[lo:hi])  # the monoids take 4- and 8-byte items


def test_argmax_and_min_max_with_nans(comm):
    g = global_array(1001, "float64", 5)
    g[[17, 400, 900]] = np.nan
    lo, hi = shards(comm, 1001, 5)[comm.rank]
    assert sd.argmax(comm, g[lo:hi]) == 17 == int(np.argmax(g))
    assert sd.argmin(comm, g[lo:hi]) == 17
    lo_v, hi_v = sd.min_max(comm, g[lo:hi])
    assert np.isnan(lo_v) and np.isnan(hi_v)


@pytest.mark.parametrize("total", [1, 7, 1000, 100003])
@pytest.mark.parametrize("dtype", ["uint8", "int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("largest", [True, False])
def test_topk(comm, total, dtype, largest):
    g = np.floor(global_array(total, dtype, total + 3, 0, 20)).astype(dtype)  # 20 values: ties across ranks
    lo, hi = shards(comm, total, total + 3)[comm.rank]
    for k in sorted({0, 1, min(total, 5), min(total, 300), total}):
        v, i = sd.topk(comm, g[lo:hi], k, largest=largest)
        order = np.argsort(-g if largest else g, kind="stable") if g.dtype.kind != "u" else (
            np.argsort(g.max() - g if largest else g, kind="stable"))
        np.testing.assert_array_equal(i, order[:k])
        np.testing.assert_array_equal(v, g[order[:k]])
        assert v.dtype == g.dtype and i.dtype == np.int64
    with pytest.raises(ValueError):
        sd.topk(comm, g[lo:hi], total + 1)


def test_bad_input(comm):
    with pytest.raises(TypeError):
        sd.cumsum(comm, np.zeros(4, np.complex64))
    with pytest.raises(TypeError):
        sd.sort(comm, np.zeros(4, bool))
    with pytest.raises(ValueError):
        sd.cumsum(comm, np.zeros((2, 2), np.int32))
    with pytest.raises(ValueError):
        sd.scan(comm, np.zeros(4, np.int32), "mean")
    with pytest.raises(TypeError):
        sd.Communicator(object())
    x = np.arange(10, dtype=np.int32)
    before = x.copy()
    sd.sort(comm, x, descending=True)
    np.testing.assert_array_equal(x, before)


def test_mismatched_calls_fail_on_every_rank(comm):
    if comm.size < 2:
        pytest.skip("needs two ranks")
    x = np.arange(10, dtype=np.int32 if comm.rank == 0 else np.int64)
    with pytest.raises(ValueError):
        sd.cumsum(comm, x)
    # The communicator still works afterwards.
    got = sd.cumsum(comm, np.ones(3, np.int32))
    np.testing.assert_array_equal(got, np.arange(1, 4) + 3 * comm.rank)


def test_an_mpi4py_communicator(comm):
    MPI = pytest.importorskip("mpi4py.MPI")
    with sd.Communicator(MPI.COMM_WORLD) as c:
        assert (c.rank, c.size) == (comm.rank, comm.size)
        np.testing.assert_array_equal(sd.cumsum(c, np.ones(2, np.int64)), np.arange(1, 3) + 2 * comm.rank)
