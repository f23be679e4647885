"""The array API (2023.12) namespace of lazyarr: `Tensor.__array_namespace__()` returns this module.

Functions take and return lazyarr Tensors and keep the standard's names and keywords (`keepdims`, `copy`, `device`,
`correction`, `descending`, ...). Elementwise functions use NumPy 2 type promotion; the default floating dtype is
float32 and the default integer dtype int64 (see `__array_namespace_info__().default_dtypes()`). Complex dtypes are
not supported.
"""

from __future__ import annotations

import math

from lazyarr import dtypes as _lz_dtypes
from lazyarr.array_api._creation import (
    arange,
    asarray,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    linspace,
    meshgrid,
    ones,
    ones_like,
    tril,
    triu,
    zeros,
    zeros_like,
)
from lazyarr.array_api._dtypes import astype, can_cast, finfo, iinfo, isdtype, result_type
from lazyarr.array_api._elementwise import FUNCTIONS as _ELEMENTWISE
from lazyarr.array_api._elementwise import clip, imag, real
from lazyarr.array_api._functions import (
    all,
    any,
    argmax,
    argmin,
    argsort,
    broadcast_arrays,
    broadcast_to,
    concat,
    cumulative_sum,
    expand_dims,
    flip,
    matmul,
    matrix_transpose,
    max,
    mean,
    min,
    moveaxis,
    nonzero,
    permute_dims,
    prod,
    repeat,
    reshape,
    roll,
    searchsorted,
    sort,
    squeeze,
    stack,
    std,
    sum,
    take,
    tensordot,
    tile,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
    unstack,
    var,
    vecdot,
    where,
)
from lazyarr.array_api._info import __array_namespace_info__

__array_api_version__ = "2023.12"

globals().update(_ELEMENTWISE)

# data type objects (`bool` is bound last: nothing in this module calls the builtin after this point)
int8, int16, int32, int64 = _lz_dtypes.int8, _lz_dtypes.int16, _lz_dtypes.int32, _lz_dtypes.int64
uint8, uint16, uint32, uint64 = _lz_dtypes.uint8, _lz_dtypes.uint16, _lz_dtypes.uint32, _lz_dtypes.uint64
float16, float32, float64 = _lz_dtypes.float16, _lz_dtypes.float32, _lz_dtypes.float64
bool = _lz_dtypes.bool_  # noqa: A001

e, pi, inf, nan, newaxis = math.e, math.pi, math.inf, math.nan, None

__all__ = [
    "__array_api_version__", "__array_namespace_info__", "e", "pi", "inf", "nan", "newaxis",
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64",
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like", "linspace", "meshgrid",
    "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
    "astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type",
    "clip", "real", "imag", *_ELEMENTWISE,
    "all", "any", "argmax", "argmin", "argsort", "broadcast_arrays", "broadcast_to", "concat", "cumulative_sum",
    "expand_dims", "flip", "matmul", "matrix_transpose", "max", "mean", "min", "moveaxis", "nonzero", "permute_dims",
    "prod", "repeat", "reshape", "roll", "searchsorted", "sort", "squeeze", "stack", "std", "sum", "take", "tensordot",
    "tile", "unique_all", "unique_counts", "unique_inverse", "unique_values", "unstack", "var", "vecdot", "where",
]
