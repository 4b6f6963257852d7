"""GPU specifics: the caller's stream and device, libraries mixed, large inputs."""

import numpy as np
import pytest

import scankit


def test_torch_side_stream(rng):
    torch = pytest.importorskip("torch")
    if scankit.device_count() == 0 or not torch.cuda.is_available():
        pytest.skip("no GPU")
    x = torch.from_numpy(rng.integers(0, 100, 1 << 20).astype(np.int32)).cuda()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = scankit.cumsum(x)
        k = scankit.sort(x)
        sel = scankit.select(x, greater_than=50)
        c = scankit.bincount(x, length=100)
    s.synchronize()
    xn = x.cpu().numpy()
    np.testing.assert_array_equal(y.cpu().numpy(), np.cumsum(xn, dtype=np.int32))
    np.testing.assert_array_equal(k.cpu().numpy(), np.sort(xn))
    np.testing.assert_array_equal(sel.cpu().numpy(), xn[xn > 50])
    np.testing.assert_array_equal(c.cpu().numpy(), np.bincount(xn, minlength=100))


def test_cupy_side_stream(rng):
    cp = pytest.importorskip("cupy")
    if scankit.device_count() == 0:
        pytest.skip("no GPU")
    xn = rng.integers(0, 100, 1 << 20).astype(np.int64)
    x = cp.asarray(xn)
    cp.cuda.get_current_stream().synchronize()
    with cp.cuda.Stream(non_blocking=True) as s:
        y = scankit.cumsum(x, exclusive=True)
        u, n = scankit.unique(x, return_counts=True)
        s.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(y), np.concatenate([[0], np.cumsum(xn)[:-1]]))
    wu, wn = np.unique(xn, return_counts=True)
    np.testing.assert_array_equal(cp.asnumpy(u), wu)
    np.testing.assert_array_equal(cp.asnumpy(n), wn)


def test_second_device(rng):
    torch = pytest.importorskip("torch")
    if scankit.device_count() < 2 or torch.cuda.device_count() < 2:
        pytest.skip("needs two GPUs")
    xn = rng.integers(0, 100, 100000).astype(np.int32)
    x = torch.from_numpy(xn).to("cuda:1")
    y = scankit.cumsum(x)
    assert y.device == x.device
    np.testing.assert_array_equal(y.cpu().numpy(), np.cumsum(xn, dtype=np.int32))
    other = torch.from_numpy(xn > 50).to("cuda:0")
    with pytest.raises(ValueError, match="devices"):
        scankit.select(x, other)


def test_mixed_libraries_are_refused(rng):
    torch = pytest.importorskip("torch")
    cp = pytest.importorskip("cupy")
    if scankit.device_count() == 0:
        pytest.skip("no GPU")
    x = torch.arange(10, device="cuda")
    m = cp.ones(10, dtype=bool)
    with pytest.raises(ValueError, match="libraries"):
        scankit.select(x, m)
    with pytest.raises(ValueError):
        scankit.select(x, torch.ones(10, dtype=torch.bool))  # host mask, GPU items


def test_size_results_do_not_wait(rng):
    torch = pytest.importorskip("torch")
    if scankit.device_count() == 0 or not torch.cuda.is_available():
        pytest.skip("no GPU")
    x = torch.from_numpy(rng.integers(0, 10, 1 << 16).astype(np.int32)).cuda()
    idx = scankit.flatnonzero(x, size=1000, fill_value=-1)
    assert idx.shape == (1000,)
    want = np.flatnonzero(x.cpu().numpy())[:1000]
    np.testing.assert_array_equal(idx.cpu().numpy(), want)


@pytest.mark.parametrize("shape,axis", [((1 << 20, 2), 0), ((2, 1 << 20), 1), ((1 << 12, 1 << 8), 0),
                                        ((1 << 16, 16), 0), ((1 << 18, 3), 1)])
def test_large_axis_scans(gpu_backend, rng, shape, axis):
    x = rng.integers(0, 100, shape).astype(np.int64)
    got = gpu_backend.numpy(scankit.cumsum(gpu_backend.asarray(x), axis=axis))
    np.testing.assert_array_equal(got, np.cumsum(x, axis=axis))
