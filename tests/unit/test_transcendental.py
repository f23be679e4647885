"""lazyarr.kernels.transcendental against NumPy: the max ulp error of every function over log-uniform inputs, focus
ranges and special values (printed; run with -s to see the table), and packed SIMD in loops that call them."""

from __future__ import annotations

import math
import re
import zlib

import numba
import numpy as np
import pytest

from lazyarr.kernels import transcendental as T

N = 2**16
ULP_BOUND = {"f32": 2, "f64": 4}
DTYPE = {"f32": np.float32, "f64": np.float64}
UNARY = ["exp", "exp2", "expm1", "log", "log2", "log1p", "sin", "cos", "tan", "tanh", "sigmoid", "erf"]


def _erf(x: np.ndarray) -> np.ndarray:
    return np.frompyfunc(math.erf, 1, 1)(x).astype(np.float64)


def _sigmoid_ld(x: np.ndarray) -> np.ndarray:
    xl = x.astype(np.longdouble)
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-xl))).astype(np.float64)


REFERENCE = {
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log1p": np.log1p,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "tanh": np.tanh,
    "sigmoid": _sigmoid_ld,
    "erf": _erf,
    "pow": np.power,
}

# ranges where the function is not saturated, sampled uniformly on top of the log-uniform sample: (f32, f64)
FOCUS = {
    "exp": [(-110, 95), (-750, 715)],
    "exp2": [(-155, 132), (-1080, 1030)],
    "expm1": [(-20, 90), (-40, 712)],
    "log": [(0, 3), (0, 3)],
    "log2": [(0, 3), (0, 3)],
    "log1p": [(-1, 2), (-1, 2)],
    "sin": [(-1e8, 1e8), (-1e4, 1e4)],
    "cos": [(-1e8, 1e8), (-1e4, 1e4)],
    "tan": [(-1e8, 1e8), (-1e4, 1e4)],
    "tanh": [(-10, 10), (-20, 20)],
    "sigmoid": [(-110, 110), (-750, 750)],
    "erf": [(-6, 6), (-6, 6)],
}


