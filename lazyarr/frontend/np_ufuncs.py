"""NumPy ufuncs on Tensors (NEP 13). NumPy's own type resolution (`ufunc.resolve_dtypes`, NEP 50 weak scalars) picks
the loop dtypes, operands are cast to them, and a lazy implementation from `UFUNCS` builds the result, so
`np.exp(t)` is a lazy Tensor that fuses with what follows. `out=` (Tensors are written with `assign`), `where=`,
`dtype=`, `signature=`, `casting=`, and the `reduce`/`accumulate`/`outer` methods follow NumPy; a ufunc (or a dtype)
without a lazy implementation falls back to NumPy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.frontend.elementwise import beyond_range, broadcast_shape
from lazyarr.frontend.numpy_api import UFUNC_METHODS, is_tensor, new_array, numpy_fallback, write_into
from lazyarr.frontend.reduce import scan
from lazyarr.frontend.tensor import Tensor
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp
from lazyarr.helpers import normalize_axis

_NoValue: Any = np._NoValue  # NumPy's "argument not given" marker


class NoLazyError(Exception):
    """An implementation cannot handle these operands lazily; the caller falls back to NumPy."""


# ---- operands ----


def describe(x: Any) -> Any:
    """What `ufunc.resolve_dtypes` needs for `x`: a NumPy dtype, or `int`/`float` for a weak Python scalar."""
    if is_tensor(x):
        return np.dtype(x.dtype.np_name)
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, bool):
        return np.dtype(bool)
    if isinstance(x, (int, float, complex)):
        return type(x)
    return np.asarray(x).dtype


def as_tensor(x: Any, like: Tensor | None = None) -> Tensor:
    """`x` as a Tensor: Tensors unchanged, anything array-like through `np.asarray` (NumPy's dtype rules)."""
    if is_tensor(x):
        return x
    return Tensor(np.asarray(x), device=None if like is None else like.device)


def operand(x: Any, dt: DType, device: str) -> Tensor:
    """Input `x` of a ufunc cast to loop dtype `dt` (OverflowError for a Python int that does not fit, like NumPy)."""
    if is_tensor(x):
        return x.cast(dt)
    if isinstance(x, (bool, int, float)):
        if dt.is_int and isinstance(x, int) and not isinstance(x, bool):
            info = np.iinfo(dt.np_name)
            if not info.min <= x <= info.max:
                raise OverflowError(f"Python integer {x} out of bounds for {dt.name}")
        return Tensor(UOp.const(x, dt), device=device)
    return Tensor(np.asarray(x), device=device).cast(dt)


def const_like(x: Tensor, value: Any, dt: DType | None = None) -> Tensor:
    return x._new(UOp.const(value, dt or x.dtype, x.shape))


def iota(n: int, like: Tensor) -> Tensor:
    """0, 1, ..., n-1 as int64 (no buffer)."""
    return like._new(UOp(Ops.IOTA, dtypes.int64, (), n))


def _widen(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """float16 composites compute in float32 and round once at the end, like NumPy's float16 loops."""

    def back(t: Tensor) -> Tensor:
        return t.cast(dtypes.float16) if t.dtype is dtypes.float32 else t

    def run(*xs: Tensor) -> Any:
        if xs[0].dtype is dtypes.float16:
            out = fn(*[x.cast(dtypes.float32) for x in xs])
            return tuple(back(t) for t in out) if isinstance(out, tuple) else back(out)
        return fn(*xs)

    return run


# ---- composite elementwise functions (inputs already in the loop dtype) ----


def signbit(x: Tensor) -> Tensor:
    """True where the sign bit is set (-0.0 and negative NaNs included), read through a bit cast."""
    if x.dtype.is_bool or x.dtype.is_unsigned:
        return const_like(x, False, dtypes.bool_)
    if x.dtype.is_int:
        return x < 0
    f = x.cast(dtypes.float32) if x.dtype is dtypes.float16 else x
    as_int = dtypes.int32 if f.dtype.itemsize == 4 else dtypes.int64
    return f._new(f.uop.bitcast(as_int)) < 0


def _sign_set(x: Tensor) -> Tensor:
    """signbit(x) for float x but NaN (False for every NaN), by comparisons (-0.0 by 1/x = -inf): no bit cast, so a
    kernel using it stays a plain float loop that render_llvm builds, its backward included."""
    return (x < 0) | ((x == 0) & (1 / x < 0))


def copysign(a: Tensor, b: Tensor) -> Tensor:
    mag = a.abs()
    return signbit(b).where(-mag, mag)


# atan t = t + t**3 P(t*t) for |t| <= tan(pi/8): least-squares fits on Chebyshev nodes of (atan t - t) / t**3 (lowest
# power first); measured against np.arctan on [0, 1] after the reduction below: at most 2 ulp in float32 and float64
_TAN_PI_8 = math.tan(math.pi / 8)
# pi/4 and pi/2 as hi + lo in float32 and in float64 (lo: the next bits, so results near pi/4 keep their last bit);
# pi's float64 rounding error is 1.2246467991473532e-16
_PI_PARTS = {
    False: (float(np.float32(math.pi / 4)), math.pi / 4 - float(np.float32(math.pi / 4)),
            float(np.float32(math.pi / 2)), math.pi / 2 - float(np.float32(math.pi / 2))),
    True: (math.pi / 4, 1.2246467991473532e-16 / 4, math.pi / 2, 1.2246467991473532e-16 / 2),
}
_ATAN_F32 = (-0.33333331813419265, 0.19999550075913808, -0.14264232553022058, 0.1074629843409016, -0.06459376277458691)
_ATAN_F64 = (-0.3333333333333333, 0.19999999999995646, -0.14285714284690745, 0.11111111017051452, -0.09090904645861426,
             0.07692184660614144, -0.06664530875620217, 0.05858307929293133, -0.05086236545311532,
             0.039253219043245156, -0.019202004935893843)


def _atan_ratio(n: Tensor, d: Tensor | None = None) -> Tensor:
    """atan(n / d) for n, d >= 0 (d None: 1), in n's float dtype; n > d maps to d/n by atan q = pi/2 - atan(1/q), so
    the quotient is at most 1 (no overflow, one rounding); z in (tan(pi/8), 1] maps to t = (z - 1)/(z + 1) by atan z =
    pi/4 + atan t; then the polynomial. n = d = 0 and inf/inf give NaN (arctan2 fills those in); NaN passes through.
    The branch a where() drops divides by 1 instead of a zero, so no infinity turns a gradient into NaN."""
    big = n > 1 if d is None else n > d
    flip = 1 / big.where(n, 1) if d is None else d / big.where(n, 1)
    z = big.where(flip, n if d is None else n / big.where(1, d))
    mid = z > _TAN_PI_8
    t = mid.where((z - 1) / (z + 1), z)
    u = t * t
    coeffs = _ATAN_F64 if n.dtype is dtypes.float64 else _ATAN_F32
    p = u * coeffs[-1] + coeffs[-2]
    for c in reversed(coeffs[:-2]):
        p = p * u + c
    r = t + t * u * p
    hi4, lo4, hi2, lo2 = _PI_PARTS[n.dtype is dtypes.float64]
    r = mid.where(hi4 + (r + lo4), r)
    return big.where(hi2 - (r - lo2), r)


def arctan(x: Tensor) -> Tensor:
    r = _atan_ratio(x.abs())
    # the sign by comparisons, not signbit's bit cast, so the kernel stays a plain float loop (render_llvm builds it);
    # x itself at 0 keeps the zero's sign and the gradient 1 there
    return (x == 0).where(x, (x < 0).where(-r, r))


def arctan2(y: Tensor, x: Tensor) -> Tensor:
    """C's atan2 with its special cases: signed zeros pick the quadrant, inf/inf gives pi/4 multiples."""
    sy, sx = _sign_set(y), _sign_set(x)
    # magnitudes by sign, not abs: the same values, but slope +-1 at +-0 (abs' is 0), so the gradient at y = 0 or
    # x = 0 is PyTorch's (x / (x*x + y*y), -y / (x*x + y*y)), and so are arcsin's and arccos's at 0
    ay, ax = sy.where(-y, y), sx.where(-x, x)
    r = _atan_ratio(ay, ax)
    r = ((ay == 0) & (ax == 0)).where(0.0, r)
    r = (ay.isinf() & ax.isinf()).where(math.pi / 4, r)
    r = sx.where(math.pi - r, r)
    return sy.where(-r, r)


def _one_minus_sq_root(x: Tensor) -> Tensor:
    return ((1 - x) * (1 + x)).sqrt()


def arcsin(x: Tensor) -> Tensor:
    return arctan2(x, _one_minus_sq_root(x))


def arccos(x: Tensor) -> Tensor:
    return arctan2(_one_minus_sq_root(x), x)


def sinh(x: Tensor) -> Tensor:
    """(expm1(x) - expm1(-x)) / 2 near 0 (no cancellation); exp(|x|/2)^2 / 2 - ... beyond (no early overflow)."""
    ax = x.abs()
    small = (x.expm1() - (-x).expm1()) * 0.5
    h = (ax * 0.5).exp()
    big = (h * 0.5) * h - 0.5 / (h * h)
    return (ax < 1).where(small, signbit(x).where(-big, big))


def cosh(x: Tensor) -> Tensor:
    h = (x.abs() * 0.5).exp()
    return (h * 0.5) * h + 0.5 / (h * h)


_LN2 = math.log(2)


def arcsinh(x: Tensor) -> Tensor:
    ax = x.abs()
    big = ax > 2.0**28
    am = big.where(1, ax)  # each branch of the where below sees finite arguments, so neither makes a NaN gradient
    mid = (am + am * am / (1 + (1 + am * am).sqrt())).log1p()
    r = big.where(big.where(ax, 1).log() + _LN2, mid)
    return (x == 0).where(x, signbit(x).where(-r, r))  # x at 0: the gradient 1 there (abs' is 0)


def arccosh(x: Tensor) -> Tensor:
    t = x - 1
    mid = (t + (2 * t + t * t).sqrt()).log1p()
    return (x > 2.0**28).where(x.log() + _LN2, (x >= 1).where(mid, math.nan))


def arctanh(x: Tensor) -> Tensor:
    return (2 * x / (1 - x)).log1p() * 0.5


def cbrt(x: Tensor) -> Tensor:
    """exp(log|x| / 3) with the sign, refined by one Newton step (exact cubes come out exact)."""
    y = signbit(x).where(-1.0, 1.0) * (x.abs().log() * (1 / 3)).exp()
    y = y - (y - x / (y * y)) * (1 / 3)
    return ((x == 0) | x.isinf()).where(x, y)


def hypot(a: Tensor, b: Tensor) -> Tensor:
    """sqrt(a^2 + b^2) scaled by max(|a|, |b|) so it does not overflow; inf wins over NaN like C's hypot."""
    aa, bb = a.abs(), b.abs()
    m, n = aa.maximum(bb), aa.minimum(bb)
    r = n / m
    h = (m == 0).where(0.0, m * (1 + r * r).sqrt())
    return (aa.isinf() | bb.isinf()).where(math.inf, h)


def logaddexp(a: Tensor, b: Tensor) -> Tensor:
    m = a.maximum(b)
    r = m + (-(a - b).abs()).exp().log1p()
    return (a == b).where(a + _LN2, r)


def logaddexp2(a: Tensor, b: Tensor) -> Tensor:
    m = a.maximum(b)
    r = m + (-(a - b).abs()).exp2().log1p() * (1 / _LN2)
    return (a == b).where(a + 1, r)


def fmod(a: Tensor, b: Tensor) -> Tensor:
    """C's fmod (remainder with the sign of the dividend), from the floor remainder."""
    if a.dtype.is_float:
        r = a.abs().mod(b.abs())
        return signbit(a).where(-r, r)
    r = a.mod(b)
    if a.dtype.is_unsigned or a.dtype.is_bool:
        return r
    return ((r != 0) & ((r < 0) != (a < 0))).where(r - b, r)


def fmax(a: Tensor, b: Tensor) -> Tensor:
    if not a.dtype.is_float:
        return a.maximum(b)
    return b.isnan().where(a, a.isnan().where(b, a.maximum(b)))


def fmin(a: Tensor, b: Tensor) -> Tensor:
    if not a.dtype.is_float:
        return a.minimum(b)
    return b.isnan().where(a, a.isnan().where(b, a.minimum(b)))


def heaviside(x: Tensor, h0: Tensor) -> Tensor:
    return (x < 0).where(0.0, (x > 0).where(1.0, (x == 0).where(h0, x)))


def modf(x: Tensor) -> tuple[Tensor, Tensor]:
    """(fractional part, integral part), both with x's sign (modf(inf) = (0, inf))."""
    whole = x.trunc()
    frac = x.isinf().where(0.0, x - whole)
    return copysign(frac, x), whole


def reciprocal(x: Tensor) -> Tensor:
    if not x.dtype.is_float:
        raise NoLazyError  # C integer division by zero: NumPy's value is platform-defined
    return x.reciprocal()


def _matmul(a: Tensor, b: Tensor) -> Tensor:
    return a.matmul(b)


def _vecdot(a: Tensor, b: Tensor) -> Tensor:
    shape = broadcast_shape(a.shape, b.shape)
    if not shape or a.shape[-1:] != b.shape[-1:]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n),(n)->() (size {b.shape[-1:]} is different from {a.shape[-1:]})")
    return (a * b).sum(-1, dtype=a.dtype)


def _matvec(m: Tensor, v: Tensor) -> Tensor:
    return m.matmul(v.unsqueeze(-1)).squeeze(-1)


def _vecmat(v: Tensor, m: Tensor) -> Tensor:
    return v.unsqueeze(-2).matmul(m).squeeze(-2)


# ufunc -> lazy implementation over operands already cast to the loop dtypes
UFUNCS: dict[np.ufunc, Callable[..., Any]] = {
    np.negative: lambda x: x.neg(),
    np.positive: lambda x: x,
    np.absolute: lambda x: x.abs(),
    np.fabs: lambda x: x.abs(),
    np.sign: lambda x: x.sign(),
    np.conjugate: lambda x: x,
    np.exp: lambda x: x.exp(),
    np.exp2: lambda x: x.exp2(),
    np.expm1: lambda x: x.expm1(),
    np.log: lambda x: x.log(),
    np.log2: lambda x: x.log2(),
    np.log10: _widen(lambda x: x.log10()),
    np.log1p: lambda x: x.log1p(),
    np.sqrt: lambda x: x.sqrt(),
    np.square: lambda x: x * x,
    np.reciprocal: reciprocal,
    np.cbrt: _widen(cbrt),
    np.sin: lambda x: x.sin(),
    np.cos: lambda x: x.cos(),
    np.tan: lambda x: x.tan(),
    np.arcsin: _widen(arcsin),
    np.arccos: _widen(arccos),
    np.arctan: _widen(arctan),
    np.sinh: _widen(sinh),
    np.cosh: _widen(cosh),
    np.tanh: lambda x: x.tanh(),
    np.arcsinh: _widen(arcsinh),
    np.arccosh: _widen(arccosh),
    np.arctanh: _widen(arctanh),
    np.deg2rad: _widen(lambda x: x * (math.pi / 180)),
    np.radians: _widen(lambda x: x * (math.pi / 180)),
    np.rad2deg: _widen(lambda x: x * (180 / math.pi)),
    np.degrees: _widen(lambda x: x * (180 / math.pi)),
    np.floor: lambda x: x.floor(),
    np.ceil: lambda x: x.ceil(),
    np.trunc: lambda x: x.trunc(),
    np.rint: lambda x: x.round(),
    np.isnan: lambda x: x.isnan(),
    np.isinf: lambda x: x.isinf(),
    np.isfinite: lambda x: x.isfinite(),
    np.signbit: signbit,
    np.logical_not: lambda x: x.logical_not(),
    np.invert: lambda x: x.bitwise_not(),
    np.modf: _widen(modf),
    np.add: lambda a, b: a + b,
    np.subtract: lambda a, b: a - b,
    np.multiply: lambda a, b: a * b,
    np.divide: lambda a, b: a / b,
    np.floor_divide: lambda a, b: a // b,
    np.remainder: lambda a, b: a % b,
    np.fmod: fmod,
    np.divmod: lambda a, b: (a // b, a % b),
    np.power: lambda a, b: a**b,
    np.float_power: lambda a, b: a**b,
    np.maximum: lambda a, b: a.maximum(b),
    np.minimum: lambda a, b: a.minimum(b),
    np.fmax: fmax,
    np.fmin: fmin,
    np.greater: lambda a, b: a > b,
    np.greater_equal: lambda a, b: a >= b,
    np.less: lambda a, b: a < b,
    np.less_equal: lambda a, b: a <= b,
    np.equal: lambda a, b: a == b,
    np.not_equal: lambda a, b: a != b,
    np.logical_and: lambda a, b: a.bool() & b.bool(),
    np.logical_or: lambda a, b: a.bool() | b.bool(),
    np.logical_xor: lambda a, b: a.bool() ^ b.bool(),
    np.bitwise_and: lambda a, b: a & b,
    np.bitwise_or: lambda a, b: a | b,
    np.bitwise_xor: lambda a, b: a ^ b,
    np.left_shift: lambda a, b: a << b,
    np.right_shift: lambda a, b: a >> b,
    np.copysign: _widen(copysign),
    np.heaviside: _widen(heaviside),
    np.logaddexp: _widen(logaddexp),
    np.logaddexp2: _widen(logaddexp2),
    np.hypot: _widen(hypot),
    np.arctan2: _widen(arctan2),
    np.matmul: _matmul,
    np.vecdot: _vecdot,
}
for _name, _impl in (("matvec", _matvec), ("vecmat", _vecmat)):  # NumPy >= 2.2
    if isinstance(getattr(np, _name, None), np.ufunc):
        UFUNCS[getattr(np, _name)] = _impl


# ---- __call__ ----


def _out_tuple(out: Any, nout: int) -> tuple[Any, ...]:
    if out is None:
        return (None,) * nout
    out = out if isinstance(out, tuple) else (out,)
    if len(out) != nout:
        raise ValueError(f"The 'out' tuple must have exactly {nout} entries: one per ufunc output")
    for o in out:
        if o is not None and not is_tensor(o) and not isinstance(o, np.ndarray):
            raise TypeError("return arrays must be of ArrayType")
    return out


def _np_dtype(dt: Any) -> np.dtype | None:
    return None if dt is None else np.dtype(dt.np_name) if isinstance(dt, DType) else np.dtype(dt)


def _signature(ufunc: np.ufunc, dtype: Any, signature: Any) -> Any:
    if signature is not None:
        if dtype is not None:
            raise TypeError("cannot specify both 'signature' and 'dtype'")
        if isinstance(signature, str) and len(signature) > 1:  # NumPy's type string, 'ff->f'
            ins, arrow, outs = signature.partition("->")
            if not arrow or len(ins) != ufunc.nin or len(outs) != ufunc.nout:
                raise ValueError(f"a type-string for {ufunc.__name__}, {ufunc.nin} typecode(s) before and "
                                 f"{ufunc.nout} after the -> sign")
            signature = tuple(ins + outs)
        sig = signature if isinstance(signature, tuple) else (signature,)
        return tuple(_np_dtype(d) for d in sig)
    if dtype is None:
        return None
    return (None,) * ufunc.nin + (_np_dtype(dtype),) * ufunc.nout


def _lazyarr_dtypes(loop: tuple[np.dtype, ...]) -> list[DType] | None:
    out = []
    for d in loop:
        if d.kind not in "biuf" or d == np.longdouble:
            return None
        out.append(dtypes.from_numpy(d))
    return out


def _where_mask(where: Any, like: Tensor) -> Tensor:
    mask = as_tensor(where, like)
    if not mask.dtype.is_bool:
        raise TypeError(f"Cannot cast array data from dtype('{mask.dtype.name}') to dtype('bool') according to the "
                        "rule 'safe'")
    return mask


def _finish(results: list[Tensor], outs: tuple[Any, ...], where: Any, shape: tuple[int, ...], name: str) -> Any:
    """Apply `where=` (keeping out's old values, or zeros), write results into `out=`, return what NumPy returns."""
    final: list[Any] = []
    for r, o in zip(results, outs):
        dt = r.dtype if o is None else o.dtype if is_tensor(o) else dtypes.from_numpy(o.dtype)
        r = r.cast(dt).broadcast_to(shape)
        if where is not True:
            old = const_like(r, 0) if o is None else as_tensor(o, r).cast(dt)
            r = _where_mask(where, r).broadcast_to(shape).where(r, old)
        if o is None:
            final.append(r)
        else:
            write_into(o, r, name)
            final.append(o)
    return final[0] if len(final) == 1 else tuple(final)


_COMPARISONS = {np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal}


def _compared_beyond_range(ufunc: np.ufunc, x: Any, dt: DType, inputs: tuple[Any, ...]) -> bool:
    """Whether `x` is a Python int beyond its loop dtype `dt` compared with a Tensor: it is left as it is, and the
    Tensor comparison answers as NEP 50 says (np.greater(uint8, -1) is all True) instead of casting it (which
    raises OverflowError, as it should for arithmetic). Only for an integer Tensor: NumPy compares a bool array in
    int64, where an int beyond it raises OverflowError."""
    return ufunc in _COMPARISONS and bool(beyond_range(dt, x)) and any(is_tensor(i) and i.dtype.is_int
                                                                        for i in inputs)


def ufunc_call(ufunc: np.ufunc, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """`ufunc(*inputs, **kwargs)` with a lazy result (see the module docstring)."""
    kw = dict(kwargs)
    outs = _out_tuple(kw.pop("out", None), ufunc.nout)
    where = kw.pop("where", True)
    dtype, signature = kw.pop("dtype", None), kw.pop("signature", None)
    casting = kw.pop("casting", "same_kind")
    kw.pop("order", None)
    kw.pop("subok", None)
    if ufunc is np.vecdot and "axis" in kw:  # the gufunc's core axis, moved last for the lazy implementation
        axis = kw.pop("axis")
        inputs = tuple(np.moveaxis(as_tensor(x), axis, -1) if np.ndim(x) else x for x in inputs)
    impl = UFUNCS.get(ufunc)
    if impl is None or kw or len(inputs) != ufunc.nin:  # leftovers: gufunc axes=/axis=/keepdims=
        return numpy_fallback(ufunc, inputs, kwargs, ufunc.__name__)
    descrs = tuple(describe(x) for x in inputs) + tuple(None if o is None else describe(o) for o in outs)
    sig = _signature(ufunc, dtype, signature)
    loop = ufunc.resolve_dtypes(descrs, casting=casting) if sig is None else ufunc.resolve_dtypes(descrs, signature=sig,
                                                                                                  casting=casting)
    dts = _lazyarr_dtypes(loop)
    if dts is None:
        return numpy_fallback(ufunc, inputs, kwargs, ufunc.__name__)
    if ufunc is np.power and not dts[0].is_float and not is_tensor(inputs[1]) and np.any(np.asarray(inputs[1]) < 0):
        # NumPy checks the exponents' values; those of a host scalar or array are known now (a lazy Tensor's are not:
        # there a negative exponent gives 0, as `Tensor.pow` documents)
        raise ValueError("Integers to negative integer powers are not allowed.")
    device = next(x for x in inputs + outs if is_tensor(x)).device
    xs = [x if _compared_beyond_range(ufunc, x, dt, inputs) else operand(x, dt, device) for x, dt in zip(inputs, dts)]
    try:
        res = impl(*xs)
    except NoLazyError:
        return numpy_fallback(ufunc, inputs, kwargs, ufunc.__name__)
    results = [r.cast(dt) for r, dt in zip(res if isinstance(res, tuple) else (res,), dts[ufunc.nin:])]
    results = [r if o is not None else new_array(r, inputs) for r, o in zip(results, outs)]
    shape = results[0].shape
    if where is not True:
        shape = broadcast_shape(shape, np.shape(where) if not is_tensor(where) else where.shape)
    for o in outs:
        if o is not None:
            full = broadcast_shape(shape, tuple(o.shape))
            if full != tuple(o.shape):
                raise ValueError(f"non-broadcastable output operand with shape {tuple(o.shape)} doesn't match the "
                                 f"broadcast shape {full}")
            shape = full
    return _finish(results, outs, where, shape, ufunc.__name__)


# ---- reduce / accumulate / outer ----

REDUCE_OPS: dict[np.ufunc, Ops] = {np.add: Ops.ADD, np.multiply: Ops.MUL, np.maximum: Ops.MAX, np.minimum: Ops.MIN,
                                   np.logical_and: Ops.MIN, np.logical_or: Ops.MAX}
IDENTITY: dict[np.ufunc, Any] = {np.add: 0, np.multiply: 1, np.logical_and: True, np.logical_or: False}


def reduce_axes(axis: Any, ndim: int, of_0d: bool = True) -> tuple[int, ...]:
    """NumPy's reduction axes: None for all, an int, or a tuple; AxisError / ValueError like NumPy.

    `of_0d`: NumPy's ufunc reductions (np.sum, np.max, and the nan functions built on them) take an int axis 0 or -1
    of a 0-d array, as no axis at all; np.mean, var, std, average and the norms do not (AxisError)."""
    if axis is None:
        return tuple(range(ndim))
    if of_0d and ndim == 0 and not isinstance(axis, (tuple, bool, np.bool_)) and operator_index(axis) in (0, -1):
        return ()
    items = axis if isinstance(axis, tuple) else (axis,)
    axes = tuple(normalize_axis(a, ndim) for a in items)  # a bool axis is a TypeError, as in NumPy
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return axes


def operator_index(a: Any) -> int:
    try:
        return a.__index__()
    except AttributeError:
        raise TypeError(f"'{type(a).__name__}' object cannot be interpreted as an integer") from None


def combine(op: Ops, a: Tensor, b: Any) -> Tensor:
    """a op b for a reduction op (bool ADD/MUL are or/and)."""
    if op is Ops.MAX:
        return a.maximum(b)
    if op is Ops.MIN:
        return a.minimum(b)
    if a.dtype.is_bool:
        return (a | b) if op is Ops.ADD else (a & b)
    return a + b if op is Ops.ADD else a * b


def _loop_dtype(method: Callable[..., Any], x: Tensor, dtype: Any, out: Any) -> Any:
    """The dtype a reduction or accumulation (`method`) of `x` with `out=` computes in, as NumPy picks it: `dtype`
    when given, else out's dtype when x casts to it within its kind and the ufunc has a loop for it (int8 summed into
    int64 sums in int64), else x's own (float32 summed into int32 sums in float32, logical_or of int32 into int32 runs
    its bool loop; the result is cast on its way into out)."""
    if dtype is not None:
        return dtype
    if not np.can_cast(_np_dtype(x.dtype), _np_dtype(out.dtype), "same_kind"):
        return None
    try:
        _probe_dtype(method, x.dtype, dtype=_np_dtype(out.dtype))
    except TypeError:
        return None
    return out.dtype


def _probe_dtype(method: Callable[..., Any], dt: DType, **kw: Any) -> DType:
    """The result dtype NumPy gives `method` on a 1-element array of `dt` (raises NumPy's TypeError otherwise)."""
    with np.errstate(all="ignore"):
        return dtypes.from_numpy(method(np.zeros(1, dt.np_name), **kw).dtype)


def reduce(ufunc: np.ufunc, x: Tensor, axis: Any = 0, dtype: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = _NoValue, where: Any = True) -> Any:
    """`ufunc.reduce` for add, multiply, maximum, minimum, logical_and and logical_or (lazy)."""
    op = REDUCE_OPS[ufunc]
    if out is not None:
        out = _out_tuple(out, 1)[0]
        dtype = _loop_dtype(ufunc.reduce, x, dtype, out)
    res_dt = _probe_dtype(ufunc.reduce, x.dtype, dtype=_np_dtype(dtype))
    axes = reduce_axes(axis, x.ndim)
    name = ufunc.__name__
    identity = IDENTITY.get(ufunc) if initial is _NoValue else initial
    if initial is None:  # NumPy's "no initial value": not even the ufunc's identity
        initial = _NoValue
    if identity is None:
        if where is not True:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one has "
                             "to specify 'initial'")
        if any(x.shape[a] == 0 for a in axes):
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    calc = dtypes.float32 if res_dt is dtypes.float16 and op in (Ops.ADD, Ops.MUL) else res_dt
    xc = x.cast(res_dt).cast(calc)
    if where is not True:
        # masked-out elements are the ufunc's own identity; `initial` is combined once, below (for maximum/minimum,
        # which have none, it is idempotent)
        fill = IDENTITY.get(ufunc, identity)
        if op is Ops.ADD and calc.is_float:
            fill = -0.0  # the exact identity: a masked-out +0.0 would turn a sum of -0.0s with initial=-0.0 into +0.0
        xc = _where_mask(where, xc).broadcast_to(xc.shape).where(xc, Tensor(UOp.const(fill, calc)))
    if initial is not _NoValue and op in (Ops.MAX, Ops.MIN) and calc.is_float and axes:
        # a float max/min takes `initial` as one more element of each reduced axis, so that the reduction orders it
        # with the others (NaN propagates, -0 < +0); combined afterwards by the elementwise maximum/minimum, which
        # keep NumPy's order-dependent choice between equal operands, max(+0, initial=-0.0) was -0
        xc = xc.pad(tuple((0, 1) if i in axes else (0, 0) for i in range(xc.ndim)), value=initial)
        initial = _NoValue
    r = xc._new(xc.uop.reduce(op, axes))
    if initial is _NoValue and op is Ops.ADD and calc.is_float:
        initial = 0.0  # NumPy's float sums start from its identity, +0.0: a sum of -0.0s is +0.0
    if initial is not _NoValue:
        r = combine(op, r, Tensor(UOp.const(initial, calc), device=x.device))
    r = r.cast(res_dt)
    if not keepdims:
        r = r.reshape(tuple(s for i, s in enumerate(x.shape) if i not in axes))
    if out is not None:
        if tuple(out.shape) != r.shape:
            raise ValueError(f"output parameter for reduction operation {name} has the wrong number of dimensions: "
                             f"Found {len(out.shape)} but expected {r.ndim}")
        write_into(out, r, name)
        return out
    return new_array(r, (x,))


def accumulate_axis(axis: Any, ndim: int) -> int:
    """The one axis of `ufunc.accumulate`, checked in NumPy's order: the axes as a reduction takes them (None is
    every axis, a tuple is its axes), then the array's rank, then their number.

    Raises:
        AxisError: an axis out of range. TypeError: an axis that is not an integer, or a 0-d array ("cannot
        accumulate on a scalar"). ValueError: not exactly one axis ("accumulate does not allow multiple axes").
    """
    axes = reduce_axes(axis, ndim)
    if ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if len(axes) != 1:
        raise ValueError("accumulate does not allow multiple axes")
    return axes[0]


def accumulate(ufunc: np.ufunc, x: Tensor, axis: Any = 0, dtype: Any = None, out: Any = None) -> Any:
    """`ufunc.accumulate` for add, multiply, maximum, minimum, logical_and and logical_or (lazy); NumPy's errors for
    the axis and a 0-d array (`accumulate_axis`)."""
    a = accumulate_axis(axis, x.ndim)
    if out is not None:
        out = _out_tuple(out, 1)[0]
        dtype = _loop_dtype(ufunc.accumulate, x, dtype, out)
    res_dt = _probe_dtype(ufunc.accumulate, x.dtype, dtype=_np_dtype(dtype))
    r = scan(x.cast(res_dt), a, REDUCE_OPS[ufunc])  # float16 in float16, as NumPy's (see np.cumsum)
    if out is not None:
        write_into(out, r, ufunc.__name__)
        return out
    return r


def _reduce_method(ufunc: np.ufunc, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    allowed = {"axis", "dtype", "out", "keepdims", "initial", "where"}
    if ufunc not in REDUCE_OPS or len(inputs) != 1 or set(kwargs) - allowed:
        return numpy_fallback(ufunc.reduce, inputs, kwargs, f"{ufunc.__name__}.reduce")
    return reduce(ufunc, as_tensor(inputs[0]), **kwargs)


def _accumulate_method(ufunc: np.ufunc, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if ufunc not in REDUCE_OPS or len(inputs) != 1 or set(kwargs) - {"axis", "dtype", "out"}:
        return numpy_fallback(ufunc.accumulate, inputs, kwargs, f"{ufunc.__name__}.accumulate")
    return accumulate(ufunc, as_tensor(inputs[0]), **kwargs)


def _outer_method(ufunc: np.ufunc, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """`ufunc.outer(a, b)`: shape a.shape + b.shape. Like NumPy, both operands are arrays first, so a Python scalar
    is not weak here: np.add.outer(float32, 2) is float64."""
    if ufunc.nin != 2 or len(inputs) != 2:
        raise ValueError("outer product only supported for binary functions")
    a, b = (as_tensor(x, _first(inputs)) for x in inputs)
    return ufunc_call(ufunc, (a.reshape(a.shape + (1,) * b.ndim), b), kwargs)


def _first(xs: tuple[Any, ...]) -> Tensor:
    return next(x for x in xs if is_tensor(x))


UFUNC_METHODS.update({"__call__": ufunc_call, "reduce": _reduce_method, "accumulate": _accumulate_method,
                      "outer": _outer_method})
