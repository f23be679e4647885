"""Data types: `DType`, NumPy 2 promotion with weak Python scalars (NEP 50), and conversion from anything dtype-like.

Promotion between two arrays follows NumPy 2 (`np.promote_types`). A Python scalar is *weak*: it adopts the other
operand's dtype when its kind fits (`float32 * 2.0 -> float32`), else the default dtype of its kind. Where NumPy
would pick float64 for an integer array with a Python float, lazyarr follows PyTorch/tinygrad and picks the default
float, float32 (also the dtype of tensors made from Python floats). For the same reason true division of integers and
float functions of integer or bool tensors (exp, sqrt, mean, var, softmax, ...) compute in float32, where NumPy picks
float64 (float16 for bool and int8).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, eq=False)
class DType:
    """A lazyarr element type. `kind` is 'b' (bool), 'i' (signed int), 'u' (unsigned int) or 'f' (float)."""

    name: str
    itemsize: int
    kind: str
    np_name: str

    def __repr__(self) -> str:
        return f"lazyarr.{self.name}"

    def __reduce__(self) -> str:
        return self.name  # pickles as the module-level singleton

    def __eq__(self, other: object) -> bool:
        """Equal to itself and, like a NumPy dtype, to what `np.dtype` makes the same dtype of (`np.float32`,
        `np.dtype("float32")`, `"float32"`, `"f4"`), so that NumPy code's `x.dtype == np.float32` works."""
        if isinstance(other, DType):
            return self is other
        if other is None or not isinstance(other, (str, type, np.dtype)):
            return NotImplemented
        try:
            return bool(np.dtype(self.np_name) == np.dtype(other))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return NotImplemented

    __hash__ = object.__hash__  # the singletons hash by identity (equal DTypes are the same object)

    @property
    def dtype(self) -> np.dtype:
        """The NumPy dtype (lets `np.dtype(lazyarr.float32)` work)."""
        return np.dtype(self.np_name)

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_int(self) -> bool:
        return self.kind in "iu"

    @property
    def is_unsigned(self) -> bool:
        return self.kind == "u"

    @property
    def is_bool(self) -> bool:
        return self.kind == "b"

    @property
    def bits(self) -> int:
        return 8 * self.itemsize


bool_ = DType("bool", 1, "b", "bool")
int8 = DType("int8", 1, "i", "int8")
int16 = DType("int16", 2, "i", "int16")
int32 = DType("int32", 4, "i", "int32")
int64 = DType("int64", 8, "i", "int64")
uint8 = DType("uint8", 1, "u", "uint8")
uint16 = DType("uint16", 2, "u", "uint16")
uint32 = DType("uint32", 4, "u", "uint32")
uint64 = DType("uint64", 8, "u", "uint64")
float16 = DType("float16", 2, "f", "float16")
float32 = DType("float32", 4, "f", "float32")
float64 = DType("float64", 8, "f", "float64")

ALL: tuple[DType, ...] = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64)
BY_NAME: dict[str, DType] = {d.name: d for d in ALL}
_BY_NP: dict[np.dtype, DType] = {np.dtype(d.np_name): d for d in ALL}

default_float: DType = float32
default_int: DType = int64



def __getattr__(name: str) -> DType:
    # `lazyarr.dtypes.bool` (a module attribute that must not shadow the builtin inside this module)
    if name == "bool":
        return bool_
    raise AttributeError(f"module 'lazyarr.dtypes' has no attribute {name!r}")


class DTypeError(TypeError):
    """A dtype lazyarr does not support or cannot use for this operation."""


def to_dtype(x: Any) -> DType:
    """Convert a DType, NumPy dtype, scalar type (`np.float32`, `float`, `int`, `bool`) or string to a DType.
    `float` is float64 and `int` int64, as `np.dtype(float)` and PyTorch's `dtype=float`.

    Raises:
        TypeError: not dtype-like, or a dtype lazyarr does not support (complex, object, strings, datetime).
    """
    if isinstance(x, DType):
        return x
    if x is float:  # the type means float64, as in NumPy and PyTorch (Python float values still make float32)
        return float64
    if x is int:
        return default_int
    if x is bool:
        return bool_
    if isinstance(x, str) and x in BY_NAME:
        return BY_NAME[x]
    try:
        npd = np.dtype(x)
    except TypeError as e:
        raise TypeError(f"data type {x!r} not understood") from e
    if npd.byteorder not in "=|" and npd.kind in "biuf":
        npd = npd.newbyteorder("=")  # big-endian data (e.g. from a file) is the same dtype in native order
    if npd not in _BY_NP:
        raise DTypeError(f"lazyarr does not support dtype {npd} (supported: {', '.join(BY_NAME)})")
    return _BY_NP[npd]


