"""Elementwise Tensor methods: operators with broadcasting and NumPy 2 promotion (weak Python scalars), math
functions, comparisons, bitwise ops, `where`, activations. Composite ops are one-liners over primitives.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's broadcast of several shapes; ValueError naming them when they are incompatible."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for dims in zip(*[(1,) * (ndim - len(s)) + tuple(s) for s in shapes]):
        big = {d for d in dims if d != 1}
        if len(big) > 1:
            raise ValueError(f"operands could not be broadcast together with shapes {' '.join(map(str, shapes))}")
        out.append(big.pop() if big else 1)
    return tuple(out)


def _broadcast_uop(u: UOp, shape: tuple[int, ...]) -> UOp:
    """`u` broadcast to `shape` (the graph `Tensor.broadcast_to` builds; the shape is known to be compatible)."""
    return u.reshape((1,) * (len(shape) - len(u.shape)) + u.shape).expand(shape)


def beyond_range(dt: DType, value: Any) -> int:
    """1 (-1) when `value` is a Python int above (below) every value of the integer dtype `dt`, else 0."""
    if not dt.is_int or type(value) is not int:
        return 0
    info = np.iinfo(dt.np_name)
    return 1 if value > info.max else -1 if value < info.min else 0


def compare_beyond_range(x: Tensor, op: Ops, value: Any, value_first: bool) -> Tensor | None:
    """NEP 50: `x op value` (`value op x` when `value_first`; op CMPLT, CMPLE, CMPEQ or CMPNE) for a Python int
    `value` beyond x's integer dtype has one answer for every element (a uint8 array > -1 is all True, == 300 all
    False), found without casting `value` (which would raise OverflowError). None when `value` is in range."""
    side = beyond_range(x.dtype, value)
    if not side:
        return None
    if op in (Ops.CMPEQ, Ops.CMPNE):
        answer = op is Ops.CMPNE
    else:  # x < v holds for a v above the range; v < x for a v below it
        answer = side < 0 if value_first else side > 0
    return x._new(UOp.const(answer, dtypes.bool_, x.shape))


def clip_bounds(dt: DType, lo: Any, hi: Any) -> tuple[Any, Any]:
    """(lo, hi) for clipping a `dt` array, a Python int bound beyond an integer dtype on its own side (lo below it,
    hi above it) dropped (None): it clips nothing, and NumPy's clip drops it rather than cast it (OverflowError)."""
    if dt.is_int:
        info = np.iinfo(dt.np_name)
        lo = None if type(lo) is int and lo <= info.min else lo
        hi = None if type(hi) is int and hi >= info.max else hi
    return lo, hi


def _power_of_ten(n: int) -> float:
    """10.0**n as NumPy's round computes it: exact to 1e8, then multiplied by 10 one step at a time (1 ulp from
    10.0**n for some n past 22), inf past the float range (where Python's 10.0**n raises OverflowError)."""
    if n < 9:
        return 10.0**n
    p = 1e9
    for _ in range(n - 9):
        if p == math.inf:
            break
        p *= 10.0
    return p


def _is_scalar(x: Any) -> bool:
    return isinstance(x, (bool, int, float, np.bool_, np.integer, np.floating)) and not isinstance(x, np.ndarray)


