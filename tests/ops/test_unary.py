"""Unary elementwise ops against NumPy over dtypes, shapes (incl. 0-d and empty) and non-contiguous layouts.

Float ops on integer or bool tensors compute in float32 (lazyarr's documented rule; NumPy would pick float64 or
float16), so their reference is NumPy's float64 result cast to float32.
"""

import math

import numpy as np
import pytest

from lazyarr import Tensor
from tests.helpers import DTYPES, LAYOUTS, SHAPES, assert_close, layout_inputs, sample

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


# name -> (NumPy reference on float64 values, kind); kind "float": float op (ints/bool give float32),
# "keep": result keeps the input dtype, "pred": bool result
FLOAT_OPS = {
    "exp": np.exp,
    "exp2": np.exp2,
    "log": np.log,
    "log2": np.log2,
    "log1p": np.log1p,
    "expm1": np.expm1,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "reciprocal": lambda x: 1 / x,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "tanh": np.tanh,
    "sigmoid": _sigmoid,
    "gelu": lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2))),
    "silu": lambda x: x * _sigmoid(x),
    "erf": _erf,
}
# ops whose NumPy ufunc keeps the dtype (ints and floats); the NumPy function is applied to the input as is
KEEP_OPS = {
    "neg": np.negative,
    "abs": np.abs,
    "sign": np.sign,
    "square": np.square,
    "relu": lambda x: np.maximum(x, 0),
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "round": np.round,
}
PRED_OPS = {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite}
ALL_OPS = {**FLOAT_OPS, **KEEP_OPS, **PRED_OPS}
# values whose float32 results are far from the overflow edges, so float32-vs-float64 references agree
SMALL = {"low": -4, "high": 4}
# ops checked on every shape and non-contiguous layout for every dtype (indexing is the same code for every op, so
# the other ops run on 1-d loops only, and on 0-d tensors for float32: each distinct kernel costs a compile)
LAYOUT_OPS = {"float32": ("neg", "exp"), "bool": ("abs",)}
# float ops on integer and bool tensors compute as cast-to-float32 then the float32 op (both tested elsewhere): their
# values are checked for these ops (all ops for int32), their dtypes for all
CAST_FLOAT_OPS = ("exp", "sqrt", "sigmoid")
# composites of the primitives above: values checked in float32 and float16, dtypes for all
COMPOSITES = ("rsqrt", "sigmoid", "gelu", "silu")


def _reference(name: str, a: np.ndarray) -> tuple[np.ndarray, str]:
    """(NumPy's values, lazyarr's dtype) of op `name` on `a`."""
    dt = a.dtype.name
    if name in FLOAT_OPS:
        out_dt = dt if a.dtype.kind == "f" else "float32"
        calc = a.astype(np.float64) if a.dtype.kind != "f" else a
        with np.errstate(all="ignore"):
            if a.dtype.kind == "f" and name in ("sigmoid", "gelu", "silu", "erf", "rsqrt"):
                return FLOAT_OPS[name](a.astype(np.float64)), out_dt  # composites: compare with the exact value
            return FLOAT_OPS[name](calc), out_dt
    if name == "relu" and dt == "bool":
        return a, "bool"
    if name == "square" and dt == "bool":
        return np.square(a), "int8"
    return ALL_OPS[name](a), (np.asarray(ALL_OPS[name](a)).dtype.name if dt != "bool" or name in PRED_OPS else dt)


def _inputs(dtype: str, name: str):
    kw = SMALL if name in FLOAT_OPS else {}
    if name in LAYOUT_OPS.get(dtype, ("neg",)):
        yield from layout_inputs(dtype, **kw)
        return
    for shape in [s for s in SHAPES if np.prod(s) != 1]:  # one kernel: contiguous dims merge into one loop
        a = sample(dtype, shape, **kw)
        yield f"shape{shape}", a, Tensor(a)


@pytest.mark.parametrize("dtype", [*DTYPES, "float16"])
@pytest.mark.parametrize("name", list(ALL_OPS))
def test_unary(name: str, dtype: str) -> None:
    if dtype == "bool" and name in ("neg", "sign"):
        with pytest.raises(TypeError):
            getattr(Tensor(np.array([True, False])), name)()
        return
    tol = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-13}
    if (dtype in ("int64", "bool") and name in FLOAT_OPS and name not in CAST_FLOAT_OPS) or (
        dtype == "float64" and name in COMPOSITES
    ):
        assert getattr(Tensor(sample(dtype, (3,))), name)().dtype.name == (
            "float64" if dtype == "float64" else "float32"
        )
        return
    for where, a, t in _inputs(dtype, name):
        ref, out_dt = _reference(name, a)
        out = getattr(t, name)()
        assert out.dtype.name == out_dt, f"{name}({dtype}) at {where}: dtype {out.dtype.name}, expected {out_dt}"
        rtol = {"float16": 1e-3, "float32": 1e-5, "float64": 1e-12}.get(out_dt)
        assert_close(out, ref, out_dt, rtol=rtol, atol=tol.get(out_dt), msg=f"{name}({dtype}) at {where}")


