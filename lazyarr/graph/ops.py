"""The primitive operations (`Ops`), their groups, and a pure-Python reference for scalar ALU ops.

Passes dispatch on group membership (`GroupOp.Unary`, `GroupOp.Movement`, ...) rather than on individual ops.
`exec_alu` is the reference semantics used by constant folding; it follows NumPy's scalar results.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from enum import Enum, auto
from typing import Any

import numpy as np

from lazyarr.dtypes import DType


class Ops(Enum):
    """Every node kind of a UOp graph."""

    # leaves
    BUFFER = auto()  # arg: BufferRef (storage + version); shape (size,)
    CONST = auto()  # arg: Python value; shape ()
    IOTA = auto()  # arg: length n; shape (n,), value i at position i
    PARAM = auto()  # arg: ParamArg; stands for a BUFFER in schedule-cache keys
    # movement (arg: the new shape / order / per-dim pairs / per-dim flags)
    RESHAPE = auto()
    PERMUTE = auto()
    EXPAND = auto()
    SHRINK = auto()
    PAD = auto()
    FLIP = auto()
    STRIDE = auto()  # arg: per-dim step k > 0, keeps elements 0, k, 2k, ...
    # unary ALU
    NEG = auto()
    ABS = auto()
    SQRT = auto()
    RECIPROCAL = auto()
    EXP = auto()
    EXP2 = auto()
    LOG = auto()
    LOG2 = auto()
    LOG1P = auto()
    EXPM1 = auto()
    SIN = auto()
    COS = auto()
    TAN = auto()
    TANH = auto()
    ERF = auto()
    FLOOR = auto()
    CEIL = auto()
    TRUNC = auto()
    RINT = auto()  # round half to even, like np.round
    NOT = auto()  # logical not for bool, bitwise not for ints
    # binary ALU
    ADD = auto()
    SUB = auto()
    MUL = auto()
    DIV = auto()  # true division (floats only)
    IDIV = auto()  # floor division
    MOD = auto()  # floor modulo (sign of the divisor), like np.remainder
    MAX = auto()
    MIN = auto()
    POW = auto()
    CMPLT = auto()
    CMPLE = auto()
    CMPEQ = auto()
    CMPNE = auto()
    AND = auto()
    OR = auto()
    XOR = auto()
    SHL = auto()
    SHR = auto()
    # ternary ALU
    WHERE = auto()
    # type conversion
    CAST = auto()
    BITCAST = auto()
    # reduction (arg: ReduceArg)
    REDUCE = auto()
    SCAN = auto()  # arg: ScanArg(op, axis); the inclusive running reduction along one axis, in order (same shape)
    # realisation control
    CONTIGUOUS = auto()  # materialise src into a new buffer when realised
    COPY = auto()  # copy src to another device (arg: device name)
    ASSIGN = auto()  # src: (target view of a storage, value); value: the whole storage after the write (its shape)
    GATHER = auto()  # src: (data, index); data is read at data-dependent positions (arg: GatherArg)
    DETACH = auto()  # an identity view through which no gradient flows (removed before scheduling)

    # members are singletons, so identity hashing is exact; Enum's own __hash__ (a Python call hashing the name)
    # ran several times per UOp built, on every eager op. Set order was already per-process (string hashes are salted).
    __hash__ = object.__hash__


class GroupOp:
    """Sets of ops that passes dispatch on."""

    Unary = frozenset({Ops.NEG, Ops.ABS, Ops.SQRT, Ops.RECIPROCAL, Ops.EXP, Ops.EXP2, Ops.LOG, Ops.LOG2, Ops.LOG1P,
                       Ops.EXPM1, Ops.SIN, Ops.COS, Ops.TAN, Ops.TANH, Ops.ERF, Ops.FLOOR, Ops.CEIL, Ops.TRUNC,
                       Ops.RINT, Ops.NOT})
    Binary = frozenset({Ops.ADD, Ops.SUB, Ops.MUL, Ops.DIV, Ops.IDIV, Ops.MOD, Ops.MAX, Ops.MIN, Ops.POW, Ops.CMPLT,
                        Ops.CMPLE, Ops.CMPEQ, Ops.CMPNE, Ops.AND, Ops.OR, Ops.XOR, Ops.SHL, Ops.SHR})
    Ternary = frozenset({Ops.WHERE})
    ALU = Unary | Binary | Ternary
    Elementwise = ALU | {Ops.CAST, Ops.BITCAST}
    Movement = frozenset({Ops.RESHAPE, Ops.PERMUTE, Ops.EXPAND, Ops.SHRINK, Ops.PAD, Ops.FLIP, Ops.STRIDE,
                          Ops.DETACH})
    Leaf = frozenset({Ops.BUFFER, Ops.CONST, Ops.IOTA, Ops.PARAM})
    Comparison = frozenset({Ops.CMPLT, Ops.CMPLE, Ops.CMPEQ, Ops.CMPNE})
    Commutative = frozenset({Ops.ADD, Ops.MUL, Ops.MAX, Ops.MIN, Ops.CMPEQ, Ops.CMPNE, Ops.AND, Ops.OR, Ops.XOR})
    Transcendental = frozenset({Ops.EXP, Ops.EXP2, Ops.LOG, Ops.LOG2, Ops.LOG1P, Ops.EXPM1, Ops.SIN, Ops.COS, Ops.TAN,
                                Ops.TANH, Ops.ERF, Ops.POW})
    FloatOnly = (Transcendental - {Ops.POW}) | {Ops.SQRT, Ops.RECIPROCAL, Ops.DIV}  # integer POW is exact
    IntOnly = frozenset({Ops.AND, Ops.OR, Ops.XOR, Ops.SHL, Ops.SHR})
    Reducible = frozenset({Ops.ADD, Ops.MUL, Ops.MAX, Ops.MIN})


# ---- pure-Python reference for scalar ALU ops (constant folding) ----


def _round_f32(x: float) -> float:
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _round_f16(x: float) -> float:
    try:
        return struct.unpack("e", struct.pack("e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def truncate(x: Any, dtype: DType) -> Any:
    """A Python scalar stored in `dtype`: ints wrap, floats round to the type's precision."""
    if dtype.is_bool:
        return bool(x)
    if dtype.is_float:
        x = float(x)
        if math.isnan(x) or math.isinf(x) or dtype.itemsize == 8:
            return x
        return _round_f32(x) if dtype.itemsize == 4 else _round_f16(x)
    x = int(x)
    bits = dtype.bits
    x &= (1 << bits) - 1
    if not dtype.is_unsigned and x >= 1 << (bits - 1):
        x -= 1 << bits
    return x


