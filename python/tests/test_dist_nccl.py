"""scankit.dist on GPU ranks: one process driving every visible GPU through an
NcclCommunicator, with CuPy arrays and PyTorch tensors; each rank's part against NumPy's result
for the whole sequence. Skipped without a GPU or a build with NCCL."""

import numpy as np
import pytest

import scankit

if not (scankit.built_with_cuda() and scankit.device_count() > 0):
    pytest.skip("no GPU", allow_module_level=True)
import scankit.dist as sd  # noqa: E402

try:
    sd._nccl_library()
except ImportError as e:
    pytest.skip(str(e), allow_module_level=True)


class _Cupy:
    def __init__(self):
        import cupy

        self.cp = cupy

    def put(self, a, device):
        with self.cp.cuda.Device(device):
            return self.cp.asarray(a)

    def get(self, y):
        return self.cp.asnumpy(y)


class _Torch:
    def __init__(self):
        import torch

        self.torch = torch

    def put(self, a, device):
        return self.torch.from_numpy(a.copy()).to(f"cuda:{device}")

    def get(self, y):
        return y.cpu().numpy()


@pytest.fixture(scope="module", params=["cupy", "torch"])
def lib(request):
    try:
        return _Cupy() if request.param == "cupy" else _Torch()
    except ImportError:
        pytest.skip(f"{request.param} is not installed")


@pytest.fixture(scope="module")
def comm():
    c = sd.NcclCommunicator(list(range(min(scankit.device_count(), 4))))
    yield c
    c.close()


def split(comm, total, seed):
    """Random shard lengths (an empty one among them on 3 GPUs or more): [start, stop) per rank."""
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.integers(0, total + 1, comm.size - 1))
    if total > 3 and comm.size > 2:
        cuts[0] = cuts[1]
    b = np.concatenate([[0], cuts, [total]]).astype(np.int64)
    return [(int(b[r]), int(b[r + 1])) for r in range(comm.size)]


def put(lib, comm, g, cut):
    return [lib.put(g[lo:hi], comm.devices[r]) for r, (lo, hi) in enumerate(cut)]


SIZES = [0, 1, 1000, 100003]


@pytest.mark.parametrize("total", SIZES)
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_scan(lib, comm, total, dtype):
    rng = np.random.default_rng(total)
    g = rng.integers(-50, 50, total).astype(dtype)
    cut = split(comm, total, total)
    parts, carry = sd.scan(comm, put(lib, comm, g, cut), return_total=True)
    want = np.cumsum(g.astype(np.float64 if dtype == "float32" else dtype))
    for r, (lo, hi) in enumerate(cut):
        got = lib.get(parts[r])
        if dtype == "float32":
            np.testing.assert_allclose(got, want[lo:hi], rtol=1e-4, atol=1e-2)
        else:
            np.testing.assert_array_equal(got, want[lo:hi])
    assert np.isclose(carry, want[-1] if total else 0)
    parts = sd.scan(comm, put(lib, comm, g, cut), "max", exclusive=True, initial=-100)
    want = np.maximum.accumulate(np.concatenate([[-100], g]).astype(dtype))[:-1]
    for r, (lo, hi) in enumerate(cut):
        np.testing.assert_array_equal(lib.get(parts[r]), want[lo:hi])


@pytest.mark.parametrize("total", SIZES)
def test_select_histogram_bincount(lib, comm, total):
    rng = np.random.default_rng(total + 1)
    g = rng.integers(0, 100, total).astype(np.int32)
    cut = split(comm, total, total + 1)
    kept = sd.select(comm, put(lib, comm, g, cut), greater_than=40)
    want = g[g > 40]
    for r, (lo, hi) in enumerate(cut):
        k = kept[r]
        assert k.total == len(want) and k.offset == np.count_nonzero(g[:lo] > 40)
        np.testing.assert_array_equal(lib.get(k.values), want[k.offset: k.offset + np.count_nonzero(g[lo:hi] > 40)])
    counts = sd.bincount(comm, put(lib, comm, g, cut), 64)
    f = rng.random(total).astype(np.float32)
    hist = sd.histogram(comm, put(lib, comm, f, cut), 10, (0.0, 1.0))
    for r in range(comm.size):
        np.testing.assert_array_equal(lib.get(counts[r]), np.bincount(g, minlength=100)[:64])
        np.testing.assert_array_equal(lib.get(hist[r]), np.histogram(f, 10, (0.0, 1.0))[0])


@pytest.mark.parametrize("total", SIZES + [1 << 20])
@pytest.mark.parametrize("dtype", ["int32", "float32", "int64"])
def test_sort(lib, comm, total, dtype):
    rng = np.random.default_rng(total + 2)
    g = rng.integers(0, 1 << 30, total).astype(dtype)
    cut = split(comm, total, total + 2)
    for descending in (False, True):
        parts = sd.sort(comm, put(lib, comm, g, cut), descending=descending)
        want = np.sort(g)[::-1] if descending else np.sort(g)
        start = 0
        for r in range(comm.size):
            n = total // comm.size + (1 if r < total % comm.size else 0)
            np.testing.assert_array_equal(lib.get(parts[r]), want[start:start + n])
            start += n


def test_bad_input(lib, comm):
    x = [lib.put(np.arange(4, dtype=np.int32), d) for d in comm.devices]
    with pytest.raises(ValueError):
        sd.cumsum(comm, x[:-1])  # one shard too few
    if comm.size > 1:
        with pytest.raises(ValueError):
            sd.cumsum(comm, x[::-1])  # shards on the wrong GPUs
    with pytest.raises(TypeError):
        sd.select(comm, [lib.put(np.arange(4, dtype=np.int16), d) for d in comm.devices])
    before = [lib.get(y).copy() for y in x]
    sd.sort(comm, x, descending=True)
    for y, b in zip(x, before):
        np.testing.assert_array_equal(lib.get(y), b)
