"""Vectorisable exp/log/trig/... for Numba kernels: one float32 or float64 scalar in, the same type out.

``<op>_f32(x)`` and ``<op>_f64(x)`` for op in exp, exp2, expm1, log, log2, log1p, sin, cos, tan, tanh, sigmoid, erf;
``pow_f32(x, y)`` and ``pow_f64(x, y)``. Pass the matching NumPy scalar type (a Python float into an ``_f32``
function compiles a float64 variant); float16 callers compute in float32. PyPI Numba has no SVML, so np.exp or
math.sin in an @njit loop is a scalar libm call that stops LLVM's loop vectoriser. These functions use arithmetic,
compares, selects and int<->float bit casts (the ``_bits``/``_float`` intrinsics) only, so loops calling them compile
to packed AVX/AVX-512 code. NumPy's special values throughout: exp(1000) = inf, log(0) = -inf, log(-1) = nan,
pow per C99 (pow(x, 0) = 1, pow(-8, 1/3) = nan, pow(-2, 3) = -8, pow(-0, -1) = -inf), signed zeros, subnormals.

Method: range reduction, then minimax polynomials fitted by ``fit_minimax`` (Remez in long double; ``python -m
lazyarr.kernels.transcendental`` reprints the tables); pi, ln 2 and 2/pi come from integer arithmetic below. Cody-Waite
constants are split so that k * chunk is exact; 2**k is applied as two normal factors so overflow and subnormal results
round once; log splits the mantissa at sqrt(1/2). float32 exp, exp2, log, log2, sin, cos, tan, tanh, sigmoid and erf
compute in float32 (8 lanes per AVX register; their integer steps go through ``_i32``, since Numba widens int32
arithmetic to int64 and LLVM cannot always narrow it back, which splits a loop into 2 x 4 lanes); float32 expm1, log1p
and pow compute in float64 with shorter polynomials, where float32 would cancel too much for 2 ulp. float32 cos/tan
below |x| = 2**20 reduce by Cody-Waite in float32 with fused multiply-adds to a remainder hi + lo of x mod pi/2 and
evaluate float32 polynomials (``_reduce_f32_fast``, ``_sin_qr_f32``, ``tan_f32_small``; tan's cotangent side divides
once, corrected by a Newton step); float32 sin there reduces by pi to a single float32 remainder in three fused
multiply-adds and evaluates one odd polynomial (``sin_f32_small``: max 2 ulp instead of 1, in 0.55 instead of 0.93 ns
per element, a float32 loop in cache); larger float32 arguments go through a table-free Payne-Hanek
(``_reduce_f32``) and sin/cos/tan of the float64 remainder in float64, rounded once. float64 sin/cos/tan use an
error-free Cody-Waite below |x| = 2**29 and call libm above it. Both full functions branch, so loops calling them stay
scalar (LLVM vectorises a branch by running both sides; llvm.sin would be speculated into every lane). Kernels use
``sin/cos/tan_<t>_small``, the small-argument sides alone (the same bits there), which vectorise: they check each block
of arguments first and call the full functions only for a block holding a large, inf or NaN argument
(render_numba.RANGED). A float32 sin loop is 1.7x faster than with a Payne-Hanek in every lane, and it compiles faster.
``exp_f32_small`` is exp_f32 without its clamps and with 2**n as one factor, for x in (-87, 88) where the result is
normal (the same bits: checked over every float32 there); a loop that can run twice runs with it and again with
exp_f32 only when an argument was outside (render_numba.RANGED), which makes a float32 exp loop in cache and the
softmax kernel 10-15% faster; ``log_f32_small`` likewise is log_f32 for normal finite x > 0 (no subnormal scaling, no
special cases: 12 instead of 19 cycles per 8 lanes). pow_f64 keeps log|x| and y log|x| in double-double.

Decorators: numba.njit(cache=True, fastmath=False, nogil=True, error_model="numpy"); fastmath stays off because
Cody-Waite and the error-free sums need plain IEEE rounding (no contraction, no reassociation). Inlining, measured
as the compile time of a one-function float32 loop with the function already in the disk cache (2-core machine
under load, so absolute times are inflated ~3x):

    | function | inline="never" (default)          | inline="always"         |
    |----------|-----------------------------------|-------------------------|
    | exp_f32  | 0.5 s, vectorised (LLVM inlines)  | 1.2 s, vectorised       |
    | log_f32  | 0.5 s, vectorised (LLVM inlines)  | 1.4 s, vectorised       |
    | sin_f32  | 0.6 s, NOT vectorised (a call)    | 1.7 s, vectorised       |

So the default, where LLVM inlines by itself (Numba types the function once and caches it), and inline="always"
for what is past LLVM's inlining threshold: the ``_small`` trig variants, erf, pow and their cores ``_erf64`` and
``_log_dd`` (the full sin/cos/tan_f32 are plain calls, see above);
``_horner`` is an overload that emits straight-line code (LLVM leaves a 17-term loop over a tuple rolled, and an
inner loop also stops the vectoriser), one ``_fma`` (llvm.fmuladd: fused where the CPU has FMA) per step: that halves
the polynomial work, which is most of each function, and rounds once per step instead of twice. A loop calling
exp_f32 and sin_f32 compiled in 8.2 s with a cold cache, 1.8 s with these functions cached, and loads in 0.02 s once
itself cached.

Max error in ulp against NumPy's float64 result (rounded to float32 for _f32; math.erf for erf, long double for
sigmoid), over 2**16 log-uniform inputs plus focus ranges and special values per function; see
tests/unit/test_transcendental.py (run with -s to print them). cos/tan_f32 (and the _small variants below 2**20)
were also run on every float32 of both signs in the binades of 2**-1, 1, 2, 4, 8, 2**10, 2**19, 2**20, 2**21, 2**60,
2**100 and 2**127 (sin_f32 in those from 2**20 on), cos/tan_f32_small on the three float32s nearest each multiple of
pi/2 below 2**20, and erf_f32
on every float32 in [2**-14, 4.5] (its switch is at 0.921875): max 1 ulp (16.4% off by 1; at most 1.22 ulp of the
exact value, near 0.96); since cos_f32 (and sin_f32, before it reduced by pi) below 2**20 compute in
float32, again on every float32 in [2**-13, 2**20) and in the binades of 2**-127, 2**-126, 2**-100, 2**-40, 2**-20:
max 1 ulp (3-9% of each binade in [1, 2**20) off by 1). sin_f32 below 2**20 (``sin_f32_small``, reduced by pi) was run
on every float32 of both signs below 2**20: max 2 ulp (at |x| = 1.4016294, where r**3 S(r*r) is largest); 3.7% of
all of them are off, but most float32s are tiny, where sin x rounds to x: from 1 to 2**20, 26-31% of each binade are
off by 1 and 0.1-0.3% by 2 (3-7% by 1 before), and sin(float32(pi/2)) is 0.99999994. Above 2**20 it is the float64
path, max 1 ulp.

    | op      | f32 | f64 |    | op      | f32 | f64 |
    |---------|-----|-----|    |---------|-----|-----|
    | exp     |  1  |  1  |    | sin     |  2  |  1  |
    | exp2    |  1  |  1  |    | cos     |  1  |  1  |
    | expm1   |  1  |  1  |    | tan     |  1  |  2  |
    | log     |  1  |  1  |    | tanh    |  1  |  2  |
    | log2    |  1  |  2  |    | sigmoid |  2  |  2  |
    | log1p   |  0  |  1  |    | erf     |  1  |  1  |
    | pow     |  1  |  1  |    |         |     |     |
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

__all__ = [
    f"{op}_{t}"
    for op in ("exp", "exp2", "expm1", "log", "log2", "log1p", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "pow")
    for t in ("f32", "f64")
] + [f"{op}_{t}_small" for op in ("sin", "cos", "tan") for t in ("f32", "f64")]

_jit = numba.njit(cache=True, fastmath=False, nogil=True, error_model="numpy")
_jit_inline = numba.njit(cache=True, fastmath=False, nogil=True, error_model="numpy", inline="always")
F32, F64 = np.float32, np.float64

# ---------------------------------------------------------------------------------------------------------------
# Bit casts and integer helpers (LLVM instructions the loop vectoriser understands)
# ---------------------------------------------------------------------------------------------------------------
_INT_FOR = {types.float32: types.int32, types.float64: types.int64}
_FLOAT_FOR = {types.int32: types.float32, types.int64: types.float64}


@intrinsic
def _bits(typingctx, x):  # type: ignore[no-untyped-def]
    """The IEEE bit pattern of a float32/float64 as int32/int64 (an LLVM bitcast, no memory round trip)."""
    if x not in _INT_FOR:
        return None
    out = _INT_FOR[x]

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.bitcast(args[0], ir.IntType(out.bitwidth))

    return out(x), codegen


@intrinsic
def _float(typingctx, i):  # type: ignore[no-untyped-def]
    """The float32/float64 whose bit pattern is the int32/int64 `i`."""
    if i not in _FLOAT_FOR:
        return None
    out = _FLOAT_FOR[i]

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.bitcast(args[0], context.get_value_type(out))

    return out(i), codegen


@intrinsic
def _lshr(typingctx, x, n):  # type: ignore[no-untyped-def]
    """Zero-filling right shift of an int64 by 0 <= n < 64 (Numba's >> on int64 copies the sign bit)."""
    if x != types.int64 or not isinstance(n, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.lshr(args[0], context.cast(builder, args[1], signature.args[1], types.int64))

    return types.int64(x, n), codegen


@intrinsic
def _i32(typingctx, op, a, b):  # type: ignore[no-untyped-def]
    """int32 `a op b` for op in "add", "sub", "and", "ashr", "shl", wrapping, integer operands truncated to 32 bits.
    Numba computes int32 + int32 in int64, which LLVM cannot always narrow: 8 lanes would become 2 x 4."""
    if not isinstance(op, types.StringLiteral) or not all(isinstance(v, types.Integer) for v in (a, b)):
        return None
    name = op.literal_value

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i32 = ir.IntType(32)
        x, y = (
            builder.trunc(v, i32) if v.type.width > 32 else builder.sext(v, i32) if v.type.width < 32 else v
            for v in (args[1], args[2])
        )
        return getattr(builder, {"and": "and_"}.get(name, name))(x, y)

    return types.int32(op, a, b), codegen


@intrinsic
def _fma(typingctx, a, b, c):  # type: ignore[no-untyped-def]
    """a * b + c as LLVM's fmuladd: one fused multiply-add where the CPU has FMA (rounded once: never less accurate
    than the separate operations), a multiply and an add elsewhere. For polynomials, and Cody-Waite steps whose
    product is exact or may be rounded either way; error-free transforms spell out their roundings."""
    if not isinstance(a, types.Float) or not a == b == c:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        t = args[0].type
        fn = builder.module.declare_intrinsic("llvm.fmuladd", [t], ir.FunctionType(t, [t, t, t]))
        return builder.call(fn, args)

    return a(a, b, c), codegen


@intrinsic
def _libm(typingctx, name, x):  # type: ignore[no-untyped-def]
    """C's double name(double), called as an opaque function: LLVM may neither speculate it into every vector lane
    (as it would llvm.sin, costing a libm call per element) nor vectorise a loop around it."""
    if not isinstance(name, types.StringLiteral) or x != types.float64:
        return None
    symbol = name.literal_value

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(ir.DoubleType(), [ir.DoubleType()])
        return builder.call(cgutils.get_or_insert_function(builder.module, fnty, symbol), [args[1]])

    return types.float64(name, x), codegen


# ---------------------------------------------------------------------------------------------------------------
# Constants, derived here from integer arithmetic so that nothing is copied from elsewhere
# ---------------------------------------------------------------------------------------------------------------
def _atan_inv_fixed(n: int, bits: int) -> int:
    """atan(1/n) * 2**bits to within a few units, from its Taylor series in integer arithmetic."""
    total, power, k, sign = 0, (1 << bits) // n, 1, 1
    while power:
        total += sign * (power // k)
        power //= n * n
        k, sign = k + 2, -sign
    return total


def _pi_fixed(bits: int) -> int:
    """floor(pi * 2**bits) (Machin: pi/4 = 4 atan(1/5) - atan(1/239)), 16 guard bits."""
    g = bits + 16
    return (16 * _atan_inv_fixed(5, g) - 4 * _atan_inv_fixed(239, g)) >> 16


def _ln2_fixed(bits: int) -> int:
    """floor(ln 2 * 2**bits) from ln 2 = sum 1/(k 2**k), 16 guard bits."""
    g = bits + 16
    return sum((1 << g) // (k << k) for k in range(1, g + 1)) >> 16


def _chunks(value: int, frac_bits: int, sig_bits: int, count: int) -> tuple[float, ...]:
    """value / 2**frac_bits as `count` floats: all but the last truncated to `sig_bits` significant bits, so that
    k * chunk is exact for |k| < 2**(53 - sig_bits); the last one rounded to nearest."""
    out = []
    for i in range(count):
        drop = max(value.bit_length() - sig_bits, 0) if i < count - 1 else 0
        head = (value >> drop) << drop
        out.append(math.ldexp(float(head), -frac_bits))
        value -= head
    return tuple(out)


_P = 320  # fixed-point precision of the derived constants
_PI = _pi_fixed(_P)
_LN2 = _ln2_fixed(_P)
_TWO_OVER_PI = (1 << (2 * _P + 1)) // _PI  # floor(2/pi * 2**_P)

_LN2_HI, _LN2_LO = _chunks(_LN2, _P, 42, 2)  # n * _LN2_HI exact for |n| < 2**11 (every float64 exponent)
_LN2_HI_F32, _LN2_LO_F32 = (F32(c) for c in _chunks(_LN2, _P, 16, 2))  # exact for |n| < 2**8
_LOG2E = math.ldexp(float((1 << (2 * _P)) // _LN2), -_P)  # 1/ln 2, correctly rounded
_LOG2E_F32 = F32(_LOG2E)
_LN2_F32 = F32(math.log(2))  # one float32 ln 2: a reduction that need not be exact (see _exp_neg_f32)
_PIO2 = math.pi / 2
_TWO_OVER_PI_F = 2.0 / math.pi
_PIO2_F64 = _chunks(_PI, _P + 1, 23, 5)  # float64 arguments: exact k * chunk for |k| < 2**30
_F64_TRIG_LIMIT = float(2**29)  # |x| beyond this: float64 sin/cos/tan fall back to libm (see module docstring)
_F32_TRIG_SMALL = F32(2.0**20)  # float32 |x| below this: Cody-Waite and polynomials in float32
# k * chunk + x, fused, is exact for the first chunk (see _reduce_f32_fast); 96 bits of pi/2 in all
_MINUS_PIO2_F32 = tuple(F32(-c) for c in _chunks(_PI, _P + 1, 24, 4))
_TWO_OVER_PI_F32 = F32(2.0 / math.pi)
# sin_f32_small reduces by pi: the same chunks doubled (exactly), k = round(x F32(1/pi)) for |x| < 2**20; F32(1/pi)
# is 2**-27.6 off in relative terms, so x / pi - k may reach 1/2 + 0.0016 and |r| < 1.5759
_MINUS_PI_F32 = tuple(F32(2.0 * c) for c in _MINUS_PIO2_F32)
_ONE_OVER_PI_F32 = F32(1.0 / math.pi)
_SIN_PI_R_F32 = 1.58
# |hi| bound of _reduce_f32_fast: k = round(x F32(2/pi)) may be off by one near a half-quadrant, so |hi| < 0.8277
_TRIG_R_F32 = 0.83
_PIO2_F32_ARGS = _chunks(_PI, _P + 1, 33, 3)  # k * chunk exact for |k| < 2**20 (k = round(x 2/pi), |x| < 2**20)
# 2/pi bits 1..256 (after the binary point) as four int64 words, most significant bit first, for Payne-Hanek
_TWO_OVER_PI_WORDS = tuple(
    int(np.uint64((_TWO_OVER_PI >> (_P - 64 * (w + 1))) & (2**64 - 1)).view(np.int64)) for w in range(4)
)
_G0, _G1, _G2, _G3 = _TWO_OVER_PI_WORDS

_ROUND = 6755399441055744.0  # 1.5 * 2**52: x + _ROUND rounds x to an integer held in the low mantissa bits
_ROUND_BITS = int(np.float64(_ROUND).view(np.int64))
_ROUND_F32 = F32(12582912.0)  # 1.5 * 2**23
_ROUND_BITS_F32 = int(_ROUND_F32.view(np.int32))
_SPLIT = 134217729.0  # 2**27 + 1 (Veltkamp splitting)
_SQRT_HALF_BITS = int(np.float64(math.sqrt(0.5)).view(np.int64))  # log splits mantissas at sqrt(1/2)
_SQRT_HALF_BITS_F32 = int(F32(math.sqrt(0.5)).view(np.int32))
_TWO_THIRDS_HI = 2.0 / 3.0
_TWO_THIRDS_LO = float(np.longdouble(2) / 3 - np.longdouble(_TWO_THIRDS_HI))
_ERF_SMALL = 0.84375  # |x| below: erf by its odd polynomial; above: 1 - erfc
_ERF_SMALL_F32 = 0.921875  # the same for float32, whose 1 - erfc side stops at 4 (erf rounds to 1 from 3.92)
_ERFC_MOBIUS = 3.0  # erfc(x) e**(x*x) is fitted in s = (x - 3) / (x + 3)
_ERFC_CENTER_F32 = 1.5  # float32: erfc(x) e**(x*x) is fitted in u = x - 1.5 (no division)


def _f32_tuple(*values: float) -> tuple[np.float32, ...]:
    return tuple(F32(v) for v in values)


# ---------------------------------------------------------------------------------------------------------------
# Polynomial coefficients, lowest order first: fit_minimax() below, `python -m lazyarr.kernels.transcendental`
# ---------------------------------------------------------------------------------------------------------------
# TABLES
# fmt: off
# degree 4, max weighted error 2**-28.3
_EXP_F32 = _f32_tuple(0.49999994, 0.16666521, 0.04166839, 0.008368717, 0.0013814598)
# degree 9, max weighted error 2**-57.9
_EXP_F64 = (0.5000000000000011, 0.16666666666666413, 0.04166666666653014, 0.008333333333494453, 0.0013888888943634013,
            0.00019841269506597052, 2.4801493095059425e-05, 2.7557586361663897e-06, 2.7630249671437346e-07,
            2.5000063640830144e-08)
# degree 5, max weighted error 2**-34.2
_EXP_LOW = (0.5000000067682088, 0.16666665868936484, 0.04166629494733237, 0.008333497074632221, 0.0013944659623963925,
            0.0001979034162049821)
# degree 5, max weighted error 2**-28.9
_EXP2_F32 = _f32_tuple(0.6931472, 0.24022648, 0.055503324, 0.009618438, 0.0013398901, 0.00015353342)
# degree 10, max weighted error 2**-58.0
_EXP2_F64 = (0.6931471805599453, 0.2402265069591013, 0.05550410866482008, 0.009618129107594056, 0.0013333558146776576,
             0.00015403530457200172, 1.5252733491498434e-05, 1.3215435235571969e-06, 1.017820015878363e-07,
             7.0737916892850175e-09, 4.434695232234004e-10)
# degree 9, max weighted error 2**-55.6
_EXPM1_F64 = (0.5000000000000006, 0.16666666666666588, 0.04166666666657675, 0.008333333333389524,
              0.0013888888931566246, 0.0001984126971907017, 2.4801505272260028e-05, 2.7557407483046813e-06,
              2.7626038457234956e-07, 2.5053794379421617e-08)
# degree 5, max weighted error 2**-32.0
_EXPM1_LOW = (0.5000000044163426, 0.16666666370466762, 0.04166636091488353, 0.008333389368921727,
              0.0013940627223511038, 0.0001984587761653033)
# degree 8, max weighted error 2**-27.9
_LOG_F32 = _f32_tuple(-0.49999988, 0.33333325, -0.25001583, 0.20001973, -0.16609083, 0.14181826, -0.13242988,
                      0.12904434, -0.07621778)
# degree 9, max weighted error 2**-27.9
_LOG2_F32 = _f32_tuple(0.44269505, -0.72134733, 0.48089823, -0.36069664, 0.2885674, -0.2396174, 0.20460062,
                       -0.19106275, 0.18617496, -0.10994955)
# degree 6, max weighted error 2**-59.5
_LOG_F64 = (0.6666666666666734, 0.3999999999941601, 0.28571428742103855, 0.22222198601019397, 0.18183562946807105,
            0.15314084140525216, 0.14795630254560221)
# degree 3, max weighted error 2**-37.6
_LOG_LOW = (0.6666666564823264, 0.4000033463685713, 0.28537339968333897, 0.23581613684937772)
# degree 7, max weighted error 2**-70.6
_POW_R2 = (0.39999999999999997, 0.2857142857143291, 0.2222222222035348, 0.18181818546287762, 0.1538457743633036,
           0.13335584576396017, 0.11688565394028916, 0.11883323467610907)
# degree 5, max weighted error 2**-57.9
_SIN_F64 = (-0.1666666666666663, 0.008333333333322002, -0.00019841269829493156, 2.7557313586852846e-06,
            -2.5050742195022773e-08, 1.5895898593500409e-10)
# degree 5, max weighted error 2**-63.1
_COS_F64 = (0.041666666666666574, -0.0013888888888869805, 2.480158728671059e-05, -2.7557313550310937e-07,
            2.087561568564739e-09, -1.135419897006433e-11)
# degree 3, max weighted error 2**-36.7
_SIN_LOW = (-0.16666666644040445, 0.00833332930510525, -0.00019839253547014086, 2.7172732002532476e-06)
# degree 3, max weighted error 2**-42.9
_COS_LOW = (0.04166666661910677, -0.0013888883467257482, 2.4799451551284795e-05, -2.7205046435009465e-07)
# degree 2, max weighted error 2**-27.3
_SIN_F32 = _f32_tuple(-0.1666665, 0.00833187, -0.00019477273)
# degree 3, max weighted error 2**-27.2
_SIN_PI_F32 = _f32_tuple(-0.1666666, 0.008333056, -0.00019808847, 2.6040238e-06)
# degree 2, max weighted error 2**-31.0
_COS_F32 = _f32_tuple(0.04166665, -0.001388735, 2.4424677e-05)
# degree 6, max weighted error 2**-28.1
_TAN_F32 = _f32_tuple(0.33333376, 0.13331829, 0.054152094, 0.020819083, 0.012002286, -0.0013459803, 0.0050631766)
# degree 4, max weighted error 2**-29.5
_TANH_F32 = _f32_tuple(-0.33333313, 0.13332452, -0.05383743, 0.021007463, -0.006179816)
# degree 10, max weighted error 2**-56.4
_ERF_F64 = (0.12837916709551256, -0.37612638903183376, 0.11283791670934185, -0.026866170640577485,
            0.005223977574534024, -0.000854832369472724, 0.00012055196871577682, -1.4922061106144616e-05,
            1.640090992580994e-06, -1.5709717545869904e-07, 1.0713286703124734e-08)
# degree 5, max weighted error 2**-25.9
_ERF_F32 = _f32_tuple(0.12837915, -0.37612495, 0.11281816, -0.026766617, 0.0049931803, -0.00059908535)
# degree 16, max weighted error 2**-57.2
_ERFC_F64 = (0.17900115118138996, -0.3262335600430372, 0.24560380171233118, -0.1501159365007735, 0.07166583719794073,
             -0.02439249931895711, 0.004269136334603386, 0.0007077464494331902, -0.000597061986214774,
             4.5255085101841765e-05, 6.405692687888687e-05, -1.2858037435363006e-05, -7.979236827566992e-06,
             2.1046758427019783e-06, 1.2457246820343334e-06, -2.504393090959724e-07, -1.8826765570783753e-07)
# degree 7, max weighted error 2**-25.3
_ERFC_F32 = _f32_tuple(0.3215852, -0.16362406, 0.07616194, -0.03289398, 0.013307768, -0.005325538, 0.0020679,
                       -0.00046809998)
# fmt: on
# END TABLES
_EXP_NEG_F32 = tuple(-c if k % 2 else c for k, c in enumerate(_EXP_F32))  # h(-r) = _EXP_NEG_F32(r)

# ---------------------------------------------------------------------------------------------------------------
# Small shared pieces
# ---------------------------------------------------------------------------------------------------------------


def _horner(x, c):  # type: ignore[no-untyped-def]
    """c[0] + c[1] x + ... + c[n-1] x**(n-1) for a constant tuple c; jitted code gets straight-line code (below)."""
    acc = c[-1]
    for coef in c[-2::-1]:
        acc = acc * x + coef
    return acc


@overload(_horner, inline="always")
def _horner_straight_line(x, c):  # type: ignore[no-untyped-def]
    # generated per tuple length: a loop over the tuple is not always unrolled by LLVM (17 terms are not), and a
    # leftover inner loop stops the loop vectoriser
    if not isinstance(c, types.UniTuple):
        return None
    steps = "".join(f"    acc = _fma(acc, x, c[{i}])\n" for i in range(c.count - 2, -1, -1))
    scope = {"_fma": _fma}
    exec(f"def impl(x, c):\n    acc = c[{c.count - 1}]\n{steps}    return acc\n", scope)
    return scope["impl"]


@_jit
def _clamp(x, lo, hi):  # type: ignore[no-untyped-def]
    """x limited to [lo, hi]; NaN passes through."""
    x = lo if x < lo else x
    return hi if x > hi else x


@_jit
def _ldexp_f32(p, k):  # type: ignore[no-untyped-def]
    """p * 2**k for k in [-151, 129] and p near 1, in two normal factors so overflow and subnormals round once."""
    k1 = _i32("ashr", k, 1)
    k2 = _i32("sub", k, k1)
    return p * _float(_i32("shl", _i32("add", k1, 127), 23)) * _float(_i32("shl", _i32("add", k2, 127), 23))


@_jit
def _ldexp(p, k):  # type: ignore[no-untyped-def]
    """float64 p * 2**k for k in [-1077, 1025] and p near 1 (see _ldexp_f32)."""
    k1 = k >> 1
    return p * _float(np.int64((k1 + 1023) << 52)) * _float(np.int64((k - k1 + 1023) << 52))


@_jit
def _int_to_f64(v):  # type: ignore[no-untyped-def]
    """float64(v) for an int64 |v| < 2**51 (AVX2 has no packed int64 -> double conversion)."""
    return _float(v + _ROUND_BITS) - _ROUND


@_jit
def _two_sum(a, b):  # type: ignore[no-untyped-def]
    """(s, e) with s = fl(a + b) and a + b = s + e exactly."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@_jit
def _fast_two_sum(a, b):  # type: ignore[no-untyped-def]
    """_two_sum for |a| >= |b|."""
    s = a + b
    return s, b - (s - a)


@_jit
def _two_prod(a, b):  # type: ignore[no-untyped-def]
    """(p, e) with p = fl(a * b) and a * b = p + e exactly (Dekker; no FMA needed). |a|, |b| < 2**995."""
    p = a * b
    ca = _SPLIT * a
    ah = ca - (ca - a)
    cb = _SPLIT * b
    bh = cb - (cb - b)
    al = a - ah
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@_jit
def _dd_mul(ah, al, bh, bl):  # type: ignore[no-untyped-def]
    """(ah + al) * (bh + bl) as a normalised double-double."""
    p, e = _two_prod(ah, bh)
    return _fast_two_sum(p, e + (ah * bl + al * bh))


# ---------------------------------------------------------------------------------------------------------------
# exp, exp2, expm1
# ---------------------------------------------------------------------------------------------------------------


@_jit
def exp_f32(x):  # type: ignore[no-untyped-def]
    """e**x in float32 arithmetic (the reduction x - n ln2 in two fused multiply-adds: n ln2_hi is exact, so the
    first is exact and the second rounds once)."""
    x = _clamp(x, F32(-104.0), F32(89.0))
    t = _fma(x, _LOG2E_F32, _ROUND_F32)
    n = t - _ROUND_F32
    r = _fma(n, -_LN2_LO_F32, _fma(n, -_LN2_HI_F32, x))
    p = F32(1.0) + _fma(r * r, _horner(r, _EXP_F32), r)
    return _ldexp_f32(p, _i32("sub", _bits(t), _ROUND_BITS_F32))


@_jit
def _exp_dd(hi, lo, c):  # type: ignore[no-untyped-def]
    """e**(hi + lo) in float64 for a small correction lo; the coefficient tuple c sets the accuracy."""
    lo = lo if (hi > -746.0) & (hi < 710.0) else 0.0
    hi = _clamp(hi, -746.0, 710.0)
    t = hi * _LOG2E + _ROUND
    n = t - _ROUND
    r = (hi - n * _LN2_HI) + (lo - n * _LN2_LO)
    p = 1.0 + (r + r * r * _horner(r, c))
    return _ldexp(p, _bits(t) - _ROUND_BITS)


@_jit
def exp_f64(x):  # type: ignore[no-untyped-def]
    """e**x."""
    return _exp_dd(x, 0.0, _EXP_F64)


@_jit
def exp2_f32(x):  # type: ignore[no-untyped-def]
    """2**x in float32 arithmetic."""
    x = _clamp(x, F32(-151.0), F32(129.0))
    t = x + _ROUND_F32
    r = x - (t - _ROUND_F32)
    return _ldexp_f32(F32(1.0) + r * _horner(r, _EXP2_F32), _i32("sub", _bits(t), _ROUND_BITS_F32))


@_jit
def exp2_f64(x):  # type: ignore[no-untyped-def]
    """2**x."""
    x = _clamp(x, -1076.0, 1025.0)
    t = x + _ROUND
    r = x - (t - _ROUND)
    return _ldexp(1.0 + r * _horner(r, _EXP2_F64), _bits(t) - _ROUND_BITS)


@_jit
def _expm1_64(x, c):  # type: ignore[no-untyped-def]
    """e**x - 1 in float64: expm1(r) for |r| <= ln2/2 by polynomial, then 2**k (1 + expm1(r)) - 1 rearranged."""
    x = _clamp(x, -60.0, 710.0)
    t = x * _LOG2E + _ROUND
    n = t - _ROUND
    hi = x - n * _LN2_HI
    lo = n * _LN2_LO
    r = hi - lo
    rc = (hi - r) - lo  # rounding error of r, folded back in below
    em = r + (r * r * _horner(r, c) + rc * (1.0 + r))
    k = _bits(t) - _ROUND_BITS
    near = em * _float(np.int64((k + 1023) << 52)) + (_float(np.int64((k + 1023) << 52)) - 1.0)
    far = _ldexp(1.0 + em, k) - 1.0  # k > 53: the -1 is below rounding; split scaling avoids overflow at k = 1024
    out = far if k > 53 else near
    return x if x == 0.0 else out


@_jit
def expm1_f64(x):  # type: ignore[no-untyped-def]
    """e**x - 1, accurate near 0."""
    return _expm1_64(x, _EXPM1_F64)


@_jit
def expm1_f32(x):  # type: ignore[no-untyped-def]
    """e**x - 1, accurate near 0 (computed in float64)."""
    return F32(_expm1_64(F64(x), _EXPM1_LOW))


# ---------------------------------------------------------------------------------------------------------------
# log, log2, log1p
# ---------------------------------------------------------------------------------------------------------------


@_jit
def _log_parts_f32(x):  # type: ignore[no-untyped-def]
    """(e, f) with x = 2**e (1 + f) and 1 + f in [sqrt(1/2), sqrt(2)), for finite x > 0 (subnormals included)."""
    tiny = x < F32(1.1754944e-38)
    ix = _i32("sub", _bits(x * F32(8388608.0) if tiny else x), _SQRT_HALF_BITS_F32)
    e = _i32("sub", _i32("ashr", ix, 23), 23 if tiny else 0)
    return F32(e), _float(_i32("add", _i32("and", ix, 0x7FFFFF), _SQRT_HALF_BITS_F32)) - F32(1.0)


@_jit
def _log_parts(x):  # type: ignore[no-untyped-def]
    """float64 version of _log_parts_f32."""
    tiny = x < 2.2250738585072014e-308
    ix = _bits(x * 18014398509481984.0 if tiny else x) - _SQRT_HALF_BITS
    e = (ix >> 52) - (54 if tiny else 0)
    return _int_to_f64(e), _float((ix & 0xFFFFFFFFFFFFF) + _SQRT_HALF_BITS) - 1.0


@_jit
def _log_special(x, y, inf):  # type: ignore[no-untyped-def]
    """log's result y with NumPy's answers at 0 (-inf), +inf (inf), negatives and NaN (NaN) put in."""
    y = -inf if x == 0 else y
    y = inf if x == inf else y
    return y if x >= 0 else inf - inf


@_jit
def log_f32(x):  # type: ignore[no-untyped-def]
    """Natural log in float32 arithmetic."""
    e, f = _log_parts_f32(x)
    # e * _LN2_HI_F32 is exact (16 bits times 8), so fusing it with the add rounds as the add alone did
    y = _fma(e, _LN2_HI_F32, f) + (f * f * _horner(f, _LOG_F32) + e * _LN2_LO_F32)
    return _log_special(x, y, F32(np.inf))


@_jit
def log_f32_small(x):  # type: ignore[no-untyped-def]
    """log_f32 for normal, finite x > 0, with its bits there: no subnormal scaling and no special cases."""
    ix = _i32("sub", _bits(x), _SQRT_HALF_BITS_F32)
    e = F32(_i32("ashr", ix, 23))
    f = _float(_i32("add", _i32("and", ix, 0x7FFFFF), _SQRT_HALF_BITS_F32)) - F32(1.0)
    return _fma(e, _LN2_HI_F32, f) + (f * f * _horner(f, _LOG_F32) + e * _LN2_LO_F32)


@_jit
def log2_f32(x):  # type: ignore[no-untyped-def]
    """Base-2 log in float32 arithmetic."""
    e, f = _log_parts_f32(x)
    return _log_special(x, e + (f + f * _horner(f, _LOG2_F32)), F32(np.inf))


@_jit
def _log1p_terms(f, c):  # type: ignore[no-untyped-def]
    """(hfsq, corr) with log(1 + f) = f - (hfsq - corr), hfsq = f*f/2 large and corr small: the big terms stay
    exact and the division s = f / (2 + f) only touches the small one. log(1+f) = 2s + s z R(z), z = s*s."""
    s = f / (2.0 + f)
    z = s * s
    hfsq = 0.5 * f * f
    return hfsq, s * (hfsq + z * _horner(z, c))


@_jit
def _log64(x, c):  # type: ignore[no-untyped-def]
    """Natural log of a finite float64 x > 0."""
    e, f = _log_parts(x)
    hfsq, corr = _log1p_terms(f, c)
    return e * _LN2_HI + (f - (hfsq - (corr + e * _LN2_LO)))


@_jit
def log_f64(x):  # type: ignore[no-untyped-def]
    """Natural log."""
    return _log_special(x, _log64(x, _LOG_F64), np.inf)


@_jit
def log2_f64(x):  # type: ignore[no-untyped-def]
    """Base-2 log."""
    e, f = _log_parts(x)
    hfsq, corr = _log1p_terms(f, _LOG_F64)
    return _log_special(x, e + (f - (hfsq - corr)) * _LOG2E, np.inf)


@_jit
def _log1p64(x, c):  # type: ignore[no-untyped-def]
    """log(1 + x): log of u = fl(1 + x) plus the rounding error of u divided by u."""
    u = 1.0 + x
    err = (1.0 - (u - x)) if x >= 1.0 else (x - (u - 1.0))
    e, f = _log_parts(u)
    hfsq, corr = _log1p_terms(f, c)
    y = e * _LN2_HI + (f - (hfsq - (corr + (e * _LN2_LO + err / u))))
    y = -np.inf if x == -1.0 else y
    y = np.inf if x == np.inf else y
    y = x if x == 0.0 else y
    return y if x >= -1.0 else np.nan


@_jit
def log1p_f64(x):  # type: ignore[no-untyped-def]
    """log(1 + x), accurate near 0."""
    return _log1p64(x, _LOG_F64)


@_jit
def log1p_f32(x):  # type: ignore[no-untyped-def]
    """log(1 + x), accurate near 0, computed in float64: there 1 + x is exact for float32 |x| >= 2**-29 (and below
    2**53), so `_log1p64`'s correction (a division) is not needed; below 2**-29, x - x*x/2 is within 2**-58."""
    xd = F64(x)
    u = 1.0 + xd
    e, f = _log_parts(u)
    hfsq, corr = _log1p_terms(f, _LOG_LOW)
    y = e * _LN2_HI + (f - (hfsq - (corr + e * _LN2_LO)))
    y = xd - 0.5 * xd * xd if abs(xd) < 2.0**-29 else y
    y = -np.inf if xd == -1.0 else y
    y = np.inf if xd == np.inf else y
    return F32(y if xd >= -1.0 else np.nan)


# ---------------------------------------------------------------------------------------------------------------
# sin, cos, tan
# ---------------------------------------------------------------------------------------------------------------


@_jit
def _reduce_f32_small(x):  # type: ignore[no-untyped-def]
    """(q, r) as `_reduce_f32`, for |x| < _F32_TRIG_SMALL (inf and NaN give a NaN r): Cody-Waite in float64.
    k c_i is exact for every chunk c_i, x - k c0 too (k c0 is within a factor 2 of x), so r keeps ~2**-52 relative
    accuracy even for the float32s closest to multiples of pi/2, fused multiply-adds or not. Odd in x, bit for bit
    (k rounds to even from the middle of 1.5 * 2**52, whose parity does not depend on the sign)."""
    xd = F64(x)
    t = _fma(xd, _TWO_OVER_PI_F, _ROUND)
    k = t - _ROUND
    r = _fma(-k, _PIO2_F32_ARGS[0], xd)
    r = _fma(-k, _PIO2_F32_ARGS[1], r)
    return _bits(t), _fma(-k, _PIO2_F32_ARGS[2], r)


@_jit
def _reduce_f32(x):  # type: ignore[no-untyped-def]
    """(q, r) with x = q pi/2 + r (mod 2 pi), |r| <= pi/4, r a float64 good to ~2**-50 relative, for every finite
    float32 x: `_reduce_f32_small` below _F32_TRIG_SMALL (so the small-argument variants give the same bits),
    `_reduce_f32_large` of |x| above. A real branch: sin/cos/tan_f32 are scalar calls, which kernels make only for
    blocks holding a large, inf or NaN argument (render_numba.RANGED)."""
    if abs(x) < _F32_TRIG_SMALL:
        return _reduce_f32_small(x)
    q, r = _reduce_f32_large(abs(x))
    return (-q, -r) if x < F32(0.0) else (q, r)


@_jit
def _reduce_f32_large(ax):  # type: ignore[no-untyped-def]
    """(q, r) as `_reduce_f32`, for every finite float32 ax >= 0.

    Payne-Hanek without a table, for every ax >= 2**-20 (below, r = ax): ax = m 2**E with an integer m < 2**24, so
    the bits of 2/pi worth 4/2**E and more only add multiples of 4 quadrants. The 96 bits after them are cut out of
    constant words (two zero words in front for small E) by shifts and selects, not loads, so loops vectorise;
    (m * window) mod 2**96 then holds the quadrant in its top 2 bits and the fraction below.
    """
    ix = np.int64(_bits(ax))
    m = (ix & 0x7FFFFF) | 0x800000
    pos = (ix >> 23) - 24  # bit E-1 of 2/pi (worth 2 after scaling by 2**E), counted from the two zero words
    word = pos >> 6
    a = 0 if word <= 1 else (_G0 if word == 2 else _G1)
    b = _G0 if word <= 1 else (_G1 if word == 2 else _G2)
    c = _G1 if word <= 1 else (_G2 if word == 2 else _G3)
    s = pos & 63
    top = (a << s) | _lshr(_lshr(b, 1), 63 - s)
    mid = (b << s) | _lshr(_lshr(c, 1), 63 - s)
    prod = ((m * _lshr(top, 32)) << 32) + m * (top & 0xFFFFFFFF) + _lshr(m * _lshr(mid, 32), 32)
    half = prod + (1 << 61)
    n = _lshr(half, 62)
    # fraction of a quadrant in [-1/2, 1/2) with 62 fraction bits: (half mod 2**62) - 2**61, in two exact pieces
    frac = (
        _int_to_f64(_lshr(half & 0x3FFFFFFFFFFFFFFF, 32) - (1 << 29)) * 2.0**-30
        + _int_to_f64(half & 0xFFFFFFFF) * 2.0**-62
    )
    tiny = ax < F32(2.0**-20)
    return np.int64(0 if tiny else n), F64(ax) if tiny else frac * _PIO2


_SIN_POLY = (1.0, *_SIN_LOW)  # sin r = r (1 + z S(z)), z = r*r
_COS_POLY = (1.0, -0.5, *_COS_LOW)  # cos r = 1 - z/2 + z*z C(z)


@_jit_inline
def _sin_cos_f32(r):  # type: ignore[no-untyped-def]
    """(sin r, cos r) in float64 for |r| <~ pi/4, each good to ~2**-36 relative: a float32 result rounds once."""
    z = r * r
    return r * _horner(z, _SIN_POLY), _horner(z, _COS_POLY)


@_jit_inline
def _sin_qr(q, r):  # type: ignore[no-untyped-def]
    """sin(q pi/2 + r) as a float32 (cos x is this at q + 1)."""
    s, c = _sin_cos_f32(r)
    y = c if q & 1 else s
    return F32(-y if q & 2 else y)


@_jit_inline
def _tan_qr(q, r):  # type: ignore[no-untyped-def]
    """tan(q pi/2 + r) as a float32 (the quotient in float64)."""
    s, c = _sin_cos_f32(r)
    return F32(-c / s if q & 1 else s / c)


@_jit
def sin_f32(x):  # type: ignore[no-untyped-def]
    """sin x for every float32."""
    if abs(x) < _F32_TRIG_SMALL:
        return sin_f32_small(x)
    q, r = _reduce_f32(x)
    return _sin_qr(q, r) if abs(x) < F32(np.inf) else x - x


@_jit
def cos_f32(x):  # type: ignore[no-untyped-def]
    """cos x for every float32."""
    if abs(x) < _F32_TRIG_SMALL:
        return cos_f32_small(x)
    q, r = _reduce_f32(x)
    return _sin_qr(q + 1, r) if abs(x) < F32(np.inf) else x - x


@_jit
def tan_f32(x):  # type: ignore[no-untyped-def]
    """tan x for every float32 (above 2**20: the quotient in float64)."""
    if abs(x) < _F32_TRIG_SMALL:
        return tan_f32_small(x)
    q, r = _reduce_f32(x)
    return _tan_qr(q, r) if abs(x) < F32(np.inf) else x - x


@_jit_inline
def _reduce_f32_fast(x):  # type: ignore[no-untyped-def]
    """(q, hi, lo) with x = q pi/2 + hi + lo (mod 2 pi), q an int32, float32s |hi| < _TRIG_R_F32 and |lo| <= ulp(hi)
    (about), for |x| < _F32_TRIG_SMALL: Cody-Waite in float32 with fused multiply-adds (8 lanes per AVX2 register).
    x - k c0 is exact (both are multiples of 2**-24: c0 has 24 bits and exponent 0, |x| >= 1 where k != 0 or |x| < 1
    and k = +-1; the difference is below 1); k c1 = b + be exactly (fma); hi + e = (x - k c0) + b exactly (TwoSum);
    lo = e + be - k (c2 + c3) rounds far below ulp(hi), which is >= 2**-51 where k != 0 (|x - k pi/2| >= 2**-27.9)."""
    t = _fma(x, _TWO_OVER_PI_F32, _ROUND_F32)
    k = t - _ROUND_F32
    a = _fma(k, _MINUS_PIO2_F32[0], x)
    b = k * _MINUS_PIO2_F32[1]
    be = _fma(k, _MINUS_PIO2_F32[1], -b)
    hi = a + b
    bv = hi - a
    e = (a - (hi - bv)) + (b - bv)
    lo = _fma(k, _MINUS_PIO2_F32[2], _fma(k, _MINUS_PIO2_F32[3], e + be))
    return _bits(t), hi, lo


_COS_F32_POLY = (F32(-0.5), *_COS_F32)  # cos r = 1 + z (-1/2 + z C(z))


@_jit_inline
def _sin_qr_f32(q, hi, lo):  # type: ignore[no-untyped-def]
    """sin(q pi/2 + hi + lo) for an int32 q and float32s as `_reduce_f32_fast` returns them, in float32 (cos x is this
    at q + 1): sin(hi + lo) = sin hi + lo cos hi and cos(hi + lo) = cos hi - lo sin hi, to first order."""
    z = hi * hi
    s = hi + _fma(hi * z, _horner(z, _SIN_F32), lo)
    s = hi if hi == F32(0.0) else s  # sin(-0) = -0, where the sum above gives +0
    c = F32(1.0) + _fma(z, _horner(z, _COS_F32_POLY), -(hi * lo))
    y = c if _i32("and", q, 1) != 0 else s
    return -y if _i32("and", q, 2) != 0 else y


@_jit_inline
def sin_f32_small(x):  # type: ignore[no-untyped-def]
    """sin x for float32 |x| < _F32_TRIG_SMALL (the bits sin_f32 gives there), in float32 arithmetic: x = k pi + r
    with k = round(x / pi), r by Cody-Waite in three fused multiply-adds (the first exact), then sin x = (-1)**k sin r
    with sin r = r + r**3 S(r*r) over |r| <= _SIN_PI_R_F32. One polynomial and no select between sin and cos sides:
    half the work of a reduction by pi/2 with a remainder hi + lo (which cos and tan keep), for a max error of 2 ulp
    instead of 1 over every float32 below 2**20 (tests/unit/test_transcendental.py)."""
    t = _fma(x, _ONE_OVER_PI_F32, _ROUND_F32)
    k = t - _ROUND_F32
    r = _fma(k, _MINUS_PI_F32[0], x)
    r = _fma(k, _MINUS_PI_F32[1], r)
    r = _fma(k, _MINUS_PI_F32[2], r)
    z = r * r
    s = _fma(r * z, _horner(z, _SIN_PI_F32), r)
    s = r if r == F32(0.0) else s  # sin(-0) = -0, where the sum above gives +0
    return -s if _i32("and", _bits(t), 1) != 0 else s


@_jit_inline
def cos_f32_small(x):  # type: ignore[no-untyped-def]
    """cos x for float32 |x| < _F32_TRIG_SMALL (the bits cos_f32 gives there), in float32 arithmetic."""
    q, hi, lo = _reduce_f32_fast(x)
    return _sin_qr_f32(_i32("add", q, 1), hi, lo)


@_jit_inline
def tan_f32_small(x):  # type: ignore[no-untyped-def]
    """tan x for float32 |x| < _F32_TRIG_SMALL (the bits tan_f32 gives there), in float32 arithmetic.

    With x = q pi/2 + hi + lo: tan(hi + lo) = hi + p + lo sec**2 = d + d_lo (p = hi**3 P(hi*hi); d rounded once, its
    rounding error d_lo exact), the answer for even q; for odd q, -1/(d + d_lo) by a Newton step from y0 = 1/d whose
    residual 1 - y0 d is exact (fused multiply-add), so that the quotient is not rounded twice."""
    q, hi, lo = _reduce_f32_fast(x)
    z = hi * hi
    p = hi * z * _horner(z, _TAN_F32)
    t1 = hi + p
    ts = _fma(lo, _fma(t1, t1, F32(1.0)), p)
    d = hi + ts
    d_lo = (hi - d) + ts
    y0 = F32(1.0) / d
    cot = _fma(y0, _fma(-y0, d, F32(1.0)) - y0 * d_lo, y0)
    t = -cot if _i32("and", q, 1) != 0 else d
    return x if x == F32(0.0) else t


@_jit
def _reduce_f64(x):  # type: ignore[no-untyped-def]
    """(q, r_hi, r_lo) with x = q pi/2 + r_hi + r_lo (mod 2 pi), for |x| < _F64_TRIG_LIMIT: Cody-Waite with four
    exact products k * chunk of pi/2 summed error-free, so even the closest float64s to multiples of pi/2 keep full
    relative accuracy."""
    t = x * _TWO_OVER_PI_F + _ROUND
    k = t - _ROUND
    hi = x - k * _PIO2_F64[0]
    hi, e1 = _two_sum(hi, -k * _PIO2_F64[1])
    hi, e2 = _two_sum(hi, -k * _PIO2_F64[2])
    hi, e3 = _two_sum(hi, -k * _PIO2_F64[3])
    lo = ((e1 + e2) + e3) - k * _PIO2_F64[4]
    r_hi, r_lo = _two_sum(hi, lo)
    return _bits(t), r_hi, r_lo


@_jit
def _sin_dd(h, lo):  # type: ignore[no-untyped-def]
    """sin(h + lo) for |h| <~ pi/4, |lo| <~ ulp(h)."""
    z = h * h
    return h + (h * z * _horner(z, _SIN_F64) + lo * (1.0 - 0.5 * z))


@_jit
def _cos_dd(h, lo):  # type: ignore[no-untyped-def]
    """cos(h + lo) for |h| <~ pi/4: 1 - z/2 rounded once, its error carried into the small terms."""
    z = h * h
    hz = 0.5 * z
    w = 1.0 - hz
    return w + (((1.0 - w) - hz) + (z * z * _horner(z, _COS_F64) - h * lo))


@_jit
def sin_f64(x):  # type: ignore[no-untyped-def]
    """sin x; |x| >= 2**29 goes to libm (a branch that stops loops around it from vectorising)."""
    if abs(x) >= _F64_TRIG_LIMIT:
        return _libm("sin", x)
    return sin_f64_small(x)


@_jit_inline
def sin_f64_small(x):  # type: ignore[no-untyped-def]
    """sin x for |x| < 2**29 (no libm branch, so loops around it vectorise)."""
    q, h, lo = _reduce_f64(x)
    y = _cos_dd(h, lo) if q & 1 else _sin_dd(h, lo)
    y = x if x == 0 else y
    return -y if q & 2 else y


@_jit
def cos_f64(x):  # type: ignore[no-untyped-def]
    """cos x; |x| >= 2**29 goes to libm."""
    if abs(x) >= _F64_TRIG_LIMIT:
        return _libm("cos", x)
    return cos_f64_small(x)


@_jit_inline
def cos_f64_small(x):  # type: ignore[no-untyped-def]
    """cos x for |x| < 2**29 (no libm branch, so loops around it vectorise)."""
    q, h, lo = _reduce_f64(x)
    y = _sin_dd(h, lo) if q & 1 else _cos_dd(h, lo)
    return -y if (q + 1) & 2 else y


@_jit
def tan_f64(x):  # type: ignore[no-untyped-def]
    """tan x; |x| >= 2**29 goes to libm."""
    if abs(x) >= _F64_TRIG_LIMIT:
        return _libm("tan", x)
    return tan_f64_small(x)


@_jit_inline
def tan_f64_small(x):  # type: ignore[no-untyped-def]
    """tan x for |x| < 2**29 (no libm branch, so loops around it vectorise)."""
    q, h, lo = _reduce_f64(x)
    s = _sin_dd(h, lo)
    c = _cos_dd(h, lo)
    return x if x == 0 else (-c / s if q & 1 else s / c)


# ---------------------------------------------------------------------------------------------------------------
# tanh, sigmoid, erf
# ---------------------------------------------------------------------------------------------------------------


@_jit
def _tanh64(x, c):  # type: ignore[no-untyped-def]
    """tanh x = em / (em + 2) with em = expm1(2|x|): no cancellation anywhere; |x| > 20 gives +-1."""
    em = _expm1_64(2.0 * _clamp(abs(x), 0.0, 20.0), c)
    return math.copysign(em / (em + 2.0), x)


@_jit
def tanh_f64(x):  # type: ignore[no-untyped-def]
    """Hyperbolic tangent."""
    return _tanh64(x, _EXPM1_F64)


@_jit
def tanh_f32(x):  # type: ignore[no-untyped-def]
    """Hyperbolic tangent in float32 arithmetic: x + x**3 P(x*x) below 0.5625, where 1 - 2/(e**2|x| + 1) would
    cancel; above, that formula (2/(e**2|x| + 1) <= 1/2 there, so its rounding errors shrink in the difference)."""
    a = abs(x)
    z = a * a
    small = a + a * z * _horner(z, _TANH_F32)
    big = F32(1.0) - F32(2.0) / (exp_f32(F32(2.0) * _clamp(a, F32(0.0), F32(10.0))) + F32(1.0))
    return math.copysign(small if a < F32(0.5625) else big, x)


@_jit
def _sigmoid64(x, c):  # type: ignore[no-untyped-def]
    """1 / (1 + e**-x) as num / (1 + e**-|x|), so e**... never overflows and small results keep their precision."""
    t = _exp_dd(-abs(x), 0.0, c)
    return (1.0 if x >= 0.0 else t) / (1.0 + t)


@_jit
def sigmoid_f64(x):  # type: ignore[no-untyped-def]
    """Logistic sigmoid 1 / (1 + e**-x)."""
    return _sigmoid64(x, _EXP_F64)


@_jit
def sigmoid_f32(x):  # type: ignore[no-untyped-def]
    """Logistic sigmoid 1 / (1 + e**-x) in float32 arithmetic (see _sigmoid64)."""
    t = exp_f32(-abs(x))
    return (F32(1.0) if x >= F32(0.0) else t) / (F32(1.0) + t)


@_jit_inline
def _erf64(x, c_small, c_erfc, c_exp):  # type: ignore[no-untyped-def]
    """erf x: x + x P(x*x) below _ERF_SMALL; above, 1 - e**-(b*b) G(s) with G fitted in s = (b - 3) / (b + 3).
    The rounding error of b*b is carried into the exponential."""
    a = abs(x)
    small = a + a * _horner(a * a, c_small)
    b = _clamp(a, _ERF_SMALL, 6.0)
    g = _horner((b - _ERFC_MOBIUS) / (b + _ERFC_MOBIUS), c_erfc)
    sq, sq_lo = _two_prod(b, b)
    big = 1.0 - _exp_dd(-sq, -sq_lo, c_exp) * g
    return math.copysign(small if a <= _ERF_SMALL else big, x)


@_jit_inline
def erf_f64(x):  # type: ignore[no-untyped-def]
    """Error function."""
    return _erf64(x, _ERF_F64, _ERFC_F64, _EXP_F64)


@_jit
def exp_f32_small(x):  # type: ignore[no-untyped-def]
    """e**x in float32 arithmetic for x in (-87, 88) (or NaN), with the bits exp_f32 gives there: the result is
    normal, so there is no clamping and 2**n is one factor built from the bits of t (exp_f32's two factors multiply
    to the same exact power of two)."""
    t = _fma(x, _LOG2E_F32, _ROUND_F32)
    n = t - _ROUND_F32
    r = _fma(n, -_LN2_LO_F32, _fma(n, -_LN2_HI_F32, x))
    p = F32(1.0) + _fma(r * r, _horner(r, _EXP_F32), r)
    return p * _float(_i32("shl", _i32("add", _bits(t), 127 - _ROUND_BITS_F32), 23))


@_jit
def _exp_neg_f32(bb):  # type: ignore[no-untyped-def]
    """e**-bb for bb = b*b in [0.84, 16] inside erf_f32, where its relative error moves erf by erfc(b) times as
    much: exp_f32_small reduced by one float32 ln 2 instead of two parts, so n ln 2 is off by |n| 1.9e-9 and erf by at
    most erfc(b) (b*b / ln 2) 1.9e-9 < 2**-31. It works with r' = -r (the polynomial's odd coefficients negated), so
    -bb is never formed, and adds r'**2 h(r') to r' in one fused step."""
    t = _fma(bb, -_LOG2E_F32, _ROUND_F32)
    r = _fma(t - _ROUND_F32, _LN2_F32, bb)
    p = F32(1.0) - _fma(-(r * r), _horner(r, _EXP_NEG_F32), r)
    return p * _float(_i32("shl", _i32("add", _bits(t), 127 - _ROUND_BITS_F32), 23))


@_jit_inline
def erf_f32(x):  # type: ignore[no-untyped-def]
    """Error function: x + x P(x*x) up to _ERF_SMALL_F32, 1 - e**-(b*b) G(b - 1.5) above (b = |x| limited to 4, where
    erf rounds to 1), in float32 arithmetic. P and G are fitted relative to erf itself, so G needs no division and
    both stop at the degree that keeps their error under 2**-25 of erf (max 1.22 ulp of the exact value over every
    float32 in [2**-14, 4.5]); the rounding of b*b moves the result by < 0.2 ulp, since erfc is small where b*b is
    large. The last step of each side is one fused multiply-add. NaN takes the P side; below the switch the G side is
    computed from an unclamped b and not used."""
    a = abs(x)
    small = _fma(a, _horner(a * a, _ERF_F32), a)
    b = a if a < F32(4.0) else F32(4.0)
    g = _horner(b - F32(_ERFC_CENTER_F32), _ERFC_F32)
    big = _fma(-_exp_neg_f32(b * b), g, F32(1.0))
    return math.copysign(big if a > F32(_ERF_SMALL_F32) else small, x)


# ---------------------------------------------------------------------------------------------------------------
# pow
# ---------------------------------------------------------------------------------------------------------------


@_jit
def _pow_special(x, y, r, inf, one, odd_limit):  # type: ignore[no-untyped-def]
    """pow's result r = |x|**y (finite, positive x) completed with C99/NumPy's rules for signs, zeros, infinities
    and NaN. odd_limit: beyond it every float is an even integer."""
    zero = one - one
    y_int = np.floor(y) == y  # true for +-inf too
    y_odd = y_int & (abs(y) < odd_limit) & (np.floor(0.5 * y) * 2 != y)
    ax = abs(x)
    r = -r if (x < zero) & y_odd else r
    r = inf - inf if (x < zero) & (x > -inf) & (not y_int) else r
    # x = +-0 and x = +-inf: 0 or inf, with x's sign when y is an odd integer
    at_zero = math.copysign(inf, x) if y_odd else inf
    r = (at_zero if y < zero else (x if y_odd else zero)) if x == zero else r
    at_inf = math.copysign(zero, x) if y_odd else zero
    r = (at_inf if y < zero else (x if y_odd else inf)) if ax == inf else r
    # y = +-inf: decided by |x| against 1
    r = (one if ax == one else (inf if (ax < one) == (y < zero) else zero)) if abs(y) == inf else r
    r = inf - inf if (x != x) | (y != y) else r
    return one if (x == one) | (y == zero) else r


@_jit_inline
def _log_dd(ax):  # type: ignore[no-untyped-def]
    """log(ax) as a double-double good to ~2**-66 relative, for finite ax > 0 (pow's error is |y log x| times this).

    log(1+f) = 2 s + s z (2/3 + z R2(z)) with s = f/(2+f), z = s*s, where s, z and the products carry low parts."""
    e, f = _log_parts(ax)
    den = 2.0 + f
    den_lo = f - (den - 2.0)
    s = f / den
    p, p_lo = _two_prod(s, den)
    s_lo = (((f - p) - p_lo) - s * den_lo) / den
    z, z_lo = _dd_mul(s, s_lo, s, s_lo)
    u, u_lo = _fast_two_sum(_TWO_THIRDS_HI, z * _horner(z, _POW_R2))
    v, v_lo = _dd_mul(z, z_lo, u, u_lo + _TWO_THIRDS_LO)
    w, w_lo = _dd_mul(s, s_lo, v, v_lo)
    lg, lg_lo = _fast_two_sum(2.0 * s, w)
    h, h_lo = _two_sum(e * _LN2_HI, lg)
    return _fast_two_sum(h, h_lo + ((lg_lo + (2.0 * s_lo + w_lo)) + e * _LN2_LO))


@_jit_inline
def pow_f64(x, y):  # type: ignore[no-untyped-def]
    """x**y with C99/NumPy special cases: e**(y log|x|) with log|x| and the product in double-double."""
    lh, ll = _log_dd(abs(x))
    ph, pl = _two_prod(y, lh)
    pl = pl + y * ll
    pl = pl if abs(pl) < 1.0 else 0.0  # NaN when splitting a huge y overflowed; then only ph matters
    return _pow_special(x, y, _exp_dd(ph, pl, _EXP_F64), np.inf, 1.0, 9007199254740992.0)


@_jit_inline
def pow_f32(x, y):  # type: ignore[no-untyped-def]
    """x**y with C99/NumPy special cases (computed in float64: y log|x| needs ~31 good bits)."""
    r = _exp_dd(F64(y) * _log64(abs(F64(x)), _LOG_LOW), 0.0, _EXP_LOW)
    return _pow_special(x, y, F32(r), F32(np.inf), F32(1.0), F32(16777216.0))


# ---------------------------------------------------------------------------------------------------------------
# Coefficient derivation (offline; needs only NumPy's long double)
# ---------------------------------------------------------------------------------------------------------------
_LD = np.longdouble


def _solve_ld(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Gaussian elimination with partial pivoting in long double (numpy.linalg stops at float64)."""
    a, b = a.copy(), b.copy()
    n = len(b)
    for col in range(n):
        piv = col + int(np.argmax(np.abs(a[col:, col])))
        a[[col, piv]], b[[col, piv]] = a[[piv, col]], b[[piv, col]]
        factor = a[col + 1 :, col] / a[col, col]
        a[col + 1 :] -= factor[:, None] * a[col]
        b[col + 1 :] -= factor * b[col]
    out = np.zeros(n, dtype=_LD)
    for row in range(n - 1, -1, -1):
        out[row] = (b[row] - a[row, row + 1 :] @ out[row + 1 :]) / a[row, row]
    return out


def fit_minimax(
    target: Callable[[np.ndarray], np.ndarray],
    lo: float,
    hi: float,
    degree: int,
    weight: Callable[[np.ndarray], np.ndarray],
    grid: int = 6000,
) -> tuple[np.ndarray, float]:
    """Remez exchange: the polynomial c[0] + c[1] t + ... + c[degree] t**degree minimising
    max |weight(t) (target(t) - p(t))| over [lo, hi], in long double. Returns (coefficients, that maximum)."""
    scale = _LD(max(abs(lo), abs(hi)))
    n = degree + 1
    mid, half = (_LD(lo) + _LD(hi)) / 2, (_LD(hi) - _LD(lo)) / 2
    ref = mid - half * np.cos(np.pi * np.arange(n + 1, dtype=_LD) / n)
    dense = mid - half * np.cos(np.linspace(0, np.pi, grid, dtype=_LD))
    t_dense, w_dense = target(dense), weight(dense)
    best: tuple[np.ndarray, float] = (np.zeros(n, dtype=_LD), math.inf)
    for _ in range(40):
        system = np.empty((n + 1, n + 1), dtype=_LD)
        system[:, :n] = (ref / scale)[:, None] ** np.arange(n)
        system[:, n] = (-1.0) ** np.arange(n + 1) / weight(ref)
        coef = _solve_ld(system, target(ref))[:n]
        err = w_dense * (t_dense - np.polyval(coef[::-1], dense / scale))
        worst = float(np.max(np.abs(err)))
        if worst < best[1]:
            best = (coef / scale ** np.arange(n), worst)
        # new reference: the largest |error| of each run of equal sign, trimmed to n + 1 alternating points
        sign = np.where(err >= 0, 1, -1)
        edges = np.concatenate(([0], np.flatnonzero(np.diff(sign)) + 1, [grid]))
        peaks = [int(s + np.argmax(np.abs(err[s:e]))) for s, e in zip(edges[:-1], edges[1:])]
        while len(peaks) > n + 1:
            peaks.pop(0 if abs(err[peaks[0]]) < abs(err[peaks[-1]]) else -1)
        if len(peaks) < n + 1 or worst - min(abs(err[peaks])) < 1e-4 * worst:
            break
        ref = dense[peaks]
    return best


def _series(t: np.ndarray, coef: list) -> np.ndarray:
    out = np.zeros_like(t)
    for c in coef[::-1]:
        out = out * t + c
    return out


def _erf_ld(x: np.ndarray) -> np.ndarray:
    """erf in long double: 2/sqrt(pi) e**-x^2 sum 2^n x^(2n+1) / (1 3 5 ... (2n+1)), a series of positive terms."""
    term, total = x.copy(), x.copy()
    for n in range(1, 400):
        term = term * 2 * x * x / (2 * n + 1)
        total = total + term
    return 2 / np.sqrt(_LD(_PI) / _LD(2) ** _P) * np.exp(-x * x) * total


def _erfc_scaled_ld(x: np.ndarray) -> np.ndarray:
    """erfc(x) e**(x*x) in long double: 1 - erf below 1.25, Laplace's continued fraction above."""
    small = np.minimum(x, _LD(1.25))
    big = np.maximum(x, _LD(1.25))
    tail = np.zeros_like(big)
    for k in range(3000, 0, -1):
        tail = (_LD(k) / 2) / (big + tail)
    sqrt_pi = np.sqrt(_LD(_PI) / _LD(2) ** _P)
    return np.where(x < 1.25, (1 - _erf_ld(small)) * np.exp(small * small), 1 / sqrt_pi / (big + tail))


def _specs() -> dict[str, tuple]:
    """name -> (dtype, target, lo, hi, degree, weight): what each coefficient table approximates. The weights make
    the error relative to the final function value, the quantity the accuracy table in the docstring measures."""
    fact = [_LD(math.factorial(k)) for k in range(90)]
    ln2 = _LD(_LN2) / _LD(2) ** _P
    pi = _LD(_PI) / _LD(2) ** _P
    exp_p = lambda r: _series(r, [1 / fact[k] for k in range(2, 40)])  # (e**r - 1 - r) / r**2
    exp_w = lambda r: r * r / np.exp(r)
    expm1_w = lambda r: r * r / np.abs(r + r * r * exp_p(r))
    exp2_p = lambda r: _series(r, [ln2**k / fact[k] for k in range(1, 40)])  # (2**r - 1) / r
    exp2_w = lambda r: np.abs(r) / np.exp2(r)
    h = ln2 / 2 * _LD(1.0001)
    f_lo, f_hi = np.sqrt(_LD(0.5)) - 1, np.sqrt(_LD(2)) - 1
    log_q = lambda f: _series(f, [_LD((-1) ** (k + 1)) / k for k in range(2, 100)])  # (log1p(f) - f) / f**2
    log_w = lambda f: f * f / np.abs(f + f * f * log_q(f))
    log2_q = lambda f: (1 + f * log_q(f)) / ln2 - 1  # log2(1 + f) / f - 1
    log2_w = lambda f: np.abs(f / ((f + f * f * log_q(f)) / ln2))
    z_max = ((np.sqrt(_LD(2)) - 1) / (np.sqrt(_LD(2)) + 1)) ** 2 * _LD(1.0001)
    log_r = lambda z: _series(z, [_LD(2) / (2 * k + 3) for k in range(60)])  # log1p(f) = 2s + s z R(z)
    log_rw = lambda z: z / (2 + z * log_r(z))
    pow_r2 = lambda z: _series(z, [_LD(2) / (2 * k + 5) for k in range(60)])  # R(z) = 2/3 + z R2(z)
    trig_z = (pi / 4) ** 2 * _LD(1.002)
    trig_z32 = _LD(_TRIG_R_F32) ** 2
    sin_pi_z = _LD(_SIN_PI_R_F32) ** 2
    sin_s = lambda z: _series(z, [_LD((-1) ** (k + 1)) / fact[2 * k + 3] for k in range(30)])
    cos_c = lambda z: _series(z, [_LD((-1) ** k) / fact[2 * k + 4] for k in range(30)])
    sin_w = lambda z: z / np.abs(1 + z * sin_s(z))
    cos_w = lambda z: z * z / np.abs(1 - z / 2 + z * z * cos_c(z))
    tanh_z = _LD(0.5625) ** 2
    tan_p = lambda z: (np.tan(np.sqrt(z)) - np.sqrt(z)) / (z * np.sqrt(z))  # tan r = r + r**3 P(r*r)
    tanh_p = lambda z: (np.tanh(np.sqrt(z)) - np.sqrt(z)) / (z * np.sqrt(z))  # tanh x = x + x**3 P(x*x)
    erf_p = lambda z: _erf_ld(np.sqrt(z)) / np.sqrt(z) - 1
    erf_w = lambda z: np.sqrt(z) / _erf_ld(np.sqrt(z))
    k = _LD(_ERFC_MOBIUS)
    from_s = lambda s: k * (1 + s) / (1 - s)
    erfc_g = lambda s: _erfc_scaled_ld(from_s(s))
    s_lo, s_hi = (_LD(_ERF_SMALL) - k) / (_LD(_ERF_SMALL) + k), (_LD(6) - k) / (_LD(6) + k)
    c32, lo32 = _LD(_ERFC_CENTER_F32), _LD(_ERF_SMALL_F32)
    tiny = _LD(1e-12)
    return {
        "_EXP_F32": ("f32", exp_p, -h, h, 4, exp_w),
        "_EXP_F64": ("f64", exp_p, -h, h, 9, exp_w),
        "_EXP_LOW": ("f64", exp_p, -h, h, 5, exp_w),
        "_EXP2_F32": ("f32", exp2_p, _LD(-0.5001), _LD(0.5001), 5, exp2_w),
        "_EXP2_F64": ("f64", exp2_p, _LD(-0.5001), _LD(0.5001), 10, exp2_w),
        "_EXPM1_F64": ("f64", exp_p, -h, h, 9, expm1_w),
        "_EXPM1_LOW": ("f64", exp_p, -h, h, 5, expm1_w),
        "_LOG_F32": ("f32", log_q, f_lo, f_hi, 8, log_w),
        "_LOG2_F32": ("f32", log2_q, f_lo, f_hi, 9, log2_w),
        "_LOG_F64": ("f64", log_r, z_max * tiny, z_max, 6, log_rw),
        "_LOG_LOW": ("f64", log_r, z_max * tiny, z_max, 3, log_rw),
        "_POW_R2": ("f64", pow_r2, z_max * tiny, z_max, 7, lambda z: z * z),
        "_SIN_F64": ("f64", sin_s, trig_z * tiny, trig_z, 5, sin_w),
        "_COS_F64": ("f64", cos_c, trig_z * tiny, trig_z, 5, cos_w),
        "_SIN_LOW": ("f64", sin_s, trig_z * tiny, trig_z, 3, sin_w),
        "_COS_LOW": ("f64", cos_c, trig_z * tiny, trig_z, 3, cos_w),
        "_SIN_F32": ("f32", sin_s, trig_z32 * tiny, trig_z32, 2, sin_w),
        "_SIN_PI_F32": ("f32", sin_s, sin_pi_z * tiny, sin_pi_z, 3, sin_w),
        "_COS_F32": ("f32", cos_c, trig_z32 * tiny, trig_z32, 2, cos_w),
        "_TAN_F32": ("f32", tan_p, trig_z32 * tiny, trig_z32, 6, lambda z: z * np.sqrt(z) / np.tan(np.sqrt(z))),
        "_TANH_F32": ("f32", tanh_p, tanh_z * _LD(1e-6), tanh_z, 4, lambda z: z * np.sqrt(z) / np.tanh(np.sqrt(z))),
        "_ERF_F64": ("f64", erf_p, tiny, _LD(_ERF_SMALL) ** 2, 10, erf_w),
        "_ERF_F32": ("f32", erf_p, tiny, _LD(_ERF_SMALL_F32) ** 2, 5, erf_w),
        "_ERFC_F64": ("f64", erfc_g, s_lo, s_hi, 16, lambda s: 1 / erfc_g(s)),
        "_ERFC_F32": ("f32", lambda u: _erfc_scaled_ld(u + c32), lo32 - c32, _LD(4) - c32, 7,
                      lambda u: np.exp(-((u + c32) ** 2)) / _erf_ld(u + c32)),
    }


def _print_tables() -> None:
    """Fit every table and print it as Python source (the block between the TABLES markers above)."""
    print("# fmt: off")
    with np.errstate(all="ignore"):
        for name, (dtype, target, lo, hi, degree, weight) in _specs().items():
            coef, err = fit_minimax(target, lo, hi, degree, weight)
            values = [str(F32(c)) if dtype == "f32" else repr(float(c)) for c in coef]
            head = f"{name} = {'_f32_tuple(' if dtype == 'f32' else '('}"
            lines = textwrap.wrap(", ".join(values) + ")", 119 - len(head), break_on_hyphens=False)
            print(f"# degree {degree}, max weighted error 2**{math.log2(err):.1f}")
            print(head + f"\n{' ' * len(head)}".join(lines))
    print("# fmt: on")


if __name__ == "__main__":
    _print_tables()
