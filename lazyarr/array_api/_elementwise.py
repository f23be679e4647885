"""Array API elementwise functions, each the NumPy ufunc of the same meaning run through lazyarr's ufunc machinery
(NumPy 2 type promotion, lazy results that fuse)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.frontend.elementwise import beyond_range, clip_bounds
from lazyarr.frontend.np_ufuncs import ufunc_call
from lazyarr.frontend.tensor import Tensor

# standard name -> NumPy ufunc
UFUNC_NAMES: dict[str, np.ufunc] = {
    "abs": np.absolute, "acos": np.arccos, "acosh": np.arccosh, "add": np.add, "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atan2": np.arctan2, "atanh": np.arctanh, "bitwise_and": np.bitwise_and,
    "bitwise_left_shift": np.left_shift, "bitwise_invert": np.invert, "bitwise_or": np.bitwise_or,
    "bitwise_right_shift": np.right_shift, "bitwise_xor": np.bitwise_xor, "ceil": np.ceil, "conj": np.conjugate,
    "copysign": np.copysign, "cos": np.cos, "cosh": np.cosh, "divide": np.divide, "equal": np.equal, "exp": np.exp,
    "expm1": np.expm1, "floor": np.floor, "floor_divide": np.floor_divide, "greater": np.greater,
    "greater_equal": np.greater_equal, "hypot": np.hypot, "isfinite": np.isfinite, "isinf": np.isinf,
    "isnan": np.isnan, "less": np.less, "less_equal": np.less_equal, "log": np.log, "log1p": np.log1p,
    "log2": np.log2, "log10": np.log10, "logaddexp": np.logaddexp, "logical_and": np.logical_and,
    "logical_not": np.logical_not, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "maximum": np.maximum, "minimum": np.minimum, "multiply": np.multiply, "negative": np.negative,
    "not_equal": np.not_equal, "positive": np.positive, "pow": np.power, "remainder": np.remainder,
    "sign": np.sign, "signbit": np.signbit, "sin": np.sin, "sinh": np.sinh, "square": np.square,
    "sqrt": np.sqrt, "subtract": np.subtract, "tan": np.tan, "tanh": np.tanh, "trunc": np.trunc,
}


def _make(name: str, ufunc: np.ufunc) -> Callable[..., Tensor]:
    def fn(*args: Any) -> Tensor:
        if len(args) != ufunc.nin:
            raise TypeError(f"{name}() takes {ufunc.nin} positional argument{'s' * (ufunc.nin > 1)} "
                            f"but {len(args)} were given")
        return ufunc_call(ufunc, args, {})

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Array API `{name}`: elementwise NumPy `{ufunc.__name__}` (lazy)."
    return fn


FUNCTIONS: dict[str, Callable[..., Tensor]] = {name: _make(name, u) for name, u in UFUNC_NAMES.items()}


def _round(x: Tensor, /) -> Tensor:
    """Round half to even; integers are returned unchanged (np.round, not np.rint, which makes them floats)."""
    return np.round(x)


_round.__name__ = _round.__qualname__ = "round"
FUNCTIONS["round"] = _round


def _bound(b: Any, dt: Any) -> Any:
    if isinstance(b, Tensor):
        return b.cast(dt)
    if beyond_range(dt, b):
        raise OverflowError(f"Python integer {b} out of bounds for {dt.name}")
    return dtypes.cast_scalar(b, dt)


def clip(x: Tensor, /, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002 - the standard's names
    """`x` limited to [min, max] in x's dtype (bounds may be scalars or arrays; None leaves a side open). A Python
    int bound beyond an integer dtype clips nothing on its own side and is an OverflowError on the other, as
    NumPy's clip (it is never wrapped into the dtype)."""
    min, max = clip_bounds(x.dtype, min, max)  # noqa: A001
    out = x
    if min is not None:
        out = out.maximum(_bound(min, x.dtype))
    if max is not None:
        out = out.minimum(_bound(max, x.dtype))
    return out.cast(x.dtype)


def real(x: Tensor, /) -> Tensor:
    return x


def imag(x: Tensor, /) -> Tensor:
    return x.zeros_like()
