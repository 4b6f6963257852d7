"""What the array libraries' adapters share: the input wrapper (Arr), the choice of adapter
(wrap), GPU arrays of other libraries (ForeignOps) and out-of-memory errors.

One adapter per library (_numpy.NumpyOps, _torch.TorchOps, _cupy.CupyOps) implements the small
interface the primitives use.

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


def translate_oom(e):
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
            m = translate_oom(e)
            if m is None:
                raise
            raise m from e

    return call


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
    """The adapter of an array library, made once; torch and CuPy are imported only here."""
    ops = _ops_cache.get(kind)
    if ops is None:
        if kind == "numpy":
            from ._numpy import NumpyOps as make
        elif kind == "torch":
            from ._torch import TorchOps as make
        else:
            from ._cupy import CupyOps as make
        ops = _ops_cache[kind] = make()
    return ops


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
