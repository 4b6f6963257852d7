"""GPU specifics: the caller's stream and device, libraries mixed, large inputs."""

import os
import sys
import types

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
                                        ((1 << 16, 16), 0), ((1 << 18, 3), 1), ((1 << 14, 1 << 10), 1),
                                        ((1 << 12, 1021), 1), ((40, 100003), 1), ((1 << 18, 4), 0),
                                        ((1 << 12, 300, 2), 1)])
def test_large_axis_scans(gpu_backend, rng, shape, axis):
    x = rng.integers(0, 100, shape).astype(np.int64)
    got = gpu_backend.numpy(scankit.cumsum(gpu_backend.asarray(x), axis=axis))
    np.testing.assert_array_equal(got, np.cumsum(x, axis=axis))


def test_scans_reuse_their_workspace_safely(rng):
    """Small scans share one kept workspace per thread and stream: results stay exact when many
    of them queue back to back, on two streams and from two threads at once."""
    torch = pytest.importorskip("torch")
    if scankit.device_count() == 0 or not torch.cuda.is_available():
        pytest.skip("no GPU")
    import threading

    sizes = [1, 4097, 65537, 1 << 20, 3, 300007]
    inputs = [rng.integers(-50, 50, n).astype(np.int64) for n in sizes * 3]

    def run(results, stream):
        with torch.cuda.stream(stream):
            xs = [torch.from_numpy(a).cuda() for a in inputs]
            results.extend(scankit.cumsum(x) for x in xs)
            stream.synchronize()

    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    r1, r2 = [], []
    t = threading.Thread(target=run, args=(r2, s2))
    t.start()
    run(r1, s1)
    t.join()
    for results in (r1, r2):
        assert len(results) == len(inputs)
        for a, y in zip(inputs, results):
            np.testing.assert_array_equal(y.cpu().numpy(), np.cumsum(a))


def test_scans_in_a_cuda_graph(rng):
    """A graph's replays may run beside later calls, so a capture must not take the workspace that
    small scans keep from call to call: the library refuses it on a capturing stream (and queues
    nothing), and the call goes on with a workspace of its own. The capture stream's fast-path
    entry is made first, so the capture meets that refusal."""
    torch = pytest.importorskip("torch")
    if scankit.device_count() == 0 or not torch.cuda.is_available():
        pytest.skip("no GPU")
    if os.environ.get("PYTORCH_NO_CUDA_MEMORY_CACHING") == "1":
        pytest.skip("PyTorch captures allocations only through its caching allocator, which is off")
    from scankit import _capi

    n = 70001
    x = torch.from_numpy(rng.integers(-50, 50, n).astype(np.int64)).cuda()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        scankit.cumsum(x)
    s.synchronize()
    nbytes = _capi.workspace_bytes("scan", x.get_device(), _capi.DTYPE_CODES["int64"], 1, n, 1, b"")
    ws = torch.empty(max(nbytes, 1), dtype=torch.uint8, device=x.device)
    probe = torch.empty_like(x)
    refused = []
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s):
        y = scankit.cumsum(x)
        refused.append(_capi.scan(x.get_device(), _capi.DTYPE_CODES["int64"], 0, 0, 0, x.data_ptr(),
                                  probe.data_ptr(), 1, n, 1, b"", ws.data_ptr(), nbytes, s.cuda_stream,
                                  _capi.SCAN_KEPT_WORKSPACE))
    assert refused == [False]
    assert _capi.scan(x.get_device(), _capi.DTYPE_CODES["int64"], 0, 0, 0, x.data_ptr(), probe.data_ptr(), 1, n,
                      1, b"", ws.data_ptr(), nbytes, torch.cuda.current_stream().cuda_stream,
                      _capi.SCAN_KEPT_WORKSPACE) is None
    torch.cuda.synchronize()
    np.testing.assert_array_equal(probe.cpu().numpy(), np.cumsum(x.cpu().numpy()))
    for _ in range(3):
        xn = rng.integers(-50, 50, n).astype(np.int64)
        x.copy_(torch.from_numpy(xn))
        g.replay()
        other = rng.integers(-50, 50, n).astype(np.int64)
        z = scankit.cumsum(torch.from_numpy(other).cuda())
        torch.cuda.synchronize()
        np.testing.assert_array_equal(y.cpu().numpy(), np.cumsum(xn))
        np.testing.assert_array_equal(z.cpu().numpy(), np.cumsum(other))


@pytest.mark.parametrize(
    "n, dtype",
    [(2, np.int32), (4095, np.int32), (4096, np.int32), (65537, np.int32), (1 << 20, np.int32),
     (3000017, np.int32), ((1 << 24) + 3, np.int32), ((1 << 20) + 3, np.int64), (100003, np.int64)])
@pytest.mark.parametrize("descending", [False, True])
def test_argsort_positions_are_int64(gpu_backend, rng, n, dtype, descending):
    """GPU argsorts carry 32-bit positions, widened after the sort or (from 2^24 4-byte and 2^20
    8-byte keys) written as int64 by the sort's last pass: int64 results equal NumPy's stable
    argsort, with many equal keys (stability) and for sizes across the sort's paths."""
    b = gpu_backend
    a = rng.integers(0, 1000, n).astype(dtype)
    x = b.asarray(a)
    idx = scankit.argsort(x, descending=descending)
    keys, idx2 = scankit.sort(x, descending=descending, return_indices=True)
    b.sync()
    want = np.argsort(-a.astype(np.int64) if descending else a, kind="stable")
    got = b.numpy(idx)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(b.numpy(idx2), want)
    np.testing.assert_array_equal(b.numpy(keys), a[want])


