"""Binary elementwise ops and operators against NumPy: arithmetic (floor `//` and `%` included), comparisons,
bitwise ops, shifts, maximum/minimum; dtype promotion, weak Python scalars, broadcasting, non-contiguous operands.

True division of integers gives float32 (lazyarr's documented rule; NumPy gives float64): its reference is NumPy's
result cast to float32.
"""

import operator

import numpy as np
import pytest

from lazyarr import Tensor
from tests.helpers import DTYPES, LAYOUTS, assert_close, sample

ARITH = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "maximum": np.maximum,
    "minimum": np.minimum,
}
COMPARE = {
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "eq": operator.eq,
    "ne": operator.ne,
}
BITWISE = {
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
}
ALL = {**ARITH, **COMPARE, **BITWISE}
TENSOR_METHOD = {"maximum": Tensor.maximum, "minimum": Tensor.minimum}


def _apply(name: str, a, b):
    """The op on lazyarr operands (operators where Python has one, else the method)."""
    return TENSOR_METHOD[name](a, b) if name in TENSOR_METHOD else ALL[name](a, b)


def _expected(name: str, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, str]:
    """(NumPy's values, lazyarr's dtype) of `a op b`."""
    with np.errstate(all="ignore"):
        ref = np.asarray(ALL[name](a, b))
    if name == "truediv" and np.result_type(a.dtype, b.dtype).kind in "biu":
        return ref, "float32"
    return ref, ref.dtype.name


def _operands(name: str, dtype: str, shape: tuple[int, ...], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    a = sample(dtype, shape, seed)
    if name == "pow" and dtype not in ("float16", "float32", "float64"):
        b = np.abs(sample(dtype, shape, seed + 1, low=0, high=4))  # NumPy rejects negative integer powers
    elif name in ("lshift", "rshift") and dtype != "bool":
        b = sample(dtype, shape, seed + 1, low=0, high=12)
    else:
        b = sample(dtype, shape, seed + 1)
    return a, b


def _check(name: str, a: np.ndarray, b: np.ndarray, ta, tb, where: str) -> None:
    ref, out_dt = _expected(name, a, b)
    out = _apply(name, ta, tb)
    assert out.dtype.name == out_dt, f"{name} at {where}: dtype {out.dtype.name}, expected {out_dt}"
    rtol = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-13}.get(out_dt)
    assert_close(out, ref, out_dt, rtol=rtol, atol=rtol, msg=f"{name} at {where}: a={a!r} b={b!r}")


def _unsupported(name: str, dtype: str) -> bool:
    if dtype == "bool" and name == "sub":
        return True
    return dtype.startswith("float") and name in BITWISE


@pytest.mark.parametrize("dtype", [*DTYPES, "float16"])
@pytest.mark.parametrize("name", list(ALL))
def test_binary(name: str, dtype: str) -> None:
    if _unsupported(name, dtype):
        with pytest.raises(TypeError):
            _apply(name, Tensor(sample(dtype, (3,))), Tensor(sample(dtype, (3,))))
        return
    shapes = [(0,), (7,), (3, 5), (2, 3, 4)]  # one kernel: contiguous dims merge into one loop
    for shape in shapes:
        a, b = _operands(name, dtype, shape)
        _check(name, a, b, Tensor(a), Tensor(b), f"{dtype}{shape}")


BROADCAST_PAIRS = [((3, 5), (5,)), ((3, 1), (1, 5)), ((), (2, 3, 4)), ((0,), (1,)), ((2, 1, 4), (3, 1)), ((1,), (7,))]