def _log_uniform(dtype: type, n: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform random bit patterns of finite floats: every exponent (subnormals too) and sign equally likely."""
    itype = np.uint32 if dtype == np.float32 else np.uint64
    bits = rng.integers(0, np.iinfo(itype).max, size=2 * n, dtype=itype, endpoint=True)
    x = bits.view(dtype)
    return x[np.isfinite(x)][:n]


def _specials(dtype: type) -> np.ndarray:
    fi = np.finfo(dtype)
    tiny, norm, big = fi.smallest_subnormal, fi.smallest_normal, fi.max
    v = np.array([0.0, np.inf, tiny, norm - tiny, norm, big, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0, 100.0], dtype=dtype)
    v = np.concatenate([v, -v, np.array([np.nan], dtype=dtype)])
    # thresholds (exp-like overflow and underflow, erf/tanh saturation, branch points) and their neighbours
    lims = [np.log(big), np.log(tiny), np.log(norm), np.log2(big), np.log2(tiny), 0.5 * np.log(2)]
    lims = np.array(lims + [20.0, 9.0, 5.92, 3.92, 0.84375, 0.5625, 1e-8], dtype=dtype)
    lims = np.concatenate([lims, -lims])
    near = [np.nextafter(lims, dtype(s)) for s in (np.inf, -np.inf)]
    # the floats nearest to multiples of pi/2, and their neighbours
    k = np.unique(np.geomspace(1, 2e6, 400).astype(np.int64))
    pio2 = (k * (np.pi / 2)).astype(dtype)
    pio2 = np.concatenate([pio2, np.nextafter(pio2, dtype(np.inf)), np.nextafter(pio2, dtype(0))])
    eps = np.array([2.0**-e for e in range(1, 60)], dtype=dtype)
    return np.concatenate([v, lims, *near, pio2, -pio2, dtype(1) + eps, dtype(1) - eps])


def _unary_inputs(op: str, t: str) -> np.ndarray:
    dtype = DTYPE[t]
    rng = np.random.default_rng(zlib.crc32(f"{op}_{t}".encode()))
    lo, hi = FOCUS[op][0 if t == "f32" else 1]
    focus = rng.uniform(lo, hi, N // 4).astype(dtype)
    small = (rng.uniform(-1, 1, N // 8) * 2.0 ** rng.integers(-40, 0, N // 8)).astype(dtype)
    return np.concatenate([_log_uniform(dtype, N, rng), focus, small, _specials(dtype)])


def _pow_inputs(t: str) -> tuple[np.ndarray, np.ndarray]:
    dtype = DTYPE[t]
    rng = np.random.default_rng(7 if t == "f32" else 8)
    span = 160.0 if t == "f32" else 1100.0
    x = _log_uniform(dtype, N, rng)
    with np.errstate(divide="ignore"):
        # y chosen so that |x|**y lands anywhere from underflow to overflow
        y = (rng.uniform(-span, span, len(x)) / np.log2(np.abs(x.astype(np.float64)))).astype(dtype)
    xi = (rng.uniform(-3, 3, N // 4) * 2.0 ** rng.integers(-4, 5, N // 4)).astype(dtype)  # negative x, integer y
    yi = rng.integers(-60, 61, N // 4).astype(dtype) / np.where(rng.random(N // 4) < 0.3, 2, 1).astype(dtype)
    xn = (1 + rng.uniform(-1, 1, N // 8) * 2.0 ** rng.integers(-50, -1, N // 8)).astype(dtype)  # x near 1, big y
    yn = (rng.uniform(-1, 1, N // 8) * 2.0 ** rng.integers(0, 50, N // 8)).astype(dtype)
    fi = np.finfo(dtype)
    sx = [0.0, 1.0, 0.5, 2.0, 3.0, np.inf, fi.smallest_subnormal, fi.max]
    sx = np.array(sx + [-v for v in sx] + [np.nan], dtype=dtype)
    sy = [0.0, 1.0, 2.0, 3.0, 0.5, 1.5, np.inf, 1e-30, fi.max, 2.0**24 + 1, 2.0**53 + 2, 1.0 / 3]
    sy = np.array(sy + [-v for v in sy] + [np.nan], dtype=dtype)
    gx, gy = (g.ravel() for g in np.meshgrid(sx, sy))
    return np.concatenate([x, xi, xn, gx]), np.concatenate([y, yi, yn, gy])


def _ordered(a: np.ndarray) -> np.ndarray:
    """Bit patterns as integers that are ordered like the floats, so that b - a counts the floats in between."""
    itype = np.int32 if a.dtype == np.float32 else np.int64
    i = a.view(itype).astype(np.int64)
    return np.where(i < 0, np.iinfo(itype).min - i, i)


def ulp_error(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in units in the last place; NaN must meet NaN and inf must meet the same inf (else 2**62)."""
    diff = np.abs(_ordered(got) - _ordered(want))
    nan_got, nan_want = np.isnan(got), np.isnan(want)
    diff = np.where(nan_got | nan_want, np.where(nan_got & nan_want, 0, 2**62), diff)
    inf_mismatch = (np.isinf(got) | np.isinf(want)) & (got != want) & ~(nan_got | nan_want)
    wrong_zero_sign = (want == 0) & (got == 0) & (np.signbit(got) != np.signbit(want))
    return np.where(inf_mismatch | wrong_zero_sign, 2**62, diff)


def _apply(f: numba.core.registry.CPUDispatcher, *args: np.ndarray) -> np.ndarray:
    return np.array([f(*a) for a in zip(*args)], dtype=args[0].dtype)


def _report(name: str, err: np.ndarray, *args: np.ndarray) -> int:
    worst = int(np.argmax(err))
    where = ", ".join(repr(a[worst].item()) for a in args)
    print(f"\n{name:12s} max ulp {int(err[worst]):>3d}  mean {err[err < 2**40].mean():.3f}  (at {where})", end="")
    return int(err[worst])


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("op", UNARY)
def test_unary_accuracy(op: str, t: str) -> None:
    x = _unary_inputs(op, t)
    with np.errstate(all="ignore"):
        want = REFERENCE[op](x.astype(np.float64)).astype(DTYPE[t])
    got = _apply(getattr(T, f"{op}_{t}"), x)
    assert _report(f"{op}_{t}", ulp_error(got, want), x) <= ULP_BOUND[t]


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("op", ["sin", "cos", "tan"])
def test_small_argument_trig_gives_the_full_functions_bits(op: str, t: str) -> None:
    # kernels switch between <op>_<t>_small and <op>_<t> per block of elements: below the limit they must agree
    limit = 2.0**20 if t == "f32" else 2.0**29
    x = _unary_inputs(op, t)
    x = x[np.isfinite(x) & (np.abs(x) < limit)]
    np.testing.assert_array_equal(_apply(getattr(T, f"{op}_{t}_small"), x), _apply(getattr(T, f"{op}_{t}"), x))


def test_small_exp_gives_the_full_functions_bits() -> None:
    """exp_f32_small (kernels use it for x in (-87, 88), render_numba.RANGED) gives exp_f32's bits there: every 97th
    float32 of each sign, the floats at and next to the range's ends, and the ends of the normal results (every
    float32 of the range was checked once: 2,237,530,112 floats, no difference)."""
    lo, hi = np.float32(-87.0), np.float32(88.0)
    pos = np.arange(0, hi.view(np.int32), 97, dtype=np.int32).view(np.float32)
    neg = -np.arange(0, (-lo).view(np.int32), 97, dtype=np.int32).view(np.float32)
    ends = [np.nextafter(lo, np.float32(0)), np.nextafter(hi, np.float32(0)), -86.5, 87.5, -87.0 + 2**-16, 0.0, -0.0]
    x = np.concatenate([pos, neg, np.array(ends, np.float32)])
    x = x[(x > lo) & (x < hi)]
    fast, full = np.empty_like(x), np.empty_like(x)
    _loop(T.exp_f32_small)(x, fast)
    _loop(T.exp_f32)(x, full)
    np.testing.assert_array_equal(fast.view(np.int32), full.view(np.int32))


def test_small_log_gives_the_full_functions_bits() -> None:
    """log_f32_small (kernels use it for normal finite x > 0, render_numba.RANGED) gives log_f32's bits there: every
    61st normal float32 and the ends of the normal range."""
    fi = np.finfo(np.float32)
    x = np.arange(fi.smallest_normal.view(np.int32), np.float32(np.inf).view(np.int32), 61,
                  dtype=np.int32).view(np.float32)
    x = np.concatenate([x, np.array([fi.smallest_normal, fi.max, 1.0, np.nextafter(np.float32(1), np.float32(0))],
                                    np.float32)])
    fast, full = np.empty_like(x), np.empty_like(x)
    _loop(T.log_f32_small)(x, fast)
    _loop(T.log_f32)(x, full)
    np.testing.assert_array_equal(fast.view(np.int32), full.view(np.int32))


def _near_multiples_of_half_pi(limit: float) -> np.ndarray:
    """The float32s nearest k pi/2 for 0 < k pi/2 < limit, and their two neighbours."""
    m = np.arange(1, int(limit / (np.pi / 2)) + 1) * (np.pi / 2)
    m = m.astype(np.float32)
    return np.concatenate([m, np.nextafter(m, np.float32(0)), np.nextafter(m, np.float32(np.inf))])


# max ulp of the float32 trig functions below 2**20, where they compute in float32: sin reduces by pi with a single
# float32 remainder (2 ulp, near |r| = 1.4 where the polynomial's rounding adds up; measured over every float32 below
# 2**20 of both signs), cos and tan by pi/2 with a remainder hi + lo (1 ulp)
TRIG_F32_ULP = {"sin": 2, "cos": 1, "tan": 1}


@pytest.mark.parametrize("op", ["sin", "cos", "tan"])
def test_float32_trig_sweep(op: str) -> None:
    """sin/cos/tan_f32 compute in float32 below 2**20: every other float32 in [1, 2), every 1024th bit pattern below
    2**20 and the float32s next to multiples of pi/2, both signs, plus zeros, subnormals and the limit. At most
    TRIG_F32_ULP, and a vectorised loop over <op>_f32_small gives the full function's bits (kernels switch per block of
    elements)."""
    fi = np.finfo(np.float32)
    ones = np.arange(0x3F800000, 0x40000000, 2, dtype=np.int32).view(np.float32)
    spread = np.arange(0, np.float32(2.0**20).view(np.int32), 1024, dtype=np.int32).view(np.float32)
    below_limit = np.nextafter(np.float32(2.0**20), np.float32(0))
    edges = [0.0, fi.smallest_subnormal, fi.smallest_normal, 2.0**-12, below_limit, 2.0**20 - 16, np.pi / 4, 0.8]
    x = np.concatenate([ones, spread, _near_multiples_of_half_pi(2.0**20), np.array(edges, np.float32)])
    x = np.concatenate([x, -x])
    fast, full = np.empty_like(x), np.empty_like(x)
    _loop(getattr(T, f"{op}_f32_small"))(x, fast)
    _loop(getattr(T, f"{op}_f32"))(x, full)
    np.testing.assert_array_equal(fast.view(np.int32), full.view(np.int32))
    want = REFERENCE[op](x.astype(np.float64)).astype(np.float32)
    assert _report(f"{op}_f32 sweep", ulp_error(full, want), x) <= TRIG_F32_ULP[op]


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_pow_accuracy(t: str) -> None:
    x, y = _pow_inputs(t)
    with np.errstate(all="ignore"):
        want = np.power(x.astype(np.float64), y.astype(np.float64)).astype(DTYPE[t])
    got = _apply(getattr(T, f"pow_{t}"), x, y)
    assert _report(f"pow_{t}", ulp_error(got, want), x, y) <= ULP_BOUND[t]


inf, nan = math.inf, math.nan
# (function, arguments, NumPy's answer): the cases the ulp sweeps cover, spelled out
# fmt: off
SPECIAL_CASES = [
    ("exp", (1000.0,), inf), ("exp", (-1000.0,), 0.0), ("exp", (nan,), nan), ("exp", (-0.0,), 1.0),
    ("exp2", (-inf,), 0.0), ("expm1", (-0.0,), -0.0), ("expm1", (-inf,), -1.0), ("expm1", (inf,), inf),
    ("log", (0.0,), -inf), ("log", (-0.0,), -inf), ("log", (-1.0,), nan), ("log", (inf,), inf), ("log", (1.0,), 0.0),
    ("log2", (-inf,), nan), ("log1p", (-1.0,), -inf), ("log1p", (-2.0,), nan), ("log1p", (-0.0,), -0.0),
    ("sin", (-0.0,), -0.0), ("sin", (inf,), nan), ("cos", (-inf,), nan), ("cos", (0.0,), 1.0), ("tan", (-0.0,), -0.0),
    ("tanh", (-0.0,), -0.0), ("tanh", (inf,), 1.0), ("tanh", (-inf,), -1.0), ("sigmoid", (-inf,), 0.0),
    ("sigmoid", (inf,), 1.0), ("erf", (-0.0,), -0.0), ("erf", (-inf,), -1.0), ("erf", (nan,), nan),
    ("pow", (2.0, 0.0), 1.0), ("pow", (nan, 0.0), 1.0), ("pow", (1.0, nan), 1.0), ("pow", (-8.0, 1 / 3), nan),
    ("pow", (-2.0, 3.0), -8.0), ("pow", (-2.0, 2.0), 4.0), ("pow", (0.0, -1.0), inf), ("pow", (-0.0, -1.0), -inf),
    ("pow", (-0.0, -2.0), inf), ("pow", (-0.0, 3.0), -0.0), ("pow", (-0.0, 0.5), 0.0), ("pow", (-1.0, inf), 1.0),
    ("pow", (0.5, -inf), inf), ("pow", (0.5, inf), 0.0), ("pow", (-inf, 3.0), -inf), ("pow", (-inf, -3.0), -0.0),
    ("pow", (-inf, 0.5), inf), ("pow", (2.0, nan), nan), ("pow", (10.0, 400.0), inf), ("pow", (10.0, -400.0), 0.0),
]
# fmt: on


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_special_values(t: str) -> None:
    for op, args, want in SPECIAL_CASES:
        got = getattr(T, f"{op}_{t}")(*(DTYPE[t](a) for a in args))
        assert ulp_error(np.array([got], DTYPE[t]), np.array([want], DTYPE[t]))[0] == 0, (op, args, got, want)


def test_ulp_error_counts_floats_between() -> None:
    a = np.array([1.0, -0.0, 0.0, np.nan, np.inf, 1.0, -1.0], dtype=np.float32)
    b = np.array([np.nextafter(np.float32(1), np.float32(2)), 0.0, 0.0, np.nan, np.inf, np.nan, 1.0], np.float32)
    assert ulp_error(a, b).tolist() == [1, 2**62, 0, 0, 0, 2**62, 2 * 0x3F800000]


# --- vectorisation: a loop calling the function must compile to packed AVX (ymm) or AVX-512 (zmm) arithmetic ---
_PACKED = re.compile(r"\bv(?:add|sub|mul|div|fmadd\w*|fnmadd\w*|max|min|blendv|round)p[sd]\s[^\n]*%[yz]mm")


def _loop(f: numba.core.registry.CPUDispatcher) -> numba.core.registry.CPUDispatcher:
    """A kernel like the renderer's: a loop calling f by name (so Numba inlines it as it would in generated code)."""

    @numba.njit(error_model="numpy")
    def loop(x, out):  # type: ignore[no-untyped-def]
        for i in range(x.size):
            out[i] = f(x[i])

    return loop


@pytest.mark.parametrize("name", ["exp_f32", "exp_f32_small", "log_f32", "exp_f64", "sin_f32_small", "sin_f64_small"])
def test_loop_vectorises(name: str) -> None:
    f = getattr(T, name)
    x = np.linspace(0.1, 10, 64).astype(DTYPE["f64" if "f64" in name else "f32"])
    out = np.empty_like(x)
    loop = _loop(f)
    loop(x, out)
    np.testing.assert_array_equal(out, _apply(f, x))
    asm = loop.inspect_asm(loop.signatures[0])
    packed = _PACKED.findall(asm)
    print(f"\n{name}: {len(packed)} packed vector instructions in the loop", end="")
    assert len(packed) >= 10
    # int32 steps stay int32 (Numba's int64 widening would split 8 lanes in 2)
    if name in ("exp_f32", "exp_f32_small", "log_f32"):
        assert "vpmovsxdq" not in asm


@pytest.mark.parametrize("name", ["_EXP_F32", "_SIN_F64", "_LOG_F64", "_SIN_PI_F32"])
def test_tables_come_from_fit_minimax(name: str) -> None:
    """The coefficient tables are the Remez fits of _specs() (python -m lazyarr.kernels.transcendental reprints all)."""
    dtype, target, lo, hi, degree, weight = T._specs()[name]
    with np.errstate(all="ignore"):
        coef, _ = T.fit_minimax(target, lo, hi, degree, weight)
    table = np.array(getattr(T, name), dtype=np.float64)
    np.testing.assert_allclose(coef.astype(np.float64), table, rtol=1e-7 if dtype == "f32" else 1e-12)