@pytest.mark.parametrize("lib", ["torch", "cupy"])
def test_repeated_selects_keep_their_results(rng, lib):
    """Exact selects of one shape reuse what they looked up once (workspace, count word): results
    of earlier calls stay intact, on the default and a side stream, between other shapes and types."""
    mod = pytest.importorskip(lib)
    if scankit.device_count() == 0 or (lib == "torch" and not mod.cuda.is_available()):
        pytest.skip("no GPU")
    to_gpu = (lambda a: mod.from_numpy(a).cuda()) if lib == "torch" else mod.asarray
    to_host = (lambda y: y.cpu().numpy()) if lib == "torch" else mod.asnumpy
    cases = []
    for n, dtype in [(4097, "int32"), (65537, "int64"), (4097, "int32"), (1, "uint8"), (0, "float32"),
                     (4097, "float64"), (65537, "int64")]:
        x = (rng.integers(-1000, 1000, n)).astype(dtype)
        m = rng.random(n) < rng.random()
        cases.append((x, m, scankit.select(to_gpu(x), to_gpu(m))))
    if lib == "torch":
        s = mod.cuda.Stream()
        s.wait_stream(mod.cuda.current_stream())
        with mod.cuda.stream(s):
            for x, m, _ in cases[:3]:
                cases.append((x, m, scankit.select(to_gpu(x), to_gpu(m))))
        s.synchronize()
    x = rng.integers(0, 100, 8000).astype(np.int32)
    m = rng.random(8000) < 0.5
    cases.append((x[::2], m[::2], scankit.select(to_gpu(x)[::2], to_gpu(m)[::2])))  # strided: the general path
    for x, m, got in cases:
        np.testing.assert_array_equal(to_host(got), x[m])


def _library_of_its_own(name, takes_results):
    """A stand-in for a GPU array library scankit does not know (as Numba and JAX are): its
    arrays speak only ``__cuda_array_interface__`` (CaiArray) or DLPack (DLPackArray), and
    with ``takes_results`` the library has ``from_dlpack``, through which results come back as
    its own arrays."""
    mod = types.ModuleType(name)

    class CaiArray:
        def __init__(self, base):
            self.base = base

        @property
        def __cuda_array_interface__(self):
            return self.base.__cuda_array_interface__

    class DLPackArray:
        def __init__(self, base):
            self.base = base

        def __dlpack__(self, **kwargs):
            return self.base.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.base.__dlpack_device__()

    for c in (CaiArray, DLPackArray):
        c.__module__ = name
        setattr(mod, c.__name__, c)
    if takes_results:
        mod.from_dlpack = DLPackArray
    return mod


@pytest.mark.parametrize("protocol", ["cuda_array_interface", "dlpack"])
@pytest.mark.parametrize("takes_results", [True, False])
def test_arrays_of_other_libraries(rng, monkeypatch, protocol, takes_results):
    """GPU arrays known only by a protocol run where they live, without a copy of the input:
    results come back as the caller's library's arrays where it can take them (from_dlpack),
    else as arrays of the library that viewed them (CuPy, else PyTorch)."""
    cp = pytest.importorskip("cupy")
    if scankit.device_count() == 0:
        pytest.skip("no GPU")
    name = f"sk_other_gpu_arrays_{protocol}_{int(takes_results)}"
    lib = _library_of_its_own(name, takes_results)
    monkeypatch.setitem(sys.modules, name, lib)
    make = lib.CaiArray if protocol == "cuda_array_interface" else lib.DLPackArray

    def host(r):
        if takes_results:
            assert isinstance(r, lib.DLPackArray)
            r = r.base
        assert isinstance(r, cp.ndarray)
        return cp.asnumpy(r)

    xn = rng.integers(-1000, 1000, 65537).astype(np.int32)
    mn = rng.random(xn.size) < 0.4
    xg, mg = cp.asarray(xn), cp.asarray(mn)
    x, m = make(xg), make(mg)
    np.testing.assert_array_equal(host(scankit.cumsum(x)), np.cumsum(xn, dtype=np.int32))
    np.testing.assert_array_equal(host(scankit.sort(x, descending=True)), np.sort(xn)[::-1])
    np.testing.assert_array_equal(host(scankit.argsort(x)), np.argsort(xn, kind="stable"))
    np.testing.assert_array_equal(host(scankit.select(x, m)), xn[mn])
    np.testing.assert_array_equal(host(scankit.bincount(make(cp.abs(xg)), minlength=1001)),
                                  np.bincount(np.abs(xn), minlength=1001))
    u, c = scankit.unique(x, return_counts=True)
    wu, wc = np.unique(xn, return_counts=True)
    np.testing.assert_array_equal(host(u), wu)
    np.testing.assert_array_equal(host(c), wc)
    np.testing.assert_array_equal(cp.asnumpy(xg), xn)  # the input is read where it lives, not changed
    np.testing.assert_array_equal(cp.asnumpy(mg), mn)
    with pytest.raises(ValueError, match="libraries"):
        scankit.select(x, cp.asarray(mn))
