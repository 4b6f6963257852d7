"""NumPy arrays (and array-likes) as scankit's arrays: host memory, the CPU backend."""

import numpy as np

_NUMPY_NAMES = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64",
}


_dtype_names = {}


def numpy_dtype_name(dt):
    """A NumPy dtype's name, remembered per dtype object: dtype.name builds a new string on
    every call, a noticeable part of a small array's call."""
    n = _dtype_names.get(dt)
    if n is None:
        # A dtype of the other byte order keeps its own name ('>i4'): it is none of the types
        # the library reads.
        n = dt.name if dt.name in _NUMPY_NAMES and dt.isnative else str(dt)
        if len(_dtype_names) < 256:
            _dtype_names[dt] = n
    return n


class NumpyOps:
    name = "numpy"

    def dtype_name(self, x):
        return numpy_dtype_name(x.dtype)

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
