"""The value an in-place write stores: a Tensor, Python scalar, nested list, NumPy array, string or None as a tensor
of the target's dtype and shape, converted (or refused) as NumPy's `a[idx] = x` and tinygrad's `assign` do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr.dtypes import DType
from lazyarr.graph.uop import UOp

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor


def _python_scalar(x: Any) -> bool:
    return isinstance(x, (bool, int, float)) and not isinstance(x, np.generic)


def scalar_into(x: Any, dt: DType) -> Any:
    """A Python scalar stored into `dt` the way NumPy's `a[i] = x` stores it.

    Raises:
        OverflowError: an int out of the integer dtype's range, or infinity into an integer.
        ValueError: NaN into an integer.
    """
    if dt.is_bool:
        return bool(x)
    if dt.is_float:
        return float(x)
    if isinstance(x, float):
        if x != x:
            raise ValueError(f"cannot convert float NaN to integer ({dt.name})")
        if x in (float("inf"), float("-inf")):
            raise OverflowError(f"cannot convert float infinity to integer ({dt.name})")
        x = int(x)
    info = np.iinfo(dt.np_name)
    if not info.min <= int(x) <= info.max:
        raise OverflowError(f"Python integer {int(x)} out of bounds for {dt.name}")
    return int(x)


def _numpy_assigned(x: Any, dt: DType) -> np.ndarray:
    """What NumPy's `a[...] = x` stores for `x` (a string, None, an object array) in an array of `dt`, or its
    error."""
    out = np.empty(np.shape(x), dt.np_name)
    out[...] = x
    return out


def value_for(target: Tensor, x: Any, strict: bool) -> Tensor:
    """`x` as a tensor of target's dtype, broadcast to target's shape, ready to be written into it.

    strict (assign): a Tensor or NumPy array must already have target's dtype; Python scalars and lists of numbers
    are cast. Otherwise (setitem): everything is cast like NumPy's `a[idx] = x`, and what is no number (a string,
    None, a list holding them) is converted by NumPy's own assignment: "1.5" is 1.5, None is NaN in a float tensor.

    Raises:
        TypeError: a dtype mismatch under `strict`, data that is not numeric under `strict`, or data NumPy's
            assignment refuses with TypeError (an object, a complex number).
        ValueError: a device mismatch, a shape that does not broadcast to target's shape, or a string that is no
            number ("could not convert string to float: 'abc'", NumPy's).
    """
    cls = type(target)
    dt = target.dtype
    arr = np.array(x) if isinstance(x, (list, tuple)) else x
    if isinstance(x, cls):
        if x.device != target.device:
            raise ValueError(f"cannot write a tensor on {x.device} into a tensor on {target.device}")
        v = x
    elif _python_scalar(x):
        v = target._new(UOp.const(scalar_into(x, dt), dt))
    elif isinstance(x, (list, tuple)) and arr.dtype.kind in "biuf":
        if arr.size and dt.is_int and arr.dtype.kind == "f" and not np.isfinite(arr).all():
            raise ValueError(f"cannot convert non-finite floats to integer ({dt.name})")
        v = cls(arr.astype(dt.np_name), device=target.device)
    elif isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind in "biuf":
        v = cls(np.asarray(x), device=target.device)
    elif not strict:
        v = cls(_numpy_assigned(arr, dt), device=target.device)
    else:
        raise TypeError(f"cannot write a {type(x).__name__} into a tensor (a number, a list of numbers, a NumPy "
                        f"array or a Tensor)")
    if v.dtype is not dt:
        if strict:
            raise TypeError(f"assign: dtype mismatch: cannot assign {v.dtype.name} values to a {dt.name} tensor "
                            f"(cast the value first)")
        v = v.cast(dt)
    if v.shape != target.shape:
        shape = v.shape
        while len(shape) > len(target.shape) and shape[0] == 1:
            shape = shape[1:]  # NumPy drops leading 1s of the value
        lead = len(target.shape) - len(shape)
        if lead < 0 or any(s != 1 and s != n for s, n in zip(shape, target.shape[lead:])):
            raise ValueError(f"could not broadcast input array from shape {v.shape} into shape {target.shape}")
        v = v.reshape(shape).broadcast_to(target.shape)
    return v
