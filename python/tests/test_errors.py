import ctypes

import numpy as np
import pytest

import scankit
from scankit import _capi


def test_version_and_algorithms():
    assert scankit.__version__.count(".") == 2
    for primitive in ("scan", "sort", "compact", "histogram"):
        names = scankit.algorithms(primitive)
        assert any(n.startswith("cpu-") for n in names)
        assert len(set(names)) == len(names)
    if scankit.built_with_cuda():
        assert "blelloch" in scankit.algorithms("scan")
        assert "decoupled-lookback" in scankit.algorithms("scan")
        assert scankit.algorithms("sort")[0] == "onesweep"
    with pytest.raises(ValueError, match="unknown primitive"):
        scankit.algorithms("fft")


def test_unsupported_dtype_is_a_type_error_naming_the_supported_ones(backend):
    x = backend.asarray(np.ones(10, dtype=np.complex64))
    with pytest.raises(TypeError, match="int32"):
        scankit.cumsum(x)
    with pytest.raises(TypeError, match="float32"):
        scankit.sort(x)
    with pytest.raises(TypeError):
        scankit.histogram(x)
    with pytest.raises(TypeError):
        scankit.bincount(backend.asarray(np.ones(10, dtype=np.float32)))
    with pytest.raises(TypeError, match="integer"):
        scankit.scan(backend.asarray(np.ones(10, dtype=np.float32)), "xor")
    with pytest.raises(TypeError, match="dtype"):
        scankit.cumsum(backend.asarray(np.ones(10, dtype=np.int32)), dtype=np.int8)


def test_shape_and_argument_errors(backend):
    x = backend.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    with pytest.raises(ValueError, match="out of bounds"):
        scankit.cumsum(x, axis=2)
    with pytest.raises(ValueError, match="mask"):
        scankit.select(x, backend.asarray(np.ones(5, dtype=bool)))
    with pytest.raises(ValueError, match="operator"):
        scankit.scan(x, "mean")
    with pytest.raises(ValueError):
        scankit.select(x, size=-1)
    with pytest.raises(ValueError, match="negative"):
        scankit.bincount(backend.asarray(np.array([1, -1, 2])))
    with pytest.raises(ValueError, match="1-D"):
        scankit.bincount(x)
    with pytest.raises(ValueError):
        scankit.histogram(backend.asarray(np.ones(4)), range=(2, 1))
    with pytest.raises(ValueError, match="monotonically"):
        scankit.histogram(backend.asarray(np.ones(4)), bins=[3, 2, 1])
    with pytest.raises(ValueError):
        scankit.sort_by_key(backend.asarray(np.arange(4)), backend.asarray(np.arange(5)))
    with pytest.raises(ValueError):
        scankit.cumsum(x, out=backend.asarray(np.zeros(5, dtype=np.int32)))


def test_algorithm_names(backend):
    x = backend.asarray(np.arange(100, dtype=np.int32))
    with pytest.raises(ValueError, match="unknown scan algorithm"):
        scankit.cumsum(x, algorithm="quantum")
    if backend.gpu:
        with pytest.raises(ValueError, match="runs on the CPU"):
            scankit.cumsum(x, algorithm="cpu-serial")
    elif scankit.built_with_cuda():
        with pytest.raises(ValueError, match="runs on the GPU"):
            scankit.cumsum(x, algorithm="blelloch")
        with pytest.raises(ValueError, match="runs on the GPU"):
            scankit.sort(x, algorithm="onesweep")


def test_no_gpu_is_a_runtime_error():
    if scankit.device_count() > 0:
        pytest.skip("a GPU is present")
    buf = np.zeros(4, dtype=np.int32)
    p = buf.ctypes.data
    with pytest.raises(RuntimeError):
        _capi.scan(0, _capi.DTYPE_CODES["int32"], 0, 0, 0, p, p, 1, 4, 1, b"", 0, 0, 0)


def test_small_workspaces_are_kept_per_stream():
    """reusable_workspace hands one buffer per (library, device, stream) back while it is big
    enough, grows it when not, and leaves large workspaces to the allocator."""
    from scankit import _core
    from scankit._arrays import wrap

    a = wrap(np.zeros(4, np.int32))
    assert _core.reusable_workspace(a, 0, 7) is None
    w1 = _core.reusable_workspace(a, 1000, 7)
    assert w1.nbytes >= 1000
    assert _core.reusable_workspace(a, 500, 7) is w1
    assert _core.reusable_workspace(a, 500, 8) is not w1
    w2 = _core.reusable_workspace(a, w1.nbytes + 1, 7)
    assert w2.nbytes > w1.nbytes
    assert _core.reusable_workspace(a, 10, 7) is w2
    # The fast paths' per-shape entries (which may hold a kept buffer's address) go when a kept
    # buffer is replaced, and only then.
    _core.kept_shapes()["entry"] = 1
    assert _core.reusable_workspace(a, 10, 7) is w2
    assert "entry" in _core.kept_shapes()
    w3 = _core.reusable_workspace(a, w2.nbytes + 1, 7)
    assert w3.nbytes > w2.nbytes
    assert "entry" not in _core.kept_shapes()
    big = _core.reusable_workspace(a, _core._KEEP_BYTES + 1, 7)
    assert big.nbytes == _core._KEEP_BYTES + 1
    assert _core.reusable_workspace(a, _core._KEEP_BYTES + 1, 7) is not big