def from_numpy(npd: np.dtype) -> DType:
    """DType of a NumPy dtype; TypeError for unsupported ones."""
    return to_dtype(npd)


@functools.cache
def promote(a: DType, b: DType) -> DType:
    """NumPy 2 promotion of two array dtypes (`np.promote_types`)."""
    return _BY_NP[np.promote_types(a.np_name, b.np_name)]


def result_type(*dts: DType) -> DType:
    """Promotion of several array dtypes."""
    out = dts[0]
    for d in dts[1:]:
        out = promote(out, d)
    return out


def scalar_kind(x: Any) -> str:
    """'b', 'i' or 'f' for a Python/NumPy-scalar-like value; TypeError for anything else."""
    if isinstance(x, (bool, np.bool_)):
        return "b"
    if isinstance(x, (int, np.integer)):
        return "i"
    if isinstance(x, (float, np.floating)):
        return "f"
    raise TypeError(f"unsupported operand type: {type(x).__name__} (expected a number, array or Tensor)")


def weak_result(dt: DType, x: Any) -> DType:
    """dtype of `array(dt) op python_scalar(x)` under NEP 50 weak-scalar rules.

    Raises:
        OverflowError: a Python int that does not fit in the integer dtype it adopts (NumPy's behaviour).
    """
    kind = scalar_kind(x)
    if kind == "b":
        return dt
    if kind == "i":
        if dt.is_bool:
            dt = default_int  # checked as int64: bool + 2**63 is NumPy's OverflowError
        if dt.is_int and not min_value(dt) <= int(x) <= max_value(dt):
            raise OverflowError(f"Python integer {x} out of bounds for {dt.name}")
        return dt
    return dt if dt.is_float else default_float


def scalar_dtype(x: Any) -> DType:
    """dtype of a tensor made from a lone Python scalar: bool, int64 or float32 (NumPy scalars keep theirs)."""
    if isinstance(x, np.generic):
        return to_dtype(x.dtype)
    return {"b": bool_, "i": default_int, "f": default_float}[scalar_kind(x)]


@functools.cache  # (np.iinfo takes about 1 us: an integer tensor plus a Python int checks both bounds)
def min_value(dt: DType) -> int | float | bool:
    """Smallest value of `dt` (-inf for floats): the identity of max."""
    if dt.is_float:
        return float("-inf")
    if dt.is_bool:
        return False
    return int(np.iinfo(dt.np_name).min)


@functools.cache
def max_value(dt: DType) -> int | float | bool:
    """Largest value of `dt` (+inf for floats): the identity of min."""
    if dt.is_float:
        return float("inf")
    if dt.is_bool:
        return True
    return int(np.iinfo(dt.np_name).max)


def cast_scalar(x: Any, dt: DType) -> int | float | bool:
    """A Python scalar converted to the Python value dtype `dt` would store (ints wrap like NumPy's astype)."""
    if dt.is_bool:
        return bool(x)
    if dt.is_float:
        return float(np.array(x).astype(dt.np_name))
    return int(np.array(x).astype(dt.np_name))


def float_to_int(x: float, dt: DType) -> int:
    """The integer NumPy's astype gives float `x` in integer dtype `dt` on x86-64: truncation toward zero, and for
    NaN, infinities and values out of range what its conversions give there. Those go through the truncating
    conversion to int32 (int8/16/32, uint8/16) or int64 (int64, uint32), which gives the integer 'indefinite' value
    (INT_MIN) when the truncated value does not fit, and then wrap to `dt`; uint64 converts x - 2**63 when x >= 2**63
    and flips the top bit back. (NumPy's contiguous float -> uint32 loop is the one exception: its SIMD body maps an
    out-of-range value through int32 instead, so the same value can give two results in one array; this is the
    result of its scalar conversion and of its other loops.)"""

    def cvtt(v: float, bits: int) -> int:  # x86's cvttsd2si: truncate, or INT_MIN when the result does not fit
        lim = 1 << (bits - 1)
        return int(v) if v == v and -lim - 1 < v < lim else -lim

    if dt.name == "uint64":
        r = cvtt(x - 2.0**63, 64) ^ -(1 << 63) if x >= 2.0**63 else cvtt(x, 64)
    else:
        r = cvtt(x, 64 if dt.name in ("int64", "uint32") else 32)
    bits = dt.bits
    r &= (1 << bits) - 1
    return r - (1 << bits) if not dt.is_unsigned and r >= 1 << (bits - 1) else r
