"""Arrays of NumPy, PyTorch and CuPy behind one small interface.

Every public function turns its inputs into ``Arr`` objects: the caller's array, its library
(`ops`), its device (-1 for host memory) and its dtype name. Outputs and workspace are
allocated with the caller's library, on the input's device, so its allocator (PyTorch's and
CuPy's caching pools) serves them, and results come back as arrays of that library. Torch and
CuPy are imported only when an input is one of theirs. Other GPU arrays (anything with
``__cuda_array_interface__`` or ``__dlpack__``) are viewed through CuPy, or PyTorch when CuPy is
absent, without a copy, and results are handed back through the input library's
``from_dlpack`` where it has one.
"""

import functools
import sys

import numpy as np

_NUMPY_NAMES = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64",
}


_dtype_names = {}


def _numpy_dtype_name(dt):
    """A NumPy dtype's name, remembered per dtype object: dtype.name builds a new string on
    every call, a few microseconds of a small array's call."""
    n = _dtype_names.get(dt)
    if n is None:
        # A dtype of the other byte order keeps its own name ('>i4'): it is none of the types
        # the library reads.
        n = dt.name if dt.name in _NUMPY_NAMES and dt.isnative else str(dt)
        if len(_dtype_names) < 256:
            _dtype_names[dt] = n
    return n


def _translate_oom(e):
    """PyTorch reports device OOM as a RuntimeError subclass (OutOfMemoryError from its caching
    allocator, AcceleratorError naming cudaErrorMemoryAllocation with the cache off), and so
    does CuPy outside its memory pool (CUDARuntimeError); scankit raises MemoryError."""
    if isinstance(e, MemoryError):
        return None
    if type(e).__name__ == "OutOfMemoryError" or (
            type(e).__name__ in ("AcceleratorError", "CUDARuntimeError") and "out of memory" in str(e)):
        return MemoryError(str(e))
    return None