@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_pairs(dtype: str) -> None:
    for k, (sa, sb) in enumerate(BROADCAST_PAIRS):
        a, b = sample(dtype, sa, 0), sample(dtype, sb, 1)
        name = ["add", "lt", "maximum"][k % 3] if dtype != "bool" else ["or", "lt", "maximum"][k % 3]
        _check(name, a, b, Tensor(a), Tensor(b), f"{sa} with {sb}")
        if dtype == "float32":
            _check(name, b, a, Tensor(b), Tensor(a), f"{sb} with {sa}")


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_zero_dim_operands(dtype: str) -> None:
    for name in ("add", "mul", "floordiv", "lt", "maximum"):
        a, b = _operands(name, dtype, ())
        _check(name, a, b, Tensor(a), Tensor(b), f"{dtype}()")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_noncontiguous_operands(layout: str, dtype: str) -> None:
    base_shape, view = LAYOUTS[layout]
    a, b = sample(dtype, base_shape, 0), sample(dtype, base_shape, 1)
    ta, tb = view(Tensor(a)), view(Tensor(b))
    name = "mul" if dtype != "bool" else "xor"
    if dtype in ("float32", "int64"):
        _check(name, view(a), view(b), ta, tb, layout)  # both views
    c = sample(dtype, view(a).shape, 2)
    _check(name, view(a), c, ta, Tensor(c), f"{layout} with contiguous")


MIXED = [
    ("int32", "float32"),
    ("int64", "float16"),
    ("bool", "int32"),
    ("uint8", "int8"),
    ("uint64", "int64"),
    ("float16", "float32"),
    ("int8", "uint16"),
    ("bool", "float64"),
]


@pytest.mark.parametrize("da,db", MIXED)
def test_promotion_between_tensors(da: str, db: str) -> None:
    a, b = sample(da, (3, 4), 0), sample(db, (4,), 1)
    _check("truediv", a, b, Tensor(a), Tensor(b), f"{da} truediv {db}")
    _check("lt", b, a, Tensor(b), Tensor(a), f"{db} lt {da}")
    for name in ("add", "mul", "maximum"):  # dtype only
        assert _apply(name, Tensor(a), Tensor(b)).dtype.name == np.result_type(a, b).name


WEAK = [
    ("int8", -2),
    ("uint8", 7),
    ("int32", 2.5),
    ("int64", True),
    ("float16", 2.5),
    ("float16", 3),
    ("float32", 1e10),
    ("bool", 1),
    ("bool", 1.5),
]


def _weak_dtype(dtype: str, scalar) -> str:
    """NEP 50 with lazyarr's default float: a Python float with an integer/bool tensor gives float32."""
    if isinstance(scalar, bool):
        return dtype
    if isinstance(scalar, int):
        return "int64" if dtype == "bool" else dtype
    return dtype if dtype.startswith("float") else "float32"


@pytest.mark.parametrize("dtype,scalar", WEAK)
def test_weak_python_scalars(dtype: str, scalar) -> None:
    a = sample(dtype, (7,), 0)
    t = Tensor(a)
    out_dt = _weak_dtype(dtype, scalar)
    calc = a.astype(out_dt)
    for name in ("add", "mul", "maximum", "lt"):  # dtypes: no kernel needed
        assert _apply(name, t, scalar).dtype.name == (out_dt if name != "lt" else "bool"), f"{dtype} {name} {scalar!r}"
    assert_close(scalar * t, np.array(scalar).astype(out_dt) * calc, out_dt, msg=f"rmul {scalar!r}")
    assert_close(t < scalar, a < scalar)


