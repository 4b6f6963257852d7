"""Backends the tests run each function on: NumPy (the CPU backend), and CuPy arrays and PyTorch
CUDA tensors on the GPU (skipped without a GPU, CuPy or PyTorch), plus PyTorch CPU tensors."""

import numpy as np
import pytest

import scankit


def _gpu():
    return scankit.built_with_cuda() and scankit.device_count() > 0


class NumpyBackend:
    name = "numpy"
    gpu = False

    def asarray(self, a):
        return np.array(a, copy=True)

    def numpy(self, y):
        return np.asarray(y)

    def sync(self):
        pass


class CupyBackend:
    name = "cupy"
    gpu = True

    def __init__(self):
        import cupy

        self.cp = cupy

    def asarray(self, a):
        return self.cp.asarray(a)

    def numpy(self, y):
        return self.cp.asnumpy(y)

    def sync(self):
        self.cp.cuda.get_current_stream().synchronize()


class TorchBackend:
    gpu = True

    def __init__(self, device):
        import torch

        self.torch = torch
        self.device = device
        self.name = "torch-" + device
        self.gpu = device == "cuda"

    _signed = {np.dtype("uint16"): np.int16, np.dtype("uint32"): np.int32, np.dtype("uint64"): np.int64}

    def asarray(self, a):
        a = np.ascontiguousarray(a)
        if a.dtype in self._signed:
            t = self.torch.from_numpy(a.view(self._signed[a.dtype])).to(self.device)
            return t.view(getattr(self.torch, a.dtype.name))
        return self.torch.from_numpy(a.copy()).to(self.device)

    def numpy(self, y):
        y = y.detach().cpu()
        name = str(y.dtype).replace("torch.", "")
        if name in ("uint16", "uint32", "uint64"):
            signed = {"uint16": self.torch.int16, "uint32": self.torch.int32, "uint64": self.torch.int64}[name]
            return y.view(signed).numpy().view(name)
        if name == "bfloat16":
            return y.float().numpy()
        return y.numpy()

    def sync(self):
        if self.gpu:
            self.torch.cuda.synchronize()


def _make(name):
    if name == "numpy":
        return NumpyBackend()
    if name == "cupy":
        pytest.importorskip("cupy")
        if not _gpu():
            pytest.skip("no GPU (or scankit built without CUDA)")
        return CupyBackend()
    pytest.importorskip("torch")
    if name == "torch-cuda":
        import torch

        if not (_gpu() and torch.cuda.is_available()):
            pytest.skip("no GPU (or scankit built without CUDA)")
        return TorchBackend("cuda")
    return TorchBackend("cpu")


@pytest.fixture(params=["numpy", "cupy", "torch-cuda", "torch-cpu"])
def backend(request):
    return _make(request.param)


@pytest.fixture(params=["cupy", "torch-cuda"])
def gpu_backend(request):
    return _make(request.param)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


# Sizes of the C++ tests: the edges, tiles (a warp step of the axis kernels is 256 items, a
# GPU scan tile 4,096, a CPU scan block 32,768 4-byte items) plus and minus one, primes,
# powers of two plus and minus one, and a large random-looking one.
SIZES = [0, 1, 2, 3, 31, 33, 255, 257, 4095, 4096, 4097, 7919, 32767, 32769, 65535, 65537, 104729, 1048577,
         3000017]
SMALL_SIZES = [0, 1, 2, 3, 31, 33, 255, 257, 4095, 4097, 7919, 65537, 104729]


def random_array(rng, n, dtype):
    """n random items of dtype, small integers for exact float sums."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        return rng.integers(lo, hi, n, endpoint=True).astype(dtype)
    if dtype.kind == "f":
        return rng.integers(-8, 9, n).astype(dtype)
    if dtype.kind == "c":
        return (rng.integers(-8, 9, n) + 1j * rng.integers(-8, 9, n)).astype(dtype)
    raise AssertionError(dtype)