def test_signed_zero_and_nan_propagation() -> None:
    a = np.array([-0.0, 0.0, np.nan, -np.inf], dtype=np.float32)
    t = Tensor(a)
    assert np.array_equal(np.signbit(t.neg().numpy()), np.signbit(-a))
    assert np.array_equal(np.signbit(t.abs().numpy()), np.signbit(np.abs(a)))
    assert np.array_equal(np.signbit(t.floor().numpy()), np.signbit(np.floor(a)))
    assert np.array_equal(np.signbit(t.round().numpy()), np.signbit(np.round(a)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_round_half_to_even_and_decimals(dtype: str) -> None:
    a = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 1.25, 0.125, 1234.5, -1250.0, 1350.0, 2.675], dtype=dtype)
    for d in (0, 2, -2) if dtype != "float32" else (0, 1, 2, -1, -2):
        assert_close(Tensor(a).round(d), np.round(a, d), msg=f"round({d})")


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8"])
def test_round_integers(dtype: str) -> None:
    a = np.array([0, 5, 15, 25, 49, 50, 75, 125, 99], dtype=dtype)
    if dtype != "uint8":
        a = np.concatenate([a, -a])
    for d in (0, 1, -1) if dtype == "uint8" else (0, 1, -1, -2):
        assert_close(Tensor(a).round(d), np.round(a, d), msg=f"round({d})")


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint32"])
def test_integer_wraparound(dtype: str) -> None:
    info = np.iinfo(dtype)
    a = np.array([info.min, info.min + 1, -1 if info.min else 0, 0, 1, info.max - 1, info.max], dtype=dtype)
    t = Tensor(a)
    with np.errstate(all="ignore"):
        assert_close(
            t.abs() + t.square() * 3 - t.sign() + (-t),
            np.abs(a) + np.square(a) * np.array(3, dtype) - np.sign(a) + (-a),
        )


def test_layouts_cover_the_listed_views() -> None:
    base = np.arange(30).reshape(3, 10)
    assert not LAYOUTS["stepped"][1](base).flags.c_contiguous


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_exp_composites_keep_their_tails(dtype: str) -> None:
    # logsigmoid where its result is tiny (large x: log(1 + e) rounded e away) and at -inf; float16 sigmoid, silu,
    # gelu and softplus compute in float32 (their float16 steps gave 0 below x = -11.1, inf above 11.1, and 1 + erf
    # cancelled in gelu)
    from lazyarr.nn import functional as F

    x = np.array([-15.0, -12.0, -3.0, -1.0, 0.0, 3.0, 6.0, 12.0, 15.0, 25.0, -np.inf], dtype)
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        sig = 1 / (1 + np.exp(-x64))
        want = {"logsigmoid": np.minimum(x64, 0) - np.log1p(np.exp(-np.abs(x64))), "sigmoid": sig,
                "silu": x64 * sig, "gelu": 0.5 * x64 * (1 + _erf(x64 / np.sqrt(2))),
                "softplus": np.where(x64 > 20, x64, np.log1p(np.exp(x64)))}
    rtol = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-13}[dtype]
    atol = 4 * float(np.finfo(dtype).smallest_subnormal)
    for name, want_v in want.items():
        fn = getattr(F, name)
        np.testing.assert_allclose(fn(Tensor(x)).numpy().astype(np.float64), want_v, rtol=rtol, atol=atol, err_msg=name)
        if name != "softplus":  # the Tensor method has no threshold (tinygrad's)
            got = getattr(Tensor(x), name)().numpy().astype(np.float64)
            np.testing.assert_allclose(got, want_v, rtol=rtol, atol=atol, err_msg=f"Tensor.{name}")


def _nan_bits(dtype: str) -> np.ndarray:
    """NaNs of both signs, quiet, with and without payload bits, among ordinary values, as `dtype`."""
    uint = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}[dtype]
    quiet = {"float16": 0x7E00, "float32": 0x7FC00000, "float64": 0x7FF8000000000000}[dtype]
    sign = {"float16": 0x8000, "float32": 0x80000000, "float64": 0x8000000000000000}[dtype]
    payloads = [0, 1, 0x155, 0x1FF] if dtype == "float16" else [0, 1, 0x1234, 0x2AAAA]
    bits = [quiet | p for p in payloads] + [sign | quiet | p for p in payloads]
    nans = np.array(bits, uint).view(dtype)
    return np.concatenate([nans, np.array([1.5, -0.0, 0.0, -np.inf], dtype)])


NAN_SIGN_OPS = {
    "negative": np.negative, "-t": lambda x: -x, "abs": np.abs, "abs()": abs, "fabs": np.fabs,
    "positive": np.positive, "copysign(x, -1)": lambda x: np.copysign(x, -1.0),
    "copysign(-1, x)": lambda x: np.copysign(np.ones(x.shape, x.dtype) * -1, x),
    "astype same": lambda x: x.astype(x.dtype),
    "x * 1": lambda x: x * 1.0, "x + x": lambda x: x + x,
}


@pytest.mark.parametrize("name", list(NAN_SIGN_OPS))
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nan_sign_and_payload_bits_match_numpy(name: str, dtype: str) -> None:
    """The sign bit (and payload) of a NaN through negation, abs, copysign, positive and plain arithmetic are
    NumPy's, bit for bit: float16 results are rounded from float32 registers, and that rounding kept the sign but
    cleared the payload of a NaN (vcvtps2ph, and so NumPy, keep its top bits)."""
    a = _nan_bits(dtype)
    fn = NAN_SIGN_OPS[name]
    want, got = fn(a), np.asarray(fn(Tensor(a)))
    uint = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize]
    assert got.view(uint).tolist() == want.view(uint).tolist()
