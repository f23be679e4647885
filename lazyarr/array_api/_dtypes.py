"""Array API data type functions: `astype`, `can_cast`, `finfo`, `iinfo`, `isdtype`, `result_type`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.frontend.numpy_api import is_tensor
from lazyarr.frontend.tensor import Tensor

REAL_FLOATING = (dtypes.float32, dtypes.float64)
SIGNED = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)
UNSIGNED = (dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64)
KINDS: dict[str, tuple[DType, ...]] = {
    "bool": (dtypes.bool_,),
    "signed integer": SIGNED,
    "unsigned integer": UNSIGNED,
    "integral": SIGNED + UNSIGNED,
    "real floating": REAL_FLOATING + (dtypes.float16,),
    "complex floating": (),
    "numeric": SIGNED + UNSIGNED + REAL_FLOATING + (dtypes.float16,),
}


def _dtype_of(x: Any) -> DType:
    if is_tensor(x):
        return x.dtype
    return dtypes.to_dtype(x)


def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether `dtype` is of `kind`: a dtype, a kind name ('bool', 'signed integer', 'unsigned integer',
    'integral', 'real floating', 'complex floating', 'numeric') or a tuple of those."""
    dt = dtypes.to_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        if kind not in KINDS:
            raise ValueError(f"unknown data type kind {kind!r}")
        return dt in KINDS[kind]
    return dt is dtypes.to_dtype(kind)


def result_type(*arrays_and_dtypes: Any) -> DType:
    """The promoted dtype of arrays, dtypes and (weak) Python scalars (NumPy 2 promotion)."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    items = [np.dtype(_dtype_of(x).np_name) if not isinstance(x, (bool, int, float)) else x for x in arrays_and_dtypes]
    return dtypes.from_numpy(np.result_type(*items))


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether `from_` (a dtype or array) casts to `to` under the standard's rules (NumPy's 'safe' casting)."""
    return bool(np.can_cast(_dtype_of(from_).np_name, dtypes.to_dtype(to).np_name, "safe"))


def astype(x: Tensor, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Tensor:
    """`x` converted to `dtype` (a copy when `copy`, else `x` itself if it already has that dtype)."""
    dt = dtypes.to_dtype(dtype)
    out = x if device is None else x.to_device(device)
    if dt is out.dtype:
        return out.clone() if copy else out
    return out.cast(dt)


@dataclass(frozen=True)
class finfo_object:  # noqa: N801 - the standard's name
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


@dataclass(frozen=True)
class iinfo_object:  # noqa: N801
    bits: int
    max: int
    min: int
    dtype: DType


def finfo(type: Any, /) -> finfo_object:  # noqa: A002 - the standard's parameter name
    """Machine limits of a floating dtype (TypeError for others, like NumPy's ValueError would be)."""
    dt = _dtype_of(type)
    if not dt.is_float:
        raise ValueError(f"data type {dt.name} not inexact")
    info = np.finfo(dt.np_name)
    return finfo_object(dt.bits, float(info.eps), float(info.max), float(info.min), float(info.smallest_normal), dt)


def iinfo(type: Any, /) -> iinfo_object:  # noqa: A002
    """Machine limits of an integer dtype."""
    dt = _dtype_of(type)
    if not dt.is_int:
        raise ValueError(f"Invalid integer data type {dt.name!r}.")
    info = np.iinfo(dt.np_name)
    return iinfo_object(dt.bits, int(info.max), int(info.min), dt)