class ElementwiseMixin:
    """Operators and elementwise math (mixed into Tensor)."""

    __slots__ = ()

    uop: UOp

    # ---- operand preparation ----
    def _operands(self: Tensor, other: Any, reverse: bool = False) -> tuple[Tensor, Tensor]:
        """(self, other) as tensors of one dtype and one broadcast shape (operand order kept when `reverse`)."""
        from_cls = type(self)
        if isinstance(other, from_cls):
            if other.device != self.device:
                raise ValueError(f"operands are on different devices: {self.device} and {other.device}")
            dt = dtypes.promote(self.dtype, other.dtype)
            o = other
        elif _is_scalar(other):
            if isinstance(other, np.generic):  # NumPy scalars are strong (they carry a dtype)
                dt = dtypes.promote(self.dtype, dtypes.to_dtype(other.dtype))
                other = other.item()
            else:
                dt = dtypes.weak_result(self.dtype, other)
            o = self._new(UOp.const(other, dt))
        elif isinstance(other, (np.ndarray, list, tuple)):
            o = from_cls(other, device=self.device)
            dt = dtypes.promote(self.dtype, o.dtype)
        else:
            raise TypeError(
                f"unsupported operand type: {type(other).__name__} with a Tensor of {self.dtype.name} "
                f"(expected a number, a NumPy array, a list or a Tensor)"
            )
        a, b = self.cast(dt), o.cast(dt)
        shape = broadcast_shape(a.shape, b.shape)
        a, b = a.broadcast_to(shape), b.broadcast_to(shape)
        return (b, a) if reverse else (a, b)

    def _operand_uops(self: Tensor, other: Any) -> tuple[UOp, UOp] | None:
        """`_operands`' two graphs (self's first) built without the intermediate Tensors, for the common operands: a
        Tensor of the same dtype or a Python scalar. None for anything else (use `_operands`)."""
        if isinstance(other, type(self)):
            if other.dtype is not self.dtype or other.device != self.device:
                return None
            ua, ub = self.uop, other.uop
            if ua.shape == ub.shape:
                return ua, ub
            shape = broadcast_shape(ua.shape, ub.shape)
            return _broadcast_uop(ua, shape), _broadcast_uop(ub, shape)
        if type(other) not in (float, int, bool):
            return None
        dt = dtypes.weak_result(self.dtype, other)
        ua = self.uop if dt is self.dtype else self.uop.cast(dt)
        return ua, UOp.const(other, dt, ua.shape)

    def _binary(self: Tensor, op: Ops, other: Any, reverse: bool = False) -> Tensor:
        if (uops := self._operand_uops(other)) is not None:
            return self._alu2(op, uops, reverse)
        a, b = self._operands(other, reverse)
        return a._new(a.uop.alu(op, b.uop))

    def _alu2(self: Tensor, op: Ops, uops: tuple[UOp, UOp], reverse: bool) -> Tensor:
        """A new tensor computing `op` of `_operand_uops`' result (swapped when `reverse`)."""
        ua, ub = uops
        return self._new(ub.alu(op, ua) if reverse else ua.alu(op, ub))

    def _unary(self: Tensor, op: Ops) -> Tensor:
        return self._new(self.uop.alu(op))

    def _as_float(self: Tensor) -> Tensor:
        """Self, or its values in the default float dtype (float32) for integer and bool tensors."""
        return self if self.dtype.is_float else self.cast(dtypes.default_float)

    def _in_f32(self: Tensor, fn: Callable[[Tensor], Tensor]) -> Tensor:
        """fn(x) for float x; a float16 x computes in float32 and rounds once at the end (PyTorch's opmath for half):
        a composite rounding its float16 steps would lose its result (exp(-x) overflows below x = -11.1, so sigmoid
        gave 0; exp(x) above 11.1, so softplus gave inf; 1 + erf cancels in gelu)."""
        x = self._as_float()
        return fn(x.cast(dtypes.float32)).cast(dtypes.float16) if x.dtype == dtypes.float16 else fn(x)

    def _float_unary(self: Tensor, op: Ops) -> Tensor:
        """A float op; integer and bool inputs compute in the default float dtype."""
        return self._as_float()._unary(op)

    def _require(self: Tensor, ok: bool, name: str) -> None:
        if not ok:
            raise TypeError(f"{name} is not supported for dtype {self.dtype.name}")

    # ---- arithmetic ----
    def add(self: Tensor, other: Any, reverse: bool = False) -> Tensor:
        return self._binary(Ops.ADD, other, reverse)

    def sub(self: Tensor, other: Any, reverse: bool = False) -> Tensor:
        if (uops := self._operand_uops(other)) is not None and not uops[0].dtype.is_bool:
            return self._alu2(Ops.SUB, uops, reverse)
        a, b = self._operands(other, reverse)
        if a.dtype.is_bool:
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use `^` or logical_xor")
        return a._new(a.uop.alu(Ops.SUB, b.uop))

    def mul(self: Tensor, other: Any, reverse: bool = False) -> Tensor:
        return self._binary(Ops.MUL, other, reverse)

    def div(self: Tensor, other: Any, reverse: bool = False) -> Tensor:
        """True division; integer operands give the default float (float32), like PyTorch."""
        if self.dtype.is_float and (uops := self._operand_uops(other)) is not None and uops[0].dtype.is_float:
            return self._alu2(Ops.DIV, uops, reverse)
        a, b = self._operands(other, reverse)
        if not a.dtype.is_float:
            a, b = a.cast(dtypes.default_float), b.cast(dtypes.default_float)
        return a._new(a.uop.alu(Ops.DIV, b.uop))

    def floordiv(self: Tensor, other: Any, reverse: bool = False) -> Tensor:
        """Floor division (Python/NumPy `//`); integer division by zero gives 0 like NumPy."""
        a, b = self._operands(other, reverse)
        if a.dtype.is_bool:
            a, b = a.cast(dtypes.int8), b.cast(dtypes.int8)
        return a._new(a.uop.alu(Ops.IDIV, b.uop))

    def mod(self: Tensor, other: Any, reverse: bool = False) -> Tensor:
        """Remainder with the sign of the divisor (Python/NumPy `%`)."""
        a, b = self._operands(other, reverse)
        if a.dtype.is_bool:
            a, b = a.cast(dtypes.int8), b.cast(dtypes.int8)
        return a._new(a.uop.alu(Ops.MOD, b.uop))

    def pow(self: Tensor, other: Any, reverse: bool = False) -> Tensor:
        """x ** y (np.power). Integer powers are exact and wrap; a negative Python int exponent of an integer tensor
        raises ValueError like NumPy (a negative exponent inside an integer tensor gives 0, or +-1 for bases +-1).
        A Python scalar exponent of 2 is computed as x * x (the same value, without a general pow)."""
        a, b = self._operands(other, reverse)
        exponent = self if reverse else other
        if not a.dtype.is_float and _is_scalar(exponent) and not isinstance(exponent, bool) and exponent < 0:
            raise ValueError("Integers to negative integer powers are not allowed.")
        if a.dtype.is_bool:
            a, b = a.cast(dtypes.int8), b.cast(dtypes.int8)
        if not reverse and _is_scalar(exponent) and not isinstance(exponent, bool) and exponent == 2:
            return a._new(a.uop.alu(Ops.MUL, a.uop))  # x * x: NumPy's fast path for ** 2, exact where pow rounds
        return a._new(a.uop.alu(Ops.POW, b.uop))

    def maximum(self: Tensor, other: Any) -> Tensor:
        """Elementwise max; NaN propagates (np.maximum)."""
        return self._binary(Ops.MAX, other)

    def minimum(self: Tensor, other: Any) -> Tensor:
        """Elementwise min; NaN propagates (np.minimum)."""
        return self._binary(Ops.MIN, other)

    def __add__(self: Tensor, o: Any) -> Tensor:
        return self.add(o)

    def __radd__(self: Tensor, o: Any) -> Tensor:
        return self.add(o, True)

    def __sub__(self: Tensor, o: Any) -> Tensor:
        return self.sub(o)

    def __rsub__(self: Tensor, o: Any) -> Tensor:
        return self.sub(o, True)

    def __mul__(self: Tensor, o: Any) -> Tensor:
        return self.mul(o)

    def __rmul__(self: Tensor, o: Any) -> Tensor:
        return self.mul(o, True)

    def __truediv__(self: Tensor, o: Any) -> Tensor:
        return self.div(o)

    def __rtruediv__(self: Tensor, o: Any) -> Tensor:
        return self.div(o, True)

    def __floordiv__(self: Tensor, o: Any) -> Tensor:
        return self.floordiv(o)

    def __rfloordiv__(self: Tensor, o: Any) -> Tensor:
        return self.floordiv(o, True)

    def __mod__(self: Tensor, o: Any) -> Tensor:
        return self.mod(o)

    def __rmod__(self: Tensor, o: Any) -> Tensor:
        return self.mod(o, True)

    def __divmod__(self: Tensor, o: Any) -> tuple[Tensor, Tensor]:
        return self.floordiv(o), self.mod(o)

    def __rdivmod__(self: Tensor, o: Any) -> tuple[Tensor, Tensor]:
        return self.floordiv(o, True), self.mod(o, True)

    def __pow__(self: Tensor, o: Any) -> Tensor:
        return self.pow(o)

    def __rpow__(self: Tensor, o: Any) -> Tensor:
        return self.pow(o, True)

    def __neg__(self: Tensor) -> Tensor:
        return self.neg()

    def __pos__(self: Tensor) -> Tensor:
        """`+t`: a copy of the values with its own storage, as NumPy's (np.positive makes a new array; PyTorch's +t
        aliases t)."""
        return self.clone()

    def __abs__(self: Tensor) -> Tensor:
        return self.abs()

    def __invert__(self: Tensor) -> Tensor:
        return self.bitwise_not()

    # ---- comparisons ----
    def _compare(self: Tensor, op: Ops, other: Any, reverse: bool = False) -> Tensor:
        """`self op other` (`other op self` when `reverse`) with NumPy's promotion; a Python int beyond an integer
        dtype compares as NEP 50 says (`compare_beyond_range`)."""
        if (fixed := compare_beyond_range(self, op, other, reverse)) is not None:
            return fixed
        a, b = self._operands(other, reverse)
        return a._new(a.uop.alu(op, b.uop))

    def __lt__(self: Tensor, o: Any) -> Tensor:
        return self._compare(Ops.CMPLT, o)

    def __gt__(self: Tensor, o: Any) -> Tensor:
        return self._compare(Ops.CMPLT, o, True)

    def __le__(self: Tensor, o: Any) -> Tensor:
        return self._compare(Ops.CMPLE, o)

    def __ge__(self: Tensor, o: Any) -> Tensor:
        return self._compare(Ops.CMPLE, o, True)

    def __eq__(self: Tensor, o: Any) -> Tensor:  # type: ignore[override]
        return self._compare(Ops.CMPEQ, o)

    def __ne__(self: Tensor, o: Any) -> Tensor:  # type: ignore[override]
        return self._compare(Ops.CMPNE, o)

    def eq(self: Tensor, o: Any) -> Tensor:
        return self == o

    def ne(self: Tensor, o: Any) -> Tensor:
        return self != o

    def lt(self: Tensor, o: Any) -> Tensor:
        return self < o

    def le(self: Tensor, o: Any) -> Tensor:
        return self <= o

    def gt(self: Tensor, o: Any) -> Tensor:
        return self > o

    def ge(self: Tensor, o: Any) -> Tensor:
        return self >= o

    # ---- bitwise / logical ----
    def _bitwise(self: Tensor, op: Ops, other: Any, reverse: bool = False) -> Tensor:
        a, b = self._operands(other, reverse)
        if a.dtype.is_float:
            raise TypeError(f"ufunc 'bitwise_{op.name.lower()}' not supported for the input types ({a.dtype.name})")
        return a._new(a.uop.alu(op, b.uop))

    def bitwise_and(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.AND, o)

    def bitwise_or(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.OR, o)

    def bitwise_xor(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.XOR, o)

    def __and__(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.AND, o)

    def __rand__(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.AND, o, True)

    def __or__(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.OR, o)

    def __ror__(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.OR, o, True)

    def __xor__(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.XOR, o)

    def __rxor__(self: Tensor, o: Any) -> Tensor:
        return self._bitwise(Ops.XOR, o, True)

    def _shift(self: Tensor, op: Ops, other: Any, reverse: bool = False) -> Tensor:
        """Shifts with NumPy's results for counts outside [0, bits): 0, or -1 for a negative value shifted right."""
        a, b = self._operands(other, reverse)
        if a.dtype.is_bool:  # NumPy shifts bools as int8
            a, b = a.cast(dtypes.int8), b.cast(dtypes.int8)
        if not a.dtype.is_int:
            raise TypeError(f"ufunc '{'left' if op is Ops.SHL else 'right'}_shift' not supported for {a.dtype.name}")
        return a._new(a.uop.alu(op, b.uop))

    def lshift(self: Tensor, o: Any) -> Tensor:
        return self._shift(Ops.SHL, o)

    def rshift(self: Tensor, o: Any) -> Tensor:
        return self._shift(Ops.SHR, o)

    def __lshift__(self: Tensor, o: Any) -> Tensor:
        return self._shift(Ops.SHL, o)

    def __rlshift__(self: Tensor, o: Any) -> Tensor:
        return self._shift(Ops.SHL, o, True)

    def __rshift__(self: Tensor, o: Any) -> Tensor:
        return self._shift(Ops.SHR, o)

    def __rrshift__(self: Tensor, o: Any) -> Tensor:
        return self._shift(Ops.SHR, o, True)

    def bitwise_not(self: Tensor) -> Tensor:
        self._require(not self.dtype.is_float, "bitwise_not")
        return self._unary(Ops.NOT)

    def logical_not(self: Tensor) -> Tensor:
        return self.bool()._unary(Ops.NOT)

    def logical_and(self: Tensor, o: Any) -> Tensor:
        return self.bool()._bitwise(Ops.AND, type(self)(o).bool() if not isinstance(o, type(self)) else o.bool())

    def logical_or(self: Tensor, o: Any) -> Tensor:
        return self.bool()._bitwise(Ops.OR, type(self)(o).bool() if not isinstance(o, type(self)) else o.bool())

    def logical_xor(self: Tensor, o: Any) -> Tensor:
        return self.bool()._bitwise(Ops.XOR, type(self)(o).bool() if not isinstance(o, type(self)) else o.bool())

    # ---- unary math ----
    def neg(self: Tensor) -> Tensor:
        if self.dtype.is_bool:
            raise TypeError("The numpy boolean negative, the `-` operator, is not supported, use `~` instead")
        return self._unary(Ops.NEG)

    def abs(self: Tensor) -> Tensor:
        return self._unary(Ops.ABS)

    def sign(self: Tensor) -> Tensor:
        """-1, 0 or 1 (NaN for NaN), in the input dtype (np.sign; TypeError for bool, like NumPy)."""
        self._require(not self.dtype.is_bool, "sign")
        zero = self._new(UOp.const(0, self.dtype, self.shape))
        pos, neg = (self > 0).cast(self.dtype), (self < 0).cast(self.dtype)
        out = pos - neg if not self.dtype.is_unsigned else pos
        return (self != self).where(self, out) if self.dtype.is_float else out + zero

    def exp(self: Tensor) -> Tensor:
        return self._float_unary(Ops.EXP)

    def exp2(self: Tensor) -> Tensor:
        return self._float_unary(Ops.EXP2)

    def log(self: Tensor) -> Tensor:
        return self._float_unary(Ops.LOG)

    def log2(self: Tensor) -> Tensor:
        return self._float_unary(Ops.LOG2)

    def log10(self: Tensor) -> Tensor:
        return self.log2() * (1 / math.log2(10))

    def log1p(self: Tensor) -> Tensor:
        return self._float_unary(Ops.LOG1P)

    def expm1(self: Tensor) -> Tensor:
        return self._float_unary(Ops.EXPM1)

    def sqrt(self: Tensor) -> Tensor:
        return self._float_unary(Ops.SQRT)

    def rsqrt(self: Tensor) -> Tensor:
        return self.sqrt().reciprocal()

    def reciprocal(self: Tensor) -> Tensor:
        return self._float_unary(Ops.RECIPROCAL)

    def square(self: Tensor) -> Tensor:
        """x * x in the input dtype (bool gives int8, like np.square)."""
        x = self.cast(dtypes.int8) if self.dtype.is_bool else self
        return x * x

    def sin(self: Tensor) -> Tensor:
        return self._float_unary(Ops.SIN)

    def cos(self: Tensor) -> Tensor:
        return self._float_unary(Ops.COS)

    def tan(self: Tensor) -> Tensor:
        return self._float_unary(Ops.TAN)

    def tanh(self: Tensor) -> Tensor:
        return self._float_unary(Ops.TANH)

    def erf(self: Tensor) -> Tensor:
        return self._float_unary(Ops.ERF)

    def _rounding(self: Tensor, op: Ops) -> Tensor:
        return self._unary(op) if self.dtype.is_float else self

    def floor(self: Tensor) -> Tensor:
        return self._rounding(Ops.FLOOR)

    def ceil(self: Tensor) -> Tensor:
        return self._rounding(Ops.CEIL)

    def trunc(self: Tensor) -> Tensor:
        return self._rounding(Ops.TRUNC)

    def round(self: Tensor, decimals: int = 0) -> Tensor:
        """Round half to even to `decimals` places (np.round: x * 10**d, rint, / 10**d in x's dtype, with NumPy's
        10**d, `_power_of_ten`; negative `decimals` divide first). Integers keep their dtype and are only changed by
        negative `decimals`."""
        decimals = int(decimals)
        if self.dtype.is_bool or (not self.dtype.is_float and decimals >= 0):
            return self
        if not self.dtype.is_float:
            scale = 10**-decimals
            q, r = self // scale, self % scale  # floor quotient and non-negative remainder
            rest = scale - r  # compared with r instead of doubling r, which could overflow
            up = (r > rest) | ((r == rest) & (q % 2 == 1))
            return (q + up.cast(self.dtype)) * scale
        if decimals == 0:
            return self._unary(Ops.RINT)
        scale = _power_of_ten(abs(decimals))
        if decimals > 0:
            return (self * scale)._unary(Ops.RINT) / scale
        return (self / scale)._unary(Ops.RINT) * scale

    def isnan(self: Tensor) -> Tensor:
        return self != self if self.dtype.is_float else self._new(UOp.const(False, dtypes.bool_, self.shape))

    def isinf(self: Tensor) -> Tensor:
        if not self.dtype.is_float:
            return self._new(UOp.const(False, dtypes.bool_, self.shape))
        return self.abs() == math.inf

    def isfinite(self: Tensor) -> Tensor:
        if not self.dtype.is_float:
            return self._new(UOp.const(True, dtypes.bool_, self.shape))
        return (self - self) == 0

    # ---- selection ----
    def where(self: Tensor, x: Any, y: Any) -> Tensor:
        """`x` where self is true, else `y` (np.where(self, x, y)); x and y are promoted together."""
        cls = type(self)
        xt = x if isinstance(x, cls) else None
        yt = y if isinstance(y, cls) else None
        if xt is None and yt is None:
            dt = _pair_dtype(x, y, cls)
            xt, yt = cls(x, dtype=dt, device=self.device), cls(y, dtype=dt, device=self.device)
        elif xt is None:
            assert yt is not None
            yt, xt = yt._operands(x)
        elif yt is None:
            xt, yt = xt._operands(y)
        else:
            xt, yt = xt._operands(yt)
        cond = self.bool()
        shape = broadcast_shape(cond.shape, xt.shape, yt.shape)
        c, a, b = cond.broadcast_to(shape), xt.broadcast_to(shape), yt.broadcast_to(shape)
        return self._new(UOp(Ops.WHERE, a.dtype, (c.uop, a.uop, b.uop)))

    def clip(self: Tensor, min: Any = None, max: Any = None, out: Any = None) -> Tensor:  # noqa: A002 (NumPy's)
        """Values limited to [min, max] (`ndarray.clip` and `torch.clamp` take these names, positional or keyword):
        minimum(maximum(x, min), max) like np.clip, so NaN propagates and min > max gives max. Either bound may be
        None; with both None a copy of the values, as NumPy 2's. A Python int bound beyond an integer dtype clips
        nothing on its own side (`clip_bounds`), as in NumPy. `out` (NumPy's) receives the result."""
        if out is not None:
            return np.clip(self, min, max, out=out)
        # written as where() over maximum/minimum so that a value equal to a bound passes its whole gradient to
        # self, as torch.clamp does (maximum/minimum split a tie's gradient in half)
        lo, hi = clip_bounds(self.dtype, min, max)
        if lo is None and hi is None:
            return self.clone()
        r = self
        if lo is not None:
            m = r.maximum(lo)
            r = (r >= lo).where(r.cast(m.dtype), m)
        if hi is not None:
            m = r.minimum(hi)
            r = (r <= hi).where(r.cast(m.dtype), m)
        return r

    clamp = clip

    # ---- activations (composites) ----
    # float activations of integer or bool tensors compute in the default float dtype, like the float math above
    def relu(self: Tensor) -> Tensor:
        """max(x, 0) in the input dtype (bool is returned as is)."""
        # NaN stays NaN, like np.maximum(x, 0); the gradient at 0 is 0 (PyTorch's)
        return self if self.dtype.is_bool else (self <= 0).where(0, self)

    def sigmoid(self: Tensor) -> Tensor:
        """1 / (1 + exp(-x)), and exp(x) / (1 + exp(x)) for negative x: exp(-x) overflowing there (below -88.7 in
        float32) made the gradient inf / inf**2 = NaN."""
        def form(x: Tensor) -> Tensor:
            pos = x >= 0
            e = pos.where(-x, x).exp()
            r = 1 / (1 + e)
            return pos.where(r, e * r)
        return self._in_f32(form)

    def silu(self: Tensor) -> Tensor:
        """x * sigmoid(x)."""
        return self._in_f32(lambda x: x * x.sigmoid())

    def gelu(self: Tensor) -> Tensor:
        """GELU with the exact erf form (PyTorch's default `approximate='none'`)."""
        return self._in_f32(lambda x: 0.5 * x * (1 + (x * (1 / math.sqrt(2))).erf()))

    def leaky_relu(self: Tensor, neg_slope: float = 0.01) -> Tensor:
        x = self._as_float()
        return (x > 0).where(x, x * neg_slope)

    def softplus(self: Tensor, beta: float = 1.0) -> Tensor:
        """log(1 + exp(beta * x)) / beta, as (max(bx, 0) + log1p(exp(-|bx|))) / beta: exp(bx) overflowing (bx above
        88.7 in float32) gave inf, not x."""
        def form(x: Tensor) -> Tensor:
            bx = x * beta
            pos = bx >= 0
            return (pos.where(bx, 0) + pos.where(-bx, bx).exp().log1p()) * (1 / beta)
        return self._in_f32(form)

    def lerp(self: Tensor, end: Any, weight: Any) -> Tensor:
        return self + (end - self) * weight


def _pair_dtype(x: Any, y: Any, cls: type) -> DType:
    """Common dtype of two non-Tensor operands: arrays and NumPy scalars are strong, Python scalars weak (two Python
    scalars give the default dtype of the higher kind: bool, int64 or float32)."""
    strong = [v for v in (x, y) if not _is_scalar(v) or isinstance(v, np.generic)]
    weak = [v for v in (x, y) if _is_scalar(v) and not isinstance(v, np.generic)]
    if not strong:
        kinds = {dtypes.scalar_kind(v) for v in weak}
        return dtypes.default_float if "f" in kinds else dtypes.default_int if "i" in kinds else dtypes.bool_
    dt = dtypes.result_type(*[dtypes.to_dtype(v.dtype) if isinstance(v, np.generic) else cls(v).dtype for v in strong])
    for v in weak:
        dt = dtypes.weak_result(dt, v)
    return dt


def dtype_of(x: Any) -> DType:
    """The dtype a value would have as a Tensor operand."""
    return dtypes.scalar_dtype(x) if _is_scalar(x) else dtypes.to_dtype(np.asarray(x).dtype)
