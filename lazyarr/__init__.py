"""lazyarr: a lazy, JIT-compiling array library. Code looks eager; ops build a UOp graph that is fused into kernels,
compiled with Numba (CPU) or as CUDA C, cached, and run. See README.md for a tour.
"""

from lazyarr import array_api, dtypes, nn, optim
from lazyarr.array_api import from_dlpack
from lazyarr.dtypes import (
    DType,
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from lazyarr.frontend import np_functions, np_linalg, np_shape, np_ufuncs  # noqa: F401  (registers NumPy impls)
from lazyarr.frontend.autograd import enable_grad, gradient, is_grad_enabled, no_grad, set_grad_enabled
from lazyarr.frontend.numpy_api import NumpyFallbackWarning
from lazyarr.frontend.tensor import Tensor
from lazyarr.helpers import AxisError, Context, JitError
from lazyarr.jit import JitWarning, jit
from lazyarr.kernels.stats import Stats, reset_stats, stats

__version__ = "0.1.0"
__all__ = ["Tensor", "Context", "jit", "JitError", "JitWarning", "NumpyFallbackWarning", "array_api", "from_dlpack",
           "nn", "optim", "gradient", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "dtypes", "DType", "stats", "reset_stats", "Stats", "AxisError", "bool_", "int8",
           "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"]


def __getattr__(name: str) -> DType:
    # `lazyarr.bool` like `lazyarr.dtypes.bool` (NumPy 2's `np.bool`, torch's `torch.bool`); a module attribute
    # rather than a global so that it does not shadow the builtin inside this module
    if name == "bool":
        return bool_
    raise AttributeError(f"module 'lazyarr' has no attribute {name!r}")