def _safe(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*a: Any) -> Any:
        try:
            return fn(*a)
        except (OverflowError, ValueError, ZeroDivisionError):
            return math.nan

    return wrapped


def _fpow(a: Any, b: Any) -> Any:
    """a**b as C's pow: exact for two ints, else IEEE (0.0**-1 is inf, overflow is +-inf, a negative base to a
    non-integer power NaN), where Python's ** raises or returns a complex number."""
    if isinstance(a, int) and isinstance(b, int):
        return _safe(pow)(a, b)
    with np.errstate(all="ignore"):
        return float(np.power(np.float64(a), np.float64(b)))


# the NaN an invalid operation (0/0, inf-inf) gives on this machine, as a kernel's would: x86's has its sign bit set
DEFAULT_NAN = math.inf - math.inf


def _fdiv(a: Any, b: Any) -> float:
    if b == 0:
        if math.isnan(a):
            return a  # a NaN dividend comes through as it is (sign and payload), as the hardware's division
        if a == 0:
            return DEFAULT_NAN
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _idiv(a: Any, b: Any) -> Any:
    if isinstance(a, float) or isinstance(b, float):
        return math.floor(a / b) if b != 0 and math.isfinite(a / b) else _fdiv(a, b)
    return a // b if b != 0 else 0


def _mod(a: Any, b: Any) -> Any:
    if isinstance(a, float) or isinstance(b, float):
        return math.fmod(a, b) + (b if math.fmod(a, b) and (math.fmod(a, b) < 0) != (b < 0) else 0) if b else math.nan
    return a % b if b != 0 else 0


def _exp(x: float) -> float:
    return math.exp(x) if x < 710 else math.inf


def _log(x: float) -> float:
    if x == 0:
        return -math.inf
    return math.log(x) if x > 0 else math.nan


PYTHON_ALU: dict[Ops, Callable[..., Any]] = {
    Ops.NEG: lambda x: not x if isinstance(x, bool) else -x,
    Ops.ABS: abs,
    Ops.SQRT: lambda x: math.sqrt(x) if x >= 0 else x if x != x else DEFAULT_NAN,  # a NaN as it is, as sqrtsd
    Ops.RECIPROCAL: lambda x: _fdiv(1.0, x),
    Ops.EXP: _exp,
    Ops.EXP2: lambda x: 2.0**x if x < 1024 else math.inf,
    Ops.LOG: _log,
    Ops.LOG2: lambda x: _log(x) / math.log(2),
    Ops.LOG1P: lambda x: math.log1p(x) if x > -1 else (-math.inf if x == -1 else math.nan),
    Ops.EXPM1: lambda x: math.expm1(x) if x < 710 else math.inf,
    Ops.SIN: _safe(math.sin),
    Ops.COS: _safe(math.cos),
    Ops.TAN: _safe(math.tan),
    Ops.TANH: math.tanh,
    Ops.ERF: math.erf,
    Ops.FLOOR: lambda x: float(math.floor(x)) if math.isfinite(x) else x,
    Ops.CEIL: lambda x: float(math.ceil(x)) if math.isfinite(x) else x,
    Ops.TRUNC: lambda x: float(math.trunc(x)) if math.isfinite(x) else x,
    Ops.RINT: lambda x: float(round(x)) if math.isfinite(x) else x,
    Ops.NOT: lambda x: (not x) if isinstance(x, bool) else ~x,
    Ops.ADD: lambda a, b: a + b,
    Ops.SUB: lambda a, b: a - b,
    Ops.MUL: lambda a, b: a * b,
    Ops.DIV: _fdiv,
    Ops.IDIV: _idiv,
    Ops.MOD: _mod,
    Ops.MAX: lambda a, b: a if math.isnan(a) or a >= b else b,
    Ops.MIN: lambda a, b: a if math.isnan(a) or a <= b else b,
    Ops.POW: _fpow,
    Ops.CMPLT: lambda a, b: a < b,
    Ops.CMPLE: lambda a, b: a <= b,
    Ops.CMPEQ: lambda a, b: a == b,
    Ops.CMPNE: lambda a, b: a != b,
    Ops.AND: lambda a, b: a & b,
    Ops.OR: lambda a, b: a | b,
    Ops.XOR: lambda a, b: a ^ b,
    Ops.SHL: lambda a, b: a << b if 0 <= b < 64 else 0,
    Ops.SHR: lambda a, b: a >> b if 0 <= b < 64 else (-1 if a < 0 else 0),
    Ops.WHERE: lambda c, a, b: a if c else b,
}


def exec_alu(op: Ops, dtype: DType, operands: tuple[Any, ...]) -> Any:
    """Evaluate one ALU op on Python scalars and store the result in `dtype` (reference semantics)."""
    return truncate(PYTHON_ALU[op](*operands), dtype)