def test_reflected_operators() -> None:
    a = sample("float32", (3, 5), 0)
    b = sample("int32", (3, 5), 1)
    t, u = Tensor(a), Tensor(b)
    with np.errstate(all="ignore"):
        assert_close(2 - t, 2 - a)
        assert_close(2 / t, 2 / a)
        assert_close(3.5 // t, np.float32(3.5) // a)
        assert_close(3.5 % t, np.float32(3.5) % a)
        assert_close(2**t, np.float32(2) ** a)
        assert_close(7 // u, 7 // b)
        assert_close(7 % u, 7 % b)
        assert_close(5 & u, 5 & b)
        assert_close(5 | u, 5 | b)
        assert_close(5 ^ u, 5 ^ b)
        assert_close(1 << (u & 7), 1 << (b & 7))
        assert_close(64 >> (u & 7), 64 >> (b & 7))
        assert_close(a - u, a - b)  # an ndarray on the left defers to the Tensor
        assert_close(b.tolist() + u, np.array(b.tolist()) + b)
        got = (*divmod(u, 3), *divmod(7, u), *divmod(t, u))
        for g, ref in zip(got, (*divmod(b, 3), *divmod(7, b), *divmod(a, b))):
            assert_close(g, ref)


def test_numpy_scalars_are_strong() -> None:
    a = sample("float32", (5,), 0)
    assert (Tensor(a) + np.float64(1.5)).dtype.name == "float64"
    assert (Tensor(a.astype(np.uint8)) + np.int64(3)).dtype.name == "int64"
    assert_close(Tensor(a) + np.float64(1.5), a + np.float64(1.5))


def test_inplace_operators_rebind_with_values() -> None:
    a = sample("int32", (3, 5), 0)
    t = Tensor(a)
    expected = a.copy()
    t += 3
    t -= 1
    t *= 2
    t //= 3
    t %= 5
    t &= 6
    t |= 1
    t ^= 2
    t <<= 1
    t >>= 1
    t **= 2
    for op, rhs in (
        ("add", 3),
        ("sub", 1),
        ("mul", 2),
        ("floordiv", 3),
        ("mod", 5),
        ("and_", 6),
        ("or_", 1),
        ("xor", 2),
        ("lshift", 1),
        ("rshift", 1),
        ("pow", 2),
    ):
        expected = getattr(operator, op)(expected, np.int32(rhs))
    assert_close(t, expected)
    f = Tensor(a.astype(np.float32))
    f /= 4
    assert_close(f, a.astype(np.float32) / 4)


def test_integer_division_edge_cases() -> None:
    for dtype in ("int8", "int32", "int64", "uint8", "uint64"):
        info = np.iinfo(dtype)
        a = np.array([7, 0, info.max, info.min, info.min, 5, info.max], dtype=dtype)
        b = np.array([0, 0, 0, 0, -1 if info.min else 1, 3, 1], dtype=dtype)
        if info.min:
            a = np.concatenate([a, np.array([-7, -7, 7], dtype)])
            b = np.concatenate([b, np.array([2, -2, -2], dtype)])
        with np.errstate(all="ignore"):
            assert_close(Tensor(a) // Tensor(b), a // b, msg=f"{dtype} //")
            assert_close(Tensor(a) % Tensor(b), a % b, msg=f"{dtype} %")


def test_int64_overflow_wraps_inside_fused_expressions() -> None:
    # Numba's signed arithmetic is `nsw` (overflow undefined): LLVM folded x + 1 > x to True and (x * 2) // 2 to x
    a = np.array([2**62, 2**63 - 1, -(2**63), -1, 5], dtype=np.int64)
    t = Tensor(a)
    with np.errstate(all="ignore"):
        assert_close(np.greater(t + 1, t), np.greater(a + 1, a))
        assert_close((t - 1) < t, (a - 1) < a)
        assert_close((t * 2) // 2, (a * 2) // 2)
        assert_close(t + -(2**63), a + -(2**63))
        assert_close((t + 1) == -(2**63), (a + 1) == -(2**63))


def test_float_floor_division_and_modulo() -> None:
    a = np.array([1.0, -1.0, 0.0, 1.0, -7.0, 5.0, -5.0, np.inf, np.nan, 5.0, -0.0, 7.5, -7.5], dtype=np.float64)
    b = np.array([0.0, 0.0, 0.0, 0.1, 2.0, np.inf, np.inf, 2.0, 1.0, -np.inf, 1.0, -2.0, 2.0], dtype=np.float64)
    for dtype in ("float16", "float32", "float64"):
        x, y = a.astype(dtype), b.astype(dtype)
        with np.errstate(all="ignore"):
            assert_close(Tensor(x) // Tensor(y), x // y, msg=f"{dtype} //")
            r = (Tensor(x) % Tensor(y)).numpy()
            assert_close(r, x % y, msg=f"{dtype} %")
            assert np.array_equal(np.signbit(r), np.signbit(x % y)), f"{dtype} % sign of zero"


def test_shift_edges_and_bool_shifts() -> None:
    for dtype in ("int8", "int32", "int64", "uint8", "uint64"):
        bits = np.dtype(dtype).itemsize * 8
        a = np.array([1, 3, 5, 1, 100, 100], dtype=dtype)
        b = np.array([0, bits - 1, bits, bits + 5, 2, 1], dtype=dtype)
        if np.dtype(dtype).kind == "i":
            a = np.concatenate([a, np.array([-8, -8, -1], dtype)])
            b = np.concatenate([b, np.array([1, bits + 1, -1], dtype)])
        assert_close(Tensor(a) << Tensor(b), np.left_shift(a, b), msg=f"{dtype} <<")
        assert_close(Tensor(a) >> Tensor(b), np.right_shift(a, b), msg=f"{dtype} >>")
    t = np.array([True, False, True])
    assert_close(Tensor(t) << Tensor(t), t << t)
    assert_close(Tensor(t) >> Tensor(t), t >> t)
    assert_close(Tensor(t) << 2, t << 2)


def test_uint64_shift_and_power_keep_all_64_bits() -> None:
    # values above 2**53 lose bits if any step goes through float64 (Numba's uint64-with-int-literal promotion)
    a = np.array([2**64 - 5, 2**63 + 5, 7, 3], dtype=np.uint64)
    b = np.array([0, 1, 64, 41], dtype=np.uint64)
    assert np.array_equal((Tensor(a) >> Tensor(b)).numpy(), np.right_shift(a, b))
    assert np.array_equal((Tensor(a) ** Tensor(b)).numpy(), np.power(a, b))


def test_maximum_minimum_with_nan() -> None:
    a = np.array([np.nan, 1.0, np.nan, -np.inf, 0.0, -0.0], dtype=np.float32)
    b = np.array([0.0, np.nan, np.nan, 1.0, -0.0, 0.0], dtype=np.float32)
    assert_close(Tensor(a).maximum(Tensor(b)), np.maximum(a, b))
    assert_close(Tensor(a).minimum(Tensor(b)), np.minimum(a, b))
    assert_close(Tensor(a).maximum(0.5), np.maximum(a, np.float32(0.5)))


def test_bool_operators() -> None:
    a, b = sample("bool", (7,), 0), sample("bool", (7,), 1)
    ta, tb = Tensor(a), Tensor(b)
    assert_close(ta + tb, a + b)
    assert_close(ta * tb, a * b)
    assert_close(~ta, ~a)
    assert_close(ta.logical_not(), np.logical_not(a))
    assert_close(ta.logical_and(tb), np.logical_and(a, b))
    assert_close(ta.logical_or(tb), np.logical_or(a, b))
    assert_close(ta.logical_xor(tb), np.logical_xor(a, b))
    assert_close(ta & 1, a & 1)
    assert_close(Tensor(sample("int32", (7,))).logical_and(2.5), np.logical_and(sample("int32", (7,)), 2.5))
    with pytest.raises(TypeError):
        _ = ta - tb
    with pytest.raises(TypeError):
        _ = -ta


@pytest.mark.parametrize("base, exp", [(0.0, -1.0), (-0.0, -1.0), (-0.0, -2.0), (0.0, -0.5), (10.0, 400.0),
                                       (-10.0, 401.0), (-8.0, 0.5), (-2.0, 3.0), (np.nan, 0.0), (1.0, np.nan)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pow_of_a_constant_tensor_special_values(base, exp, dtype):
    # a constant operand folds on Python scalars: C's pow there too (Python's ** raised or gave a complex number)
    got = Tensor.full((2,), base, dtype) ** exp
    with np.errstate(all="ignore"):
        ref = np.full((2,), base, dtype) ** dtype(exp)
    np.testing.assert_array_equal(got.numpy(), ref)