def memory_errors(f):
    """A public function whose out-of-memory failures reach the caller as MemoryError, wherever
    they happen on the way: scankit's own allocations raise it, but an array library's copy or
    conversion (a strided input made contiguous, a dtype widened) raises that library's error,
    which PyTorch makes a RuntimeError."""

    @functools.wraps(f)
    def call(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except RuntimeError as e:
            m = _translate_oom(e)
            if m is None:
                raise
            raise m from e

    return call


class NumpyOps:
    name = "numpy"

    def dtype_name(self, x):
        return _numpy_dtype_name(x.dtype)

    def device(self, x):
        return -1

    def ndim(self, x):
        return x.ndim

    def ptr(self, x):
        return x.ctypes.data

    def stream(self, device):
        return 0

    def capturing(self):
        return False

    def empty(self, shape, dtype, device):
        return np.empty(shape, dtype=dtype)

    def empty_like(self, x, dtype, device):
        """An uninitialized array of x's shape, of dtype, on device (the result of a 1-D call)."""
        return self.empty(x.shape, dtype, device)

    def zeros(self, shape, dtype, device):
        return np.zeros(shape, dtype=dtype)

    def contiguous(self, x):
        return np.ascontiguousarray(x)

    def is_contiguous(self, x):
        return x.flags.c_contiguous

    def astype(self, x, dtype):
        return x.astype(dtype)

    def view(self, x, dtype):
        return x.view(dtype)

    def reshape(self, x, shape):
        return x.reshape(shape)

    def moveaxis(self, x, src, dst):
        return np.moveaxis(x, src, dst)

    def from_numpy(self, a, device):
        return a

    def to_numpy(self, x):
        return np.asarray(x)

    def ne_zero(self, x):
        return x != 0

    def logical_not(self, x):
        return np.logical_not(x)

    def take(self, x, idx, axis=None):
        return np.take(x, idx, axis=axis)

    def max(self, x):
        return x.max().item()

    def min(self, x):
        return x.min().item()

    def minmax(self, x):
        return x.min().item(), x.max().item()

    def concat(self, xs):
        return np.concatenate(xs)

    def floor_divide(self, x, d):
        return x // d

    def remainder(self, x, d):
        return x % d

    def arange(self, n, device):
        return np.arange(n, dtype=np.int64)

    def flip(self, x):
        return x[::-1]

    def copy_into(self, dst, src):
        np.copyto(dst, src)

    def wrap_result(self, x):
        return x


class TorchOps:
    name = "torch"

    def __init__(self):
        import torch

        self.torch = torch
        self.by_name = {
            "bool": torch.bool, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
            "int64": torch.int64, "uint8": torch.uint8, "float16": torch.float16,
            "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
        }
        for n in ("uint16", "uint32", "uint64"):
            if hasattr(torch, n):
                self.by_name[n] = getattr(torch, n)
        self.names = {v: k for k, v in self.by_name.items()}
        self._devices = {}

    def dtype_name(self, x):
        n = self.names.get(x.dtype)  # (a default argument to get() would format the dtype every call)
        return str(x.dtype).replace("torch.", "") if n is None else n

    def device(self, x):
        if x.is_cuda:
            return x.get_device()
        return -1 if x.device.type == "cpu" else -2

    def ndim(self, x):
        return x.dim()

    def ptr(self, x):
        return x.data_ptr()

    def stream(self, device):
        return self._raw_stream(device)

    def _raw_stream(self, device):
        # torch's own cheap accessor of the current stream's handle (the one Triton uses);
        # current_stream() builds a Stream object on every call.
        raw = getattr(self.torch._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:
            self._raw_stream = raw
            return raw(device)
        self._raw_stream = lambda d: self.torch.cuda.current_stream(d).cuda_stream
        return self._raw_stream(device)

    def flat_device(self, x):
        """x's GPU if x is a contiguous 1-D CUDA tensor, else -1 (the small calls' fast paths)."""
        return x.get_device() if x.is_cuda and x.dim() == 1 and x.is_contiguous() else -1

    def empty_flat_like(self, x, device):
        """An uninitialized array like the contiguous 1-D `x` (dtype, device)."""
        try:
            return self.torch.empty_like(x)
        except RuntimeError as e:
            raise (_translate_oom(e) or e) from e

    def capturing(self):
        """Whether the current stream is capturing a CUDA graph."""
        f = getattr(self.torch._C, "_cuda_isCurrentStreamCapturing", None)
        if f is None:
            f = self.torch.cuda.is_current_stream_capturing
        self.capturing = f
        return f()

    def _dev(self, device):
        d = self._devices.get(device)
        if d is None:
            d = self.torch.device("cuda", device) if device >= 0 else self.torch.device("cpu")
            self._devices[device] = d
        return d

    def _dtype(self, dtype):
        name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
        t = self.by_name.get(name)
        if t is None:
            t = getattr(self.torch, name, None)
            if not isinstance(t, self.torch.dtype):
                raise TypeError(f"PyTorch has no dtype {name}")
            self.by_name[name] = t
            self.names[t] = name
        return t

    def empty(self, shape, dtype, device):
        try:
            return self.torch.empty(shape, dtype=self._dtype(dtype), device=self._dev(device))
        except RuntimeError as e:
            raise (_translate_oom(e) or e) from e

    def empty_like(self, x, dtype, device):
        # torch.empty_like takes a third of torch.empty's time with a dtype and a device to parse
        # (1.8 against 5.1 us, H100): it is most of a small call's allocation.
        t = self._dtype(dtype)
        if x.dtype != t:
            return self.empty(tuple(x.shape), dtype, device)
        try:
            return self.torch.empty_like(x, memory_format=self.torch.contiguous_format)
        except RuntimeError as e:
            raise (_translate_oom(e) or e) from e

    def zeros(self, shape, dtype, device):
        try:
            return self.torch.zeros(shape, dtype=self._dtype(dtype), device=self._dev(device))
        except RuntimeError as e:
            raise (_translate_oom(e) or e) from e

    def contiguous(self, x):
        return x.contiguous()

    def is_contiguous(self, x):
        return x.is_contiguous()

    def astype(self, x, dtype):
        return x.to(self._dtype(dtype))

    def view(self, x, dtype):
        return x.view(self._dtype(dtype))

    def reshape(self, x, shape):
        return x.reshape(shape)

    def moveaxis(self, x, src, dst):
        return self.torch.movedim(x, src, dst)

    def from_numpy(self, a, device):
        t = self.torch.from_numpy(np.ascontiguousarray(a))
        return t.to(self._dev(device)) if device >= 0 else t

    def to_numpy(self, x):
        return x.detach().cpu().numpy()

    def ne_zero(self, x):
        return x != 0

    def logical_not(self, x):
        return self.torch.logical_not(x)

    _signed_twin = {"uint16": "int16", "uint32": "int32", "uint64": "int64"}

    def take(self, x, idx, axis=None):
        twin = self._signed_twin.get(self.dtype_name(x))
        if twin is not None:
            # torch's unsigned 16-64-bit types have no gather kernels: move their bits as signed
            return self.view(self.take(self.view(x, twin), idx, axis), self.dtype_name(x))
        if axis is None:
            return x.reshape(-1)[idx]
        return self.torch.index_select(x, axis, idx)

    def max(self, x):
        return x.max().item()

    def min(self, x):
        return x.min().item()

    def minmax(self, x):
        lo, hi = self.torch.aminmax(x)  # one pass, one round trip
        return tuple(self.torch.stack([lo, hi]).tolist())

    def concat(self, xs):
        return self.torch.cat(xs)

    def floor_divide(self, x, d):
        return self.torch.div(x, d, rounding_mode="floor")

    def remainder(self, x, d):
        return self.torch.remainder(x, d)

    def arange(self, n, device):
        return self.torch.arange(n, dtype=self.torch.int64, device=self._dev(device))

    def flip(self, x):
        return self.torch.flip(x, (0,))

    def copy_into(self, dst, src):
        dst.copy_(src)

    def wrap_result(self, x):
        return x


class CupyOps:
    name = "cupy"

    def __init__(self):
        import cupy

        self.cp = cupy
        # ndarray's own C-contiguity field where CuPy exposes it: x.flags builds a Flags object on
        # every call, a sizeable part of a small call's cost.
        if not hasattr(cupy.ndarray, "_c_contiguous"):
            self.flat_device = self._flat_device_flags

    def dtype_name(self, x):
        return _numpy_dtype_name(x.dtype)

    def device(self, x):
        return x.data.device_id  # x.device builds a Device object on every call

    def ndim(self, x):
        return x.ndim

    def ptr(self, x):
        return x.data.ptr

    def stream(self, device):
        try:
            # CuPy's lookup by device id: no Device context to enter and leave on every call.
            return self.cp.cuda.get_current_stream(device).ptr
        except TypeError:  # a CuPy whose get_current_stream takes no device
            with self.cp.cuda.Device(device):
                return self.cp.cuda.get_current_stream().ptr

    def empty_like(self, x, dtype, device):
        # x's own dtype object where it is the result's: CuPy then skips parsing a dtype name.
        return self.empty(x.shape, x.dtype if x.dtype.name == dtype else dtype, device)

    def empty(self, shape, dtype, device):
        if self.cp.cuda.runtime.getDevice() == device:
            return self.cp.empty(shape, dtype=dtype)
        with self.cp.cuda.Device(device):
            return self.cp.empty(shape, dtype=dtype)

    def flat_device(self, x):
        """x's GPU if x is a contiguous 1-D array, else -1 (the small calls' fast paths)."""
        return x.data.device_id if x.ndim == 1 and x._c_contiguous else -1

    def _flat_device_flags(self, x):
        return x.data.device_id if x.ndim == 1 and x.flags.c_contiguous else -1

    def empty_flat_like(self, x, device):
        """An uninitialized array like the contiguous 1-D `x` (dtype, device)."""
        if self.cp.cuda.runtime.getDevice() == device:
            return self.cp.ndarray(x.shape, x.dtype)  # what cupy.empty calls, less a Python frame
        return self.empty(x.shape, x.dtype, device)

    def capturing(self):
        """Whether the current stream is capturing a CUDA graph."""
        s = self.cp.cuda.get_current_stream()
        return bool(getattr(s, "is_capturing", lambda: False)())

    def zeros(self, shape, dtype, device):
        with self.cp.cuda.Device(device):
            return self.cp.zeros(shape, dtype=dtype)

    def contiguous(self, x):
        with x.device:
            return self.cp.ascontiguousarray(x)

    def is_contiguous(self, x):
        return x.flags.c_contiguous

    def astype(self, x, dtype):
        with x.device:
            return x.astype(dtype)

    def view(self, x, dtype):
        return x.view(dtype)

    def reshape(self, x, shape):
        return x.reshape(shape)

    def moveaxis(self, x, src, dst):
        return self.cp.moveaxis(x, src, dst)

    def from_numpy(self, a, device):
        with self.cp.cuda.Device(device):
            return self.cp.asarray(a)

    def to_numpy(self, x):
        return self.cp.asnumpy(x)

    def ne_zero(self, x):
        with x.device:
            return x != 0

    def logical_not(self, x):
        with x.device:
            return self.cp.logical_not(x)

    def take(self, x, idx, axis=None):
        with x.device:
            return self.cp.take(x, idx, axis=axis)

    def max(self, x):
        with x.device:
            return x.max().item()

    def min(self, x):
        with x.device:
            return x.min().item()

    def minmax(self, x):
        with x.device:
            lo, hi = self.cp.stack([x.min(), x.max()]).get().tolist()  # one round trip
            return lo, hi

    def concat(self, xs):
        with xs[0].device:
            return self.cp.concatenate(xs)

    def floor_divide(self, x, d):
        with x.device:
            return x // d

    def remainder(self, x, d):
        with x.device:
            return x % d

    def arange(self, n, device):
        with self.cp.cuda.Device(device):
            return self.cp.arange(n, dtype=self.cp.int64)

    def flip(self, x):
        return x[::-1]

    def copy_into(self, dst, src):
        with dst.device:
            dst[...] = src

    def wrap_result(self, x):
        return x


class ForeignOps:
    """A GPU array of another library, viewed through CuPy or PyTorch (no copy)."""

    def __init__(self, inner, module):
        self.inner = inner
        self.module = module
        self.name = getattr(module, "__name__", "foreign")

    def __getattr__(self, attr):
        return getattr(self.inner, attr)

    def wrap_result(self, x):
        if self.name == "numba":
            try:
                return self.module.cuda.as_cuda_array(x)  # zero-copy through __cuda_array_interface__
            except Exception:  # noqa: BLE001 - fall back to the viewing library's array
                return x
        for owner in (self.module, getattr(self.module, "numpy", None), getattr(self.module, "dlpack", None)):
            f = getattr(owner, "from_dlpack", None) if owner is not None else None
            if f is not None:
                try:
                    return f(x)
                except Exception:  # noqa: BLE001 - fall back to the viewing library's array
                    pass
        return x


_ops_cache = {}


def _ops(kind):
    if kind not in _ops_cache:
        _ops_cache[kind] = {"numpy": NumpyOps, "torch": TorchOps, "cupy": CupyOps}[kind]()
    return _ops_cache[kind]


def _view_foreign(x):
    """(ops, array) for a GPU array of another library, through CuPy or PyTorch."""
    errors = []
    try:
        import cupy

        return _ops("cupy"), cupy.asarray(x) if hasattr(x, "__cuda_array_interface__") else cupy.from_dlpack(x)
    except Exception as e:  # noqa: BLE001
        errors.append(f"cupy: {e}")
    try:
        import torch

        if hasattr(x, "__dlpack__"):
            return _ops("torch"), torch.from_dlpack(x)
        return _ops("torch"), torch.as_tensor(x, device="cuda")
    except Exception as e:  # noqa: BLE001
        errors.append(f"torch: {e}")
    raise TypeError(
        f"scankit cannot read a {type(x).__module__}.{type(x).__name__} without CuPy or PyTorch "
        f"to view it ({'; '.join(errors)})"
    )


class Arr:
    """An input array: the object, its library's ops, device and dtype name."""

    __slots__ = ("x", "ops", "device", "dtype")

    def __init__(self, x, ops):
        self.x = x
        self.ops = ops
        self.device = ops.device(x)
        if self.device == -2:
            raise ValueError(f"scankit runs on CPU and CUDA arrays, not on {x.device}")
        self.dtype = ops.dtype_name(x)

    @property
    def shape(self):
        return tuple(self.x.shape)

    @property
    def size(self):
        n = 1
        for s in self.x.shape:
            n *= int(s)
        return n

    @property
    def ndim(self):
        return len(self.x.shape)

    def with_array(self, y):
        return Arr(y, self.ops)


# The ops of array types seen before (np.ndarray, torch.Tensor and its subclasses, cupy.ndarray):
# one dict look-up instead of the module and isinstance tests below.
_ops_of_type = {}


def _native_order(x, name):
    """A NumPy input of the other byte order as a copy in the machine's (the library reads
    native items). An `out` array stays as it is: its dtype name ('>i4') then matches no result,
    so the result is computed aside and copied into it, converted."""
    if name == "out" or x.dtype.isnative:
        return x
    return x.astype(x.dtype.newbyteorder("="))


def wrap(x, name="x"):
    """The Arr for a user's input (NumPy, PyTorch, CuPy, another GPU array, or array-like)."""
    ops = _ops_of_type.get(type(x))
    if ops is not None:
        if ops.name == "numpy" and not x.dtype.isnative:
            x = _native_order(x, name)
        return Arr(x, ops)
    if isinstance(x, np.ndarray):
        return Arr(_native_order(x, name), _known(type(x), "numpy"))
    mod = type(x).__module__.split(".")[0]
    if mod == "torch" and "torch" in sys.modules and isinstance(x, sys.modules["torch"].Tensor):
        return Arr(x, _known(type(x), "torch"))
    if mod == "cupy" and "cupy" in sys.modules and isinstance(x, sys.modules["cupy"].ndarray):
        return Arr(x, _known(type(x), "cupy"))
    if hasattr(x, "__cuda_array_interface__") or (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")
                                                   and _dlpack_on_gpu(x)):
        inner, y = _view_foreign(x)
        owner = {"jaxlib": "jax"}.get(mod, mod)  # JAX arrays are jaxlib types; from_dlpack is jax's
        if owner == "numba":
            import numba.cuda  # noqa: F401 - wrap_result uses numba.cuda
        return Arr(y, ForeignOps(inner, sys.modules.get(owner)))
    if hasattr(x, "__array__") or isinstance(x, (list, tuple, int, float, bool, np.generic)):
        return Arr(_native_order(np.asarray(x), name), _ops("numpy"))
    raise TypeError(f"{name} must be an array (NumPy, PyTorch, CuPy or a CUDA array), not {type(x).__name__}")


def _known(t, kind):
    ops = _ops(kind)
    if len(_ops_of_type) < 64:
        _ops_of_type[t] = ops
    return ops


def _dlpack_on_gpu(x):
    try:
        kind, _ = x.__dlpack_device__()
    except Exception:  # noqa: BLE001
        return False
    return int(kind) in (2, 3, 13)  # kDLCUDA, kDLCUDAHost, kDLCUDAManaged


def same_place(a, b, what):
    """Raises ValueError unless two inputs share a library and a device."""
    if a.ops.name != b.ops.name:
        raise ValueError(f"{what}: arrays of different libraries ({a.ops.name} and {b.ops.name})")
    if a.device != b.device:
        raise ValueError(f"{what}: arrays on different devices ({_where(a.device)} and {_where(b.device)})")


def _where(device):
    return "cpu" if device < 0 else f"cuda:{device}"