def test_status_codes_map_to_exceptions(monkeypatch):
    codes = {_capi.EVALUE: ValueError, _capi.ETYPE: TypeError, _capi.ENOMEM: MemoryError,
             _capi.ENODEVICE: RuntimeError, _capi.ECUDA: RuntimeError, _capi.EOTHER: RuntimeError}
    for code, exc in codes.items():
        monkeypatch.setitem(_capi._fns, "fake", lambda c=code: c)
        with pytest.raises(exc):
            _capi.call("fake")


def test_device_out_of_memory_is_a_memory_error(gpu_backend):
    import scankit._arrays as arrays

    x = gpu_backend.asarray(np.zeros(4, np.uint8))
    a = arrays.wrap(x)
    with pytest.raises(MemoryError):
        a.ops.empty((1 << 50,), "uint8", a.device)


@pytest.mark.parametrize("name,message", [("OutOfMemoryError", "CUDA out of memory"),
                                          ("AcceleratorError", "CUDA error: out of memory"),
                                          ("CUDARuntimeError", "cudaErrorMemoryAllocation: out of memory")])
def test_array_library_out_of_memory_is_a_memory_error(monkeypatch, name, message):
    """Out of memory raised by an array library on the way (PyTorch's errors and CuPy's outside
    its pool are RuntimeErrors) reaches the caller as MemoryError; other errors pass unchanged."""
    library_error = type(name, (RuntimeError,), {})

    def fails_with(e):
        def f(*args, **kwargs):
            raise e
        return f

    import scankit._scan

    x = np.arange(6).reshape(2, 3)  # 2-D: through wrap(), which the 1-D NumPy short path skips

    monkeypatch.setattr(scankit._scan, "wrap", fails_with(library_error(message)))
    with pytest.raises(MemoryError, match="out of memory"):
        scankit.cumsum(x)
    if name != "OutOfMemoryError":
        monkeypatch.setattr(scankit._scan, "wrap", fails_with(library_error("an illegal memory access")))
        with pytest.raises(RuntimeError, match="illegal") as err:
            scankit.cumsum(x)
        assert not isinstance(err.value, MemoryError)
    monkeypatch.setattr(scankit._scan, "wrap", fails_with(RuntimeError("something else")))
    with pytest.raises(RuntimeError, match="something else") as err:
        scankit.cumsum(x)
    assert not isinstance(err.value, MemoryError)
    assert scankit.cumsum.__doc__ == scankit._scan.cumsum.__doc__


def test_input_too_large_to_copy_is_a_memory_error(gpu_backend):
    """A strided GPU input whose contiguous copy (1 TiB) does not fit: MemoryError, from the
    scans, sorts and selections alike."""
    x = gpu_backend.asarray(np.arange(4, dtype=np.int32))
    if gpu_backend.name == "cupy":
        huge = gpu_backend.cp.broadcast_to(x[:1], (1 << 38,))
    else:
        huge = x[:1].expand(1 << 38)
    for f in (scankit.cumsum, scankit.sort, lambda y: scankit.select(y, greater_than=0), scankit.reduce,
              scankit.argmax):
        with pytest.raises(MemoryError):
            f(huge)
    np.testing.assert_array_equal(gpu_backend.numpy(x), np.arange(4))


def test_inputs_are_not_modified(backend, rng):
    x = rng.integers(0, 100, 5000).astype(np.int32)
    m = rng.random(5000) < 0.5
    xb, mb = backend.asarray(x), backend.asarray(m)
    scankit.cumsum(xb)
    scankit.sort(xb)
    scankit.argsort(xb)
    scankit.select(xb, mb)
    scankit.partition(xb, mb)
    scankit.unique(xb)
    scankit.histogram(xb, bins=10)
    scankit.bincount(xb)
    scankit.sort_by_key(xb, xb)
    scankit.reduce(xb)
    scankit.argmin(xb)
    scankit.min_max(xb)
    lengths = backend.asarray(np.full(50, 100, np.int64))
    scankit.segment_reduce(xb, "max", lengths=lengths)
    scankit.segmented_scan(xb, lengths=lengths, exclusive=True)
    scankit.segmented_scan(xb, flags=mb)
    scankit.scan_by_key(xb, xb)
    scankit.reduce_by_key(xb, xb)
    np.testing.assert_array_equal(backend.numpy(lengths), np.full(50, 100))
    np.testing.assert_array_equal(backend.numpy(xb), x)
    np.testing.assert_array_equal(backend.numpy(mb), m)


def test_results_are_arrays_of_the_input_library(backend):
    x = backend.asarray(np.arange(10, dtype=np.int32))
    lengths, offsets = backend.asarray(np.array([5, 5])), backend.asarray(np.array([0, 3, 10]))
    for r in (scankit.cumsum(x), scankit.sort(x), scankit.select(x, greater_than=3), scankit.unique(x),
              scankit.histogram(x)[0], scankit.bincount(x), scankit.segment_reduce(x, lengths=lengths),
              scankit.segmented_scan(x, offsets=offsets), scankit.scan_by_key(x, x), scankit.reduce_by_key(x, x)[1]):
        assert type(r) is type(x)
        if backend.gpu:
            assert str(getattr(r, "device", "")) == str(getattr(x, "device", ""))


def test_lists_are_numpy():
    np.testing.assert_array_equal(scankit.cumsum([1, 2, 3]), [1, 3, 6])
    assert ctypes.sizeof(ctypes.c_int64) == 8
